"""Proof under load, faults, merges, hostile input and scale (a benchmark, not a test).

Run it from the repository with the project installed (editable is fine)::

    python bench/reliability.py                      # every part
    python bench/reliability.py --parts load,faults  # some of them
    python bench/reliability.py --json               # the rows as JSON on stdout

Each part runs the real `mem` command in temporary vaults, as agents and people do, and returns
rows: what it checked, what it measured, the goal, and whether the goal held. The table it prints
is the one in the README's Guarantees section. The exit status is 1 when a goal did not hold.

- load:    8 processes x 200 mixed commands at once, an editor saving a category file every
           50 ms and `mem watch` running: entries lost, errors, p50/p95 latency per command
- faults:  SIGKILLs at random moments of commit, compact, migrate, import, backfill and a
           rebuild; a full disk and a read-only vault
- merges:  random pairs of git branches of a vault, merged with the union driver, then
           `mem doctor --fix`
- hostile: fuzzed category files and stdin, path escapes, 1 GB of stdin, secrets, private entries
- scale:   recall, search, PreToolUse, edit-then-search and a rebuild at 1k, 10k and 100k entries
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from proofs.common import Row

PARTS: tuple[str, ...] = ("load", "faults", "merges", "hostile", "scale")


def table(rows: list[Row]) -> str:
    """The rows as a markdown table, the form the README quotes."""
    lines = ["| part | check | measured | goal | held |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        held = "–" if row.ok is None else ("yes" if row.ok else "**no**")
        lines.append(f"| {row.part} | {row.check} | {row.measured} | {row.goal or '–'} | {held} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--parts", default=",".join(PARTS), help=f"comma-separated, of: {', '.join(PARTS)}"
    )
    parser.add_argument(
        "--quick", action="store_true", help="smaller counts, for a smoke run (figures not goals)"
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args(argv)
    chosen = [part.strip() for part in args.parts.split(",") if part.strip()]
    unknown = [part for part in chosen if part not in PARTS]
    if unknown:
        parser.error(f"unknown part {unknown[0]!r}; choose from {', '.join(PARTS)}")
    rows: list[Row] = []
    timings: list[str] = []
    for part in chosen:
        module = importlib.import_module(f"proofs.{part}")
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix=f"mem-{part}-") as folder:
            rows.extend(module.run(Path(folder), quick=args.quick, seed=args.seed))
        timings.append(f"{part} {time.perf_counter() - started:.0f} s")
        print(f"# {timings[-1]}", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps([asdict(row) for row in rows], indent=2))
    else:
        print(table(rows))
        print(f"\nTime: {', '.join(timings)}.")
    return 1 if any(row.ok is False for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
