"""What `mem commit` has already stored, per agent, in `.mem/state/<agent>/ledger.jsonl`.

Hooks send a whole transcript again on every turn and Aider's history file only grows, so the
same input reaching `mem commit` twice is the normal case: the ledger lets it add, reinforce and
hand off nothing the second time. Each run appends a `started` line (with its moment and what
it will store) before it writes anything, a `writing` line before each file it changes (the ids
it adds and reinforces there), a `progress` line after, and a `done` line at the end. A run
killed in between is found unfinished. The next commit of the agent, before it writes, reads
the files its `writing` lines name while they are still as the kill left them, and records in
a `checked` line which of those changes were made; the run over the same input (or the input
grown since) then stores the rest, at the killed run's moment.

A transcript read from a file also leaves, once its run is `done`, a record of how far it was
read (`reached`, one file per transcript path under `.mem/state/<agent>/reached/`): a place
where reading may start again, a check of the bytes before it, and what a whole reading would
know there. Written only after `done`, it never points past input that is not stored: a run
killed before leaves the older record, and the next run reads from there again.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from mem.model import CATEGORIES
from mem.vault import store
from mem.vault.layout import inside
from mem.vault.state import STATE_FOLDER


class Write(NamedTuple):
    """A change a run was about to make to one file (recorded before it made it)."""

    category: str
    seen: str  # the stamp its reinforcements carry
    stored: frozenset[str]  # keys of the candidates the change stores
    added: frozenset[str]  # ids of the entries it adds
    reinforced: dict[str, int]  # id -> how many times reinforced after the change


class Unfinished(NamedTuple):
    """A run that started and never finished: the next run over its messages completes it."""

    run: str
    session: str  # the session it stored for
    moment: datetime
    messages: frozenset[str]
    stored: frozenset[str]  # candidates it stored, by its own word or as checked since
    unchecked: tuple[Write, ...]  # category changes it recorded and no one checked since
    handoffs: tuple[str, ...]  # ids of the handoffs it was writing


class Ledger(NamedTuple):
    """What earlier runs committed."""

    messages: frozenset[str]  # keys (session and content) of the messages already stored
    candidates: frozenset[str]  # keys (session and text) of what was stored from them
    handoffs: dict[str, str]  # session -> the id of its handoff entry
    unfinished: tuple[Unfinished, ...]


EMPTY = Ledger(frozenset(), frozenset(), {}, ())


class Reached(NamedTuple):
    """How far a transcript file was committed: where reading may start again."""

    path: str  # the transcript, resolved
    format: str
    header: int  # bytes at the start of the file read again before `restart` (a preamble)
    restart: int  # the byte offset reading starts again at (a line start)
    before: int  # bytes before `restart` that `check` covers
    check: str  # sha256 of the header's and those bytes' lines, as read
    course: dict[str, object]  # what a whole reading knows at `restart`, as JSON


def ledger_path(agent: str) -> str:
    return f"{STATE_FOLDER}/{agent}/ledger.jsonl"


def run_lock(agent: str) -> str:
    """The lock an agent's commits take turns on while they store."""
    return f"{STATE_FOLDER}/{agent}/commit"


def read(vault: Path, agent: str) -> Ledger:
    """Everything the agent's ledger records; a line cut short by a kill is skipped."""
    raw = store.read_text(vault, ledger_path(agent))
    if not raw:
        return EMPTY
    started: dict[str, dict[str, object]] = {}
    done: set[str] = set()
    progress: dict[str, set[str]] = {}
    unchecked: dict[str, list[Write]] = {}
    handoff_writes: dict[str, list[str]] = {}
    handoffs: dict[str, str] = {}
    for line in raw.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or not isinstance(record.get("run"), str):
            continue
        run = record["run"]
        if record.get("state") == "started":
            started[run] = record
        elif record.get("state") in ("progress", "checked"):
            progress.setdefault(run, set()).update(strings(record.get("stored")))
            if record.get("state") == "checked":
                unchecked.pop(run, None)  # every change it recorded before is settled
        elif record.get("state") == "writing":
            change = write_of(record)
            if change is None:
                continue
            if change.category == "handoffs":
                handoff_writes.setdefault(run, []).extend(change.added)
            else:
                unchecked.setdefault(run, []).append(change)
        elif record.get("state") == "done" and run in started:
            done.add(run)
            handoff = record.get("handoff")
            if isinstance(handoff, str) and handoff:
                handoffs[str(started[run].get("session", ""))] = handoff
    messages: set[str] = set()
    candidates: set[str] = set()
    unfinished: list[Unfinished] = []
    for run, record in started.items():
        if run in done:
            messages.update(strings(record.get("messages")))
            candidates.update(strings(record.get("candidates")))
            continue
        try:
            moment = datetime.fromisoformat(str(record.get("at")))
            moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
            moment.astimezone(UTC)  # a date too near the ends of time fails here, not later
        except (ValueError, OverflowError):
            continue
        unfinished.append(
            Unfinished(
                run,
                str(record.get("session", "")),
                moment,
                frozenset(strings(record.get("messages"))),
                frozenset(progress.get(run, ())),
                tuple(unchecked.get(run, ())),
                tuple(handoff_writes.get(run, ())),
            )
        )
    return Ledger(frozenset(messages), frozenset(candidates), handoffs, tuple(unfinished))


def strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def write_of(record: dict[str, object]) -> Write | None:
    """The change a `writing` line records; None for one this version cannot read."""
    category = record.get("category")
    if category not in CATEGORIES:
        return None
    counts = record.get("reinforced")
    return Write(
        str(category),
        str(record.get("seen", "")),
        frozenset(strings(record.get("stored"))),
        frozenset(strings(record.get("added"))),
        {
            key: value
            for key, value in (counts.items() if isinstance(counts, dict) else ())
            if isinstance(key, str) and isinstance(value, int)
        },
    )


def begin(
    vault: Path,
    agent: str,
    run: str,
    moment: datetime,
    session: str,
    messages: list[str],
    candidates: list[str],
) -> None:
    """Record that a run is about to store what it found."""
    append(
        vault,
        agent,
        {
            "run": run,
            "state": "started",
            "at": moment.astimezone(UTC).isoformat(),
            "session": session,
            "messages": messages,
            "candidates": candidates,
        },
    )


def finish(vault: Path, agent: str, run: str, handoff: str | None) -> None:
    """Record that a run stored everything (and which handoff stands for its session)."""
    append(vault, agent, {"run": run, "state": "done", "handoff": handoff})


def writing(vault: Path, agent: str, run: str, change: Write) -> None:
    """Record, before it is made, the change a run makes to one category file: if the run is
    killed, the run that completes it reads the file to tell whether the change was made."""
    append(
        vault,
        agent,
        {
            "run": run,
            "state": "writing",
            "category": change.category,
            "seen": change.seen,
            "stored": sorted(change.stored),
            "added": sorted(change.added),
            "reinforced": change.reinforced,
        },
    )


def checked(vault: Path, agent: str, run: str, stored: list[str]) -> None:
    """Record that a killed run's recorded changes were checked against the files, and which
    candidates they stored: later writes by other runs cannot blur the answer."""
    append(vault, agent, {"run": run, "state": "checked", "stored": stored})


def progress(vault: Path, agent: str, run: str, stored: list[str]) -> None:
    """Record what a run has stored so far (one category file): if it is killed, the run that
    completes it leaves these out, whatever another run did to the same entries meanwhile."""
    append(vault, agent, {"run": run, "state": "progress", "stored": stored})


def resumable(known: Ledger, messages: list[str]) -> list[Unfinished]:
    """The unfinished runs whose messages are all among these: this run completes them."""
    reading = set(messages)
    return [run for run in known.unfinished if run.messages and run.messages <= reading]


def reached_path(agent: str, path: str) -> str:
    name = hashlib.sha1(path.encode("utf-8", "surrogatepass"), usedforsecurity=False)
    return f"{STATE_FOLDER}/{agent}/reached/{name.hexdigest()[:20]}.json"


def reached(vault: Path, agent: str, path: str) -> Reached | None:
    """How far the agent's commits read the transcript at `path`; None when never, or when
    the record is unreadable (the file is then read whole, as if new)."""
    raw = store.read_text(vault, reached_path(agent, path))
    if not raw:
        return None
    try:
        record = json.loads(raw)
        found = Reached(**record)
    except (ValueError, TypeError, RecursionError):
        return None
    numbers = (found.header, found.restart, found.before)
    if found.path != path or not all(isinstance(n, int) and n >= 0 for n in numbers):
        return None
    if not isinstance(found.course, dict) or not isinstance(found.check, str):
        return None
    return found


def record_reached(vault: Path, agent: str, place: Reached) -> None:
    """Record how far a transcript was read; call only once what lies before is stored."""
    text = json.dumps(place._asdict(), ensure_ascii=False, separators=(",", ":"))
    store.write_atomic(vault, reached_path(agent, place.path), text + "\n")


def append(vault: Path, agent: str, record: dict[str, object]) -> None:
    relative = ledger_path(agent)
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    with store.locked(vault, relative):
        target = inside(vault, relative)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("a", encoding="utf-8") as handle:
                # A line cut short by a crash is skipped on read; start on a fresh line after it.
                if handle.tell() and not ends_with_newline(target):
                    handle.write("\n")
                handle.write(line)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise store.explain_os_error(exc, relative) from exc


def ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"
