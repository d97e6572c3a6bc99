"""Read Google Antigravity's sessions: the trajectory JSONL and the "Chat Conversation" export.

The trajectory is one step a line, `{step_index, source, type, status, content, thinking,
tool_calls}`: `USER_INPUT` steps hold the person's words inside `<USER_REQUEST>`,
`PLANNER_RESPONSE` steps the agent's prose (and its `thinking`, read as such) with the tool
calls it made; the other steps (`CODE_ACTION`, `RUN_COMMAND`, `SEARCH_WEB` …) are tool results.
The markdown export heads each turn `### User Input` or `### Planner Response` and shows each
tool call as one italic line (`*Edited relevant file*`, `*User accepted the command …*`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import unquote

from mem.extract.commit_message import GIT_COMMIT
from mem.extract.formats import (
    Message,
    as_dict,
    commits_in,
    json_lines,
    person_text,
    strip_recall,
    without_recall,
)
from mem.text import fence_mark

USER_REQUEST = re.compile(r"<USER_REQUEST>\s*(?P<text>.*?)\s*(?:</USER_REQUEST>|\Z)", re.DOTALL)
WRITING_TOOLS = {"write_to_file", "replace_file_content", "multi_replace_file_content"}
TURN = re.compile(r"^### (?P<who>User Input|Planner Response)\s*$")
# One italic line standing for a tool call; `Edited [name](file:///path)` names its file.
TOOL_LINE = re.compile(r"^\*(?P<what>[A-Z][^*]*)\*\s*$")
EDITED = re.compile(r"^(?:Edited|Created) \[[^\]]*\]\((?:file://)?(?P<path>[^)]+)\)")


def read_trajectory(lines: Iterable[str]) -> Iterator[Message]:
    """Yield the person's requests, the planner's prose, the files it wrote (its own artifacts
    left out) and commits in the output of a `git commit` it ran."""
    committing = False  # a `git commit` was asked for and its output not yet seen
    for step in json_lines(lines):
        kind = step.get("type")
        content = str(step.get("content") or "")
        if kind == "USER_INPUT":
            found = USER_REQUEST.search(content)
            text = person_text(found["text"] if found else content)
            if text:
                yield Message("user", text)
        elif kind == "PLANNER_RESPONSE":
            thinking = str(step.get("thinking") or "")
            if thinking.strip():
                yield Message("thinking", strip_recall(thinking))
            yield Message("assistant", strip_recall(content))
            files = []
            for call in step.get("tool_calls") or ():
                call = as_dict(call)
                arguments = {
                    key: decoded(value) for key, value in as_dict(call.get("args")).items()
                }
                if call.get("name") in WRITING_TOOLS and arguments.get("IsArtifact") is not True:
                    target = arguments.get("TargetFile")
                    if isinstance(target, str) and target:
                        files.append(target)
                committing = committing or bool(GIT_COMMIT.search(json.dumps(arguments)))
            if files:
                yield Message("assistant", files=tuple(dict.fromkeys(files)))
        elif committing and step.get("source") == "MODEL" and content:
            found_commits = commits_in(content)
            if found_commits:
                committing = False
                yield Message("assistant", commits=found_commits)


def decoded(value: Any) -> Any:
    """A tool argument: Antigravity writes most of them JSON-encoded inside a string."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def read_chat(lines: Iterable[str]) -> Iterator[Message]:
    """Yield each turn's prose; tool lines are not prose, and they end the person's turn (what
    follows them, up to the next heading, is the agent's)."""
    role = ""  # nothing before the first turn heading is read (the export's title and note)
    prose: list[str] = []
    fenced = False

    def flush() -> Iterator[Message]:
        text = "".join(prose)
        prose.clear()
        if role == "user":
            text = person_text(text)
        if role and text.strip():
            yield Message(role, text)

    for line in without_recall(lines):
        if fence_mark(line):
            fenced = not fenced
        turn = None if fenced else TURN.match(line)
        tool = None if fenced else TOOL_LINE.match(line.strip())
        if turn:
            yield from flush()
            role = "user" if turn["who"] == "User Input" else "assistant"
        elif tool and role:
            yield from flush()
            role = "assistant"
            edited = EDITED.match(tool["what"])
            if edited:
                yield Message("assistant", files=(unquote(edited["path"]),))
        else:
            prose.append(line)
    yield from flush()
