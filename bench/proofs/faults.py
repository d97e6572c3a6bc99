"""Faults: SIGKILLs at random moments of the commands that write, a full disk, a read-only vault.

Each command that writes (a commit of a real session, a compaction of a vault with 180 days of
entries, a flat-vault migration, an import, a backfill of Claude Code sessions and an index
rebuild) first runs unkilled, WORKERS copies at once, on its prepared vault: what it leaves is
the reference (the same on each copy), its wall time the span the kills are drawn from. Then
each kill copies the vault afresh, starts the command, SIGKILLs it after a seeded uniform delay
within that span and checks the files at once (each parses; no entry that was there before is
lost or doubled), then runs the same command again and a search, with no repair between, and
checks they leave the vault and the search's hits exactly as the reference run did.

Beside the kills: an add, a commit and a compaction on a small tmpfs left full (or nearly),
and a search there; an add, a commit, searches and a recall on a vault bind-mounted read-only.
Both mounts need root (the part says so in a row and skips them otherwise).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from mem.model import CATEGORIES
from mem.vault import entries as codec
from mem.vault import layout, store
from proofs.common import (
    Ran,
    Row,
    child_environment,
    count,
    fresh_vault,
    mem_command,
    run_mem,
)

PART = "faults"
REPO = Path(__file__).resolve().parents[2]
CAPTURE_DEV = Path("/work/shared/bench/capture-dev")
WORKERS = 3  # kills run three at a time: their processes wait on fsync and on each other
AGENTS = ("dev", "ops")
# Header values that change from run to run whatever happened: when an entry was seen again.
VOLATILE_KEYS = {"seen"}
ID_TOKEN = re.compile(r"[A-Za-z0-9_-]{4,}")


@dataclass
class Scenario:
    """One command that writes, the vault it runs on and the search that reads it after."""

    name: str
    words: list[str]
    query: str
    template: Path = Path()
    seconds: float = 0.0  # its typical wall time, unkilled
    reference: Snapshot | None = None
    found: Counter[tuple[str, ...]] = field(default_factory=Counter)  # its search's hits, unkilled


@dataclass(frozen=True)
class Snapshot:
    """What a vault holds, read with mem's own parser."""

    unparseable: tuple[str, ...]  # files with problems
    ids: Counter[str]  # every entry's id, counted over hot files and archives
    places: dict[str, list[str]]  # id -> the files holding it
    prints: Counter[tuple[str, ...]]  # every entry as the comparison sees it


def fingerprint(entry: codec.Entry, known: set[str]) -> tuple[str, ...]:
    """An entry as two runs of one command must both leave it: its file, kind, tags, body and
    header, with the ids and dates of entries the run itself made (random, the clock's) left
    out, and only the ids of entries that were there before kept."""

    def same(value: str) -> str:
        return ID_TOKEN.sub(lambda m: m.group() if m.group() in known else "NEW", value)

    header = tuple(
        f"{key}:{same(value)}" for key, value in entry.header if key not in VOLATILE_KEYS
    )
    kept = entry.id if entry.id in known else "NEW"
    when = codec.format_date(entry.date) if entry.id in known else ""
    return (kept, entry.path, entry.kind, when, " ".join(entry.tags), entry.body, *header)


def snapshot(vault: Path, known: set[str]) -> Snapshot:
    """Parse every category file of `vault`, hot and archived, as mem itself reads them."""
    unparseable: list[str] = []
    ids: Counter[str] = Counter()
    places: dict[str, list[str]] = {}
    prints: Counter[tuple[str, ...]] = Counter()
    for ref in layout.category_files(vault):
        parsed = codec.parse_ref(store.read_text(vault, ref.path), ref)
        if parsed.problems:
            unparseable.append(ref.path)
        for entry in parsed.entries:
            ids[entry.id] += 1
            places.setdefault(entry.id, []).append(ref.path)
            prints[fingerprint(entry, known)] += 1
    return Snapshot(tuple(unparseable), ids, places, prints)


def lost(before: set[str], after: Snapshot) -> set[str]:
    """The entries that were in the vault before and are in none of its files now."""
    return {entry_id for entry_id in before if after.ids[entry_id] == 0}


def doubled(after: Snapshot, moving: bool = False) -> set[str]:
    """Ids held more than once. With `moving` (a compaction killed mid-move), an entry held by
    a hot file and its own archive is left out: the next run finishes the move, and doctor
    reports it meanwhile (README: Keeping a vault small)."""
    found: set[str] = set()
    for entry_id, number in after.ids.items():
        if number < 2:
            continue
        places = after.places[entry_id]
        if moving and number == 2 and mid_move(places):
            continue
        found.add(entry_id)
    return found


def mid_move(places: list[str]) -> bool:
    """Whether an entry's two places are a hot file and that file's own archive."""
    return len(places) == 2 and archived_name(min(places, key=len)) == max(places, key=len)


def archived_name(path: str) -> str:
    folder, _, name = path.rpartition("/")
    return f"{folder}/{layout.ARCHIVE_DIR}/{name}"


def search_words(query: str) -> list[str]:
    return ["search", query, "--all", "--json", "--limit", "1000000"]


def hits(scenario: Scenario, project: Path, known: set[str]) -> Counter[tuple[str, ...]] | None:
    """The search's hits as fingerprints, or None when the search failed."""
    ran = run_mem(search_words(scenario.query), project, timeout=120)
    return hits_of(ran, project, known)


ERRORS: dict[Path, str] = {}  # a project's last failed search, for the report


def last_error(project: Path) -> str:
    return ERRORS.get(project, "")


def hits_of(ran: Ran, project: Path, known: set[str]) -> Counter[tuple[str, ...]] | None:
    if ran.returncode != 0 or "Traceback" in ran.stderr:
        ERRORS[project] = f"exit {ran.returncode}: {ran.stderr.strip()[-400:]}"
        return None
    vault = project / ".memory"
    entries: dict[str, codec.Entry] = {}
    for ref in layout.category_files(vault):
        for entry in codec.parse_ref(store.read_text(vault, ref.path), ref).entries:
            entries[entry.id] = entry
    found: Counter[tuple[str, ...]] = Counter()
    for hit in json.loads(ran.stdout)["hits"]:
        entry = entries.get(hit["id"])
        found[fingerprint(entry, known) if entry else ("missing", hit["id"])] += 1
    return found


# --- the vaults the commands run on ------------------------------------------------------------


def template_ids(template: Path) -> set[str]:
    return set(snapshot(template / ".memory", set()).ids)


def prepared(folder: Path, build: Callable[[Path], None]) -> Path:
    """A git repository with a vault, built by `build(project)`, its index made."""
    vault = fresh_vault(folder)
    build(folder)
    run_mem(["search", "anything"], folder)  # an index, as a vault in use has one
    return vault


def session_text(copies: int) -> str:
    """The README's example session, `copies` times over, each copy with its own markers."""
    text = (REPO / "examples" / "agent-output.txt").read_text(encoding="utf-8")
    parts = []
    for number in range(copies):
        marker = f"zq{number:03d}"
        parts.append(
            text.replace("login", f"login{marker}")
            .replace("session store", f"session store {marker}")
            .replace("4f2a9c1", f"4f2{number:04x}")
        )
    return "\n".join(parts)


def old_entries(project: Path, number: int, seed: int) -> None:
    """`number` entries written straight into the category files, dated over 180 days."""
    rng = random.Random(seed)
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    words = ["cache", "login", "deploy", "schema", "retry", "token", "queue", "index"]
    blocks: dict[tuple[str, str], list[tuple[datetime, str]]] = {}
    for item in range(number):
        agent = rng.choice(AGENTS)
        category = rng.choice(CATEGORIES)
        moment = now - timedelta(seconds=rng.randrange(180 * 86400))
        entry_id = f"{moment:%Y%m%d-%H%M%S}-{rng.randrange(36**6):06x}"[:22]
        subject = rng.sample(words, 2)
        if category == "tasks":
            body = f"- [{'x' if rng.random() < 0.5 else ' '}] fixture {subject[0]} item {item}"
        else:
            body = (
                f"The fixture {subject[0]} stage {item} uses {subject[1]}; "
                f"{'it failed on retry' if rng.random() < 0.3 else 'it works'}."
            )
        header: tuple[tuple[str, str], ...] = (("kind", codec.KINDS_BY_CATEGORY[category][0]),)
        if rng.random() < 0.1:
            header += (("reinforced", str(rng.randint(1, 4))),)
        block = codec.render_entry(entry_id, moment, (subject[0],), body, header)
        blocks.setdefault((agent, category), []).append((moment, block))
    vault = project / ".memory"
    for (agent, category), found in blocks.items():
        (vault / agent).mkdir(exist_ok=True)
        ordered = sorted(found, key=lambda pair: pair[0], reverse=True)
        text = codec.new_file_text(agent, category) + "".join(block for _, block in ordered)
        (vault / agent / f"{category}.md").write_text(text, encoding="utf-8")


def flat_vault(project: Path, items: int, seed: int) -> None:
    """`.memory/<agent>.md` files in the older flat layout, one section per kind."""
    rng = random.Random(seed)
    sections = ("Decisions", "Lessons", "Tasks", "Context", "Notes", "Handoffs")
    for agent in AGENTS:
        lines = [f"# {agent}", ""]
        for section in sections:
            lines += [f"## {section}", ""]
            for number in range(items // len(sections)):
                day = datetime(2026, 1, 1) + timedelta(days=rng.randrange(300))
                lines.append(
                    f"- {day:%Y-%m-%d} flat {section.lower()} note {agent} {number} about "
                    f"the {rng.choice(['cache', 'login', 'deploy', 'schema'])} fixture"
                )
            lines.append("")
        (project / ".memory" / f"{agent}.md").write_text("\n".join(lines), encoding="utf-8")


def event_log(path: Path, records: int, seed: int) -> None:
    """A JSONL event log of the kind `mem migrate --from jsonl` imports."""
    rng = random.Random(seed)
    kinds = ("decision", "lesson", "fact", "task", "convention", "warning")
    with path.open("w", encoding="utf-8") as handle:
        for number in range(records):
            day = datetime(2026, 3, 1, tzinfo=UTC) + timedelta(minutes=rng.randrange(200000))
            record = {
                "id": f"ev-{number}",
                "type": rng.choice(kinds),
                "text": f"imported fixture record {number}: the "
                f"{rng.choice(['cache', 'login', 'deploy', 'schema'])} stage keeps its state",
                "time": day.isoformat(),
            }
            handle.write(json.dumps(record) + "\n")


def claude_sessions(folder: Path) -> list[Path]:
    """A few real Claude Code transcripts: capture-dev's when present, else a made-up one."""
    folder.mkdir(parents=True)
    real = sorted(CAPTURE_DEV.glob("claude-*.jsonl"), key=lambda p: p.stat().st_size)[:1]
    for path in real:
        shutil.copy(path, folder / path.name)
    if not real:
        lines = []
        for number, text in enumerate(session_text(6).split("\n\n")):
            role = "user" if number % 4 == 0 else "assistant"
            content = text if role == "user" else [{"type": "text", "text": text}]
            lines.append(
                json.dumps(
                    {
                        "type": role,
                        "sessionId": "made-up",
                        "timestamp": f"2026-11-01T10:{number % 60:02d}:00Z",
                        "message": {"role": role, "content": content},
                    }
                )
            )
        (folder / "made-up.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sorted(folder.glob("*.jsonl"))


def scenarios(workdir: Path, quick: bool, seed: int) -> list[Scenario]:
    """The six commands that write, each with its vault prepared once."""
    made: list[Scenario] = []
    templates = workdir / "templates"
    inputs = workdir / "inputs"
    inputs.mkdir(parents=True)
    sessions = claude_sessions(inputs / "claude")
    commit_input = sessions[0] if CAPTURE_DEV.is_dir() else inputs / "output.txt"
    if not CAPTURE_DEV.is_dir():
        commit_input.write_text(session_text(8), encoding="utf-8")

    def earlier_commit(project: Path) -> None:  # entries the killed commit may reinforce
        run_mem(["commit", "--agent", "dev"], project, stdin=session_text(2))

    entries = 150
    builders: list[tuple[str, list[str], str, Callable[[Path], None]]] = [
        ("commit", ["commit", "--agent", "dev", "--file", str(commit_input)], "", earlier_commit),
        ("compact", ["compact"], "fixture", lambda p: old_entries(p, entries, seed)),
        ("migrate", ["migrate"], "fixture", lambda p: flat_vault(p, 60, seed)),
        (
            "import",
            ["migrate", "--from", "jsonl", str(inputs / "events.jsonl"), "-a", "dev"],
            "fixture",
            lambda p: None,
        ),
        ("backfill", ["backfill", "--from", "claude-code", "--since", "all"], "", lambda p: None),
        ("rebuild", search_words("fixture"), "fixture", lambda p: old_entries(p, entries, seed)),
    ]
    event_log(inputs / "events.jsonl", 150, seed)
    for name, words, query, build in builders:
        template = templates / name
        prepared(template, build)
        made.append(Scenario(name, words, query, template))
    return made


# --- one kill ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one kill left, and whether the next commands made it whole."""

    scenario: str
    killed: bool = False
    unparseable: int = 0
    lost: int = 0
    doubled: int = 0
    left_mid_move: int = 0
    leftovers: tuple[str, ...] = ()  # what the kill left in .mem/ that the rerun did not remove
    recovered: bool = False
    why: str = ""


class Worker:
    """A fixed project folder (backfill finds sessions by the project's path) and a HOME."""

    def __init__(self, root: Path, sessions: Path) -> None:
        self.project = root / "project"
        self.home = root / "home"
        slug = re.sub(r"[^A-Za-z0-9]", "-", str(self.project.resolve()))
        claude = self.home / ".claude" / "projects"
        claude.mkdir(parents=True)
        os.symlink(sessions, claude / slug)
        self.environment = {"HOME": str(self.home)}

    def reset(self, scenario: Scenario) -> Path:
        if self.project.exists():
            shutil.rmtree(self.project)
        shutil.copytree(scenario.template, self.project, symlinks=True)
        if scenario.name == "rebuild":
            shutil.rmtree(self.project / ".memory" / ".mem" / "index", ignore_errors=True)
        return self.project / ".memory"

    def run(self, scenario: Scenario) -> float:
        self.reset(scenario)
        ran = run_mem(scenario.words, self.project, env=self.environment, timeout=300)
        if ran.returncode != 0 or "Traceback" in ran.stderr:
            raise RuntimeError(f"{scenario.name} failed unkilled: {ran.stderr.strip()[-500:]}")
        return ran.seconds

    def start(self, scenario: Scenario) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [*mem_command(), *scenario.words],
            cwd=self.project,
            env=child_environment(self.environment),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def kill(self, scenario: Scenario, rng: random.Random) -> Outcome:
        outcome = Outcome(scenario.name)
        assert scenario.reference is not None
        span = scenario.seconds
        for _ in range(5):  # a run that ended before its kill is no kill: draw again, within
            vault = self.reset(scenario)  # the time that run took
            flat = {p.name: p.read_bytes() for p in vault.glob("*.md") if p.stem in AGENTS}
            before = set(snapshot(vault, set()).ids)
            process = self.start(scenario)
            delay = rng.uniform(0, span)
            time.sleep(delay)
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                process.wait()
                outcome.killed = True
                break
            process.wait()
            span = delay  # it ended within that
        if not outcome.killed:
            outcome.why = "every try ended before its kill"
            return outcome
        known = template_ids(scenario.template)
        after = snapshot(vault, known)
        outcome.unparseable = len(after.unparseable)
        outcome.lost = len(lost(before, after)) + flat_lost(vault, flat)
        moving = scenario.name == "compact"
        outcome.doubled = len(doubled(after, moving) & before)
        outcome.left_mid_move = len(doubled(after) - doubled(after, moving))
        judge(self, scenario, outcome, before, known)
        return outcome


def flat_lost(vault: Path, flat: dict[str, bytes]) -> int:
    """Flat files whose text is neither where it was nor in its `.md.bak`."""
    missing = 0
    for name, data in flat.items():
        kept = [vault / name, vault / f"{name}.bak"]
        if not any(p.is_file() and p.read_bytes() == data for p in kept):
            missing += 1
    return missing


def leftovers(vault: Path) -> tuple[str, ...]:
    """Temp files and half-built or retired index folders in `.mem/`, where `mem doctor` does
    not look (it reports and removes those beside the category files)."""
    state = vault / layout.STATE_DIR
    found = [path for path in state.rglob("*.tmp") if path.is_file()]
    found += [path for path in state.glob("index.*-*") if path.is_dir()]
    return tuple(sorted(path.relative_to(vault).as_posix() for path in found))


def judge(
    worker: Worker, scenario: Scenario, outcome: Outcome, before: set[str], known: set[str]
) -> None:
    """Run the command again, then a search, with no repair between: both must succeed and
    leave what an unkilled run leaves."""
    assert scenario.reference is not None
    vault = worker.project / ".memory"
    ran = run_mem(scenario.words, worker.project, env=worker.environment, timeout=300)
    outcome.leftovers = leftovers(vault)
    after = snapshot(vault, known)
    outcome.unparseable += len(after.unparseable)
    outcome.lost += len(lost(before, after))
    outcome.doubled += len(doubled(after) & before)
    if ran.returncode != 0 or "Traceback" in ran.stderr:
        outcome.why = f"rerun exit {ran.returncode}: {ran.stderr.strip()[-300:]}"
        return
    if after.prints != scenario.reference.prints:
        extra = after.prints - scenario.reference.prints
        missing = scenario.reference.prints - after.prints
        outcome.why = f"rerun left {sum(extra.values())} extra, {sum(missing.values())} missing"
        outcome.why += f" entries, e.g. {next(iter(extra or missing))}"[:400]
        return
    # A rebuild's rerun is the search: its hits are checked as they are.
    rebuilt = scenario.name == "rebuild"
    found = (
        hits_of(ran, worker.project, known) if rebuilt else hits(scenario, worker.project, known)
    )
    if found is None:
        outcome.why = f"search after the rerun failed: {last_error(worker.project)}"
        return
    if found != scenario.found:
        outcome.why = f"search found {sum(found.values())}, not {sum(scenario.found.values())}"
        return
    outcome.recovered = True


def commonest_word(vault: Path) -> str:
    """The word most entries of the vault hold: a search that finds many of them."""
    held: Counter[str] = Counter()
    for ref in layout.category_files(vault):
        for entry in codec.parse_ref(store.read_text(vault, ref.path), ref).entries:
            held.update(set(re.findall(r"[a-z]{5,}", entry.body.lower())))
    return held.most_common(1)[0][0] if held else "memory"


def references(scenario: Scenario, workers: list[Worker], pool: ThreadPoolExecutor) -> None:
    """Run the command unkilled on every worker at once: its typical time under this load, and
    what it leaves (the same on each, or the comparison would mean nothing)."""
    seconds = list(pool.map(lambda w: w.run(scenario), workers))
    scenario.seconds = statistics.median(seconds)
    known = template_ids(scenario.template)
    left = [snapshot(w.project / ".memory", known) for w in workers]
    if any(s.prints != left[0].prints for s in left):
        raise RuntimeError(f"two unkilled runs of {scenario.name} left different vaults")
    scenario.reference = left[0]
    if not scenario.query:
        scenario.query = commonest_word(workers[0].project / ".memory")
    found = hits(scenario, workers[0].project, known)
    if found is None:
        raise RuntimeError(f"the search after an unkilled {scenario.name} failed")
    scenario.found = found


def kills(workdir: Path, quick: bool, seed: int) -> list[Row]:
    """The kills, WORKERS at a time, with the full-disk and read-only cases run beside them."""
    made = scenarios(workdir, quick, seed)
    sessions = workdir / "inputs" / "claude"
    workers = [Worker(workdir / f"worker{n}", sessions) for n in range(WORKERS)]
    total = 30 if quick else 200
    rng = random.Random(seed)
    plan = [made[n % len(made)] for n in range(total)]
    rng.shuffle(plan)
    seeds = [rng.randrange(2**32) for _ in plan]
    started = time.perf_counter()

    # One lane per worker, each its worker's kills in order, so no worker folder is shared.
    def lane(start: int) -> list[Outcome]:
        return [
            workers[start].kill(plan[n], random.Random(seeds[n]))
            for n in range(start, total, WORKERS)
        ]

    with ThreadPoolExecutor(WORKERS + 1) as pool:
        for scenario in made:
            references(scenario, workers, pool)
        print(f"# faults: prepared in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        disk = pool.submit(faults_on_disk, workdir, seed)
        lanes = [pool.submit(lane, start) for start in range(WORKERS)]
        outcomes = [outcome for done in lanes for outcome in done.result()]
        beside = disk.result()
    return kill_rows(made, outcomes, total) + beside


def entries_of(scenario: Scenario) -> int:
    return sum(scenario.reference.ids.values()) if scenario.reference else 0


def kill_rows(made: list[Scenario], outcomes: list[Outcome], total: int) -> list[Row]:
    rows = [
        Row(
            PART,
            f"SIGKILLs during {s.name} (unkilled: {s.seconds:.2f} s, leaves "
            f"{entries_of(s)} entries, search finds {sum(s.found.values())})",
            count(sum(1 for o in outcomes if o.scenario == s.name and o.killed)),
        )
        for s in made
    ]
    killed = [o for o in outcomes if o.killed]
    unparseable = sum(o.unparseable for o in outcomes)
    lost_entries = sum(o.lost for o in outcomes)
    doubled_entries = sum(o.doubled for o in outcomes)
    mid_move = sum(1 for o in outcomes if o.left_mid_move)
    recovered = sum(1 for o in outcomes if o.recovered)
    left = [o for o in outcomes if o.leftovers]
    example = f" (e.g. {left[0].scenario}: {', '.join(left[0].leftovers[:2])})" if left else ""
    rows += [
        Row(
            PART,
            "kills that left a temp file or index folder in .mem/ that nothing removes",
            count(len(left)) + example,
        ),
        Row(
            PART,
            "compactions killed mid-move (an entry in a hot file and its archive until the next "
            "run)",
            count(mid_move),
        ),
        Row(
            PART,
            "category files unparseable after a kill",
            count(unparseable),
            "0",
            unparseable == 0,
        ),
        Row(
            PART,
            "entries lost after a kill or its rerun",
            count(lost_entries),
            "0",
            lost_entries == 0,
        ),
        Row(
            PART,
            "entries doubled after a kill or its rerun",
            count(doubled_entries),
            "0",
            doubled_entries == 0,
        ),
        Row(
            PART,
            "next command (the same again, then search) recovered without being told",
            f"{recovered} of {len(killed)}",
            f"{total} of {total}",
            recovered == total and len(killed) == total,
        ),
    ]
    for o in outcomes:
        if not o.recovered or o.lost or o.doubled or o.unparseable:
            print(f"# faults: {o.scenario}: {o}", file=sys.stderr)
    return rows


# --- a full disk, a read-only vault ------------------------------------------------------------

DISK_SIZE = "8m"
FREE_LEFT = (0, 4096, 65536)  # bytes left free on the small disk when the command starts
CLEAN = "clear error, nothing half-written"


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative path -> bytes), symlinks as their target's path."""
    found: dict[str, bytes] = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            relative = path.relative_to(folder).as_posix()
            found[relative] = os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
    return found


def one_line_error(ran_code: int, stderr: str) -> bool:
    """Exit 1 with one `mem: ...` line on stderr, no traceback."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    return ran_code == 1 and len(lines) == 1 and lines[0].startswith("mem: ")


def half_written(vault: Path, before: dict[str, bytes]) -> list[str]:
    """The vault's files (machine-local `.mem/` left out: the rerun shows what it is worth)
    that are neither as they were nor a whole new version, and the entries gone from all of
    them: a changed category file must parse; any other file must be as it was; a new file
    must be a category file that parses, or a temp file that `mem doctor` names."""
    after = files_of(vault)
    bad: list[str] = []
    doctor: str | None = None
    for relative in sorted(set(before) | set(after)):
        if before.get(relative) == after.get(relative):
            continue
        temp = relative not in before and relative.endswith(".tmp")
        if relative.startswith(".mem/") and not temp:
            continue
        ref = layout.describe(relative)
        if ref is not None and relative in after:
            if not codec.parse_ref(after[relative].decode("utf-8", "replace"), ref).problems:
                continue
        elif temp:
            if doctor is None:
                ran = run_mem(["doctor"], vault.parent)
                doctor = ran.stdout + ran.stderr
            if Path(relative).name in doctor:
                continue
        bad.append(relative)
    held = set(snapshot(vault, set()).ids)
    for relative, data in before.items():
        ref = layout.describe(relative)
        if ref is not None and not relative.startswith(".mem/"):
            entries = codec.parse_ref(data.decode("utf-8", "replace"), ref).entries
            bad += [f"{relative}: lost {e.id}" for e in entries if e.id not in held]
    return bad


@dataclass
class DiskCase:
    """One command on a small disk, run with little or no space left."""

    name: str
    words: list[str]
    refused: int = 0  # runs that hit the full disk and said so in one line
    fitted: int = 0  # runs that found room enough and succeeded
    failures: list[str] = field(default_factory=list)


def fill(folder: Path, leave: int) -> Path:
    """A file taking all of `folder`'s filesystem but `leave` bytes."""
    filler = folder / "filler"
    stats = os.statvfs(folder)
    size = max(0, stats.f_bavail * stats.f_frsize - leave)
    with filler.open("wb") as handle:
        block = b"\0" * 65536
        while size > 0:
            try:
                handle.write(block[: min(size, len(block))])
                handle.flush()
            except OSError:
                break
            size -= min(size, len(block))
    return filler


def search_on_full_disk(mount_point: Path, template: Path) -> Row:
    """A search on a full disk, after an add the index has not seen: it finds every entry, or
    says in one line why not; no temp file left."""
    project = mount_point / "project"
    shutil.rmtree(project, ignore_errors=True)
    shutil.copytree(template, project, symlinks=True)
    run_mem(["add", "a later fixture note", "-c", "lessons", "--agent", "dev"], project)
    everything = sum(snapshot(project / ".memory", set()).ids.values())
    filler = fill(mount_point, 0)
    before = files_of(project / ".memory")
    ran = run_mem(search_words("fixture"), project)
    filler.unlink()
    found = len(json.loads(ran.stdout)["hits"]) if ran.returncode == 0 else 0
    bad = half_written(project / ".memory", before)
    return Row(
        PART,
        "`mem search` on a full disk, after an add the index has not seen",
        f"exit {ran.returncode}, {found} of {everything} entries found"
        + (f", half-written: {bad[:2]}" if bad else ""),
        "finds every entry, nothing half-written",
        ran.returncode == 0 and found == everything and not bad and "Traceback" not in ran.stderr,
    )


def full_disk(workdir: Path, template: Path, session: Path) -> list[Row]:
    """Run an add, a commit and a compaction on a tmpfs left nearly full (0, 4 KB, 64 KB free).

    A run that fails must say so in one line and leave every file as it was or whole; the same
    command run again once space is freed must then leave what it leaves on a roomy disk."""
    mount_point = workdir / "small-disk"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_SIZE}", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        why = mounted.stderr.strip() or "mount failed"
        return [
            Row(PART, "full disk: add, commit, compact", f"skipped: cannot mount a tmpfs ({why})")
        ]
    cases = [
        DiskCase("add", ["add", "disk full fixture note", "-c", "decisions", "--agent", "dev"]),
        DiskCase("commit", ["commit", "--agent", "dev", "--file", str(session)]),
        DiskCase("compact", ["compact"]),
    ]
    known = template_ids(template)
    try:
        for case in cases:
            roomy = workdir / f"roomy-{case.name}"
            shutil.copytree(template, roomy, symlinks=True)
            run_mem(case.words, roomy)
            reference = snapshot(roomy / ".memory", known).prints
            for leave in FREE_LEFT:
                project = mount_point / "project"
                shutil.rmtree(project, ignore_errors=True)
                shutil.copytree(template, project, symlinks=True)
                filler = fill(mount_point, leave)
                before = files_of(project / ".memory")
                ran = run_mem(case.words, project)
                label = f"{case.name} with {leave} bytes free"
                filler.unlink()
                bad = half_written(project / ".memory", before)
                if bad:
                    case.failures.append(f"{label}: half-written {bad[:3]}")
                if ran.returncode == 0:  # not run again: an add would add its entry twice
                    case.fitted += 1
                    if snapshot(project / ".memory", known).prints != reference:
                        case.failures.append(f"{label}: succeeded, but not as on a roomy disk")
                    continue
                if not one_line_error(ran.returncode, ran.stderr):
                    case.failures.append(f"{label}: exit {ran.returncode}: {ran.stderr[-300:]}")
                    continue
                case.refused += 1
                again = run_mem(case.words, project)
                if again.returncode != 0:
                    case.failures.append(f"{label}: the rerun failed: {again.stderr[-300:]}")
                elif snapshot(project / ".memory", known).prints != reference:
                    case.failures.append(f"{label}: the rerun left another vault than a roomy disk")
        searched = search_on_full_disk(mount_point, template)
    finally:
        subprocess.run(["umount", str(mount_point)], check=False)
    rows = [searched]
    for case in cases:
        for failure in case.failures:
            print(f"# faults: full disk: {failure}", file=sys.stderr)
        rows.append(
            Row(
                PART,
                f"`mem {case.name}` on a full disk ({', '.join(map(str, FREE_LEFT))} bytes free)",
                f"{case.refused} refused in one line, {case.fitted} fitted, "
                f"{len(case.failures)} failures",
                CLEAN,
                case.refused > 0 and not case.failures,
            )
        )
    return rows


def mount_read_only(folder: Path) -> str:
    """Bind-mount `folder` read-only over itself (root, not stopped by chmod, needs this);
    '' when done, else why not."""
    mounted = subprocess.run(
        ["sh", "-c", 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"', "sh", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    return "" if mounted.returncode == 0 else (mounted.stderr.strip() or "mount failed")


def with_handwritten_entry(template: Path, project: Path) -> Path:
    """A copy of `template` where a person added an entry after the index was made."""
    shutil.copytree(template, project, symlinks=True)
    decisions = project / ".memory" / "dev" / "decisions.md"
    handwritten = codec.render_entry(
        "20261101-100000-handwr",
        datetime(2026, 11, 1, 10, tzinfo=UTC),
        (),
        "Handwritten zebracorn fixture note, saved after the index was made.",
        (("kind", "decision"),),
    )
    parsed = codec.parse_file(decisions.read_text("utf-8"), "dev/decisions.md", "dev", "decisions")
    decisions.write_text(codec.insert_entry(parsed, handwritten), encoding="utf-8")
    return project / ".memory"


def read_only(workdir: Path, template: Path, session: Path) -> list[Row]:
    """`add` and `commit` on a vault bind-mounted read-only say so in one line; `search` and
    `recall` still answer and find every entry: on a vault a person edited since the index was
    made, and on a fresh clone (no `.mem/`, which git ignores)."""
    edited = with_handwritten_entry(template, workdir / "read-only")
    clone = with_handwritten_entry(template, workdir / "read-only-clone")
    shutil.rmtree(clone / ".mem")
    mounted: list[Path] = []
    rows: list[Row] = []
    try:
        for vault in (edited, clone):
            why = mount_read_only(vault)
            if why:
                return [Row(PART, "read-only vault", f"skipped: cannot mount it read-only ({why})")]
            mounted.append(vault)
        before = files_of(edited)
        for name, words in (
            ("add", ["add", "read-only fixture note", "-c", "decisions", "--agent", "dev"]),
            ("commit", ["commit", "--agent", "dev", "--file", str(session)]),
        ):
            ran = run_mem(words, edited.parent)
            clean = one_line_error(ran.returncode, ran.stderr) and files_of(edited) == before
            rows.append(
                Row(
                    PART,
                    f"`mem {name}` on a read-only vault",
                    f"exit {ran.returncode}: {ran.stderr.strip()[:90]}",
                    CLEAN,
                    clean,
                )
            )
        everything = sum(snapshot(edited, set()).ids.values())
        for vault, state in ((edited, "edited since indexed"), (clone, "a fresh clone, no index")):
            for query, wanted in (("fixture", everything), ("zebracorn", 1)):
                ran = run_mem(search_words(query), vault.parent)
                found = len(json.loads(ran.stdout)["hits"]) if ran.returncode == 0 else 0
                rows.append(
                    Row(
                        PART,
                        f"`mem search {query}` on a read-only vault ({state})",
                        f"exit {ran.returncode}, {found} of {wanted} entries found",
                        "works, finds every entry",
                        ran.returncode == 0 and found == wanted and "Traceback" not in ran.stderr,
                    )
                )
            ran = run_mem(["recall", "--agent", "dev", "--task", "zebracorn fixture"], vault.parent)
            shown = "zebracorn" in ran.stdout
            rows.append(
                Row(
                    PART,
                    f"`mem recall` on a read-only vault ({state})",
                    f"exit {ran.returncode}" + (", shows the new entry" if shown else ""),
                    "works, shows the new entry",
                    ran.returncode == 0 and shown and "Traceback" not in ran.stderr,
                )
            )
    finally:
        for vault in mounted:
            subprocess.run(["umount", str(vault)], check=False)
    return rows


def faults_on_disk(workdir: Path, seed: int) -> list[Row]:
    folder = workdir / "disk"
    folder.mkdir()
    template = folder / "template"
    prepared(template, lambda p: old_entries(p, 120, seed))
    session = folder / "output.txt"
    session.write_text(session_text(4), encoding="utf-8")
    return full_disk(folder, template, session) + read_only(folder, template, session)


def run(workdir: Path, *, quick: bool, seed: int) -> list[Row]:
    return kills(workdir, quick, seed)
