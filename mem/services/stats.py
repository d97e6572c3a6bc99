"""Describe a vault in numbers: per agent, category, kind and age."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from mem.config import Settings
from mem.model import Stats
from mem.services.refresh import open_index, parse
from mem.vault import layout

AGE_BUCKETS: tuple[tuple[str, float], ...] = (
    ("today", 1),
    ("this week", 7),
    ("this month", 30),
    ("this quarter", 90),
    ("older", float("inf")),
)


def stats(settings: Settings, now: datetime | None = None) -> Stats:
    """Count the vault's entries (private ones only for their own agent, and said apart); with
    an agent named (`-a`), only that agent's."""
    vault = settings.require_vault()
    now = now or datetime.now(UTC)
    agents: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    ages: Counter[str] = Counter({name: 0 for name, _ in AGE_BUCKETS})
    total = superseded = private = files = size = 0
    for ref in layout.category_files(vault):
        if ref.scope == "private" and ref.agent != settings.agent:
            continue
        if settings.agent_is_explicit and (ref.scope == "shared" or ref.agent != settings.agent):
            continue
        files += 1
        size += (vault / ref.path).stat().st_size
        for entry in parse(vault, ref)[0]:
            total += 1
            private += ref.scope == "private"
            if entry.is_superseded:
                superseded += 1
                continue
            agents[entry.agent] += 1
            categories[entry.category] += 1
            kinds[entry.kind] += 1
            age_days = (now - entry.date).total_seconds() / 86400
            ages[next(name for name, limit in AGE_BUCKETS if age_days < limit)] += 1
    index = open_index(vault)
    return Stats(
        entries=total,
        superseded=superseded,
        by_agent=dict(agents.most_common()),
        by_category=dict(categories.most_common()),
        by_kind=dict(kinds.most_common()),
        by_age=dict(ages),
        files=files,
        vault_bytes=size,
        index_bytes=index.size_bytes() if index.folder.is_dir() else 0,
        private=private,
    )
