"""`mem backfill`: commit this project's past agent sessions through the ledger."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of
from mem.services.backfill import DEFAULT_SINCE


@reports_errors
def backfill(
    ctx: typer.Context,
    source: Annotated[
        str | None,
        typer.Option(
            "--from",
            help="Only this agent's sessions: claude-code, codex, gemini or aider (default: all).",
            show_default=False,
        ),
    ] = None,
    since: Annotated[
        str,
        typer.Option(
            "--since",
            help="Only sessions written since this date (2026-11-01) or age (30d, 2w, 3mo); "
            "`all` for every one.",
        ),
    ] = DEFAULT_SINCE,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List the sessions found; commit nothing.")
    ] = False,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Commit the agent sessions this project already had, so memory starts full.

    Finds the project's Claude Code transcripts (~/.claude/projects/), Codex rollouts
    (~/.codex/sessions/), Gemini CLI sessions (~/.gemini/tmp/) and Aider chat history
    (.aider.chat.history.md, each of its sessions apart) and commits each as `mem commit`
    would, dated when it ran, with a handoff each. The ledger remembers what was committed:
    run again, it adds nothing.

    Example: mem backfill --from claude-code --since 30d
    """
    from mem.cli.feedback import for_people
    from mem.services import backfill as service
    from mem.services.search import parse_since

    sources = service.check_sources(source)
    since_moment = None if since == "all" else parse_since(since)
    settings = settings_of(ctx, vault, agent)
    found = service.find(settings, sources, dict(os.environ), since_moment)
    if dry_run:
        if as_json:
            render.write_json(
                {
                    "sessions": [
                        {"source": t.source, "path": str(t.path), "written": t.moment.isoformat()}
                        for t in found
                    ]
                }
            )
            return
        for t in found:
            render.out(f"{t.moment:%Y-%m-%d %H:%M}  {t.source:<11}  {t.path}")
        render.out(f"{len(found)} session(s) found; nothing committed (--dry-run)")
        return
    reports = service.backfill(settings, found, for_people("committing sessions"))
    if as_json:
        render.write_json({"agent": settings.agent, "sources": [r._asdict() for r in reports]})
        return
    if not found:
        looked = ", ".join(sources)
        render.out(f"no past sessions of this project found ({looked})")
        return
    for report in reports:
        render.out(
            f"{report.source}: {report.sessions} session(s), {report.added} entries added, "
            f"{report.reinforced} reinforced, {report.handoffs} handoff(s), for {settings.agent}"
        )
        for failure in report.failed:
            render.out(f"  could not commit {failure}")
