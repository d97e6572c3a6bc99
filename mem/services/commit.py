"""`mem commit`: store what is worth keeping from agent output, deduplicated and redacted."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from mem.config import Settings, check_agent
from mem.errors import InvalidInput
from mem.extract import dedupe, formats, patterns
from mem.extract.capture import Capture
from mem.extract.redact import redact
from mem.extract.summary import SessionSummary
from mem.model import SHARED_FOLDER, CommitReport, Entry
from mem.services.add import check_others_unchanged, set_header
from mem.vault import entries as entry_codec
from mem.vault import layout, state, store

SOURCE = "commit"
MAX_CANDIDATES = 500  # per run: a runaway log must not become a runaway memory
MAX_FACTS = 50  # per agent; the least reinforced, oldest go to the archive
PROMOTE_AT = 3  # times a fact is reinforced before every agent should know it


@dataclass
class Batch:
    """Candidates gathered from one run's output, deduplicated among themselves."""

    by_category: dict[str, list[patterns.Candidate]] = field(default_factory=dict)
    count: int = 0

    def add(self, candidate: patterns.Candidate) -> None:
        kept = self.by_category.setdefault(candidate.category, [])
        if self.count >= MAX_CANDIDATES or any(
            dedupe.is_same(candidate.text, other.text) for other in kept
        ):
            return
        kept.append(candidate)
        self.count += 1


@dataclass
class FileResult:
    added: list[Entry] = field(default_factory=list)
    reinforced: list[Entry] = field(default_factory=list)


def lines_of(stream: BinaryIO, copy: BinaryIO | None = None) -> Iterator[str]:
    """Stream agent output as lines of text (undecodable bytes replaced, NULs dropped),
    copying the raw bytes to `copy` as they pass (`mem commit --tee`)."""
    for raw in stream:
        if copy is not None:
            copy.write(raw)
            copy.flush()
        yield raw.decode("utf-8", errors="replace").replace("\x00", "")


def commit(
    settings: Settings,
    lines: Iterable[str],
    output_format: str = "auto",
    dry_run: bool = False,
    now: datetime | None = None,
    hand_off: bool = True,
) -> CommitReport:
    """Read agent output line by line, extract, redact, dedupe and store what is worth keeping.

    With `hand_off` off (an interrupted run), no handoff is written and the checkpoint stays.
    """
    agent = check_agent(settings.agent)
    vault = settings.require_vault()
    if output_format != "auto" and output_format not in formats.FORMATS:
        raise InvalidInput(
            f"unknown format {output_format!r}; use auto or one of {', '.join(formats.FORMATS)}"
        )
    moment = now or datetime.now(UTC)
    head, rest = peek(iter(lines))
    fmt = formats.detect(head) if output_format == "auto" else output_format
    batch = Batch()
    summary = SessionSummary()
    capture = Capture()
    redactions = messages = 0
    seen_text = False
    counter = [0]  # redactions in paths and commit subjects
    for message in formats.read(fmt, chain(head, rest)):
        messages += 1
        text, found = redact(message.text) if message.text else ("", 0)
        redactions += found
        # Commit subjects and paths reach the handoff too: a secret can hide in either.
        files = tuple(redacted(path, counter) for path in message.files)
        commits = tuple(redacted(commit, counter) for commit in message.commits)
        seen_text = seen_text or bool(text.strip() or files or commits)
        candidates = capture.mine(message._replace(commits=commits), text)
        for candidate in candidates:
            batch.add(candidate)
        summary.take(
            formats.Message(
                message.role,
                text,
                files,
                commits,
                message.input_tokens,
                message.output_tokens,
            ),
            candidates,
        )
    for candidate in capture.finish():
        batch.add(candidate)
    summary.drop_commits(capture.undone)
    redactions += counter[0]
    if not seen_text:
        return CommitReport(fmt, messages, (), (), (), (), None, redactions, dry_run, True)

    added: list[Entry] = []
    reinforced: list[Entry] = []
    for category, candidates in batch.by_category.items():
        result = store_candidates(
            vault, layout.file_ref(agent, category), candidates, moment, dry_run
        )
        added += result.added
        reinforced += result.reinforced
    handoff = None
    body = summary.render() if hand_off else ""
    if body:
        handoff = store_candidates(
            vault,
            layout.file_ref(agent, "handoffs"),
            [patterns.Candidate("handoffs", "handoff", body)],
            moment,
            dry_run,
            dedupe_=False,
        ).added[0]
        if not dry_run:
            state.clear_checkpoint(vault, agent)  # the handoff says where things stand now
    archived = [] if dry_run else cap_facts(vault, agent)
    promoted = [] if dry_run else promote_facts(vault, agent, moment)
    return CommitReport(
        fmt,
        messages,
        tuple(added),
        tuple(reinforced),
        tuple(promoted),
        tuple(archived),
        handoff,
        redactions,
        dry_run,
        False,
    )


def redacted(text: str, counter: list[int]) -> str:
    clean, found = redact(text)
    counter[0] += found
    return clean


def peek(lines: Iterator[str]) -> tuple[list[str], Iterator[str]]:
    """Read just enough lines to detect the format, keeping them for the reader."""
    head: list[str] = []
    non_empty = 0
    for line in lines:
        head.append(line)
        non_empty += bool(line.strip())
        if non_empty >= formats.DETECT_LINES:
            break
    return head, lines


def chain(head: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from head
    yield from rest


def store_candidates(
    vault: Path,
    ref: layout.FileRef,
    candidates: list[patterns.Candidate],
    moment: datetime,
    dry_run: bool,
    dedupe_: bool = True,
) -> FileResult:
    """Under the file's lock, reinforce what it already holds and insert what is new."""
    result = FileResult()
    folder_agent = SHARED_FOLDER if ref.scope == "shared" else ref.agent

    def merge(old: str) -> str:
        result.added.clear()
        result.reinforced.clear()
        text = old or entry_codec.new_file_text(folder_agent, ref.category)
        parsed = entry_codec.parse_ref(text, ref)
        live = [span.entry for span in parsed.spans if not span.entry.is_superseded]
        times: dict[str, int] = {}
        blocks: list[str] = []
        new_ids: list[str] = []
        for candidate in candidates:
            twin = find_twin(live, candidate.text) if dedupe_ else None
            if twin is not None:
                times[twin.id] = times.get(twin.id, 0) + 1
                continue
            entry_id = entry_codec.new_entry_id(moment)
            body = f"- [ ] {candidate.text}" if candidate.category == "tasks" else candidate.text
            blocks.append(
                entry_codec.render_entry(
                    entry_id, moment, (), body, (("kind", candidate.kind), ("source", SOURCE))
                )
            )
            new_ids.append(entry_id)
        by_id = {entry.id: entry for entry in live}
        text = entry_codec.with_headers(
            parsed,
            {
                entry_id: reinforcement(by_id[entry_id], count, moment)
                for entry_id, count in times.items()
            },
        )
        if blocks:
            # Newest first: the last candidate ends up on top, as if added one by one.
            text = entry_codec.insert_entry(
                entry_codec.parse_ref(text, ref), "".join(reversed(blocks))
            )
        after = entry_codec.parse_ref(text, ref)
        check_others_unchanged(parsed, after, set(times) | set(new_ids), ref.path)
        result.added.extend(span.entry for span in after.spans if span.entry.id in new_ids)
        result.reinforced.extend(span.entry for span in after.spans if span.entry.id in times)
        return text

    if dry_run:
        merge(store.read_text(vault, ref.path))
    else:
        store.update(vault, ref.path, merge)
    return result


def find_twin(entries: list[Entry], text: str) -> Entry | None:
    """Return the live entry that already says `text`, if any."""
    for entry in entries:
        if dedupe.is_same(entry.body.removeprefix("- [ ] "), text):
            return entry
    return None


def reinforcement(entry: Entry, times: int, moment: datetime) -> dict[str, str | None]:
    """The header change that records an entry seen `times` more times at `moment`."""
    return {"reinforced": str(entry.reinforced + times), "seen": entry_codec.format_date(moment)}


def cap_facts(vault: Path, agent: str) -> list[Entry]:
    """Keep at most MAX_FACTS live facts per agent: move the least reinforced, oldest out."""
    ref = layout.file_ref(agent, "facts")
    archive = layout.file_ref(agent, "facts", archived=True)
    moved: list[Entry] = []
    with store.locked(vault, ref.path):
        parsed = entry_codec.parse_ref(store.read_strict(vault, ref.path), ref)
        live = [s for s in parsed.spans if not s.entry.is_superseded and not s.entry.is_pinned]
        # A crash after the archive write but before the removal leaves copies in both files:
        # those leave the hot file first, and are not archived again.
        archived = {
            entry.id
            for entry in entry_codec.parse_ref(
                store.read_text(vault, archive.path), archive
            ).entries
        }
        already = [span for span in live if span.entry.id in archived]
        rest = [span for span in live if span.entry.id not in archived]
        if len(rest) <= MAX_FACTS and not already:
            return []
        rest.sort(key=lambda span: (span.entry.reinforced, span.entry.date))
        leaving = already + rest[: max(0, len(rest) - MAX_FACTS)]

        def add_to_archive(old: str) -> str:
            text = old or entry_codec.new_file_text(agent, "facts")
            present = {entry.id for entry in entry_codec.parse_ref(text, archive).entries}
            for span in leaving:
                if span.entry.id not in present:
                    block = parsed.text[span.start : span.end].rstrip("\n") + "\n\n"
                    text = entry_codec.insert_entry(entry_codec.parse_ref(text, archive), block)
            return text

        # Archive first, then remove: a crash in between leaves a copy, never a loss.
        store.update(vault, archive.path, add_to_archive)
        text = parsed.text
        for span in sorted(leaving, key=lambda s: s.start, reverse=True):
            text = text[: span.start] + text[span.end :].lstrip("\r\n")
        store.write_atomic(vault, ref.path, text)
        moved = [span.entry for span in leaving if span.entry.id not in archived]
    return moved


def promote_facts(vault: Path, agent: str, moment: datetime) -> list[Entry]:
    """Share a fact reinforced PROMOTE_AT times, or one another agent also holds."""
    ref = layout.file_ref(agent, "facts")
    parsed = entry_codec.parse_ref(store.read_text(vault, ref.path), ref)
    others = {
        other: entry_codec.parse_ref(
            store.read_text(vault, layout.file_ref(other, "facts").path),
            layout.file_ref(other, "facts"),
        ).entries
        for other in layout.agents(vault)
        if other != agent
    }
    promoted: list[Entry] = []
    for entry in parsed.entries:
        if entry.is_superseded or entry.get("promoted"):
            continue
        confirmed_by = sorted(
            other
            for other, facts in others.items()
            if any(
                dedupe.is_same(entry.body, fact.body) for fact in facts if not fact.is_superseded
            )
        )
        if entry.reinforced < PROMOTE_AT and not confirmed_by:
            continue
        shared = share(vault, entry, [agent, *confirmed_by], moment)
        promoted.append(shared)
        set_header(vault, entry, {"promoted": shared.id})
    return promoted


def share(vault: Path, entry: Entry, agents: list[str], moment: datetime) -> Entry:
    """Put a fact in `_shared/facts.md` (or reinforce the one there), listing who holds it."""
    ref = layout.file_ref(entry.agent, "facts", scope="shared")
    result: list[Entry] = []

    def merge(old: str) -> str:
        result.clear()
        text = old or entry_codec.new_file_text(SHARED_FOLDER, "facts")
        parsed = entry_codec.parse_ref(text, ref)
        twin = find_twin([e for e in parsed.entries if not e.is_superseded], entry.body)
        if twin is not None:
            by = sorted(set(filter(None, twin.get("by").split(","))) | set(agents))
            text = entry_codec.with_header(
                parsed, twin.id, {"by": ",".join(by), **reinforcement(twin, 1, moment)}
            )
            span = entry_codec.parse_ref(text, ref).span_of(twin.id)
            result.append(span.entry if span else twin)
            return text
        entry_id = entry_codec.new_entry_id(moment)
        block = entry_codec.render_entry(
            entry_id,
            moment,
            entry.tags,
            entry.body,
            (
                ("kind", entry.kind),
                ("by", ",".join(sorted(set(agents)))),
                ("source", "promotion"),
                ("reinforced", str(entry.reinforced)),
            ),
        )
        text = entry_codec.insert_entry(parsed, block)
        span = entry_codec.parse_ref(text, ref).span_of(entry_id)
        if span is not None:
            result.append(span.entry)
        return text

    store.update(vault, ref.path, merge)
    return result[0]
