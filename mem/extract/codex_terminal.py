"""Read what Codex CLI's interactive view printed on a terminal, copied or recorded.

Two generations of it are in use. The person's prompt opens `▌` on every line (2025) or `›`
on its first (since); the agent's message opens `>` (2025) or `•`; a tool's work is a `•`
line naming what it did (`• Ran git status`, `• Edited src/app.py (+2 -1)`, `• Explored`),
its command going on after `│` and its output after `└`. Continuation lines are indented.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mem.extract.checks import check_commands
from mem.extract.formats import (
    CODEX_PROMPTS,
    COMMIT_LINE,
    Message,
    codex_tool_action,
    without_recall,
)

# "Edited src/app.py (+2 -1)", "Edited old.rs → new.rs (+1 -1)", and for several files
# "Edited 2 files (+2 -1)" with a `└ path (+1 -1)` line for each.
EDITED = re.compile(r"^(?:Edited|Added) (?P<path>\S.*?) \(\+\d+ -\d+\)$")
EDITED_EACH = re.compile(r"^\s*└ (?P<path>\S.*?) \(\+\d+ -\d+\)$")
SEVERAL_FILES = re.compile(r"^\d+ files?$")
# The view's own lines: its frame, a turn's rule, an interruption, a change of model, an
# approval, the input box's footer.
CHROME = re.compile(r"^(?:[╭╰│─■⚠✔✗]|> Model changed to\b|─ Worked for\b)")
# The input box's footer ("100% context left · ? for shortcuts", "⏎ send   ⇧⏎ newline"):
# the prompt above it is the box's placeholder, never sent.
FOOTER = re.compile(r"^\s*(?:\d+% context left\b|⏎ send\b)")
# A `• Ran` command wrapped onto the next line: `  │ rest of it`.
WRAPPED = re.compile(r"^\s+│ (?P<rest>.*)$")


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield the person's prompts and the agent's messages and thinking; a tool's output is
    read only for commits, its line only for the files it edited and the checks it ran."""
    role = ""  # user | assistant | thinking | tool, for the block being read
    prose: list[str] = []
    command: list[str] = []  # a `• Ran` command, with the `│` lines it wraps onto

    def flush() -> Iterator[Message]:
        if role in ("assistant", "user", "thinking") and any(line.strip() for line in prose):
            yield Message(role, "".join(prose))
        prose.clear()
        if command:
            # The view prints no exit status: a check that failed was still run so.
            if checks := check_commands(" ".join(command)):
                yield Message("assistant", checks=checks)
            command.clear()

    for line in without_recall(lines):
        text = line.rstrip("\r\n")
        if text.startswith(CODEX_PROMPTS):
            if role != "user" or text.startswith("› "):
                yield from flush()
                role = "user"
            prose.append(text.removeprefix("▌").removeprefix("› ").removeprefix(" ") + "\n")
            continue
        if FOOTER.match(text):
            if role == "user":
                prose.clear()  # the input box's placeholder, above its footer: nobody's words
            yield from flush()
            role = ""
            continue
        if text.rstrip() in ("> Thinking", "• Thinking"):
            yield from flush()
            role = "thinking"  # the 2025 view's reasoning, its lines indented under it
            continue
        if text.startswith(("• ", "> ")) and not CHROME.match(text):
            yield from flush()
            said = text[2:]
            if not (text.startswith("• ") and codex_tool_action(said)):
                role = "assistant"
                prose.append(said + "\n")
                continue
            role = "tool"
            edited = EDITED.match(said.rstrip())
            if edited and not SEVERAL_FILES.match(edited["path"]):
                yield Message("assistant", files=(renamed(edited["path"]),))
            elif said.startswith("Ran ") and not said.rstrip().endswith("…"):  # not cut short
                command.append(said[4:].strip())
            continue
        if CHROME.match(text):  # at the margin: a tool's `│` and `└` are indented
            yield from flush()
            role = ""
            continue
        if role == "tool":  # a tool's output, up to the next `•`, `>` or prompt
            if command and (wrapped := WRAPPED.match(text)):
                command.append(wrapped["rest"].strip())
            if each := EDITED_EACH.match(text):
                yield Message("assistant", files=(renamed(each["path"]),))
            commit = COMMIT_LINE.match(text.lstrip().lstrip("└│").strip())
            if commit:
                yield Message("assistant", commits=(f"{commit['sha'][:7]} {commit['subject']}",))
            continue
        if role in ("user", "assistant", "thinking"):
            prose.append(text.removeprefix("  ") + "\n")
    yield from flush()


def renamed(path: str) -> str:
    """The file an edit left: the new name of a rename ("old.rs → new.rs")."""
    return path.rsplit(" → ", 1)[-1]
