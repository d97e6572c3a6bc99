"""A golden record of what `mem commit` stores, to prove a speed-up changed no output (a check).

    python bench/golden.py --write DIR     # record today's outputs in DIR
    python bench/golden.py --check DIR     # run again and compare with DIR; exit 1 on a change

For every session of ../shared/bench/capture-dev and every case of bench/extraction (all its
labels files), it runs the real command line in a fresh vault:

- `mem commit --agent a --file F --dry-run --json --explain` (format detected; the extraction
  cases also with their labelled `--format`), the JSON kept whole;
- for each capture-dev session, and for a real Aider history and a synthetic Claude Code
  transcript built as bench/commit_perf.py builds them (smaller): a real commit, and the vault's
  every file (category files, ledger, reached records) kept as text;
- for the same files, a commit of their first half (cut at a line end), then of the whole: the
  incremental read from the ledger's restart point, and the vault it leaves.

Entry ids are made from a seeded random source, so that entries of one moment keep one order.
What else varies from run to run is normalised: the time part of entry ids, run ids,
the moments of the run (any time stamp of the day the run started or ended), temporary paths.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from commit_perf import SHARED, write_real_history, write_transcript
from extraction import SET_DIR, load_cases

CAPTURE_DEV = SHARED / "bench" / "capture-dev"
NOT_SESSIONS = {"README.md", "labels.json", "score.py"}
ENTRY_ID = re.compile(r"\b\d{8}-\d{6}-([0-9a-z]{6})\b")
# Entry ids end in random letters, and entries of one moment are filed in id order: seed them
# (each run of a record its own seed, so that two runs' ids never meet).
RUNNER = (
    "import random, secrets, sys; secrets.choice = random.Random(sys.argv.pop(1)).choice; "
    "sys.argv[0] = 'mem'; from mem.cli.main import main; main()"
)
RUN_ID = re.compile(r'"run":"[0-9a-f]{20}"')
TEMPORARY = re.compile(re.escape(tempfile.gettempdir()) + r"/mem-golden-[^/\"\s]*")


def sessions() -> list[Path]:
    return sorted(
        p
        for p in CAPTURE_DEV.iterdir()
        if p.is_file() and p.name not in NOT_SESSIONS and not p.name.startswith("LICENSE")
    )


def extraction_cases() -> list[tuple[str, Path, str]]:
    """(name, path, format) of every case in every labels file under bench/extraction."""
    found = []
    for labels in sorted(SET_DIR.rglob("labels.json")):
        for case in load_cases(labels):
            found.append((str(case.path.relative_to(SET_DIR)), case.path, case.format))
    return found


def run(arguments: list[str], seed: int = 0) -> str:
    environment = {k: v for k, v in os.environ.items() if k not in ("MEM_VAULT", "MEM_AGENT")}
    environment["NO_COLOR"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(seed), *arguments],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environment,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"golden: mem {' '.join(arguments)} exited {done.returncode}:\n{done.stderr}"
        )
    return done.stdout


def days() -> set[str]:
    now = datetime.now(UTC)
    return {(now + timedelta(days=d)).strftime("%Y-%m-%d") for d in (-1, 0)}


def normalise(text: str, folder: Path, today: set[str]) -> str:
    text = text.replace(str(folder.resolve()), "<TMP>").replace(str(folder), "<TMP>")
    text = TEMPORARY.sub("<TMP>", text)
    text = ENTRY_ID.sub(lambda m: f"<ID-{m.group(1)}>", text)  # the seeded part
    text = RUN_ID.sub('"run":"<RUN>"', text)
    for day in today:
        text = re.sub(re.escape(day) + r"[T ][0-9:.]+(?:Z|\+00:00)?", "<NOW>", text)
    return text


def sorted_ids(line: str) -> str:
    """A ledger line with its id lists sorted: the ledger sorts them by their random ids."""
    try:
        record = json.loads(line)
    except ValueError:
        return line
    for key, value in record.items():
        if isinstance(value, list) and all(
            isinstance(v, str) and v.startswith("<ID") for v in value
        ):
            record[key] = sorted(value)
    return json.dumps(record, ensure_ascii=False, sort_keys=True)


def vault_text(vault: Path, folder: Path, today: set[str]) -> str:
    parts = []
    for path in sorted(vault.rglob("*")):
        relative = path.relative_to(vault).as_posix()
        if not path.is_file() or "/locks/" in f"/{relative}":
            continue
        if "/reached/" in relative:
            relative = relative.rsplit("/", 1)[0] + "/<hash>.json"
        parts.append(f"=== {relative}\n{path.read_text(encoding='utf-8')}")
    text = normalise("\n".join(parts), folder, today)
    return "\n".join(
        sorted_ids(line) if line.startswith("{") else line for line in text.split("\n")
    )


def fresh(folder: Path) -> Path:
    run(["init", str(folder), "--json"])
    return folder / ".memory"


@contextmanager
def scratch() -> Iterator[tuple[Path, Path, set[str]]]:
    """A fresh vault in a folder of its own, removed after: (folder, vault, the days seen)."""
    folder = Path(tempfile.mkdtemp(prefix="mem-golden-"))
    try:
        yield folder, fresh(folder), days()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def dry_run(source: Path, fmt: str | None) -> str:
    with scratch() as (folder, vault, today):
        arguments = ["--vault", str(vault), "commit", "--agent", "a", "--file", str(source)]
        arguments += ["--dry-run", "--json", "--explain"]
        if fmt:
            arguments += ["--format", fmt]
        out = run(arguments)
        return normalise(
            json.dumps(json.loads(out), ensure_ascii=False, indent=1), folder, today | days()
        )


def stored(source: Path) -> str:
    with scratch() as (folder, vault, today):
        run(["--vault", str(vault), "commit", "--agent", "a", "--file", str(source)])
        return vault_text(vault, folder, today | days())


def grown(source: Path) -> str:
    """Commit the file's first half, then the whole file at the same path: the vault after."""
    with scratch() as (folder, vault, today):
        data = source.read_bytes()
        cut = data.rfind(b"\n", 0, len(data) // 2) + 1
        copy = folder / source.name
        copy.write_bytes(data[:cut])
        arguments = ["--vault", str(vault), "commit", "--agent", "a", "--file", str(copy)]
        run(arguments)
        copy.write_bytes(data)
        # A later second: entries of two runs in one second would be filed by their random ids.
        time.sleep(1 - time.time() % 1 + 0.01)
        run(arguments, seed=1)
        return vault_text(vault, folder, today | days())


def jobs(built: Path) -> dict[str, Callable[[], str]]:
    """Each record's file name, and how to make it."""
    todo: dict[str, Callable[[], str]] = {}
    whole = sessions()
    for name in ("real.aider.chat.history.md", "synthetic.jsonl"):
        whole.append(built / name)
    for path in whole:
        todo[f"dry/{path.name}.json"] = lambda p=path: dry_run(p, None)
        todo[f"stored/{path.name}.txt"] = lambda p=path: stored(p)
        todo[f"grown/{path.name}.txt"] = lambda p=path: grown(p)
    for name, path, fmt in extraction_cases():
        flat = name.replace("/", "__")
        todo[f"cases/{flat}.auto.json"] = lambda p=path: dry_run(p, None)
        todo[f"cases/{flat}.{fmt}.json"] = lambda p=path, f=fmt: dry_run(p, f)
    return todo


def build_inputs(built: Path) -> None:
    write_real_history(built / "real.aider.chat.history.md", 400_000)
    write_transcript(built / "synthetic.jsonl", 400_000, 7)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, metavar="DIR")
    group.add_argument("--check", type=Path, metavar="DIR")
    parser.add_argument("--only", default="", help="only the records whose name contains this")
    parser.add_argument("--workers", type=int, default=max(2, os.cpu_count() or 2))
    args = parser.parse_args()
    built = Path(tempfile.mkdtemp(prefix="mem-golden-inputs-"))
    try:
        build_inputs(built)
        todo = {k: v for k, v in jobs(built).items() if args.only in k}
        with ThreadPoolExecutor(args.workers) as pool:
            results = dict(zip(todo, pool.map(lambda make: make(), todo.values()), strict=True))
    finally:
        shutil.rmtree(built, ignore_errors=True)
    if args.write:
        for name, text in results.items():
            target = args.write / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        print(f"golden: wrote {len(results)} records to {args.write}")
        return 0
    changed = 0
    for name, text in results.items():
        target = args.check / name
        before = target.read_text(encoding="utf-8") if target.exists() else ""
        if before != text:
            changed += 1
            print(f"CHANGED {name}")
            diff = difflib.unified_diff(before.splitlines(), text.splitlines(), lineterm="", n=1)
            print("\n".join(list(diff)[:40]))
    print(f"golden: {len(results) - changed} of {len(results)} records identical")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
