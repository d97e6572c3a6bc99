"""At most MAX_FACTS live facts per agent, however they were added: the least reinforced, oldest
move to the archive (still searchable), so the facts recall reads stay few and strong."""

from __future__ import annotations

from pathlib import Path

from mem.model import Entry
from mem.vault import layout
from mem.vault.archive import move_to_archive

MAX_FACTS = 50  # per agent


def cap_facts(vault: Path, agent: str) -> list[Entry]:
    """Keep at most MAX_FACTS live facts per agent: move the least reinforced, oldest out."""

    def beyond_the_cap(entries: list[Entry]) -> list[str]:
        live = [e for e in entries if not e.is_superseded and not e.is_pinned]
        live.sort(key=lambda entry: (entry.reinforced, entry.date))
        return [entry.id for entry in live[: max(0, len(live) - MAX_FACTS)]]

    return move_to_archive(vault, layout.file_ref(agent, "facts"), beyond_the_cap)
