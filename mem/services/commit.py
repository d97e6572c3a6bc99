"""`mem commit`: store what is worth keeping from agent output, deduplicated and redacted."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from mem.config import Settings, check_agent
from mem.errors import FormatMismatch, InvalidInput
from mem.extract import dedupe, formats, patterns
from mem.extract.capture import Capture
from mem.extract.instructions import Instructions
from mem.extract.redact import redact
from mem.extract.summary import SessionSummary
from mem.model import MAX_COMMIT_CANDIDATES, SHARED_FOLDER, CommitReport, Entry
from mem.services.fact_cap import cap_facts
from mem.vault import entries as entry_codec
from mem.vault import layout, ledger, operations, state, store

SOURCE = "commit"
BINARY_SHARE = 0.1  # replaced or control characters above this share: binary, not text
SESSION_LINES = 3  # the first lines that name a session the input gives no id for
PROMOTE_AT = 3  # times a fact is reinforced before every agent should know it


@dataclass
class Batch:
    """Candidates gathered from one run's output, deduplicated among themselves and against
    what the ledger says this session already stored."""

    by_category: dict[str, list[patterns.Candidate]] = field(default_factory=dict)
    left_out: int = 0  # candidates past MAX_COMMIT_CANDIDATES
    # Every kept candidate by its key, in the order found: the keys are this dict's.
    session_of: dict[str, tuple[patterns.Candidate, str]] = field(default_factory=dict)

    def add(self, candidate: patterns.Candidate, session: str, stored: frozenset[str]) -> None:
        key = candidate_key(session, candidate)
        if key in stored or key in self.session_of:
            return  # a message that grew since the last run still holds what was stored
        kept = self.by_category.setdefault(candidate.category, [])
        if any(dedupe.is_same(candidate.text, other.text) for other in kept):
            return
        if len(self.session_of) >= MAX_COMMIT_CANDIDATES:
            self.left_out += 1  # said in the report: a runaway log is cut, never silently
            return
        kept.append(candidate)
        self.session_of[key] = (candidate, session)

    def remove(self, candidate: patterns.Candidate) -> None:
        """Take back a candidate (the change it spoke of was undone)."""
        for key in [key for key in self.keys if self.session_of[key][0] == candidate]:
            self.forget(key)

    def drop(self, stored: frozenset[str]) -> None:
        """Leave out the candidates whose keys are among `stored`."""
        for key in [key for key in self.keys if key in stored]:
            self.forget(key)

    def forget(self, key: str) -> None:
        candidate, _ = self.session_of.pop(key)
        kept = self.by_category.get(candidate.category, [])
        if candidate in kept:
            kept.remove(candidate)

    @property
    def keys(self) -> list[str]:
        return list(self.session_of)

    def keys_of(self, category: str) -> list[str]:
        return [key for key, (kept, _) in self.session_of.items() if kept.category == category]


@dataclass
class FileResult:
    added: list[Entry] = field(default_factory=list)
    reinforced: list[Entry] = field(default_factory=list)


def lines_of(stream: BinaryIO, copy: BinaryIO | None = None) -> Iterator[str]:
    """Stream agent output as lines of text (undecodable bytes replaced, NULs and a leading
    byte order mark dropped), copying the raw bytes to `copy` as they pass (`--tee`)."""
    first = True
    for raw in stream:
        if copy is not None:
            copy.write(raw)
            copy.flush()
        line = raw.decode("utf-8", errors="replace").replace("\x00", "")
        if first:
            line, first = line.removeprefix("\ufeff"), False
        yield line


def commit(
    settings: Settings,
    lines: Iterable[str],
    output_format: str = "auto",
    dry_run: bool = False,
    now: datetime | None = None,
    hand_off: bool = True,
) -> CommitReport:
    """Read agent output line by line, extract, redact, dedupe and store what is worth keeping.

    Input committed before adds, reinforces and hands off nothing (the ledger); a run that was
    killed is completed, at its first moment, by committing the same input again. With
    `hand_off` off (an interrupted run), no handoff is written and the checkpoint stays.
    """
    agent = check_agent(settings.agent)
    vault = settings.require_vault()
    if output_format != "auto" and output_format not in formats.FORMATS:
        raise InvalidInput(
            f"unknown format {output_format!r}; use auto or one of {', '.join(formats.FORMATS)}"
        )
    head, rest = peek(iter(lines))
    fmt = formats.detect(head) if output_format == "auto" else output_format
    instructions = Instructions(layout.instruction_texts(vault))
    counted = Counted(chain(head, rest))
    # Reading may take as long as the agent runs (`agent | mem commit`): no lock is held for it.
    reading = read_session(formats.read(fmt, counted), ledger.read(vault, agent), instructions)
    if output_format in formats.JSON_FORMATS and counted.non_blank and not reading.messages:
        # Told the wrong format, the reader finds nothing: say so rather than drop the session.
        raise FormatMismatch(
            f"no line of the input reads as {fmt}; leave --format out to detect it, or name "
            f"the right one ({', '.join(formats.FORMATS)})"
        )
    if not reading.seen_text or not reading.new_messages:
        # Empty input, or all of it committed before: nothing to add, reinforce or hand off.
        return CommitReport(
            fmt,
            reading.messages,
            (),
            (),
            (),
            (),
            None,
            reading.redactions,
            dry_run,
            not reading.seen_text,
            reading.skipped,
        )
    if dry_run:
        return store_reading(vault, agent, reading, fmt, ledger.EMPTY, now, dry_run, hand_off)
    # One commit of an agent stores at a time, against the ledger as it is now: a commit that
    # ran meanwhile may have stored part of this input already.
    with store.locked(vault, ledger.run_lock(agent)):
        known = check_killed(vault, agent, ledger.read(vault, agent))
        reading.drop_stored(known)
        return store_reading(vault, agent, reading, fmt, known, now, dry_run, hand_off)


def store_reading(
    vault: Path,
    agent: str,
    reading: Reading,
    fmt: str,
    known: ledger.Ledger,
    now: datetime | None,
    dry_run: bool,
    hand_off: bool,
) -> CommitReport:
    """Store what a reading found, recording the run in the ledger before and after."""
    run = run_id(reading)
    # Runs of these sessions killed before they finished stored part of what this one found.
    killed = [each for each in known.unfinished if each.session in reading.sessions]
    reading.batch.drop(frozenset().union(*(each.stored for each in killed)))
    # A killed run over these very messages is completed by this one, at its moment.
    completes = ledger.resumable(known, list(reading.new_messages))
    moment = min(each.moment for each in completes) if completes else (now or datetime.now(UTC))
    if not dry_run:
        ledger.begin(
            vault,
            agent,
            run,
            moment,
            reading.session,
            list(reading.new_messages),
            reading.batch.keys,
        )
    added: list[Entry] = []
    reinforced: list[Entry] = []
    for category, candidates in reading.batch.by_category.items():
        keys = reading.batch.keys_of(category)
        result = store_candidates(
            vault,
            layout.file_ref(agent, category),
            candidates,
            moment,
            dry_run,
            None if dry_run else journal(vault, agent, run, category, moment, keys),
        )
        added += result.added
        reinforced += result.reinforced
        if not dry_run and candidates:
            ledger.progress(vault, agent, run, keys)
    handoff = None
    replaces = known.handoffs.get(reading.session)
    body = reading.summary.render() if hand_off else ""
    if body:
        # The handoff a killed run may have written for this session is replaced, not doubled.
        planned = [i for each in killed if each.session == reading.session for i in each.handoffs]
        handoff = store_handoff(vault, agent, body, moment, dry_run, replaces, planned, run)
        if not dry_run:
            state.clear_checkpoint(vault, agent)  # the handoff says where things stand now
    archived = [] if dry_run else cap_facts(vault, agent)
    promoted = [] if dry_run else promote_facts(vault, agent, moment)
    if not dry_run:
        handoff_id = handoff.id if handoff else replaces
        for finished in {each.run for each in completes} - {run}:
            ledger.finish(vault, agent, finished, handoff_id)
        ledger.finish(vault, agent, run, handoff_id)
    return CommitReport(
        fmt,
        reading.messages,
        tuple(added),
        tuple(reinforced),
        tuple(promoted),
        tuple(archived),
        handoff,
        reading.redactions,
        dry_run,
        False,
        reading.skipped,
        reading.batch.left_out,
    )


@dataclass
class Reading:
    """One pass over the input: what is new since the ledger, and what it says."""

    batch: Batch = field(default_factory=Batch)
    summary: SessionSummary = field(default_factory=SessionSummary)
    messages: int = 0
    skipped: int = 0  # messages committed before
    redactions: int = 0
    seen_text: bool = False
    session: str = ""  # the last session of the input: its id, else its opening lines' hash
    sessions: set[str] = field(default_factory=set)  # every session of the input
    # Keys (session and content) of the messages not committed before, in order: a dict
    # for its order and constant-time membership.
    new_messages: dict[str, None] = field(default_factory=dict)

    def drop_stored(self, known: ledger.Ledger) -> None:
        """Forget what a commit that ran meanwhile stored of this input."""
        self.new_messages = {key: None for key in self.new_messages if key not in known.messages}
        self.batch.drop(known.candidates)


def read_session(
    stream: Iterable[formats.Message], known: ledger.Ledger, instructions: Instructions
) -> Reading:
    """Redact and mine every message not committed before; sum the last session up. What
    the project's instruction files already say is not stored again."""
    reading = Reading()
    capture = Capture()
    counter = [0]  # redactions in paths and commit subjects
    for raw in stream:
        message = without_lone_surrogates(raw)
        if message.text and looks_binary(message.text[:4096]):
            message = message._replace(text="")  # bytes that were never text: no memory
        reading.messages += 1
        session = message.session or reading.session
        if not session and message.text.strip():
            session = opening(message.text)
        reading.sessions.add(session)
        if session != reading.session:
            if reading.session:
                reading.summary = SessionSummary()  # the handoff sums up the last session
            reading.session = session
        key = message_key(session, message)
        text, found = redact(message.text) if message.text else ("", 0)
        reading.redactions += found
        # Commit subjects and paths reach the handoff too: a secret can hide in either.
        files = tuple(redacted(path, counter) for path in message.files)
        commits = tuple(redacted(commit, counter) for commit in message.commits)
        reading.seen_text = reading.seen_text or bool(text.strip() or files or commits)
        clean = message._replace(text=text, files=files, commits=commits)
        if key in known.messages:
            reading.skipped += 1
            capture.follow(clean)
            reading.summary.take(clean, [])
            continue
        reading.new_messages.setdefault(key)
        candidates = [c for c in capture.mine(clean, text) if not instructions.restate(c.text)]
        for candidate in candidates:
            reading.batch.add(candidate, session, known.candidates)
        reading.summary.take(clean, candidates)
    last = [c for c in capture.finish() if not instructions.restate(c.text)]
    for candidate in last:
        reading.batch.add(candidate, reading.session, known.candidates)
    reading.summary.fold(last)
    for candidate in capture.retracted:
        reading.batch.remove(candidate)
    reading.summary.drop_commits(capture.undone)
    reading.redactions += counter[0]
    return reading


def without_lone_surrogates(message: formats.Message) -> formats.Message:
    """JSON can carry half an emoji (`\\ud83d`), which no file or hash can hold: make it U+FFFD."""

    def fixed(text: str) -> str:
        if text.isascii():
            return text
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")

    return message._replace(
        text=fixed(message.text),
        files=tuple(fixed(path) for path in message.files),
        commits=tuple(fixed(commit) for commit in message.commits),
        session=fixed(message.session),
    )


def opening(text: str) -> str:
    """A session with no id of its own is known by its first lines, which stay the same while
    its output grows (a log appended to, a chat history)."""
    first = [line.strip() for line in text.splitlines() if line.strip()][:SESSION_LINES]
    return hashlib.sha1("\n".join(first).encode("utf-8"), usedforsecurity=False).hexdigest()[:20]


def message_key(session: str, message: formats.Message) -> str:
    """What identifies a message across runs: its session, role, prose, files and commits (the
    same words in another session are that session's, and may reinforce)."""
    digest = hashlib.sha1(session.encode("utf-8", "surrogatepass"), usedforsecurity=False)
    # Trailing white space is not content: a resent input may end with one newline more.
    for part in (message.role, message.text.strip(), *message.files, "\0", *message.commits):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\x1f")
    return digest.hexdigest()[:20]


def candidate_key(session: str, candidate: patterns.Candidate) -> str:
    text = f"{session}\x1f{candidate.category}\x1f{dedupe.normalise(candidate.text)}"
    return hashlib.sha1(text.encode("utf-8", "surrogatepass"), usedforsecurity=False).hexdigest()[
        :20
    ]


def run_id(reading: Reading) -> str:
    text = "\x1f".join([reading.session, *reading.new_messages])
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:20]


class Counted:
    """Lines passing through, counting those that are not blank."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines
        self.non_blank = 0

    def __iter__(self) -> Iterator[str]:
        for line in self.lines:
            self.non_blank += bool(line.strip())
            yield line


def looks_binary(text: str) -> bool:
    """Whether decoded text was never text: many replaced bytes or control characters."""
    odd = sum(1 for char in text if char == "\ufffd" or (char < " " and char not in "\n\r\t"))
    return odd > BINARY_SHARE * len(text)


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


def check_killed(vault: Path, agent: str, known: ledger.Ledger) -> ledger.Ledger:
    """Settle, before anything is written, which recorded changes of killed runs reached their
    files: only now are the files as the kill left them, whatever session commits next."""
    settled: list[ledger.Unfinished] = []
    for killed in known.unfinished:
        if not killed.unchecked:
            settled.append(killed)
            continue
        made = frozenset().union(
            *(change.stored for change in killed.unchecked if was_made(vault, agent, change))
        )
        ledger.checked(vault, agent, killed.run, sorted(made - killed.stored))
        settled.append(killed._replace(stored=killed.stored | made, unchecked=()))
    return known._replace(unfinished=tuple(settled))


def was_made(vault: Path, agent: str, change: ledger.Write) -> bool:
    """Whether a recorded change reached its file. A file is replaced whole, so one id the
    change added shows it was made; with none added, its reinforcements show it (the counts
    reached, at the run's stamp), as no commit has written the file since."""
    ref = layout.file_ref(agent, change.category)
    parsed = entry_codec.parse_ref(store.read_text(vault, ref.path), ref)
    entries = {entry.id: entry for entry in parsed.entries}
    if change.added:
        return any(entry_id in entries for entry_id in change.added)
    return bool(change.reinforced) and all(
        entry_id in entries
        and entries[entry_id].reinforced >= count
        and entries[entry_id].get("seen") == change.seen
        for entry_id, count in change.reinforced.items()
    )


Note = Callable[[list[str], dict[str, int]], None]


def journal(
    vault: Path, agent: str, run: str, category: str, moment: datetime, keys: list[str]
) -> Note:
    """What records in the ledger, before a category file is written, the change made to it."""

    def note(new_ids: list[str], times: dict[str, int]) -> None:
        change = ledger.Write(
            category, seen_stamp(moment), frozenset(keys), frozenset(new_ids), times
        )
        ledger.writing(vault, agent, run, change)

    return note


def store_candidates(
    vault: Path,
    ref: layout.FileRef,
    candidates: list[patterns.Candidate],
    moment: datetime,
    dry_run: bool,
    note: Note | None = None,
) -> FileResult:
    """Under the file's lock, reinforce what it already holds and insert what is new; `note`
    hears the ids added and the reinforced counts just before the file is written."""
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
            twin = find_twin(live, candidate.text)
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
        operations.check_others_unchanged(parsed, after, set(times) | set(new_ids), ref.path)
        result.added.extend(span.entry for span in after.spans if span.entry.id in new_ids)
        result.reinforced.extend(span.entry for span in after.spans if span.entry.id in times)
        if note is not None and (new_ids or times):
            note(new_ids, {e.id: e.reinforced for e in result.reinforced})
        return text

    store.update(vault, ref.path, merge, dry_run)
    return result


def store_handoff(
    vault: Path,
    agent: str,
    body: str,
    moment: datetime,
    dry_run: bool,
    replaces: str | None,
    planned: list[str],
    run: str,
) -> Entry:
    """Write the session's handoff: in place of the one an earlier run wrote for the same
    session (moved to the top, same id), or of the one a killed run wrote (its id is in the
    ledger), else as new."""
    ref = layout.file_ref(agent, "handoffs")
    found: list[Entry] = []

    def merge(old: str) -> str:
        found.clear()
        text = old or entry_codec.new_file_text(agent, "handoffs")
        parsed = entry_codec.parse_ref(text, ref)
        target = next(
            (span for i in (replaces, *planned) if i and (span := parsed.span_of(i))), None
        )
        entry_id = target.entry.id if target is not None else entry_codec.new_entry_id(moment)
        if target is not None:
            if target.entry.body.strip() == entry_codec.clean_body(body).strip():
                found.append(target.entry)  # already says this
                return text
            text = entry_codec.without_entry(parsed, target)
            parsed = entry_codec.parse_ref(text, ref)
        block = entry_codec.render_entry(
            entry_id, moment, (), body, (("kind", "handoff"), ("source", SOURCE))
        )
        text = entry_codec.insert_entry(parsed, block)
        written = entry_codec.parse_ref(text, ref).span_of(entry_id)
        if written is not None:
            found.append(written.entry)
        if not dry_run:
            change = ledger.Write(
                "handoffs", seen_stamp(moment), frozenset(), frozenset([entry_id]), {}
            )
            ledger.writing(vault, agent, run, change)
        return text

    store.update(vault, ref.path, merge, dry_run)
    return found[0]


def find_twin(entries: list[Entry], text: str) -> Entry | None:
    """Return the live entry that already says `text`, if any."""
    for entry in entries:
        if dedupe.is_same(entry.body.removeprefix("- [ ] "), text):
            return entry
    return None


def reinforcement(entry: Entry, times: int, moment: datetime) -> dict[str, str | None]:
    """The header change that records an entry seen `times` more times at `moment` (to the
    second: a run killed and run again must tell its own reinforcement from another's)."""
    return {"reinforced": str(entry.reinforced + times), "seen": seen_stamp(moment)}


def seen_stamp(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%dT%H:%M:%SZ}"


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
        operations.set_header(vault, entry, {"promoted": shared.id})
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
            holders = set(filter(None, twin.get("by").split(",")))
            if holders >= set(agents):
                # Shared by these agents already (a promotion killed before it marked the
                # fact promoted, run again): nothing new to count.
                result.append(twin)
                return text
            by = sorted(holders | set(agents))
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
