"""`mem export`: every entry as JSON."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import JsonFlag, VaultOption, settings_of
from mem.errors import InvalidInput
from mem.services import export as export_service


@reports_errors
def export(
    ctx: typer.Context,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="jsonl (one entry per line) or json (one object).")
    ] = "jsonl",
    agent: Annotated[
        str | None,
        typer.Option("--agent", "-a", help="Only this agent's entries.", show_default=False),
    ] = None,
    include_private: Annotated[
        bool, typer.Option("--include-private", help="Also the current agent's private entries.")
    ] = False,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Export entries read straight from the markdown (--json is --format json).

    Example: mem export --format jsonl > memory.jsonl
    """
    if as_json:
        output_format = "json"
    if output_format not in ("jsonl", "json"):
        raise InvalidInput(f"unknown format {output_format!r}; use jsonl or json")
    settings = settings_of(ctx, vault=vault)  # who asks: private entries are only their own
    entries = export_service.export(settings, agent=agent, include_private=include_private)
    render.exported(entries, output_format)
