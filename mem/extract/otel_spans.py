"""Read an agent session recorded as OpenTelemetry spans, one span (or one OTLP export) a line.

The words are in the GenAI attributes `gen_ai.input.messages` and `gen_ai.output.messages`:
JSON (often a JSON string inside the span's JSON) of `{role, parts: [{type, content}]}`, where
parts of type `text` are prose and `reasoning`, `tool_call`, `tool_call_response` are not. A
chat span repeats the history before it, so each message is read once. A recorder's
`coding_agent.llm.thought.text` (Cursor's thinking) is read as `thinking`, never as prose. Older instrumentations
write `gen_ai.prompt.N.role` / `gen_ai.prompt.N.content` (and `gen_ai.completion.N.…`).
Spans are flat (`{trace_id, span_id, name, attributes: {…}}`) or OTLP JSON
(`resourceSpans[].scopeSpans[].spans[]`, attributes as `[{key, value: {stringValue}}]`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from mem.extract.checks import check_commands
from mem.extract.commit_message import GIT_COMMIT
from mem.extract.formats import (
    Message,
    as_dict,
    commits_in,
    json_lines,
    person_text,
    post_of,
    strip_recall,
)

MESSAGE_KEYS = ("gen_ai.input.messages", "gen_ai.output.messages")
INDEXED = re.compile(r"^gen_ai\.(?P<side>prompt|completion)\.(?P<n>\d+)\.(?P<field>role|content)$")
SESSION_KEYS = ("gen_ai.conversation.id", "coding_agent.session.id", "session.id")
COMMITS = "\0commits"  # not a role: the commits a tool call response reported
ROLES = {"user": "user", "human": "user", "assistant": "assistant", "model": "assistant"}


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield each message of the recorded chat once, in order, with the files edits were
    accepted for and the tokens the spans count."""
    seen: set[tuple[str, str]] = set()
    commit_calls: set[str] = set()
    # One thought a span: the thoughts between two messages are one stretch of reasoning.
    thoughts: list[Message] = []
    for record in json_lines(lines):
        for span in spans_of(record):
            for message in span_messages(span, seen, commit_calls):
                if message.role == "thinking":
                    if not thoughts or thoughts[-1].text != message.text:
                        thoughts.append(message)
                    continue
                if message.text and thoughts:
                    yield joined(thoughts)
                yield message
    if thoughts:
        yield joined(thoughts)


def joined(thoughts: list[Message]) -> Message:
    message = thoughts[0]._replace(text="\n\n".join(thought.text for thought in thoughts))
    thoughts.clear()
    return message


def spans_of(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The spans of a line, with their attributes as a plain dict."""
    if "resourceSpans" in record:
        for resource in record.get("resourceSpans") or ():
            for scope in as_dict(resource).get("scopeSpans") or ():
                for span in as_dict(scope).get("spans") or ():
                    if isinstance(span, dict):
                        yield {**span, "attributes": attributes_of(span.get("attributes"))}
    else:
        yield {**record, "attributes": attributes_of(record.get("attributes"))}


def attributes_of(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    found = {}
    for pair in raw if isinstance(raw, list) else ():
        pair = as_dict(pair)
        value = as_dict(pair.get("value"))
        found[str(pair.get("key"))] = next(iter(value.values()), None) if value else None
    return found


def span_messages(
    span: dict[str, Any], seen: set[tuple[str, str]], commit_calls: set[str]
) -> Iterator[Message]:
    attributes = span["attributes"]
    session = str(
        next((attributes[key] for key in SESSION_KEYS if attributes.get(key)), None)
        or span.get("session_id")
        or ""
    )
    for role, text in chat_of(attributes, commit_calls):
        if role == COMMITS:
            yield Message("assistant", commits=tuple(text.splitlines()), session=session)
            continue
        kind = ROLES.get(role.lower())
        text = person_text(text) if kind == "user" else strip_recall(text)
        key = (str(kind), " ".join(text.split()))
        if kind and key[1] and key not in seen:
            seen.add(key)
            yield Message(kind, text, session=session)
    thought = attributes.get("coding_agent.llm.thought.text")
    if isinstance(thought, str) and thought.strip():
        yield Message("thinking", thought, session=session)  # the agent's reasoning, not prose
    path = attributes.get("code.file.path")
    decision = str(attributes.get("coding_agent.edit.decision") or "accepted")
    if path and "edit" in str(span.get("name", "")) and not decision.startswith(("reject", "deny")):
        yield Message("assistant", files=(str(path),), session=session)
    commands = " ".join(
        str(value) for key, value in attributes.items() if key.endswith(("command", "arguments"))
    )
    run = [value for key, value in attributes.items() if key.endswith("command")]
    checks = tuple(
        check
        for value in (run if run and not failed(span, attributes) else ())
        if isinstance(value, str)
        for check in check_commands(value)
    )
    if checks:
        yield Message("assistant", session=session, checks=checks)
    for value in run if run and not failed(span, attributes) else ():
        if isinstance(value, str) and (post := post_of(value, session)):
            yield post
    if GIT_COMMIT.search(commands):
        outputs = "\n".join(
            str(value) for key, value in attributes.items() if key.endswith(("result", "output"))
        )
        found = commits_in(outputs)
        if found:
            yield Message("assistant", commits=found, session=session)
    tokens_in = number(attributes.get("gen_ai.usage.input_tokens"))
    tokens_out = number(attributes.get("gen_ai.usage.output_tokens"))
    if tokens_in or tokens_out:
        yield Message(
            "assistant", input_tokens=tokens_in, output_tokens=tokens_out, session=session
        )


def failed(span: dict[str, Any], attributes: dict[str, Any]) -> bool:
    """Whether a span's tool call failed (an error status, a non-zero exit code): a command it
    ran checked nothing."""
    status = span.get("status")
    code = as_dict(status).get("code") if isinstance(status, dict) else status
    return code in (2, "STATUS_CODE_ERROR", "ERROR") or any(
        key.endswith("exit_code") and value not in (None, 0, "0")
        for key, value in attributes.items()
    )


def chat_of(attributes: dict[str, Any], commit_calls: set[str]) -> Iterator[tuple[str, str]]:
    """(role, prose) of the messages a span's attributes carry, in order."""
    for key in MESSAGE_KEYS:
        value = attributes.get(key)
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except (ValueError, RecursionError):
                continue
        for message in value if isinstance(value, list) else ():
            message = as_dict(message)
            texts = []
            for part in message.get("parts") or ():
                part = as_dict(part)
                kind = part.get("type")
                if kind == "text":
                    texts.append(str(part.get("content") or part.get("text") or ""))
                elif kind == "tool_call" and GIT_COMMIT.search(json.dumps(part.get("arguments"))):
                    commit_calls.add(str(part.get("id")))
                elif kind == "tool_call_response" and str(part.get("id")) in commit_calls:
                    found = commits_in(str(part.get("response") or part.get("result") or ""))
                    if found:
                        yield COMMITS, "\n".join(found)
            if texts:
                yield str(message.get("role") or ""), "\n".join(texts)
    indexed: dict[tuple[bool, int], dict[str, str]] = {}  # prompts first, then completions
    for key, value in attributes.items():
        match = INDEXED.match(key)
        if match:
            place = (match["side"] == "completion", int(match["n"]))
            indexed.setdefault(place, {})[match["field"]] = str(value)
    for _, fields in sorted(indexed.items()):
        yield fields.get("role", ""), fields.get("content", "")


def number(value: Any) -> int:
    if isinstance(value, int):
        return value
    return int(value) if isinstance(value, str) and value.isdigit() else 0
