"""A Cline task as its "Export task" writes it (Roo Code and Kilo Code, forks of Cline, write
the same): `**User:**` and `**Assistant:**` turns between rules.

The model speaks in tags. `<thinking>` is its reasoning; `<attempt_completion><result>` its
report; `<plan_mode_respond><response>` and `<ask_followup_question><question>` what it says
to the person; every other tag a tool call (`<write_to_file><path>`, `<execute_command>
<command>`). A User turn is the person's only in part: the request is in `<task>`, an answer
in `<answer>`, feedback in `<feedback>`; a tool's result comes back as a User turn opening
`[tool for 'argument'] Result:`, and every turn carries the editor's `<environment_details>`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mem.extract.formats import (
    Message,
    person_text,
    shell_call_done,
    strip_recall,
    without_recall,
)

TURN = re.compile(r"^\*\*(?P<who>User|Assistant):\*\*\s*$")
# A tag that opens a line, up to its own closing tag: the model's and the harness's blocks.
BLOCK = re.compile(r"^[ \t]*<(?P<tag>[a-z_]+)>(?P<inner>.*?)</(?P=tag)>", re.MULTILINE | re.DOTALL)
PART = r"<{0}>(?P<text>.*?)(?:</{0}>|\Z)"
# A tag left open where an export was cut: what follows it is a tool's, not prose.
OPEN_TAG = re.compile(r"^[ \t]*<[a-z_]+>", re.MULTILINE)
RESULT = re.compile(r"^\[(?P<tool>[\w-]+)(?: for '(?P<arg>.*?)')?\] Result:", re.DOTALL)
PERSON_TAGS = ("task", "feedback", "answer", "user_message")
# What the model says to the person, in the tag that says it, and the part holding it.
SAID = {
    "attempt_completion": "result",
    "plan_mode_respond": "response",
    "ask_followup_question": "question",
}
WRITING_TOOLS = {"write_to_file", "replace_in_file", "apply_diff", "insert_content"}
# Read on a result's first line only: what follows it is the file or the command's output.
WRITE_FAILED = re.compile(r"\bdenied\b|^Error|tool execution failed", re.IGNORECASE)
COMMAND_FAILED = re.compile(r"\bdenied\b|command failed|tool execution failed", re.IGNORECASE)
EXIT_FAILED = re.compile(r"^(?:exit code|exited with code)[: ]+[1-9]", re.IGNORECASE | re.MULTILINE)
# A User turn that opens on a bracketed header is the harness's or a tool's, whatever follows:
# "[read_file for 'x'] Result:", "[new_task completed] Result:", "[switch_mode to 'code'
# because: …]", native tool calling's "[Tool]". Only its tags hold the person's words.
HARNESS_TURN = re.compile(r"^\[[^\]\n]+\]")
# The model's turn in an export of native tool calls: "[Thinking]", "[Tool Use: read_file]"
# open what is not its prose.
NATIVE_BLOCK = re.compile(r"^\[(?:Thinking|Tool Use: [\w-]+)\]\s*$", re.MULTILINE)
# The harness's own notices in a User turn: "[TASK RESUMPTION] This task was interrupted…",
# "[ERROR] You did not use a tool in your previous response!", "Tool [read_file] was not
# executed because a tool has already been used in this message."
NOTICE = re.compile(r"^(?:\[[A-Z][A-Z _-]+\]|Tool \[[\w-]+\] was not executed\b).*$", re.MULTILINE)


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield the turns: the person's words, the model's prose, report and thinking, the files
    its tools wrote and the commits and checks its commands made, where the result says so."""
    calls: list[tuple[str, str]] = []  # (tool, its path or command), waiting for a result
    for who, text in turns(without_recall(lines)):
        if who == "Assistant":
            yield from model_turn(text, calls)
        else:
            yield from person_turn(text, calls)


def turns(lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    who = ""
    said: list[str] = []
    for line in lines:
        turn = TURN.match(line.rstrip("\r\n"))
        if turn:
            if who:
                yield who, "".join(said)
            who, said = turn["who"], []
        elif who and line.strip() != "---":
            said.append(line)
    if who:
        yield who, "".join(said)


def part(inner: str, name: str) -> str:
    found = re.search(PART.format(name), inner, re.DOTALL)
    return found["text"].strip() if found else ""


def model_turn(text: str, calls: list[tuple[str, str]]) -> Iterator[Message]:
    prose = OPEN_TAG.split(BLOCK.sub("", text), maxsplit=1)[0]
    prose = NATIVE_BLOCK.split(prose, maxsplit=1)[0].strip()
    if prose:
        yield Message("assistant", strip_recall(prose))
    for block in BLOCK.finditer(text):
        tag, inner = block["tag"], block["inner"]
        if tag == "thinking":
            if inner.strip():
                yield Message("thinking", inner.strip())
        elif tag in SAID:
            if said := part(inner, SAID[tag]):
                yield Message("assistant", strip_recall(said))
        elif tag in WRITING_TOOLS:
            calls.append((tag, part(inner, "path")))
        elif tag == "execute_command":
            calls.append((tag, part(inner, "command")))


def person_turn(text: str, calls: list[tuple[str, str]]) -> Iterator[Message]:
    text = re.sub(PART.format("environment_details"), "", text, flags=re.DOTALL)
    result = RESULT.match(text.lstrip())
    if result:
        yield from tool_result(result["tool"], text.lstrip()[result.end() :], calls)
    said = [part(text, tag) for tag in PERSON_TAGS]
    if not result and not any(said):
        # A turn that opens on the harness's notice or a tool's header is all theirs
        # ("[TASK RESUMPTION] … Note: If you previously attempted a tool use…"); elsewhere a
        # notice line is dropped.
        opening = text.strip()
        harness = NOTICE.match(opening) or HARNESS_TURN.match(opening)
        said = [] if harness else [NOTICE.sub("", text).strip()]
    for words in said:
        if words := person_text(words).strip():
            yield Message("user", words)


def tool_result(tool: str, output: str, calls: list[tuple[str, str]]) -> Iterator[Message]:
    """What a tool call did, read from its result: the first call waiting by that tool's name
    is the one it answers."""
    waiting = next((call for call in calls if call[0] == tool), None)
    if waiting is None:
        return
    calls.remove(waiting)
    _, target = waiting
    first = output.strip().partition("\n")[0]
    if tool in WRITING_TOOLS and target and not WRITE_FAILED.search(first):
        yield Message("assistant", files=(target,))
    elif (
        tool == "execute_command"
        and target
        and not COMMAND_FAILED.search(first)
        and not EXIT_FAILED.search(output)
    ):
        yield from shell_call_done(target, output)
