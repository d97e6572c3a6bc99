"""`mem doctor`: check the vault and repair what is safe."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.feedback import for_people
from mem.cli.options import JsonFlag, VaultOption, settings_of
from mem.errors import ExitCode
from mem.services import doctor as doctor_service


@reports_errors
def doctor(
    ctx: typer.Context,
    fix: Annotated[bool, typer.Option("--fix", help="Repair what is safe to repair.")] = False,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Find malformed entries, duplicate ids, misplaced entries and a stale index.

    Exits 1 while problems remain. Example: mem doctor --fix
    """
    report = doctor_service.doctor(settings_of(ctx, vault=vault), fix=fix, feedback=for_people())
    render.doctor_report(report, as_json)
    if any(not problem.fixed for problem in report.problems):
        raise typer.Exit(int(ExitCode.FAILURE))
