"""Read the index as Whoosh wrote it, without importing Whoosh.

`mem search`, `mem recall` and the hooks only read the index, and importing Whoosh to do so cost
~30-50 ms of every one of them: its modules, the schema and segments unpickled from the table
of contents (which import the fields, codec and analysis modules), and the regular expressions
they compile. This module reads the same files (whoosh3 3.54.0's "W3" codec, pinned in
pyproject.toml) with the standard library alone: the table of contents, each segment's compound
file, its term table (a CDB-like hash file), its postings blocks and its columns. Whoosh still
writes the index; tests/index/test_segment_reader.py checks every answer here against
Whoosh's own on indexes it wrote.

Should a file not read as expected (another Whoosh, a damaged index), SegmentFormatError is
raised and the caller rebuilds, as it does for whatever Whoosh raises.
"""

from __future__ import annotations

import heapq
import io
import mmap
import os
import re
import struct
import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import accumulate
from pathlib import Path
from typing import Any

from mem.digests import md5

try:  # pickle's own C half: the pickle module adds ~1.4 ms of classes for writing to each search
    from _pickle import Unpickler, load, loads
except ImportError:  # an interpreter without it
    from pickle import Unpickler, load, loads

INDEX_NAME = "MAIN"
TOC_NAME = re.compile(rf"^_{INDEX_NAME}_([0-9]+)\.toc$")
TOC_VERSION = -111  # whoosh.index._CURRENT_TOC_VERSION
POSTINGS_MAGIC = b"W3Bl"
HASH_MAGIC = b"HSH3"
HASH_DIRECTORY = 256  # hash tables, each a (position, slots) entry of "!qi"
NO_DOCS: frozenset[int] = frozenset()

INT = struct.Struct("!i")
UINT = struct.Struct("!I")
LONG = struct.Struct("!q")
USHORT = struct.Struct("!H")
LENGTHS = struct.Struct("!ii")  # a hash file item: key length, value length
POINTER = struct.Struct("!Iq")  # a hash slot: key hash, item position
DIRECTORY = struct.Struct("!" + "qi" * HASH_DIRECTORY)  # the whole directory, before the extras
TERM_INFO = struct.Struct("!BfIBBfII")  # flags, weight, doc frequency, lengths, weight, ids
ORDER_TYPES = {"B": "!B", "H": "!H", "i": "!i", "I": "!I", "q": "!q"}


# The plain classes a table of contents' segments are made of, besides Whoosh's own.
TOC_CLASSES = frozenset(
    {
        ("builtins", "set"),
        ("builtins", "frozenset"),
        ("builtins", "int"),
        ("builtins", "object"),
        ("collections", "defaultdict"),
        ("copyreg", "_reconstructor"),
    }
)
PYTHON2_NAMES = {"__builtin__": "builtins", "copy_reg": "copyreg"}


class SegmentFormatError(Exception):
    """The index's files are not as this reader expects."""


class Stub:
    """Stands for any Whoosh class in a pickle: its attributes are all that is read."""


class TocUnpickler(Unpickler):
    """Unpickles a table of contents' segments with stand-ins for Whoosh's classes, and
    refuses anything else that is not a plain container."""

    def find_class(self, module: str, name: str) -> Any:
        module = PYTHON2_NAMES.get(module, module)  # as a pickle of protocol 2 names them
        if module.partition(".")[0] in ("whoosh", "mem"):
            return type(name, (Stub,), {})
        if (module, name) in TOC_CLASSES:
            return super().find_class(module, name)
        raise SegmentFormatError(f"unexpected {module}.{name} in the index's table of contents")


class View:
    """Big-endian reads at positions of a buffer (a file's memory map, or part of one)."""

    def __init__(self, buffer: Any) -> None:
        self.buffer = buffer

    def __len__(self) -> int:
        return len(self.buffer)

    def get(self, position: int, length: int) -> bytes:
        return bytes(self.buffer[position : position + length])

    def int_at(self, position: int) -> int:
        return int(INT.unpack_from(self.buffer, position)[0])

    def part(self, position: int, length: int) -> View:
        return View(self.buffer[position : position + length])

    def pickle_at(self, position: int, end: int | None = None) -> Any:
        # pickle.loads ignores what follows the pickle; a memoryview slice costs no copy.
        return loads(self.buffer[position:end])


class Segment:
    """One segment as the table of contents lists it."""

    def __init__(self, state: Any) -> None:
        attributes = getattr(state, "__dict__", None)
        if not isinstance(attributes, dict) or "segid" not in attributes:
            raise SegmentFormatError("a segment of the index is not a W3 segment")
        self.name = f"{attributes.get('indexname', INDEX_NAME)}_{attributes['segid']}"
        self.doc_count = int(attributes.get("_doccount", 0))
        self.deleted = frozenset(attributes.get("_deleted") or ())
        self.field_lengths = dict(attributes.get("_fieldlengths") or {})
        self.compound = bool(attributes.get("compound", False))


def read_toc(folder: Path) -> list[Segment]:
    """The segments of the newest table of contents in `folder`."""
    generations = [
        int(found.group(1)) for name in os.listdir(folder) if (found := TOC_NAME.match(name))
    ]
    if not generations:
        raise SegmentFormatError(f"no table of contents in {folder}")
    generation = max(generations)
    stream = io.BytesIO((folder / f"_{INDEX_NAME}_{generation}.toc").read_bytes())
    if [read_varint(stream) for _ in range(3)] != [4, 8, 4]:  # int, long, float sizes
        raise SegmentFormatError("the index was written on another architecture")
    if read_int(stream) != -12345 or read_int(stream) != TOC_VERSION:
        raise SegmentFormatError("the index's table of contents is of another version")
    for _ in range(3):
        read_varint(stream)  # the Whoosh release that wrote it
    stream.seek(read_varint(stream), io.SEEK_CUR)  # the pickled schema: mem knows its own
    if read_int(stream) != generation:
        raise SegmentFormatError("the index's table of contents names another generation")
    read_int(stream)  # unused
    segments = TocUnpickler(stream).load()
    if not isinstance(segments, list):
        raise SegmentFormatError("the index's table of contents lists no segments")
    return [Segment(state) for state in segments]


def read_varint(stream: io.BytesIO) -> int:
    value = shift = 0
    while True:
        byte = stream.read(1)
        if not byte:
            raise SegmentFormatError("the index's table of contents is cut short")
        value |= (byte[0] & 0x7F) << shift
        if not byte[0] & 0x80:
            return value
        shift += 7


def read_int(stream: io.BytesIO) -> int:
    data = stream.read(4)
    if len(data) != 4:
        raise SegmentFormatError("the index's table of contents is cut short")
    return int(INT.unpack(data)[0])


class Files:
    """A segment's files: parts of its compound file, or files of their own."""

    def __init__(self, folder: Path, segment: Segment) -> None:
        self.folder = folder
        self.segment = segment
        self.maps: list[mmap.mmap] = []
        self.directory: dict[str, Any] = {}  # where each file is in the compound file
        self.own: dict[str, View] = {}  # the files of a segment that is not compound
        self.compound: View | None = None
        if segment.compound:
            self.compound = self._map(folder / f"{segment.name}.seg")
            offset = int(LONG.unpack_from(self.compound.buffer, 0)[0])
            self.directory = self.compound.pickle_at(offset)

    def _map(self, path: Path) -> View:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            if not size:
                return View(b"")
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        self.maps.append(mapped)
        return View(memoryview(mapped))

    def has(self, extension: str) -> bool:
        name = self.segment.name + extension
        if self.compound is not None:
            return name in self.directory
        return name in self.own or (self.folder / name).exists()

    def open(self, extension: str) -> View:
        name = self.segment.name + extension
        if self.compound is None:
            if name not in self.own:
                self.own[name] = self._map(self.folder / name)
            return self.own[name]
        place = self.directory.get(name)
        if place is None:
            raise SegmentFormatError(f"the index's segment has no {extension} file")
        return self.compound.part(place["offset"], place["length"])

    def close(self) -> None:
        self.compound = None
        self.directory = {}
        self.own = {}
        for mapped in self.maps:
            try:
                mapped.close()
            except BufferError:  # a view still held somewhere; the map closes when it goes
                pass
        self.maps = []


class Terms:
    """A segment's term table: Whoosh's ordered hash file of (field number, text) keys."""

    def __init__(self, view: View) -> None:
        self.view = view
        buffer = view.buffer
        if view.get(0, 4) != HASH_MAGIC or buffer[4] != 0:  # hash type 0: md5
            raise SegmentFormatError("the index's term table is not an md5 hash file")
        self.start = 4 + 1 + 8
        end = len(view) - 4
        extras_at = end - view.int_at(end)
        extras = view.pickle_at(extras_at, end)
        self.fields: dict[str, int] = extras["fieldmap"]
        order = ORDER_TYPES.get(extras.get("indextype", ""))
        if order is None:
            raise SegmentFormatError("the index's term table has an unknown order type")
        self.order = struct.Struct(order)
        self.order_count = int(extras["indexlen"])
        self.order_at = end - self.order_count * self.order.size
        # The 256 (position, slots) entries in one call: a search opens every segment.
        flat = DIRECTORY.unpack_from(buffer, extras_at - DIRECTORY.size)
        self.tables = list(zip(flat[0::2], flat[1::2], strict=True))
        self.end_of_data = self.tables[0][0]
        self.md5 = md5

    def key(self, field: str, text: str) -> bytes | None:
        number = self.fields.get(field)
        return None if number is None else USHORT.pack(number) + text.encode("utf-8")

    def find(self, key: bytes) -> int:
        """Where the value of `key` starts, or -1."""
        buffer = self.view.buffer
        digest = self.md5(key, usedforsecurity=False).digest()
        hashed = int.from_bytes(digest[-4:], "big")
        start, slots = self.tables[hashed & 255]
        if not slots:
            return -1
        slot = (hashed >> 8) % slots
        for _ in range(slots):
            slot_hash, item = POINTER.unpack_from(buffer, start + slot * POINTER.size)
            if not item:
                return -1
            if slot_hash == hashed:
                key_length, _ = LENGTHS.unpack_from(buffer, item)
                at = item + LENGTHS.size
                if key_length == len(key) and buffer[at : at + key_length] == key:
                    return int(at + key_length)
            slot = (slot + 1) % slots
        return -1

    def doc_frequency(self, field: str, text: str) -> int:
        key = self.key(field, text)
        at = -1 if key is None else self.find(key)
        return 0 if at < 0 else int(UINT.unpack_from(self.view.buffer, at + 5)[0])

    def postings_at(self, field: str, text: str) -> int:
        """Where one term's postings start in the postings file, or -1 when it has none."""
        key = self.key(field, text)
        at = -1 if key is None else self.find(key)
        if at < 0:
            return -1
        if self.view.buffer[at]:  # inlined postings: whoosh3 3.54 cannot write them
            raise SegmentFormatError("the index keeps postings in its term table")
        return int(LONG.unpack_from(self.view.buffer, at + TERM_INFO.size)[0])

    def texts(self, field: str, prefix: str = "") -> Iterator[str]:
        """The texts of a field's terms that start with `prefix`, in order."""
        for text, _ in self.items(field, prefix):
            yield text

    def items(self, field: str, prefix: str = "") -> Iterator[tuple[str, int]]:
        """(text, doc frequency) of a field's terms that start with `prefix`, in order."""
        start = self.key(field, prefix)
        if start is None:
            return
        buffer = self.view.buffer
        low, high = 0, self.order_count
        while low < high:  # the first key at or after `start`
            middle = (low + high) // 2
            if self._key_at(self._position(middle)) < start:
                low = middle + 1
            else:
                high = middle
        if low == self.order_count:
            return
        position = self._position(low)
        while position < self.end_of_data:
            key_length, value_length = LENGTHS.unpack_from(buffer, position)
            key = bytes(buffer[position + 8 : position + 8 + key_length])
            if not key.startswith(start):
                return
            at = position + 8 + key_length
            yield key[2:].decode("utf-8"), int(UINT.unpack_from(buffer, at + 5)[0])
            position = at + value_length

    def _position(self, n: int) -> int:
        return int(self.order.unpack_from(self.view.buffer, self.order_at + n * self.order.size)[0])

    def _key_at(self, position: int) -> bytes:
        key_length = UINT.unpack_from(self.view.buffer, position)[0]
        return bytes(self.view.buffer[position + 8 : position + 8 + key_length])


class Leaf:
    """One segment's documents, numbered from 0."""

    def __init__(self, folder: Path, segment: Segment) -> None:
        self.segment = segment
        self.doc_count_all = segment.doc_count
        self.deleted = segment.deleted
        self.deleted_in_order = sorted(segment.deleted)
        self.files = Files(folder, segment)
        self.terms = Terms(self.files.open(".trm"))
        self.postings_file = self.files.open(".pst")
        self._stored: tuple[View, Sequence[int], Sequence[int]] | None = None

    def close(self) -> None:
        self.files.close()

    def archive_only(self) -> bool:
        """Whether every document of the segment (deleted ones too) is an archived entry's."""
        return 0 < self.doc_count_all == self.terms.doc_frequency("archived", "yes")

    def __contains__(self, term: tuple[str, str]) -> bool:
        key = self.terms.key(*term)
        return key is not None and self.terms.find(key) >= 0

    def doc_frequency(self, field: str, text: str) -> int:
        return self.terms.doc_frequency(field, text)

    def postings(self, field: str, text: str) -> Iterator[tuple[Sequence[int], Sequence[float]]]:
        """Each block of one word's postings: (document numbers, frequencies), deleted
        documents left out."""
        for ids, weights in self.blocks(field, text):
            yield ids, [weights] * len(ids) if isinstance(weights, float) else weights

    def blocks(self, field: str, text: str) -> Iterator[tuple[list[int], Sequence[float] | float]]:
        """As postings, but a block whose postings have one frequency gives it alone (Whoosh
        stores such a block so): a score can then be worked out once for the whole block."""
        where = self.terms.postings_at(field, text)
        if where < 0:
            return
        view = self.postings_file
        buffer = view.buffer
        if view.get(where, 4) != POSTINGS_MAGIC:
            raise SegmentFormatError("a postings list of the index does not start as one")
        position = where + 4
        deleted, ordered = self.deleted, self.deleted_in_order
        while True:
            length = view.int_at(position)
            info_at = position + 4
            position = info_at + abs(length)
            stream = io.BytesIO(buffer[info_at:position])
            _, _, _, compression, _, _ = load(stream)
            data = stream.read()
            ids, weights, _ = loads(zlib.decompress(data) if compression else data)
            documents = list(accumulate(ids))
            if weights is None:
                weights = 1.0
            # Most blocks hold no deleted document: tell by the block's range (its documents
            # are in order) before looking at each one.
            first = bisect_left(ordered, documents[0]) if ordered and documents else len(ordered)
            if first < len(ordered) and ordered[first] <= documents[-1]:
                kept = [n for n, docnum in enumerate(documents) if docnum not in deleted]
                documents = [documents[n] for n in kept]
                if not isinstance(weights, float):
                    weights = [weights[n] for n in kept]
            yield documents, weights
            if length < 0:
                return

    def length_bytes(self, field: str) -> bytes:
        """Each document's length in `field` as Whoosh stores it, a byte a document (see
        byte_to_length)."""
        extension = f"._{field}_len.col"
        data = (
            self.files.open(extension).get(0, self.doc_count_all)
            if self.files.has(extension)
            else b""
        )
        return data + bytes(self.doc_count_all - len(data))

    def rank_keys(self) -> array[int]:
        """Every document's packed rank key (see rank_key.py)."""
        keys = array("q")
        if self.files.has(".rank.col"):
            view = self.files.open(".rank.col")
            keys.frombytes(view.get(0, len(view) // 8 * 8))
            if sys.byteorder == "little":
                keys.byteswap()  # Whoosh packs columns big-endian ("!q")
        keys.extend([0] * (self.doc_count_all - len(keys)))  # the column's default
        return keys

    def stored_fields(self, docnum: int) -> dict[str, Any]:
        view, offsets, lengths = self._stored_column()
        length = lengths[docnum] if docnum < len(lengths) else 0
        if not length:
            return {}
        start = offsets[docnum]
        found = loads(zlib.decompress(view.buffer[start : start + length]))
        return found if isinstance(found, dict) else {}

    def _stored_column(self) -> tuple[View, Sequence[int], Sequence[int]]:
        # Whoosh's VarBytesColumn: the values, each document's length, maybe each one's offset,
        # the lengths' type code, and "X" after the offsets' type code when there are offsets.
        if self._stored is None:
            if not self.files.has("._stored.col"):
                self._stored = (View(b""), (), ())
                return self._stored
            view = self.files.open("._stored.col")
            count = self.doc_count_all
            last = len(view) - 1
            code = chr(view.buffer[last])
            offsets: Sequence[int] = ()
            if code == "X":
                code, offsets_code = chr(view.buffer[last - 2]), chr(view.buffer[last - 1])
                last = last - 2 - count * array(offsets_code).itemsize
                offsets = column_array(view, last, offsets_code, count)
            lengths = column_array(view, last - array(code).itemsize * count, code, count)
            if not offsets:  # not stored (up to 32,768 documents): each is the lengths before it
                offsets = list(accumulate(lengths, initial=0))
            self._stored = (view, offsets, lengths)
        return self._stored


def column_array(view: View, position: int, code: str, count: int) -> array[int]:
    found = array(code)
    found.frombytes(view.get(position, count * found.itemsize))
    if sys.byteorder == "little":
        found.byteswap()
    return found


class IndexReader:
    """Every segment of the index, documents numbered on from one segment to the next, as
    Whoosh's MultiReader numbers them; the subset of Whoosh's reader that mem's searches use."""

    def __init__(self, folder: Path) -> None:
        self.leaves: list[tuple[Leaf, int]] = []
        try:
            offset = 0
            for segment in read_toc(folder):
                self.leaves.append((Leaf(folder, segment), offset))
                offset += segment.doc_count
        except SegmentFormatError:
            self.close()
            raise
        except Exception as error:  # a damaged file fails in many ways: all mean "rebuild"
            self.close()
            raise SegmentFormatError(f"the index cannot be read: {error!r}") from error
        self._count = offset
        # Every document's rank key once read, shared with the views of this reader.
        self._rank: list[array[int]] = []
        # The segments whose postings are read: all of them, or (without_archive) those that
        # hold a live entry. Counts and statistics are always the whole index's.
        self.scanned = self.leaves

    def without_archive(self) -> IndexReader:
        """The same index, its postings read only from segments that hold a live entry: a
        rebuild writes the archive in segments of its own (at 100,000 entries after a year,
        ~80,000 of them), which a search that leaves the archive out need not read. Counts
        and statistics stay the whole index's, so no score changes. Close the reader it came
        from, not this one."""
        view = object.__new__(IndexReader)
        view.__dict__.update(self.__dict__)
        view.scanned = [(leaf, offset) for leaf, offset in self.leaves if not leaf.archive_only()]
        return view

    def close(self) -> None:
        for leaf, _ in self.leaves:
            leaf.close()
        self.leaves = self.scanned = []

    def segment_states(self) -> list[tuple[str, int, frozenset[int]]]:
        """Each segment's name (random: a rebuild's are new), size and deleted documents: two
        readers with the same number every document alike."""
        return [(leaf.segment.name, leaf.doc_count_all, leaf.deleted) for leaf, _ in self.leaves]

    def leaf_readers(self) -> list[tuple[Leaf, int]]:
        """The segments whose postings are read, each with its first document's number."""
        return self.scanned

    def doc_count_all(self) -> int:
        """Every document, deleted ones too (as Whoosh counts them for idf)."""
        return self._count

    def doc_count(self) -> int:
        return self._count - sum(len(leaf.deleted) for leaf, _ in self.leaves)

    def __contains__(self, term: tuple[str, str]) -> bool:
        return any(term in leaf for leaf, _ in self.leaves)

    def doc_frequency(self, field: str, text: str) -> int:
        return sum(leaf.doc_frequency(field, text) for leaf, _ in self.leaves)

    def field_length(self, field: str) -> int:
        return sum(int(leaf.segment.field_lengths.get(field, 0)) for leaf, _ in self.leaves)

    def all_doc_ids(self) -> list[int]:
        found: list[int] = []
        for leaf, offset in self.scanned:
            found += [
                offset + docnum
                for docnum in range(leaf.doc_count_all)
                if docnum not in leaf.deleted
            ]
        return found

    def stored_fields(self, docnum: int) -> dict[str, Any]:
        leaf, offset = self._leaf_of(docnum)
        return leaf.stored_fields(docnum - offset)

    def _leaf_of(self, docnum: int) -> tuple[Leaf, int]:
        for leaf, offset in reversed(self.leaves):
            if docnum >= offset:
                return leaf, offset
        raise IndexError(f"no document {docnum} in the index")

    def rank_keys(self) -> array[int]:
        """Every document's rank key, by document number: the segments' columns joined as
        machine integers (at 100,000 entries, a list of Python ints cost ~3 ms to make)."""
        if not self._rank:
            keys = array("q")
            for leaf, _ in self.leaves:
                keys.extend(leaf.rank_keys())
            self._rank.append(keys)
        return self._rank[0]

    def has_rank_keys(self) -> bool:
        """Whether every rank key was read already (rank_keys)."""
        return bool(self._rank)

    def rank_key(self, docnum: int) -> int:
        if self._rank:
            return self._rank[0][docnum]
        leaf, offset = self._leaf_of(docnum)
        docnum -= offset
        if not leaf.files.has(".rank.col"):
            return 0
        view = leaf.files.open(".rank.col")
        if (docnum + 1) * 8 > len(view):
            return 0
        return int(LONG.unpack_from(view.buffer, docnum * 8)[0])

    def ids(self, field: str, text: str) -> list[int]:
        """Every live document holding a term."""
        found: list[int] = []
        for leaf, offset in self.scanned:
            for ids, _ in leaf.postings(field, text):
                found += [docnum + offset for docnum in ids] if offset else ids
        return found

    def texts(self, field: str, prefix: str = "") -> list[str]:
        """The texts of a field's terms that start with `prefix`, sorted, each once."""
        return sorted({text for leaf, _ in self.leaves for text in leaf.terms.texts(field, prefix)})

    def terms(self, field: str) -> Iterator[tuple[str, int]]:
        """Each term of a field, in order, with how many documents hold it (deleted ones too,
        as Whoosh counts them)."""
        merged = heapq.merge(*(leaf.terms.items(field) for leaf, _ in self.leaves))
        text: str | None = None
        frequency = 0
        for found, count in merged:
            if found == text:
                frequency += count
                continue
            if text is not None:
                yield text, frequency
            text, frequency = found, count
        if text is not None:
            yield text, frequency

    def postings(self, field: str, text: str) -> list[tuple[int, float]]:
        """(document number, frequency) of every live document holding a term."""
        found: list[tuple[int, float]] = []
        for leaf, offset in self.scanned:
            for ids, weights in leaf.postings(field, text):
                found += zip([d + offset for d in ids] if offset else ids, weights, strict=True)
        return found

    def has_deletions(self) -> bool:
        return any(leaf.deleted for leaf, _ in self.leaves)


def open_reader(folder: Path) -> IndexReader:
    return IndexReader(folder)


__all__ = ["IndexReader", "Leaf", "SegmentFormatError", "open_reader"]
