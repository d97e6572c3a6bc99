"""`mem stats`: counts per agent, category, kind and age, as JSON or a table."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from .helpers import ANSI, STATS_KEYS, added_id, data, entry_block, ok, write_category_file


def seed(mem, vault):
    old = f"{datetime.now(UTC) - timedelta(days=200):%Y-%m-%dT%H:%MZ}"
    write_category_file(
        vault,
        "ops/lessons.md",
        "ops",
        "lessons",
        entry_block("ops-old", old, "An old lesson.", kind="warning"),
    )
    first = added_id(mem("add", "Use bcrypt", "-c", "decisions", "-a", "dev"))
    ok(mem("add", "Use argon2", "-c", "decisions", "-a", "dev", "--supersedes", first))
    ok(mem("add", "Tabs, not spaces", "-k", "convention", "-a", "dev"))
    ok(mem("add", "Everyone logs JSON", "--scope", "shared", "-a", "dev"))
    ok(mem("add", "dev's private note", "--scope", "private", "-a", "dev"))


def test_stats_json_counts_entries_by_agent_category_kind_and_age(mem, vault):
    seed(mem, vault)
    payload = data(mem("stats", "--json"))
    assert set(payload) == STATS_KEYS
    assert payload["entries"] == 5  # the other agent's private entry is not counted
    assert payload["superseded"] == 1 and payload["private"] == 0
    assert payload["by_agent"] == {"dev": 2, "ops": 1, "_shared": 1}
    assert payload["by_category"] == {"facts": 2, "decisions": 1, "lessons": 1}
    assert payload["by_kind"] == {"decision": 1, "convention": 1, "fact": 1, "warning": 1}
    assert payload["by_age"] == {
        "today": 3,
        "this week": 0,
        "this month": 0,
        "this quarter": 0,
        "older": 1,
    }
    assert payload["files"] == 4
    assert payload["vault_bytes"] == sum(
        (vault / p).stat().st_size
        for p in ("ops/lessons.md", "dev/decisions.md", "dev/facts.md", "_shared/facts.md")
    )
    index = vault / ".mem" / "index"
    assert payload["index_bytes"] == sum(p.stat().st_size for p in index.iterdir() if p.is_file())

    as_dev = data(mem("stats", "--json", "--agent", "dev"))
    # Only dev's entries, its private one included (stats -a counted everyone's before).
    assert as_dev["entries"] == 4 and as_dev["by_agent"] == {"dev": 3} and as_dev["files"] == 3
    assert as_dev["private"] == 1


def test_stats_draws_tables_with_bars(mem, vault):
    seed(mem, vault)
    result = ok(mem("stats"))
    out = result.stdout
    for title in ("by agent", "by category", "by kind", "by age"):
        assert title in out
    rows = [line.split() for line in out.splitlines()]
    assert ["agent", "┃", "entries", "┃"] in rows
    assert any(row[:3] == ["dev", "│", "2"] and row[-1].startswith("█") for row in rows)
    assert re.search(r"\n5 entries \(1 superseded\) in 4 files; vault 1 KiB, index \d+ KiB\n$", out)
    assert not ANSI.search(out)


def test_stats_says_how_many_of_the_entries_counted_are_private(mem, vault):
    seed(mem, vault)
    out = ok(mem("stats", "-a", "dev")).stdout
    assert re.search(
        r"\n4 entries \(1 superseded, 1 private: only this agent sees them\) in 3 files;", out
    )
    as_main = ok(mem("stats")).stdout  # dev's private entry is neither counted nor mentioned
    assert re.search(r"\n5 entries \(1 superseded\) in 4 files;", as_main)
    assert "private" not in as_main
    mine = ok(mem("add", "main's own secret plan", "--scope", "private"))
    assert mine.stdout.strip()
    assert (
        "6 entries (1 superseded, 1 private: only this agent sees them)" in ok(mem("stats")).stdout
    )
    assert data(mem("stats", "--json"))["private"] == 1


def test_stats_of_an_empty_vault(mem):
    payload = data(mem("stats", "--json"))
    assert payload["entries"] == 0 and payload["files"] == 0
    assert payload["by_agent"] == {} and set(payload["by_age"].values()) == {0}
    ok(mem("stats"))


def test_stats_for_one_agent_counts_only_its_entries(mem, vault):
    ok(mem("add", "Sessions live in Redis.", "-c", "facts", "-a", "dev"))
    ok(mem("add", "Queues live in Kafka.", "-c", "facts", "-a", "qa"))
    ok(mem("add", "Everyone uses UTC.", "-c", "facts", "-a", "dev", "--scope", "shared"))
    assert data(mem("stats", "--json"))["entries"] == 3
    one = data(mem("stats", "-a", "dev", "--json"))
    assert one["entries"] == 1 and one["by_agent"] == {"dev": 1}
