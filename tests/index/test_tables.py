"""The related words and central facts of a large index are worked out in a fresh interpreter
(tables.py): the same tables as in the writer's own process, and its failures are the
writer's."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from mem.errors import IndexTablesFailed
from mem.index import central, related, tables
from mem.index.search_index import SearchIndex

from .helpers import NOW
from .helpers import indexed as entry

WORDS = [
    "upload",
    "multipart",
    "bucket",
    "retry",
    "queue",
    "worker",
    "cache",
    "login",
    "cookie",
    "token",
]


def built(folder, count: int = 300) -> SearchIndex:
    rng = random.Random(4)
    made = []
    for n in range(count):
        body = " ".join(rng.sample(WORDS, 4)) + f" word{n % 37}"
        path = rng.choice(["dev/facts.md", "dev/lessons.md", "qa/facts.md"])
        item, fingerprint = entry(n, body, NOW - timedelta(days=n % 90), path)
        made.append((item, fingerprint))
    index = SearchIndex(folder / "index")
    index.rebuild(made, len(made), {})
    return index


def saved(index: SearchIndex) -> tuple[str, str]:
    return (
        (index.folder / related.RELATED_FILE).read_text(encoding="utf-8"),
        (index.folder / central.CENTRAL_FILE).read_text(encoding="utf-8"),
    )


def test_tables_worked_out_apart_are_those_worked_out_in_process(tmp_path):
    index = built(tmp_path)
    in_process = saved(index)
    assert len(in_process[1].splitlines()) > 50  # facts were ranked
    for name in (related.RELATED_FILE, central.CENTRAL_FILE):
        (index.folder / name).unlink()
    tables.work_out_apart(index.folder)
    assert saved(index) == in_process


def test_a_large_index_works_its_tables_out_apart(tmp_path, monkeypatch):
    apart: list[str] = []
    monkeypatch.setattr(tables, "APART_FROM", 100)
    monkeypatch.setattr(tables, "work_out_apart", lambda folder: apart.append(folder.name))
    built(tmp_path, 120)
    assert apart and apart[0].startswith("index.new-")  # before the new index is swapped in
    built(tmp_path / "small", 80)
    assert len(apart) == 1


def test_a_failure_apart_is_one_error_here(tmp_path):
    index = built(tmp_path, 40)
    (index.folder / related.RELATED_FILE).unlink()
    (index.folder / related.RELATED_FILE).mkdir()  # replacing it fails as a full disk would
    (index.folder / related.RELATED_FILE / "x").write_text("x")
    with pytest.raises(OSError) as raised:
        tables.work_out_apart(index.folder)
    assert raised.value.errno and "directory" in str(raised.value).lower()
    with pytest.raises(IndexTablesFailed, match="cannot be read"):
        tables.work_out_apart(tmp_path / "no-index")
