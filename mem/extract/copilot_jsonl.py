"""Read GitHub Copilot CLI's session events (`~/.copilot/session-state/<id>/events.jsonl`).

Each line is `{type, data, id, timestamp, parentId}`: `session.start`, `user.message`,
`assistant.message` (its prose in `content`, its tool calls in `toolRequests`, its thinking in
`reasoningText`, read as `thinking`), `tool.execution_start` / `tool.execution_complete`, hooks, permissions. A
recorder may wrap each event as `{role, content, timestamp, raw: <event>}`: the event is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from mem.extract.checks import check_commands
from mem.extract.commit_message import GIT_COMMIT
from mem.extract.formats import (
    Message,
    as_dict,
    commits_in,
    committed,
    json_lines,
    person_text,
    post_of,
    relative_to,
    result_text,
    strip_recall,
)

EDITING_TOOLS = {"edit", "create", "write", "str_replace", "str_replace_editor", "write_file"}
SHELL_TOOLS = {"bash", "shell", "powershell", "run_in_terminal"}
PATCH_FILE = re.compile(
    r"^\*\*\* (?:Add File|Update File|Move to): (?P<path>.+?)\s*$", re.MULTILINE
)


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield the person's prompts, the agent's messages, the files its tools wrote (once the
    tool succeeded) and the commits `git commit` reported."""
    session = cwd = ""
    edits: dict[str, tuple[str, ...]] = {}  # tool call id -> files, until the call succeeds
    commit_calls: dict[str, str] = {}  # call id: the `git commit` command
    check_calls: dict[str, tuple[str, ...]] = {}  # tool call id -> the checks it runs
    posted_calls: dict[str, Message] = {}  # tool call id -> what it posts
    for record in json_lines(lines):
        event = as_dict(record.get("raw")) or record
        kind = event.get("type")
        data = as_dict(event.get("data"))
        if kind == "session.start":
            session = str(data.get("sessionId") or session)
            cwd = str(as_dict(data.get("context")).get("cwd") or cwd)
        elif kind == "session.context_changed":
            cwd = str(data.get("cwd") or cwd)
        elif kind == "user.message":
            # `source` marks what Copilot itself adds (`system`, `instruction-discovery`).
            text = person_text(str(data.get("content") or ""))
            if text and data.get("source") in (None, "", "user"):
                yield Message("user", text, session=session)
        elif kind == "assistant.message":
            requests = data.get("toolRequests")
            for request in requests if isinstance(requests, list) else ():
                request = as_dict(request)
                note_call(request.get("toolCallId"), request.get("name"), request, cwd, edits)
                call, tool = request.get("toolCallId"), request.get("name")
                note_shell(call, tool, request, commit_calls, check_calls, posted_calls)
            thinking = str(data.get("reasoningText") or "")
            if thinking.strip():
                yield Message("thinking", strip_recall(thinking), session=session)
            tokens = data.get("outputTokens")
            yield Message(
                "assistant",
                strip_recall(str(data.get("content") or "")),
                output_tokens=tokens if isinstance(tokens, int) else 0,
                session=session,
            )
        elif kind == "tool.execution_start":
            note_call(data.get("toolCallId"), data.get("toolName"), data, cwd, edits)
            note_shell(
                data.get("toolCallId"),
                data.get("toolName"),
                data,
                commit_calls,
                check_calls,
                posted_calls,
            )
        elif kind == "tool.execution_complete":
            call = str(data.get("toolCallId") or "")
            done = data.get("success") is not False
            files = edits.pop(call, ())
            if files and done:
                yield Message("assistant", files=files, session=session)
            checks = check_calls.pop(call, ())
            if checks and done:
                yield Message("assistant", session=session, checks=checks)
            post = posted_calls.pop(call, None)
            if post and done:
                yield post._replace(session=session)
            if call in commit_calls and done:
                command = commit_calls.pop(call)
                result = data.get("result")
                output = as_dict(result).get("content") if isinstance(result, dict) else result
                text = output if isinstance(output, str) else result_text(output)
                found = commits_in(text, command)
                yield from committed(found, command, session)


def note_call(
    call: Any, tool: Any, request: dict[str, Any], cwd: str, edits: dict[str, tuple[str, ...]]
) -> None:
    """Remember the files a tool call means to write."""
    arguments = request.get("arguments")
    if not isinstance(tool, str | None):
        return
    if isinstance(arguments, str) and "*** Begin Patch" in arguments:
        found = tuple(match["path"] for match in PATCH_FILE.finditer(arguments))
    elif tool in EDITING_TOOLS:
        path = as_dict(arguments).get("path") or as_dict(arguments).get("file_path")
        found = (str(path),) if path else ()
    else:
        return
    if found:
        edits[str(call)] = tuple(relative_to(path, cwd) for path in found)


def note_shell(
    call: Any,
    tool: Any,
    request: dict[str, Any],
    commit_calls: dict[str, str],
    check_calls: dict[str, tuple[str, ...]],
    posted_calls: dict[str, Message],
) -> None:
    """Remember a shell call that commits (to read the commits from its output), tests, lints
    or builds, or posts text for other people (until it succeeds)."""
    command = as_dict(request.get("arguments")).get("command")
    if not isinstance(tool, str) or tool not in SHELL_TOOLS or not isinstance(command, str):
        return
    if GIT_COMMIT.search(command):
        commit_calls[str(call)] = command
    if found := check_commands(command):
        check_calls[str(call)] = found
    if post := post_of(command):
        posted_calls[str(call)] = post
