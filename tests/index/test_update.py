"""An update finds the documents it replaces with this process's reader when that reader saw
the table of contents the writer starts from, and with a fresh one when another process wrote
in between: either way the index ends holding each entry once."""

from __future__ import annotations

import random

from mem.index.search_index import SearchIndex, to_entry

from .helpers import random_lessons


def held(index: SearchIndex) -> list[str]:
    reader = index.reader()
    return sorted(reader.stored_fields(docnum)["id"] for docnum in reader.all_doc_ids())


def test_an_update_after_another_process_wrote_replaces_the_right_documents(tmp_path):
    rng = random.Random(3)
    folder = tmp_path / "index"
    dev = random_lessons(rng, "dev/lessons.md", "dev", 40)
    qa = random_lessons(rng, "qa/lessons.md", "qa", 40)
    SearchIndex(folder).rebuild(dev + qa, 80, {})

    mine = SearchIndex(folder)
    assert len(held(mine)) == 80  # this process's reader: the first table of contents
    # Meanwhile another process deletes half of qa's entries; then another rebuilds the index
    # (a compaction does), qa's entries first: every document's number changes, and the
    # generation of the table of contents may be the one this process read.
    other = SearchIndex(folder)
    other.update({"qa/lessons.md": qa[:20]}, {})
    ops = random_lessons(rng, "ops/lessons.md", "ops", 5)
    SearchIndex(folder).rebuild(qa[:20] + ops + dev, 65, {})

    changed = [(entry._replace(body=entry.body + " edited"), f"{fp}:e") for entry, fp in dev]
    mine.update({"dev/lessons.md": changed[:30]}, {})

    ids = held(SearchIndex(folder))
    assert ids == sorted(entry.id for entry, _ in changed[:30] + qa[:20] + ops)
    reader = SearchIndex(folder).reader()
    bodies = {
        found.id: found.body
        for found in (to_entry(reader.stored_fields(d)) for d in reader.all_doc_ids())
    }
    assert all(bodies[entry.id] == entry.body for entry, _ in changed[:30] + qa[:20] + ops)


def test_an_update_reuses_its_reader_when_nothing_was_written_in_between(tmp_path, monkeypatch):
    from mem.index import search_index

    rng = random.Random(4)
    folder = tmp_path / "index"
    dev = random_lessons(rng, "dev/lessons.md", "dev", 30)
    index = SearchIndex(folder)
    index.rebuild(dev, 30, {})
    assert len(held(index)) == 30
    opened: list[object] = []
    reader_class = search_index.IndexReader
    monkeypatch.setattr(
        search_index, "IndexReader", lambda folder: opened.append(folder) or reader_class(folder)
    )
    index.update({"dev/lessons.md": dev[:10]}, {})
    monkeypatch.setattr(search_index, "IndexReader", reader_class)
    assert opened == [folder]  # only the reader after the commit, not one before it
    assert held(SearchIndex(folder)) == sorted(entry.id for entry, _ in dev[:10])
