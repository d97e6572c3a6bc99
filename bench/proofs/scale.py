"""scale: recall, search, the PreToolUse hook, edit-then-search, a full rebuild, a compaction
and the first search of the archive after it, at 1,000, 10,000 and 100,000 entries; the first
four again on the compacted vault (what a team's vault is after a year: archives included).

The figures come from bench/perf.py's synthetic vaults and timings (fewer runs than perf.py's
own), as ratios to `python -c pass` timed in the same run; its goals are checked at 10,000 and
100,000 entries and the growth of each figure is shown across the sizes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from proofs.common import Row

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import perf  # bench/perf.py, beside this folder

PART = "scale"
SIZES = {False: (1_000, 10_000, 100_000), True: (1_000,)}
RUNS = {False: 11, True: 2}  # medians of 11: this machine's timings vary by 10-30% from run to run
# The metrics whose growth the table shows, as ratios to `python -c pass` or in seconds.
RATIOS = ("mem search", "mem recall", "hook PreToolUse", "edit + mem search")
# The same on the compacted copy: the vault as a team has it after a year, archives included.
COMPACTED = (
    ("mem search", "mem search, compacted"),
    ("mem recall", "recall after compact"),
    ("hook PreToolUse", "hook PreToolUse, compacted"),
    ("edit + mem search", "edit + search, compacted"),
)
SECONDS = ("full rebuild", "mem compact", "first --all search")


def run(workdir: Path, *, quick: bool, seed: int) -> list[Row]:
    args = argparse.Namespace(runs=RUNS[quick], rebuild_runs=1, seed=seed)
    mem = perf.mem_command()
    environment = perf.child_environment()
    results: list[perf.Result] = []
    peaks: dict[int, float] = {}
    for n in SIZES[quick]:
        results += perf.measure_size(workdir, n, args, mem, environment, log, peaks)
    return rows_of(results, peaks)


def log(message: str) -> None:
    print(f"scale: {message}", file=sys.stderr, flush=True)


def rows_of(results: list[perf.Result], peaks: dict[int, float]) -> list[Row]:
    """Growth rows (information) for each metric across the sizes, then one row per goal."""
    sizes = sorted({result.n for result in results})
    at = {(result.n, result.metric): result for result in results}
    rows = [
        Row(PART, f"{metric} / python -c pass", growth(sizes, at, metric, ratio=True))
        for metric in RATIOS
    ]
    rows += [
        Row(PART, f"compacted: {name} / python -c pass", growth(sizes, at, metric, ratio=True))
        for name, metric in COMPACTED
    ]
    rows += [Row(PART, metric, growth(sizes, at, metric, ratio=False)) for metric in SECONDS]
    rows.append(
        Row(
            PART,
            "peak memory of a command",
            " · ".join(f"{short(n)} {peaks[n]:.0f} MiB" for n in sizes),
        )
    )
    if max(sizes) >= perf.GOAL_SIZE:
        for goal in perf.check_goals(results, peaks):
            rows.append(
                Row(
                    PART,
                    f"{goal.name} at {short(goal.n)}",
                    perf.shown(goal.value, goal.unit),
                    f"≤ {perf.shown(goal.limit, goal.unit)}",
                    goal.met,
                )
            )
    return rows


def growth(
    sizes: list[int], at: dict[tuple[int, str], perf.Result], metric: str, *, ratio: bool
) -> str:
    shown = []
    for n in sizes:
        result = at[n, metric]
        value = f"{result.ratio_to_pass or 0:.1f}×" if ratio else f"{result.median_ms / 1000:.1f} s"
        shown.append(f"{short(n)} {value}")
    return " · ".join(shown)


def short(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)
