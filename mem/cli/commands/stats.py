"""`mem stats`: the vault in numbers."""

from __future__ import annotations

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of
from mem.services import stats as stats_service


@reports_errors
def stats(
    ctx: typer.Context,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Count entries per agent, category, kind and age, with the vault and index sizes.

    With --agent, count only that agent's entries. Example: mem stats -a dev
    """
    render.stats_report(stats_service.stats(settings_of(ctx, vault=vault, agent=agent)), as_json)
