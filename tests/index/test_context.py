"""An entry's context: the entries written beside it in the same session rank it, a little, for
the words they hold; they never make it relevant."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from pathlib import Path

from mem.index.context import in_context
from mem.index.search_index import Filters, Ranking, SearchIndex
from mem.model import DEFAULT_HALF_LIFE_DAYS, Entry

from .helpers import NOW, indexed

RANKING = Ranking(NOW, DEFAULT_HALF_LIFE_DAYS, decay=False)
entry = partial(indexed, path="chat/facts.md")  # one conversation's turns


def contexts(entries: list[tuple[Entry, str]]) -> dict[str, str]:
    return {made.id: context for made, _, context in in_context(entries)}


def test_the_neighbours_written_in_the_same_minute_in_the_same_file_are_the_context():
    later = NOW + timedelta(minutes=5)
    entries = [
        entry(1, "Where did you go?"),
        entry(2, "Chicago, last week."),
        entry(3, "Nice!"),
        entry(4, "Another day.", later),
        entry(5, "Elsewhere.", path="chat/lessons.md"),
    ]
    assert contexts(entries) == {
        "e001": "Chicago, last week.",
        "e002": "Where did you go?\nNice!",
        "e003": "Chicago, last week.",
        "e004": "",
        "e005": "",
    }
    assert contexts(list(reversed(entries)))["e002"] == "Nice!\nWhere did you go?"
    assert contexts(entries[:1]) == {"e001": ""} and contexts([]) == {}


def test_an_entry_is_indexed_again_when_its_context_changes():
    before = {made.id: digest for made, digest, _ in in_context([entry(1, "a"), entry(2, "b")])}
    after = {made.id: digest for made, digest, _ in in_context([entry(1, "a"), entry(2, "c")])}
    assert before["e001"] != after["e001"]
    alone = list(in_context([entry(1, "a")]))
    assert alone[0][1] == "1:a"  # no context: the entry's own fingerprint


def filler(start: int, count: int) -> list[tuple[Entry, str]]:
    # Written at other times, so they are no one's context.
    return [
        entry(n, f"note{n} about topic{n}", NOW - timedelta(days=n))
        for n in range(start, start + count)
    ]


def build(folder: Path, entries: list[tuple[Entry, str]]) -> SearchIndex:
    index = SearchIndex(folder / "index")
    index.rebuild(entries, len(entries), {})
    return index


def test_an_entry_whose_neighbours_hold_the_task_words_is_lifted(tmp_path):
    conversation = [
        entry(1, "Where did you travel for the marathon?"),
        entry(2, "Chicago! The locals were so friendly."),
        entry(3, "Chicago has a deep-dish pizza place I love.", NOW - timedelta(days=300)),
        entry(4, "Thanks, it was lovely.", NOW - timedelta(days=200)),
    ]
    index = build(tmp_path, conversation + filler(100, 60))
    hits = index.search("chicago marathon", Filters(), RANKING, None)
    ids = [hit.entry.id for hit in hits]
    # e002 and e003 match "chicago" alike; e002 was written beside the question about it.
    assert ids.index("e002") < ids.index("e003")
    answer = hits[ids.index("e002")]
    assert set(answer.matched) == {"chicago", "+marathon"}
    assert answer.strength == hits[ids.index("e003")].strength  # relevance is its own words'
    # A neighbour's word alone finds nothing: e001's answer does not say "travel".
    assert {hit.entry.id for hit in index.search("travel", Filters(), RANKING, None)} == {"e001"}


def matched(index: SearchIndex, query: str, entry_id: str) -> set[str]:
    hits = index.search(query, Filters(), RANKING, None)
    return next(set(hit.matched) for hit in hits if hit.entry.id == entry_id)


def test_a_word_many_entries_hold_is_not_looked_for_in_the_context(tmp_path):
    chat = [entry(n, f"deploy step {n}") for n in range(1, 8)]  # "deploy" in 7 of 67
    chat.append(entry(8, "Rollback done."))
    index = build(tmp_path, chat + filler(100, 59))
    assert matched(index, "deploy rollback", "e008") == {"rollback"}


def test_an_update_brings_the_context_up_to_date(tmp_path):
    index = build(
        tmp_path, [entry(1, "Chicago it was."), entry(2, "Paris or Rome?")] + filler(100, 40)
    )
    assert matched(index, "chicago rome", "e001") == {"chicago", "+rome"}
    index.update({"chat/facts.md": [entry(1, "Chicago it was."), entry(2, "Madrid then?")]}, {})
    assert matched(index, "chicago rome", "e001") == {"chicago"}
    assert matched(index, "chicago madrid", "e001") == {"chicago", "+madrid"}
