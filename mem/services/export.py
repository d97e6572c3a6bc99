"""Export every entry, read straight from the markdown."""

from __future__ import annotations

from mem.config import Settings, check_agent
from mem.model import Entry
from mem.services.refresh import parse
from mem.vault import layout


def export(
    settings: Settings, agent: str | None = None, include_private: bool = False
) -> list[Entry]:
    """Return all entries in vault order (file by file, top to bottom)."""
    vault = settings.require_vault()
    if agent is not None and agent != "_shared":
        check_agent(agent)
    found: list[Entry] = []
    for ref in layout.category_files(vault):
        if ref.scope == "private" and not (include_private and ref.agent == settings.agent):
            continue
        if agent is not None and ref.agent != agent:
            continue
        found.extend(parse(vault, ref)[0])
    return found
