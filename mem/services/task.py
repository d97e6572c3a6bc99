"""Tasks: checkbox entries in tasks.md, added and ticked off."""

from __future__ import annotations

from datetime import UTC, datetime

from mem.config import Settings
from mem.errors import InvalidInput, NoMatchingItem, NotATask
from mem.model import Entry, TaskReport
from mem.services.add import add
from mem.services.feedback import QUIET, Feedback
from mem.services.lookup import find_entry, refuse_duplicates
from mem.vault import operations


def task_add(
    settings: Settings,
    text: str,
    tags: tuple[str, ...] = (),
    now: datetime | None = None,
    feedback: Feedback = QUIET,
) -> Entry:
    """Add an open task (one `- [ ]` line per line of text)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise InvalidInput("nothing to add: the task text is empty")
    body = "\n".join(
        line if line.startswith(("- [ ]", "- [x]")) else f"- [ ] {line}" for line in lines
    )
    return add(settings, body, "tasks", kind="task", tags=tags, now=now, feedback=feedback)


def task_done(
    settings: Settings, given: str, matching: str = "", now: datetime | None = None
) -> TaskReport:
    """Tick a task's open boxes (only those containing `matching`, when given)."""
    vault = settings.require_vault()
    entry = find_entry(settings, given)
    refuse_duplicates(settings, entry)  # ticking one copy would leave the other open
    if entry.category != "tasks":
        raise NotATask(f"entry {entry.id} is in {entry.category}, not a task")
    task, ticked = operations.tick(vault, entry, matching, now or datetime.now(UTC))
    if not ticked and matching:
        raise NoMatchingItem(f"no open item of task {entry.id} contains {matching!r}")
    return TaskReport(task, ticked)
