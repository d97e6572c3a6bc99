"""`mem mcp`: the official SDK's client against the server over a real stdio pipe (mem speaks
the protocol itself; the SDK is how it is checked); agent isolation; a tool list small enough
to live in every session's context."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.cli.helpers import added_id, ok

TOOLS = {"publish", "query", "search", "get_context", "handoff"}
TOOL_LIST_CHARS = 3000  # ≤ 1,000 tokens even at 3 characters a token (JSON runs ~3-4)


def server(folder: Path) -> StdioServerParameters:
    """`mem mcp --agent dev` started in `folder`, as a client starts it."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "mem", "mcp", "--agent", "dev"],
        cwd=str(folder),
        env={"NO_COLOR": "1", "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
    )


def call(vault: Path, *steps: tuple[str, dict], mode: str = "auto"):
    """Run `steps` (tool name, arguments) through the SDK's client; return the results."""

    async def go():
        async with Client(server(vault.parent), raise_exceptions=True, mode=mode) as client:
            return [await client.call_tool(name, arguments) for name, arguments in steps]

    return anyio.run(go)


def listed_tools(folder: Path) -> list[dict]:
    async def go():
        async with Client(server(folder), raise_exceptions=True) as client:
            return (await client.list_tools()).tools

    tools = anyio.run(go)
    return [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools]


def text(result) -> str:
    return "\n".join(part.text for part in result.content)


def test_a_real_stdio_round_trip_lists_the_tools_and_calls_each(vault):
    async def go():
        async with Client(server(vault.parent), raise_exceptions=True) as client:
            tools = (await client.list_tools()).tools
            steps = [
                ("publish", {"text": "billing.py rounds half-even.", "category": "lessons"}),
                ("publish", {"text": "billing.py rounds half-even.", "category": "lessons"}),
                ("search", {"words": "rounding billing"}),
                ("query", {"category": "lessons"}),
                ("handoff", {"summary": "Fixed the rounding. Next: tests for refunds."}),
                ("get_context", {"task": "refund rounding"}),
            ]
            return tools, [await client.call_tool(name, args) for name, args in steps]

    tools, results = anyio.run(go)
    assert {tool.name for tool in tools} == TOOLS
    assert not any(result.is_error for result in results), [text(r) for r in results]
    stored, again, found, listed, handed, context = map(text, results)
    entry_id = stored.split()[1]
    assert stored.startswith("stored ") and again == f"already known as {entry_id}"
    assert entry_id in found and entry_id in listed and "half-even" in listed
    assert handed.startswith("handed off as ")
    assert context.startswith('<mem-recall agent="dev"') and "Next: tests for refunds" in context
    lessons = (vault / "dev" / "lessons.md").read_text(encoding="utf-8")
    assert lessons.count("billing.py rounds half-even.") == 1


def test_json_rpc_as_the_protocol_asks_over_a_real_pipe(vault):
    hello = {"capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}
    sent = [
        "not json",
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover"},  # the 2026-07-28 probe
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "initialize",
            "params": {**hello, "protocolVersion": "2099-01-01"},
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "initialize",
            "params": {**hello, "protocolVersion": "2025-06-18"},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 77, "result": {}},  # a response to nothing: no answer
        {"jsonrpc": "2.0", "id": 4, "method": "ping"},
        [{"jsonrpc": "2.0", "id": 5, "method": "ping"}],
    ]
    done = subprocess.run(
        [sys.executable, "-m", "mem", "mcp", "--agent", "dev"],
        input="".join((m if isinstance(m, str) else json.dumps(m)) + "\n" for m in sent),
        capture_output=True,
        text=True,
        cwd=vault.parent,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(a["id"], a.get("error", {}).get("code")) for a in answers] == [
        (None, -32700),
        (1, -32601),
        (2, None),
        (3, None),
        (4, None),
        (None, -32600),
    ]
    assert answers[2]["result"]["protocolVersion"] == "2025-11-25"  # the newest it speaks
    assert answers[3]["result"]["protocolVersion"] == "2025-06-18"  # the one offered
    assert answers[3]["result"]["capabilities"] == {"tools": {"listChanged": False}}
    assert answers[3]["result"]["serverInfo"]["name"] == "mem" and answers[4]["result"] == {}


def test_a_client_that_only_knows_the_handshake_is_served_too(vault):
    (found,) = call(vault, ("search", {"words": "anything"}), mode="legacy")
    assert not found.is_error and text(found) == "no match"


def test_the_tool_list_costs_under_1000_tokens_and_every_tool_says_what_it_does(vault):
    listed = listed_tools(vault.parent)
    assert {tool["name"] for tool in listed} == TOOLS
    assert len(json.dumps(listed, separators=(",", ":"))) <= TOOL_LIST_CHARS
    for tool in listed:
        assert tool["description"] and "\n" not in tool["description"]
        assert "title" not in json.dumps(tool["inputSchema"]["properties"])


def test_a_caller_never_receives_another_agents_private_entries(mem, vault):
    secret = "The staging database password rotates on Mondays."
    ok(mem("add", secret, "-c", "facts", "-a", "dev", "--scope", "private"))
    ok(mem("add", "Staging database lives in eu-west-1.", "-c", "facts", "-a", "dev"))
    ask = [
        ("search", {"words": "staging database", "agent": "ops"}),
        ("query", {"of_agent": "dev", "agent": "ops"}),
        ("get_context", {"task": "staging database", "agent": "ops"}),
        ("search", {"words": "staging database"}),
    ]
    as_ops = [text(result) for result in call(vault, *ask)]
    assert all("Mondays" not in answer for answer in as_ops[:3])
    assert "eu-west-1" in as_ops[0] and "eu-west-1" in as_ops[1]
    assert "Mondays" in as_ops[3]  # the server's own agent, dev, sees its private fact


def test_a_private_publish_stays_private_and_secrets_never_land(vault):
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    stored, other = call(
        vault,
        ("publish", {"text": f"Deploy token {token} lives in 1Password.", "scope": "private"}),
        ("search", {"words": "deploy token", "agent": "ops"}),
    )
    assert not stored.is_error and "1 secret(s) redacted" in text(stored)
    assert text(other) == "no match"
    written = "".join(
        path.read_text(encoding="utf-8") for path in vault.rglob("*.md") if path.is_file()
    )
    assert token not in written


def test_bad_arguments_and_mem_errors_come_back_as_one_line_tool_errors(vault, mem):
    entry = added_id(ok(mem("add", "A fact.", "-c", "facts", "-a", "dev")))
    results = call(
        vault,
        ("query", {"category": "nonsense"}),
        ("search", {"words": "fact", "limit": 0}),
        ("search", {"category": "facts"}),
        ("publish", {"text": 42}),
        ("publish", {"text": "x", "tags": "one"}),
        ("search", {"words": "fact", "agent": "Not An Agent"}),
        ("query", {"since": "someday"}),
        ("recall", {}),
    )
    said = [text(result) for result in results]
    assert all(result.is_error for result in results), said
    assert all("\n" not in line and "http" not in line for line in said), said
    assert said[:5] == [
        (
            "'category' must be one of \"\", decisions, lessons, facts, tasks, projects, "
            "handoffs; got 'nonsense'"
        ),
        "'limit' must be from 1 to 50; got 0",
        "search needs 'words'",
        "'text' must be a string, not a number",
        "'tags' must be a list of strings, not a string",
    ]
    assert "invalid agent name" in said[5] and "someday" in said[6]
    assert said[7].startswith("unknown tool 'recall'; the tools are publish")
    assert entry  # the vault itself is untouched by the failed calls


def test_arguments_a_model_quotes_are_taken_as_meant(vault, mem):
    ok(mem("add", "The queue is Redis.", "-c", "facts", "-a", "dev"))
    found, listed = call(
        vault,
        ("search", {"words": "queue", "limit": "5", "category": None}),
        ("query", {"open_tasks": "false", "limit": 3.0, "unknown": 1}),
    )
    assert not found.is_error and "Redis" in text(found)
    assert not listed.is_error and "Redis" in text(listed)


def test_publish_refuses_more_than_one_entrys_worth_in_one_line(vault):
    big = "The build cache keeps every layer. " * 60_000  # 2.1 MB
    refused, handed = call(vault, ("publish", {"text": big}), ("handoff", {"summary": big}))
    for result in (refused, handed):
        assert result.is_error and "\n" not in text(result)
        assert "more than 1024 KiB" in text(result), text(result)
    assert "build cache" not in "".join(p.read_text() for p in vault.rglob("*.md"))


def test_mcp_without_a_vault_serves_and_each_tool_says_so(run_mem, tmp_path):
    project = tmp_path / "elsewhere"
    project.mkdir()

    async def go():
        async with Client(server(project), raise_exceptions=True) as client:
            tools = (await client.list_tools()).tools
            asked = {"words": "x", "text": "x", "summary": "x"}  # what any tool needs
            before = [await client.call_tool(name, asked) for name in sorted(TOOLS)]
            assert run_mem("init", cwd=project).exit_code == 0  # mid-session
            after = await client.call_tool("search", {"words": "x"})
            return tools, before, after

    tools, before, after = anyio.run(go)
    assert {tool.name for tool in tools} == TOOLS
    assert all(result.is_error for result in before)
    assert {text(result) for result in before} == {
        "no vault here or above; run `mem init` to create one"
    }
    assert not after.is_error and text(after) == "no match"


def test_mcp_with_a_bad_agent_name_fails_before_serving(run_mem, tmp_path):
    result = run_mem("mcp", "--agent", "Not An Agent", cwd=tmp_path)
    assert result.exit_code == 2
    assert "invalid agent name" in result.stderr and result.stdout == ""


@pytest.mark.parametrize("command", [["--help"], ["search", "x"], ["recall"], ["mcp"]])
def test_no_command_imports_the_sdk_or_pydantic(run_mem, vault, command):
    probe = (
        "import atexit, runpy, sys; sys.argv = ['mem', *sys.argv[1:]]\n"
        "def report():\n"
        "    heavy = {'mcp', 'pydantic'} & set(sys.modules)\n"
        "    print(f'imported {heavy}' if heavy else 'clean', file=sys.stderr)\n"
        "atexit.register(report)\n"  # a quick command ends at once, after running these
        "runpy.run_module('mem', run_name='__main__')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *command],
        input="",  # `mem mcp` serves until its stdin closes
        capture_output=True,
        text=True,
        cwd=vault.parent,
        check=False,
    )
    assert done.stderr.strip().endswith("clean"), done.stderr
