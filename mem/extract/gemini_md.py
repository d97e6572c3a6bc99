"""Gemini CLI's chat as `/chat share file.md` writes it: `## USER 🧑‍💻` and `## MODEL ✨`
turns between rules.

Not all of a USER turn is the person's: the CLI opens the chat with a setup turn of its own
("This is the Gemini CLI. We are setting up the context for our chat."), hands tool results
back as USER turns (`**Tool Response**:` and a JSON block), and pastes the files a prompt
references between `--- Content from referenced files ---` and `--- End of content ---`. A
MODEL turn's tool calls are `**Tool Command**:` and a JSON block, often on the line of the prose
before them. A compressed chat's summary comes as a `<state_snapshot>`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from mem.extract.formats import (
    GEMINI_SETUP,
    Message,
    as_dict,
    person_text,
    shell_call_done,
    strip_recall,
    without_recall,
)

# `## USER 🧑‍💻`, or with the icon first (`🧑‍💻 ## USER`) as some versions write it.
TURN = re.compile(r"^(?:[^\x00-\x7f]+\s+)?## (?P<who>USER|MODEL)\b(?:\s+\S.*)?$")
TOOL_LABEL = re.compile(r"\*\*Tool (?P<kind>Command|Response)\*\*:\s*$")
REFERENCED = re.compile(
    r"^--- Content from referenced files ---$.*?(?:^--- End of content ---$|\Z)",
    re.MULTILINE | re.DOTALL,
)
SNAPSHOT = re.compile(r"<state_snapshot>(?P<text>.*?)(?:</state_snapshot>|\Z)", re.DOTALL)
WRITING_TOOLS = {"write_file", "replace", "edit"}
SHELL_TOOLS = {"run_shell_command"}
FAILED_EXIT = re.compile(r"^Exit Code: (?!0\b)\d+", re.MULTILINE)


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield the turns: the person's words, the model's prose, the files its tools wrote and
    the commits and checks its shell calls made, where their response shows them succeed."""
    calls: list[dict[str, Any]] = []  # tool calls waiting for their response, in order
    for who, text, blocks in turns(without_recall(lines)):
        if who == "MODEL":
            calls += [call for kind, call in blocks if kind == "Command"]
            prose = strip_recall(text).strip()
            if prose:
                yield Message("assistant", prose)
            continue
        for kind, response in blocks:
            if kind == "Response":
                yield from answered(calls, response)
        if text.lstrip().startswith(GEMINI_SETUP):
            continue  # the CLI's own words: the date, the folder tree, a reminder
        for snapshot in SNAPSHOT.finditer(text):
            if summary := snapshot["text"].strip():
                yield Message("summary", summary)
        said = person_text(REFERENCED.sub("", SNAPSHOT.sub("", text))).strip()
        if said:
            yield Message("user", said)


def turns(lines: Iterable[str]) -> Iterator[tuple[str, str, list[tuple[str, dict[str, Any]]]]]:
    """(USER or MODEL, the turn's prose, its tool blocks as (Command or Response, the JSON))."""
    who = ""
    prose: list[str] = []
    blocks: list[tuple[str, dict[str, Any]]] = []
    label = ""  # a tool label just read: its JSON block follows
    block: list[str] | None = None  # the JSON block being read
    for line in lines:
        if block is not None:
            if not line.strip().startswith("```"):
                block.append(line)
                continue
            blocks.append((label, parsed("".join(block))))
            block, label = None, ""
            # Parallel calls are joined with nothing between them: "```**Tool Command**:"
            line = line.strip()[3:]
            if not line:
                continue
        if label and line.strip().startswith("```"):
            block = []
            continue
        turn = TURN.match(line.rstrip("\r\n"))
        if turn:
            if who:
                yield who, "".join(prose), blocks
            who, prose, blocks, label = turn["who"], [], [], ""
            continue
        tool = TOOL_LABEL.search(line.rstrip("\r\n"))
        if tool:
            label = tool["kind"]
            before = line[: tool.start()]
            if before.strip():
                prose.append(before + "\n")  # "I'll check the file.**Tool Command**:"
            continue
        if line.strip() == "---" and not label:
            prose.append("\n")
            continue
        prose.append(line)
    if who:
        yield who, "".join(prose), blocks


def parsed(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def answered(calls: list[dict[str, Any]], response: dict[str, Any]) -> Iterator[Message]:
    """What a tool call did, read when its response comes: the first call waiting by that
    tool's name is the one answered."""
    name = response.get("name")
    call = next((c for c in calls if c.get("name") == name), None)
    if call is None:
        return
    calls.remove(call)
    result = as_dict(response.get("response"))
    output = result.get("output")
    if "error" in result or not isinstance(output, str) or FAILED_EXIT.search(output):
        return  # cancelled, refused or failed: nothing was written, run or committed
    args = as_dict(call.get("args"))
    if name in WRITING_TOOLS:
        path = args.get("file_path") or args.get("absolute_path") or args.get("path")
        if isinstance(path, str) and path:
            yield Message("assistant", files=(path,))
    elif name in SHELL_TOOLS and isinstance(command := args.get("command"), str):
        yield from shell_call_done(command, output)
