"""`mem search`: find entries by full-text query."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli.answers import SEARCH_LIMIT, search_answer
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
from mem.services import search as search_service


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
            help="Only entries from this date (2026-11-01) or age on: 30m (minutes), 12h, 7d, "
            "2w, 3mo (months), 1y.",
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
    user: Annotated[
        bool, typer.Option("--user", help="Search your own vault (mem add --scope user).")
    ] = False,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Search entries by full-text query, best first, with a snippet around the match.

    Example: mem search "flaky test" --category lessons --limit 5
    """
    request = search_service.Query(
        text=query,
        agent=agent,
        category=category,
        kind=kind,
        tag=tag,
        exclude_agents=tuple(exclude_agent or ()),
        include_superseded=show_all,
        limit=limit,
        decay=not no_decay,
    )
    search_answer(lambda: settings_of(ctx, vault=vault), request, since, as_json, user)
