"""The index's segment files are read in place from their memory map: a ViewFile reads as
io.BytesIO would, and the map still closes when the index does."""

from __future__ import annotations

import io
import os
import pickle
from pathlib import Path

import pytest

from mem.index.in_place import ViewFile
from mem.index.search_index import Filters, Ranking, SearchIndex
from mem.model import DEFAULT_HALF_LIFE_DAYS

from .helpers import NOW
from .helpers import indexed as entry

RANKING = Ranking(NOW, DEFAULT_HALF_LIFE_DAYS, decay=False)
DATA = b"first line\nsecond line\n" + pickle.dumps({"term": (1, 2.5)}) + b"\nno newline at the end"


@pytest.mark.parametrize("buffer", [DATA, memoryview(DATA)], ids=["bytes", "memoryview"])
def test_a_view_file_reads_as_bytesio_does(buffer):
    ours, theirs = ViewFile(buffer), io.BytesIO(DATA)
    steps = [
        ("read", (4,)),
        ("readline", ()),
        ("tell", ()),
        ("readline", (3,)),
        ("seek", (-5, 2)),
        ("read", ()),
        ("read", (10,)),  # at the end: nothing
        ("seek", (0,)),
        ("seek", (7, 1)),
        ("read", (None,)),
        ("seek", (len(DATA) + 10,)),
        ("read", (3,)),  # past the end: nothing
        ("readline", ()),
    ]
    for name, args in steps:
        assert getattr(ours, name)(*args) == getattr(theirs, name)(*args), (name, args)
    into_ours, into_theirs = bytearray(6), bytearray(6)
    ours.seek(2)
    theirs.seek(2)
    assert ours.readinto(into_ours) == theirs.readinto(into_theirs)
    assert into_ours == into_theirs and ours.tell() == theirs.tell()
    with pytest.raises(ValueError):
        ours.seek(-1)
    ours.seek(0)
    theirs.seek(0)
    assert list(ours) == list(theirs)
    with ViewFile(buffer) as view:
        assert view.read(5) == DATA[:5]
    assert view.closed


def test_pickles_load_from_a_view_file_and_peek_does_not_move_it():
    start = len(b"first line\nsecond line\n")
    view = ViewFile(memoryview(DATA))
    view.seek(start)
    assert view.peek(1)[:1] == DATA[start : start + 1] and view.tell() == start
    assert pickle.load(view) == {"term": (1, 2.5)}
    assert view.read() == b"\nno newline at the end"


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
def test_an_index_read_in_place_closes_its_files_with_it(tmp_path):
    entries = [entry(n, f"postgres migration {n} timed out on the replica") for n in range(300)]
    SearchIndex(tmp_path / "index").rebuild(entries, len(entries), {})
    before = open_descriptors()
    for _ in range(20):
        index = SearchIndex(tmp_path / "index")
        hits = index.search("replica timed out", Filters(), RANKING, 5)
        assert len(hits) == 5 and hits[0].entry.body.startswith("postgres migration")
        index.close()
    assert open_descriptors() == before  # no map left open behind a view
