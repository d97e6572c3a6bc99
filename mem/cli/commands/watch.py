"""`mem watch`: reindex the vault as people edit it, until Ctrl-C."""

from __future__ import annotations

import signal
import sys
from datetime import datetime
from types import FrameType
from typing import Any

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import JsonFlag, VaultOption, settings_of


@reports_errors
def watch(ctx: typer.Context, vault: VaultOption = None, as_json: JsonFlag = False) -> None:
    """Keep the index current while people edit the vault, until Ctrl-C.

    Reindexes each category file as it is saved (by any editor, in place or by rename), after a
    moment's quiet; skips .git/ and mem's own .mem/ (private entries excepted). With --json, one
    JSON object per pass.

    Example: mem watch &
    """
    from mem.services import watch as service

    settings = settings_of(ctx, vault=vault)
    folder = settings.require_vault()

    def report(done: Any) -> None:
        if as_json:
            render.write_json(
                {"files": list(done.files), "rebuilt": done.rebuilt, "error": done.error or None}
            )
        elif done.error:
            render.out(f"{clock()} could not reindex: {done.error}")
        elif done.rebuilt:
            render.out(f"{clock()} index built again")
        elif done.files:
            render.out(f"{clock()} reindexed {', '.join(done.files)}")
        sys.stdout.flush()  # a pipe or a log file sees each pass as it happens

    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt  # SIGTERM (a supervisor, `kill`) stops as Ctrl-C does

    signal.signal(signal.SIGTERM, stop)
    if not as_json:
        render.out(f"watching {folder} (Ctrl-C to stop)")
        sys.stdout.flush()
    try:
        service.watch(settings, report)
    except KeyboardInterrupt:
        if not as_json:
            render.out("stopped watching")


def clock() -> str:
    return datetime.now().strftime("%H:%M:%S")
