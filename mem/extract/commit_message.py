"""The body of a commit message the agent wrote in a shell call. Its subject is read from what
`git commit` printed; the paragraphs under it often say why the change was made, what was
found on the way and what is left ("Claude leg of the row remains open"): a note the agent
wrote for the next reader, which its prose may never say again."""

from __future__ import annotations

import re
import shlex

# `git commit`, with git's own options before the subcommand (`git -C repo commit`).
GIT_COMMIT = re.compile(r"\bgit\b(?:\s+-[Cc]\s+\S+)*(?:\s+--?[\w-]+(?:=\S+)?)*\s+commit\b")
# A here-document (`-m "$(cat <<'EOF' … EOF)"`, `-F - <<EOF`): its lines up to the delimiter.
HEREDOC = re.compile(
    r"<<-?\s*(['\"]?)(?P<end>\w+)\1[^\n]*\n(?P<text>.*?)\n[ \t]*(?P=end)\b", re.DOTALL
)
COMMAND_END = re.compile(r"\s(?:&&|\|\||;|\|)\s")
MESSAGE_FLAGS = ("-m", "--message")
# What tools append to every message: co-author and sign-off trailers, "Generated with …".
TRAILER = re.compile(
    r"^\s*(?:[A-Z][\w-]*-by:\s|(?:🤖\s*)?generated\s+(?:with|by)\b|Change-Id:\s)", re.IGNORECASE
)


def commit_body(command: str) -> str:
    """What a `git commit` command's message says below its subject line; "" when it has
    none (a one-line message), or the command is no commit or cannot be read."""
    found = GIT_COMMIT.search(command)
    if found is None:
        return ""
    rest = command[found.end() :]
    heredoc = HEREDOC.search(rest)
    message = heredoc["text"] if heredoc else "\n\n".join(messages(rest))
    _, _, body = message.strip().partition("\n")
    kept = [line for line in body.strip().splitlines() if not TRAILER.match(line)]
    return "\n".join(kept).strip()


def messages(arguments: str) -> list[str]:
    """The values of `-m`/`--message` in a commit's arguments, each a paragraph."""
    cut = COMMAND_END.search(arguments)
    try:
        words = shlex.split(arguments[: cut.start()] if cut else arguments, posix=True)
    except ValueError:
        return []  # an unbalanced quote: the command is cut or not shell
    values = []
    for at, word in enumerate(words):
        if word in MESSAGE_FLAGS and at + 1 < len(words):
            values.append(words[at + 1])
        elif word.startswith("--message="):
            values.append(word.partition("=")[2])
        elif word.startswith("-m") and len(word) > 2 and not word.startswith("--"):
            values.append(word[2:])
    return values
