"""What the agent posted for other people in a shell call: the description of a pull request
it opened, an issue it filed, a comment or release notes it wrote (`gh pr create --body …`).
Such a text is written to be read by someone who was not in the session: the problem, its root
cause, the fix and what is left open, often said nowhere else in the session's prose."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from typing import NamedTuple

from mem.extract.commit_message import TRAILER, script_of

# A command that posts text, at the start of a command of the script (after settings such as
# `GH_TOKEN=… ` and a wrapper such as `rtk`): its program, what it acts on and the action.
POSTS = re.compile(
    r"\s*(?:\w+=\S*\s+)*(?:(?:rtk|env|command|sudo)\s+)?"
    r"(?P<program>gh|glab)\s+(?P<thing>pr|mr|issue|release)\s+"
    r"(?P<action>create|comment|edit|review|close|note|update)\b"
)
# The options that carry the text, for each program and action: `gh pr create -m` is a
# milestone and `-d` a draft, `gh pr review -c` says the review is a comment.
TEXT_FLAGS = {
    ("gh", "create"): frozenset({"--body", "-b"}),
    ("gh", "edit"): frozenset({"--body", "-b"}),
    ("gh", "comment"): frozenset({"--body", "-b"}),
    ("gh", "review"): frozenset({"--body", "-b"}),
    ("gh", "close"): frozenset({"--comment", "-c"}),
    ("glab", "create"): frozenset({"--description", "-d"}),
    ("glab", "update"): frozenset({"--description", "-d"}),
    ("glab", "note"): frozenset({"--message", "-m"}),
}
RELEASE_FLAGS = frozenset({"--notes", "-n"})
TITLE_FLAGS = frozenset({"--title", "-t"})
# A here-document's lines, from its opener to the line that is its delimiter alone (what may
# follow that line is for each use to say).
HEREDOC_LINES = r"<<-?[ \t]*(['\"]?)(?P<end>\w+)\1[^\n]*\n(?P<text>.*?)\n[ \t]*(?P=end)[ \t]*"
# A here-document given as the text: `--body "$(cat <<'EOF'`, `--body-file - <<'EOF'`.
HEREDOC = re.compile(
    r"(?<![\w-])(?:(?:--body|-b|--notes|-n|--comment|-c|--description|-d|--message|-m)"
    r"[ \t=]+\"?\$\([ \t]*cat[ \t]*|(?:--body-file|--notes-file|-F)[ \t=]+-[ \t]*)"
    + HEREDOC_LINES
    + r"(?=\n|\)|$)",
    re.DOTALL,
)
VARIABLE = re.compile(r"^\$\{?(?P<name>\w+)\}?$")  # `$BODY`, `${BODY}`, PowerShell's `$c`
OPERATORS = ("&&", "||", ";;", ";", "|", "&", "\n")
HERE_STRING = re.compile(r"@(['\"])[ \t]*(?=\n)")  # PowerShell's here-string opens
HEREDOC_START = re.compile(r"<<(-?)[ \t]*(['\"]?)(\w+)\2")


class Command(NamedTuple):
    """One simple command of a script: where it starts, where its line ends (its words) and
    where it ends (after the here-documents it opened)."""

    start: int
    line_end: int
    end: int


class Frame:
    """A level of the script being read: the whole, or a `$(…)` within it."""

    def __init__(self, start: int, quote: str = "") -> None:
        self.start = start  # where its current command starts
        self.quote = quote  # the quote it was opened in, given back when it closes
        self.heredocs: list[tuple[bool, str]] = []  # opened on the line: (tabs stripped, end)


def commands(script: str) -> Iterator[Command]:
    """The simple commands of a script, as a shell splits it: at `&&`, `||`, `;`, `|`, `&`
    and line ends outside quotes, within `$(…)` too; a here-document's lines belong to the
    command that opened it and are never commands of their own."""
    frames = [Frame(0)]
    quote = ""
    at = 0
    while at < len(script):
        char = script[at]
        if quote == "'":
            quote = "" if char == "'" else quote
            at += 1
            continue
        if char == "\\":
            at += 2
            continue
        if script.startswith("$(", at):
            frames.append(Frame(at + 2, quote))
            quote = ""
            at += 2
            continue
        if quote == '"':
            quote = "" if char == '"' else quote
        elif here_string := HERE_STRING.match(script, at):
            # PowerShell's `@' … '@`: its lines are text, whatever quotes they hold
            closer = script.find(f"\n{here_string[1]}@", here_string.end())
            at = closer + 3 if closer != -1 else len(script)
            continue
        elif char in "'\"":
            quote = char
        elif char == ")" and len(frames) > 1:
            frame = frames.pop()
            yield Command(frame.start, at, at)
            quote = frame.quote
        elif char == "#" and (at == 0 or script[at - 1] in " \t\n;&|("):
            at = newline if (newline := script.find("\n", at)) != -1 else len(script)
            continue
        elif heredoc := HEREDOC_START.match(script, at):
            frames[-1].heredocs.append((bool(heredoc[1]), heredoc[3]))
            at = heredoc.end()
            continue
        elif operator := next((op for op in OPERATORS if script.startswith(op, at)), ""):
            frame, end = frames[-1], at + len(operator)
            for tabs, delimiter in frame.heredocs if operator == "\n" else ():
                end = after_heredoc(script, end, delimiter, tabs)
            yield Command(frame.start, at, end)
            frame.start, frame.heredocs = end, []
            at = end
            continue
        at += 1
    yield Command(frames[0].start, len(script), len(script))


def after_heredoc(script: str, at: int, delimiter: str, tabs: bool) -> int:
    """Where the script goes on after a here-document whose lines start at `at`."""
    while at < len(script):
        newline = script.find("\n", at)
        line = script[at : newline if newline != -1 else len(script)]
        at = newline + 1 if newline != -1 else len(script)
        if (line.lstrip("\t") if tabs else line).rstrip() == delimiter:
            break
    return at


class Post(NamedTuple):
    """What one command posts: its text, and the title of the pull request it opens."""

    text: str
    title: str


def posts(command: str) -> Iterator[Post]:
    """What each command of a shell call posts for other people (a pull request's or an
    issue's description, a comment, release notes), without the trailers tools add. A text
    or title the shell would compute (`$(git log -1 --format=%s)`) cannot be read: it is
    left out."""
    script = script_of(command)
    if "gh " not in script and "glab " not in script:
        return
    for found in commands(script):
        posting = POSTS.match(script, found.start, found.line_end)
        if posting is None:
            continue
        program, thing, action = posting["program"], posting["thing"], posting["action"]
        flags = RELEASE_FLAGS if thing == "release" else TEXT_FLAGS.get((program, action))
        if flags is None:
            continue
        before = script[: found.start]
        words = script[posting.end() : found.line_end]
        heredoc = HEREDOC.search(script, posting.end(), found.end)
        text = heredoc["text"] if heredoc else resolved(option_value(words, flags), before)
        opens = action == "create" and thing in ("pr", "mr")
        title = resolved(option_value(words, TITLE_FLAGS), before) if opens else ""
        kept = [line for line in text.strip().splitlines() if not TRAILER.match(line)]
        text = "\n".join(kept).strip()
        if text or title.strip():
            yield Post(text, " ".join(title.split()))


def posted(command: str) -> tuple[str, str]:
    """All a command posts, one text after another, and the title of the first pull request
    it opens: `posts` read once."""
    found = list(posts(command))
    text = "\n\n".join(post.text for post in found if post.text)
    return text, next((post.title for post in found if post.title), "")


def option_value(words: str, flags: frozenset[str]) -> str:
    """The value of the first of `flags` among a command's words."""
    lexer = shlex.shlex(words, posix=True)
    lexer.whitespace_split = True
    previous = ""
    try:
        for word in lexer:
            flag, equals, value = word.partition("=")
            if flag in flags and equals:
                return unescaped(value)
            if previous in flags:
                return unescaped(word)
            previous = word
    except ValueError:
        pass  # an unbalanced quote: the command is cut or not shell
    return ""


def resolved(value: str, before: str) -> str:
    """A value as the program gets it: a variable the script set before is what it holds; a
    value the shell would compute (`$(…)`) is unknown."""
    if variable := VARIABLE.match(value.strip()):
        return assigned(before, variable["name"])
    return "" if value.lstrip().startswith(("$(", "`")) else value


def unescaped(text: str) -> str:
    """A double-quoted shell string as the program gets it: `\\`` and `\\$` are the characters."""
    return text.replace("\\`", "`").replace("\\$", "$")


def assigned(script: str, name: str) -> str:
    """What a variable holds, where the script set it before: a here-document
    (`BODY=$(cat <<'EOF' …)`, `read -r -d '' BODY <<'EOF'`), a quoted string, or a PowerShell
    here-string or string (`$body = @' … '@`; PowerShell names ignore case). The last
    assignment wins, as in the shell."""
    name = re.escape(name)
    start = r"(?:^|(?<=[;&|]))[ \t]*(?:export[ \t]+)?"
    forms = (
        rf"{start}{name}=\"?\$\([ \t]*cat[ \t]*{HEREDOC_LINES}(?=\n|\)|$)",
        rf"{start}read[ \t]+(?:-\w+[ \t]+(?:''[ \t]+)?)*{name}[ \t]*{HEREDOC_LINES}(?=\n|$)",
        rf"(?i:{start}\${name})[ \t]*=[ \t]*@(?P<q>['\"])[ \t]*\n(?P<text>.*?)\n(?P=q)@",
        rf"(?i:{start}\${name})[ \t]*=[ \t]*(?P<q>['\"])(?P<text>.*?)(?<!`)(?P=q)",
        rf"{start}{name}=(?P<q>['\"])(?P<text>.*?)(?<!\\)(?P=q)",
    )
    found = [
        match for form in forms for match in re.finditer(form, script, re.DOTALL | re.MULTILINE)
    ]
    if not found:
        return ""
    last = max(found, key=lambda match: match.start())
    return unescaped(last["text"])
