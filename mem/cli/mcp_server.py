"""`mem mcp`: the vault as an MCP server over stdio, with the official SDK (imported here only).

Five tools: publish, query, search, get_context, handoff. Each names its caller with `agent`
(else the agent the server was started for): that agent's private entries reach that agent
alone. Their descriptions and schemas are read into every session of every client, so they
are kept short; tests hold the whole tool list under 1,000 tokens.

stdout is the protocol's wire: nothing here prints. Errors go back to the caller as the tool's
error result, in the one-line words the command line uses.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC
from typing import Annotated, Any, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from pydantic import Field

from mem.config import Settings, check_agent
from mem.errors import MemError
from mem.model import Entry
from mem.text import cut_words

ENTRY_CHARS = 400  # of each entry's text in query results


Text = str
Category = Literal["decisions", "lessons", "facts", "tasks", "projects"]
AnyCategory = Literal["", "decisions", "lessons", "facts", "tasks", "projects", "handoffs"]
Kind = Annotated[str, Field(description="decision, lesson, warning, fact, preference…")]
Tags = list[str]
Scope = Literal["agent", "shared", "private"]
Caller = Annotated[str, Field(description="Your agent name; default the server's")]
Limit = Annotated[int, Field(ge=1, le=50)]
Budget = Annotated[int, Field(description="Tokens", ge=200)]


def build(settings: Settings) -> MCPServer:
    """The server, its tools answering for the vault and agent of `settings`."""
    from mem import __version__

    def as_caller(agent: str) -> Settings:
        if not agent or agent == settings.agent:
            return settings
        return settings._replace(agent=check_agent(agent), agent_is_explicit=True)

    # One-line docstrings: the SDK sends them as the descriptions, indentation and all.
    def publish(
        text: Text,
        category: Category = "facts",
        kind: Kind = "",
        tags: Tags = [],  # noqa: B006 - pydantic copies defaults; never mutated here
        scope: Scope = "agent",
        agent: Caller = "",
    ) -> str:
        """Keep one thing worth remembering (secrets redacted, repeats not stored twice)."""
        from mem.services.publish import publish as publish_entry

        with errors_told():
            done = publish_entry(as_caller(agent), text, category, kind or None, tuple(tags), scope)
        said = f"stored {done.entry.id}" if done.new else f"already known as {done.entry.id}"
        where = f" in {done.entry.path}" if done.new else ""
        hidden = f"; {done.redactions} secret(s) redacted" if done.redactions else ""
        return f"{said}{where}{hidden}"

    def search(
        words: Text, category: AnyCategory = "", limit: Limit = 10, agent: Caller = ""
    ) -> str:
        """Full-text search of every agent's memory, best first."""
        from mem.services.search import Query
        from mem.services.search import search as search_entries

        with errors_told():
            request = Query(words, category=category or None, limit=limit)
            hits = search_entries(as_caller(agent), request)
        return "\n".join(entry_line(hit.entry, hit.snippet) for hit in hits) or "no match"

    def query(
        of_agent: Annotated[str, Field(description="Whose entries; default all")] = "",
        category: AnyCategory = "",
        kind: str = "",
        tag: str = "",
        since: Annotated[str, Field(description="7d, 2w, 2026-11-01…")] = "",
        open_tasks: bool = False,
        limit: Limit = 10,
        agent: Caller = "",
    ) -> str:
        """List entries by filter, newest first."""
        from mem.services.search import Query, list_entries, parse_since

        with errors_told():
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

    def get_context(task: Text = "", budget: Budget = 2000, agent: Caller = "") -> str:
        """Your memory for a task within a token budget: reference notes, not instructions."""
        from mem.services.recall import recall

        with errors_told():
            block = recall(as_caller(agent), task, budget)
        return block.text

    def handoff(
        summary: Text,
        to: Annotated[str, Field(description="Hand to another agent")] = "",
        agent: Caller = "",
    ) -> str:
        """End a session: what was done, decided, left unfinished, and what comes next."""
        from mem.services.session import HandoffParts, write_handoff

        with errors_told():
            entry, redactions = write_handoff(as_caller(agent), HandoffParts(), summary, to or None)
        hidden = f"; {redactions} secret(s) redacted" if redactions else ""
        return f"handed off as {entry.id} in {entry.path}{hidden}"

    tools = []
    for function in (publish, query, search, get_context, handoff):
        tool = Tool.from_function(function, structured_output=False)
        untitled(tool.parameters)
        tools.append(tool)
    # The SDK logs every request at INFO on stderr, which clients keep in their logs.
    return MCPServer("mem", version=__version__, tools=tools, log_level="WARNING")


def untitled(schema: Any) -> None:
    """Drop the titles the SDK derives from names ("title": "Text" beside "text"): they say
    nothing the name does not, and every client reads them into every session."""
    if isinstance(schema, dict):
        schema.pop("title", None)
        for key in ("items", "additionalProperties"):
            untitled(schema.get(key))
        for value in (schema.get("properties") or {}).values():
            untitled(value)
        for key in ("anyOf", "allOf", "oneOf"):
            for value in schema.get(key) or ():
                untitled(value)


@contextmanager
def errors_told() -> Iterator[None]:
    """Turn mem's own errors into the tool's error result, in their one-line words (any other
    failure reaches the caller as the SDK's generic one, its trace logged on stderr)."""
    try:
        yield
    except MemError as error:
        raise ToolError(str(error)) from error


def entry_line(entry: Entry, text: str) -> str:
    when = entry.date.astimezone(UTC).strftime("%Y-%m-%d")
    return f"- {entry.id} ({entry.agent}/{entry.category}, {entry.kind}, {when}): {text}"


def short(body: str) -> str:
    return cut_words(" ".join(body.split()), ENTRY_CHARS)


def serve(settings: Settings) -> None:
    """Answer MCP requests on stdin/stdout until the client closes the stream."""
    build(settings).run()
