"""Handoff roll-ups, without an LLM: the sessions of a week, older than HOT_DAYS, become one
weekly handoff listing each session's What, files and commits; weekly roll-ups older than
MONTH_DAYS become one monthly handoff. The originals are marked `rolled-into:` the roll-up, in
the same atomic write that adds it (a run killed after it never rolls them up twice), and the
archive pass of `mem compact` then moves them; the roll-up names them (`rolls-up:`).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from mem.model import Entry
from mem.vault import layout, store

HOT_DAYS = 7
MONTH_DAYS = 30
ROLLUP_KEY = "rollup"  # the period a roll-up covers: 2026-W45 (a week) or 2026-09 (a month)
MAX_FILES = 5  # of each session, in a roll-up line
MAX_COMMITS = 3


def parts_of(body: str) -> tuple[str, list[str], list[str]]:
    """A handoff's What, its files changed and its commits."""
    from mem.services.session import handoff_parts, handoff_what

    lists = {label.lower(): text for label, text in handoff_parts(body)}

    def listed(label: str) -> list[str]:
        lines = (line.strip() for line in lists.get(label, "").splitlines())
        # "- … and 3 more" counts what a handoff left out; it is not a file
        return [x[2:].strip() for x in lines if x.startswith("- ") and not x.startswith("- …")]

    return handoff_what(body), listed("files changed"), listed("commits")


def session_line(entry: Entry) -> str:
    what, files, commits = parts_of(entry.body)
    line = f"- {entry.date:%Y-%m-%d} ({entry.id}): {what}"
    if files:
        more = f" and {len(files) - MAX_FILES} more" if len(files) > MAX_FILES else ""
        line += f" Files: {', '.join(files[:MAX_FILES])}{more}."
    if commits:
        line += f" Commits: {'; '.join(commits[:MAX_COMMITS])}."
    return line


def week_of(moment: datetime) -> str:
    year, week, _ = moment.astimezone(UTC).isocalendar()
    return f"{year}-W{week:02d}"


def groups(entries: list[Entry], now: datetime) -> list[tuple[str, list[Entry]]]:
    """What to roll up: ("2026-W45", its sessions) and ("2026-09", its weekly roll-ups)."""
    live = [e for e in entries if not e.is_superseded and not e.get("rolled-into")]
    found: dict[str, list[Entry]] = {}
    for entry in live:
        period = entry.get(ROLLUP_KEY)
        if not period and entry.date < now - timedelta(days=HOT_DAYS):
            found.setdefault(week_of(entry.date), []).append(entry)
        elif "-W" in period and entry.date < now - timedelta(days=MONTH_DAYS):
            found.setdefault(f"{entry.date.astimezone(UTC):%Y-%m}", []).append(entry)
    return sorted(found.items())


def rollup_body(period: str, members: list[Entry]) -> str:
    ordered = sorted(members, key=lambda e: (e.date, e.id))
    if "-W" in period:
        title = f"**What:** {len(ordered)} session(s) of week {period}."
        lines = [session_line(entry) for entry in ordered]
    else:
        title = f"**What:** {len(ordered)} week(s) of {period}."
        lines = [
            line for entry in ordered for line in entry.body.splitlines() if line.startswith("- ")
        ]
    return title + "\n\n**Sessions:**\n" + "\n".join(lines)


def roll_up(
    vault: Path, ref: layout.FileRef, now: datetime, dry_run: bool
) -> list[tuple[str, str, tuple[str, ...]]]:
    """Roll up one handoffs file; return (period, roll-up id, rolled ids) per roll-up made."""
    from mem.vault import entries as entry_codec

    made: list[tuple[str, str, tuple[str, ...]]] = []

    def change(text: str) -> str:
        # Weeks first; a week rolled up now may already be old enough for its month: a second
        # pass rolls it in, so the next run finds nothing left to do.
        for _ in range(2):
            parsed = entry_codec.parse_ref(text, ref)
            updates: dict[str, dict[str, str | None]] = {}
            blocks = []
            for period, members in groups(list(parsed.entries), now):
                newest = max(members, key=lambda e: (e.date, e.id))
                rollup_id = entry_codec.new_entry_id(newest.date)
                ids = tuple(sorted(e.id for e in members))
                header = (
                    ("kind", "handoff"),
                    (ROLLUP_KEY, period),
                    ("rolls-up", ",".join(ids)),
                    ("source", "compact"),
                )
                body = rollup_body(period, members)
                blocks.append(entry_codec.render_entry(rollup_id, newest.date, (), body, header))
                for member in members:
                    updates[member.id] = {"rolled-into": rollup_id}
                made.append((period, rollup_id, ids))
            if not blocks:
                break
            marked = entry_codec.with_headers(parsed, updates)
            text = entry_codec.insert_entry(entry_codec.parse_ref(marked, ref), "".join(blocks))
        return text

    store.update(vault, ref.path, change, dry_run)
    return made
