"""The commands a session runs to check its work: tests, linters, type checks, formatters,
builds. How the next session runs them is a project fact that the agent shows by doing rather
than says ("mise run test", "bun run lint", "uv run pytest"), and is the same in every session
of a project, so it is read from the shell commands that succeeded, whatever the agent wrote."""

from __future__ import annotations

import re
import shlex


def names(words: str) -> frozenset[str]:
    return frozenset(words.split())


# What each word that names a check says it checks, most specific first.
KINDS: tuple[tuple[str, str], ...] = (
    ("Tests", r"tests?|pytest|jest|vitest|mocha|rspec|phpunit|ctest|playwright|tox|nox"),
    ("Type check", r"mypy|pyright|tsc|typecheck|type-check"),
    ("Format", r"fmt|format|prettier|black"),
    ("Lint", r"lint|eslint|ruff|flake8|pylint|clippy|vet|golangci-lint|biome|rubocop|shellcheck"),
    ("Build", r"build"),
    ("Checks", r"check"),
)
# A word naming a check, as a program, a script or a subcommand (`test:unit` too): not a
# path (`tests/app.py`) nor a file (`test.py`).
CHECK_WORD = re.compile(r"(?:" + "|".join(words for _, words in KINDS) + r")(?![\w./-])")
KIND_WORDS = tuple((kind, re.compile(rf"(?:{words})(?![\w./-])")) for kind, words in KINDS)
# Programs that are checks themselves, and programs that run them (`npm run lint`,
# `go test`, `python -m pytest`, `make check`). Anything else (`grep test`, `psql test`,
# `docker build`) only has a check word for an argument.
CHECK_TOOLS = names(
    "pytest jest vitest mocha rspec phpunit ctest playwright tox nox mypy pyright tsc eslint ruff"
    " flake8 pylint golangci-lint biome rubocop shellcheck prettier black"
)
RUNNERS = names(
    "npm pnpm yarn bun npx pnpx bunx mise make just task cargo go uv uvx poetry pdm hatch rye"
    " python python3 py gradle gradlew mvn mvnw dotnet swift mix zig deno rake bundle bazel"
    " bazelisk flutter dart composer sbt lein stack cabal turbo nx"
)
# A language toolchain's own checks: `go test ./...` is how every Go project is checked, where
# `make lint`, `npm run test:unit`, `python manage.py test` or `deno task check` is how this one is.
TOOLCHAIN_CHECKS = {
    "go": names("test build vet fmt"),
    "cargo": names("test build check clippy fmt"),
    "dotnet": names("test build format"),
    "swift": names("test build"),
    "zig": names("build test"),
    "deno": names("test lint fmt check"),
    "dart": names("test analyze format"),
    "flutter": names("test analyze"),
    "mix": names("test format compile"),
    "stack": names("test build"),
    "cabal": names("test build"),
    "sbt": names("test compile"),
    "lein": names("test"),
}
# A runner's subcommands that set the project up rather than check it (`npm install jest`).
SETUP = names("install i add remove uninstall upgrade update ci init create")
# Options that ask about the tool or keep it running: no check is done and over.
NOT_A_RUN = frozenset({"--version", "-V", "--help", "-h", "--watch", "watch"})
WRAPPERS = frozenset({"time", "env", "nice", "command", "exec", "sudo"})
SHELL_WORDS = names("if then else elif fi for do done while until case esac function")
SHELLS = frozenset({"bash", "sh", "zsh"})
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
REDIRECT = re.compile(r"\s*(?:\d?>>?\s*&?\s*\S+|&>>?\s*\S+|<\s*\S+)")
TIMEOUT = re.compile(r"^timeout\s+(?:-\S+\s+)*\d+[smhd]?\s+")
# A run of one test by name is a one-off, not how the project is checked.
SELECTOR = re.compile(r"(?:^|\s)(?:-run|-k|--grep|--testNamePattern|--filter)(?:[\s=]|$)|::")
MACHINE_PATH = re.compile(r"^(?:/tmp/|/var/|/Users/|/home/|[A-Za-z]:\\|~/)")
WORDS_READ = 4  # a check word counts among a statement's first words: `uv run pytest -q`
MAX_COMMAND = 80  # a longer command is a one-off pipeline, not how the project is checked
MAX_SCANNED = 2000  # a longer command line is a script pasted into a shell call


def check_commands(command: str) -> tuple[str, ...]:
    """The checks a shell command runs, each as a statement the next session can run again
    (`cd repo && mise run test 2>&1 | tail -50` is `mise run test`); () when it runs none."""
    if len(command) > MAX_SCANNED:
        return ()
    command = unwrapped(command.strip())
    if "\n" in command or "<<" in command or "$(" in command or "`" in command:
        return ()  # a script or a heredoc: not one command to run again
    split = statements(command)
    if split is None:
        return ()
    found: list[str] = []
    for run in split:
        said = checked(run)
        if said and len(said) <= MAX_COMMAND and said not in found:
            found.append(said)
    return tuple(found)


def checked(statement: str) -> str:
    """One statement as the check it runs, or "" when it runs none."""
    if SELECTOR.search(statement):
        return ""
    plain = TIMEOUT.sub("", REDIRECT.sub("", statement).strip())
    try:
        # A Windows command's backslashes are its paths (`.\venv\Scripts\python.exe`), not
        # escapes: its words are split as written.
        words = plain.split() if "\\" in plain else shlex.split(plain)
    except ValueError:
        return ""  # unbalanced quotes: not a command to run again
    while words and (ASSIGNMENT.match(words[0]) or words[0] in WRAPPERS):
        if words[0] in WRAPPERS and words[1:2] and words[1].startswith("-"):
            return ""  # `sudo -u x …`, `nice -n 10 …`: not how the project is checked
        words = words[1:]  # `CI=1 TOKEN="a b" npm test`: the settings are not the command
    if not words or words[0] in SHELL_WORDS or NOT_A_RUN.intersection(words):
        return ""
    if any(MACHINE_PATH.match(word) for word in words):
        return ""  # `-o /tmp/x.test`: this machine's, not how the project is checked
    program = re.split(r"[\\/]", words[0])[-1].removesuffix(".exe")
    if program in CHECK_TOOLS:
        return said_as(words)
    stem = program.rsplit(".", 1)[0]
    if ("/" in words[0] or "\\" in words[0]) and CHECK_WORD.fullmatch(stem):
        return said_as(words)  # `./scripts/test.sh`, `bin/lint`
    if program.removeprefix("./") not in RUNNERS or words[1:2] and words[1] in SETUP:
        return ""
    if not any(CHECK_WORD.match(word) for word in words[1:WORDS_READ]):
        return ""
    return said_as(words)


def said_as(words: list[str]) -> str:
    """A command's words as one line to run again (quoted where a word needs it, in a POSIX
    shell; a Windows command as written)."""
    return " ".join(words) if any("\\" in word for word in words) else shlex.join(words)


def kind_of(check: str) -> str:
    """What a check checks, as a label: "Tests", "Lint", "Type check", "Format", "Build"; the
    most specific a word of it names (`ruff format --check` formats, `ruff check` lints)."""
    first, *rest = check.split()[:WORDS_READ]
    words = [first.rsplit("/", 1)[-1].rsplit(".", 1)[0], *rest]  # `./scripts/test.sh`
    for kind, pattern in KIND_WORDS:
        if any(pattern.match(word) for word in words):
            return kind
    return "Checks"


def unwrapped(command: str) -> str:
    """`bash -lc 'pytest -q'` is `pytest -q`."""
    if command.split(" ", 1)[0].rsplit("/", 1)[-1] not in SHELLS:
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if len(words) == 3 and words[1] in ("-c", "-lc"):
        return words[2]
    return command


def statements(command: str) -> list[str] | None:
    """The statements of a command line (split at `&&`, `||`, `;` and `&` outside quotes), each
    without what it is piped into (`| tail -50` only filters its output) or a comment; None for
    a subshell or a group (`(cd web && npm test)`), which is a script, not a command."""
    found: list[str] = []
    current: list[str] = []
    quote = ""
    piped = False
    index = 0
    while index < len(command):
        char = command[index]
        if quote:
            quote = "" if char == quote else quote
        elif char == "\\":
            current.append(command[index : index + 2] if not piped else "")
            index += 2
            continue
        elif char in "'\"":
            quote = char
        elif char in "(){}":
            return None
        elif char == "#" and (not current or current[-1].isspace()):
            break  # a comment to the end of the line
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


def is_toolchain_default(check: str) -> bool:
    """Whether a check is its language toolchain's own command (`go build ./...`, `cargo
    test`), which every project of that language shares, rather than the project's script or
    a tool it configures (`mise run test`, `npm run lint`, `npx tsc --noEmit`, `mix check`)."""
    words = check.split()
    return len(words) > 1 and words[1] in TOOLCHAIN_CHECKS.get(words[0].rsplit("/", 1)[-1], ())
