"""The scale part of bench/reliability.py shows each figure's growth and checks perf.py's goals
at 10,000 entries and more, failing the row of a goal missed."""

from __future__ import annotations

import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import perf  # bench/ is no package: its scripts put it on sys.path
from proofs import scale

METRICS = {
    "python -c pass": 10.0,
    "mem --help": 20.0,
    "mem search": 50.0,
    "mem recall": 60.0,
    "hook SessionStart": 60.0,
    "hook PreToolUse": 40.0,
    "edit + mem search": 100.0,
    "full rebuild": 9_000.0,
    "mem compact": 5_000.0,
    "first --all search": 2_000.0,
    "recall before compact": 60.0,
    "recall after compact": 60.0,
    "mem search, compacted": 50.0,
    "hook PreToolUse, compacted": 40.0,
    "edit + search, compacted": 100.0,
}


def results(n: int, slower: float = 1.0) -> list[perf.Result]:
    return [
        perf.summarize(n, metric, [ms * (1 if metric == "python -c pass" else slower) / 1000], 10.0)
        for metric, ms in METRICS.items()
    ]


def test_growth_is_shown_and_a_goal_missed_at_a_large_size_fails_its_row():
    rows = scale.rows_of(results(1_000) + results(10_000, slower=2.0), {1_000: 30.0, 10_000: 40.0})
    search = next(row for row in rows if row.check == "mem search / python -c pass")
    assert search.measured == "1k 5.0× · 10k 10.0×" and search.ok is None
    goals = {row.check: row for row in rows if row.ok is not None}
    assert goals["mem search / python -c pass at 10k"].ok is False  # 10× > 6×
    assert goals["PreToolUse / python -c pass at 10k"].ok is False  # 8× > 5×
    assert goals["compacted: search / python -c pass at 10k"].ok is False
    compacted = next(row for row in rows if row.check == "compacted: mem search / python -c pass")
    assert compacted.measured == "1k 5.0× · 10k 10.0×"
    assert goals["full rebuild at 10k"].ok is True  # 18 s ≤ 30 s
    assert goals["peak memory of a command at 10k"].ok is True
    assert not any(row.check.endswith("at 1k") for row in rows)  # goals hold from 10,000 up


def test_past_10k_the_ratio_goals_hold_for_the_compacted_vault_alone():
    rows = scale.rows_of(
        results(10_000) + results(100_000, slower=2.0), {10_000: 40.0, 100_000: 90.0}
    )
    goals = {row.check: row for row in rows if row.ok is not None}
    assert goals["mem search / python -c pass at 10k"].ok is True
    assert "mem search / python -c pass at 100k" not in goals  # shown as growth, not checked
    assert goals["compacted: search / python -c pass at 100k"].ok is False  # 10× > 6×
    assert goals["compacted: recall / python -c pass at 100k"].ok is False


def test_a_small_run_checks_no_goal():
    rows = scale.rows_of(results(1_000), {1_000: 30.0})
    assert all(row.ok is None for row in rows)
