"""`mem mcp`: the SDK's own client against the server, over a real stdio subprocess and in
process; agent isolation; a tool list small enough to live in every session's context."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from mem.cli.mcp_server import build
from mem.config import load_settings
from tests.cli.helpers import added_id, ok

TOOLS = {"publish", "query", "search", "get_context", "handoff"}
TOOL_LIST_CHARS = 3000  # ≤ 1,000 tokens even at 3 characters a token (JSON runs ~3-4)


def call(vault: Path, *steps: tuple[str, dict]):
    """Run `steps` (tool name, arguments) through an in-process client; return the results."""

    async def go():
        settings = load_settings(vault_flag=str(vault), agent_flag="dev")
        async with Client(build(settings)) as client:
            return [await client.call_tool(name, arguments) for name, arguments in steps]

    return anyio.run(go)


def text(result) -> str:
    return "\n".join(part.text for part in result.content)


def test_a_real_stdio_round_trip_lists_the_tools_and_calls_each(vault):
    project = vault.parent

    async def go():
        server = StdioServerParameters(
            command=sys.executable,
            args=["-m", "mem", "mcp", "--agent", "dev"],
            cwd=str(project),
            env={"NO_COLOR": "1", "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
        )
        async with Client(server, raise_exceptions=True) as client:
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


def test_the_tool_list_costs_under_1000_tokens_and_every_tool_says_what_it_does(vault):
    async def go():
        settings = load_settings(vault_flag=str(vault), agent_flag="dev")
        async with Client(build(settings)) as client:
            return (await client.list_tools()).tools

    tools = anyio.run(go)
    listed = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools]
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


def test_bad_arguments_and_mem_errors_come_back_as_tool_errors(vault, mem):
    entry = added_id(ok(mem("add", "A fact.", "-c", "facts", "-a", "dev")))
    bad_category, bad_agent, bad_since = call(
        vault,
        ("query", {"category": "nonsense"}),
        ("search", {"words": "fact", "agent": "Not An Agent"}),
        ("query", {"since": "someday"}),
    )
    assert bad_category.is_error and "category" in text(bad_category)
    assert bad_agent.is_error and "invalid agent name" in text(bad_agent)
    assert bad_since.is_error and "someday" in text(bad_since)
    assert entry  # the vault itself is untouched by the failed calls


def test_publish_refuses_more_than_one_entrys_worth_in_one_line(vault):
    big = "The build cache keeps every layer. " * 60_000  # 2.1 MB
    refused, handed = call(vault, ("publish", {"text": big}), ("handoff", {"summary": big}))
    for result in (refused, handed):
        assert result.is_error and "\n" not in text(result)
        assert "more than 1024 KiB" in text(result), text(result)
    assert "build cache" not in "".join(p.read_text() for p in vault.rglob("*.md"))


def test_mcp_without_a_vault_fails_before_serving(run_mem, tmp_path):
    result = run_mem("mcp", cwd=tmp_path)
    assert result.exit_code == 1
    assert "no vault" in result.stderr and result.stdout == ""


@pytest.mark.parametrize("command", [["--help"], ["search", "x"], ["recall"]])
def test_other_commands_never_import_the_sdk(run_mem, vault, command):
    probe = (
        "import runpy, sys; sys.argv = ['mem', *sys.argv[1:]]\n"
        "try:\n    runpy.run_module('mem', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "print('SDK' if 'mcp' in sys.modules else 'clean', file=sys.stderr)\n"
    )
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", probe, *command],
        capture_output=True,
        text=True,
        cwd=vault.parent,
        check=False,
    )
    assert done.stderr.strip().endswith("clean"), done.stderr
