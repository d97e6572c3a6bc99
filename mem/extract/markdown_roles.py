"""Read a chat that an exporter wrote as markdown with a heading per turn: `## User` and
`## Assistant` (or `Human`, `You`; `Claude`, `AI`, `Model`, `Agent`), as tools that turn Claude
Code, OpenCode and other agents' sessions into markdown do.

Under a turn, a sub-heading that names a tool call or its result (`### Tool Call: git
(succeeded)`, `### Tool: Task`, `### Tool Result`) opens the tool's block, JSON and output,
which is no one's prose; `### Thinking` opens the model's reasoning. Both run to the next
heading of a turn. Lines the exporter adds (`*Tokens: 2 in, 3 out*`, `_[tool: write_file]_`)
and what stands before the first turn (a title, the project, the date) are nobody's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mem.extract.formats import (
    MARKDOWN_PERSON,
    MARKDOWN_ROLE_TURN,
    Message,
    person_text,
    strip_recall,
    without_recall,
)
from mem.text import fence_mark

# "### Tool Call: git (succeeded)", "### Tool: Task", "### Tool Result": not "### Tool comparison".
TOOL_HEADING = re.compile(
    r"^#{2,5}\s+(?:Tool(?:\s+(?:Call|Use|Result|Output|Response))?|Function\s+(?:Call|Result))"
    r"\s*(?::|\(|$)",
    re.IGNORECASE,
)
THINKING_HEADING = re.compile(r"^#{2,5}\s+(?:Thinking|Thought Process)\s*:?\s*$", re.IGNORECASE)
# OpenCode's export: `**Tool: glob**` opens a tool's block (`**Input:**`, `**Output:**`),
# `_Thinking:_` the model's reasoning.
TOOL_LABEL = re.compile(r"^\*\*Tool: [^*]+\*\*\s*$")
THINKING_LABEL = re.compile(r"^_Thinking:_\s*$")
# What the exporter adds to a turn: its counts (`*Tokens: 2 in, 3 out*`), a tool call's marker
# (`_[tool: write_file]_`).
EXPORT_NOTE = re.compile(r"^(?:\*(?:Tokens|Model|Duration|Cost):[^*]*\*|_\[tool: [^\]]+\]_)\s*$")


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield each turn's prose as the person's or the agent's, and the agent's thinking apart."""
    role = ""  # user | assistant | thinking | tool, for the block being read; "" before any
    said: list[str] = []

    def flush() -> Iterator[Message]:
        text = "".join(said).strip()
        said.clear()
        if not text:
            return
        if role == "user":
            if words := person_text(text).strip():
                yield Message("user", words)
        elif role in ("assistant", "thinking"):
            yield Message(role, strip_recall(text))

    fenced = False
    level = ""  # the turns' heading level, as the first turn sets it
    for line in without_recall(lines):
        stripped = line.strip()
        if fence_mark(line):
            fenced = not fenced
        turn = None if fenced else MARKDOWN_ROLE_TURN.match(stripped)
        if turn and level in ("", turn["level"]):
            # (A "### User" under an answer, at another level, is the answer's section.)
            yield from flush()
            level = turn["level"]
            role = "user" if turn["who"].lower() in MARKDOWN_PERSON else "assistant"
            continue
        if not fenced and role and (TOOL_HEADING.match(stripped) or TOOL_LABEL.match(stripped)):
            yield from flush()
            role = "tool"
            continue
        if (
            not fenced
            and role
            and (THINKING_HEADING.match(stripped) or THINKING_LABEL.match(stripped))
        ):
            yield from flush()
            role = "thinking"
            continue
        if EXPORT_NOTE.match(stripped) or (stripped == "---" and not fenced):
            continue  # the exporter's notes, the rules between turns
        if role in ("user", "assistant", "thinking"):
            said.append(line)
    yield from flush()
