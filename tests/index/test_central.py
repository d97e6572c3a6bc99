"""Central facts: among facts no task picked out and no reinforcement set apart, the Knowledge
sections show first those that say most about what the vault is about, worked out when the
index is written; facts newer than that reckoning come first."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from mem.index import central
from mem.index.search_index import Filters, SearchIndex
from mem.model import Entry

from .helpers import NOW
from .helpers import indexed as entry

FACTS = Filters(agent="dev", category="facts", include_archived=False)

# What the project is about: deploys, staging and migrations.
LESSONS = [
    entry(n, f"Deploy {n} to staging failed until the migrations ran first.") for n in range(1, 9)
] + [entry(n, f"Staging deploys need the migrations lock, note {n}.") for n in range(9, 15)]
CENTRAL = entry(
    20, "Every deploy runs the staging migrations before the app starts.", NOW, "dev/facts.md"
)
ASIDE = entry(
    21, "The office plant is watered on Fridays.", NOW + timedelta(minutes=5), "dev/facts.md"
)


def build(folder: Path, entries: list[tuple[Entry, str]]) -> SearchIndex:
    index = SearchIndex(folder / "index")
    index.rebuild(entries, len(entries), {})
    return index


def ids(entries: list[Entry]) -> list[str]:
    return [e.id for e in entries]


def reinforced(pair: tuple[Entry, str], times: int) -> tuple[Entry, str]:
    made, fingerprint = pair
    header = (*made.header, ("reinforced", str(times)))
    return made._replace(header=header), fingerprint + f":r{times}"


def test_the_fact_that_says_most_about_the_vault_comes_before_a_newer_aside(tmp_path):
    index = build(tmp_path, LESSONS + [CENTRAL, ASIDE])
    assert ids(index.top(FACTS, 2)) == ["e021", "e020"]  # newest first
    assert ids(index.standing_facts(FACTS, 2)) == ["e020", "e021"]
    assert ids(index.standing_facts(FACTS, 1)) == ["e020"]
    assert not list(index.folder.glob(".central*"))  # written atomically, no temporary left


def test_reinforcement_still_comes_first(tmp_path):
    index = build(tmp_path, LESSONS + [CENTRAL, reinforced(ASIDE, 3)])
    assert ids(index.standing_facts(FACTS, 1)) == ["e021"]


def test_a_fact_written_after_the_reckoning_comes_first_and_one_it_missed_is_not_lost(tmp_path):
    index = build(tmp_path, LESSONS + [CENTRAL, ASIDE])
    later = entry(22, "The VPN token rotates monthly.", NOW + timedelta(hours=1), "dev/facts.md")
    # Written in the minute of the newest entry the reckoning saw: it cannot tell it is new.
    same_minute = entry(23, "Badges open the side door.", ASIDE[0].date, "dev/facts.md")
    facts = [CENTRAL, ASIDE, later, same_minute]
    index.update({"dev/facts.md": facts}, {})  # 2 changes in 18 entries: worked out anew...
    assert ids(index.standing_facts(FACTS, 4))[0] == "e020"
    # ... so the same change in a larger vault, where it is not.
    notes = [entry(n, f"Unrelated note {n} on topic{n}.") for n in range(30, 60)]
    index = build(tmp_path / "large", LESSONS + notes + [CENTRAL, ASIDE])
    index.update({"dev/facts.md": facts}, {})
    assert ids(index.standing_facts(FACTS, 4)) == ["e022", "e020", "e021", "e023"]
    assert ids(index.standing_facts(FACTS, 2)) == ["e022", "e020"]


def test_without_a_readable_reckoning_the_order_is_newest_first(tmp_path):
    index = build(tmp_path, LESSONS + [CENTRAL, ASIDE])
    path = index.folder / central.CENTRAL_FILE
    for text in ("# mem central facts 0\nnewest\t0\ndev\te020\n", f"{central.HEADER}\nnewest\tx\n"):
        path.write_text(text, encoding="utf-8")
        assert ids(index.standing_facts(FACTS, 2)) == ["e021", "e020"]
    path.unlink()
    assert ids(index.standing_facts(FACTS, 2)) == ["e021", "e020"]


def test_an_empty_index_has_no_central_facts(tmp_path):
    index = build(tmp_path, [])
    assert index.standing_facts(FACTS, 10) == []
    assert central.read(index.folder) is not None


def test_few_or_many_facts_to_order_come_in_the_same_order(tmp_path):
    # Few: their ids are looked up in the table; many: the table's ids in the index.
    words = ["deploy", "staging", "migrations", "lock", "first", "ran"]
    facts = [
        entry(40 + n, " ".join(words[: n % 6 + 1]) + f" fact{n}", NOW, "dev/facts.md")
        for n in range(30)
    ]
    index = build(tmp_path, LESSONS + facts)
    every = ids(index.standing_facts(FACTS, 30))
    assert sorted(every) == sorted(made.id for made, _ in facts)
    for limit in (1, 2, 5):
        assert ids(index.standing_facts(FACTS, limit)) == every[:limit]
    assert every[0] in {made.id for made, _ in facts if "ran" in made.body}


def test_the_archives_facts_are_not_listed_and_an_agent_named_like_the_date_line_reads_right(
    tmp_path,
):
    archived = entry(
        30, "Every deploy ran the staging migrations first.", NOW, "dev/archive/facts.md"
    )
    index = build(tmp_path, LESSONS + [CENTRAL, ASIDE, archived])
    table = central.read(index.folder)
    assert table is not None
    assert list(table.ids("dev")) == ["e020", "e021"]  # the archived fact is not listed
    assert table.place("dev", "e030") == -1
    # The date line starts "newest\t": an agent of that name has no facts in it.
    text = f"{central.HEADER}\n{central.STAMP}5\nnewest\ta1\ndev\tb1\nnewest\ta2\nnewest\ta1\n"
    (index.folder / central.CENTRAL_FILE).write_text(text, encoding="utf-8")
    table = central.read(index.folder)
    assert table is not None and table.newest == 5
    assert list(table.ids("newest")) == ["a1", "a2", "a1"]
    assert [table.place("newest", i) for i in ("a1", "a2", "b1")] == [0, 1, -1]  # first place
