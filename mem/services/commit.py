"""`mem commit`: store what is worth keeping from agent output, deduplicated and redacted."""

from __future__ import annotations

import copy
import hashlib
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO, NamedTuple, TypeVar

from mem import __version__
from mem.config import Settings, check_agent
from mem.errors import FileUnreadable, FormatMismatch, InvalidContent, InvalidInput
from mem.extract import dedupe, formats, patterns
from mem.extract.capture import COMMIT_WHY, Capture
from mem.extract.instructions import Instructions
from mem.extract.redact import redact
from mem.extract.summary import SessionSummary
from mem.model import MAX_COMMIT_CANDIDATES, MINE_LIMIT, SHARED_FOLDER, CommitReport, Entry
from mem.services.fact_cap import cap_facts
from mem.text import without_escapes
from mem.vault import entries as entry_codec
from mem.vault import layout, ledger, operations, state, store

SOURCE = "commit"
BINARY_SHARE = 0.1  # replaced or control characters above this share: binary, not text
SNIFF_BYTES = 8192  # the start of the input that tells text from binary
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
    # What dedupe compares of each kept candidate, by key: worked out once, not per new one.
    said_of: dict[str, dedupe.Said] = field(default_factory=dict)

    def add(self, candidate: patterns.Candidate, session: str, stored: frozenset[str]) -> None:
        key = candidate_key(session, candidate)
        if key in stored or key in self.session_of:
            return  # a message that grew since the last run still holds what was stored
        kept = self.by_category.setdefault(candidate.category, [])
        # The same thing said twice (a later report repeats an earlier one, under another
        # heading or filed otherwise) is kept once, where it was first said.
        new = dedupe.said(candidate.text)
        if any(
            dedupe.repeats(
                new,
                old,
                same_category=self.session_of[other][0].category == candidate.category,
                commits=self.session_of[other][0].why == candidate.why == COMMIT_WHY,
            )
            for other, old in self.said_of.items()
        ):
            return
        if len(self.session_of) >= MAX_COMMIT_CANDIDATES:
            self.left_out += 1  # said in the report: a runaway log is cut, never silently
            return
        kept.append(candidate)
        self.session_of[key] = (candidate, session)
        self.said_of[key] = new

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
        del self.said_of[key]
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
    why: dict[str, str] = field(default_factory=dict)  # entry id -> what made it memory


def lines_of(stream: BinaryIO, copy: BinaryIO | None = None) -> Iterator[str]:
    """Stream agent output as lines of text (undecodable bytes replaced, NULs and a leading
    byte order mark dropped), copying the raw bytes to `copy` as they pass (`--tee`). Input
    that starts as binary is refused (InvalidContent) before any line is given."""
    raw_lines = copied(stream, copy)
    head: list[bytes] = []
    size = 0
    while size < SNIFF_BYTES and (raw := next(raw_lines, None)) is not None:
        head.append(raw)
        size += len(raw)
    check_text(b"".join(head), "the input")
    for number, raw in enumerate(head):
        yield decoded(raw, number == 0)
    for raw in raw_lines:  # (the head holds the first line, if there is one)
        yield decoded(raw, False)


def copied(stream: BinaryIO, copy: BinaryIO | None) -> Iterator[bytes]:
    """The stream's raw lines, each copied to `copy` (if any) as it passes."""
    for raw in stream:
        if copy is not None:
            copy.write(raw)
            copy.flush()
        yield raw


def check_text(head: bytes, name: str) -> None:
    """Refuse input whose start is bytes that are not text (an image, an archive, a program):
    mined, it would store garbage; a stray odd byte in text is only replaced."""
    text = without_escapes(head.decode("utf-8", errors="replace"))
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return  # UTF-16 text (as PowerShell writes it): its NULs are dropped, not a sign
    if looks_binary(text.removeprefix("\ufeff")):
        raise InvalidContent(f"{name} looks binary, not text; give agent output as text")


def commit(
    settings: Settings,
    lines: Iterable[str],
    output_format: str = "auto",
    dry_run: bool = False,
    now: datetime | None = None,
    hand_off: bool = True,
    limited: bool = True,
) -> CommitReport:
    """Read agent output line by line, extract, redact, dedupe and store what is worth keeping.

    Input committed before adds, reinforces and hands off nothing (the ledger); a run that was
    killed is completed, at its first moment, by committing the same input again. With
    `hand_off` off (an interrupted run), no handoff is written and the checkpoint stays.
    With `limited`, new messages past MINE_LIMIT characters are read, not mined (the report says
    how many): a stream may never end; a session a backfill found has an end.
    """
    agent = check_agent(settings.agent)
    vault = settings.require_vault()
    check_format(output_format)
    head, rest = peek(iter(lines))
    fmt = detected(head) if output_format == "auto" else output_format
    instructions = Instructions(layout.instruction_texts(vault))
    counted = Counted(chain(head, rest))
    # Reading may take as long as the agent runs (`agent | mem commit`): no lock is held for it.
    reading = read_session(
        formats.read(fmt, counted),
        ledger.read(vault, agent),
        instructions,
        mine_limit=MINE_LIMIT if limited else None,
    )
    report, _ = conclude(vault, agent, reading, fmt, now, dry_run, hand_off, output_format, counted)
    return report


def commit_file(
    settings: Settings,
    path: Path,
    output_format: str = "auto",
    dry_run: bool = False,
    now: datetime | None = None,
    hand_off: bool = True,
) -> CommitReport:
    """Commit a transcript file, as `commit` does its lines, reading only what the last
    commit of it did not: from the restart point the ledger recorded, when the bytes before
    it are still those it read (a file rewritten, cut short or replaced is read whole)."""
    agent = check_agent(settings.agent)
    vault = settings.require_vault()
    check_format(output_format)
    try:
        where = str(path.resolve())
        stream = path.open("rb")
    except OSError as exc:
        raise FileUnreadable(f"cannot read {path} ({exc.strerror}); check the path") from exc
    with stream:
        known = ledger.read(vault, agent)
        place = resume_point(vault, agent, where, stream, output_format)
        if place is None:
            check_text(stream.read(SNIFF_BYTES), str(path))
            source = FileLines(stream, [(0, None)])
            head, rest = peek(iter(source))
            fmt = detected(head) if output_format == "auto" else output_format
            lines: Iterable[str] = chain(head, rest)
            course = Course()
        else:
            reached, course = place
            source = FileLines(stream, [(0, reached.header), (reached.restart, None)])
            fmt, lines = reached.format, source
        counted = Counted(iter(lines))
        tracked = Tracked(counted, source.starts, fmt, course)
        instructions = Instructions(layout.instruction_texts(vault))
        start = Course(course.session, copy.deepcopy(course.summary), copy.deepcopy(course.capture))
        reading = read_session(formats.read(fmt, tracked), known, instructions, start, tracked)
    report, stored = conclude(
        vault,
        agent,
        reading,
        fmt,
        now,
        dry_run,
        hand_off,
        output_format if place is None else "auto",  # the format was known to match
        counted,
    )
    if stored and not dry_run and (fmt in PROMPT_RESTARTS or fmt in LINE_RESTARTS):
        # Only now: everything before the restart point is in the ledger.
        found = tracked.reached(where)
        if found is not None and (place is None or found.restart > place[0].restart):
            ledger.record_reached(vault, agent, found)
    return report


def detected(head: list[str]) -> str:
    """The format of input that starts with these lines; JSON records too cut short for any
    reader are refused, not mined as prose."""
    fmt = formats.detect(head)
    if fmt == "text" and formats.cut_json_lines(head):
        raise InvalidInput(
            "the input is JSON lines that do not parse (cut short?): nothing stored; "
            "commit the whole file, or pass --format text to read it as plain text"
        )
    return fmt


def check_format(output_format: str) -> None:
    if output_format != "auto" and output_format not in formats.FORMATS:
        raise InvalidInput(
            f"unknown format {output_format!r}; use auto or one of {', '.join(formats.FORMATS)}"
        )


def resume_point(
    vault: Path, agent: str, path: str, stream: BinaryIO, output_format: str
) -> tuple[ledger.Reached, Course] | None:
    """Where the last commit of this file reached and what it knew there, if the file still
    holds there what it read: the header and the lines just before are checked (an appended
    file keeps both; a rewritten one, a new session at the same path, does not), not the whole
    of it, which would cost a read of everything this is meant to skip."""
    reached = ledger.reached(vault, agent, path)
    if reached is None or output_format not in ("auto", reached.format):
        return None
    if reached.format not in PROMPT_RESTARTS and reached.format not in LINE_RESTARTS:
        return None
    course = Course.restored(reached.course)
    if course is None or os.fstat(stream.fileno()).st_size <= reached.restart:
        return None
    stream.seek(0)
    header = stream.read(reached.header)
    stream.seek(reached.restart - reached.before)
    before = stream.read(reached.before)
    header_lines = [decoded(raw, number == 0) for number, raw in enumerate(raw_lines(header))]
    first = reached.restart == reached.before
    before_lines = [
        decoded(raw, first and number == 0) for number, raw in enumerate(raw_lines(before))
    ]
    if checksum(header_lines, before_lines) != reached.check:
        return None
    return reached, course


def conclude(
    vault: Path,
    agent: str,
    reading: Reading,
    fmt: str,
    now: datetime | None,
    dry_run: bool,
    hand_off: bool,
    output_format: str,
    counted: Counted,
) -> tuple[CommitReport, bool]:
    """Store what a reading found; also say whether all it read is now in the ledger."""
    if output_format in formats.JSON_FORMATS and counted.non_blank and not reading.messages:
        # Told the wrong format, the reader finds nothing: say so rather than drop the session.
        raise FormatMismatch(
            f"no line of the input reads as {fmt}; leave --format out to detect it, or name "
            f"the right one ({', '.join(formats.FORMATS)})"
        )
    if not reading.seen_text or not reading.new_messages:
        # Empty input, or all of it committed before: nothing to add, reinforce or hand off.
        report = CommitReport(
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
            unmined=reading.unmined,
            unmined_chars=reading.unmined_chars,
        )
        return report, not reading.new_messages
    if dry_run:
        return store_reading(
            vault, agent, reading, fmt, ledger.EMPTY, now, dry_run, hand_off
        ), False
    # One commit of an agent stores at a time, against the ledger as it is now: a commit that
    # ran meanwhile may have stored part of this input already.
    with store.locked(vault, ledger.run_lock(agent)):
        known = check_killed(vault, agent, ledger.read(vault, agent))
        reading.drop_stored(known)
        return store_reading(vault, agent, reading, fmt, known, now, dry_run, hand_off), True


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
    why: dict[str, str] = {}
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
        why.update(result.why)
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
        tuple((entry.id, why.get(entry.id, "")) for entry in added),
        reading.unmined,
        reading.unmined_chars,
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
    mined: int = 0  # characters of new messages mined
    unmined: int = 0  # new messages read past the mining limit: neither mined nor recorded
    unmined_chars: int = 0

    def drop_stored(self, known: ledger.Ledger) -> None:
        """Forget what a commit that ran meanwhile stored of this input."""
        self.new_messages = {key: None for key in self.new_messages if key not in known.messages}
        self.batch.drop(known.candidates)


def read_session(
    stream: Iterable[formats.Message],
    known: ledger.Ledger,
    instructions: Instructions,
    start: Course | None = None,
    tracked: Tracked | None = None,
    mine_limit: int | None = None,
) -> Reading:
    """Redact and mine every message not committed before; sum the last session up. What
    the project's instruction files already say is not stored again. Reading from a restart
    point, `start` is what the messages before it told; `tracked` hears of each message.
    Given `mine_limit`, new messages past that many characters mined are only counted."""
    reading = Reading()
    capture = Capture()
    if start is not None:
        capture, reading.summary, reading.session = start.capture, start.summary, start.session
        reading.sessions.update([start.session] if start.session else [])
    counter = [0]  # redactions in paths and commit subjects
    for raw in stream:
        message = without_lone_surrogates(raw)
        if "\x1b" in message.text:  # a tool's colours, carried in a JSON string
            message = message._replace(text=without_escapes(message.text))
        if message.text and looks_binary(message.text[:4096]):
            message = message._replace(text="")  # bytes that were never text: no memory
        reading.messages += 1
        session = message.session or reading.session
        if not session and message.text.strip():
            session = opening(message.text)
        past_limit = mine_limit is not None and reading.mined >= mine_limit
        key = message_key(session, message)
        if past_limit and key not in known.messages and key not in reading.new_messages:
            reading.unmined += 1  # neither redacted, mined nor kept: memory stays flat
            reading.unmined_chars += len(message.text)
            continue
        reading.sessions.add(session)
        if session != reading.session:
            if reading.session:
                reading.summary = SessionSummary()  # the handoff sums up the last session
            reading.session = session
        text, found = redact(message.text) if message.text else ("", 0)
        reading.redactions += found
        # Commit subjects and paths reach the handoff too: a secret can hide in either.
        files = tuple(redacted(path, counter) for path in message.files)
        commits = tuple(redacted(commit, counter) for commit in message.commits)
        checks = tuple(redacted(check, counter) for check in message.checks)
        title = redacted(message.title, counter) if message.title else ""  # a PR's: the What
        reading.seen_text = reading.seen_text or bool(text.strip() or files or commits)
        clean = message._replace(
            text=text, files=files, commits=commits, checks=checks, title=title
        )
        if tracked is not None:
            tracked.passed(raw, session, clean)
        if key in known.messages:
            reading.skipped += 1
            capture.follow(clean)
            reading.summary.take(clean, [])
            continue
        reading.new_messages.setdefault(key)
        reading.mined += len(message.text)
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
    reading.summary.drop([candidate.text for candidate in capture.retracted])
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
        checks=tuple(fixed(check) for check in message.checks),
        title=fixed(message.title),
        session=fixed(message.session),
    )


def opening(text: str) -> str:
    """A session with no id of its own is known by its first lines, which stay the same while
    its output grows (a log appended to, a chat history)."""
    first = [line.strip() for line in text.splitlines() if line.strip()][:SESSION_LINES]
    return hashlib.sha1("\n".join(first).encode("utf-8"), usedforsecurity=False).hexdigest()[:20]


def message_key(session: str, message: formats.Message) -> str:
    """What identifies a message across runs: its session, role, prose, files, commits and
    checks run (the same words in another session are that session's, and may reinforce)."""
    digest = hashlib.sha1(session.encode("utf-8", "surrogatepass"), usedforsecurity=False)
    # Trailing white space is not content: a resent input may end with one newline more.
    parts = [message.role, message.text.strip(), *message.files, "\0", *message.commits]
    if message.checks:  # (only then: the keys ledgers already hold stay the same)
        parts += ["\0checks", *message.checks]
    if message.title:
        parts += ["\0title", message.title]
    for part in parts:
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
    return len(ODD_CHAR.findall(text)) > BINARY_SHARE * len(text)


# A replaced byte, or a control character other than a tab or a line end.
ODD_CHAR = re.compile("[\ufffd\x00-\x08\x0b\x0c\x0e-\x1f]")


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
    known: dict[str, dedupe.Said] = {}  # what dedupe made of the file's entries, for every try
    added: list[str] = []  # the texts this try adds as new entries

    def merge(old: str) -> str:
        added.clear()
        result.added.clear()
        result.reinforced.clear()
        result.why.clear()
        text = old or entry_codec.new_file_text(folder_agent, ref.category)
        parsed = entry_codec.parse_ref(text, ref)
        live = [span.entry for span in parsed.spans if not span.entry.is_superseded]
        times: dict[str, int] = {}
        blocks: list[str] = []
        new_ids: list[str] = []
        for candidate in candidates:
            twin = find_twin(live, candidate.text, known)
            if twin is not None:
                times[twin.id] = times.get(twin.id, 0) + 1
                continue
            entry_id = entry_codec.new_entry_id(moment)
            added.append(candidate.text)
            result.why[entry_id] = candidate.why
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

    def no_twin_put_in(put_in: str) -> bool:
        """Whether a person's save that overtook this write put in no entry that says what
        one it adds does: else the write is worked out again, and reinforces theirs."""
        theirs = entry_codec.parse_file(put_in, ref.path, ref.agent, ref.category).entries
        return all(find_twin(theirs, text) is None for text in added)

    store.update(vault, ref.path, merge, dry_run, carry=no_twin_put_in)
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


def find_twin(
    entries: list[Entry], text: str, known: dict[str, dedupe.Said] | None = None
) -> Entry | None:
    """Return the live entry that already says `text`, if any. `known` keeps what dedupe
    worked out of each entry's text, for the next candidate and the next try: a commit
    compares every candidate with every entry of a file, again when a person's save makes it
    redo its write."""
    new = dedupe.said(text)
    for entry in entries:
        body = entry.body.removeprefix("- [ ] ")
        old = known.get(body) if known is not None else None
        if old is None:
            old = dedupe.said(body)
            if known is not None:
                known[body] = old
        if dedupe.alike(old, new):
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


# --- reading a transcript file from where the last commit reached ---------------------------
#
# A hook sends the whole transcript at every turn end. Reading it again whole costs seconds
# in a long session, so a file is read again from a restart point: a line where a fresh
# reader, given the file's header again, reads on exactly as the reader that read the file
# from its start did. What a whole reading knows there (the session, its summary so far, the
# mining context) is carried in the ledger (`Course`), as if every message before it was read
# and found committed, which is what a whole reading of the grown file would find.

# The formats a file may be read again from a restart point in, and which points those are:
# the line that gives the person's prompt (the readers take one line at a time; the header,
# every line before the first message, names the session and the kind of file), or the line
# that starts an Aider session (its messages span lines; a session starts with none pending).
PROMPT_RESTARTS = ("claude-jsonl", "stream-json", "codex-jsonl")
LINE_RESTARTS = {"aider": "# aider chat started at"}
HEADER_BYTES = 256 * 1024  # a longer header: the file is always read whole
CHECK_BYTES = 64 * 1024  # the bytes before a restart point whose lines `check` covers
WINDOW_BYTES = 16 * 1024 * 1024  # a longer turn is not kept to be read again: no restart in it
RESTART_CANDIDATES = 8  # the latest lines tried as restart points, newest first
COURSE_VERSION = 1


class Course:
    """What a whole reading of the input knows at a point, every message before it found
    committed before: the session, its summary (no candidates: none are mined from a message
    committed before) and the mining context (`Capture.follow`)."""

    def __init__(
        self,
        session: str = "",
        summary: SessionSummary | None = None,
        capture: Capture | None = None,
    ) -> None:
        self.session = session
        self.summary = summary if summary is not None else SessionSummary()
        self.capture = capture if capture is not None else Capture()

    def absorb(self, session: str, message: formats.Message) -> None:
        """Take one message in, as `read_session` takes a message committed before."""
        if session != self.session:
            if self.session:
                self.summary = SessionSummary()
            self.session = session
        self.capture.follow(message)
        self.summary.take(message, [])

    def state(self) -> dict[str, object] | None:
        """As JSON, or None when a part holds what JSON cannot (then no restart is kept)."""
        try:
            return {
                "version": [COURSE_VERSION, __version__],
                "session": self.session,
                "summary": plain(vars(self.summary)),
                "capture": plain(vars(self.capture)),
            }
        except TypeError:
            return None

    @classmethod
    def restored(cls, state: dict[str, object]) -> Course | None:
        """The course `state()` wrote; None when this version of mem would know otherwise."""
        if state.get("version") != [COURSE_VERSION, __version__]:
            return None
        session = state.get("session")
        summary = restored_object(SessionSummary(), state.get("summary"))
        capture = restored_object(Capture(), state.get("capture"))
        if not isinstance(session, str) or summary is None or capture is None:
            return None
        return cls(session, summary, capture)


Restorable = TypeVar("Restorable")


def plain(value: object) -> object:
    """`value` as JSON, sets as {"$set": [...]}; TypeError for anything else (a tuple, an
    object), so that what cannot come back the same is never written."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, set | frozenset) and all(isinstance(item, str) for item in value):
        return {"$set": sorted(value)}
    if isinstance(value, dict) and "$set" not in value and all(isinstance(k, str) for k in value):
        return {key: plain(item) for key, item in value.items()}
    raise TypeError(f"not plain data: {type(value).__name__}")


def unplain(value: object) -> object:
    if isinstance(value, list):
        return [unplain(item) for item in value]
    if isinstance(value, dict):
        if set(value) == {"$set"} and isinstance(value["$set"], list):
            return set(value["$set"])
        return {key: unplain(item) for key, item in value.items()}
    return value


def restored_object(blank: Restorable, state: object) -> Restorable | None:
    """`blank` given back the attributes `plain(vars(...))` recorded; None unless it has the
    very same ones (a class that gained or lost one may mean something else by the rest)."""
    if not isinstance(state, dict) or set(state) != set(vars(blank)):
        return None
    for name, value in state.items():
        setattr(blank, name, unplain(value))
    return blank


def decoded(raw: bytes, first: bool) -> str:
    """One line of input as text: undecodable bytes replaced, NULs, a leading byte order mark
    and a terminal's escape sequences dropped (a capture's colours are no words)."""
    line = without_escapes(raw.decode("utf-8", errors="replace").replace("\x00", ""))
    return line.removeprefix("\ufeff") if first else line


def raw_lines(data: bytes) -> list[bytes]:
    """Bytes cut into lines as iterating a binary file does (at b"\\n" only)."""
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    return lines + [parts[-1]] if parts[-1] else lines


def checksum(header: Iterable[str], before: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for line in header:
        digest.update(line.encode("utf-8", "surrogatepass"))
    digest.update(b"\0")
    for line in before:
        digest.update(line.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class FileLines:
    """A file's lines, decoded as `lines_of` does, from given byte ranges (the header, then
    the rest from a restart point), with where each line starts queued in `starts`."""

    def __init__(self, stream: BinaryIO, ranges: list[tuple[int, int | None]]) -> None:
        self.stream = stream
        self.ranges = ranges
        self.starts: deque[tuple[int, int]] = deque()  # (offset, size) of each line given

    def __iter__(self) -> Iterator[str]:
        for begin, end in self.ranges:
            self.stream.seek(begin)
            offset = begin
            while end is None or offset < end:
                raw = self.stream.readline()
                if not raw:
                    break
                self.starts.append((offset, len(raw)))
                yield decoded(raw, offset == 0)
                offset += len(raw)


class Candidate(NamedTuple):
    """A line reading might start again at, if a fresh reader reads on from it the same."""

    start: int
    before_start: int  # where the lines `check` covers before it start
    before: list[str]
    # Counted from the start of the reading, not of the lists, so that giving up the oldest
    # candidate changes no other one.
    window: int  # index of its line in Tracked.window, plus Tracked.window_dropped
    pending: int  # index of its first message in Tracked.pending, plus Tracked.pending_dropped


class Tracked:
    """A file's lines on their way to the reader, watched for restart points. The messages
    read since the oldest candidate kept wait to go into the course, and the lines since it
    to be read again, until the end tells which candidate holds."""

    def __init__(
        self, lines: Iterable[str], starts: deque[tuple[int, int]], fmt: str, course: Course
    ) -> None:
        self.lines = lines
        self.starts = starts
        self.fmt = fmt
        self.course = course
        self.start = self.end = 0  # where the line being read starts and ends
        self.previous_end = 0  # where the line read before it ends
        self.current = ""
        self.messages_of_line = 0  # messages read off the current line so far
        self.header: list[str] = []  # lines before the first message (prompt restarts)
        self.header_end: int | None = None if fmt in PROMPT_RESTARTS else 0
        self.header_bytes = 0
        self.recent: deque[tuple[int, str]] = deque()  # lines before this one, ≥ CHECK_BYTES
        self.recent_bytes = 0
        self.candidates: deque[Candidate] = deque()
        self.window: list[str] = []  # lines from the oldest candidate on
        self.window_dropped = 0  # lines given up before it
        self.pending_dropped = 0  # messages given up (into the course) before it
        self.pending: list[tuple[formats.Message, str, formats.Message]] = []

    def __iter__(self) -> Iterator[str]:
        session_line = LINE_RESTARTS.get(self.fmt)
        for line in self.lines:
            start, size = self.starts.popleft()
            if self.current:
                self.keep_recent(self.start, self.end, self.current)
            if start != self.end:
                self.recent.clear()  # from the header to the restart point: not one stretch
                self.recent_bytes = 0
            self.previous_end = self.end
            self.start, self.end, self.current = start, start + size, line
            self.messages_of_line = 0
            if self.header_end is None:
                self.header.append(line)
                self.header_bytes += size
                if self.header_bytes > HEADER_BYTES:
                    self.header_end = -1  # too long to read again: no restart point
            if session_line is not None and line.startswith(session_line):
                self.add_candidate()
            if self.candidates:
                self.window.append(line)
                while self.candidates and self.end - self.candidates[0].start > WINDOW_BYTES:
                    self.drop_oldest()
            yield line

    def keep_recent(self, start: int, end: int, line: str) -> None:
        self.recent.append((start, line))
        self.recent_bytes += end - start
        while len(self.recent) > 1 and self.recent[1][0] - self.recent[0][0] <= (
            self.recent_bytes - CHECK_BYTES
        ):
            self.recent_bytes -= self.recent[1][0] - self.recent[0][0]
            self.recent.popleft()

    def passed(self, raw: formats.Message, session: str, clean: formats.Message) -> None:
        """Note a message the reader gave while the current line was read."""
        if self.header_end is None:
            # The first message: the lines before it are the header.
            self.header.pop()
            self.header_end = self.previous_end if self.header else 0
        # A prompt, or the first line of an API message (where its usage is counted): no tool
        # call before it waits for its result, no message spans it.
        if (
            self.fmt in PROMPT_RESTARTS
            and not self.messages_of_line
            and self.header_end >= 0
            and (raw.role == "user" or raw.input_tokens or raw.output_tokens)
        ):
            self.add_candidate()
            self.window.append(self.current)
        self.messages_of_line += 1
        if self.candidates:
            self.pending.append((raw, session, clean))
        else:
            self.course.absorb(session, clean)

    def add_candidate(self) -> None:
        """Make the current line a candidate restart point (before it joins the window)."""
        before = [line for _, line in self.recent]
        before_start = self.recent[0][0] if self.recent else self.start
        self.candidates.append(
            Candidate(
                self.start,
                before_start,
                before,
                self.window_dropped + len(self.window),
                self.pending_dropped + len(self.pending),
            )
        )
        if len(self.candidates) > RESTART_CANDIDATES:
            self.drop_oldest()

    def drop_oldest(self) -> None:
        """Give up the oldest candidate: what was read before the next one (or all, if none is
        left) goes into the course."""
        self.candidates.popleft()
        next_one = self.candidates[0] if self.candidates else None
        window = next_one.window - self.window_dropped if next_one else len(self.window)
        pending = next_one.pending - self.pending_dropped if next_one else len(self.pending)
        for _, session, clean in self.pending[:pending]:
            self.course.absorb(session, clean)
        del self.pending[:pending]
        del self.window[:window]
        self.window_dropped += window
        self.pending_dropped += pending

    def reached(self, path: str) -> ledger.Reached | None:
        """The latest candidate a fresh reader reads on from as this one did, and what a whole
        reading knows there; None when none does."""
        if self.header_end is None or self.header_end < 0:
            return None
        for candidate in reversed(self.candidates):
            if not candidate.before:
                continue  # nothing before it to check a rewrite by
            window = candidate.window - self.window_dropped
            pending = candidate.pending - self.pending_dropped
            again = list(formats.read(self.fmt, [*self.header, *self.window[window:]]))
            read = self.pending[pending:]
            skip = len(read) - len(again)
            if skip < 0 or [raw for raw, _, _ in read[skip:]] != again:
                continue
            for _, session, clean in self.pending[: pending + skip]:
                self.course.absorb(session, clean)
            course = self.course.state()
            if course is None:
                return None
            return ledger.Reached(
                path,
                self.fmt,
                self.header_end,
                candidate.start,
                candidate.start - candidate.before_start,
                checksum(self.header, candidate.before),
                course,
            )
        return None
