"""Find what is wrong in a vault, and repair what is safe to repair."""

from __future__ import annotations

import os
import re
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mem.config import Settings
from mem.errors import MemError
from mem.model import (
    CATEGORY_OF_KIND,
    KINDS_BY_CATEGORY,
    SHARED_FOLDER,
    DoctorReport,
    Entry,
    Problem,
)
from mem.services.feedback import QUIET, Feedback
from mem.services.refresh import (
    INDEX_DIR,
    bring_up_to_date,
    changed_files,
    indexed_refs,
    open_index,
    rebuild,
)
from mem.vault import entries as entry_codec
from mem.vault import layout, operations, store
from mem.vault.archive import archive_ref
from mem.vault.state import is_alive

STALE_TEMP_SECONDS = 600  # a temp file this old belongs to a writer that died, not a live one


def doctor(
    settings: Settings, fix: bool = False, now: datetime | None = None, feedback: Feedback = QUIET
) -> DoctorReport:
    """Check every category file, the ids across them, and the index."""
    vault = settings.require_vault()
    refs = layout.category_files(vault)
    problems: list[Problem] = []
    seen: dict[str, list[tuple[Entry, str]]] = defaultdict(list)
    entry_count = 0
    for ref in refs:
        try:
            store.read_strict(vault, ref.path)
        except MemError as exc:
            # Not repairable safely: which encoding was meant is the person's call.
            problems.append(Problem("encoding", ref.path, 0, str(exc)))
            continue
        parsed = entry_codec.parse_ref(store.read_text(vault, ref.path), ref)
        entry_count += len(parsed.spans)
        problems.extend(check_separators(vault, ref, parsed, fix))
        problems.extend(check_doubled_headers(vault, ref, parsed, fix))
        problems.extend(check_shared_bodies(vault, ref, parsed, fix))
        problems.extend(
            p
            for p in parsed.problems
            if p.code not in ("missing_separator", "duplicate_header", "shared_body")
        )
        problems.extend(parsed.strays)
        problems.extend(check_frontmatter(vault, ref, parsed, fix))
        # The fixes above may have rewritten the file: ids are judged on what it holds now.
        if fix and (now_text := store.read_text(vault, ref.path)) != parsed.text:
            parsed = entry_codec.parse_ref(now_text, ref)
        for span in parsed.spans:
            seen[span.entry.id].append((span.entry, parsed.text[span.start : span.end]))
    problems.extend(check_duplicates(vault, seen, fix, now))
    problems.extend(check_wrong_files(vault, seen, fix))
    # The fixes above move and rename entries: links are judged where the entries are now.
    by_id = (
        entries_now(vault) if fix else {copies[0][0].id: copies[0][0] for copies in seen.values()}
    )
    problems.extend(check_supersedes(vault, by_id, fix))
    problems.extend(check_temp_files(vault, fix))
    problems.extend(check_kept_saves(vault))
    problems.extend(check_gitignore(vault, fix))
    problems.extend(
        Problem("unsafe_path", path, 0, "a symlink leading out of the vault; mem ignores it")
        for path in layout.links_outside(vault)
    )
    problems.extend(check_index(vault, fix, feedback, frozenset(seen)))
    warnings = check_hook_agents(settings) + check_merge_driver(vault, fix)
    return DoctorReport(tuple(problems), len(refs), entry_count, tuple(warnings))


def check_merge_driver(vault: Path, fix: bool) -> list[Problem]:
    """A clone of a git repository that merges category files by union, line by line (made
    before `mem init` set the driver, or cloned and never initialised): --fix sets it."""
    from mem.services.init import defined_merge_driver, set_merge_driver

    if layout.project_root(vault) is None or defined_merge_driver(vault) != "":
        return []  # no repository, no git to ask, or one defined (mem's or a person's own)
    if fix and set_merge_driver(vault):
        return []
    return [
        Problem(
            "merge_driver",
            ".gitattributes",
            0,
            "this clone merges category files by union, line by line, which can put one "
            "entry's header over another's body; `mem doctor --fix` (or `mem init`) has git "
            "merge them entry by entry",
        )
    ]


def entries_now(vault: Path) -> dict[str, Entry]:
    """The first copy of each id as the category files hold it now (--fix changed them)."""
    found: dict[str, Entry] = {}
    for ref in layout.category_files(vault):
        for entry in entry_codec.parse_ref(store.read_text(vault, ref.path), ref).entries:
            found.setdefault(entry.id, entry)
    return found


def check_hook_agents(settings: Settings) -> list[Problem]:
    """Hooks installed in the project that act as an agent with no entries while other agents
    have some: every session starts with an empty recall, and nothing says why."""
    from mem.config import load_settings
    from mem.services.wired_agents import empty_agent_note, entries_per_agent, hook_agents

    vault = settings.require_vault()
    default = load_settings(vault_flag=str(vault), environ={}).agent  # mem.toml's, not MEM_AGENT
    wired = hook_agents(vault.parent, default)
    if not wired:
        return []
    counts = entries_per_agent(settings)
    return [
        Problem("empty_hook_agent", file, 0, f"the hooks in ../{file} act as {note}")
        for file, agent in wired.items()
        if (note := empty_agent_note(counts, agent))
    ]


def check_doubled_headers(
    vault: Path, ref: layout.FileRef, parsed: entry_codec.ParsedFile, fix: bool
) -> list[Problem]:
    """Entries whose header line a union merge doubled: merged into one line by --fix."""
    found = [p for p in parsed.problems if p.code == "duplicate_header"]
    if not found or not fix:
        return found
    store.update(vault, ref.path, entry_codec.merged_headers)
    how = "merged them (the higher reinforced count, the later seen)"
    return [fixed(p, how) for p in found]


def check_shared_bodies(
    vault: Path, ref: layout.FileRef, parsed: entry_codec.ParsedFile, fix: bool
) -> list[Problem]:
    """Two entries a union merge folded over one body: --fix gives each its own copy, so
    neither is lost (they said the same; both were added)."""
    found = [p for p in parsed.problems if p.code == "shared_body"]
    if not found or not fix:
        return found
    store.update(vault, ref.path, entry_codec.unfolded_bodies)
    return [fixed(p, "gave each entry its own copy of the body") for p in found]


def check_separators(
    vault: Path, ref: layout.FileRef, parsed: entry_codec.ParsedFile, fix: bool
) -> list[Problem]:
    found = [p for p in parsed.problems if p.code == "missing_separator"]
    open_fences = {p.line for p in parsed.problems if p.code == "unclosed_fence"}
    if not found or not fix:
        return found
    # A `---` added after an open fence would sit inside it and close nothing: leave those
    # to a person, who knows where the fence was meant to end.
    unfixable = [p for p in found if p.line in open_fences]
    found = [p for p in found if p.line not in open_fences]
    if not found:
        return unfixable

    def close_entries(old: str) -> str:
        current = entry_codec.parse_ref(old, ref)
        text = old
        for span in reversed(current.spans):
            lines = {p.line for p in current.problems if p.code == "missing_separator"}
            fenced = {p.line for p in current.problems if p.code == "unclosed_fence"}
            if span.entry.line in lines - fenced:
                before = text[: span.end].rstrip("\n")
                text = before + "\n\n---\n\n" + text[span.end :].lstrip("\n")
        return text

    store.update(vault, ref.path, close_entries)
    return [fixed(p, "added the closing `---` line") for p in found] + unfixable


def check_frontmatter(
    vault: Path, ref: layout.FileRef, parsed: entry_codec.ParsedFile, fix: bool
) -> list[Problem]:
    folder_agent = SHARED_FOLDER if ref.scope == "shared" else ref.agent
    if parsed.body_start == 0:
        problem = Problem(
            "frontmatter",
            ref.path,
            1,
            f"file has no frontmatter (agent: {folder_agent}, category: {ref.category})",
        )
        if not fix:
            return [problem]

        def prepend(old: str) -> str:
            if entry_codec.parse_ref(old, ref).body_start:
                return old
            return entry_codec.new_file_text(folder_agent, ref.category) + old

        store.update(vault, ref.path, prepend)
        return [fixed(problem, "added the frontmatter")]
    metadata = entry_codec.read_frontmatter(parsed.text)
    wrong = [
        f"{key}: {metadata.get(key)!r} (the folder says {want!r})"
        for key, want in (("agent", folder_agent), ("category", ref.category))
        if key in metadata and str(metadata[key]) != want
    ]
    return (
        [
            Problem(
                "frontmatter",
                ref.path,
                1,
                "frontmatter disagrees with the file's place: " + "; ".join(wrong),
            )
        ]
        if wrong
        else []
    )


def check_duplicates(
    vault: Path, seen: dict[str, list[tuple[Entry, str]]], fix: bool, now: datetime | None
) -> list[Problem]:
    problems = []
    for entry_id, copies in seen.items():
        if len(copies) < 2:
            continue
        copies, moved = without_interrupted_moves(vault, entry_id, copies, fix)
        problems += moved
        if len(copies) < 2:
            continue
        first, first_block = copies[0]
        for entry, block in copies[1:]:
            # Only a twin in the same file is what a union merge leaves; an identical copy in
            # another agent's file may be that agent's own memory, so it is never removed.
            twin = block.strip() == first_block.strip() and entry.path == first.path
            problem = Problem(
                "duplicate_id",
                entry.path,
                entry.line,
                f"id {entry_id} is also used at {first.path}:{first.line}"
                + (" (identical copy)" if twin else ""),
            )
            if not fix:
                problems.append(problem)
            elif twin:
                done = operations.replace_block(
                    vault, entry.path, entry_id, block, lambda _: "", last=True
                )
                problems.append(fixed(problem, "removed the identical copy") if done else problem)
            else:
                new_id = entry_codec.new_entry_id(now or datetime.now(UTC))
                done = operations.replace_block(
                    vault, entry.path, entry_id, block, renamer(entry_id, new_id)
                )
                problems.append(
                    fixed(problem, f"gave the second entry the new id {new_id}")
                    if done
                    else problem
                )
    return problems


def without_interrupted_moves(
    vault: Path, entry_id: str, copies: list[tuple[Entry, str]], fix: bool
) -> tuple[list[tuple[Entry, str]], list[Problem]]:
    """Copies of an entry in a category file and in its own archive: a compaction (or a move)
    stopped between writing the archive and rewriting the file. The move is finished, as the
    next `mem compact` would: the archive keeps the entry (as the file last had it) and the
    file lets it go. Never a new id: that would archive the entry twice. Returns the copies
    left to judge as duplicates, and the problems found."""
    problems = []
    for entry, block in list(copies):
        ref = layout.describe(entry.path)
        if ref is None or ref.archived:
            continue
        home = archive_ref(ref).path
        stored = next(((e, b) for e, b in copies if e.path == home), None)
        if stored is None:
            continue
        problem = Problem(
            "interrupted_move",
            entry.path,
            entry.line,
            f"entry {entry_id} is also in {home}: a compaction stopped midway "
            "(`mem doctor --fix` or `mem compact` finishes it)",
        )
        copies = [(e, b) for e, b in copies if e.path != entry.path]
        if not fix:
            problems.append(problem)
            continue
        archived_block = stored[1]
        # The file's copy may have changed since (an edit, a reinforcement): it wins, with the
        # keys only the archive's has (a merged branch forgot the entry, then compacted). The
        # file lets it go only once the archive holds it as the file does.
        moved = entry_codec.with_keys_of(archived_block, block)
        kept = moved.strip() == archived_block.strip() or operations.replace_block(
            vault, home, entry_id, archived_block, replaced_by(moved)
        )
        done = kept and operations.replace_block(vault, entry.path, entry_id, block, lambda _: "")
        problems.append(fixed(problem, f"finished the move to {home}") if done else problem)
    return copies, problems


def replaced_by(block: str) -> Callable[[str], str]:
    """Return an edit that puts `block` in place of the one it is given."""
    return lambda _: block


def renamer(old_id: str, new_id: str) -> Callable[[str], str]:
    """Return an edit that changes the id in a block's header line."""

    def rename(block: str) -> str:
        return block.replace(f"id:{old_id}", f"id:{new_id}", 1)

    return rename


def check_wrong_files(
    vault: Path, seen: dict[str, list[tuple[Entry, str]]], fix: bool
) -> list[Problem]:
    problems = []
    for copies in seen.values():
        for entry, block in copies:
            if entry.kind in KINDS_BY_CATEGORY.get(entry.category, ()):
                continue
            home = CATEGORY_OF_KIND.get(entry.kind)
            problem = Problem(
                "wrong_file",
                entry.path,
                entry.line,
                f"entry {entry.id} of kind {entry.kind} is in {entry.category}"
                + (f"; it belongs in {home}" if home else "; the kind is unknown"),
            )
            # A duplicated id is ambiguous to move: fix the duplicate first, on a later run.
            if fix and home and len(copies) == 1 and move_entry(vault, entry, block, home):
                problems.append(fixed(problem, f"moved it to {home}"))
            else:
                problems.append(problem)
    return problems


def move_entry(vault: Path, entry: Entry, block: str, category: str) -> bool:
    """Move an entry block, byte for byte, to another category file of the same folder."""
    source = layout.describe(entry.path)
    if source is None:
        return False
    target = layout.file_ref(entry.agent, category, source.scope, source.archived)
    moved = block.rstrip("\n") + "\n\n"

    def insert(old: str) -> str:
        current = old or entry_codec.new_file_text(entry.agent, category)
        parsed = entry_codec.parse_ref(current, target)
        if any(current[span.start : span.end] == block for span in parsed.spans):
            return current  # already there: an earlier run stopped between its two steps
        return entry_codec.insert_entry(parsed, moved)

    # Insert first, then remove: a crash in between leaves a duplicate, never a loss.
    store.update(vault, target.path, insert)
    return operations.replace_block(vault, entry.path, entry.id, block, lambda _: "")


def check_supersedes(vault: Path, by_id: dict[str, Entry], fix: bool) -> list[Problem]:
    problems = []
    for entry in by_id.values():
        older_id = entry.get("supersedes")
        older = by_id.get(older_id) if older_id else None
        if older is None or older.get("superseded-by"):
            continue
        problem = Problem(
            "supersedes",
            older.path,
            older.line,
            f"entry {entry.id} supersedes {older.id}, which does not say so",
        )
        if fix:
            set_back_link(vault, older, entry.id)
            problems.append(fixed(problem, f"marked it superseded-by:{entry.id}"))
        else:
            problems.append(problem)
    return problems


def set_back_link(vault: Path, older: Entry, newer_id: str) -> None:
    operations.set_header(vault, older, {"superseded-by": newer_id})


TEMP_NAME = re.compile(r"^\..+\.(?P<pid>\d+)-[0-9a-f]+\.tmp$")
IGNORE_TEMP = ".*.tmp"  # the .gitignore line that keeps half-written files out of git


def check_temp_files(vault: Path, fix: bool) -> list[Problem]:
    """Temp files a killed writer left anywhere in the vault (its own state aside): stale when
    the process that wrote one is gone, or when it is old."""
    problems = []
    for path in sorted(vault.rglob(".*.tmp")):
        relative = path.relative_to(vault)
        if relative.parts[0] in (".mem", ".git") or not path.is_file():
            continue
        named = TEMP_NAME.match(path.name)
        owner = f"{os.uname().nodename}:{named['pid']}" if named else ""
        alive = bool(owner) and is_alive(owner)
        if alive and time.time() - path.stat().st_mtime < STALE_TEMP_SECONDS:
            continue  # a write in progress
        problem = Problem(
            "temp_file", relative.as_posix(), 0, "temp file left by an interrupted write"
        )
        if fix:
            path.unlink(missing_ok=True)
            problems.append(fixed(problem, "removed it"))
        else:
            problems.append(problem)
    return problems


KEPT_SAVE = ".kept-"  # see store.undo_exchange


def check_kept_saves(vault: Path) -> list[Problem]:
    """Saves an editor made twice in the instant mem wrote the file, kept beside it: only a
    person can merge them, so --fix leaves them be."""
    return [
        Problem(
            "kept_save",
            path.relative_to(vault).as_posix(),
            0,
            f"an editor's save kept while mem wrote {path.name.split(KEPT_SAVE)[0]}: merge "
            "what it holds into that file by hand, then delete it",
        )
        for path in sorted(vault.rglob(f"*{KEPT_SAVE}*"))
        if path.is_file() and path.relative_to(vault).parts[0] not in (".mem", ".git")
    ]


def check_gitignore(vault: Path, fix: bool) -> list[Problem]:
    """The vault's .gitignore keeps temp files out of git (vaults made before it did)."""
    ignore = vault / ".gitignore"
    try:
        lines = ignore.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []  # no .gitignore (a vault made by hand, outside git): nothing to keep out
    if IGNORE_TEMP in (line.strip() for line in lines):
        return []
    problem = Problem("gitignore", ".gitignore", 0, f"does not ignore temp files ({IGNORE_TEMP})")
    if not fix:
        return [problem]
    text = "\n".join(lines) + "\n"
    text += f"# Half-written files of a write that was interrupted.\n{IGNORE_TEMP}\n"
    store.write_atomic(vault, ".gitignore", text)
    return [fixed(problem, f"added {IGNORE_TEMP}")]


def check_index(vault: Path, fix: bool, feedback: Feedback, held: frozenset[str]) -> list[Problem]:
    """Find an index behind the markdown; with `fix`, bring it up to date (always safe: it is
    a cache). Without, write nothing: a read-only vault is checked all the same. `held`: the
    ids some category file or archive holds now (an entry that moved has not vanished)."""
    index = open_index(vault)
    refs = indexed_refs(vault)  # the archive is indexed when a search wants it
    pending = changed_files(vault, index, refs, archive=False)
    if pending is None or not index.is_readable():
        existed = index.folder.exists()
        problem = Problem("stale_index", INDEX_DIR, 0, "the index is unreadable")
        if existed and not fix:
            return [would(problem, "rebuild it")]
        if fix:
            with store.locked(vault, INDEX_DIR):
                rebuild(vault, index, refs, feedback, damaged=False)
        # Never built yet (a fresh clone) is nothing wrong: the first search builds it.
        return [fixed(problem, "rebuilt it")] if existed else []
    changed, removed = pending
    if not changed and not removed:
        return []
    gone = vanished(vault, index, [*changed, *removed], held)
    problem = Problem(
        "stale_index", INDEX_DIR, 0, f"{len(changed) + len(removed)} file(s) changed since indexed"
    )
    if not fix:
        return [
            *(would(p, "accept the file as it is") for p in gone),
            would(problem, "reindex them"),
        ]
    bring_up_to_date(vault, index, feedback)
    return [
        *(fixed(p, "accepted the file as it is") for p in gone),
        fixed(problem, "reindexed them"),
    ]


def vanished(vault: Path, index: Any, paths: list[str], held: frozenset[str]) -> list[Problem]:
    """Entries the index last saw in a file that the file no longer holds, nor any other (a
    compaction merged from another branch moves them to the archive): a person deleted them,
    or an editor saved a copy it read before a write of mem's (which the write cannot see).
    Said before the reindex forgets them; git has their text."""
    found = []
    for path in paths:
        ref = layout.describe(path)
        if ref is None:
            continue
        now = {
            entry.id for entry in entry_codec.parse_ref(store.read_text(vault, path), ref).entries
        }
        missing = sorted(index.ids_in(path) - now - held)
        if not missing:
            continue
        shown = ", ".join(missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        )
        found.append(
            Problem(
                "vanished_entry",
                path,
                0,
                f"{len(missing)} entr{'y' if len(missing) == 1 else 'ies'} the index last saw here "
                f"are gone from the file ({shown}): deleted by hand, or an editor saved an older "
                "copy over a write of mem's; `git diff` shows them",
            )
        )
    return found


def fixed(problem: Problem, how: str) -> Problem:
    return Problem(problem.code, problem.path, problem.line, f"{problem.message}; {how}", True)


def would(problem: Problem, how: str) -> Problem:
    """The problem, saying what `--fix` would do about it (it was not asked to)."""
    return problem._replace(message=f"{problem.message}; `mem doctor --fix` would {how}")
