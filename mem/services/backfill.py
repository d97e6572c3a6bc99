"""`mem backfill`: commit this project's past agent sessions, so memory starts full.

Each transcript goes through `mem commit` as it is, with the ledger: a session committed before
(by an earlier backfill, or by the hooks as it ran) adds nothing, so running this again is
safe. Entries are dated when their session was last written, and each session hands off as the
hooks would have made it do (subagents excepted): oldest first, so the newest is the last
session a recall shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from itertools import islice
from typing import NamedTuple

from mem.config import Settings
from mem.errors import InvalidInput, MemError
from mem.extract.sessions import SOURCES, Transcript, transcripts
from mem.services.feedback import QUIET, Feedback

DEFAULT_SINCE = "30d"  # a project's last month: what a new memory most needs, quickly read


class SourceReport(NamedTuple):
    source: str
    sessions: int
    added: int
    reinforced: int
    handoffs: int = 0
    failed: tuple[str, ...] = ()  # "path: why", for transcripts that could not be read


def check_sources(wanted: str | None) -> tuple[str, ...]:
    if wanted is None:
        return SOURCES
    if wanted not in SOURCES:
        raise InvalidInput(f"unknown source {wanted!r}; use one of {', '.join(SOURCES)}")
    return (wanted,)


def find(
    settings: Settings,
    sources: tuple[str, ...],
    environ: Mapping[str, str],
    since: datetime | None = None,
) -> list[Transcript]:
    """This project's past transcripts (the project: the folder that holds the vault)."""
    return transcripts(settings.require_vault().parent, sources, environ, since)


def session_lines(item: Transcript) -> list[str]:
    """The lines of the file that are this session (`item.lines`)."""
    assert item.lines is not None
    first, stop = item.lines
    with item.path.open(encoding="utf-8", errors="replace", newline="") as source:
        return list(islice(source, first, stop))


def backfill(
    settings: Settings, found: list[Transcript], feedback: Feedback = QUIET
) -> list[SourceReport]:
    """Commit every transcript, oldest first; one report per source, in SOURCES order."""
    from mem.services.commit import commit, commit_file

    reports = {
        source: SourceReport(source, 0, 0, 0, 0)
        for source in SOURCES
        if any(t.source == source for t in found)
    }
    for done, item in enumerate(found, start=1):
        so_far = reports[item.source]
        try:
            if item.lines is None:
                report = commit_file(
                    settings, item.path, item.format, now=item.moment, hand_off=not item.subagent
                )
            else:  # one session of a file that holds many: dated, and handed off, on its own
                report = commit(
                    settings, session_lines(item), item.format, now=item.moment, limited=False
                )
        except (OSError, MemError) as exc:
            reports[item.source] = so_far._replace(failed=(*so_far.failed, f"{item.path}: {exc}"))
        else:
            reports[item.source] = so_far._replace(
                sessions=so_far.sessions + 1,
                added=so_far.added + len(report.added),
                reinforced=so_far.reinforced + len(report.reinforced),
                handoffs=so_far.handoffs + (report.handoff is not None),
            )
        if feedback.progress is not None:
            feedback.progress(done, len(found))
    return list(reports.values())
