"""Gemini CLI's session files (`~/.gemini/tmp/<project>/chats/session-*.jsonl`).

The file is a log of the chat, not the chat: a message is written again, whole, each time it
changes (tokens or tool calls added), so the last copy of an id is the message; `$rewindTo`
takes a message and all after it back; a `$set` holding `messages` replaces them all. So the
whole file is read before anything is said. A person's prompt is a `user` record with text;
tool results are `user` records too, made of `functionResponse` parts, and are not prose.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from mem.extract.checks import check_commands
from mem.extract.formats import (
    GEMINI_SETUP,
    Message,
    as_dict,
    json_lines,
    post_of,
    strip_injected,
    strip_recall,
)

WRITING_TOOLS = {"write_file", "replace", "edit"}
SHELL_TOOLS = {"run_shell_command"}


def read(lines: Iterable[str]) -> Iterator[Message]:
    session = ""
    messages: dict[str, dict[str, Any]] = {}  # by id, in the order first written
    for record in json_lines(lines):
        if "sessionId" in record and "id" not in record:
            session = str(record["sessionId"])
        elif isinstance(record.get("$rewindTo"), str):
            ids = list(messages)
            if record["$rewindTo"] in messages:
                for gone in ids[ids.index(record["$rewindTo"]) :]:
                    del messages[gone]
        elif isinstance(record.get("$set"), dict):
            replaced = record["$set"].get("messages")
            if isinstance(replaced, list):
                messages = {str(m["id"]): m for m in replaced if isinstance(m, dict) and "id" in m}
        elif "id" in record and "type" in record:
            messages[str(record["id"])] = record  # a later copy replaces, keeping its place
    for record in messages.values():
        yield from message_of(record, session)


def message_of(record: dict[str, Any], session: str) -> Iterator[Message]:
    kind = record.get("type")
    parts = record.get("content")
    if kind == "user":
        # What hooks added (`mem`'s recall among it) comes back as a text part of its own,
        # `<hook_context>…</hook_context>`, after the person's words; a session opens with the
        # CLI's `<session_context>` preamble (untagged in older versions). Neither is the person's.
        text = strip_injected(strip_recall(text_of(parts)))
        if text.strip() and not text.lstrip().startswith(GEMINI_SETUP):
            yield Message("user", text.strip(), session=session)
    elif kind == "gemini":
        tokens = as_dict(record.get("tokens"))
        yield Message(
            "assistant",
            strip_recall(text_of(parts)),
            files=written_files(record.get("toolCalls")),
            checks=checks_run(record.get("toolCalls")),
            input_tokens=count(tokens, "input"),
            output_tokens=count(tokens, "output"),
            session=session,
        )
        for post in posted_by(record.get("toolCalls")):
            yield post._replace(session=session)


def text_of(parts: Any) -> str:
    """The prose of a content field: a string, or the text parts of a list (function calls and
    their responses are not prose)."""
    if isinstance(parts, str):
        return parts
    if isinstance(parts, dict):
        parts = [parts]
    if not isinstance(parts, list):
        return ""
    return "\n".join(
        str(part["text"]) for part in parts if isinstance(part, dict) and "text" in part
    )


def written_files(calls: Any) -> tuple[str, ...]:
    found = []
    for args in succeeded(calls, WRITING_TOOLS):
        path = args.get("file_path") or args.get("absolute_path") or args.get("path")
        if isinstance(path, str) and path:
            found.append(path)
    return tuple(dict.fromkeys(found))


def checks_run(calls: Any) -> tuple[str, ...]:
    """The tests, linters and builds the message's shell calls ran, and that succeeded."""
    found: list[str] = []
    for args in succeeded(calls, SHELL_TOOLS):
        command = args.get("command")
        found += check_commands(command) if isinstance(command, str) else ()
    return tuple(dict.fromkeys(found))


def posted_by(calls: Any) -> Iterator[Message]:
    """What the message's shell calls that succeeded posted for other people."""
    for args in succeeded(calls, SHELL_TOOLS):
        command = args.get("command")
        if isinstance(command, str) and (post := post_of(command)):
            yield post


def succeeded(calls: Any, tools: set[str]) -> Iterator[dict[str, Any]]:
    """The arguments of a message's tool calls to one of `tools` that succeeded."""
    for call in calls if isinstance(calls, list) else ():
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            continue
        if call["name"] in tools and call.get("status", "success") == "success":
            yield as_dict(call.get("args"))


def count(tokens: dict[str, Any], key: str) -> int:
    value = tokens.get(key)
    return value if isinstance(value, int) and value >= 0 else 0
