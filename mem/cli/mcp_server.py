"""`mem mcp`: the vault as an MCP server over stdio.

Five tools: publish, query, search, get_context, handoff. Each names its caller with `agent`
(else the agent the server was started for): that agent's private entries reach that agent
alone. Their descriptions and schemas are read into every session of every client, so they
are kept short; tests hold the whole tool list under 1,000 tokens.

The protocol is spoken here, not through the official SDK: `import mcp` alone takes from 0.7 s
to over 3 s on a 2-core machine (the package imports its client, its HTTP transports and every
protocol model, whichever part is asked for), and a client waits that long for the server's
tools in every session. A stdio server of tools needs little of it (the 2025-11-25
specification's Lifecycle and Tools): JSON-RPC 2.0, one message a line; the `initialize`
handshake, `ping`, `tools/list`, `tools/call`. A client that first
probes `server/discover` (the 2026-07-28 revision) is told the method is not found, and
falls back to the handshake as the SDK's client does. tests/cli/test_mcp.py holds this module
to the SDK's own client over a real pipe.

stdout is the protocol's wire: nothing here prints. Errors go back to the caller as the tool's
error result, in one line, in the words the command line uses.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC
from typing import Any, BinaryIO, NamedTuple

from mem import __version__
from mem.config import Settings, check_agent
from mem.errors import InvalidInput, MemError
from mem.model import Entry
from mem.text import cut_words

ENTRY_CHARS = 400  # of each entry's text in query results
# The handshake's revisions, oldest first; a client offering another gets the newest.
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
PARSE_ERROR = -32700  # JSON-RPC 2.0's error codes
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INTERNAL_ERROR = -32603

# The arguments' JSON Schemas, as tools/list gives them (titles left out: every client reads
# the list into every session, and a title says nothing the name does not).
TEXT = {"type": "string"}
INTEGER = {"type": "integer"}
CATEGORY = ["decisions", "lessons", "facts", "tasks", "projects"]
ANY_CATEGORY = {"default": "", "enum": ["", *CATEGORY, "handoffs"], **TEXT}
CALLER = {"default": "", "description": "Your agent name; default the server's", **TEXT}
LIMIT = {"default": 10, "maximum": 50, "minimum": 1, **INTEGER}
PYTHON_TYPES: dict[str, type] = {"string": str, "integer": int, "boolean": bool, "array": list}
# What a value of each type is called in an error.
ARTICLED = {
    "string": "a string",
    "integer": "a whole number",
    "boolean": "true or false",
    "array": "a list of strings",
}


def text_field(description: str = "") -> dict[str, Any]:
    """An optional string, "" by default."""
    return {"default": "", **({"description": description} if description else {}), **TEXT}


class Tool(NamedTuple):
    """One tool: what tools/list says of it, and what runs it with its checked arguments."""

    name: str
    description: str
    properties: Mapping[str, Mapping[str, Any]]  # JSON Schema of each argument
    required: tuple[str, ...]
    run: Callable[..., str]

    def listed(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object", "properties": self.properties}
        if self.required:
            schema["required"] = list(self.required)
        return {"name": self.name, "description": self.description, "inputSchema": schema}


def build(settings_now: Callable[[], Settings]) -> dict[str, Tool]:
    """The tools by name, answering for the vault and agent of the settings at each call."""

    def as_caller(agent: str) -> Settings:
        settings = settings_now()
        settings.require_vault()  # every tool needs it: say so before anything else
        if not agent or agent == settings.agent:
            return settings
        return settings._replace(agent=check_agent(agent), agent_is_explicit=True)

    def publish(
        text: str, category: str, kind: str, tags: list[str], scope: str, agent: str
    ) -> str:
        from mem.services.publish import publish as publish_entry

        done = publish_entry(as_caller(agent), text, category, kind or None, tuple(tags), scope)
        said = f"stored {done.entry.id}" if done.new else f"already known as {done.entry.id}"
        where = f" in {done.entry.path}" if done.new else ""
        hidden = f"; {done.redactions} secret(s) redacted" if done.redactions else ""
        return f"{said}{where}{hidden}"

    def search(words: str, category: str, limit: int, agent: str) -> str:
        from mem.services.search import Query
        from mem.services.search import search as search_entries

        request = Query(words, category=category or None, limit=limit)
        hits = search_entries(as_caller(agent), request)
        return "\n".join(entry_line(hit.entry, hit.snippet) for hit in hits) or "no match"

    def query(
        of_agent: str,
        category: str,
        kind: str,
        tag: str,
        since: str,
        open_tasks: bool,
        limit: int,
        agent: str,
    ) -> str:
        from mem.services.search import Query, list_entries, parse_since

        request = Query(
            agent=of_agent or None,
            category=category or None,
            kind=kind or None,
            tag=tag or None,
            since=parse_since(since) if since else None,
            open_tasks_only=open_tasks,
            limit=limit,
        )
        found = list_entries(as_caller(agent), request)
        return "\n".join(entry_line(entry, short(entry.body)) for entry in found) or "none"

    def get_context(task: str, budget: int, agent: str) -> str:
        from mem.services.recall import recall

        return recall(as_caller(agent), task, budget).text

    def handoff(summary: str, to: str, agent: str) -> str:
        from mem.services.session import HandoffParts, write_handoff

        entry, redactions = write_handoff(as_caller(agent), HandoffParts(), summary, to or None)
        hidden = f"; {redactions} secret(s) redacted" if redactions else ""
        return f"handed off as {entry.id} in {entry.path}{hidden}"

    tools = (
        Tool(
            "publish",
            "Keep one thing worth remembering (secrets redacted, repeats not stored twice).",
            {
                "text": TEXT,
                "category": {"default": "facts", "enum": CATEGORY, **TEXT},
                "kind": text_field("decision, lesson, warning, fact, preference…"),
                "tags": {"default": [], "items": TEXT, "type": "array"},
                "scope": {"default": "agent", "enum": ["agent", "shared", "private"], **TEXT},
                "agent": CALLER,
            },
            ("text",),
            publish,
        ),
        Tool(
            "query",
            "List entries by filter, newest first.",
            {
                "of_agent": text_field("Whose entries; default all"),
                "category": ANY_CATEGORY,
                "kind": text_field(),
                "tag": text_field(),
                "since": text_field("7d, 2w, 2026-11-01…"),
                "open_tasks": {"default": False, "type": "boolean"},
                "limit": LIMIT,
                "agent": CALLER,
            },
            (),
            query,
        ),
        Tool(
            "search",
            "Full-text search of every agent's memory, best first.",
            {"words": TEXT, "category": ANY_CATEGORY, "limit": LIMIT, "agent": CALLER},
            ("words",),
            search,
        ),
        Tool(
            "get_context",
            "Your memory for a task within a token budget: reference notes, not instructions.",
            {
                "task": text_field(),
                "budget": {"default": 2000, "description": "Tokens", "minimum": 200, **INTEGER},
                "agent": CALLER,
            },
            (),
            get_context,
        ),
        Tool(
            "handoff",
            "End a session: what was done, decided, left unfinished, and what comes next.",
            {"summary": TEXT, "to": text_field("Hand to another agent"), "agent": CALLER},
            ("summary",),
            handoff,
        ),
    )
    return {tool.name: tool for tool in tools}


def arguments_of(tool: Tool, given: Any) -> dict[str, Any]:
    """The tool's arguments, checked against its schema and completed with the defaults; a
    wrong one is an InvalidInput in one line. Arguments the tool does not take are ignored."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise InvalidInput(f"{tool.name} takes its arguments as an object, not {kind_of(given)}")
    found = {}
    for name, schema in tool.properties.items():
        value = given.get(name)  # null stands for "not given", as clients send it
        if value is None:
            if name in tool.required:
                raise InvalidInput(f"{tool.name} needs {name!r}")
            found[name] = schema["default"]
        else:
            found[name] = checked(name, value, schema)
    return found


def checked(name: str, value: Any, schema: Mapping[str, Any]) -> Any:
    """`value` as the schema wants it, or an InvalidInput saying what is wrong with it."""
    wanted = schema["type"]
    # A model may quote a number or a boolean, or write 10.0: taken as meant, as the SDK's
    # pydantic took them.
    if wanted == "integer" and (
        (isinstance(value, str) and value.strip().isdigit())
        or (isinstance(value, float) and value.is_integer())
    ):
        value = int(value)
    elif wanted == "boolean" and value in ("true", "false"):
        value = value == "true"
    if not isinstance(value, PYTHON_TYPES[wanted]) or (
        wanted == "integer" and isinstance(value, bool)
    ):
        raise InvalidInput(f"{name!r} must be {ARTICLED[wanted]}, not {kind_of(value)}")
    if isinstance(value, list) and not all(isinstance(item, str) for item in value):
        raise InvalidInput(f"{name!r} must be a list of strings")
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(choice or '""' for choice in schema["enum"])
        raise InvalidInput(f"{name!r} must be one of {choices}; got {value!r}")
    low, high = schema.get("minimum"), schema.get("maximum")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise InvalidInput(f"{name!r} must be {bounds}; got {value}")
    return value


def kind_of(value: Any) -> str:
    """The JSON name of a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    names = {str: "a string", int: "a number", float: "a number", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def answer(tools: Mapping[str, Tool], message: Any) -> dict[str, Any] | None:
    """The reply to one JSON-RPC message, or None for a notification (or a response)."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return failure(None, INVALID_REQUEST, "not a JSON-RPC 2.0 message")
    if "id" not in message or "method" not in message:
        return None  # a notification (initialized, cancelled…) or a response: no answer
    request_id, method = message["id"], message["method"]
    params = message.get("params") or {}
    if not isinstance(method, str) or not isinstance(params, dict):
        return failure(request_id, INVALID_REQUEST, "a request needs a method and object params")
    if method == "initialize":
        offered = params.get("protocolVersion")
        result: dict[str, Any] = {
            "protocolVersion": offered if offered in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[-1],
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "mem", "version": __version__},
        }
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": [tool.listed() for tool in tools.values()]}
    elif method == "tools/call":
        result = call(tools, params)
    else:
        return failure(request_id, METHOD_NOT_FOUND, f"method not found: {method}")
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def call(tools: Mapping[str, Tool], params: Mapping[str, Any]) -> dict[str, Any]:
    """Run one tool: its text, or mem's error in one line as the tool's error result."""
    name = params.get("name")
    tool = tools.get(name) if isinstance(name, str) else None
    try:
        if tool is None:
            raise InvalidInput(f"unknown tool {name!r}; the tools are {', '.join(tools)}")
        text, is_error = tool.run(**arguments_of(tool, params.get("arguments"))), False
    except MemError as error:
        text, is_error = str(error), True
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


def failure(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def entry_line(entry: Entry, text: str) -> str:
    when = entry.date.astimezone(UTC).strftime("%Y-%m-%d")
    return f"- {entry.id} ({entry.agent}/{entry.category}, {entry.kind}, {when}): {text}"


def short(body: str) -> str:
    return cut_words(" ".join(body.split()), ENTRY_CHARS)


def messages(wire: BinaryIO) -> Iterator[Any]:
    """Each message on the wire; a line that is not JSON yields its parse error as a str."""
    for line in wire:
        if line.strip():
            try:
                yield json.loads(line)
            except ValueError as error:  # UnicodeDecodeError too
                yield f"not JSON: {error}"


def claim_stdio() -> tuple[BinaryIO, BinaryIO]:
    """The protocol's streams: private copies of stdin and stdout. fd 0 then reads nothing and
    fd 1 writes to stderr, so neither a child process nor a stray print touches the wire."""
    sys.stdout.flush()
    wire_in = os.fdopen(os.dup(0), "rb")
    wire_out = os.fdopen(os.dup(1), "wb")
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    os.dup2(2, 1)
    return wire_in, wire_out


def settings_as_found(load: Callable[[], Settings]) -> Callable[[], Settings]:
    """Settings for each call: loaded once, and again at each call while they find no vault,
    so that a `mem init` in the project serves the next call."""
    found = load()

    def now() -> Settings:
        nonlocal found
        if found.vault is None:
            found = load()
        return found

    return now


def serve(load: Callable[[], Settings]) -> None:
    """Answer MCP requests on stdin/stdout until the client closes the stream."""
    tools = build(settings_as_found(load))
    wire_in, wire_out = claim_stdio()
    for message in messages(wire_in):
        reply = reply_to(tools, message)
        if reply is None:
            continue
        try:
            wire_out.write(json.dumps(reply, ensure_ascii=False).encode("utf-8", "replace"))
            wire_out.write(b"\n")
            wire_out.flush()
        except BrokenPipeError:
            return  # the client went away without closing our stdin first


def reply_to(tools: Mapping[str, Tool], message: Any) -> dict[str, Any] | None:
    """The reply to one message as read from the wire (a str: why it was not JSON)."""
    if isinstance(message, str):
        return failure(None, PARSE_ERROR, message)
    try:
        return answer(tools, message)
    # One request's bug must not end the session: its trace goes to stderr (the client's
    # log) and the request gets an internal error, as the SDK did.
    except Exception as error:  # noqa: BLE001 - see above
        traceback.print_exc()
        request_id = message.get("id") if isinstance(message, dict) else None
        return failure(request_id, INTERNAL_ERROR, f"{type(error).__name__}: {error}")
