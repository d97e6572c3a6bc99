"""`mem migrate`: convert a flat vault (`.memory/<agent>.md`) into the category layout."""

from __future__ import annotations

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import JsonFlag, VaultOption, settings_of


@reports_errors
def migrate(ctx: typer.Context, vault: VaultOption = None, as_json: JsonFlag = False) -> None:
    """Convert a flat vault: each .memory/<agent>.md into that agent's category files.

    Sections are read by their ## headings, in English or Portuguese (Decisions/Decisões,
    Lessons/Aprendizados, Tasks/Tarefas, Context/Contexto, Notes/Notas, Handoffs); each list
    item or paragraph becomes an entry, dated by a leading date when it has one. The original is
    kept as <agent>.md.bak (mem compact removes it later). Run again, it adds nothing twice.

    Example: mem migrate
    """
    from mem.services.migrate import migrate_flat

    done = migrate_flat(settings_of(ctx, vault=vault))
    if as_json:
        render.write_json({"migrated": [item._asdict() for item in done]})
        return
    if not done:
        render.out("nothing to migrate: no .memory/<agent>.md flat files")
        return
    for item in done:
        counts = ", ".join(f"{category} {n}" for category, n in item.added.items()) or "nothing new"
        again = f"; {item.skipped} already there" if item.skipped else ""
        render.out(
            f"{item.flat_file} -> {item.agent}/: {counts}{again} ({item.flat_file}.bak kept)"
        )
        if item.unknown_sections:
            render.say(
                f"  sections mem does not know, left in {item.flat_file}.bak: "
                + ", ".join(item.unknown_sections)
            )
