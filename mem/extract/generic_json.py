"""Read JSON from an agent nobody taught `mem` about: JSON lines, or one JSON document.

A message is any object, however deep, with a role (`role`, `type`, `author`, `sender`,
`speaker` or `from`, or `author.role`, `info.role`) that names the person (`user`, `human`) or
the agent (`assistant`, `ai`, `model`, `gemini`, `bot`), and prose in `text`, `content`,
`message`, `parts` or `body`: a string, or a list of strings and text parts. Tool calls, tool results,
thinking and system prompts have other roles or part types, so they are never prose. Messages
come in the order they appear. What holds no message at all is read as plain text.

An exchange with no role is a message of each side: an object whose person's part is
`message`, `prompt`, `question`, `query` or `request`, and whose agent's part is `response`,
`answer`, `completion` or `reply` (VS Code's exported chat: `requests`, each a `message` and
the `response` parts it streamed, markdown `value`s among tool calls and file edits).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from mem.extract.formats import Message, person_text, read_text, strip_recall

ROLES = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "model": "assistant",
    "gemini": "assistant",
    "bot": "assistant",
}
# `info.role`: OpenCode's `opencode export` keeps a message's role in its `info`, beside `parts`.
ROLE_KEYS = ("role", "type", "author", "sender", "speaker", "from", "info")
TEXT_KEYS = ("text", "content", "message", "parts", "body")
TEXT_PARTS = {"text", "input_text", "output_text"}
SESSION_KEYS = ("session_id", "sessionId", "conversation_id", "conversationId", "thread_id")
ASKED_KEYS = ("message", "prompt", "question", "query", "request")
ANSWERED_KEYS = ("response", "answer", "completion", "reply")
EDIT_KINDS = {"textEditGroup", "notebookEditGroup"}
MAX_DEPTH = 40  # deeper than any transcript nests; guards against pathological input


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield the messages found in JSON lines or one JSON document; plain text otherwise."""
    kept = list(lines)
    documents = parsed(kept)
    found = False
    session = ""
    for document in documents:
        session = session or session_of(document)
        for message in messages_in(document, 0):
            found = True
            yield message._replace(session=session)
    if not found:
        yield from read_text(kept)


def parsed(lines: list[str]) -> list[Any]:
    """The JSON values of the input: one document if it parses whole, else one a line."""
    try:
        return [json.loads("".join(lines))]
    except (ValueError, RecursionError):
        pass
    values = []
    for line in lines:
        try:
            values.append(json.loads(line))
        except (ValueError, RecursionError):
            continue
    return values


def session_of(value: Any) -> str:
    if isinstance(value, dict):
        for key in SESSION_KEYS:
            if isinstance(value.get(key), str):
                return str(value[key])
    return ""


def messages_in(value: Any, depth: int) -> Iterator[Message]:
    """The messages in a JSON value, depth first, in document order."""
    if depth > MAX_DEPTH:
        return
    if isinstance(value, list):
        for item in value:
            yield from messages_in(item, depth + 1)
        return
    if not isinstance(value, dict):
        return
    role = role_of(value)
    if role:
        text = prose_of(value)
        if text is not None:
            text = person_text(text) if role == "user" else strip_recall(text)
            if text.strip():
                yield Message(role, text)
            return
    elif exchange := exchange_of(value):
        yield from exchange
        return
    for item in value.values():
        yield from messages_in(item, depth + 1)


def exchange_of(value: dict[str, Any]) -> list[Message]:
    """The person's and the agent's messages of a role-less exchange; [] when `value` is
    none (both sides must be there, and the person's must be text)."""
    asked_key = next((key for key in ASKED_KEYS if key in value), None)
    answered = next((value[key] for key in ANSWERED_KEYS if key in value), None)
    if asked_key is None or answered is None:
        return []
    asked = value[asked_key]
    if asked_key == "message" and not isinstance(asked, dict):
        return []  # a log line's "message" beside its "response": no one's words
    question = said_in(asked)
    answer, files = answered_in(answered)
    if not question.strip() or not (answer.strip() or files):
        return []  # the answer is elsewhere ({"response": {"choices": [...]}}): searched on
    found = [Message("user", text)] if (text := person_text(question).strip()) else []
    found.append(Message("assistant", strip_recall(answer), files=files))
    return found


def said_in(part: Any) -> str:
    """The text of one side of an exchange: a string, or an object's `text`, `value` or
    `content`."""
    if isinstance(part, str):
        return part
    if isinstance(part, dict):
        for key in ("text", "value", "content"):
            if isinstance(part.get(key), str):
                return str(part[key])
            if isinstance(part.get(key), dict):
                return said_in(part[key])
    return ""


def answered_in(part: Any) -> tuple[str, tuple[str, ...]]:
    """The agent's side of an exchange: its prose, the streamed markdown parts joined (a file
    it names inline by its name), and the files its edit parts changed."""
    if not isinstance(part, list):
        return said_in(part), ()
    prose: list[str] = []
    files: list[str] = []
    for item in part:
        if isinstance(item, str):
            prose.append(item)
        elif not isinstance(item, dict) or not isinstance(item.get("kind", ""), str):
            continue
        elif item.get("kind") in EDIT_KINDS:
            if path := uri_path(item.get("uri")):
                files.append(path)
        elif item.get("kind") == "inlineReference":
            reference = item.get("inlineReference")
            name = item.get("name") or uri_path(reference).rsplit("/", 1)[-1]
            if name:
                prose.append(f"`{name}`")
        elif item.get("kind") in (None, "markdownContent"):
            prose.append(said_in(item))
    return "".join(prose), tuple(dict.fromkeys(files))


def uri_path(uri: Any) -> str:
    if isinstance(uri, dict):
        path = uri.get("fsPath") or uri.get("path")
        return path if isinstance(path, str) else ""
    return ""


def role_of(value: dict[str, Any]) -> str:
    for key in ROLE_KEYS:
        role = value.get(key)
        if isinstance(role, dict):
            role = role.get("role")
        if isinstance(role, str) and role.lower() in ROLES:
            return ROLES[role.lower()]
    return ""


def prose_of(value: dict[str, Any]) -> str | None:
    """The prose of a message-like object: None when its content is not text at all (then it
    is a container, and what it holds is searched)."""
    for key in TEXT_KEYS:
        content = value.get(key)
        if isinstance(content, str):
            return content
        if isinstance(content, dict) and key == "content":
            content = content.get("parts") or content.get("text")  # {content: {parts: […]}}
            if isinstance(content, str):
                return content
        if isinstance(content, list) and content:
            texts = [text for part in content if (text := part_text(part)) is not None]
            if texts:
                return "\n".join(texts)
            if all(isinstance(part, dict) and "type" in part for part in content):
                return ""  # only tool calls, results or thinking: a message with no prose
    return None


def part_text(part: Any) -> str | None:
    if isinstance(part, str):
        return part
    if isinstance(part, dict) and part.get("synthetic") is True:
        return None  # written by the harness (OpenCode: a file's body for an @mention)
    if isinstance(part, dict) and part.get("type", "text") in TEXT_PARTS:
        text = part.get("text", part.get("content"))
        if isinstance(text, str):
            return text
    return None
