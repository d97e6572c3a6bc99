"""`mem search`: find entries by full-text query."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli.errors import reports_errors
from mem.cli.options import (
    AgentFilter,
    AllFlag,
    CategoryFilter,
    JsonFlag,
    KindFilter,
    LimitOption,
    TagFilter,
    VaultOption,
    settings_of,
)
from mem.cli.quick import SEARCH_LIMIT, SearchFilters, search_answer


@reports_errors
def search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="Words to look for.")],
    agent: AgentFilter = None,
    category: CategoryFilter = None,
    kind: KindFilter = None,
    tag: TagFilter = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            help="Only entries from this date (2026-11-01) or age (7d, 2w) on.",
            show_default=False,
        ),
    ] = None,
    exclude_agent: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude-agent", help="Leave out this agent (repeatable).", show_default=False
        ),
    ] = None,
    limit: LimitOption = SEARCH_LIMIT,
    show_all: AllFlag = False,
    no_decay: Annotated[
        bool, typer.Option("--no-decay", help="Rank by text alone, ignoring age.")
    ] = False,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Search entries by full-text query, best first, with a snippet around the match.

    Example: mem search "flaky test" --category lessons --limit 5
    """
    search_answer(
        lambda: settings_of(ctx, vault=vault),
        query,
        SearchFilters(
            agent=agent,
            category=category,
            kind=kind,
            tag=tag,
            since=since,
            exclude_agents=tuple(exclude_agent or ()),
            limit=limit,
            show_all=show_all,
            no_decay=no_decay,
        ),
        as_json,
    )
