"""Keep the index in step with the markdown: reindex only the files that changed."""

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mem.errors import DiskFull, MemError, VaultReadOnly
from mem.index import manifest, notes_file
from mem.index.manifest import FileStamp
from mem.model import Entry, Problem
from mem.services.feedback import QUIET, Feedback
from mem.vault import layout, store
from mem.vault.version import PARSER_VERSION

if TYPE_CHECKING:
    from mem.index.chunk_table import Patch, Table
    from mem.index.context import Indexed
    from mem.index.search_index import SearchIndex
    from mem.services.file_patch import Reading

INDEX_DIR = f"{layout.STATE_DIR}/index"
INDEX_LOCK = INDEX_DIR  # the sidecar lock that serialises index writers across processes
LARGE_REBUILD = 2000  # entries; above this a rebuild shows a progress bar


def parse(vault: Path, ref: layout.FileRef) -> tuple[list[Entry], tuple[Problem, ...]]:
    """Read and parse one category file: (entries, problems)."""
    from mem.vault import entries as entry_codec  # only when a file changed: ~5 ms to import

    parsed = entry_codec.parse_ref(store.read_text(vault, ref.path), ref)
    return parsed.entries, parsed.problems


def indexable(
    vault: Path, ref: layout.FileRef, folder: Path | None = None, since: str = ""
) -> "Reading":
    """Read one category file for the index. Given the index's `folder` and the sha256 of the
    bytes it last indexed (`since`), and a chunk table made from those bytes, only the chunks
    that changed are parsed (see file_patch.py)."""
    from mem.digests import sha256 as hasher
    from mem.index import chunk_table
    from mem.services import file_patch
    from mem.vault import entries as entry_codec

    data = store.read_bytes(vault, ref.path)
    sha256 = hasher(data).hexdigest()
    cut = entry_codec.cut_ref(data.decode("utf-8", errors="replace"), ref)
    old = chunk_table.read(folder, ref.path, since) if folder is not None and since else None
    patch = file_patch.patch_for(cut, sha256, old) if old is not None else None
    if patch is not None:
        return file_patch.Reading(patch, patch.table, sha256)
    found = file_patch.indexed(entry_codec.parse_cut(cut))
    return file_patch.Reading(found, file_patch.whole_table(cut, sha256, found), sha256)


def stamp_of(path: Path) -> FileStamp:
    """Describe a file's current state: size, mtime and a hash of its bytes."""
    from mem.digests import sha256  # only changed files are hashed

    info = os.stat(path)
    return stamp_from(info, sha256(path.read_bytes()).hexdigest())


def stamp_from(info: os.stat_result, sha256: str) -> FileStamp:
    return FileStamp(info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, sha256)


def looks_unchanged(known: FileStamp | None, info: os.stat_result) -> bool:
    """Trust the stat (no hashing) only when size, mtime, ctime and inode all agree."""
    return known is not None and (
        known.size,
        known.mtime_ns,
        known.ctime_ns,
        known.inode,
    ) == (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


def indexed_refs(vault: Path, archive: bool = False) -> list[layout.FileRef]:
    """The category files to bring the index up to date with. The archive only when asked
    for (`--all`, an id lookup): recall never shows it, and a search need not look at its
    files. A compaction that moved many entries there indexes it as it rebuilds the index
    (see rebuild_index); what else reaches it is indexed the first time a search wants it."""
    refs = layout.category_files(vault)
    return refs if archive else [ref for ref in refs if not ref.archived]


def changed_files(
    vault: Path, index: "SearchIndex", refs: list[layout.FileRef], archive: bool
) -> tuple[dict[str, FileStamp], list[str]] | None:
    """Compare the files with the manifest: (stamps of changed files, removed paths), or None
    when the index has no manifest."""
    known = index.manifest()
    return None if known is None else changed_since(vault, known, refs, archive)


def changed_since(
    vault: Path, known: dict[str, FileStamp], refs: list[layout.FileRef], archive: bool
) -> tuple[dict[str, FileStamp], list[str]]:
    """The files of `refs` whose stat differs from their stamp (with their stamps now), and the
    paths stamped that are gone. Without `archive`, stamped archive files are not looked at:
    gone or not, they wait for a search of the archive."""
    changed: dict[str, FileStamp] = {}
    for ref in refs:
        path = vault / ref.path
        try:
            info = os.stat(path)
        except FileNotFoundError:
            continue
        if looks_unchanged(known.get(ref.path), info):
            continue
        changed[ref.path] = stamp_of(path)
    present = {ref.path for ref in refs}
    removed = [
        path for path in known if path not in present and (archive or not is_archive_path(path))
    ]
    return changed, removed


def is_archive_path(path: str) -> bool:
    ref = layout.describe(path)
    return ref is not None and ref.archived


def open_index(vault: Path) -> "SearchIndex":
    """Return the vault's index object (not yet opened, not yet brought up to date)."""
    from mem.index.search_index import SearchIndex  # not on the tool-call path: see fresh_notes

    return SearchIndex(vault / INDEX_DIR, PARSER_VERSION)


def fresh_index(vault: Path, feedback: Feedback = QUIET, archive: bool = False) -> "SearchIndex":
    """Return the vault's index after bringing it up to date with the markdown; with
    `archive`, its archive files too (see indexed_refs)."""
    index = open_index(vault)
    refs = indexed_refs(vault, archive)
    pending = changed_files(vault, index, refs, archive)
    if pending is not None and not pending[0] and not pending[1] and index.is_readable():
        return index  # up to date, and opens (a damaged segment with a good manifest does not)
    try:
        return bring_up_to_date(vault, index, feedback, archive)
    except (VaultReadOnly, DiskFull) as exc:
        # Reading must not need room to write: bring a copy of the index up to date outside
        # the vault, for this command only; failing that, search what the index holds.
        why = "the disk is full" if isinstance(exc, DiskFull) else "the vault is read-only"
        try:
            return index_elsewhere(vault, index, feedback, archive, why)
        except (OSError, MemError):
            if pending is None or not index.is_readable():
                raise exc from None
        feedback.notice(f"{why}, so the index could not be updated; results may miss recent edits")
        return index


def index_elsewhere(
    vault: Path, index: "SearchIndex", feedback: Feedback, archive: bool, why: str
) -> "SearchIndex":
    """A copy of the vault's index in a temporary folder (removed when the process ends),
    brought up to date with the markdown there: the index of a vault no index can be written
    in (a read-only checkout, which git leaves without `.mem/`; a full disk)."""
    import atexit
    import shutil
    import tempfile

    from mem.index.search_index import SearchIndex

    folder = Path(tempfile.mkdtemp(prefix="mem-index-"))
    atexit.register(shutil.rmtree, folder, True)
    copy = SearchIndex(folder / "index", PARSER_VERSION)
    if index.is_readable():
        shutil.copytree(index.folder, copy.folder)
    feedback.notice(f"{why}, so the index is brought up to date in a temporary copy")
    return up_to_date(vault, copy, feedback, archive)


def fresh_notes(vault: Path, words: Sequence[str] = ()) -> Iterator[Entry]:
    """Every lesson and warning, newest first (holding one of the lowercase `words`, when
    given), up to date with the markdown. When no file changed since the index was written
    they come from the file saved beside it, without opening Whoosh: this runs before every
    edit and command an agent makes."""
    folder = vault / INDEX_DIR
    known = manifest.stamps_of(manifest.read_data(folder, manifest.version_of(PARSER_VERSION)))
    if known is not None:
        changed, removed = changed_since(vault, known, indexed_refs(vault), archive=False)
        found = None if changed or removed else notes_file.saved(folder, words)
        if found is not None:
            return found
    return fresh_index(vault).notes(words)


def rebuild_index(vault: Path, feedback: Feedback = QUIET) -> int:
    """Build the index again from the markdown, archive included; return the
    number of entries. After a change to most of the vault (a compaction moves thousands of
    entries) this costs less than an update, which would leave slower, holed segments; and
    the archive it filled is indexed now, not by whichever command next wants it (at 100,000
    entries a `search --all` or an id lookup would wait ~40 s)."""
    index = open_index(vault)
    with store.locked(vault, INDEX_LOCK):
        return rebuild(vault, index, indexed_refs(vault, archive=True), feedback, damaged=False)


def bring_up_to_date(
    vault: Path, index: "SearchIndex", feedback: Feedback, archive: bool = False
) -> "SearchIndex":
    with store.locked(vault, INDEX_LOCK):
        # Another process may have done the work while this one waited for the lock.
        return up_to_date(vault, index, feedback, archive)


def up_to_date(
    vault: Path, index: "SearchIndex", feedback: Feedback, archive: bool
) -> "SearchIndex":
    """Reindex what changed since the index was written, or all of it when it is unreadable."""
    refs = indexed_refs(vault, archive)
    known = index.manifest()
    if known is None or not index.is_readable():
        rebuild(vault, index, refs, feedback, damaged=index.folder.exists())
    else:
        changed, removed = changed_since(vault, known, refs, archive)
        writes = removed or any(not merely_touched(p, s, known) for p, s in changed.items())
        if writes and not index.opens_for_writing():  # readable by mem, not by Whoosh
            rebuild(vault, index, refs, feedback, damaged=True)
            return index
        archived = [
            path
            for path, stamp in changed.items()
            if is_archive_path(path) and not merely_touched(path, stamp, known)
        ]
        if archived:
            feedback.notice(f"indexing the archive ({len(archived)} file(s))")
        update(vault, index, refs, changed, removed, known)
    return index


def update(
    vault: Path,
    index: "SearchIndex",
    refs: list[layout.FileRef],
    changed: dict[str, FileStamp],
    removed: list[str],
    known: dict[str, FileStamp],
) -> None:
    """Reindex the files whose content changed; only restamp those merely touched."""
    by_path = {ref.path: ref for ref in refs}
    batches: dict[str, list[Indexed] | Patch] = {path: [] for path in removed}
    tables: dict[str, Table | None] = dict.fromkeys(removed)
    stamps: dict[str, FileStamp] = {}
    for path, stamp in changed.items():
        if merely_touched(path, stamp, known):
            stamps[path] = stamp  # nothing to index
            continue
        before = known.get(path)
        reading = indexable(vault, by_path[path], index.folder, before.sha256 if before else "")
        batches[path], tables[path] = reading.found, reading.table
        # If the file changed between the stat and the read, leave it marked stale for next time.
        digest = reading.sha256
        stamps[path] = stamp if digest == stamp.sha256 else FileStamp(-1, -1, -1, -1, digest)
    try:
        index.update(batches, stamps, removed, tables)
    except OSError as exc:
        raise store.explain_os_error(exc, INDEX_DIR) from exc


def merely_touched(path: str, stamp: FileStamp, known: dict[str, FileStamp]) -> bool:
    """A file whose stat changed but not its bytes: saved unchanged, checked out again."""
    return path in known and known[path].sha256 == stamp.sha256


HEADER_MARK = b"<!-- id:"  # the start of an entry's header: counted for the notice


def entry_count(vault: Path, archive: bool = False) -> int:
    """About how many entries the category files hold (their headers, counted as bytes)."""
    return entries_in(vault, indexed_refs(vault, archive))


def entries_in(vault: Path, refs: list[layout.FileRef]) -> int:
    return sum(store.read_bytes(vault, ref.path).count(HEADER_MARK) for ref in refs)


def rebuild(
    vault: Path, index: "SearchIndex", refs: list[layout.FileRef], feedback: Feedback, damaged: bool
) -> int:
    """Build the whole index again from the markdown; return the number of entries. Files are
    read one at a time as the writer takes their entries, so memory does not grow with the
    number of entries parsed."""
    from mem.vault import entries as entry_codec

    stamps: dict[str, FileStamp] = {}
    tables: dict[str, Table | None] = {}
    total = entries_in(vault, refs)
    refs = sorted(refs, key=lambda ref: ref.archived)  # the archive last: see index.rebuild

    def entries() -> "Iterator[Indexed]":
        for ref in refs:
            stamp_before = os.stat(vault / ref.path)
            found, tables[ref.path], digest = indexable(vault, ref)
            stamps[ref.path] = stamp_from(stamp_before, digest)
            assert isinstance(found, list)  # read whole: there is no table to patch from
            entry_codec.CHUNKS.clear()  # each chunk is read once here: remembering them costs
            yield from reversed(found)  # bottom first, as updates add them: see top()

    if damaged:
        feedback.notice(f"the index was missing or unreadable; rebuilding it ({total} entries)")
    elif total:
        feedback.notice(f"building the index ({total} entries)")
    progress = feedback.progress if total > LARGE_REBUILD else None
    try:
        return index.rebuild(entries(), total, stamps, progress, tables)
    except OSError as exc:
        raise store.explain_os_error(exc, INDEX_DIR) from exc
