"""`mem forget`: supersede an entry with a reason."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.input import clean_text
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of
from mem.services import forget as forget_service


@reports_errors
def forget(
    ctx: typer.Context,
    entry_id: Annotated[str, typer.Argument(metavar="ID", help="An id or a unique prefix.")],
    reason: Annotated[str, typer.Option("--reason", "-r", help="Why it no longer holds.")] = "",
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Hide an entry from search and recall; its text stays in the file.

    Example: mem forget 20261122-2304 --reason "we moved to argon2"
    """
    entry = forget_service.forget(
        settings_of(ctx, vault=vault, agent=agent), entry_id, clean_text(reason)
    )
    render.forgotten(entry, as_json)
