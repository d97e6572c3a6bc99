"""`mem mcp`: serve the vault to MCP clients over stdio (the server is mem/cli/mcp_server.py)."""

from __future__ import annotations

import typer

from mem.cli.errors import reports_errors
from mem.cli.options import AgentOption, VaultOption, settings_of


@reports_errors
def mcp(ctx: typer.Context, agent: AgentOption = None, vault: VaultOption = None) -> None:
    """Serve this vault over MCP on stdin/stdout: publish, query, search, get_context, handoff.

    MCP clients start it themselves; `mem install` registers it. Tools name their caller with
    `agent` (else --agent, MEM_AGENT, the vault's default); that agent's private entries reach
    that agent only. Without a vault it serves all the same, each tool saying there is none.

    Example: claude mcp add mem -- mem mcp --agent dev
    """
    # A client shows a server that fails to start as broken, in every project without a vault
    # when it is registered for all of them: so only a bad flag or mem.toml stops it here.
    settings_of(ctx, vault, agent)
    from mem.cli.mcp_server import serve

    serve(lambda: settings_of(ctx, vault, agent))
