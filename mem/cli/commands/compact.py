"""`mem compact`: move what the hot files no longer need to the archive, losing nothing."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import JsonFlag, VaultOption, settings_of


@reports_errors
def compact(
    ctx: typer.Context,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would move; change nothing.")
    ] = False,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Keep the vault small: old, superseded and expired entries go to archive/<category>.md.

    Entries of the last 7 days are never touched. Past 30 days, each category file keeps its 20
    newest entries, pinned ones, open tasks and its most important facts. Archived entries are
    found by `mem search --all`, not recalled. Safe to run again, from a hook or cron: a second
    run changes nothing. Every step is logged to .memory/.mem/compact-log.jsonl.

    Example: mem compact --dry-run
    """
    from mem.cli.feedback import for_people
    from mem.services.compact import compact as run

    report = run(settings_of(ctx, vault=vault), dry_run, feedback=for_people("compacting"))
    if as_json:
        render.write_json(
            {
                "dry_run": report.dry_run,
                "files": report.files,
                "kept": report.kept,
                "steps": [step._asdict() for step in report.steps],
            }
        )
        return
    render.compacted(report)
