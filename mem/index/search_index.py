"""SearchIndex: the Whoosh index in `.mem/index/` (the only module that imports whoosh)."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from mem.errors import IndexBusy
from mem.model import CATEGORY_OF_KIND, DEFAULT_DECAY_FLOOR, Entry

if TYPE_CHECKING:
    from whoosh.index import FileIndex
    from whoosh.query import Query

SCHEMA_VERSION = 8  # bump when the fields change: an index of another version is rebuilt
MANIFEST = "manifest.json"
WRITER_ATTEMPTS = 100  # × up to 0.1 s: how long to wait for another process's writer
# BM25F with light length normalisation (web search uses B=0.75): memory entries are short, and
# a longer one that holds the query's words is not less about them. Measured on LoCoMo's dev half.
BM25_B = 0.3
BM25_K1 = 1.2
REINFORCED_BOOST = 0.15  # score × (1 + 0.15·ln(1 + reinforced)): a mild nudge, not a takeover
SECONDS_PER_DAY = 86400.0
KIND_CODES: tuple[str, ...] = tuple(sorted(CATEGORY_OF_KIND))  # a kind's code in the rank column
UNKNOWN_KIND = 31
REINFORCED_MAX = 16383

Progress = Callable[[int, int], None]
Indexed = tuple[Entry, str]  # an entry and a fingerprint of its text, to skip unchanged ones


class FileStamp(NamedTuple):
    """What a category file looked like when it was indexed."""

    size: int
    mtime_ns: int
    ctime_ns: int  # changes on every write, also one that restores the mtime (cp -p, rsync -t)
    inode: int
    sha256: str


class Filters(NamedTuple):
    """Which entries a query may return."""

    agent: str | None = None
    category: str | None = None
    kind: str | None = None
    tag: str | None = None
    since: datetime | None = None
    exclude_agents: tuple[str, ...] = ()
    viewer: str | None = None  # private entries are visible only to their own agent
    include_superseded: bool = False
    include_archived: bool = True
    open_tasks_only: bool = False


class Ranking(NamedTuple):
    """How scores are shaped after BM25F."""

    now: datetime
    half_life_days: Mapping[str, float]
    decay: bool = True
    floor: float = DEFAULT_DECAY_FLOOR  # the share of relevance that never decays


def build_schema() -> Any:
    from whoosh import columns, fields
    from whoosh.analysis import StemmingAnalyzer

    from mem.index.analysis import STOP_WORDS, stem

    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        path=fields.ID(stored=True),
        digest=fields.STORED(),  # fingerprint of what was indexed: unchanged entries are skipped
        agent=fields.ID(stored=True),
        category=fields.ID(stored=True),
        kind=fields.ID(stored=True),
        scope=fields.ID(stored=True),
        visible_to=fields.ID(),
        tags=fields.KEYWORD(stored=True, lowercase=True, commas=True, scorable=True),
        date=fields.NUMERIC(int, bits=64, stored=True, sortable=True, signed=True),
        # Everything ranking needs, packed in one raw column: one read per matching document.
        rank=fields.COLUMN(columns.NumericColumn("q")),
        status=fields.ID(),  # active | superseded
        archived=fields.ID(),  # yes | no
        open_task=fields.ID(),  # yes | no
        header=fields.STORED(),
        content=fields.TEXT(
            stored=True, analyzer=StemmingAnalyzer(stoplist=STOP_WORDS, stemfn=stem)
        ),
    )


def to_document(entry: Entry, fingerprint: str) -> dict[str, Any]:
    return {
        "id": entry.id,
        "path": entry.path,
        "digest": fingerprint,
        "agent": entry.agent,
        "category": entry.category,
        "kind": entry.kind,
        "scope": entry.scope,
        "visible_to": entry.agent if entry.scope == "private" else "*",
        "tags": ",".join(entry.tags),
        "date": int(entry.date.timestamp()),
        "rank": rank_key(entry),
        "status": "superseded" if entry.is_superseded else "active",
        "archived": "yes" if entry.archived else "no",
        "open_task": "yes" if entry.is_open_task else "no",
        "header": json.dumps(entry.header),
        "content": entry.body,
    }


def rank_key(entry: Entry) -> int:
    """Pack date, reinforcement, kind and "does not decay" into one integer column value."""
    seconds = max(0, int(entry.date.timestamp()))
    reinforced = min(entry.reinforced, REINFORCED_MAX)
    kind = KIND_CODES.index(entry.kind) if entry.kind in KIND_CODES else UNKNOWN_KIND
    steady = int(entry.is_open_task or entry.is_pinned)
    return (seconds << 20) | (reinforced << 6) | (kind << 1) | steady


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
        archived="/archive/" in stored["path"],
    )


class SearchIndex:
    """The index of every entry, with a manifest of the files it was built from."""

    def __init__(self, folder: Path, parser_version: str = "") -> None:
        self.folder = folder
        # An index built by another schema, parser or kind list is rebuilt, not trusted: its
        # fingerprints would let unchanged text keep values an older parser read from it.
        self.version = f"{SCHEMA_VERSION}/{parser_version}/{','.join(KIND_CODES)}"
        self._index: FileIndex | None = None
        self._searcher: Any = None  # one searcher per process: opening one costs ~8 ms
        self._masks: dict[tuple[Any, ...], Any] = {}  # hidden docnums, per kind of viewer

    # --- manifest -------------------------------------------------------------------------

    def manifest(self) -> dict[str, FileStamp] | None:
        """Return the indexed files' stamps, or None when the index is missing or foreign."""
        try:
            data = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("version") != self.version:
            return None
        try:
            return {path: FileStamp(*stamp) for path, stamp in data["files"].items()}
        except (KeyError, TypeError, AttributeError):
            return None

    def _write_manifest(self, folder: Path, stamps: Mapping[str, FileStamp]) -> None:
        payload = {
            "version": self.version,
            "files": {
                path: [s.size, s.mtime_ns, s.ctime_ns, s.inode, s.sha256]
                for path, s in sorted(stamps.items())
            },
        }
        temp = folder / f".{MANIFEST}.{os.getpid()}.tmp"
        temp.write_text(json.dumps(payload), encoding="utf-8")
        os.replace(temp, folder / MANIFEST)

    # --- opening ----------------------------------------------------------------------------

    def open(self) -> FileIndex:
        """Open the index; raises whatever Whoosh raises when it is missing or corrupt."""
        if self._index is None:
            from whoosh.index import open_dir

            self._index = open_dir(str(self.folder))
        return self._index

    def searcher(self) -> Any:
        """Return this process's searcher of the index as it was when first asked."""
        if self._searcher is None:
            from whoosh.scoring import BM25F

            self._searcher = self.open().searcher(weighting=BM25F(B=BM25_B, K1=BM25_K1))
        return self._searcher

    def close(self) -> None:
        self._forget()

    def _forget(self) -> None:
        # After a write the open searcher shows the old segments: drop it and reopen later.
        if self._searcher is not None:
            self._searcher.close()
        self._searcher = None
        self._index = None
        self._masks.clear()

    def is_readable(self) -> bool:
        """Tell whether the index opens and its manifest matches this version of mem."""
        if self.manifest() is None:
            return False
        try:
            self.searcher().doc_count()
        except Exception:  # noqa: BLE001 - a damaged index fails in many ways; all mean "rebuild"
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
    ) -> None:
        """Build a fresh index beside the old one, then swap it in."""
        import shutil  # only a rebuild needs it: ~3 ms off every search and recall

        from whoosh.index import create_in

        parent = self.folder.parent
        parent.mkdir(parents=True, exist_ok=True)
        fresh = parent / f"index.new-{os.urandom(4).hex()}"
        fresh.mkdir()
        try:
            index = create_in(str(fresh), build_schema())
            writer = index.writer(limitmb=256)
            done = 0
            for entry, fingerprint in entries:
                writer.add_document(**to_document(entry, fingerprint))
                done += 1
                if progress is not None and done % 500 == 0:
                    progress(done, total)
            writer.commit()
            if progress is not None:
                progress(done, total)
            self._write_manifest(fresh, stamps)
            old = parent / f"index.old-{os.urandom(4).hex()}"
            if self.folder.exists():
                os.replace(self.folder, old)
            os.replace(fresh, self.folder)
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)
        self._forget()

    def update(
        self,
        batches: Mapping[str, list[Indexed]],
        stamps: Mapping[str, FileStamp],
        removed: Iterable[str] = (),
    ) -> None:
        """Bring whole files up to date (an empty batch removes a file) and record stamps.

        Only entries whose fingerprint changed are rewritten: saving one entry in a file of a
        thousand costs one document, not a thousand.
        """
        if batches:
            writer = self._writer()
            try:
                with writer.searcher() as searcher:
                    for path, entries in batches.items():
                        replace_file(writer, searcher, path, entries)
            except BaseException:
                writer.cancel()
                raise
            writer.commit()
        manifest = self.manifest() or {}
        manifest.update(stamps)
        for path in removed:
            manifest.pop(path, None)
        self._write_manifest(self.folder, manifest)
        self._forget()

    def _writer(self) -> Any:
        # Whoosh allows one writer per index; another `mem` process may hold it, so wait a little.
        from whoosh.index import LockError

        for _ in range(WRITER_ATTEMPTS):
            try:
                return self.open().writer()
            except LockError:
                time.sleep(0.02 + os.urandom(1)[0] / 3200)
        raise IndexBusy("the index stayed locked by another mem process; try again")

    # --- reading ----------------------------------------------------------------------------

    def search(
        self, terms: str, filters: Filters, ranking: Ranking, limit: int | None
    ) -> list[tuple[Entry, float]]:
        """Return entries matching the words of `terms`, best first, with their final scores."""
        from whoosh.query import Or, Term

        analyzer = self.open().schema["content"].analyzer
        words = [token.text for token in analyzer(terms)]
        raw = [word.lower() for word in terms.replace(",", " ").split()]
        clauses: list[Query] = [Term("content", word) for word in dict.fromkeys(words)]
        clauses += [
            Term("tags", word.lstrip("#")) for word in dict.fromkeys(raw) if word.strip("#")
        ]
        if not clauses:
            return []
        searcher = self.searcher()
        results = searcher.search(
            Or(clauses), limit=None, filter=self._filter(filters), mask=self._mask(filters)
        )
        scored = [(docnum, score or 0.0) for docnum, score in results.items()]
        scored = self._rank(searcher, scored, ranking)
        chosen = scored if limit is None else scored[:limit]
        return [(to_entry(searcher.stored_fields(docnum)), score) for docnum, score in chosen]

    def browse(self, filters: Filters, limit: int | None) -> list[Entry]:
        """Return entries matching the filters alone, newest first."""
        from whoosh.query import Every

        searcher = self.searcher()
        # The filters as the query itself: Every() with a filter would visit every document.
        results = searcher.search(
            self._filter(filters) or Every(),
            limit=limit,
            mask=self._mask(filters),
            sortedby="date",
            reverse=True,
        )
        return [to_entry(hit.fields()) for hit in results]

    def top(self, filters: Filters, limit: int, by: str = "date") -> list[Entry]:
        """Return up to `limit` entries matching the filters, newest first (by="date") or most
        reinforced, then newest, first (by="reinforced").

        Orders by the columns alone and reads stored fields only for what it returns: recall
        asks this several times before an agent starts, at any vault size.
        """
        from whoosh.query import Every

        searcher = self.searcher()
        reader = searcher.reader()
        hidden = self._mask(filters)
        docs = [
            docnum
            for docnum in searcher.docs_for_query(self._filter(filters) or Every())
            if docnum not in hidden
        ]
        if not docs:
            return []
        packed = reader.column_reader("rank")
        keys: dict[int, tuple[int, ...]]
        if by == "reinforced":
            keys = {d: ((packed[d] >> 6) & REINFORCED_MAX, packed[d] >> 20) for d in docs}
        else:
            keys = {d: (packed[d] >> 20,) for d in docs}
        ordered = sorted(docs, key=keys.__getitem__, reverse=True)
        cut = keys[ordered[min(limit, len(ordered)) - 1]]
        ordered = [d for d in ordered if keys[d] >= cut]  # the first `limit`, with ties
        # Dates keep minutes only; ids sort by the second they were made, so they break ties.
        found = sorted(
            ((keys[d], to_entry(searcher.stored_fields(d))) for d in ordered),
            key=lambda pair: (pair[0], pair[1].id),
            reverse=True,
        )
        entries = [entry for _, entry in found]
        return entries[:limit]

    def ids_with_prefix(self, prefix: str) -> list[Entry]:
        """Return the entries whose id starts with `prefix`."""
        from whoosh.query import Prefix

        searcher = self.searcher()
        results = searcher.search(Prefix("id", prefix), limit=None)
        return [to_entry(hit.fields()) for hit in results]

    def size_bytes(self) -> int:
        return sum(path.stat().st_size for path in self.folder.glob("*") if path.is_file())

    def _filter(self, filters: Filters) -> Query | None:
        # Only the filters a person asked for: Whoosh turns a filter into the set of every
        # document it matches, which for "all active entries" costs more than the search.
        from whoosh.query import And, NumericRange, Term

        terms: list[Query] = []
        for field, value in (
            ("agent", filters.agent),
            ("category", filters.category),
            ("kind", filters.kind),
            ("tags", filters.tag),
        ):
            if value:
                terms.append(Term(field, value.lower() if field == "tags" else value))
        if filters.since is not None:
            terms.append(NumericRange("date", int(filters.since.timestamp()), None))
        if filters.open_tasks_only:
            terms.append(Term("open_task", "yes"))
        if not terms:
            return None
        return And(terms) if len(terms) > 1 else terms[0]

    def _mask(self, filters: Filters) -> Any:
        # What is hidden is rare (superseded entries, other agents' private ones): mask it. The
        # hidden set is worked out once per process and kind of viewer: recall asks many times.
        key = (
            filters.exclude_agents,
            filters.include_superseded,
            filters.include_archived,
            filters.viewer,
        )
        if key not in self._masks:
            self._masks[key] = set(self.searcher().docs_for_query(self._mask_query(filters)))
        return self._masks[key]

    def _mask_query(self, filters: Filters) -> Query:
        from whoosh.query import AndNot, Or, Term

        hidden: list[Query] = [Term("agent", agent) for agent in filters.exclude_agents]
        if not filters.include_superseded:
            hidden.append(Term("status", "superseded"))
        if not filters.include_archived:
            hidden.append(Term("archived", "yes"))
        private = Term("scope", "private")
        hidden.append(
            AndNot(private, Term("visible_to", filters.viewer)) if filters.viewer else private
        )
        return Or(hidden) if len(hidden) > 1 else hidden[0]

    def _rank(
        self, searcher: Any, scored: list[tuple[int, float]], ranking: Ranking
    ) -> list[tuple[int, float]]:
        # BM25F × half-life decay per kind (down to a floor) × a mild boost for entries seen again.
        if not scored:
            return []  # nothing to rank; an index without segments cannot even read columns
        packed = searcher.reader().column_reader("rank")
        now = ranking.now.timestamp()
        half_lives = [ranking.half_life_days.get(kind) for kind in KIND_CODES] + [None] * 32
        boosts = [1.0 + REINFORCED_BOOST * math.log1p(times) for times in range(64)]
        ranked = []
        for docnum, score in scored:
            key = packed[docnum]
            times = (key >> 6) & REINFORCED_MAX
            factor = boosts[times] if times < 64 else 1.0 + REINFORCED_BOOST * math.log1p(times)
            half_life = half_lives[(key >> 1) & 31]
            if ranking.decay and half_life and not key & 1:
                age_days = max(0.0, now - (key >> 20)) / SECONDS_PER_DAY
                factor *= ranking.floor + (1 - ranking.floor) * 0.5 ** (age_days / half_life)
            ranked.append((docnum, score * factor))
        ranked.sort(key=lambda pair: (-pair[1], pair[0]))
        return ranked


def replace_file(writer: Any, searcher: Any, path: str, entries: list[Indexed]) -> None:
    """Make the indexed documents of one file match `entries`, touching only what changed."""
    from whoosh.query import Term

    indexed: dict[tuple[str, str], list[int]] = {}
    for docnum in searcher.docs_for_query(Term("path", path)):
        stored = searcher.stored_fields(docnum)
        indexed.setdefault((stored["id"], stored.get("digest", "")), []).append(docnum)
    for entry, fingerprint in entries:
        unchanged = indexed.get((entry.id, fingerprint))
        if unchanged:
            unchanged.pop()
        else:
            writer.add_document(**to_document(entry, fingerprint))
    for stale in indexed.values():
        for docnum in stale:
            writer.delete_document(docnum)
