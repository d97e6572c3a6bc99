"""Options shared by commands, and the settings they resolve to."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from mem.cli.feedback import warn_unknown_settings
from mem.config import Settings, load_settings

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
VaultOption = Annotated[
    str | None,
    typer.Option(
        "--vault",
        metavar="PATH",
        help="The vault folder (default: MEM_VAULT, else the nearest .memory/ walking up).",
        show_default=False,
    ),
]
AgentOption = Annotated[
    str | None,
    typer.Option(
        "--agent",
        "-a",
        metavar="NAME",
        help="The agent (default: MEM_AGENT, else default_agent in mem.toml, else main).",
        show_default=False,
    ),
]
AgentFilter = Annotated[
    str | None,
    typer.Option(
        "--agent", "-a", metavar="NAME", help="Only this agent's entries.", show_default=False
    ),
]
CategoryFilter = Annotated[
    str | None,
    typer.Option(
        "--category",
        "-c",
        metavar="CATEGORY",
        help="Only this category (decisions, lessons, facts, tasks, projects, handoffs).",
        show_default=False,
    ),
]
KindFilter = Annotated[
    str | None, typer.Option("--kind", "-k", help="Only this kind.", show_default=False)
]
TagFilter = Annotated[
    str | None, typer.Option("--tag", "-t", help="Only entries with this tag.", show_default=False)
]
AllFlag = Annotated[bool, typer.Option("--all", help="Include superseded and forgotten entries.")]
LimitOption = Annotated[
    int, typer.Option("--limit", "-n", help="At most this many results.", min=1)
]


def settings_of(ctx: typer.Context, vault: str | None = None, agent: str | None = None) -> Settings:
    """Resolve settings from the command's flags, the root flags, MEM_* and mem.toml."""
    root = ctx.find_root().params
    settings = load_settings(
        vault_flag=vault if vault is not None else root.get("vault"),
        agent_flag=agent if agent is not None else root.get("agent"),
        cwd=Path.cwd(),
    )
    warn_unknown_settings(settings)
    return settings


def group_settings(ctx: typer.Context, agent: str | None, vault: str | None) -> Settings:
    """Settings for a subcommand (`mem handoff show`), honouring the flags given to its group
    (`mem handoff --agent dev show`)."""
    given = ctx.obj or {}
    return settings_of(ctx, vault=vault or given.get("vault"), agent=agent or given.get("agent"))


def json_output(ctx: typer.Context | None) -> bool:
    """Whether the command line asked for JSON: --json given to the command or to a group above
    it (`mem handoff --json show`). Results and errors both ask this, so they agree."""
    context: Any = ctx
    while context is not None:
        if context.params.get("as_json"):
            return True
        context = context.parent
    return False
