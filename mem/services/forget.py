"""Forget an entry: mark it superseded with a reason; nothing is deleted."""

from __future__ import annotations

from datetime import UTC, datetime

from mem.config import Settings
from mem.model import Entry
from mem.services.lookup import find_entry, refuse_duplicates
from mem.vault import operations
from mem.vault.entries import format_date

FORGOTTEN = "forgotten"  # the superseded-by value of an entry nobody replaced


def forget(settings: Settings, given: str, reason: str = "", now: datetime | None = None) -> Entry:
    """Hide an entry from search and recall, keeping its text in the file."""
    vault = settings.require_vault()
    entry = find_entry(settings, given)
    refuse_duplicates(settings, entry)
    updates: dict[str, str | None] = {
        "superseded-by": entry.get("superseded-by") or FORGOTTEN,
        "forgotten": format_date(now or datetime.now(UTC)),
    }
    if reason.strip():
        updates["reason"] = " ".join(reason.split())
    return operations.set_header(vault, entry, updates)
