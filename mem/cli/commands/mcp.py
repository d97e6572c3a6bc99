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
    that agent only.

    Example: claude mcp add mem -- mem mcp --agent dev
    """
    settings = settings_of(ctx, vault, agent)
    settings.require_vault()  # before serving: a client shows a server that failed to start
    from mem.cli.mcp_server import serve

    serve(settings)
