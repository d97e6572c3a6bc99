"""The commands a session runs to check its work: tests, linters, type checks, formatters,
builds. How the next session runs them is a project fact that the agent shows by doing rather
than says ("mise run test", "bun run lint", "uv run pytest"), and is the same in every session
of a project, so it is read from the shell commands that succeeded, whatever the agent wrote."""

from __future__ import annotations

import re

# A word that names a check, as a program, a script or a subcommand: not an option
# (`--check`, `--build`) nor part of a path (`tests/app.py`).
CHECK_WORD = re.compile(
    r"(?<![\w./:-])(?:test|tests|pytest|jest|vitest|mocha|rspec|phpunit|ctest|lint|eslint|ruff"
    r"|flake8|pylint|mypy|pyright|tsc|typecheck|type-check|clippy|vet|golangci-lint|fmt"
    r"|prettier|black|check|build)(?![\w./-])"
)
# Programs that read, search, move or ask about things: a check word after them is their
# argument (`grep -r test .`, `cat tests/x`, `gh pr checks`), not a check being run.
READERS = (
    "cat less more head tail grep rg ag sed awk ls find echo printf git gh wc diff open code vim"
    " nano cp mv rm mkdir touch which type file stat du curl wget jq sort uniq tee cd export"
    " source test [ true false read sleep kill ps docker-compose"
)
NOT_CHECKS = frozenset(READERS.split())
WRAPPERS = frozenset({"time", "sudo", "env", "nice", "command", "exec"})
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")
# A run of one test by name is a one-off, not how the project is checked.
SELECTOR = re.compile(r"(?:^|\s)(?:-run|-k|--grep|--testNamePattern|--filter)(?:[\s=]|$)|::")
REDIRECT = re.compile(r"\s*(?:\d?>>?\s*&?\s*\S+|&>>?\s*\S+|<\s*\S+)")
TIMEOUT = re.compile(r"^timeout\s+(?:-\S+\s+)*\d+[smhd]?\s+")
SHELL_SCRIPT = re.compile(
    r"^(?:/bin/|/usr/bin/)?(?:ba|z)?sh\s+-l?c\s+(?P<q>['\"])(?P<script>.*)(?P=q)$"
)
MACHINE_PATH = re.compile(r"^(?:/tmp/|/var/|/Users/|/home/|[A-Za-z]:\\|~/)")
WORDS_READ = 4  # a check word counts among a statement's first words: `uv run pytest -q`
MAX_COMMAND = 80  # a longer command is a one-off pipeline, not how the project is checked


def check_commands(command: str) -> tuple[str, ...]:
    """The checks a shell command runs, each as a statement the next session can run again
    (`cd repo && mise run test 2>&1 | tail -50` is `mise run test`); () when it runs none."""
    if wrapped := SHELL_SCRIPT.match(command.strip()):
        command = wrapped["script"]  # `bash -lc 'pytest -q'` runs `pytest -q`
    if "\n" in command.strip() or "<<" in command or "$(" in command or "`" in command:
        return ()  # a script or a heredoc: not one command to run again
    found: list[str] = []
    for run in statements(command):
        if SELECTOR.search(run):
            continue
        run = REDIRECT.sub("", run).strip()
        run = TIMEOUT.sub("", run)
        words = run.split()
        while words and (ASSIGNMENT.match(words[0]) or words[0] in WRAPPERS):
            words = words[1:]  # `CI=1 npm test`: the setting is not the command (nor a secret)
        if not words or words[0].startswith("-") or words[0].rsplit("/", 1)[-1] in NOT_CHECKS:
            continue  # (`command -v golangci-lint` asks whether it is there)
        if any(MACHINE_PATH.match(word) for word in words):
            continue  # `-o /tmp/x.test`: this machine's, not how the project is checked
        if not any(CHECK_WORD.search(word) for word in words[:WORDS_READ]):
            continue
        said = " ".join(words)
        if len(said) <= MAX_COMMAND and said not in found:
            found.append(said)
    return tuple(found)


def statements(command: str) -> list[str]:
    """The statements of a command line (split at `&&`, `||`, `;` and `&` outside quotes), each
    without what it is piped into (`| tail -50` only filters its output)."""
    found: list[str] = []
    current: list[str] = []
    quote = ""
    piped = False
    index = 0
    while index < len(command):
        char = command[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif command.startswith(("&&", "||"), index) or char == ";" or background(command, index):
            found.append("".join(current))  # `&` alone runs what is before it in the background
            current, piped = [], False
            index += 2 if command.startswith(("&&", "||"), index) else 1
            continue
        elif char == "|":
            piped = True
        if not piped:
            current.append(char)
        index += 1
    found.append("".join(current))
    return [statement for statement in found if statement.strip()]


def background(command: str, index: int) -> bool:
    """Whether the `&` at `index` sends what is before it to the background (not `2>&1`)."""
    return (
        command[index] == "&"
        and command[index - 1 : index] != ">"
        and command[index + 1 : index + 2] not in (">", "&")
    )
