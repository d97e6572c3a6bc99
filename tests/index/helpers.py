"""Entries as refresh hands them to the index: each with a fingerprint of its text."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

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


WORDS = [
    "login",
    "redirect",
    "session",
    "cookie",
    "postgres",
    "migration",
    "timeout",
    "flaky",
    "test",
    "docker",
    "build",
    "cache",
    "bcrypt",
    "hash",
    "deploy",
    "rollback",
    "queue",
    "worker",
    "retry",
    "index",
    "schema",
    "lock",
]
SCORING_NOW = datetime(2026, 11, 23, tzinfo=UTC)


def random_lessons(
    rng: random.Random, path: str, agent: str, count: int, first: int = 0
) -> list[tuple[Entry, str]]:
    """`count` lessons of random WORDS, dates, tags, reinforcement and scope, numbered from
    `first` (as `entry(n)` numbers them), each with a fingerprint of its text."""
    made = []
    for n in range(first, first + count):
        body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 40)))
        entry = Entry(
            id=f"{path.replace('/', '-')}-{n:04d}",
            agent=agent,
            category="lessons",
            kind="lesson",
            date=SCORING_NOW - timedelta(days=rng.randint(0, 400)),
            tags=tuple(rng.sample(WORDS, rng.randint(0, 2))),
            body=body,
            header=(("kind", "lesson"), ("reinforced", str(rng.randint(0, 5)))),
            scope=rng.choice(("agent", "agent", "private")),
            path=path,
        )
        made.append((entry, f"{n}:{hash(body)}"))
    return made
