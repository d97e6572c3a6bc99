"""Time of a hook's turn end on a long Claude Code session (a benchmark, not a test).

    python bench/hook_perf.py                 # a 50 MB transcript that grows by 200 KB
    python bench/hook_perf.py --size 10 --grow 500

Writes a seeded synthetic Claude Code transcript (bench/commit_perf.py's shape: prompts,
assistant text with decisions and lessons, edits and their results, usage), commits it once
through the real hook path (`mem hook claude-code --agent bench` with a Stop event's JSON on
stdin naming `transcript_path`), appends more turns and sends Stop again. The second Stop is the
one a long session pays at every turn end: the ledger knows how far the first one read, so
only the appended part is read. Goal: the second Stop in at most 300 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from commit_perf import mem_command, transcript_line

GOAL_SECONDS = 0.3


def grow(path: Path, size: int, rng: random.Random, first: int) -> int:
    """Append about `size` bytes of whole turns; return the next line number."""
    written, n = 0, first
    with path.open("a", encoding="utf-8") as handle:
        while written < size or n % 4:
            line = transcript_line(rng, n, "/work/project") + "\n"
            handle.write(line)
            written += len(line.encode())
            n += 1
    return n


def stop(vault: Path, transcript: Path) -> float:
    """Send one Stop event through the hook; its wall time in seconds."""
    payload = {
        "session_id": "bench",
        "hook_event_name": "Stop",
        "transcript_path": str(transcript),
        "cwd": str(vault.parent),
        "stop_hook_active": False,
    }
    command = [*mem_command(), "--vault", str(vault), "hook", "claude-code", "--agent", "bench"]
    started = time.perf_counter()
    subprocess.run(command, input=json.dumps(payload).encode(), check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=float, default=50, help="transcript size, MB")
    parser.add_argument("--grow", type=float, default=200, help="bytes appended, KB")
    parser.add_argument("--runs", type=int, default=3, help="growths, each timed")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="mem-hook-perf-"))
    try:
        vault = workdir / "project" / ".memory"
        subprocess.run(
            [*mem_command(), "--vault", str(vault), "init"], check=True, capture_output=True
        )
        transcript = workdir / "session.jsonl"
        rng = random.Random(args.seed)
        lines = grow(transcript, int(args.size * 1_000_000), rng, 0)
        first = stop(vault, transcript)
        times = []
        for _ in range(args.runs):
            lines = grow(transcript, int(args.grow * 1000), rng, lines)
            times.append(stop(vault, transcript))
        median = sorted(times)[len(times) // 2]
        size = transcript.stat().st_size / 1e6
        print(f"transcript {size:.1f} MB; first Stop (read whole) {first:.2f} s")
        print(
            f"Stop after {args.grow:.0f} KB more: " + ", ".join(f"{t * 1000:.0f} ms" for t in times)
        )
        verdict = "met" if median <= GOAL_SECONDS else "MISSED"
        print(f"goal: Stop on a grown transcript ≤ 300 ms: {median * 1000:.0f} ms {verdict}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
