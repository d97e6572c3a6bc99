"""`mem migrate`: convert a flat vault (`.memory/<agent>.md`) into the category layout."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of


@reports_errors
def migrate(
    ctx: typer.Context,
    path: Annotated[
        Path | None,
        typer.Argument(
            metavar="[PATH]", help="With --from: the file to import.", show_default=False
        ),
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(
            "--from",
            help="Import another system's memory: aiteamx (its .memory/ folder), bit-office "
            "(~/.open-office/data, or one memory/ folder), jsonl (mem export's lines, or an "
            "event log with a text field), ostwin (a ledger.jsonl), cline (a memory-bank/ "
            "folder), claude (CLAUDE.md, MEMORY.md, or a folder holding them), portos (its "
            "memory index.json) or basic-memory (its notes).",
            show_default=False,
        ),
    ] = None,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Convert a flat vault: each .memory/<agent>.md into that agent's category files.

    Sections are read by their ## headings, in English or Portuguese (Decisions/Decisões,
    Lessons/Aprendizados, Tasks/Tarefas, Context/Contexto, Notes/Notas, Handoffs); each list
    item or paragraph becomes an entry, dated by a leading date when it has one. The original is
    kept as <agent>.md.bak (mem compact removes it later). Run again, it adds nothing twice.

    With --from SOURCE PATH it imports another system's memory instead; records imported before
    are skipped, and each unreadable one is reported with its line (exit 1, the rest imported).

    Example: mem migrate --from jsonl export.jsonl
    """
    from mem.cli.feedback import for_people
    from mem.errors import InvalidInput
    from mem.services.migrate import import_from, migrate_flat

    if source is not None or path is not None:
        if source is None or path is None:
            raise InvalidInput("give both --from SOURCE and the PATH to import")
        settings = settings_of(ctx, vault=vault, agent=agent)
        report = import_from(settings, source, path, for_people("importing"))
        imported(report, as_json)
        return
    done = migrate_flat(settings_of(ctx, vault=vault), for_people("migrating"))
    if as_json:
        render.write_json({"migrated": [item._asdict() for item in done]})
        return
    if not done:
        render.out("nothing to migrate: no .memory/<agent>.md flat files")
        return
    render.migrated(done)


def imported(report: object, as_json: bool) -> None:
    from mem.services.migrate import Imported

    assert isinstance(report, Imported)
    if as_json:
        render.write_json(
            {
                "source": report.source,
                "added": report.added,
                "skipped": report.skipped,
                "problems": [{"line": line, "reason": why} for line, why in report.problems],
            }
        )
    else:
        render.imported(report.source, report.added, report.skipped)
        for line, why in report.problems:
            render.say(f"line {line}: {why}" if line else why)
    if report.problems:
        raise typer.Exit(1)
