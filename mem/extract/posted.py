"""What the agent posted for other people in a shell call: the description of a pull request
it opened, an issue it filed, a comment or release notes it wrote (`gh pr create --body …`).
Such a text is written to be read by someone who was not in the session: the problem, its root
cause, the fix and what is left open, often said nowhere else in the session's prose."""

from __future__ import annotations

import re
import shlex

from mem.extract.commit_message import TRAILER, script_of

# The commands that post text, and the options that carry it (`gh pr create --body`, `gh
# release create --notes`, `gh issue close --comment`, `glab mr create --description`).
POSTS = re.compile(
    r"\b(?:gh\s+(?:pr|issue)\s+(?:create|comment|edit|review|close)"
    r"|gh\s+release\s+(?:create|edit)"
    r"|glab\s+(?:mr|issue)\s+(?:create|note|update))\b"
)
# Each program's own: `gh pr create -m` is a milestone, `-d` a draft.
TEXT_FLAGS = {
    "gh": frozenset({"--body", "-b", "--notes", "-n", "--comment", "-c"}),
    "glab": frozenset({"--description", "-d", "--message", "-m"}),
}
FILE_FLAGS = r"(?:--body-file|--notes-file|-F)"
FLAG = r"(?:--body|-b|--notes|-n|--comment|-c|--description|-d|--message|-m)"
# A here-document given as the text: `--body "$(cat <<'EOF'` or `--body-file - <<'EOF'`; its
# lines up to the delimiter.
HEREDOC = re.compile(
    rf"(?:{FLAG}[\s=]+\"?\$\(\s*cat\s*|{FILE_FLAGS}[\s=]+-\s*)"
    r"<<-?\s*(['\"]?)(?P<end>\w+)\1[^\n]*\n(?P<text>.*?)\n[ \t]*(?P=end)\b",
    re.DOTALL,
)
OPENS = re.compile(r"\b(?:gh\s+pr|glab\s+mr)\s+create\b")  # what opens a pull request
TITLE_FLAGS = frozenset({"--title", "-t"})
VARIABLE = re.compile(r"^\$\{?(?P<name>\w+)\}?$")  # `$BODY`, `${BODY}`, PowerShell's `$c`
OPERATORS = frozenset({"&&", "||", ";", "|", "&", ";;"})


def pull_request_title(command: str) -> str:
    """The title of the pull request (a merge request) a command opens; "" for another
    command, or one whose title git takes from the commits (`--fill`)."""
    script = script_of(command)
    found = OPENS.search(script)
    return option_value(script[found.end() :], TITLE_FLAGS).strip() if found else ""


def posted_text(command: str) -> str:
    """The text a command posts (a pull request's or an issue's description, a comment,
    release notes), without the trailers tools add; "" when it posts none or cannot be read."""
    script = script_of(command)
    found = POSTS.search(script)
    if found is None:
        return ""
    rest = script[found.end() :]
    heredoc = HEREDOC.search(rest)
    flags = TEXT_FLAGS[found[0].split()[0]]
    text = heredoc["text"] if heredoc else option_value(rest, flags)
    if variable := VARIABLE.match(text.strip()):
        text = assigned(script[: found.start()], variable["name"])
    kept = [line for line in text.strip().splitlines() if not TRAILER.match(line)]
    return "\n".join(kept).strip()


def option_value(arguments: str, flags: frozenset[str]) -> str:
    """The value of the text option in a command's arguments, up to the end of the command."""
    lexer = shlex.shlex(arguments, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return ""  # an unbalanced quote: the command is cut or not shell
    for at, word in enumerate(words):
        if word in OPERATORS:
            break
        flag, equals, value = word.partition("=")
        if flag in flags and equals:
            return unescaped(value)
        if word in flags and at + 1 < len(words):
            return unescaped(words[at + 1])
    return ""


def unescaped(text: str) -> str:
    """A double-quoted shell string as the program gets it: `\\`` and `\\$` are the characters."""
    return text.replace("\\`", "`").replace("\\$", "$")


def assigned(script: str, name: str) -> str:
    """What a variable the text was given in holds, where the script set it before: a
    here-document (`BODY=$(cat <<'EOF' …)`), a quoted string, or a PowerShell here-string
    (`$body = @' … '@`). The last assignment wins, as in the shell."""
    name = re.escape(name)
    forms = (
        (
            rf"(?m)^\s*{name}=\"?\$\(\s*cat\s*<<-?\s*(['\"]?)(?P<end>\w+)\1[^\n]*\n"
            r"(?P<text>.*?)\n[ \t]*(?P=end)\b"
        ),
        rf"(?m)^\s*\${name}\s*=\s*@(?P<q>['\"])[ \t]*\n(?P<text>.*?)\n(?P=q)@",
        rf"(?m)^\s*(?:export\s+)?{name}=(?P<q>['\"])(?P<text>.*?)(?<!\\)(?P=q)",
    )
    found = [match for form in forms for match in re.finditer(form, script, re.DOTALL)]
    if not found:
        return ""
    last = max(found, key=lambda match: match.start())
    return unescaped(last["text"])
