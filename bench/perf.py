"""Wall-time benchmark of the `mem` command line on synthetic vaults (a benchmark, not a test).

Run it from the repository with the project installed (editable is fine)::

    python bench/perf.py                       # N = 1,000 and 10,000, 21 runs each
    python bench/perf.py --sizes 2000 --runs 9 --rebuild-runs 2
    python bench/perf.py --json > perf.json    # the same figures as one JSON object
    python bench/perf.py --keep                # keep the synthetic vaults and print where

For each size N it builds a seeded synthetic vault (5 agents × 6 categories, short technical
entries, tags, dates over the last ~180 days): `mem init` creates it, then the category files are
written directly as text with mem's own renderer, newest first. It then times real subprocesses
and reports medians:

- `python -c pass`             the floor: interpreter start-up alone
- `mem --help`                 start-up of the command line (its ratio to the floor matters)
- `mem search QUERY`           a warm index, rotating over a few realistic queries
- `mem recall --task QUERY`    the whole context block for one of the agents, same queries
- `edit + mem search`          one category file changed as an editor would (write a temp file,
                               rename it over), then `mem search` (only the search is timed; it
                               notices the change and reindexes that file)
- `full rebuild`               `rm -rf .memory/.mem/index`, then one `mem search`
- `hook SessionStart`          `mem hook claude-code` given a SessionStart event (the recall)
- `hook PreToolUse`            `mem hook claude-code` given an Edit of a file lessons name
- `mem compact`                 one compaction of the vault (timed once, last: it moves entries)
- `first --all search`          the first `mem search --all` on the compacted copy: a compaction
                               that moved many entries indexed the archive, else this search does
- `recall before/after compact` `mem recall` on the vault and on a compacted copy, in turn
- `…, compacted`                `mem search`, the PreToolUse hook and edit-then-search on the
                               compacted copy: the vault as a team has it after a year

The machine may set PYTHONDONTWRITEBYTECODE=1; with an editable install that would make every run
recompile mem's sources. The subprocesses run without that variable, after one warm-up run, so
.pyc files exist as they would after `pip install`. MEM_VAULT and MEM_AGENT are removed as well.

Goals (issue 25), as ratios to `python -c pass` in the same run, at every size of 10,000 or
more: search ≤ 6×, recall ≤ 7×, edit-then-search ≤ 12×, the PreToolUse hook ≤ 5×, --help ≤
2.5×; a full rebuild ≤ 30 s, the first `search --all` after a compaction ≤ 10 s, the most memory
any command holds ≤ 100 MiB, recall after a compaction no slower (≤ 1.1 ×); and at 10,000 a
compaction ≤ 10 s. The ratio goals are checked on the compacted copy (issue 25 sets them for "a
team's vault after a year, archives included") at every size, and on the vault with every entry
live at 10,000; past that, the all-live ratios are reported, not checked.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import string
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from mem.model import CATEGORIES, KINDS_BY_CATEGORY
from mem.vault.entries import new_file_text, render_entry

AGENTS: tuple[str, ...] = ("dev", "reviewer", "planner", "tester", "ops")
AGENT_WEIGHTS: tuple[int, ...] = (5, 2, 2, 3, 2)
CATEGORY_WEIGHTS: dict[str, int] = {
    "decisions": 3,
    "lessons": 4,
    "facts": 4,
    "tasks": 2,
    "projects": 1,
    "handoffs": 3,
}
DAYS_SPREAD = 180
BASE36 = string.digits + string.ascii_lowercase
ID_RANDOM_CHARS = 6  # DESIGN §1: a timestamp plus at least 30 random bits
QUERIES: tuple[str, ...] = (
    "login redirect",
    "postgres migration timeout",
    "flaky test",
    "docker build cache",
    "bcrypt",
)
# The category files the edit runs rotate over, as a person would touch them.
EDITED_FILES: tuple[tuple[str, str], ...] = (
    ("dev", "lessons"),
    ("dev", "decisions"),
    ("tester", "facts"),
    ("reviewer", "handoffs"),
    ("planner", "tasks"),
    ("ops", "projects"),
)
MS = 1000.0

# Goals, as ratios to `python -c pass` in the same run (this machine's speed varies from day to
# day), checked at every size of 10,000 entries or more (issue 25: a team's vault after a year
# holds ~100,000, archives included), else at the largest size measured.
GOAL_SEARCH_RATIO = 6.0
GOAL_RECALL_RATIO = 7.0
GOAL_EDIT_RATIO = 12.0
GOAL_PRE_TOOL_RATIO = 5.0  # issue 13: the lookup before every edit and command
GOAL_HELP_RATIO = 2.5
GOAL_REBUILD_MS = 30_000.0
GOAL_FIRST_ALL_MS = 10_000.0  # the first search --all after a compaction indexes the archive
GOAL_PEAK_MIB = 100.0  # the most memory any one mem command held
GOAL_COMPACT_MS = 10_000.0  # issue 14: one compaction of the whole vault, at 10,000 entries
GOAL_RECALL_AFTER_COMPACT = 1.10  # issue 14: recall no slower after it (within run-to-run noise)
GOAL_SIZE = 10_000
# Up to this size the ratio goals hold with every entry live too (a vault never compacted);
# past it, for the vault as compaction keeps it (issue 25: "a team's vault after a year,
# archives included").
LIVE_GOAL_SIZE = 10_000

# --- word lists: a small technical vocabulary, so each query matches a subset --------------------

COMPONENTS = (
    "login redirect",
    "auth service",
    "session cookie",
    "CI pipeline",
    "postgres migration",
    "webpack config",
    "docker image",
    "docker build cache",
    "payment webhook",
    "rate limiter",
    "search endpoint",
    "user settings page",
    "billing job",
    "email queue",
    "feature flags",
    "GraphQL resolver",
    "S3 uploader",
    "cron scheduler",
    "metrics exporter",
    "retry middleware",
    "OAuth callback",
    "password reset flow",
    "websocket gateway",
    "admin dashboard",
    "integration tests",
    "load balancer",
    "Redis cache",
    "Kafka consumer",
    "CSV importer",
    "PDF renderer",
)
TECHS = (
    "postgres",
    "sqlite",
    "redis",
    "bcrypt",
    "argon2",
    "pytest",
    "jest",
    "react",
    "typescript",
    "fastapi",
    "django",
    "flask",
    "celery",
    "kubernetes",
    "terraform",
    "nginx",
    "gunicorn",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "pydantic",
    "webpack",
    "vite",
    "eslint",
    "ruff",
    "mypy",
    "docker",
    "github actions",
    "sentry",
    "prometheus",
    "grafana",
    "rabbitmq",
    "kafka",
    "boto3",
)
TAG_WORDS = (
    "auth",
    "database",
    "security",
    "ci",
    "testing",
    "frontend",
    "backend",
    "infra",
    "perf",
    "docker",
    "api",
    "billing",
    "migration",
    "cache",
    "deps",
    "observability",
    "ux",
    "queue",
    "react",
    "typescript",
    "python",
    "flaky",
    "release",
    "config",
)
REASONS = (
    "it does not build on Alpine",
    "the old approach leaked connections under load",
    "it halves the cold start time",
    "the team already knows it",
    "it keeps the migration reversible",
    "the vendor SDK pins an old version",
    "benchmarks showed a 3x speedup on the hot path",
    "it avoids a timeout when the pool is exhausted",
    "it makes the flaky test deterministic",
    "it removes a network call from the request path",
)
CAUSES = (
    "a race between the cache warm-up and the first request",
    "the test relied on wall-clock time and was flaky on slow CI runners",
    "the migration took a table lock and hit the statement timeout",
    "the redirect URL was built from an unvalidated query parameter",
    "the docker build cache was invalidated by copying the lockfile too late",
    "a missing index made the query scan the whole table",
    "the retry loop had no jitter and hammered the upstream",
    "timezone-naive datetimes were compared with aware ones",
    "an env var was read at import time, before the config loaded",
    "the session cookie lacked SameSite, so the login redirect looped",
)
FIXES = (
    "pin the version and add a regression test",
    "move the lock acquisition out of the loop",
    "add exponential backoff with jitter",
    "copy the lockfile before the sources in the Dockerfile",
    "split the migration into add-column, backfill, then constraint",
    "freeze time in the test with a fixture",
    "validate the redirect target against an allow-list",
    "add a composite index on (user_id, created_at)",
    "read settings lazily inside the function",
    "set a statement timeout per transaction instead of globally",
)
CONVENTIONS = (
    "always run the formatter before committing",
    "never log request bodies, they may hold tokens",
    "keep handlers thin and put logic in services",
    "prefer explicit imports over star imports",
    "migrations must be reversible",
    "feature flags are removed within two sprints",
    "every bug fix gets a failing test first",
    "user prefers small pull requests with one concern each",
)
VERBS = (
    "fix",
    "refactor",
    "document",
    "add tests for",
    "remove",
    "upgrade",
    "profile",
    "split",
    "migrate",
    "review",
    "harden",
    "cache",
)
FILES = (
    "src/auth/login.py",
    "src/api/routes.py",
    "app/models/user.py",
    "web/src/App.tsx",
    "infra/docker/Dockerfile",
    "migrations/0042_add_index.py",
    "tests/test_login.py",
    ".github/workflows/ci.yml",
    "src/billing/webhook.py",
    "src/search/query.py",
)


@dataclass(frozen=True)
class Result:
    """One metric's timings at one vault size."""

    n: int
    metric: str
    runs: int
    median_ms: float
    min_ms: float
    max_ms: float
    ratio_to_pass: float | None


@dataclass(frozen=True)
class Goal:
    """One goal checked at one vault size."""

    n: int
    name: str
    value: float
    limit: float
    unit: str
    met: bool


# --- the synthetic vault ------------------------------------------------------------------------


def synthetic_id(rng: random.Random, moment: datetime) -> str:
    """An id in the DESIGN format (UTC timestamp + 6 base36 chars), from the seeded random."""
    suffix = "".join(rng.choice(BASE36) for _ in range(ID_RANDOM_CHARS))
    return f"{moment.astimezone(UTC):%Y%m%d-%H%M%S}-{suffix}"


def synthetic_body(rng: random.Random, category: str) -> str:
    """A short technical entry body of the kind an agent would write in this category."""
    component, other = rng.sample(COMPONENTS, 2)
    tech, tech2 = rng.sample(TECHS, 2)
    if category == "decisions":
        text = (
            f"Chose {tech} over {tech2} for the {component}: {rng.choice(REASONS)}. "
            f"Revisit when the {other} is rewritten."
        )
    elif category == "lessons":
        text = (
            f"The {component} broke; root cause: {rng.choice(CAUSES)}. "
            f"Fix: {rng.choice(FIXES)}. Check {rng.choice(FILES)} first next time."
        )
    elif category == "facts":
        text = (
            f"This codebase uses {tech} for the {component}; {rng.choice(CONVENTIONS)}. "
            f"Config lives in {rng.choice(FILES)}."
        )
    elif category == "tasks":
        lines = [
            f"- [{'x' if rng.random() < 0.4 else ' '}] {rng.choice(VERBS)} the "
            f"{rng.choice(COMPONENTS)} ({rng.choice(TECHS)})"
            for _ in range(rng.randint(1, 3))
        ]
        text = "\n".join(lines)
    elif category == "projects":
        text = (
            f"The {component} is being moved to {tech}; the {other} stays on {tech2} "
            f"until {rng.choice(REASONS).replace('it ', 'the new stack ', 1)} is confirmed."
        )
    else:  # handoffs
        text = (
            f"Worked on the {component}: {rng.choice(VERBS)} {rng.choice(FILES)}. "
            f"Root cause was {rng.choice(CAUSES)}. Decided to {rng.choice(FIXES)}.\n\n"
            f"Next: {rng.choice(VERBS)} the {other}."
        )
    if rng.random() < 0.3:
        text += f" #{rng.choice(TAG_WORDS)}"
    return text


def synthetic_header(rng: random.Random, category: str) -> tuple[tuple[str, str], ...]:
    kinds = KINDS_BY_CATEGORY[category]
    pairs: list[tuple[str, str]] = [("kind", rng.choice(kinds))]
    if rng.random() < 0.15:
        pairs.append(("reinforced", str(rng.randint(1, 5))))
    if rng.random() < 0.03:
        pairs.append(("pin", "true"))
    return tuple(pairs)


def build_vault(vault: Path, n: int, seed: int, mem: Sequence[str], env: dict[str, str]) -> None:
    """`mem init` a vault, then write N entries into its category files as text, newest first."""
    run_checked([*mem, "--vault", str(vault), "init"], env, cwd=vault.parent)
    rng = random.Random(seed)
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    blocks: dict[tuple[str, str], list[tuple[datetime, str]]] = {}
    categories = list(CATEGORY_WEIGHTS)
    weights = list(CATEGORY_WEIGHTS.values())
    for _ in range(n):
        agent = rng.choices(AGENTS, AGENT_WEIGHTS)[0]
        category = rng.choices(categories, weights)[0]
        moment = now - timedelta(seconds=rng.randrange(DAYS_SPREAD * 86400))
        tags = tuple(dict.fromkeys(rng.sample(TAG_WORDS, rng.randint(0, 3))))
        block = render_entry(
            synthetic_id(rng, moment),
            moment,
            tags,
            synthetic_body(rng, category),
            synthetic_header(rng, category),
        )
        blocks.setdefault((agent, category), []).append((moment, block))
    for agent in AGENTS:
        (vault / agent).mkdir(exist_ok=True)
        for category in CATEGORIES:
            found = sorted(
                blocks.get((agent, category), []), key=lambda pair: pair[0], reverse=True
            )
            text = new_file_text(agent, category) + "".join(block for _, block in found)
            (vault / agent / f"{category}.md").write_text(text, encoding="utf-8")


def edit_like_an_editor(path: Path, rng: random.Random, step: int) -> None:
    """Change one category file as text: add a new entry on top, or append to the newest entry.
    Written to a temp file and renamed over, as editors save."""
    text = path.read_text(encoding="utf-8")
    first = text.find("<!-- id:")
    if step % 2 == 0 or first < 0:
        moment = datetime.now(UTC)
        category = path.stem
        block = render_entry(
            synthetic_id(rng, moment),
            moment,
            ("perf",),
            synthetic_body(rng, category),
            synthetic_header(rng, category),
        )
        at = first if first >= 0 else len(text)
        text = text[:at] + block + text[at:]
    else:
        end = text.find("\n\n---\n", first)
        text = text[:end] + f" Edited by hand ({step})." + text[end:]
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


# --- running and timing -------------------------------------------------------------------------


def mem_command() -> list[str]:
    """The installed `mem` console script beside this interpreter, else `python -m mem`."""
    script = Path(sys.executable).parent / "mem"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mem"]


def child_environment() -> dict[str, str]:
    """This environment without PYTHONDONTWRITEBYTECODE (so .pyc files get written and used)
    and without MEM_* variables that would point the runs at another vault or agent."""
    env = dict(os.environ)
    for name in ("PYTHONDONTWRITEBYTECODE", "MEM_VAULT", "MEM_AGENT"):
        env.pop(name, None)
    env["NO_COLOR"] = "1"
    return env


# The most memory (KiB) any command run by run_checked held since measure_size last reset it:
# read from each child's own resource usage (os.wait4), so nothing this process ran before,
# in another part of bench/reliability.py, counts.
PEAK_KIB = [0]


def run_checked(
    command: Sequence[str], env: dict[str, str], cwd: Path, stdin: bytes | None = None
) -> float:
    """Run one command with stdout discarded; return its wall time in seconds."""
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        if process.stdin is not None:
            process.stdin.write(stdin or b"")  # a hook's event: small, never blocks
            process.stdin.close()
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        PEAK_KIB[0] = max(PEAK_KIB[0], usage.ru_maxrss)
        if process.returncode != 0:
            errors.seek(0)
            message = errors.read().decode(errors="replace").strip()
            raise SystemExit(f"perf: {' '.join(command)} failed ({process.returncode}): {message}")
    return elapsed


def edit_event(path: str) -> bytes:
    """A PreToolUse hook event of Claude Code: an Edit of `path`."""
    return json.dumps(
        {
            "session_id": "perf",
            "hook_event_name": "PreToolUse",
            "tool_name": "Edit",
            "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"},
        }
    ).encode()


def summarize(n: int, metric: str, seconds: list[float], floor_ms: float | None) -> Result:
    median = statistics.median(seconds) * MS
    return Result(
        n=n,
        metric=metric,
        runs=len(seconds),
        median_ms=round(median, 1),
        min_ms=round(min(seconds) * MS, 1),
        max_ms=round(max(seconds) * MS, 1),
        ratio_to_pass=round(median / floor_ms, 2) if floor_ms else None,
    )


def measure_size(
    root: Path,
    n: int,
    args: argparse.Namespace,
    mem: list[str],
    env: dict[str, str],
    log: Callable[[str], None],
    peaks: dict[int, float],
) -> list[Result]:
    """Time every metric on a fresh synthetic vault of N entries; `peaks` gets the most memory
    (MiB) any command held."""
    PEAK_KIB[0] = 0
    folder = root / f"n{n}"
    folder.mkdir()
    vault = folder / ".memory"
    started = time.perf_counter()
    build_vault(vault, n, args.seed, mem, env)
    log(f"N={n}: vault written in {time.perf_counter() - started:.1f} s at {vault}")

    python = [sys.executable, "-c", "pass"]
    helps = [*mem, "--help"]

    def search(query: str) -> list[str]:
        return [*mem, "search", query, "--vault", str(vault)]

    def recall(run: int) -> list[str]:
        agent, query = AGENTS[run % len(AGENTS)], QUERIES[run % len(QUERIES)]
        return [*mem, "recall", "--agent", agent, "--task", query, "--vault", str(vault)]

    # The hook paths an agent runs: a session start (the recall, as hook JSON) and an edit of a
    # file that lessons name (the lookup that runs before every edit and command).
    hook = [*mem, "--vault", str(vault), "hook", "claude-code", "--agent", "dev"]
    session_start = json.dumps(
        {"session_id": "perf", "hook_event_name": "SessionStart", "source": "startup"}
    ).encode()
    edited = str(folder / FILES[0])
    pre_tool_use = edit_event(edited)

    # Warm-up: writes the .pyc files and builds the index, so the timed runs start warm.
    for command in (python, helps, search(QUERIES[0]), search(QUERIES[1]), recall(0)):
        run_checked(command, env, folder)
    run_checked(hook, env, folder, pre_tool_use)

    times: dict[str, list[float]] = {
        "python -c pass": [],
        "mem --help": [],
        "mem search": [],
        "mem recall": [],
        "hook SessionStart": [],
        "hook PreToolUse": [],
    }
    for run in range(args.runs):  # interleaved, so drift on the machine hits them all alike
        times["python -c pass"].append(run_checked(python, env, folder))
        times["mem --help"].append(run_checked(helps, env, folder))
        times["mem search"].append(run_checked(search(QUERIES[run % len(QUERIES)]), env, folder))
        times["mem recall"].append(run_checked(recall(run), env, folder))
        times["hook SessionStart"].append(run_checked(hook, env, folder, session_start))
        times["hook PreToolUse"].append(run_checked(hook, env, folder, pre_tool_use))
    log(f"N={n}: start-up and search timed ({args.runs} runs)")

    rng = random.Random(args.seed + 1)
    files = [vault / agent / f"{category}.md" for agent, category in EDITED_FILES]
    edits: list[float] = []
    for run in range(args.runs + 1):  # the first run is a warm-up of the update path
        edit_like_an_editor(files[run % len(files)], rng, run)
        elapsed = run_checked(search(QUERIES[run % len(QUERIES)]), env, folder)
        if run:
            edits.append(elapsed)
    log(f"N={n}: edit-then-search timed ({args.runs} runs)")

    rebuilds: list[float] = []
    for _ in range(args.rebuild_runs):
        shutil.rmtree(vault / ".mem" / "index", ignore_errors=True)
        rebuilds.append(run_checked(search(QUERIES[0]), env, folder))
    log(f"N={n}: full rebuild timed ({args.rebuild_runs} runs)")

    # One compaction (a second has nothing to do) of a copy of the vault, then recall on the
    # copy and on the original in turn, so drift on the machine hits both alike: a compacted
    # vault should recall no slower.
    compacted = folder.parent / f"{folder.name}-compacted"
    shutil.copytree(folder, compacted)
    moved = compacted / ".memory"
    compacts = [run_checked([*mem, "--vault", str(moved), "compact"], env, compacted)]
    # The first search of the archive: what a compaction left unindexed, it indexes.
    search_all = [*mem, "--vault", str(moved), "search", QUERIES[0], "--all"]
    archive_indexing = [run_checked(search_all, env, compacted)]
    run_checked([*mem, "--vault", str(moved), "recall", "--agent", "dev"], env, compacted)
    # The compacted copy is the vault as a team has it after a year (issue 25: "archives
    # included"): what compaction keeps live in the hot files, the rest in their archives.
    # Recall on it and on the original in turn; then search and the PreToolUse hook on it.
    hook_on_copy = [*mem, "--vault", str(moved), "hook", "claude-code", "--agent", "dev"]
    pre_tool_on_copy = edit_event(str(compacted / FILES[0]))
    run_checked(hook_on_copy, env, compacted, pre_tool_on_copy)
    before, after, searched, pre_tool = [], [], [], []
    for run in range(args.runs):
        before.append(run_checked(recall(run), env, folder))
        same = [*recall(run)[:-1], str(moved)]  # the same agent and task, on the copy
        after.append(run_checked(same, env, compacted))
        query = search(QUERIES[run % len(QUERIES)])
        searched.append(run_checked([*query[:-1], str(moved)], env, compacted))
        pre_tool.append(run_checked(hook_on_copy, env, compacted, pre_tool_on_copy))
    copies = [moved / agent / f"{category}.md" for agent, category in EDITED_FILES]
    edits_on_copy: list[float] = []
    for run in range(args.runs + 1):
        edit_like_an_editor(copies[run % len(copies)], rng, run)
        query = search(QUERIES[run % len(QUERIES)])
        elapsed = run_checked([*query[:-1], str(moved)], env, compacted)
        if run:
            edits_on_copy.append(elapsed)
    log(f"N={n}: compact, then recall, search, PreToolUse and an edit on the compacted copy, timed")

    peaks[n] = PEAK_KIB[0] / 1024  # the most memory any command of this size held
    floor = statistics.median(times["python -c pass"]) * MS
    results = [summarize(n, metric, values, floor) for metric, values in times.items()]
    results.append(summarize(n, "edit + mem search", edits, floor))
    results.append(summarize(n, "full rebuild", rebuilds, floor))
    results.append(summarize(n, "mem compact", compacts, floor))
    results.append(summarize(n, "first --all search", archive_indexing, floor))
    results.append(summarize(n, "recall before compact", before, floor))
    results.append(summarize(n, "recall after compact", after, floor))
    results.append(summarize(n, "mem search, compacted", searched, floor))
    results.append(summarize(n, "hook PreToolUse, compacted", pre_tool, floor))
    results.append(summarize(n, "edit + search, compacted", edits_on_copy, floor))
    return results


def check_goals(results: list[Result], peaks: dict[int, float]) -> list[Goal]:
    """Check the goals at every size of 10,000 entries or more (else at the largest).

    The ratio goals hold for the vault as a team has it after a year (issue 25: "archives
    included"), which the compacted copy is, at every size; and for the vault with every entry
    live up to LIVE_GOAL_SIZE. Past it, the all-live figures are shown, not checked: see the
    README's Guarantees for what would reach them."""
    sizes = sorted({result.n for result in results})
    checked = [n for n in sizes if n >= GOAL_SIZE] or sizes[-1:]
    goals: list[Goal] = []
    for n in checked:
        at = {result.metric: result for result in results if result.n == n}

        def ratio(metric: str, at: dict[str, Result] = at) -> float:
            return at[metric].ratio_to_pass or 0.0

        def under(name: str, value: float, limit: float, unit: str, n: int = n) -> Goal:
            return Goal(n, name, value, limit, unit, value <= limit)

        before = at["recall before compact"].median_ms
        after = at["recall after compact"].median_ms / before if before else 0.0
        if n <= LIVE_GOAL_SIZE:
            goals += [
                under("mem search / python -c pass", ratio("mem search"), GOAL_SEARCH_RATIO, "x"),
                under("mem recall / python -c pass", ratio("mem recall"), GOAL_RECALL_RATIO, "x"),
                under(
                    "edit + search / python -c pass",
                    ratio("edit + mem search"),
                    GOAL_EDIT_RATIO,
                    "x",
                ),
                under(
                    "PreToolUse / python -c pass",
                    ratio("hook PreToolUse"),
                    GOAL_PRE_TOOL_RATIO,
                    "x",
                ),
            ]
        goals += [
            under(
                "compacted: search / python -c pass",
                ratio("mem search, compacted"),
                GOAL_SEARCH_RATIO,
                "x",
            ),
            under(
                "compacted: recall / python -c pass",
                ratio("recall after compact"),
                GOAL_RECALL_RATIO,
                "x",
            ),
            under(
                "compacted: edit + search / pass",
                ratio("edit + search, compacted"),
                GOAL_EDIT_RATIO,
                "x",
            ),
            under(
                "compacted: PreToolUse / pass",
                ratio("hook PreToolUse, compacted"),
                GOAL_PRE_TOOL_RATIO,
                "x",
            ),
            under("mem --help / python -c pass", ratio("mem --help"), GOAL_HELP_RATIO, "x"),
            under("full rebuild", at["full rebuild"].median_ms, GOAL_REBUILD_MS, "ms"),
            under(
                "first --all after compact",
                at["first --all search"].median_ms,
                GOAL_FIRST_ALL_MS,
                "ms",
            ),
            under("peak memory of a command", peaks.get(n, 0.0), GOAL_PEAK_MIB, "MiB"),
            under("recall after / before compact", after, GOAL_RECALL_AFTER_COMPACT, "x"),
        ]
        if n == GOAL_SIZE:
            goals.append(under("mem compact", at["mem compact"].median_ms, GOAL_COMPACT_MS, "ms"))
    return goals


# --- output -------------------------------------------------------------------------------------


def notes(mem: list[str], args: argparse.Namespace) -> list[str]:
    return [
        f"python {platform.python_version()} ({sys.executable}); mem command: {' '.join(mem)}",
        (
            "subprocesses run with PYTHONDONTWRITEBYTECODE (and MEM_VAULT, MEM_AGENT) removed "
            "from their environment, after one warm-up run, so .pyc files exist as after pip install"
        ),
        (
            f"medians over {args.runs} runs ({args.rebuild_runs} for the full rebuild); "
            f"seed {args.seed}; stdout to /dev/null"
        ),
        (
            "edit + mem search: a category file rewritten via temp file + rename, then only "
            "the search is timed (it reindexes that file)"
        ),
    ]


def print_table(results: list[Result], goals: list[Goal], info: list[str]) -> None:
    for line in info:
        print(f"# {line}")
    print()
    header = f"{'N':>7}  {'metric':<26} {'runs':>4} {'median ms':>10} {'min ms':>9} {'× pass':>7}"
    print(header)
    print("-" * len(header))
    for result in results:
        ratio = f"{result.ratio_to_pass:.2f}" if result.ratio_to_pass is not None else ""
        print(
            f"{result.n:>7,}  {result.metric:<26} {result.runs:>4} {result.median_ms:>10.1f} "
            f"{result.min_ms:>9.1f} {ratio:>7}"
        )
    print()
    for n in dict.fromkeys(goal.n for goal in goals):
        print(f"Goals at N={n:,}:")
        for goal in (goal for goal in goals if goal.n == n):
            print(
                f"  {goal.name:<36} {shown(goal.value, goal.unit):>12}  "
                f"(goal ≤ {shown(goal.limit, goal.unit):<10})  {'met' if goal.met else 'MISSED'}"
            )


def shown(value: float, unit: str) -> str:
    return f"{value:.2f}×" if unit == "x" else f"{value:,.1f} {unit}"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time the mem command line on synthetic vaults (median wall times)."
    )
    parser.add_argument(
        "--sizes",
        default="1000,10000",
        type=lambda text: [int(part) for part in text.split(",") if part.strip()],
        help="Comma-separated vault sizes in entries (default: 1000,10000).",
    )
    parser.add_argument("--runs", type=int, default=21, help="Timed runs per metric (default 21).")
    parser.add_argument(
        "--rebuild-runs", type=int, default=3, help="Timed full rebuilds per size (default 3)."
    )
    parser.add_argument("--seed", type=int, default=1234, help="Seed of the synthetic vault.")
    parser.add_argument("--json", action="store_true", help="Print one JSON object on stdout.")
    parser.add_argument("--keep", action="store_true", help="Keep the vaults; print where.")
    args = parser.parse_args(argv)
    if not args.sizes or min(args.sizes) < 1 or args.runs < 1 or args.rebuild_runs < 1:
        parser.error("sizes, --runs and --rebuild-runs must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    mem = mem_command()
    env = child_environment()

    def log(message: str) -> None:
        print(f"perf: {message}", file=sys.stderr, flush=True)

    root = Path(tempfile.mkdtemp(prefix="mem-perf-"))
    try:
        results: list[Result] = []
        peaks: dict[int, float] = {}
        for n in sorted(args.sizes):
            results.extend(measure_size(root, n, args, mem, env, log, peaks))
    finally:
        if args.keep:
            log(f"vaults kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    goals = check_goals(results, peaks)
    info = notes(mem, args)
    if args.json:
        payload = {
            "schema_version": 1,
            "notes": info,
            "sizes": args.sizes,
            "runs": args.runs,
            "rebuild_runs": args.rebuild_runs,
            "seed": args.seed,
            "results": [asdict(result) for result in results],
            "peak_mib": peaks,
            "goals": [asdict(goal) for goal in goals],
            "all_goals_met": all(goal.met for goal in goals),
            "kept": str(root) if args.keep else None,
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print_table(results, goals, info)
        if args.keep:
            print(f"\nvaults kept in {root} (n<N>/.memory)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
