"""SearchIndex: the Whoosh index in `.mem/index/` (the only module that imports whoosh)."""

import heapq
import json
import math
import operator
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from itertools import compress, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from mem.errors import IndexBusy
from mem.index import central, chunk_table, notes_file
from mem.index.context import Indexed, in_context
from mem.index.in_place import read_in_place
from mem.index.light_md5 import import_whoosh_tables
from mem.index.manifest import KIND_CODES, MANIFEST, FileStamp, read_data, stamps_of, version_of
from mem.index.periods import Period, periods_named
from mem.index.rank_key import (
    KIND_MASK,
    KIND_SHIFT,
    REINFORCED_MAX,
    REINFORCED_SHIFT,
    SECONDS_SHIFT,
    UNKNOWN_KIND,
    RankKey,
)
from mem.index.related import RelatedWords
from mem.index.segment_reader import IndexReader, Leaf, SegmentFormatError
from mem.index.sidecar import replace_text
from mem.model import DEFAULT_DECAY_FLOOR, Entry

if TYPE_CHECKING:
    from whoosh.index import FileIndex

    from mem.index.chunk_table import Patch, Table

WRITER_ATTEMPTS = 100  # × up to 0.1 s: how long to wait for another process's writer
# BM25F with light length normalisation (web search uses B=0.75): memory entries are short, and
# a longer one that holds the query's words is not less about them. Measured on LoCoMo's dev half.
BM25_B = 0.3
BM25_K1 = 1.2
REINFORCED_BOOST = 0.15  # score × (1 + 0.15·ln(1 + reinforced)): a mild nudge, not a takeover
SECONDS_PER_DAY = 86400.0
# An entry written in a period the query names ("in May 2023", "on 2023-10-13") scores twice
# as high. Measured on LoCoMo's dev half: any@10 0.688 → 0.709 (×1.5: 0.697; ×3: 0.708).
PERIOD_BOOST = 2.0
RELATED_STALE = 0.05  # share of entries changed after which the related words are worked out anew
TEXT_FIELDS = ("content", "tag_words")  # the fields a search's words are looked for in
# How a matched word is shown in Hit.matched: `word` in the text, `#word` in the tags,
# `+word` in the entries beside it, `~word` a related word (see related.py).
MARKS = {"content": "", "tag_words": "#", "context": "+"}
# A task word found in the entries written beside a match (see context.py) adds half its weight;
# only a word held by at most 1 entry in 20 is looked for there: a common one says little, and
# its long postings list would cost time. Measured on LoCoMo's dev half: any@10 0.708 → 0.754,
# evidence in budget 0.731 → 0.776 (at 0.4: 0.751 and 0.774; every word at 0.5: 0.746, 0.778).
CONTEXT_WEIGHT = 0.5
CONTEXT_SHARE = 0.05  # at most this share of entries (or 2) hold a word looked for there
SEGMENT_ENTRIES = 10_000  # a rebuild writes a segment of at most this many entries
# Every rank key is read in one go (~10 ns a document) rather than one at a time (~3.5 µs
# each) once one in this many documents is wanted.
BULK_RANK_SHARE = 300
# Past this many matches a search with a limit ranks only those that may make it (_best),
# the best PRUNE_SAMPLE × limit of them by score first.
PRUNE_FROM = 2000
PRUNE_SAMPLE = 4
# ... and only past this many matches per hit kept. Keeping 100 of 4,000 (a recall at 10,000
# entries) or of 6,000 (at 100,000 after a year), pruning ranks ~1,100 and is quicker, now that
# the rank keys are read in one go for them (rank_keys).
PRUNE_PER_HIT = 16
ID_SECONDS = len("20261123-085716")  # the part of an id mem makes that says when

Progress = Callable[[int, int], None]


class Filters(NamedTuple):
    """Which entries a query may return."""

    agent: str | None = None
    written_by: str | None = None  # the agent who wrote it: a handoff's `from:`, else its agent
    category: str | None = None
    kind: str | None = None
    tag: str | None = None
    since: datetime | None = None
    exclude_agents: tuple[str, ...] = ()
    viewer: str | None = None  # private entries are visible only to their own agent
    include_superseded: bool = False
    include_archived: bool = True
    open_tasks_only: bool = False
    expired_by: datetime | None = None  # hide entries whose `expires:` is this moment or earlier


EVERY = Filters(include_archived=True)  # what a lookup by id or path reads: every segment


class Hit(NamedTuple):
    """An entry a search found, its final score, and why: the query words it holds (index
    terms; `#word` in its tags; `~word` a related word and `+word` a neighbour's, which rank
    but add no weight) and their weight, in words found in one entry alone (a word that only
    this entry holds weighs 1, a common one less)."""

    entry: Entry
    score: float
    matched: tuple[str, ...]
    strength: float
    coverage: float  # the share of the query's weight it matched (a word no entry has weighs most)


class Ranking(NamedTuple):
    """How scores are shaped after BM25F."""

    now: datetime
    half_life_days: Mapping[str, float]
    decay: bool = True
    floor: float = DEFAULT_DECAY_FLOOR  # the share of relevance that never decays


def build_schema() -> Any:
    from whoosh import columns, fields

    from mem.index.text_field import Id, Text

    return fields.Schema(
        id=Id(stored=True, unique=True),
        path=Id(stored=True),
        digest=fields.STORED(),  # fingerprint of what was indexed: unchanged entries are skipped
        agent=Id(stored=True),
        written_by=Id(),
        category=Id(stored=True),
        kind=Id(stored=True),
        scope=Id(stored=True),
        visible_to=Id(),
        # Tags as written, for --tag; and their words as the content's analyzer makes them, for
        # ranking: a task that says "dependency." finds the tag `dependencies`, and "flaky" the
        # tag `flaky-tests`.
        tags=fields.KEYWORD(stored=True, lowercase=True, commas=True),
        tag_words=Text(),
        # Stored only: the rank column orders and filters by date. Indexed, its numeric terms
        # were three quarters of the term dictionary, which every process reads when it opens.
        date=fields.STORED(),
        # Everything ranking needs, packed in one raw column: one read per matching document.
        rank=fields.COLUMN(columns.NumericColumn("q")),
        status=Id(),  # active | superseded
        archived=Id(),  # yes | no
        open_task=Id(),  # yes | no
        expires=Id(),  # expiry_term of the entry's `expires:`; absent when it has none
        header=fields.STORED(),
        content=Text(stored=True),
        context=Text(),  # see index/context.py
    )


def to_document(entry: Entry, fingerprint: str, context: str = "") -> dict[str, Any]:
    return {
        "id": entry.id,
        "path": entry.path,
        "digest": fingerprint,
        "agent": entry.agent,
        "written_by": entry.get("from") or entry.agent,
        "category": entry.category,
        "kind": entry.kind,
        "scope": entry.scope,
        "visible_to": entry.agent if entry.scope == "private" else "*",
        "tags": ",".join(entry.tags),
        "tag_words": " ".join(entry.tags),
        "date": int(entry.date.timestamp()),
        "rank": rank_key(entry),
        "status": "superseded" if entry.is_superseded else "active",
        "archived": "yes" if entry.archived else "no",
        "open_task": "yes" if entry.is_open_task else "no",
        **({"expires": expiry_term(entry.expires)} if entry.expires else {}),
        "header": json.dumps(entry.header),
        "content": entry.body,
        **({"context": context} if context else {}),
    }


def rank_key(entry: Entry) -> int:
    """Pack date, reinforcement, kind and "does not decay" into one integer column value."""
    return RankKey(
        int(entry.date.timestamp()),  # signed: the column is too
        entry.reinforced,
        KIND_CODES.index(entry.kind) if entry.kind in KIND_CODES else UNKNOWN_KIND,
        entry.is_open_task or entry.is_pinned,
    ).pack()


def expiry_term(moment: datetime) -> str:
    """A moment as an index term that sorts as it does: seconds since 1970, zero-padded."""
    return f"{max(0, int(moment.timestamp())):012d}"


def to_entry(stored: Mapping[str, Any]) -> Entry:
    tags = stored.get("tags") or ""
    return Entry(
        id=stored["id"],
        agent=stored["agent"],
        category=stored["category"],
        kind=stored["kind"],
        date=datetime.fromtimestamp(stored["date"], UTC),
        tags=tuple(tag for tag in tags.split(",") if tag),
        body=stored.get("content") or "",
        header=tuple(tuple(pair) for pair in json.loads(stored.get("header") or "[]")),
        scope=stored["scope"],
        path=stored["path"],
        archived=is_archive_path(stored["path"]),
    )


class SearchIndex:
    """The index of every entry, with a manifest of the files it was built from."""

    def __init__(self, folder: Path, parser_version: str = "") -> None:
        self.folder = folder
        self.version = version_of(parser_version)
        self._index: FileIndex | None = None
        self._reader: IndexReader | None = None  # one reader per process, without Whoosh
        self._hot: IndexReader | None = None  # the same, without the archive's segments
        self._masks: dict[tuple[Any, ...], frozenset[int]] = {}  # hidden docnums, per viewer
        self._term_docs: dict[tuple[str, str, bool], frozenset[int]] = {}  # filter terms' docnums
        self._related = RelatedWords(folder)

    # --- manifest -------------------------------------------------------------------------

    def manifest(self) -> dict[str, FileStamp] | None:
        """Return the indexed files' stamps, or None when the index is missing or foreign."""
        return stamps_of(self._manifest_data())

    def _manifest_data(self) -> dict[str, Any] | None:
        """The manifest as saved, or None when it is missing, unreadable or of another version."""
        return read_data(self.folder, self.version)

    def _write_manifest(
        self,
        folder: Path,
        stamps: Mapping[str, FileStamp],
        unrelated: int = 0,
        most_reinforced: int = REINFORCED_MAX,
    ) -> None:
        payload = {
            "version": self.version,
            "unrelated": unrelated,  # entries written since the related words were worked out
            "most_reinforced": most_reinforced,  # no entry is reinforced more (see _best)
            "files": {
                path: [s.size, s.mtime_ns, s.ctime_ns, s.inode, s.sha256]
                for path, s in sorted(stamps.items())
            },
        }
        replace_text(folder / MANIFEST, json.dumps(payload))

    # --- opening ----------------------------------------------------------------------------

    def open(self) -> "FileIndex":
        """Open the index; raises whatever Whoosh raises when it is missing or corrupt."""
        if self._index is None:
            from whoosh.index import open_dir

            import_whoosh_tables()
            read_in_place()
            self._index = open_dir(str(self.folder))
        return self._index

    def reader(self) -> IndexReader:
        """Return this process's reader of the index as it was when first asked.

        It reads Whoosh's files without Whoosh (see segment_reader.py): searches, recalls and
        hooks only read, and importing Whoosh cost them ~30-50 ms each. Every lookup reads
        postings and columns straight from it, a block at a time.
        """
        if self._reader is None:
            self._reader = IndexReader(self.folder)
        return self._reader

    def view(self, filters: Filters) -> IndexReader:
        """The reader a query with these filters reads postings through: without the
        archive's own segments when it leaves the archive out."""
        if filters.include_archived:
            return self.reader()
        if self._hot is None:
            self._hot = self.reader().without_archive()
        return self._hot

    def close(self) -> None:
        self._forget()

    def _forget(self) -> None:
        # After a write the open reader shows the old segments: drop it and reopen later.
        if self._reader is not None:
            self._reader.close()
        self._reader = self._hot = None
        self._index = None
        self._masks.clear()
        self._term_docs.clear()
        self._related = RelatedWords(self.folder)

    def opens_for_writing(self) -> bool:
        """Tell whether Whoosh opens the index (its writer unpickles the schema, which mem's
        reader never reads: a schema of another version of mem reads, and cannot be written)."""
        import warnings

        # Whoosh leaves the table of contents open when it cannot unpickle it: the file is
        # closed as the failure is let go; quietly, not with a warning.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            try:
                self.open()
                return True
            except Exception:  # noqa: BLE001 - a damaged index fails in many ways: rebuild it
                self._forget()
        return False

    def is_readable(self) -> bool:
        """Tell whether the index opens and its manifest matches this version of mem."""
        if self.manifest() is None:
            return False
        try:
            self.reader().doc_count()
        except SegmentFormatError:  # a damaged or foreign index: rebuild it
            self._forget()
            return False
        return True

    # --- writing ----------------------------------------------------------------------------

    def rebuild(
        self,
        entries: Iterable[Indexed],
        total: int,
        stamps: Mapping[str, FileStamp],
        progress: Progress | None = None,
        tables: "dict[str, Table | None] | None" = None,
    ) -> int:
        """Build a fresh index beside the old one, then swap it in; return how many entries
        it holds. `entries` come with the archive's last, if any. `stamps` and the files'
        chunk `tables` may be filled while `entries` is read (each table is written, and taken
        out of `tables`, as soon as it comes).

        The postings gathered are written out as a segment every SEGMENT_ENTRIES entries, so
        their memory does not grow with the vault (at 100,000 entries, one segment's held
        ~80 MB; segments of 20,000, a rebuild after a compaction ~105 MB, of 10,000 ~90 MB);
        ten segments cost a search ~2 ms more than five."""
        import shutil  # only a rebuild needs it: ~3 ms off every search and recall

        from whoosh.index import create_in

        from mem.index import posting_pool  # writers only: ~0.5 ms off every search

        parent = self.folder.parent
        parent.mkdir(parents=True, exist_ok=True)
        # Rebuilds take the index's lock, so a folder of another one is what a killed one left.
        for left in [*parent.glob("index.new-*"), *parent.glob("index.old-*")]:
            shutil.rmtree(left, ignore_errors=True)
        fresh = parent / f"index.new-{os.urandom(4).hex()}"
        fresh.mkdir()
        try:
            index = create_in(str(fresh), build_schema())
            writer = posting_pool.install(index.writer())
            done = 0
            notes: dict[str, list[str]] = {}  # each file's notes as the lines saved of them

            def write_tables() -> None:
                while tables:
                    path, table = tables.popitem()
                    chunk_table.write(fresh, path, table)

            most = in_segment = 0
            archive = False
            for entry, fingerprint, context in in_context(entries):
                # The archive (which comes last) starts a segment of its own, which searches
                # that leave it out need not read (see IndexReader.without_archive).
                if in_segment == SEGMENT_ENTRIES or (entry.archived and not archive and in_segment):
                    writer.commit(merge=False)
                    writer = posting_pool.install(index.writer())
                    in_segment = 0
                archive = archive or entry.archived
                writer.add_document(**to_document(entry, fingerprint, context))
                most = max(most, entry.reinforced)
                if notes_file.is_note(entry):
                    notes.setdefault(entry.path, []).append(notes_file.line_of(entry))
                done += 1
                in_segment += 1
                write_tables()
                if progress is not None and done % 500 == 0:
                    progress(done, total)
            writer.commit(merge=False)
            write_tables()  # a file of no entries
            if progress is not None:
                progress(done, total)
            from mem.index.tables import work_out_for  # writers only: it imports subprocess

            work_out_for(fresh, done)
            # Each file's notes top down, as an update keeps them (entries come bottom up).
            notes_file.write_lines(
                fresh, [line for path in sorted(notes) for line in notes[path][::-1]]
            )
            self._write_manifest(fresh, stamps, 0, min(most, REINFORCED_MAX))
            old = parent / f"index.old-{os.urandom(4).hex()}"
            if self.folder.exists():
                os.replace(self.folder, old)
            os.replace(fresh, self.folder)
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)
        self._forget()
        return done

    def update(
        self,
        batches: "Mapping[str, list[Indexed] | Patch]",
        stamps: Mapping[str, FileStamp],
        removed: Iterable[str] = (),
        tables: "Mapping[str, Table | None] | None" = None,
    ) -> None:
        """Bring files up to date, each from its entries whole (an empty batch removes a file)
        or by a patch of the chunks that changed; record stamps and the files' chunk tables.

        Only entries whose fingerprint changed are rewritten: saving one entry in a file of a
        thousand costs one document, not a thousand.
        """
        changed = 0
        saved = self._manifest_data() or {}  # only this process writes it, under the index's lock
        most = self._most_after(saved, batches)
        if batches:
            writer = self._writer()
            try:
                # The documents as the writer numbers them: this process's reader if it read
                # the segments the writer starts from (no other writer can commit while it
                # holds the lock), else one that reads them now. (The writer's own
                # searcher would import whoosh.searching and the query modules: ~20 ms.)
                current = self._reader
                if current is not None and current.segment_states() == segments_of(writer):
                    reader = current
                else:
                    reader = IndexReader(self.folder)
                try:
                    for path, batch in batches.items():
                        if isinstance(batch, list):
                            done = replace_file(writer, reader, path, batch)
                        else:
                            done = patch_file(writer, reader, path, batch)
                        # Archived entries were hot, and counted, when the tables were last
                        # worked out: indexing the archive after a compaction (~80,000
                        # entries at 100,000) is no reason to work them out again.
                        changed += 0 if is_archive_path(path) else done
                finally:
                    if reader is not current:
                        reader.close()
                # The tables before the documents: a table names the bytes it was made from,
                # and until the manifest names the same ones it is not trusted; one left from
                # before, next to documents of the new bytes, would be (see chunk_table.py).
                for path, table in (tables or {}).items():
                    chunk_table.write(self.folder, path, table)
            except BaseException:
                writer.cancel()
                raise
            if saved and most != saved.get("most_reinforced"):
                # Searches prune by this bound: raised before the new documents can be read
                # (the stamps stay as they were: the documents are not in yet).
                old = stamps_of(saved) or {}
                self._write_manifest(self.folder, old, unrelated_of(saved), most)
            writer.commit()
        unrelated = unrelated_of(saved) + changed
        self._forget()
        if batches:
            self._save_notes(batches)
        if changed and unrelated > self.reader().doc_count() * RELATED_STALE:
            # Working the related words and central facts out costs ~0.8 s at 10,000 entries:
            # not on every commit, but once a twentieth of the entries are new or changed.
            from mem.index.tables import work_out_for

            work_out_for(self.folder, self.reader().doc_count())
            unrelated = 0
            self._forget()  # the related words were read before: read them anew
        manifest = stamps_of(saved) or {}
        manifest.update(stamps)
        for path in removed:
            manifest.pop(path, None)
        self._write_manifest(self.folder, manifest, unrelated, most)

    def _most_after(
        self, saved: Mapping[str, Any], batches: "Mapping[str, list[Indexed] | Patch]"
    ) -> int:
        """The manifest's bound on reinforcement, raised by what an update indexes (entries it
        removes leave it high: a bound, not a count); worked out from the index when the
        manifest has none."""
        most = saved.get("most_reinforced")
        if not isinstance(most, int) or most < 0:
            reader = IndexReader(self.folder)  # as it stands: this process's may be older
            try:
                keys = reader.rank_keys()
            finally:
                reader.close()
            most = max(((key >> REINFORCED_SHIFT) & REINFORCED_MAX for key in keys), default=0)
        for batch in batches.values():
            added = batch if isinstance(batch, list) else batch.added
            most = max([most, *(entry.reinforced for entry, *_ in added)])
        return min(most, REINFORCED_MAX)

    def _save_notes(self, batches: "Mapping[str, list[Indexed] | Patch]") -> None:
        # A whole file's notes replace what the file held before; a patch changes a few.
        whole = {
            path: notes_file.by_path(entry for entry, _ in batch).get(path, [])
            for path, batch in batches.items()
            if isinstance(batch, list)
        }
        patches = {path: batch for path, batch in batches.items() if not isinstance(batch, list)}
        if not notes_file.replace(self.folder, whole, patches):
            notes_file.write(self.folder, self._notes_from_index())

    def _notes_from_index(self) -> notes_file.ByPath:
        docs = self._docs("category", "lessons") | self._docs("kind", "warning")
        reader = self.reader()
        return notes_file.by_path(to_entry(reader.stored_fields(docnum)) for docnum in sorted(docs))

    def notes(self, words: Sequence[str] = ()) -> Iterator[Entry]:
        """Every lesson and warning of the hot files, newest first (superseded and private
        ones too; given lowercase `words`, only those that hold one), from the file the writer
        keeps beside the index. Should that file be damaged, from the index (the next write
        mends it)."""
        saved = notes_file.saved(self.folder, words)
        if saved is not None:
            return saved
        found = [entry for entries in self._notes_from_index().values() for entry in entries]
        found.sort(key=lambda entry: (entry.date, entry.id), reverse=True)
        return iter([e for e in found if not words or any(w in e.body.lower() for w in words)])

    def _writer(self) -> Any:
        # Whoosh allows one writer per index; another `mem` process may hold it, so wait a little.
        from whoosh.index import LockError

        from mem.index import posting_pool  # writers only: ~0.5 ms off every search

        for _ in range(WRITER_ATTEMPTS):
            try:
                return posting_pool.install(self.open().writer())
            except LockError:
                time.sleep(0.02 + os.urandom(1)[0] / 3200)
        raise IndexBusy("the index stayed locked by another mem process; try again")

    # --- reading ----------------------------------------------------------------------------

    def search(
        self,
        terms: str,
        filters: Filters,
        ranking: Ranking,
        limit: int | None,
        rarest: int | None = None,
    ) -> list[Hit]:
        """Return entries matching the words of `terms`, best first, with their final scores
        and the words they matched; given `rarest`, only that many of the words, the ones
        fewest entries hold (a long text as the query: they weigh most and cost least)."""
        words = self.terms_of(terms)
        if rarest is not None:
            words = self._rarest(words, rarest)
        clauses = [(field, word) for field in TEXT_FIELDS for word in dict.fromkeys(words)]
        if not clauses:
            return []
        # Words that occur with the task's in this vault widen it, at a fraction of its weight.
        widened = {("content", word): w for word, w in self._related.around(words).items()}
        clauses += list(widened)
        reader = self.view(filters)
        found: list[tuple[str, float, list[int]]] = []  # each clause's word, idf and documents
        # A word's weight is how rare it is in the vault, whether it matched as text or as a tag:
        # tags are few, so their own counts would make a common word weigh as a rare one.
        scores = bm25f(reader, clauses, found, widened, pooled=TEXT_FIELDS)
        # The task's rarer words in the entries written beside a match lift it, at half their
        # weight; they never bring in an entry that matches nothing itself.
        most = max(2.0, reader.doc_count_all() * CONTEXT_SHARE)
        rare = [
            word
            for word in dict.fromkeys(words)
            if ("content", word) in reader and reader.doc_frequency("content", word) <= most
        ]
        context = {("context", word): CONTEXT_WEIGHT for word in rare}
        beside: list[tuple[str, float, list[int]]] = []
        for docnum, score in bm25f(reader, list(context), beside, context).items():
            if docnum in scores:
                scores[docnum] += score
        found += [(word, idf, [d for d in docs if d in scores]) for word, idf, docs in beside]
        allowed = self._filter_docs(filters)
        hidden = self._mask(filters)
        periods = periods_named(terms, ranking.now)
        chosen = None
        if limit is not None and len(scores) > max(PRUNE_FROM, limit * PRUNE_PER_HIT):
            chosen = self._best(reader, scores, ranking, periods, limit, hidden, allowed)
        if chosen is None:
            scored = [
                (docnum, score)
                for docnum, score in scores.items()
                if docnum not in hidden and (allowed is None or docnum in allowed)
            ]
            chosen = self._rank(reader, scored, ranking, periods, limit)
        # A word only one entry holds has Whoosh's idf log(N/2) + 1: the unit of strength.
        count = reader.doc_count_all()  # as bm25f counts, so the weights compare
        unit = whoosh_idf(max(count, 2), 1)
        # A word of the query that no entry holds weighs most; its idf is Whoosh's for df 0.
        query_weight = sum(
            whoosh_idf(count, frequency)
            for frequency in (
                reader.doc_frequency("content", word) if ("content", word) in reader else 0
                for word in dict.fromkeys(words)
            )
        )
        matches: dict[int, dict[str, float]] = {docnum: {} for docnum, _ in chosen}
        for word, idf, docs in found:
            for docnum in matches.keys() & docs:
                matches[docnum][word] = idf
        hits = []
        for docnum, score in chosen:
            matched = matches[docnum]
            weights: dict[str, float] = {}
            for word, idf in matched.items():  # a word matched as text and as a tag counts once
                if word.startswith(("~", "+")):
                    continue  # a related or a neighbour's word ranks; relevance is the task's say
                key = word.lstrip("#")  # a tag's words are stemmed as the content's are
                weights[key] = max(weights.get(key, 0.0), idf)
            entry = to_entry(reader.stored_fields(docnum))
            weight = sum(weights.values())
            coverage = min(1.0, weight / query_weight) if query_weight else 0.0
            hits.append(Hit(entry, score, tuple(matched), weight / unit, coverage))
        return hits

    def _rarest(self, words: Sequence[str], keep: int) -> list[str]:
        reader = self.reader()
        known = [word for word in dict.fromkeys(words) if ("content", word) in reader]
        known.sort(key=lambda word: reader.doc_frequency("content", word))  # stable: ties in order
        return known[:keep]

    def browse(self, filters: Filters, limit: int | None) -> list[Entry]:
        """Return entries matching the filters alone, newest first."""
        return self.top(filters, limit)

    def top(self, filters: Filters, limit: int | None) -> list[Entry]:
        """Return up to `limit` entries matching the filters, newest first.

        Orders by the columns alone and reads stored fields only for what it returns: recall
        asks this several times before an agent starts, at any vault size.
        """
        return self._ordered(self._listed(filters), limit, "date")

    def _listed(self, filters: Filters) -> list[int]:
        """The documents matching the filters, in document order."""
        hidden = self._mask(filters)
        allowed = self._filter_docs(filters)
        if allowed is None:
            return [docnum for docnum in self.view(filters).all_doc_ids() if docnum not in hidden]
        return sorted(allowed - hidden)

    def standing_facts(self, filters: Filters, limit: int) -> list[Entry]:
        """Up to `limit` entries matching the filters, as the Knowledge sections want them:
        the most reinforced first; among equals, those written since central.txt was worked
        out (newest first), then the most central (see central.py), then any it misses."""
        docs = self._listed(filters)
        agent = filters.agent
        table = central.read(self.folder) if agent and docs else None
        if table is None or agent is None:
            return self._ordered(docs, limit, "reinforced")
        packed = rank_keys(self.reader(), len(docs))
        times = {d: (packed[d] >> REINFORCED_SHIFT) & REINFORCED_MAX for d in docs}
        # The levels of reinforcement taken whole, and the one the limit cuts into (or the
        # last: the caller may skip some of what it gets, so order matters to the end).
        levels = sorted(set(times.values()), reverse=True)
        above: list[int] = []
        for level in levels:
            tied = [d for d in docs if times[d] == level]
            if len(above) + len(tied) >= limit or level == levels[-1]:
                break
            above += tied
        # Of that level, what central.txt cannot know yet (dated after it) goes first, newest
        # first, then what it ranks, then what it misses (written in the minute it was).
        new = [d for d in tied if packed[d] >> SECONDS_SHIFT > table.newest]
        old = [d for d in tied if packed[d] >> SECONDS_SHIFT <= table.newest]
        room = limit - len(above) - len(new)
        placed = self._most_central(old, room, len(docs), table, agent) if room > 0 else []
        chosen = self._ordered(above, None, "reinforced") + self._ordered(new, None, "date")
        chosen += [to_entry(self.reader().stored_fields(d)) for d in placed]
        if len(chosen) < limit:
            missed = sorted(set(old) - set(placed))
            chosen += self._ordered(missed, limit - len(chosen), "date")
        return chosen[:limit]

    def _most_central(
        self, docs: list[int], room: int, among: int, table: central.Table, agent: str
    ) -> list[int]:
        """Up to `room` of `docs` that the table lists, most central first. `docs` are some of
        the agent's `among` facts: few, their ids are read and looked up in the table; many,
        the table's first ids are most likely among them, and are looked up in the index."""
        reader = self.reader()
        if len(docs) ** 2 <= room * among:
            where = {d: table.place(agent, reader.stored_fields(d)["id"]) for d in docs}
            return sorted((d for d in docs if where[d] >= 0), key=where.__getitem__)[:room]
        wanted, placed = set(docs), list[int]()
        for entry_id in table.ids(agent):
            if len(placed) >= room or not wanted:
                break
            found = self._docs("id", entry_id) & wanted
            placed += sorted(found)
            wanted -= found
        return placed[:room]

    def terms_of(self, text: str) -> list[str]:
        """The index terms the content analyzer makes of `text`, in order."""
        from mem.index.analysis import terms

        return terms(text)

    def _ordered(self, docs: list[int], limit: int | None, by: str) -> list[Entry]:
        if not docs:
            return []
        reader = self.reader()
        packed = rank_keys(reader, len(docs))
        if by == "date" and limit is not None and len(docs) > limit * 2:
            # The newest `limit` and their ties by date, picked by the packed keys (the date is
            # their high bits) before any key is worked out: recall asks this of an agent's
            # whole category, ~10,000 documents at 100,000 entries.
            # Every step below iterates in C: a sort of the keys, then `compress`.
            dated = list(map(packed.__getitem__, docs))
            newest = sorted(dated, reverse=True)[limit - 1]
            least = (newest >> SECONDS_SHIFT) << SECONDS_SHIFT
            docs = list(compress(docs, map(least.__le__, dated)))
        keys: dict[int, tuple[int, ...]]
        if by == "reinforced":
            keys = {
                d: ((packed[d] >> REINFORCED_SHIFT) & REINFORCED_MAX, packed[d] >> SECONDS_SHIFT)
                for d in docs
            }
        else:
            keys = {d: (packed[d] >> SECONDS_SHIFT,) for d in docs}
        ordered = sorted(docs, key=keys.__getitem__, reverse=True)
        if limit is not None:
            cut = keys[ordered[min(limit, len(ordered)) - 1]]
            ordered = [d for d in ordered if keys[d] >= cut]  # the first `limit`, with ties
        # Dates keep minutes only; ids start with the second they were made, so they break ties,
        # and then the document number: documents are added bottom of the file first, and mem
        # writes at the top, so of two entries made in the same second the later one is higher.
        rows = []
        for docnum in ordered:
            entry = to_entry(reader.stored_fields(docnum))
            rows.append(((*keys[docnum], entry.id[:ID_SECONDS], docnum), entry))
        rows.sort(key=lambda row: row[0], reverse=True)
        return [entry for _, entry in rows[:limit]]

    def ids_with_prefix(self, prefix: str) -> list[Entry]:
        """Return the entries whose id starts with `prefix`, in index order."""
        reader = self.reader()
        if not reader.doc_count_all():
            return []  # an index without segments has no terms to expand
        ids = reader.texts("id", prefix)
        docs = sorted(docnum for entry_id in ids for docnum in self._docs("id", entry_id))
        return [to_entry(reader.stored_fields(docnum)) for docnum in docs]

    def ids_with_tail_part(self, part: str) -> list[Entry]:
        """Return the entries whose made id has `part` in its random tail (`p8ne` of
        `20261122-230415-k3p8ne`), in index order."""
        reader = self.reader()
        if not reader.doc_count_all():
            return []
        ids = [
            term
            for term in reader.texts("id")
            if part in term.rpartition("-")[2] and term.count("-") == 2
        ]
        docs = sorted(docnum for entry_id in ids for docnum in self._docs("id", entry_id))
        return [to_entry(reader.stored_fields(docnum)) for docnum in docs]

    def ids_in(self, path: str) -> set[str]:
        """The ids of the entries the index holds for one file."""
        reader = self.reader()
        return {reader.stored_fields(docnum)["id"] for docnum in self._docs("path", path)}

    def size_bytes(self) -> int:
        return sum(path.stat().st_size for path in self.folder.glob("*") if path.is_file())

    def _docs(self, field: str, text: str, filters: Filters = EVERY) -> frozenset[int]:
        """The live documents holding one term (of the segments read for these filters)."""
        reader = self.view(filters)
        key = (field, text, reader is self.reader())
        if key not in self._term_docs:  # recall asks for "agent:dev" and the like several times
            self._term_docs[key] = frozenset(reader.ids(field, text))
        return self._term_docs[key]

    def _filter_docs(self, filters: Filters) -> frozenset[int] | None:
        """The documents the filters allow, or None when there are no filters (all are)."""
        sets: list[frozenset[int]] = []
        for field, value in (
            ("agent", filters.agent),
            ("written_by", filters.written_by),
            ("category", filters.category),
            ("kind", filters.kind),
            ("tags", filters.tag),
        ):
            if value:
                sets.append(self._docs(field, value.lower() if field == "tags" else value, filters))
        if filters.open_tasks_only:
            sets.append(self._docs("open_task", "yes", filters))
        sets.sort(key=len)
        allowed = sets[0].intersection(*sets[1:]) if sets else None
        if filters.since is not None:  # rare (mem search --since): read dates from the column
            reader = self.reader()
            if not reader.doc_count_all():
                return frozenset()  # an index without segments has no columns to read
            since = int(filters.since.timestamp())
            packed = reader.rank_keys()
            candidates = self.view(filters).all_doc_ids() if allowed is None else allowed
            allowed = frozenset(d for d in candidates if packed[d] >> SECONDS_SHIFT >= since)
        return allowed

    def _mask(self, filters: Filters) -> frozenset[int]:
        # What is hidden is rare (superseded entries, other agents' private ones): mask it. The
        # hidden set is worked out once per process and kind of viewer: recall asks many times.
        key = (
            filters.exclude_agents,
            filters.include_superseded,
            filters.include_archived,
            filters.viewer,
            filters.expired_by,
        )
        if key not in self._masks:
            hidden: frozenset[int] = frozenset()
            for agent in filters.exclude_agents:
                hidden |= self._docs("agent", agent, filters)
            if not filters.include_superseded:
                hidden |= self._docs("status", "superseded", filters)
            if not filters.include_archived:
                hidden |= self._docs("archived", "yes", filters)
            if filters.expired_by is not None:
                hidden |= self._expired(filters.expired_by, filters)
            private = self._docs("scope", "private", filters)
            if filters.viewer:
                private -= self._docs("visible_to", filters.viewer, filters)
            self._masks[key] = hidden | private
        return self._masks[key]

    def _expired(self, moment: datetime, filters: Filters) -> frozenset[int]:
        """The documents whose expiry is `moment` or earlier: few entries expire, so the
        field's terms (one per expiry date) are read, not its postings."""
        cutoff = expiry_term(moment)
        reader = self.reader()
        if not reader.doc_count_all():
            return frozenset()
        found: frozenset[int] = frozenset()
        for term in reader.texts("expires"):
            if term <= cutoff:
                found |= self._docs("expires", term, filters)
        return found

    def _best(
        self,
        reader: IndexReader,
        scores: dict[int, float],
        ranking: Ranking,
        periods: Sequence[Period],
        limit: int,
        hidden: frozenset[int],
        allowed: frozenset[int] | None,
    ) -> list[tuple[int, float]] | None:
        """The best `limit` once ranked, found by ranking only the documents whose score can
        still reach them; None when that is most of them (ranking them all is as quick).

        Ranking multiplies a score by at most the largest reinforcement boost any entry has
        (decay only lowers it) and the period boost: `factor`. So a document whose score times
        `factor` falls short of the `limit`-th best ranked so far can be in no best `limit`.
        Rank the documents of highest score first, then the others in order of score, a
        growing batch at a time, until the next one's score is below that bar. At 100,000
        entries a common word matches ~40,000 documents, of which a few hundred are ranked."""
        most = 1.0 + REINFORCED_BOOST * math.log1p(self.most_reinforced())
        factor = most * (PERIOD_BOOST if periods else 1.0) * (1 + 1e-9)  # rounding's margin

        def visible(above: list[tuple[int, float]]) -> list[tuple[int, float]]:
            return [
                (docnum, score)
                for docnum, score in above
                if docnum not in hidden and (allowed is None or docnum in allowed)
            ]

        least = heapq.nlargest(limit * PRUNE_SAMPLE, scores.values())[-1]
        first = visible([(docnum, score) for docnum, score in scores.items() if score >= least])
        if len(first) < limit:
            return None  # most of the best are hidden: rank them all
        ranked = self._rank(reader, first, ranking, periods, limit)
        bar = ranked[-1][1] / factor  # what a document must score to reach the best `limit`
        if bar >= least:
            return ranked  # every document left out scores below `least`
        rest = visible([pair for pair in scores.items() if bar <= pair[1] < least])
        if len(rest) > len(scores) // 2:
            return None
        rest.sort(key=lambda pair: pair[1], reverse=True)
        start, size = 0, len(first)
        while start < len(rest) and rest[start][1] >= bar:
            batch = self._rank(reader, rest[start : start + size], ranking, periods, limit)
            ranked = sorted(ranked + batch, key=lambda pair: (-pair[1], pair[0]))[:limit]
            bar = ranked[-1][1] / factor
            start, size = start + size, size * 2
        return ranked

    def most_reinforced(self) -> int:
        """The highest reinforcement any indexed entry may have (the manifest keeps a bound
        writers raise as they index; a rebuild makes it exact)."""
        data = self._manifest_data() or {}
        most = data.get("most_reinforced")
        return most if isinstance(most, int) and most >= 0 else REINFORCED_MAX

    def _rank(
        self,
        reader: IndexReader,
        scored: list[tuple[int, float]],
        ranking: Ranking,
        periods: Sequence[Period] = (),
        limit: int | None = None,
    ) -> list[tuple[int, float]]:
        # BM25F × half-life decay per kind (down to a floor) × a mild boost for entries seen again.
        if not scored:
            return []  # nothing to rank; an index without segments cannot even read columns
        packed = rank_keys(reader, len(scored))
        now = ranking.now.timestamp()
        half_lives = [ranking.half_life_days.get(kind) for kind in KIND_CODES] + [None] * 32
        boosts = [1.0 + REINFORCED_BOOST * math.log1p(times) for times in range(64)]
        ranked = []
        decay, floor = ranking.decay, ranking.floor
        above = 1 - floor
        # RankKey.unpack, inlined: this loop runs once per match of every search.
        for docnum, score in scored:
            key = packed[docnum]
            times = (key >> REINFORCED_SHIFT) & REINFORCED_MAX
            factor = boosts[times] if times < 64 else 1.0 + REINFORCED_BOOST * math.log1p(times)
            half_life = half_lives[(key >> KIND_SHIFT) & KIND_MASK]
            if decay and half_life and not key & 1:
                age_days = max(0.0, now - (key >> SECONDS_SHIFT)) / SECONDS_PER_DAY
                factor *= floor + above * 0.5 ** (age_days / half_life)
            if periods and any(period.holds(key >> SECONDS_SHIFT) for period in periods):
                factor *= PERIOD_BOOST
            ranked.append((-score * factor, docnum))
        # Best first, ties by document number; the best `limit` picked without sorting them all.
        if limit is not None and len(ranked) > limit:
            ranked = heapq.nsmallest(limit, ranked)
        else:
            ranked.sort()
        return [(docnum, -negative) for negative, docnum in ranked]


class RankColumn:
    """The rank keys of a few documents, each read when asked."""

    def __init__(self, reader: IndexReader) -> None:
        self.reader = reader

    def __getitem__(self, docnum: int) -> int:
        return self.reader.rank_key(docnum)


def rank_keys(reader: IndexReader, wanted: int) -> Sequence[int] | RankColumn:
    """The rank keys by document number, for `wanted` lookups: all of them, read in one go,
    when that is quicker than one at a time (or done already); else each when asked."""
    if wanted * BULK_RANK_SHARE > reader.doc_count_all() or reader.has_rank_keys():
        return reader.rank_keys()
    return RankColumn(reader)


def is_archive_path(path: str) -> bool:
    """Whether a category file's path is an archive's (`<agent>/archive/<category>.md`)."""
    return "/archive/" in path


def unrelated_of(data: Mapping[str, Any]) -> int:
    """How many entries a saved manifest says were written since the related words were."""
    try:
        return max(0, int(data.get("unrelated", 0)))
    except (TypeError, ValueError):
        return 0


def bm25f(
    reader: IndexReader,
    clauses: list[tuple[str, str]],
    found: list[tuple[str, float, list[int]]] | None = None,
    weights: Mapping[tuple[str, str], float] | None = None,
    pooled: Sequence[str] = (),
) -> dict[int, float]:
    """BM25F of every live document holding any of the (field, word) clauses, summed over them,
    a clause in `weights` scaled by its weight; `found`, when given, gets each clause's word
    (`#word` for a tag, `+word` for a neighbour's, `~word` for a related one: see MARKS), idf as
    scaled, and documents. A word of a `pooled` field is as rare as it is in the one of them
    where most entries hold it.

    The formula and statistics of whoosh.scoring.BM25F (idf and average field length over the
    whole index, deleted documents counted as Whoosh counts them), read straight from the
    postings: Searcher.search would import ~15 ms of modules and make ~10 calls a posting.
    """
    count = reader.doc_count_all()
    scores: dict[int, float] = {}
    for field, text in clauses:
        if (field, text) not in reader:
            continue
        fields = pooled if field in pooled else (field,)
        frequency = max(reader.doc_frequency(f, text) for f in fields if (f, text) in reader)
        idf = whoosh_idf(count, frequency)
        weight = weights.get((field, text)) if weights else None
        if weight is not None:
            idf *= weight
        average = reader.field_length(field) / (count or 1) or 1
        # This word's scores by document, added to the others' where they overlap: dicts
        # joined in C, Python's own loop only over documents that hold more than one word.
        clause: dict[int, float] = {}
        for leaf, offset in reader.leaf_readers():  # each segment numbers its documents from 0
            for ids, block in term_scores(leaf, field, text, idf, average):
                clause.update(zip([d + offset for d in ids] if offset else ids, block, strict=True))
        if scores:
            for docnum in clause.keys() & scores.keys():
                clause[docnum] += scores[docnum]
        scores.update(clause)
        holding = list(clause)
        if found is not None:
            mark = "~" if field == "content" and weight is not None else MARKS[field]
            found.append((mark + text, idf, holding))
    return scores


# The field length each byte of Whoosh's length columns stands for: whoosh.util.numeric's table,
# which this formula makes exactly (tests/index/test_segment_reader.py checks it).
BYTE_LENGTHS = tuple(round((1.033**n - 1) * 27) for n in range(256))


def whoosh_idf(count: int, frequency: int) -> float:
    """Whoosh's BM25F idf of a word held by `frequency` of `count` documents (0 of them too)."""
    return math.log(max(count, 1) / (frequency + 1)) + 1


def term_scores(
    leaf: Leaf, field: str, text: str, idf: float, average: float
) -> Iterator[tuple[list[int], list[float]]]:
    """BM25 of one word in each live document of one segment that holds it, a block of
    postings at a time: (document numbers, scores). Each step maps over a whole block in C."""
    lengths = leaf.length_bytes(field)
    # The norm of each of the 256 lengths a byte can stand for, worked out once; and for a
    # block of one frequency (most are: a word once in each entry), each length's score.
    norms = [BM25_K1 * ((1 - BM25_B) + BM25_B * length / average) for length in BYTE_LENGTHS]
    top = idf * (BM25_K1 + 1)
    by_length: dict[float, list[float]] = {}
    for ids, weights in leaf.blocks(field, text):
        lengths_of = map(lengths.__getitem__, ids)
        if isinstance(weights, float):
            if weights not in by_length:
                by_length[weights] = [top * weights / (weights + norm) for norm in norms]
            yield ids, list(map(by_length[weights].__getitem__, lengths_of))
        else:
            denominators = map(operator.add, weights, map(norms.__getitem__, lengths_of))
            numerators = map(operator.mul, weights, repeat(top))
            yield ids, list(map(operator.truediv, numerators, denominators))


def segments_of(writer: Any) -> list[tuple[str, int, frozenset[int]]]:
    """The segments a Whoosh writer starts from, as IndexReader.segment_states gives them."""
    return [
        (segment.segment_id(), segment.doc_count_all(), frozenset(segment.deleted_docs()))
        for segment in writer.segments
    ]


def patch_file(writer: Any, reader: IndexReader, path: str, patch: "Patch") -> int:
    """Delete and add the documents a patch names, of one file; return how many."""
    changed = 0
    for entry_id in patch.deleted:
        # By id (an entry or two), then by path: a path's postings are a whole file's.
        for docnum in reader.ids("id", entry_id):
            if reader.stored_fields(docnum).get("path") == path:
                writer.delete_document(docnum)
                changed += 1
    for entry, fingerprint, context in patch.added:
        writer.add_document(**to_document(entry, fingerprint, context))
        changed += 1
    return changed


def replace_file(writer: Any, reader: IndexReader, path: str, entries: list[Indexed]) -> int:
    """Make the indexed documents of one file match `entries`, touching only what changed;
    return how many documents were added or deleted."""
    changed = 0
    indexed: dict[tuple[str, str], list[int]] = {}
    for docnum in reader.ids("path", path):
        stored = reader.stored_fields(docnum)
        indexed.setdefault((stored["id"], stored.get("digest", "")), []).append(docnum)
    for entry, fingerprint, context in in_context(reversed(entries)):  # bottom first: see top()
        unchanged = indexed.get((entry.id, fingerprint))
        if unchanged:
            unchanged.pop()
        else:
            writer.add_document(**to_document(entry, fingerprint, context))
            changed += 1
    for stale in indexed.values():
        for docnum in stale:
            writer.delete_document(docnum)
            changed += 1
    return changed
