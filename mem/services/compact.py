"""`mem compact`: keep the files agents and people read small, and lose nothing.

Entries age through three tiers:
- hot (up to HOT_DAYS old): never touched;
- handoffs older than HOT_DAYS roll up into one per week, weeks older than a month into one per
  month (see rollups.py);
- warm (up to COLD_DAYS): near-duplicates merge (the most reinforced survives, reinforced by
  the others, which it supersedes; a text that says something failed never merges with one that
  says it worked), and superseded entries go to the archive;
- cold (older): in each category file the KEEP_NEWEST newest stay, with every pinned entry,
  every open task and the KEEP_FACTS most important facts; the rest go to the archive.
An entry past its `expires:` date goes to the archive whatever its age.

Everything that leaves a hot file is in `archive/<category>.md` (still found by `mem search
--all`, never recalled), written there before it is taken out, so a run killed at any point
loses nothing and the next run finishes the move. A second run finds nothing to do and writes
nothing. Expired and damaged checkpoints and the `.md.bak` files a migration left are removed.
Every step goes to `.mem/compact-log.jsonl`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple

from mem.config import Settings
from mem.model import Entry
from mem.services.feedback import QUIET, Feedback
from mem.services.refresh import parse
from mem.vault import layout, state, store

HOT_DAYS = 7
COLD_DAYS = 30
KEEP_NEWEST = 20  # per category file, whatever their age
KEEP_FACTS = 10  # the most important cold facts of a file stay too
CHECKPOINT_DAYS = 7
LOG_FILE = f"{layout.STATE_DIR}/compact-log.jsonl"
RUN_LOCK = f"{layout.STATE_DIR}/compact"
REBUILD_AT = 200  # entries moved past which the index is built again rather than updated
CAPTURED = ("commit", "import")  # `source:` values of entries no person wrote


class Step(NamedTuple):
    """One thing compact did (or, in a dry run, would do)."""

    action: str  # share | roll-up | merge | archive | remove-checkpoint | remove-backup
    path: str  # vault-relative
    ids: tuple[str, ...] = ()
    reason: str = ""  # a roll-up's period | near-duplicate | expired | rolled-up | superseded
    # | cold | damaged | old


FAILED = re.compile(
    r"\b(?:fail(?:s|ed|ing|ure)?|broke(?:n)?|break(?:s)?|(?:did|does|do)\s*(?:n't|not)\s+work"
    r"|never\s+work(?:s|ed)?|regress(?:ed|ion)?|revert(?:ed)?|crash(?:es|ed)?|wrong)\b",
    re.IGNORECASE,
)


class CompactReport(NamedTuple):
    steps: tuple[Step, ...]
    files: int  # category files looked at
    kept: int  # entries left in them
    dry_run: bool


def importance(entry: Entry) -> float:
    """How much an entry is worth keeping in view, from what the vault knows of it: each time
    it was seen again counts 1; each further agent that holds it (a shared entry's `by:`) 2; a
    person writing it rather than a capture 2; pinned, everything. Superseded: nothing."""
    if entry.is_superseded:
        return 0.0
    if entry.is_pinned:
        return float("inf")
    holders = [name for name in entry.get("by").split(",") if name.strip()]
    by_hand = not entry.get("source").startswith(CAPTURED)
    return entry.reinforced + 2.0 * max(0, len(holders) - 1) + (2.0 if by_hand else 0.0)


def leaving(entries: list[Entry], now: datetime) -> dict[str, str]:
    """The entries of one category file that go to the archive, and why."""
    hot, cold = now - timedelta(days=HOT_DAYS), now - timedelta(days=COLD_DAYS)
    reasons: dict[str, str] = {}
    for entry in entries:
        if entry.has_expired(now):
            reasons[entry.id] = "expired"
        elif entry.get("rolled-into"):
            reasons[entry.id] = "rolled-up"
        elif entry.is_superseded and entry.date < hot:
            reasons[entry.id] = "superseded"
    staying = [e for e in entries if e.id not in reasons]
    if not staying or staying[0].category == "handoffs":
        return reasons  # handoffs leave by roll-up, not by count
    newest = sorted(staying, key=lambda e: (e.date, e.id), reverse=True)[:KEEP_NEWEST]
    facts = sorted(
        (e for e in staying if e.category == "facts"),
        key=lambda e: (importance(e), e.date),
        reverse=True,
    )[:KEEP_FACTS]
    kept = {e.id for e in (*newest, *facts)}
    for entry in staying:
        stays = entry.id in kept or entry.is_pinned or entry.is_open_task
        if entry.date < cold and not stays:
            reasons[entry.id] = "cold"
    return reasons


def merges(entries: list[Entry], now: datetime) -> dict[str, list[Entry]]:
    """Near-duplicates among the warm entries of one file: survivor id -> the entries it
    absorbs. The survivor is the most reinforced, then the newest; an entry that says something
    failed and one that does not are never one."""
    from mem.extract import dedupe

    hot, cold = now - timedelta(days=HOT_DAYS), now - timedelta(days=COLD_DAYS)
    warm = [
        e
        for e in entries
        if cold <= e.date < hot and not e.is_superseded and e.category != "handoffs"
    ]
    warm.sort(key=lambda e: (e.reinforced, e.date, e.id), reverse=True)
    # What each text says, and its polarity, once: not once per pair compared.
    texts = {e.id: dedupe.said(e.body) for e in warm}
    failed = {e.id: bool(FAILED.search(e.body)) for e in warm}
    taken: set[str] = set()
    groups: dict[str, list[Entry]] = {}
    for n, survivor in enumerate(warm):
        if survivor.id in taken:
            continue
        for other in warm[n + 1 :]:
            if other.id in taken or other.is_pinned or other.is_open_task:
                continue
            if failed[other.id] != failed[survivor.id]:
                continue  # "X failed" and "X worked" are two things to know
            if dedupe.alike(texts[survivor.id], texts[other.id]):
                groups.setdefault(survivor.id, []).append(other)
                taken.add(other.id)
        taken.add(survivor.id)
    return groups


def share_due(vault: Path, ref: layout.FileRef, moment: datetime, dry_run: bool) -> list[Step]:
    """Private entries whose `share-after:` has come become the agent's own (committed) entries:
    written to the agent's file first, then taken out of the private one."""
    from mem.vault.archive import move_entries

    def due(entries: list[Entry]) -> list[str]:
        return [
            entry.id
            for entry in entries
            if (when := entry.moment_of("share-after")) is not None and when <= moment
        ]

    if dry_run:
        ids = due(parse(vault, ref)[0])
    else:
        target = layout.file_ref(ref.agent, ref.category, "agent")
        ids = [e.id for e in move_entries(vault, ref, target, due, finish_copies=False)]
    return [Step("share", ref.path, tuple(sorted(ids)), "share-after")] if ids else []


def merge_duplicates(
    vault: Path, ref: layout.FileRef, moment: datetime, dry_run: bool
) -> list[Step]:
    """Merge the warm near-duplicates of one file: the survivor counts the others' sightings
    and names them (`supersedes:`), each names it back (`superseded-by:`); the archive pass
    then takes them out."""
    from mem.vault import entries as entry_codec

    steps: list[Step] = []

    def change(text: str) -> str:
        parsed = entry_codec.parse_ref(text, ref)
        found = merges(list(parsed.entries), moment)
        if not found:
            return text
        by_id = {entry.id: entry for entry in parsed.entries}
        updates: dict[str, dict[str, str | None]] = {}
        for survivor_id, others in found.items():
            survivor = by_id[survivor_id]
            earlier = [i for i in survivor.get("supersedes").split(",") if i]
            gained = sum(other.reinforced + 1 for other in others)
            updates[survivor_id] = {
                "reinforced": str(survivor.reinforced + gained),
                "supersedes": ",".join(dict.fromkeys([*earlier, *(o.id for o in others)])),
            }
            for other in others:
                updates[other.id] = {"superseded-by": survivor_id}
            steps.append(
                Step("merge", ref.path, (survivor_id, *(o.id for o in others)), "near-duplicate")
            )
        return text if dry_run else entry_codec.with_headers(parsed, updates)

    store.update(vault, ref.path, change, dry_run)
    return steps


def compact(
    settings: Settings,
    dry_run: bool = False,
    now: datetime | None = None,
    feedback: Feedback = QUIET,
) -> CompactReport:
    """Compact the vault (see the module's docstring); with `dry_run`, say what would go."""
    from mem.services.rollups import roll_up

    vault = settings.require_vault()
    moment = now or datetime.now(UTC)
    steps: list[Step] = []
    kept = 0
    with store.locked(vault, RUN_LOCK):
        steps += stale_checkpoints(vault, moment, dry_run)
        steps += migration_backups(vault, dry_run)
        refs = [ref for ref in layout.category_files(vault) if not ref.archived]
        for done, ref in enumerate(refs, start=1):
            if ref.category == "handoffs":
                for period, rollup_id, ids in roll_up(vault, ref, moment, dry_run):
                    steps.append(Step("roll-up", ref.path, (rollup_id, *ids), period))
                forget_chunks()
            if ref.scope == "private":
                steps += share_due(vault, ref, moment, dry_run)
            steps += merge_duplicates(vault, ref, moment, dry_run)
            forget_chunks()
            archived, staying = archive_file(vault, ref, moment, dry_run)
            kept += staying
            steps += archived
            forget_chunks()
            if feedback.progress is not None and len(refs) > 1:
                feedback.progress(done, len(refs))
        if not dry_run:
            write_log(vault, steps, moment)
            count = sum(len(step.ids) for step in steps if step.action == "archive")
            if count >= REBUILD_AT:
                from mem.services.reindex import rebuild_apart

                rebuild_apart(vault, feedback)
            elif steps:
                from mem.services.refresh import fresh_index

                fresh_index(vault, feedback)
    return CompactReport(tuple(steps), len(refs), kept, dry_run)


def forget_chunks() -> None:
    """Let the parser forget the chunks it remembers (to read the next version of a text
    quickly) once a step is done with a file: every step rewrites it, and at 100,000 entries
    the chunks of a large file's versions held ~12 MB more at the compaction's peak."""
    from mem.vault import entries as entry_codec

    entry_codec.CHUNKS.clear()


def archive_file(
    vault: Path, ref: layout.FileRef, moment: datetime, dry_run: bool
) -> tuple[list[Step], int]:
    """Move what `leaving` picks out of one category file; (steps, entries that stay)."""
    from mem.vault.archive import move_to_archive

    why: dict[str, str] = {}
    seen: list[int] = []

    def choose(entries: list[Entry]) -> list[str]:
        seen.append(len(entries))
        why.update(leaving(entries, moment))
        return list(why)

    if dry_run:
        choose(parse(vault, ref)[0])
    else:
        move_to_archive(vault, ref, choose)
    return archive_steps(ref.path, why), (seen[0] - len(why)) if seen else 0


def archive_steps(path: str, why: dict[str, str]) -> list[Step]:
    by_reason: dict[str, list[str]] = {}
    for entry_id, reason in why.items():
        by_reason.setdefault(reason, []).append(entry_id)
    return [
        Step("archive", path, tuple(sorted(ids)), reason)
        for reason, ids in sorted(by_reason.items())
    ]


def stale_checkpoints(vault: Path, now: datetime, dry_run: bool) -> list[Step]:
    """Checkpoints older than CHECKPOINT_DAYS (recall ignores them already) and damaged ones."""
    steps = []
    folder = vault / state.STATE_FOLDER
    for path in sorted(folder.glob("*/checkpoint.json")) if folder.is_dir() else ():
        agent = path.parent.name
        checkpoint = state.read_checkpoint(vault, agent)
        if checkpoint is None:
            reason = "damaged"
        elif now - checkpoint.saved > timedelta(days=CHECKPOINT_DAYS):
            reason = "old"
        else:
            continue
        if not dry_run:
            path.unlink(missing_ok=True)
        steps.append(Step("remove-checkpoint", path.relative_to(vault).as_posix(), (), reason))
    return steps


def migration_backups(vault: Path, dry_run: bool) -> list[Step]:
    """The `.md.bak` copies `mem migrate` keeps of the files it converted."""
    steps = []
    for path in sorted(backups(vault)):
        if not dry_run:
            path.unlink(missing_ok=True)
        steps.append(Step("remove-backup", path.relative_to(vault).as_posix()))
    return steps


def backups(vault: Path) -> Iterable[Path]:
    for root, folders, files in os.walk(vault):
        folders[:] = [name for name in folders if name not in (".git", layout.STATE_DIR)]
        for name in files:
            if name.endswith(".md.bak"):
                yield Path(root) / name


def write_log(vault: Path, steps: list[Step], moment: datetime) -> None:
    """Append one JSON line per step; nothing when nothing was done (a second run)."""
    if not steps:
        return
    stamp = f"{moment.astimezone(UTC):%Y-%m-%dT%H:%M:%SZ}"
    lines = "".join(
        json.dumps({"at": stamp, **step._asdict()}, ensure_ascii=False) + "\n" for step in steps
    )
    path = vault / LOG_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as log:
        log.write(lines)
