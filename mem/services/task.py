"""Tasks: checkbox entries in tasks.md, added and ticked off."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from mem.config import Settings
from mem.errors import EntryNotFound, InvalidInput, NoMatchingItem, NotATask
from mem.model import Entry, TaskReport
from mem.services.add import add
from mem.services.lookup import find_entry
from mem.vault import entries as entry_codec
from mem.vault import layout, store

OPEN_LINE = re.compile(r"^(?P<lead>\s*[-*] )\[ \](?P<rest>.*)$")


def task_add(
    settings: Settings, text: str, tags: tuple[str, ...] = (), now: datetime | None = None
) -> Entry:
    """Add an open task (one `- [ ]` line per line of text)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise InvalidInput("nothing to add: the task text is empty")
    body = "\n".join(
        line if line.startswith(("- [ ]", "- [x]")) else f"- [ ] {line}" for line in lines
    )
    return add(settings, body, "tasks", kind="task", tags=tags, now=now)


def task_done(
    settings: Settings, given: str, matching: str = "", now: datetime | None = None
) -> TaskReport:
    """Tick a task's open boxes (only those containing `matching`, when given)."""
    vault = settings.require_vault()
    entry = find_entry(settings, given)
    if entry.category != "tasks":
        raise NotATask(f"entry {entry.id} is in {entry.category}, not a task")
    ref = layout.describe(entry.path)
    assert ref is not None  # find_entry only returns entries of category files
    ticked = 0

    def tick(old: str) -> str:
        nonlocal ticked
        parsed = entry_codec.parse_ref(old, ref)
        span = parsed.span_of(entry.id)
        if span is None:
            raise EntryNotFound(
                f"entry {entry.id} is no longer in {entry.path}; run the command again"
            )
        block = old[span.start : span.end]
        lines = block.splitlines(keepends=True)
        for number, line in enumerate(lines):
            match = OPEN_LINE.match(line.rstrip("\r\n"))
            if match and matching.lower() in match.group("rest").lower():
                ending = line[len(line.rstrip("\r\n")) :]
                lines[number] = f"{match.group('lead')}[x]{match.group('rest')}{ending}"
                ticked += 1
        text = entry_codec.with_entry_text(parsed, entry.id, "".join(lines))
        reparsed = entry_codec.parse_ref(text, ref)
        done_span = reparsed.span_of(entry.id)
        if ticked and done_span and not done_span.entry.is_open_task:
            moment = entry_codec.format_date(now or datetime.now(UTC))
            text = entry_codec.with_header(reparsed, entry.id, {"done": moment})
        return text

    _, new_text = store.update(vault, entry.path, tick)
    if not ticked and matching:
        raise NoMatchingItem(f"no open item of task {entry.id} contains {matching!r}")
    span = entry_codec.parse_ref(new_text, ref).span_of(entry.id)
    return TaskReport(span.entry if span else entry, ticked)
