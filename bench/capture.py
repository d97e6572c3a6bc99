"""What `mem commit` keeps from real agent sessions (a benchmark, not a test).

Run it from the repository with the project installed (editable is fine)::

    python bench/capture.py ../shared/bench/capture-dev              # both parts, per file
    python bench/capture.py ../shared/bench/capture-dev --part tuned # only the part tuned on
    python bench/capture.py DIR --verbose     # plus every key missed and every noise key stored
    python bench/capture.py DIR --entries     # plus every entry stored, file by file
    python bench/capture.py DIR --json        # the same figures as one JSON object
    python bench/capture.py DIR --code /tmp/before   # with the code of another checkout

`--code` runs the `mem` of another checkout (`git worktree add /tmp/before <rev>`): a set
gathered unseen is scored with the code before a change and after it, before anyone reads it.

DIR holds real sessions and `labels.json`, a list of {file, category, key} (category `noise` for
text that must not be stored). Every file is committed into one fresh vault the way a user would
(`mem commit --agent fNN --file FILE`, format detected), each under an agent of its own, and is
scored as DIR/score.py scores it: matching ignores case and collapses white space;

- `kept`: the key is in any of the agent's decisions, lessons, facts or tasks files (for a task,
  also in a handoff);
- `recall`: the key is in the file of its own category;
- `noise`: a noise key is in any of the agent's markdown files;
- `entries per item`: entries stored in the four category files per labelled item.

The files DIR's README sets aside (never tuned on) are reported apart from the rest: the part
tuned on says how well the rules fit, the part set aside how well they transfer. Each file's row
also shows the handoff's **What**, the line the next session reads first.

Exit status: 0 whatever the figures; 1 when `mem` cannot be run or fails on a file.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

CATEGORIES = ("decisions", "lessons", "facts", "tasks")
# capture-dev/README.md names these: scored apart, never tuned on.
SET_ASIDE = frozenset(
    {
        "claude-cipher-box-fullschema-snapshot-docs.jsonl",
        "claude-speakfree-openwispr-fork.jsonl",
        "claude-context-evaluator-cursor-trust-flag.jsonl",
        "claude-langlearn-tts-ci-punt-tts-upgrade.jsonl",
        "cursor-lmstrix-prompt-loader-fix.md",
        "sessionnotes-GhidraMCPd-dirty-state.md",
        "claude-codesnippetd-context-path-fix.md",
    }
)
ENTRY_ID = re.compile(r"^<!-- id:", re.MULTILINE)
WHAT = re.compile(r"\*\*What:\*\*\s*(.*)")
TIMEOUT_SECONDS = 300


class BenchError(Exception):
    """Something the benchmark cannot go on without: a missing CLI, a failing commit, bad labels."""


@dataclass(frozen=True)
class Key:
    file: str
    category: str  # decisions | lessons | facts | tasks | noise
    text: str


@dataclass
class FileResult:
    file: str
    set_aside: bool
    kept: int = 0
    recalled: int = 0
    labelled: int = 0
    noise: int = 0
    entries: int = 0
    what: str = ""
    seconds: float = 0.0
    missed: tuple[Key, ...] = ()
    noise_keys: tuple[Key, ...] = ()
    stored: str = ""  # the agent's category files, as stored (for --entries)


def collapsed(text: str) -> str:
    return " ".join(text.split()).lower()


def load_keys(folder: Path) -> list[Key]:
    path = folder / "labels.json"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BenchError(f"cannot read {path}: {error}") from error
    if not isinstance(document, list):
        raise BenchError(f"{path}: expected a list of {{file, category, key}}")
    keys = []
    for number, raw in enumerate(document, 1):
        if not isinstance(raw, dict) or raw.get("category") not in (*CATEGORIES, "noise"):
            raise BenchError(f"{path} item {number}: bad item {raw!r}")
        if not (folder / str(raw.get("file"))).is_file() or not str(raw.get("key", "")).strip():
            raise BenchError(f"{path} item {number}: no such file or no key")
        keys.append(Key(str(raw["file"]), raw["category"], str(raw["key"])))
    return keys


def mem_command() -> list[str]:
    """The `mem` script installed next to this interpreter, else `python -m mem`."""
    script = Path(sys.executable).parent / "mem"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "mem"]


def run_mem(
    arguments: Sequence[str], what: str, code: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `mem` with these arguments (the installed one, or the package in the checkout
    `code`, run from there so that no other copy is imported first)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("MEM_VAULT", "MEM_AGENT")}
    environment["NO_COLOR"] = "1"
    if code is not None:
        environment["PYTHONPATH"] = str(code)
    try:
        done = subprocess.run(
            [*mem_command(), *arguments]
            if code is None
            else [sys.executable, "-m", "mem", *arguments],
            cwd=code,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            env=environment,
            stdin=subprocess.DEVNULL,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BenchError(f"{what}: {error}") from error
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        raise BenchError(f"{what}: exited {done.returncode}: {last}")
    return done


def commit_one(
    vault: Path, folder: Path, number: int, name: str, code: Path | None = None
) -> tuple[str, float]:
    agent = f"f{number:02d}"
    started = time.perf_counter()
    run_mem(
        ["--vault", str(vault), "commit", "--agent", agent, "--file", str(folder / name)],
        f"mem commit {name}",
        code,
    )
    return agent, time.perf_counter() - started


def score_file(name: str, keys: list[Key], agent_dir: Path, seconds: float) -> FileResult:
    texts = {}
    for category in (*CATEGORIES, "handoffs"):
        path = agent_dir / f"{category}.md"
        texts[category] = path.read_text(encoding="utf-8") if path.is_file() else ""
    every = collapsed(
        "\n".join(p.read_text(encoding="utf-8") for p in sorted(agent_dir.rglob("*.md")))
    )
    by_category = {c: collapsed(texts[c]) for c in CATEGORIES}
    memory = "\n".join(by_category.values())
    handoffs = collapsed(texts["handoffs"])
    result = FileResult(name, name in SET_ASIDE, seconds=seconds)
    missed, noise = [], []
    for key in keys:
        text = collapsed(key.text)
        if key.category == "noise":
            if text in every:
                noise.append(key)
            continue
        result.labelled += 1
        result.recalled += text in by_category[key.category]
        kept = text in memory or (key.category == "tasks" and text in handoffs)
        result.kept += kept
        if not kept:
            missed.append(key)
    result.missed, result.noise_keys, result.noise = tuple(missed), tuple(noise), len(noise)
    result.entries = sum(len(ENTRY_ID.findall(texts[c])) for c in CATEGORIES)
    what = WHAT.search(texts["handoffs"])
    result.what = what.group(1).strip() if what else ""
    result.stored = "\n".join(f"## {c}\n{texts[c]}" for c in CATEGORIES if texts[c].strip())
    return result


def run(folder: Path, part: str, jobs: int, code: Path | None = None) -> list[FileResult]:
    if code is not None and not (code / "mem" / "__main__.py").is_file():
        raise BenchError(f"{code}: no checkout of mem (no mem/__main__.py)")
    folder = folder.resolve()  # another checkout's mem runs from there
    keys = load_keys(folder)
    names = sorted({key.file for key in keys})
    if part != "all":
        names = [n for n in names if (n in SET_ASIDE) == (part == "aside")]
    work = Path(tempfile.mkdtemp(prefix="mem-bench-capture-"))
    try:
        run_mem(["init", str(work)], "mem init", code)
        vault = work / ".memory"
        numbers = {name: number for number, name in enumerate(sorted({k.file for k in keys}), 1)}
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            done = list(pool.map(lambda n: commit_one(vault, folder, numbers[n], n, code), names))
        return [
            score_file(name, [k for k in keys if k.file == name], vault / agent, seconds)
            for name, (agent, seconds) in zip(names, done, strict=True)
        ]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def totals(results: list[FileResult]) -> dict[str, float | int | None]:
    labelled = sum(r.labelled for r in results)
    return {
        "files": len(results),
        "labelled": labelled,
        "kept": round(sum(r.kept for r in results) / labelled, 3) if labelled else None,
        "recall": round(sum(r.recalled for r in results) / labelled, 3) if labelled else None,
        "noise": sum(r.noise for r in results),
        "entries": sum(r.entries for r in results),
        "entries_per_item": round(sum(r.entries for r in results) / labelled, 2)
        if labelled
        else None,
        "seconds": round(sum(r.seconds for r in results), 2),
    }


def parts(results: list[FileResult]) -> dict[str, list[FileResult]]:
    chosen = {
        "tuned": [r for r in results if not r.set_aside],
        "set aside": [r for r in results if r.set_aside],
        "all": results,
    }
    return {name: rows for name, rows in chosen.items() if rows}


def print_report(results: list[FileResult], verbose: bool, entries: bool) -> None:
    for name, rows in parts(results).items():
        if name == "all":
            continue
        print(f"\n{name}: {len(rows)} files")
        print(f"{'file':<52} {'kept':>7} {'recall':>6} {'noise':>5} {'entries':>7}  what")
        for r in rows:
            print(
                f"{r.file[:52]:<52} {r.kept:>3}/{r.labelled:<3} {r.recalled:>6} {r.noise:>5} "
                f"{r.entries:>7}  {r.what[:70]}"
            )
            if verbose:
                for key in r.missed:
                    print(f"    missed {key.category}: {key.text}")
                for key in r.noise_keys:
                    print(f"    noise stored: {key.text}")
            if entries:
                print("    " + r.stored.replace("\n", "\n    "))
    print(
        f"\n{'part':<10} {'files':>5} {'kept':>6} {'recall':>6} {'noise':>5} {'entries/item':>12}"
    )
    for name, rows in parts(results).items():
        t = totals(rows)
        print(
            f"{name:<10} {t['files']:>5} {t['kept']:>6.2f} {t['recall']:>6.2f} {t['noise']:>5} "
            f"{t['entries_per_item']:>12.2f}"
        )


def as_json(results: list[FileResult]) -> dict[str, object]:
    return {
        "schema_version": 1,
        "parts": {name: totals(rows) for name, rows in parts(results).items()},
        "files": [
            {
                "file": r.file,
                "set_aside": r.set_aside,
                "kept": r.kept,
                "recalled": r.recalled,
                "labelled": r.labelled,
                "noise": r.noise,
                "entries": r.entries,
                "what": r.what,
                "seconds": round(r.seconds, 3),
                "missed": [{"category": k.category, "key": k.text} for k in r.missed],
                "noise_keys": [k.text for k in r.noise_keys],
            }
            for r in results
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("folder", type=Path, help="sessions and labels.json (capture-dev)")
    parser.add_argument("--part", choices=("all", "tuned", "aside"), default="all")
    parser.add_argument("--verbose", "-v", action="store_true", help="keys missed, noise stored")
    parser.add_argument("--entries", action="store_true", help="every entry stored, by file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--jobs", "-j", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--code", type=Path, help="run the mem of this checkout instead")
    arguments = parser.parse_args(argv)
    code = arguments.code.resolve() if arguments.code else None
    try:
        results = run(arguments.folder, arguments.part, arguments.jobs, code)
    except BenchError as error:
        print(f"capture: {error}", file=sys.stderr)
        return 1
    if arguments.json:
        print(json.dumps(as_json(results), indent=2, ensure_ascii=False))
    else:
        print_report(results, arguments.verbose, arguments.entries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
