"""`mem show`: one entry."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.feedback import for_people
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of
from mem.services import lookup


@reports_errors
def show(
    ctx: typer.Context,
    entry_id: Annotated[
        str, typer.Argument(metavar="ID", help="An id or a unique prefix (4+ characters).")
    ],
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Print one entry exactly as it stands in its file.

    Example: mem show 2026112
    """
    settings = settings_of(ctx, vault=vault, agent=agent)
    entry, block = lookup.find_entry_block(settings, entry_id, for_people())
    render.entry_shown(entry, block, as_json)
