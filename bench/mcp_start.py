"""Start-up time of `mem mcp`: from starting the process to its answer to `tools/list`
(a benchmark, not a test).

    python bench/mcp_start.py                # 11 runs in a fresh vault, and 11 with no vault
    python bench/mcp_start.py --runs 21

Each run starts the real server (`mem mcp --agent bench`, the command `mem install` registers)
the way a client does, and speaks JSON-RPC to it over stdio: `initialize`, the `initialized`
notification, then `tools/list`. The time is taken when the `tools/list` answer is read: what
a client waits for before it shows the server's tools. Also timed: the same in a folder without
a vault, where the server still starts (every tool call answers "no vault here"). Like
bench/perf.py, the runs are made without PYTHONDONTWRITEBYTECODE, after one warm-up, so .pyc
files are used as after `pip install`. Goal: median ≤ 1 s on the 2-core CI machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from commit_perf import mem_command

GOAL_SECONDS = 1.0
REQUESTS = (
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
)


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_VAULT", "MEM_AGENT")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def first_answer(folder: Path) -> float | None:
    """Seconds from starting `mem mcp` in `folder` to reading its `tools/list` answer; None
    when the server exits before it answers."""
    started = time.perf_counter()
    server = subprocess.Popen(
        [*mem_command(), "mcp", "--agent", "bench"],
        cwd=folder,
        env=environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        for request in REQUESTS:
            server.stdin.write(json.dumps(request).encode() + b"\n")
            server.stdin.flush()
            if "id" in request:
                line = server.stdout.readline()
                if not line:
                    return None
                answer = json.loads(line)
                if "error" in answer or answer.get("id") != request["id"]:
                    raise SystemExit(f"unexpected answer: {answer}")
        elapsed = time.perf_counter() - started
        if len(answer["result"]["tools"]) != 5:
            raise SystemExit(f"unexpected tool list: {answer}")
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mem-mcp-start-") as tmp:
        project, bare = Path(tmp) / "project", Path(tmp) / "bare"
        project.mkdir()
        bare.mkdir()
        subprocess.run(
            [*mem_command(), "init"],
            cwd=project,
            env=environment(),
            check=True,
            capture_output=True,
        )
        worst = 0.0
        for name, folder in (("vault", project), ("no vault", bare)):
            if first_answer(folder) is None:  # warm-up: compiles .pyc files, fills the cache
                print(f"mem mcp, {name}: exits without answering")
                continue
            times = sorted(t for _ in range(args.runs) if (t := first_answer(folder)) is not None)
            median = statistics.median(times)
            worst = max(worst, median)
            print(
                f"mem mcp, {name}: start → tools/list answer, median {median * 1000:.0f} ms "
                f"(min {times[0] * 1000:.0f}, max {times[-1] * 1000:.0f}, {args.runs} runs)"
            )
    verdict = "met" if worst <= GOAL_SECONDS else "missed"
    print(f"goal ≤ {GOAL_SECONDS * 1000:.0f} ms median: {verdict}")


if __name__ == "__main__":
    main()
