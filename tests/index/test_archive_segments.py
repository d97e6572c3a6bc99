"""A rebuild writes the archive in segments of its own, and what leaves the archive out does not
read them: the same hits, scores and lists as reading every segment."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from mem.index.search_index import Filters, Ranking, SearchIndex
from mem.index.segment_reader import IndexReader
from mem.model import DEFAULT_HALF_LIFE_DAYS

from .helpers import NOW
from .helpers import indexed as entry

WORDS = ["login", "redirect", "cache", "retry", "flaky", "test", "deploy", "schema", "queue"]
FILES = ["dev/lessons.md", "dev/facts.md", "qa/lessons.md", "dev/decisions.md"]


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> SearchIndex:
    rng = random.Random(11)
    hot, archived = [], []
    for n in range(400):
        path = rng.choice(FILES)
        if n % 3:  # two thirds archived, as after a year's compactions
            path = path.replace("/", "/archive/")
        body = " ".join(rng.choices(WORDS, k=rng.randint(2, 9)))
        made = entry(n, body, NOW - timedelta(days=rng.randint(0, 300)), path)
        (archived if "/archive/" in path else hot).append(made)
    folder = tmp_path_factory.mktemp("archive") / "index"
    index = SearchIndex(folder)
    index.rebuild([*hot, *archived], 400, {})
    return index


def test_the_archive_has_segments_of_its_own(index: SearchIndex):
    reader = IndexReader(index.folder)
    kinds = [leaf.archive_only() for leaf, _ in reader.leaf_readers()]
    assert kinds == [False, True]
    hot = reader.without_archive()
    assert len(hot.leaf_readers()) == 1
    assert hot.doc_count_all() == reader.doc_count_all() == 400  # counts stay the whole's
    assert hot.doc_frequency("content", "login") == reader.doc_frequency("content", "login")


@pytest.mark.parametrize("query", ["flaky test", "login redirect cache", "schema"])
@pytest.mark.parametrize("archive", [False, True])
def test_leaving_the_archive_out_finds_what_reading_it_all_finds(
    index: SearchIndex, monkeypatch, query, archive
):
    ranking = Ranking(NOW, DEFAULT_HALF_LIFE_DAYS)
    filters = Filters(viewer="dev", include_archived=archive)
    index._forget()
    skipping = index.search(query, filters, ranking, 20)
    listed = index.top(Filters(agent="dev", include_archived=archive), 30)
    index._forget()
    monkeypatch.setattr(IndexReader, "without_archive", lambda reader: reader)
    reading_all = index.search(query, filters, ranking, 20)
    assert skipping and [(h.entry.id, h.score, h.matched) for h in skipping] == [
        (h.entry.id, h.score, h.matched) for h in reading_all
    ]
    assert listed == index.top(Filters(agent="dev", include_archived=archive), 30)
    assert all(h.entry.archived == archive or not h.entry.archived for h in skipping)
    index._forget()
