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
    MARKDOWN_ROLE_TURN,
    Message,
    person_text,
    strip_recall,
    without_recall,
)

PERSON = {"user", "human", "you"}
# "### Tool Call: git (succeeded)", "### Tool: Task", "### Tool Result": not "### Tool comparison".
TOOL_HEADING = re.compile(
    r"^#{2,5}\s+(?:Tool(?:\s+(?:Call|Use|Result|Output|Response))?|Function\s+(?:Call|Result))"
    r"\s*(?::|\(|$)",
    re.IGNORECASE,
)
THINKING_HEADING = re.compile(r"^#{2,5}\s+(?:Thinking|Thought Process)\s*:?\s*$", re.IGNORECASE)
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
    for line in without_recall(lines):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
        if not fenced and (turn := MARKDOWN_ROLE_TURN.match(stripped)):
            yield from flush()
            role = "user" if turn["who"].lower() in PERSON else "assistant"
            continue
        if not fenced and role and TOOL_HEADING.match(stripped):
            yield from flush()
            role = "tool"
            continue
        if not fenced and role and THINKING_HEADING.match(stripped):
            yield from flush()
            role = "thinking"
            continue
        if EXPORT_NOTE.match(stripped):
            continue
        if role in ("user", "assistant", "thinking"):
            said.append(line)
    yield from flush()
