"""load: 8 processes x 200 mixed commands in one vault at once, a person's editor saving
`dev/lessons.md` every 50 ms and `mem watch` running the whole time.

Every write that exits 0 names what it stored (`--json` ids, or a unique marker for a hook's Stop),
and at the end each must be in the vault's files exactly once; so must every entry the editor
saved by hand. The editor is careful, so that any loss counted is mem's: it swaps its file in with
RENAME_EXCHANGE, reads what it displaced, and when that is a write of mem's made after it read the
file, saves again on top of that write (an "editor re-save").
"""

from __future__ import annotations

import errno
import json
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from mem.extract import dedupe
from mem.vault import store
from proofs.common import (
    Row,
    child_environment,
    count,
    fresh_vault,
    mem_command,
    percentile,
    run_mem,
    with_default_sigint,
)

PART = "load"
AGENTS = ("dev", "qa")
CATEGORIES = ("decisions", "lessons", "facts", "tasks", "projects", "handoffs")
# The mix of the brief: 30% add, 15% commit, 20% search, 15% recall, 20% hook events.
MIX = {"add": 30, "commit": 15, "search": 20, "recall": 15, "hook": 20}
HOOK_EVENTS = ("SessionStart", "PreToolUse", "Stop")
EDITED = "dev/lessons.md"
SAVE_EVERY_SECONDS = 0.05
# Commands start for this long (each may take COMMAND_TIMEOUT more). 1,600 commands of ~0.2 s
# of CPU each take 210-235 s on 2 cores beside the editor and mem watch (2026-11-28 runs); the
# whole bench must still end within 15 minutes.
LOAD_SECONDS = {False: 300.0, True: 60.0}
COMMAND_TIMEOUT = 60.0
VOCABULARY = """
    alpine backoff batch billing bucket cache canary checkout cluster cookie cron csv
    daemon deploy digest dns docker etag export feature fixture flag gateway gzip
    header healthcheck image import invoice jitter job json kafka kernel ledger lint
    locale mailer manifest metric migration mirror mutex nginx orders pager parser patch
    payload pipeline pool postgres prefetch proxy queue quota redis refund release replica
    retry rollout router runner sandbox schema session shard sidecar sitemap snapshot socket
    sqlite staging stream swagger tarball template tenant thumbnail timeout tls tracing upload
    uvicorn vendor webhook worker yaml zone
"""
WORDS = tuple(VOCABULARY.split())
HEADER = re.compile(r"<!-- id:(\S+)")
IDLESS_FILES = {"README.md", "_project.md"}


@dataclass(frozen=True)
class Expected:
    """What one write of mem's said it stored: an entry id (None for a hook's Stop, which
    reports nothing) and the marker its text carries, in a file of `category`."""

    source: str
    entry_id: str | None
    marker: str | None
    category: str
    said: str | None = None  # a Stop's decision: kept as a reinforcement when one says the same


@dataclass(frozen=True)
class HandWritten:
    """An entry the editor saved into `EDITED` by hand."""

    entry_id: str
    marker: str


@dataclass
class Tally:
    """What the workers saw, filled from several threads under `lock`."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    seconds: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    expected: list[Expected] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    runs: int = 0
    not_started: int = 0


@dataclass(frozen=True)
class Findings:
    """The vault's files checked against what mem and the editor said they wrote."""

    mem_lost: list[str]
    hand_lost: list[str]
    duplicated: list[str]


# --- the check --------------------------------------------------------------------------------


def entry_blocks(vault: Path) -> dict[str, list[tuple[str, str]]]:
    """Every entry in the vault's markdown files (archives included, mem's state folder not):
    id -> [(category, the entry's text)], one item per copy."""
    blocks: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for path in sorted(vault.rglob("*.md")):
        relative = path.relative_to(vault)
        if relative.parts[0] in (".mem", ".git") or path.name in IDLESS_FILES:
            continue
        for entry_id, block in split_entries(path.read_text(encoding="utf-8", errors="replace")):
            blocks[entry_id].append((path.stem, block))
    return blocks


def split_entries(text: str) -> list[tuple[str, str]]:
    """The entries of a category file's text, by their id headers: [(id, its text)]."""
    found = list(HEADER.finditer(text))
    ends = [match.start() for match in found[1:]] + [len(text)]
    return [
        (match.group(1), text[match.start() : end]) for match, end in zip(found, ends, strict=True)
    ]


def body_of(block: str) -> str:
    """An entry's body: its text below the header and heading lines, down to its `---`."""
    lines = block.splitlines()[2:]
    while lines and lines[-1].strip() in ("", "---"):
        lines.pop()
    return "\n".join(lines).strip()


def check(vault: Path, expected: list[Expected], hand: list[HandWritten]) -> Findings:
    """Which writes of mem's and which hand-written entries are missing from the vault, and
    which entries it holds more than once (an id twice, or a marker in two entries of the
    category it was written to)."""
    blocks = entry_blocks(vault)
    in_category: dict[tuple[str, str], int] = Counter()
    markers = {item.marker for item in expected if item.marker} | {item.marker for item in hand}
    for copies in blocks.values():
        for category, text in copies:
            for marker in set(re.findall(r"\b(?:ld|hand)\w+", text)) & markers:
                in_category[marker, category] += 1

    def present(entry_id: str | None, marker: str | None, category: str) -> bool:
        if entry_id is None:
            return in_category[marker or "", category] > 0
        copies = blocks.get(entry_id, [])
        return bool(copies) and (marker is None or any(marker in text for _, text in copies))

    def reinforced(said: str | None, category: str) -> bool:
        """Whether an entry that says what `said` does, in other words, was reinforced: what
        mem does with a decision it already holds (dedupe.is_same)."""
        return said is not None and any(
            kept == category and "reinforced:" in text and dedupe.is_same(body_of(text), said)
            for copies in blocks.values()
            for kept, text in copies
        )

    mem_lost = [
        f"{item.source}: {item.entry_id or item.marker}"
        for item in expected
        if not present(item.entry_id, item.marker, item.category)
        and not reinforced(item.said, item.category)
    ]
    hand_lost = [item.marker for item in hand if not present(item.entry_id, item.marker, "lessons")]
    duplicated = [
        f"id {entry_id} x{len(copies)}" for entry_id, copies in blocks.items() if len(copies) > 1
    ]
    duplicated += [
        f"{marker} x{number} in {category}"
        for (marker, category), number in sorted(in_category.items())
        if number > 1
    ]
    return Findings(mem_lost, hand_lost, duplicated)


# --- the editor -------------------------------------------------------------------------------


def exchange(first: Path, second: Path) -> None:
    """Swap two files' names at once (Linux renameat2 RENAME_EXCHANGE, through mem's own
    wrapper): nothing is replaced unseen, what was at `second` is now at `first`."""
    if not store.exchange(first, second):
        raise OSError(errno.EOPNOTSUPP, "this system cannot exchange two files", str(second))


@dataclass
class Editor:
    """A person's editor saving `path` every `every` seconds until `stop`, taking no lock of
    mem's but never replacing a save it has not read."""

    path: Path
    seed: int
    every: float = SAVE_EVERY_SECONDS
    stop: threading.Event = field(default_factory=threading.Event)
    saved: list[HandWritten] = field(default_factory=list)
    resaves: int = 0
    failure: str | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.save_one()
                time.sleep(self.every)
        except OSError as exc:  # reported as the part's error, not a thread's traceback
            self.failure = f"editor: {exc}"

    def save_one(self) -> None:
        number = len(self.saved)
        item = HandWritten(f"20260101-000000-h{number:05d}", f"hand{self.seed}n{number:05d}")
        block = (
            f"<!-- id:{item.entry_id} kind:lesson -->\n## 2026-01-01T00:00Z\n\n"
            f"Written by hand: {item.marker} keeps the {WORDS[number % len(WORDS)]} notes.\n\n"
            "---\n\n"
        )
        temp = self.path.with_name(f".{self.path.name}.editor")
        expect = self.path.read_text(encoding="utf-8")
        mine = expect + ("" if expect.endswith("\n\n") else "\n") + block
        seen: dict[str, str] = {}
        while True:
            temp.write_text(mine, encoding="utf-8")
            exchange(temp, self.path)
            displaced = temp.read_text(encoding="utf-8")
            if displaced == expect:
                break
            # A write of mem's came in after the read: save again on top of it, keeping every
            # entry a displaced version held (mem may have written on a version of ours that
            # lacked an earlier write of its own).
            self.resaves += 1
            seen.update(split_entries(displaced))
            merged = displaced
            present = dict(split_entries(merged))
            for entry_id, text in [*seen.items(), (item.entry_id, block)]:
                if entry_id not in present:
                    merged += ("" if merged.endswith("\n\n") else "\n") + text
                    present[entry_id] = text
            expect, mine = mine, merged
        temp.unlink()
        self.saved.append(item)


# --- the workers ------------------------------------------------------------------------------


def phrase(rng: random.Random, length: int) -> str:
    return " ".join(rng.sample(WORDS, length))


def transcript(folder: Path, session: str, said: str) -> Path:
    """A Claude Code transcript of one prompt and one answer, saying `said`."""
    path = folder / f"{session}.jsonl"
    common = {"sessionId": session, "isSidechain": False, "cwd": str(folder)}
    lines = [
        {
            **common,
            "type": "user",
            "uuid": f"{session}-u",
            "timestamp": "2026-11-28T10:00:00Z",
            "message": {"role": "user", "content": "Which way should we go here?"},
        },
        {
            **common,
            "type": "assistant",
            "uuid": f"{session}-a",
            "parentUuid": f"{session}-u",
            "timestamp": "2026-11-28T10:00:05Z",
            "message": {
                "id": f"msg-{session}",
                "type": "message",
                "role": "assistant",
                "model": "claude",
                "content": [{"type": "text", "text": said}],
            },
        },
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@dataclass(frozen=True)
class Command:
    """One command of a worker's plan: its kind (for latencies), words, stdin, and what a
    success of it must have stored."""

    kind: str
    words: list[str]
    stdin: str | None = None
    marker: str | None = None
    said: str | None = None  # what a Stop's transcript says


def plan(seed: int, worker: int, commands: int, project: Path, folder: Path) -> list[Command]:
    """The worker's commands, drawn from `seed` alone."""
    rng = random.Random(f"{seed}-{worker}")
    kinds = rng.choices(list(MIX), weights=list(MIX.values()), k=commands)
    planned = []
    for number, kind in enumerate(kinds):
        marker = f"ld{seed}w{worker}c{number:03d}"
        agent = rng.choice(AGENTS)
        if kind == "add":
            category = rng.choice(CATEGORIES)
            text = f"The {phrase(rng, 3)} {marker} needs {phrase(rng, 4)}."
            words = ["add", text, "-c", category, "-a", agent, "--json"]
            planned.append(Command("add", words, marker=marker))
        elif kind == "commit":
            said = (
                f"We decided to use {phrase(rng, 2)} for the {phrase(rng, 2)} because it "
                f"keeps {phrase(rng, 2)} ({marker}d).\nLesson learned: the {phrase(rng, 2)} "
                f"broke since {phrase(rng, 3)} was stale ({marker}l).\n"
            )
            planned.append(Command("commit", ["commit", "-a", agent, "--json"], said, marker))
        elif kind == "search":
            planned.append(Command("search", ["search", phrase(rng, 2), "--json"]))
        elif kind == "recall":
            planned.append(Command("recall", ["recall", "--task", phrase(rng, 4), "-a", agent]))
        else:
            event = rng.choice(HOOK_EVENTS)
            payload: dict[str, object] = {
                "session_id": marker,
                "hook_event_name": event,
                "cwd": str(project),
            }
            stored = told = None
            if event == "SessionStart":
                payload["source"] = "startup"
            elif event == "PreToolUse" and rng.random() < 0.5:
                path = str(project / "src" / f"{rng.choice(WORDS)}.py")
                payload.update(tool_name="Edit", tool_input={"file_path": path, "old_string": "x"})
            elif event == "PreToolUse":
                command = f"git push --force origin {rng.choice(WORDS)}"
                payload.update(tool_name="Bash", tool_input={"command": command})
            else:
                stored = f"{marker}s"
                told = (
                    f"We decided to use {phrase(rng, 2)} for the {phrase(rng, 2)} because it "
                    f"keeps {phrase(rng, 2)} ({stored})."
                )
                payload.update(
                    transcript_path=str(transcript(folder, marker, told)), stop_hook_active=False
                )
            words = ["hook", "claude-code", "--agent", agent]
            planned.append(Command(f"hook {event}", words, json.dumps(payload), stored, told))
    return planned


def what_it_stored(command: Command, stdout: str) -> list[Expected]:
    """The entries a successful command reported (or, for a hook's Stop, the marker it must
    have stored as a decision)."""
    if command.kind == "hook Stop":
        return [Expected(command.kind, None, command.marker, "decisions", command.said)]
    if command.kind == "add":
        entry = json.loads(stdout)["entry"]
        return [Expected("add", entry["id"], command.marker, entry["category"])]
    if command.kind != "commit":
        return []
    report = json.loads(stdout)
    stored = []
    for entry in report["added"]:
        found = re.search(rf"{command.marker}[dl]", entry["body"])
        marker = found.group(0) if found else None
        stored.append(Expected("commit", entry["id"], marker, entry["category"]))
    if report["handoff"]:
        stored.append(Expected("commit", report["handoff"]["id"], None, "handoffs"))
    return stored


def work(commands: list[Command], project: Path, tally: Tally, deadline: float) -> None:
    """Run the commands one after another until done or past `deadline` (time.monotonic)."""
    for done, command in enumerate(commands):
        if time.monotonic() > deadline:
            with tally.lock:
                tally.not_started += len(commands) - done
            return
        try:
            ran = run_mem(command.words, project, stdin=command.stdin, timeout=COMMAND_TIMEOUT)
        except subprocess.TimeoutExpired:
            with tally.lock:
                tally.runs += 1
                tally.seconds[command.kind].append(COMMAND_TIMEOUT)
                tally.errors.append(f"mem {command.kind}: killed after {COMMAND_TIMEOUT:.0f} s")
            continue
        failed = ran.returncode != 0 or "Traceback" in ran.stderr
        stored = [] if failed else what_it_stored(command, ran.stdout)
        with tally.lock:
            tally.runs += 1
            tally.seconds[command.kind].append(ran.seconds)
            tally.expected.extend(stored)
            if failed:
                said = " | ".join(ran.stderr.strip().splitlines()[-3:])
                tally.errors.append(f"mem {command.kind}: exit {ran.returncode}: {said}")


# --- the part ---------------------------------------------------------------------------------


def run(workdir: Path, *, quick: bool, seed: int) -> list[Row]:
    workers, commands = (2, 20) if quick else (8, 200)
    project = workdir / "project"
    vault = fresh_vault(project)
    transcripts = workdir / "transcripts"
    transcripts.mkdir()
    tally = Tally()
    first = run_mem(
        ["add", "The first lesson, before the load", "-c", "lessons", "-a", "dev"], project
    )
    if first.returncode != 0:
        raise RuntimeError(f"mem add failed: {first.stderr.strip()}")
    plans = [plan(seed, n, commands, project, transcripts) for n in range(workers)]

    watch_out, watch_err = workdir / "watch.out", workdir / "watch.err"
    with watch_out.open("wb") as out, watch_err.open("wb") as err:
        watch = subprocess.Popen(
            with_default_sigint([*mem_command(), "watch", "--json"]),  # SIGINT stops it at the end
            cwd=project,
            env=child_environment(),
            stdout=out,
            stderr=err,
        )
    editor = Editor(vault / EDITED, seed)
    saving = threading.Thread(target=editor.run)
    deadline = time.monotonic() + LOAD_SECONDS[quick]
    threads = [threading.Thread(target=work, args=(p, project, tally, deadline)) for p in plans]
    started = time.perf_counter()
    saving.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    editor.stop.set()
    saving.join()
    caught_up = wait_for_passes(watch_out, len(watch_out.read_bytes().splitlines()))
    watch_ran = watch.poll() is None
    watch.send_signal(signal.SIGINT)
    stopping = time.perf_counter()
    try:
        watch.wait(timeout=30)
    except subprocess.TimeoutExpired:
        watch.kill()
        watch.wait()
    stop_seconds = time.perf_counter() - stopping
    doctor = run_mem(["doctor", "--json"], project, timeout=COMMAND_TIMEOUT)
    return rows(
        vault,
        tally,
        editor,
        wall=wall,
        workers=workers,
        watch=(watch_ran, watch.returncode, stop_seconds, watch_out, watch_err),
        caught_up=caught_up,
        doctor=doctor.stdout,
    )


def wait_for_passes(
    stdout: Path, before: int, quiet: float = 2.0, limit: float = 30.0
) -> float | None:
    """Wait until `mem watch` printed a pass after its first `before` lines and then nothing for
    `quiet` seconds (its pass on the last saves), at most `limit` seconds; return when the last
    pass came, in seconds from the call (None when none came)."""
    started = last_change = time.monotonic()
    lines = before
    while time.monotonic() - started < limit:
        time.sleep(0.2)
        now = len(stdout.read_bytes().splitlines())
        if now != lines:
            lines, last_change = now, time.monotonic()
        elif lines > before and time.monotonic() - last_change >= quiet:
            break
    return last_change - started if lines > before else None


def watch_passes(stdout: Path) -> tuple[int, list[str]]:
    """The passes `mem watch --json` printed, and the errors any of them reported."""
    passes, errors = 0, []
    for line in stdout.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            report = json.loads(line)
        except ValueError:
            errors.append(f"mem watch printed: {line[:200]}")
            continue
        passes += 1
        if report.get("error"):
            errors.append(f"mem watch: {report['error']}")
    return passes, errors


def doctor_row(stdout: str) -> Row:
    """`mem doctor --json` at the end: no malformed or half-written entry, no id twice, an
    index that holds what the files hold."""
    try:
        problems = json.loads(stdout)["problems"]
    except (ValueError, KeyError, TypeError):
        return Row(
            PART, "mem doctor at the end", f"no report: {stdout[:80]!r}", "no problem", False
        )
    kinds = Counter(problem["code"] for problem in problems)
    for problem in problems[:5]:
        print(
            f"# load: doctor: {problem['path']}:{problem['line']}: {problem['message']}",
            file=sys.stderr,
        )
    told = ", ".join(f"{number} {code}" for code, number in sorted(kinds.items()))
    return Row(PART, "mem doctor at the end", told or "no problem", "no problem", not problems)


def rows(
    vault: Path,
    tally: Tally,
    editor: Editor,
    *,
    wall: float,
    workers: int,
    watch: tuple[bool, int | None, float, Path, Path],
    doctor: str,
    caught_up: float | None = 0.0,
) -> list[Row]:
    """The part's rows, from the vault as the run left it and what the run saw."""
    findings = check(vault, tally.expected, editor.saved)
    watch_ran, watch_status, stop_seconds, watch_out, watch_err = watch
    passes, watch_errors = watch_passes(watch_out)
    watch_said = watch_err.read_text(encoding="utf-8", errors="replace")
    log = vault / ".mem" / "hook-errors.log"
    hook_errors = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    errors = [*tally.errors, *hook_errors, *watch_errors]
    errors += [editor.failure] if editor.failure else []
    for said, number in Counter(errors).most_common(5):
        print(f"# load: {number} x {said}", file=sys.stderr)
    for line in [*findings.mem_lost[:5], *findings.hand_lost[:5]]:
        print(f"# load: lost {line}", file=sys.stderr)
    for line in findings.duplicated[:5]:
        print(f"# load: duplicated {line}", file=sys.stderr)
    watch_clean = (
        watch_ran
        and watch_status in (0, 130)
        and "Traceback" not in watch_said
        and caught_up is not None
    )
    watch_told = f"{'ran throughout' if watch_ran else 'had stopped before the end'}, "
    watch_told += f"{passes} passes, " + (
        "none after the saves stopped, "
        if caught_up is None
        else f"the last {caught_up:.1f} s after the saves stopped, "
    )
    watch_told += f"exit {watch_status} {stop_seconds:.1f} s after SIGINT"
    if "Traceback" in watch_said:
        watch_told += ", a traceback"
    expected, saved = len(tally.expected), len(editor.saved)
    table = [
        Row(
            PART,
            "mem's entries lost (of the writes that exited 0)",
            f"{len(findings.mem_lost)} of {count(expected)}",
            "0",
            expected > 0 and not findings.mem_lost,
        ),
        Row(
            PART,
            "hand-written entries lost (of the editor's saves)",
            f"{len(findings.hand_lost)} of {count(saved)}",
            "0",
            saved > 0 and not findings.hand_lost,
        ),
        Row(
            PART,
            "entries held twice",
            count(len(findings.duplicated)),
            "0",
            not findings.duplicated,
        ),
        Row(
            PART,
            "errors (exit ≠ 0, tracebacks, hook-errors.log, watch errors)",
            f"{len(errors)} of {count(tally.runs)} commands",
            "0",
            not errors,
        ),
        Row(
            PART,
            "mem watch: runs throughout, reindexes the last saves, stops on SIGINT",
            watch_told,
            "a pass, a clean exit",
            watch_clean,
        ),
        doctor_row(doctor),
        Row(
            PART,
            "editor saves (re-saves on top of a write of mem's)",
            f"{saved} ({editor.resaves})",
        ),
        Row(
            PART,
            "planned commands run before the deadline",
            f"{count(tally.runs)} of {count(tally.runs + tally.not_started)} "
            f"by {workers} workers in {wall:.0f} s",
            "all",
            tally.not_started == 0 and tally.runs > 0,
        ),
    ]
    for kind in sorted(tally.seconds):
        seconds = tally.seconds[kind]
        table.append(
            Row(
                PART,
                f"latency of {kind} (p50 / p95, {len(seconds)} runs)",
                f"{percentile(seconds, 0.5):.2f} s / {percentile(seconds, 0.95):.2f} s",
            )
        )
    return table
