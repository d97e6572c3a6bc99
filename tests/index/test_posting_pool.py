"""The compact posting pool writes the very segments Whoosh's own pool writes."""

from __future__ import annotations

import random

import pytest

from mem.index import posting_pool
from mem.index.search_index import SearchIndex
from tests.index.helpers import indexed

WORDS = [
    "retry",
    "cache",
    "deploy",
    "schema",
    "login",
    "token",
    "timeout",
    "redis",
    "queue",
    "worker",
    "flaky",
    "ci",
]


def entries(seed: int, count: int, path: str = "dev/lessons.md", first: int = 0) -> list:
    rng = random.Random(seed)
    return [
        indexed(n, " ".join(rng.choices(WORDS, k=rng.randrange(1, 9))) + f" n{n}", path=path)
        for n in range(first, first + count)
    ]


def postings(index: SearchIndex) -> dict:
    reader = index.open().reader()
    found = {}
    for field, text in reader.all_terms():
        matcher = reader.postings(field, text)
        rows = []
        while matcher.is_active():
            rows.append((matcher.id(), matcher.weight(), matcher.value()))
            matcher.next()
        found[field, text] = rows
    return found


def segment_files(index: SearchIndex) -> dict:
    """Each segment's files, byte for byte, named without the segment's random id: block
    headers hold each block's shortest and longest document, which the lengths give."""
    whoosh_index = index.open()
    found = {}
    for segment in whoosh_index._segments():
        storage = whoosh_index.storage
        if segment.is_compound():
            storage = segment.open_compound_file(storage)
        for name in storage.list():
            if segment.segid in name:
                with storage.open_file(name) as stream:
                    found[name.replace(segment.segid, "*")] = stream.read()
    return found


def build(folder, monkeypatch, compact: bool) -> SearchIndex:
    if not compact:
        monkeypatch.setattr(posting_pool, "install", lambda writer: writer)
    index = SearchIndex(folder, 1)
    index.rebuild(entries(1, 300), 300, {})
    # Updates add segments; merged, their postings come through the pool from several
    # readers, term by term, deleted documents left out.
    for round_ in range(6):
        path = f"qa{round_}/lessons.md"
        index.update({path: entries(10 + round_, 40, path, first=1000 * (round_ + 1))}, {})
    index.update({"dev/lessons.md": entries(2, 120)}, {})
    index._writer().commit(optimize=True)  # every segment merged through the pool
    index._forget()
    return index


def test_the_compact_pool_writes_what_whooshs_pool_writes(tmp_path, monkeypatch):
    compact = build(tmp_path / "compact", monkeypatch, compact=True)
    with monkeypatch.context() as patched:
        whoosh = build(tmp_path / "whoosh", patched, compact=False)
    assert postings(compact) == postings(whoosh)
    assert segment_files(compact) == segment_files(whoosh)
    assert compact.reader().doc_count() == whoosh.reader().doc_count() == 120 + 6 * 40
    assert len(compact.reader().leaf_readers()) == 1


def test_postings_out_of_document_order_come_out_in_order():
    pool = posting_pool.CompactPool()
    for docnum in (5, 2, 9):
        pool.add(("content", b"cache", docnum, 1.0, b"\x01"))
    pool.add(("content", b"a", 3, 2.0, None))
    pool.add(("agent", b"dev", 1, 1.0, None))
    assert list(pool.iter_postings()) == [
        ("agent", b"dev", 1, 1.0, None),
        ("content", b"a", 3, 2.0, None),
        ("content", b"cache", 2, 1.0, b"\x01"),
        ("content", b"cache", 5, 1.0, b"\x01"),
        ("content", b"cache", 9, 1.0, b"\x01"),
    ]
    pool.cleanup()
    assert list(pool.iter_postings()) == []


@pytest.mark.parametrize("count", [0, 1])
def test_an_index_of_few_entries_builds(tmp_path, count):
    index = SearchIndex(tmp_path / "index", 1)
    assert index.rebuild(entries(3, count), count, {}) == count
