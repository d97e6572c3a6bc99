"""`mem init`: create a vault."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import JsonFlag, VaultOption, settings_of
from mem.services import init as init_service


@reports_errors
def init(
    ctx: typer.Context,
    path: Annotated[
        Path | None,
        typer.Argument(
            metavar="[PATH]", help="A folder of the project (default: here).", show_default=False
        ),
    ] = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Create a vault (.memory/ at the git root); safe to run again, never overwrites.

    Example: mem init
    """
    report = init_service.init(settings_of(ctx, vault=vault), path, Path.cwd())
    render.initialized(report, as_json)
