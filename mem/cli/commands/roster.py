"""`mem roster`: one line per agent, what it last did and when."""

from __future__ import annotations

from datetime import UTC, datetime

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.feedback import for_people
from mem.cli.options import JsonFlag, VaultOption, settings_of


@reports_errors
def roster(ctx: typer.Context, vault: VaultOption = None, as_json: JsonFlag = False) -> None:
    """List the agents with what their latest handoff says and when.

    Example: mem roster
    """
    from mem.services import session

    lines = session.roster(settings_of(ctx, vault=vault), feedback=for_people())
    render.roster_lines(lines, datetime.now(UTC), as_json)
