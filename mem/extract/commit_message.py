"""The body of a commit message the agent wrote in a shell call. Its subject is read from what
`git commit` printed; the paragraphs under it often say why the change was made, what was
found on the way and what is left ("Claude leg of the row remains open"): a note the agent
wrote for the next reader, which its prose may never say again."""

from __future__ import annotations

import re
import shlex

# `git commit`, with git's own options before the subcommand (`git -C repo commit`).
GIT_COMMIT = re.compile(r"\bgit\b(?:\s+-[Cc]\s+\S+)*(?:\s+--?[\w-]+(?:=\S+)?)*\s+commit\b")
# A here-document given as the message (`-m "$(cat <<'EOF'`, `-F - <<EOF`, `--file=-`): its
# lines up to the delimiter. One elsewhere in the command is another program's input.
HEREDOC = re.compile(
    r"(?:-[a-zA-Z]*m\s*\"?\$\(\s*cat\s*|(?:-F|--file)(?:\s+|=)-\s*)"
    r"<<-?\s*(['\"]?)(?P<end>\w+)\1[^\n]*\n(?P<text>.*?)\n[ \t]*(?P=end)[ \t]*(?=\n|\)|$)",
    re.DOTALL,
)
SHELLS = frozenset({"sh", "bash", "zsh", "/bin/sh", "/bin/bash", "/bin/zsh", "/usr/bin/bash"})
SHELL_SCRIPT = re.compile(r"^-[a-z]*c$")  # `-c`, `-lc`: the next word is the script
OPERATORS = frozenset({"&&", "||", ";", "|", "&", ";;"})
MESSAGE_FLAG = re.compile(r"^-[a-zA-Z]*m$")  # `-m`, `-am`, `-sm`: the message is the next word
# What tools append to every message: co-author and sign-off trailers, "Generated with …".
TRAILER = re.compile(
    r"^\s*(?:[A-Z][\w-]*-by:\s|(?:🤖\s*)?generated\s+(?:with|by)\b|Change-Id:\s)", re.IGNORECASE
)


def commit_body(command: str) -> str:
    """What a `git commit` command's message says below its subject line; "" when it has
    none (a one-line message), or the command is no commit or cannot be read."""
    _, _, body = commit_message(command).partition("\n")
    kept = [line for line in body.strip().splitlines() if not TRAILER.match(line)]
    return "\n".join(kept).strip()


def commit_subject(command: str) -> str:
    """The first line of a `git commit` command's message; "" when it gives none."""
    return commit_message(command).partition("\n")[0].strip()


def commit_message(command: str) -> str:
    """The message a `git commit` command gives (`-m` paragraphs or a here-document)."""
    command = script_of(command)
    found = GIT_COMMIT.search(command)
    if found is None:
        return ""
    rest = command[found.end() :]
    heredoc = HEREDOC.search(rest)
    return (heredoc["text"] if heredoc else "\n\n".join(messages(rest))).strip()


def script_of(command: str) -> str:
    """The script a shell is given (`bash -lc '…'`, as a reader joins a command given as a
    list), else the command as it is."""
    if not command.lstrip().startswith(tuple(SHELLS)):
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if len(words) >= 3 and words[0] in SHELLS and SHELL_SCRIPT.match(words[1]):
        return words[2]
    return command


def messages(arguments: str) -> list[str]:
    """The values of `-m`/`--message` in a commit's arguments, each a paragraph, up to the
    end of the commit command (an operator outside quotes)."""
    lexer = shlex.shlex(arguments, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    values: list[str] = []
    try:
        words = list(lexer)
    except ValueError:
        return []  # an unbalanced quote: the command is cut or not shell
    for at, word in enumerate(words):
        if word in OPERATORS:
            break
        if MESSAGE_FLAG.match(word) and at + 1 < len(words):
            values.append(words[at + 1])
        elif word.startswith("--message="):
            values.append(word.partition("=")[2])
    return values
