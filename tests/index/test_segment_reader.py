"""The index is read without Whoosh (segment_reader.py): every answer it gives must be the one
Whoosh's own reader gives, on indexes Whoosh wrote, whatever their shape."""

from __future__ import annotations

import io
import pickle
import random
from pathlib import Path

import pytest

from mem.index.search_index import BYTE_LENGTHS, SearchIndex, build_schema
from mem.index.segment_reader import IndexReader, SegmentFormatError, read_int, read_varint

from .helpers import random_lessons


def several_segments(folder: Path, seed: int) -> SearchIndex:
    """Segments written by a rebuild and by updates, with deleted documents in the older."""
    rng = random.Random(seed)
    index = SearchIndex(folder)
    first = random_lessons(rng, "dev/lessons.md", "dev", rng.randint(1, 200))
    index.rebuild(first, len(first), {})
    for round_ in range(rng.randint(1, 3)):
        path = f"qa{round_}/lessons.md"
        index.update(
            {path: random_lessons(rng, path, f"qa{round_}", rng.randint(1, 60), first=1000)}, {}
        )
        first = [pair for pair in first if rng.random() > 0.2]  # the rest are deleted
        index.update({"dev/lessons.md": first}, {})
    return index


def assert_reads_as_whoosh(folder: Path) -> None:
    from whoosh.index import open_dir

    ours = IndexReader(folder)
    with open_dir(str(folder)).reader() as theirs:
        assert ours.doc_count_all() == theirs.doc_count_all()
        assert ours.doc_count() == theirs.doc_count()
        assert ours.all_doc_ids() == list(theirs.all_doc_ids())
        for field in ("content", "tag_words", "context", "id"):
            assert ours.field_length(field) == theirs.field_length(field)
        terms = [(field, text.decode("utf-8")) for field, text in theirs.all_terms()]
        assert terms, "the index holds terms"
        for field, text in terms:
            assert (field, text) in ours
            assert ours.doc_frequency(field, text) == theirs.doc_frequency(field, text)
            postings = [
                (docnum + offset, weight)
                for leaf, offset in ours.leaf_readers()
                for ids, weights in leaf.postings(field, text)
                for docnum, weight in zip(ids, weights, strict=True)
            ]
            assert postings == whoosh_postings(theirs, field, text), (field, text)
        assert ("content", "absent") not in ours and ("nofield", "login") not in ours
        assert ours.doc_frequency("content", "absent") == 0
        assert list(ours.leaf_readers()[0][0].postings("content", "absent")) == []
        rank = theirs.column_reader("rank", translate=False)
        keys = ours.rank_keys()
        for docnum in range(theirs.doc_count_all()):
            assert ours.stored_fields(docnum) == theirs.stored_fields(docnum)
            assert keys[docnum] == rank[docnum]
        fresh = IndexReader(folder)  # one key at a time, before reading them all
        assert [fresh.rank_key(d) for d in range(len(keys))] == list(keys)
        for field, prefix in (("id", ""), ("id", "dev-000"), ("id", "qa"), ("agent", "q")):
            expected = [text.decode("utf-8") for text in theirs.expand_prefix(field, prefix)]
            assert ours.texts(field, prefix) == sorted(set(expected))
        for leaf, _ in ours.leaf_readers():
            for field in ("content", "tag_words"):
                lengths, whooshs = leaf.length_bytes(field), leaf_of(theirs, leaf)
                assert [BYTE_LENGTHS[b] if b else None for b in lengths] == [
                    whooshs.doc_field_length(docnum, field) for docnum in range(len(lengths))
                ]
    ours.close()


def whoosh_postings(reader, field: str, text: str) -> list[tuple[int, float]]:
    """(document, frequency) of every live document holding a term, by Whoosh's matcher."""
    matcher = reader.postings(field, text)
    found = []
    while matcher.is_active():
        found.append((matcher.id(), matcher.weight()))
        matcher.next()
    return found


def leaf_of(reader, leaf):  # Whoosh's reader of the same segment
    for found, _ in reader.leaf_readers():
        if found.segment().segment_id() == leaf.segment.name:
            return found
    raise AssertionError(leaf.segment.name)


@pytest.mark.parametrize("seed", range(4))
def test_it_reads_what_whoosh_reads_of_several_segments_with_deletions(tmp_path, seed):
    index = several_segments(tmp_path / "index", seed)
    assert_reads_as_whoosh(index.folder)


def test_it_reads_merged_segments_and_an_empty_index(tmp_path):
    index = several_segments(tmp_path / "index", 9)
    index._writer().commit(optimize=True)
    assert len(IndexReader(index.folder).leaf_readers()) == 1
    assert_reads_as_whoosh(index.folder)
    empty = SearchIndex(tmp_path / "empty")
    empty.rebuild([], 0, {})
    reader = IndexReader(empty.folder)
    assert reader.doc_count_all() == 0 and reader.all_doc_ids() == []
    assert ("content", "login") not in reader and reader.texts("id") == []


def test_it_reads_segments_of_files_of_their_own_and_stored_fields_with_offsets(
    tmp_path, monkeypatch
):
    """Shapes mem's writer does not make today, but Whoosh's format allows: a segment that is
    not one compound file, a stored-fields column with offsets (Whoosh writes them past 32,768
    documents in a segment)."""
    from whoosh import columns
    from whoosh.index import create_in

    from mem.index.search_index import to_document

    writer_init = columns.VarBytesColumn.Writer.__init__
    monkeypatch.setattr(
        columns.VarBytesColumn.Writer,
        "__init__",
        lambda self, dbfile, allow_offsets=True, cutoff=4: writer_init(self, dbfile, True, 4),
    )
    folder = tmp_path / "index"
    folder.mkdir()
    index = create_in(str(folder), build_schema())
    rng = random.Random(3)
    for batch in range(2):
        writer = index.writer(compound=batch == 0)
        for entry, fingerprint in random_lessons(
            rng, f"a{batch}/lessons.md", f"a{batch}", 40, first=batch * 100
        ):
            writer.add_document(**to_document(entry, fingerprint))
        writer.commit(merge=False)
    reader = IndexReader(folder)
    assert [leaf.segment.compound for leaf, _ in reader.leaf_readers()] == [True, False]
    assert_reads_as_whoosh(folder)


def test_lengths_are_decoded_as_whoosh_decodes_them():
    from whoosh.util.numeric import byte_to_length

    assert list(BYTE_LENGTHS) == [byte_to_length(n) for n in range(256)]


def test_a_damaged_index_is_refused_with_one_error_and_rebuilt(tmp_path):
    index = several_segments(tmp_path / "index", 1)
    segment = next(index.folder.glob("*.seg"))
    whole = segment.read_bytes()
    segment.write_bytes(whole[:100])
    with pytest.raises(SegmentFormatError):
        IndexReader(index.folder)
    rng = random.Random(5)
    for _ in range(30):  # bytes changed anywhere: refused as damaged, or read; never a crash
        damaged = bytearray(whole)
        for _ in range(8):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        segment.write_bytes(bytes(damaged))
        try:
            IndexReader(index.folder).close()
        except SegmentFormatError:
            pass
    segment.write_bytes(b"\0" * 8 + whole[8:])  # its directory where it is not
    with pytest.raises(SegmentFormatError):
        IndexReader(index.folder)
    assert not SearchIndex(index.folder).is_readable()
    for toc in index.folder.glob("*.toc"):
        toc.write_bytes(b"\x04\x08\x04garbage")
    with pytest.raises(SegmentFormatError):
        IndexReader(index.folder)
    for toc in index.folder.glob("*.toc"):
        toc.unlink()
    with pytest.raises(SegmentFormatError):
        IndexReader(index.folder)


def test_a_table_of_contents_that_would_run_code_is_refused(tmp_path):
    index = several_segments(tmp_path / "index", 2)
    toc = max(index.folder.glob("*.toc"))
    stream = io.BytesIO(toc.read_bytes())
    for read in [read_varint] * 3 + [read_int] * 2 + [read_varint] * 3:
        read(stream)
    stream.seek(read_varint(stream), io.SEEK_CUR)  # the schema
    read_int(stream), read_int(stream)
    start = stream.tell()  # the segments' pickle comes last
    toc.write_bytes(stream.getvalue()[:start] + pickle.dumps(print, 2))
    with pytest.raises(SegmentFormatError, match="print"):
        IndexReader(index.folder)
