"""Time and memory of `mem commit` on large input (a benchmark, not a test).

    python bench/commit_perf.py            # a 5 MB and a 50 KB synthetic transcript
    python bench/commit_perf.py --real     # a 5 MB and a 50 KB Aider history of real sessions

By default it writes seeded synthetic transcripts in the shape of Claude Code's JSONL (user
prompts, assistant text with decisions and lessons, Edit/Write/Bash tool calls and their results,
usage). With `--real` it builds an Aider chat history from the real histories in `../shared`
(`formats/aider/` and the Aider sessions of `bench/capture-dev/`), repeated under new session
start lines until it is large enough: real prose, code blocks and tool output. Each input is
committed into a fresh vault with the real `mem` command; it reports the wall time and the peak
resident memory (from GNU time) of each run. Goals: the 5 MB commit in at most 2 s, and its peak
RSS within 50 MB of the 50 KB one (memory stays flat: input is streamed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SENTENCES = [
    "We decided to use {a} over {b} for the {c} because it keeps the {d} simple.",
    "The root cause was a race between the {c} and the {d}.",
    "Turns out the {c} caches {d} for an hour.",
    "This codebase uses {a} for every {c}.",
    "TODO: add a regression test for the {c} {d}",
    "I'll look at the {c} next.",
    "Let me run the tests for the {d}.",
]
WORDS = [
    "redis",
    "postgres",
    "sqlite",
    "session",
    "cookie",
    "retry",
    "queue",
    "cache",
    "login",
    "router",
    "parser",
    "importer",
    "webhook",
    "token",
    "worker",
    "scheduler",
    "index",
]


def transcript_line(rng: random.Random, n: int, cwd: str) -> str:
    kind = n % 4
    envelope = {
        "sessionId": "bench",
        "cwd": cwd,
        "uuid": f"u{n}",
        "timestamp": "2026-11-01T10:00:00Z",
    }
    if kind == 0:
        return json.dumps(
            {
                **envelope,
                "type": "user",
                "message": {
                    "role": "user",
                    "content": f"Please fix the {rng.choice(WORDS)} {rng.choice(WORDS)}.",
                },
            }
        )
    if kind == 1:
        text = " ".join(
            rng.choice(SENTENCES).format(
                a=rng.choice(WORDS), b=rng.choice(WORDS), c=rng.choice(WORDS), d=rng.choice(WORDS)
            )
            for _ in range(rng.randint(2, 6))
        )
        return json.dumps(
            {
                **envelope,
                "type": "assistant",
                "message": {
                    "id": f"m{n}",
                    "role": "assistant",
                    "content": [{"type": "text", "text": text}],
                    "usage": {"input_tokens": 120, "output_tokens": 40},
                },
            }
        )
    if kind == 2:
        return json.dumps(
            {
                **envelope,
                "type": "assistant",
                "message": {
                    "id": f"m{n}",
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": f"t{n}",
                            "name": "Edit",
                            "input": {
                                "file_path": f"{cwd}/src/{rng.choice(WORDS)}.py",
                                "old_string": "x",
                                "new_string": "y",
                            },
                        }
                    ],
                },
            }
        )
    output = "\n".join(f"tests/test_{rng.choice(WORDS)}.py::test_{i} PASSED" for i in range(40))
    return json.dumps(
        {
            **envelope,
            "type": "user",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"t{n - 1}", "content": output}],
            },
        }
    )


def write_transcript(path: Path, size: int, seed: int) -> None:
    rng = random.Random(seed)
    written = n = 0
    with path.open("w", encoding="utf-8") as handle:
        while written < size:
            line = transcript_line(rng, n, "/work/project") + "\n"
            handle.write(line)
            written += len(line.encode())
            n += 1


SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


def write_real_history(path: Path, size: int) -> None:
    """Real Aider sessions, one after another, each under a start line of its own."""
    sources = sorted((SHARED / "formats" / "aider").glob("*.aider.chat.history.md"))
    sources += sorted((SHARED / "bench" / "capture-dev").glob("aider-*.md"))
    if not sources:
        raise SystemExit(f"commit_perf: no Aider histories under {SHARED}")
    texts = [source.read_text(encoding="utf-8") for source in sources]
    written = n = 0
    with path.open("w", encoding="utf-8") as handle:
        while written < size:
            text = texts[n % len(texts)].replace(
                "# aider chat started at ", f"# aider chat started at 2026-01-{n % 28 + 1:02d} "
            )
            handle.write(text)
            written += len(text.encode())
            n += 1


def mem_command() -> list[str]:
    script = Path(sys.executable).parent / "mem"
    return [str(script)] if script.exists() else [sys.executable, "-m", "mem"]


def measure(transcript: Path, workdir: Path) -> tuple[float, int]:
    """Commit into a fresh vault: (wall seconds, peak RSS in KiB)."""
    vault = workdir / f"vault-{transcript.stem}"
    # A fresh vault each run: in the same one, the ledger would skip what the last run read.
    shutil.rmtree(vault, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_VAULT", "MEM_AGENT")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(
        [*mem_command(), "--vault", str(vault), "init"], check=True, capture_output=True, env=env
    )
    stats = workdir / "time.txt"
    start = time.perf_counter()
    subprocess.run(
        [
            "/usr/bin/time",
            "-o",
            str(stats),
            "-f",
            "%M",
            *mem_command(),
            "--vault",
            str(vault),
            "commit",
            "--agent",
            "bench",
            "--file",
            str(transcript),
        ],
        check=True,
        capture_output=True,
        env=env,
    )
    elapsed = time.perf_counter() - start
    return elapsed, int(stats.read_text().split()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--real", action="store_true", help="real Aider sessions, not synthetic")
    args = parser.parse_args()
    if not Path("/usr/bin/time").exists():
        print("commit_perf: needs GNU time at /usr/bin/time", file=sys.stderr)
        return 1
    workdir = Path(tempfile.mkdtemp(prefix="mem-commit-perf-"))
    try:
        results = {}
        for label, size in (("50 KB", 50_000), ("5 MB", 5_000_000)):
            if args.real:
                transcript = workdir / f"h{size}.aider.chat.history.md"
                write_real_history(transcript, size)
            else:
                transcript = workdir / f"t{size}.jsonl"
                write_transcript(transcript, size, args.seed)
            runs = [measure(transcript, workdir) for _ in range(args.runs)]
            results[label] = (sorted(r[0] for r in runs)[len(runs) // 2], max(r[1] for r in runs))
        print(f"{'input':<12}{'median s':>10}{'peak RSS MiB':>14}")
        for label, (seconds, rss) in results.items():
            print(f"{label:<12}{seconds:>10.2f}{rss / 1024:>14.1f}")
        big_s, big_rss = results["5 MB"]
        small_rss = results["50 KB"][1]
        growth = (big_rss - small_rss) / 1024
        print(f"goal: 5 MB commit ≤ 2 s: {big_s:.2f} s {'met' if big_s <= 2 else 'MISSED'}")
        print(
            f"goal: peak RSS within 50 MB of the 50 KB run: +{growth:.1f} MiB "
            f"{'met' if growth <= 50 else 'MISSED'}"
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
