"""Entries as refresh hands them to the index: each with a fingerprint of its text."""

from __future__ import annotations

from datetime import UTC, datetime

from mem.model import KINDS_BY_CATEGORY, Entry

NOW = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)


def indexed(
    n: int, body: str, date: datetime = NOW, path: str = "dev/lessons.md"
) -> tuple[Entry, str]:
    """Entry `e00n` of the category file `path` (its agent's, of the category's first kind)."""
    agent, _, name = path.partition("/")
    category = name.removeprefix("archive/").removesuffix(".md")
    kind = KINDS_BY_CATEGORY[category][0]
    made = Entry(
        id=f"e{n:03d}",
        agent=agent,
        category=category,
        kind=kind,
        date=date,
        tags=(),
        body=body,
        header=(("kind", kind),),
        scope="agent",
        path=path,
        archived=name.startswith("archive/"),
    )
    return made, f"{n}:{body}"
