"""Before an agent edits a file or runs a command: the lessons and warnings that name it.

This runs before every edit and command an agent makes, so it answers from the lessons and
warnings the index keeps in a file beside it (no Whoosh, no ranking) and says nothing unless an entry names the very
file (by its file name) or the command (program and subcommand, `git push`; a program alone
only when it is not an everyday tool, `terraform`). The agent reads what it says as context,
so it says little: the newest few entries, each cut short.
"""

import re
import shlex
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any, NamedTuple

from mem.config import Settings, check_agent
from mem.model import Entry
from mem.services.refresh import fresh_notes
from mem.text import cut_words

NOTES_LIMIT = 3  # entries shown before one tool call
NOTE_CHARS = 320  # of each entry's text
# Tools that write files, by agent: Claude Code, Gemini CLI and Codex name them differently.
FILE_KEYS = ("file_path", "notebook_path", "absolute_path", "path")
COMMAND_KEYS = ("command", "cmd")
PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.MULTILINE)
ENDS = frozenset(";&|()")  # operators that end a simple command
REDIRECTS = frozenset("<>")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
WORDLIKE = re.compile(r"^[a-z][a-z0-9_-]*$")
FILE_LIKE = re.compile(r"[\w-]\.[A-Za-z0-9]{1,8}$")
# Words before the real program: `sudo make`, `npx prisma`, `uv run pytest`, `python -m pip`.
PREFIXES = frozenset({"sudo", "env", "time", "nohup", "exec", "command", "npx", "bunx", "pnpx"})
RUNNERS = {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("bundle", "exec")}
MODULE_RUNNERS = frozenset({"python", "python3", "py"})
SHELLS = frozenset({"bash", "sh", "zsh"})
# Programs whose first argument is a file or a pattern, never a subcommand (`cd app`).
NO_SUBCOMMANDS = frozenset(
    {
        *("cd", "ls", "cat", "echo", "printf", "grep", "rg", "find", "sed", "awk", "head"),
        *("tail", "mkdir", "rm", "cp", "mv", "touch", "chmod", "chown", "pwd", "sleep", "true"),
        *("false", "test", "wc", "sort", "uniq", "xargs", "tee", "less", "more", "diff"),
        *("which", "ln", "stat", "file", "du", "df"),
    }
)
# Everyday programs: named alone, they would bring up every note that mentions them.
EVERYDAY = NO_SUBCOMMANDS | {
    *("bash", "sh", "zsh", "python", "python3", "node", "env", "git", "npm", "pip", "pip3"),
    *("make", "go", "cargo", "uv", "yarn", "pnpm", "bun", "ruby", "java", "curl", "wget", "tar"),
}


class Targets(NamedTuple):
    """What a tool call is about to touch."""

    files: tuple[str, ...] = ()  # paths as given
    commands: tuple[tuple[str, ...], ...] = ()  # (program,) or (program, subcommand)


def targets_of(tool_input: Mapping[str, Any]) -> Targets:
    """The files and commands in a tool call's input, whatever the agent calls its tools:
    a path under `file_path` and the like, a shell command (a string or argv), or an
    `apply_patch` body that names its files."""
    files: list[str] = []
    commands: list[tuple[str, ...]] = []
    for key in FILE_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            files.append(value.strip())
    for key in COMMAND_KEYS:
        value = tool_input.get(key)
        if isinstance(value, list) and all(isinstance(word, str) for word in value):
            value = shlex.join(value)
        if isinstance(value, str) and "*** Begin Patch" in value:
            files += [path.strip() for path in PATCH_FILE.findall(value)]  # Codex's apply_patch
        elif isinstance(value, str) and value.strip():
            found_files, found_commands = parse_command(value)
            files += found_files
            commands += found_commands
    for key in ("input", "patch"):
        value = tool_input.get(key)
        if isinstance(value, str):
            files += [path.strip() for path in PATCH_FILE.findall(value)]
    return Targets(tuple(dict.fromkeys(files)), tuple(dict.fromkeys(commands)))


def parse_command(text: str) -> tuple[list[str], list[tuple[str, ...]]]:
    """The commands of a shell line, each as its program and subcommand, and the files its
    arguments name (`pytest tests/test_auth.py`)."""
    files: list[str] = []
    commands: list[tuple[str, ...]] = []
    for segment in segments(text):
        words = unwrap(segment)
        if not words:
            continue
        program = file_name(words[0])
        rest = words[1:]
        script = shell_script(program, rest)
        if script is not None:  # `bash -lc "make release"`, as Codex used to send commands
            inner_files, inner_commands = parse_command(script)
            files += inner_files
            commands += inner_commands
            continue
        plain = program.lower() in NO_SUBCOMMANDS
        subcommand = next((w for w in rest[:1] if WORDLIKE.match(w) and not plain), "")
        if subcommand:
            commands.append((program, subcommand))
        elif program.lower() not in EVERYDAY and WORDLIKE.match(program.lower()):
            commands.append((program,))
        # A script run by its path is a file touched (`./deploy.sh`); an installed program's
        # path (`/usr/bin/python`) is not.
        named = rest if words[0].startswith("/") else words
        files += [w for w in named if not w.startswith("-") and ("/" in w or FILE_LIKE.search(w))]
    return files, commands


def segments(text: str) -> list[list[str]]:
    """The simple commands of a shell line, as words: split at `&&`, `||`, `;`, `|`, `&`
    and line ends outside quotes; a redirection's file stays an argument. An unclosed quote
    is read word by word."""
    lexer = shlex.shlex(text.replace("\n", ";"), posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        tokens = list(lexer)
    except ValueError:
        tokens = text.split()
    found: list[list[str]] = [[]]
    for token in tokens:
        if token and set(token) <= ENDS:
            found.append([])
        elif not (token and set(token) <= REDIRECTS):
            found[-1].append(token)
    return [words for words in found if words]


def unwrap(words: list[str]) -> list[str]:
    """Skip what runs the real program: variable assignments, `sudo`, `npx`, `uv run`,
    `python -m`."""
    while words:
        first = file_name(words[0]).lower()
        if ASSIGNMENT.match(words[0]) or first in PREFIXES:
            words = words[1:]
        elif len(words) > 1 and ((first, words[1]) in RUNNERS or runs_module(first, words)):
            words = words[2:]
        else:
            break
    return words


def shell_script(program: str, rest: list[str]) -> str | None:
    """The script of `bash -c SCRIPT` (or -lc, -ic), if that is what this is."""
    if program in SHELLS and len(rest) >= 2 and rest[0] in ("-c", "-lc", "-ic"):
        return rest[1]
    return None


def runs_module(program: str, words: list[str]) -> bool:
    return program in MODULE_RUNNERS and len(words) > 2 and words[1] == "-m"


def file_name(path: str) -> str:
    name = PureWindowsPath(path).name if "\\" in path else PurePosixPath(path).name
    return name or path


def notes_for(settings: Settings, tool_input: Mapping[str, Any]) -> tuple[list[str], list[Entry]]:
    """The newest lessons and warnings, visible to the agent, that name what the tool call
    is about to touch, and the names they matched (`settings.py`, `git push`); none when
    nothing names it."""
    agent = check_agent(settings.agent)
    targets = targets_of(tool_input)
    if not targets.files and not targets.commands:
        return [], []
    wanted = list(patterns(targets))
    found: list[tuple[Entry, str]] = []
    words = [name.split()[0].lower() for name, _ in wanted]
    now = datetime.now(UTC)
    for entry in fresh_notes(settings.require_vault(), words):  # newest first
        if entry.archived or entry.is_superseded or entry.has_expired(now):
            continue
        if not entry.is_visible_to(agent):
            continue
        named = next((name for name, pattern in wanted if pattern.search(entry.body)), None)
        if named is not None:
            found.append((entry, named))
            if len(found) == NOTES_LIMIT:
                break
    return list(dict.fromkeys(named for _, named in found)), [entry for entry, _ in found]


def patterns(targets: Targets) -> Iterable[tuple[str, re.Pattern[str]]]:
    """Each target as its name and the pattern an entry's text must match to name it: the
    file name or the program and subcommand as whole words (`login.py`, `git push`), not
    parts of longer ones (`xlogin.py`, `git pushed`)."""
    for path in targets.files:
        name = file_name(path)
        yield name, re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    for command in targets.commands:
        spaced = r"\s+".join(re.escape(word) for word in command)
        yield " ".join(command), re.compile(rf"(?<![\w.-]){spaced}(?![\w-])", re.IGNORECASE)


def note_text(entry: Entry) -> str:
    """One line per entry: its kind, date and text, cut short."""
    body = cut_words(" ".join(entry.body.split()), NOTE_CHARS)
    return f"- {entry.kind}, {entry.date:%Y-%m-%d} ({entry.id}): {body}"
