"""The postings a Whoosh writer gathers before it writes a segment, held as arrays.

Whoosh's own pool keeps each posting as a tuple (~150 bytes) and, past its memory limit,
pickles sorted runs to disk and merges them back: at 100,000 entries (3.4 million postings)
that was ~480 MB held, and a quarter of a rebuild spent pickling. Here a posting is 16 bytes in
four arrays, and its term a number; the postings are put in order once, term by term, when the
segment is written. Whoosh's writer takes any object with these methods (see `install`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator
from typing import Any

Posting = tuple[str, bytes, int, float, bytes | None]  # field, term, document, weight, value


class CompactPool:
    """Postings in the order they came, sorted by (field, term, document) when read out."""

    def __init__(self) -> None:
        self.terms: dict[tuple[str, bytes], int] = {}
        self.last = array("q")  # each term's last document number, to tell one out of order
        self.unsorted: set[int] = set()
        self.term_of = array("I")
        self.docnums = array("I")
        self.weights = array("f")  # as Whoosh stores them (whoosh3 W3PostingsWriter)
        self.value_of = array("I")
        self.values: dict[bytes | None, int] = {}
        self.fieldnames: set[str] = set()

    def add(self, item: Posting) -> None:
        fieldname, text, docnum, weight, value = item
        key = (fieldname, text)
        term = self.terms.get(key)
        if term is None:
            term = self.terms[key] = len(self.terms)
            self.fieldnames.add(fieldname)
            self.last.append(-1)
        if docnum < self.last[term]:
            self.unsorted.add(term)  # a merged segment's postings may come out of order
        self.last[term] = docnum
        number = self.values.get(value)
        if number is None:  # few: a frequency's bytes, or none
            number = self.values[value] = len(self.values)
        self.term_of.append(term)
        self.docnums.append(docnum)
        self.weights.append(weight)
        self.value_of.append(number)

    def iter_postings(self) -> Iterator[Posting]:
        """Every posting, by field, then term, then document number."""
        count = len(self.terms)
        sizes = [0] * count
        for term in self.term_of:
            sizes[term] += 1
        ordered = sorted(self.terms.items())
        starts = [0] * count  # where each term's postings begin among all, in sorted order
        at = 0
        for _, term in ordered:
            starts[term] = at
            at += sizes[term]
        slots = array("I", bytes(4 * len(self.term_of)))
        filled = starts[:]
        for index, term in enumerate(self.term_of):
            slots[filled[term]] = index
            filled[term] += 1
        values = list(self.values)
        docnums, weights, value_of = self.docnums, self.weights, self.value_of
        for (fieldname, text), term in ordered:
            chosen = slots[starts[term] : starts[term] + sizes[term]]
            if term in self.unsorted:
                chosen = array("I", sorted(chosen, key=docnums.__getitem__))
            for index in chosen:
                yield fieldname, text, docnums[index], weights[index], values[value_of[index]]

    def cleanup(self) -> None:
        """Let go of every posting (the writer calls it once the segment is written)."""
        self.terms.clear()
        self.unsorted.clear()
        self.values.clear()
        for numbers in (self.last, self.term_of, self.docnums, self.weights, self.value_of):
            del numbers[:]


class LengthsOnce:
    """The writer's reader of the segment's document lengths, each field's read once.

    Writing a segment asks the length of a posting's document for every posting (~3.4
    million at 100,000 entries), and Whoosh's reader seeks and reads its column file for each:
    here each field's lengths are read a document at a time into a list, then looked up."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.count = int(reader.doc_count_all())

    def doc_field_length_reader(self, fieldname: str) -> Callable[[int], Any]:
        fast = getattr(self.reader, "doc_field_length_reader", None)
        if fast is not None:
            get = fast(fieldname)
        else:
            plain = self.reader.doc_field_length

            def get(docnum: int) -> Any:
                return plain(docnum, fieldname)

        lengths = [get(docnum) for docnum in range(self.count)]
        return lambda docnum: lengths[docnum] if 0 <= docnum < len(lengths) else get(docnum)

    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> Any:
        return self.reader.doc_field_length(docnum, fieldname, default)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.reader, name)  # close() and the rest, as the reader has them


def install(writer: Any) -> Any:
    """Give a fresh Whoosh SegmentWriter the compact pool, and a reader of the lengths of the
    segment it writes that reads each field's once; return the writer."""
    pool = getattr(writer, "pool", None)
    if pool is not None and not getattr(pool, "current", None) and hasattr(writer, "docnum"):
        writer.pool = CompactPool()
        reader_of = getattr(writer, "per_document_reader", None)
        if reader_of is not None:
            writer.per_document_reader = lambda: LengthsOnce(reader_of())
    return writer
