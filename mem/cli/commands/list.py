"""`mem list`: entries, newest first."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.feedback import for_people
from mem.cli.options import (
    AgentFilter,
    AllFlag,
    CategoryFilter,
    JsonFlag,
    KindFilter,
    TagFilter,
    VaultOption,
    settings_of,
)
from mem.services import search as search_service


@reports_errors
def list_(
    ctx: typer.Context,
    category: CategoryFilter = None,
    kind: KindFilter = None,
    tag: TagFilter = None,
    open_tasks: Annotated[bool, typer.Option("--open-tasks", help="Only unchecked tasks.")] = False,
    agent: AgentFilter = None,
    show_all: AllFlag = False,
    limit: Annotated[int, typer.Option("--limit", "-n", help="At most this many.", min=1)] = 50,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """List entries, newest first, optionally filtered.

    Example: mem list --category decisions --tag auth
    """
    query = search_service.Query(
        agent=agent,
        category="tasks" if open_tasks else category,
        kind=kind,
        tag=tag,
        include_superseded=show_all,
        open_tasks_only=open_tasks,
        limit=limit,
    )
    entries = search_service.list_entries(settings_of(ctx, vault=vault), query, for_people())
    render.entries_listed(entries, as_json)
