"""Publish: one entry an agent chose to keep, written as `mem add` would, but redacted first
and not written twice. Agents publish through MCP without a person reading what they send."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from mem.config import Settings, check_agent
from mem.extract.redact import redact
from mem.model import SHARED_FOLDER, Entry
from mem.services.add import add, check_size
from mem.services.commit import find_twin
from mem.services.search import Query, list_entries


class Published(NamedTuple):
    entry: Entry
    new: bool  # False: an entry of the agent's already said it, and is returned instead
    redactions: int


def publish(
    settings: Settings,
    text: str,
    category: str,
    kind: str | None = None,
    tags: tuple[str, ...] = (),
    scope: str = "agent",
    now: datetime | None = None,
) -> Published:
    """Store `text` for the settings' agent, secrets redacted; when one of its live entries in
    that category already says the same, return that one and write nothing."""
    agent = check_agent(settings.agent)
    check_size(text)
    clean, redactions = redact(text.strip())
    if clean:
        folder = SHARED_FOLDER if scope == "shared" else agent
        known = list_entries(settings, Query(agent=folder, category=category, limit=None))
        twin = find_twin([entry for entry in known if entry.scope == scope], clean)
        if twin is not None:
            return Published(twin, False, redactions)
    entry = add(settings, clean, category, kind, tags, scope, now=now)
    return Published(entry, True, redactions)
