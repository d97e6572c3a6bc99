"""Precision and recall of `mem commit` on a labelled set of agent outputs (a benchmark, not a test).

Run it from the repository with the project installed (editable is fine)::

    python bench/extraction.py                 # figures per category, overall, per language, format
    python bench/extraction.py --verbose       # plus every false positive and miss, case by case
    python bench/extraction.py --json          # the same figures as one JSON object
    python bench/extraction.py --auto-format   # let `mem commit --format auto` detect each format
    python bench/extraction.py --case pt-      # only the cases whose file name contains "pt-"
    python bench/extraction.py --self-test     # check the scorer and the labels; no `mem` needed
    python bench/extraction.py --labels bench/extraction/holdout/labels.json   # the held-out set
    python bench/extraction.py --synthetic     # every synthetic set: one line each, then combined
    python bench/extraction.py --capture ../shared/bench/capture-dev   # real sessions (below)

`--capture DIR` runs bench/capture.py on real agent sessions labelled by key (such as
../shared/bench/capture-dev): each file committed as a user would, scored for what is kept, in
which category, and what noise is stored, with the part set aside reported apart.

The set lives in `bench/extraction/`: `cases/` holds agent outputs (plain `claude -p` / `codex exec`
text, Claude Code transcripts, `claude -p --output-format stream-json --verbose` NDJSON, `codex exec
--json` events, Aider chat histories; English and pt-BR), and `labels.json` lists, for each case,
what a careful person would keep from it: decisions, lessons, facts and tasks. Labels were written
by hand and independently of any extractor; see `bench/extraction/README.md`. `--labels PATH` runs
another set in the same format, such as the held-out one in `bench/extraction/holdout/` (written
without looking at the extraction rules); its case paths are relative to the folder of PATH.

For each case the script makes a fresh vault with `mem init`, then runs the real command line::

    mem --vault VAULT commit --agent bench --format FORMAT --file CASE --dry-run --json

and scores the `added` entries whose category is decisions, lessons, facts or tasks (handoffs,
projects and `reinforced` entries are not scored). An extracted entry matches a label of the same
category when the Jaccard similarity of their word sets is at least 0.5, or when one word set holds
at least 80% of the other; each label and each extracted entry is matched at most once, greedily,
best similarity first. Words are lowercased runs of letters, digits and underscores with at least
three letters; `#tags` are dropped first. An unmatched extracted entry is a false positive, an
unmatched label a miss.

Goals, printed beside the figures: precision ≥ 0.9 for decisions and lessons, recall ≥ 0.7 for
every category and overall.

Exit status: 0 whatever the figures (this is a benchmark); 1 when `mem` cannot be run or fails on a
case (the message names the case), or when labels.json is malformed.
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
import traceback
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SET_DIR = Path(__file__).resolve().parent / "extraction"
LABELS_FILE = SET_DIR / "labels.json"
AGENT = "bench"
CATEGORIES: tuple[str, ...] = ("decisions", "lessons", "facts", "tasks")
FORMATS: tuple[str, ...] = ("text", "claude-jsonl", "stream-json", "codex-jsonl", "aider")
LANGUAGES: tuple[str, ...] = ("en", "pt")
# DESIGN §1 "Kinds and categories": used only when an added entry names its kind but no category.
KIND_CATEGORY: dict[str, str] = {
    "decision": "decisions",
    "interface": "decisions",
    "lesson": "lessons",
    "warning": "lessons",
    "observation": "lessons",
    "preference": "facts",
    "convention": "facts",
    "pattern": "facts",
    "fact": "facts",
    "code": "facts",
    "task": "tasks",
}
JACCARD_MIN = 0.5
CONTAINMENT_MIN = 0.8
MIN_LETTERS = 3
GOAL_PRECISION: dict[str, float] = {"decisions": 0.9, "lessons": 0.9}
GOAL_RECALL = 0.7
TIMEOUT_SECONDS = 120
WORD = re.compile(r"\w+")
TAG = re.compile(r"(?<![\w#])#(?=\w*[^\W\d_])[\w/-]+")


class BenchError(Exception):
    """Something the benchmark cannot go on without: a missing CLI, a failing case, bad labels."""


# ---------------------------------------------------------------------------- matching


def words(text: str) -> frozenset[str]:
    """The lowercased word set of a text: runs of word characters with at least three letters."""
    text = TAG.sub(" ", text.lower())
    return frozenset(
        token
        for token in WORD.findall(text)
        if sum(character.isalpha() for character in token) >= MIN_LETTERS
    )


def similarity(a: frozenset[str], b: frozenset[str]) -> tuple[float, float]:
    """(Jaccard similarity, containment): containment is the share of the smaller set in the other."""
    if not a or not b:
        return 0.0, 0.0
    common = len(a & b)
    return common / len(a | b), common / min(len(a), len(b))


def is_match(a: frozenset[str], b: frozenset[str]) -> bool:
    jaccard, containment = similarity(a, b)
    return jaccard >= JACCARD_MIN or containment >= CONTAINMENT_MIN


def match(extracted: Sequence[str], labels: Sequence[str]) -> list[tuple[int, int]]:
    """Pairs (extracted index, label index), one-to-one, greedily by best similarity."""
    extracted_words = [words(text) for text in extracted]
    label_words = [words(text) for text in labels]
    candidates: list[tuple[float, float, int, int]] = []
    for i, a in enumerate(extracted_words):
        for j, b in enumerate(label_words):
            if is_match(a, b):
                jaccard, containment = similarity(a, b)
                candidates.append((jaccard, containment, i, j))
    # Best Jaccard first, then best containment; ties go to the earlier item and label.
    candidates.sort(key=lambda c: (-c[0], -c[1], c[2], c[3]))
    used_extracted: set[int] = set()
    used_labels: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for _, _, i, j in candidates:
        if i not in used_extracted and j not in used_labels:
            used_extracted.add(i)
            used_labels.add(j)
            pairs.append((i, j))
    return sorted(pairs)


# ---------------------------------------------------------------------------- labels


@dataclass(frozen=True)
class Item:
    category: str
    text: str


@dataclass(frozen=True)
class Case:
    file: str
    format: str
    language: str
    labels: tuple[Item, ...]
    root: Path = SET_DIR  # the folder of the labels file: `file` is relative to it

    @property
    def path(self) -> Path:
        return self.root / self.file


def load_cases(path: Path = LABELS_FILE) -> list[Case]:
    """Read a labels file, refusing anything the scorer would silently get wrong.

    Case paths are relative to the folder that holds the labels file."""
    root = path.resolve().parent
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BenchError(f"cannot read {path}: {error}") from error
    if not isinstance(document, dict) or not isinstance(document.get("cases"), list):
        raise BenchError(f"{path}: expected an object with a `cases` list")
    cases: list[Case] = []
    seen: set[str] = set()
    for number, raw in enumerate(document["cases"], 1):
        where = f"{path.name} case {number}"
        if not isinstance(raw, dict):
            raise BenchError(f"{where}: not an object")
        file, fmt, language = raw.get("file"), raw.get("format"), raw.get("language")
        if not isinstance(file, str) or not file or file in seen:
            raise BenchError(f"{where}: missing or repeated `file`")
        if fmt not in FORMATS:
            raise BenchError(f"{where} ({file}): unknown format {fmt!r}")
        if language not in LANGUAGES:
            raise BenchError(f"{where} ({file}): unknown language {language!r}")
        if not (root / file).is_file():
            raise BenchError(f"{where}: {file} does not exist in {root}")
        items: list[Item] = []
        for raw_item in raw.get("items", []):
            category = raw_item.get("category") if isinstance(raw_item, dict) else None
            text = raw_item.get("text") if isinstance(raw_item, dict) else None
            if category not in CATEGORIES or not isinstance(text, str) or not words(text):
                raise BenchError(f"{where} ({file}): bad item {raw_item!r}")
            items.append(Item(category, text))
        seen.add(file)
        cases.append(Case(file, fmt, language, tuple(items), root))
    return cases


# ---------------------------------------------------------------------------- running mem


def mem_command() -> list[str]:
    """The `mem` script installed next to this interpreter, else `python -m mem`."""
    bin_dir = Path(sys.executable).parent
    for name in ("mem", "mem.exe"):
        script = bin_dir / name
        if script.is_file() and os.access(script, os.X_OK):
            return [str(script)]
    return [sys.executable, "-m", "mem"]


def mem_environment() -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("MEM_VAULT", "MEM_AGENT")}
    environment["NO_COLOR"] = "1"
    return environment


def run_mem(arguments: Sequence[str], case: Case, what: str) -> subprocess.CompletedProcess[str]:
    command = [*mem_command(), *arguments]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            env=mem_environment(),
            stdin=subprocess.DEVNULL,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError as error:
        raise BenchError(f"{case.file}: cannot run `mem` ({command[0]}): {error}") from error
    except subprocess.TimeoutExpired as error:
        raise BenchError(f"{case.file}: `mem {what}` took over {TIMEOUT_SECONDS} s") from error
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or ["?"])[-1]
        raise BenchError(f"{case.file}: `mem {what}` exited {done.returncode}: {last}")
    return done


def fresh_vault(folder: Path, case: Case) -> Path:
    """`mem init FOLDER` in an empty temporary folder; returns the vault it made."""
    done = run_mem(["init", str(folder), "--json"], case, "init")
    vault = folder / ".memory"
    try:
        reported = json.loads(done.stdout).get("vault")
    except (ValueError, AttributeError):
        reported = None
    if isinstance(reported, str) and reported:
        vault = Path(reported)
    # `mem init` puts the vault at the git root when inside a repository: never use one outside
    # the temporary folder, or the benchmark would read (and could write) someone's real memory.
    if not vault.resolve().is_relative_to(folder.resolve()) or not (vault / "mem.toml").is_file():
        raise BenchError(f"{case.file}: `mem init {folder}` made no vault inside it ({vault})")
    return vault


@dataclass(frozen=True)
class Extracted:
    category: str
    body: str


def parse_commit_output(stdout: str, case: Case) -> tuple[list[Extracted], dict[str, Any]]:
    """The scored `added` entries of `mem commit --json`, and the whole object."""
    try:
        report = json.loads(stdout)
    except ValueError as error:
        raise BenchError(f"{case.file}: `mem commit --json` printed no JSON object") from error
    if not isinstance(report, dict) or not isinstance(report.get("added"), list):
        raise BenchError(f"{case.file}: `mem commit --json` has no `added` list")
    extracted: list[Extracted] = []
    for entry in report["added"]:
        if not isinstance(entry, dict):
            continue
        category = entry.get("category")
        if category is None and isinstance(entry.get("kind"), str):
            category = KIND_CATEGORY.get(entry["kind"])
        body = entry.get("body", entry.get("text"))
        if category in CATEGORIES and isinstance(body, str):
            extracted.append(Extracted(category, body))
    return extracted, report


def extract(case: Case, auto_format: bool) -> tuple[list[Extracted], dict[str, Any]]:
    folder = Path(tempfile.mkdtemp(prefix="mem-bench-extraction-"))
    try:
        vault = fresh_vault(folder, case)
        done = run_mem(
            [
                "--vault",
                str(vault),
                "commit",
                "--agent",
                AGENT,
                "--format",
                "auto" if auto_format else case.format,
                "--file",
                str(case.path),
                "--dry-run",
                "--json",
            ],
            case,
            "commit",
        )
        return parse_commit_output(done.stdout, case)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------------- scoring


@dataclass
class Counts:
    labelled: int = 0
    extracted: int = 0
    true_positives: int = 0

    def add(self, other: Counts) -> None:
        self.labelled += other.labelled
        self.extracted += other.extracted
        self.true_positives += other.true_positives

    @property
    def precision(self) -> float | None:
        return self.true_positives / self.extracted if self.extracted else None

    @property
    def recall(self) -> float | None:
        return self.true_positives / self.labelled if self.labelled else None

    def as_json(self) -> dict[str, Any]:
        return {
            "labelled": self.labelled,
            "extracted": self.extracted,
            "true_positives": self.true_positives,
            "precision": rounded(self.precision),
            "recall": rounded(self.recall),
        }


@dataclass
class FalsePositive:
    category: str
    body: str
    labelled_as: str | None = None  # a missed label of another category it would have matched


@dataclass
class CaseResult:
    case: Case
    by_category: dict[str, Counts] = field(default_factory=dict)
    false_positives: list[FalsePositive] = field(default_factory=list)
    misses: list[Item] = field(default_factory=list)
    dry_run: bool = True

    @property
    def total(self) -> Counts:
        total = Counts()
        for counts in self.by_category.values():
            total.add(counts)
        return total


def score(case: Case, extracted: Sequence[Extracted]) -> CaseResult:
    result = CaseResult(case)
    for category in CATEGORIES:
        labels = [item for item in case.labels if item.category == category]
        found = [item for item in extracted if item.category == category]
        pairs = match([item.body for item in found], [item.text for item in labels])
        result.by_category[category] = Counts(len(labels), len(found), len(pairs))
        matched_found = {i for i, _ in pairs}
        matched_labels = {j for _, j in pairs}
        result.false_positives += [
            FalsePositive(category, item.body)
            for i, item in enumerate(found)
            if i not in matched_found
        ]
        result.misses += [item for j, item in enumerate(labels) if j not in matched_labels]
    # Explain a false positive that is a missed label filed under another category.
    for false_positive in result.false_positives:
        for miss in result.misses:
            if miss.category != false_positive.category and is_match(
                words(false_positive.body), words(miss.text)
            ):
                false_positive.labelled_as = miss.category
                break
    return result


def rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def summary(results: Iterable[CaseResult]) -> dict[str, Counts]:
    by_category = {category: Counts() for category in CATEGORIES}
    for result in results:
        for category, counts in result.by_category.items():
            by_category[category].add(counts)
    return by_category


def overall(by_category: dict[str, Counts]) -> Counts:
    total = Counts()
    for counts in by_category.values():
        total.add(counts)
    return total


def goals_met(by_category: dict[str, Counts], total: Counts) -> dict[str, dict[str, bool | None]]:
    met: dict[str, dict[str, bool | None]] = {}
    for name, counts in [*by_category.items(), ("overall", total)]:
        precision_goal = GOAL_PRECISION.get(name)
        met[name] = {
            "precision": None
            if precision_goal is None
            else (counts.precision or 0.0) >= precision_goal,
            "recall": None if counts.recall is None else counts.recall >= GOAL_RECALL,
        }
    return met


def grouped(results: Sequence[CaseResult], key: str, values: Sequence[str]) -> dict[str, Counts]:
    groups: dict[str, Counts] = {}
    for value in values:
        members = [r for r in results if getattr(r.case, key) == value]
        if members:
            groups[value] = overall(summary(members))
    return groups


# ---------------------------------------------------------------------------- reporting


def percent(value: float | None) -> str:
    return "  n/a" if value is None else f"{value:5.2f}"


def goal_text(name: str, counts: Counts) -> str:
    parts: list[str] = []
    if name in GOAL_PRECISION:
        ok = (counts.precision or 0.0) >= GOAL_PRECISION[name]
        parts.append(f"P≥{GOAL_PRECISION[name]:.2f} {'met' if ok else 'MISSED'}")
    if counts.recall is not None:
        ok = counts.recall >= GOAL_RECALL
        parts.append(f"R≥{GOAL_RECALL:.2f} {'met' if ok else 'MISSED'}")
    return ", ".join(parts)


def short(text: str, width: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def print_report(
    results: Sequence[CaseResult], command: Sequence[str], auto_format: bool, verbose: bool
) -> None:
    by_category = summary(results)
    total = overall(by_category)
    formats = ", ".join(
        f"{fmt} {sum(r.case.format == fmt for r in results)}"
        for fmt in FORMATS
        if any(r.case.format == fmt for r in results)
    )
    print(f"mem commit extraction: {len(results)} cases ({formats}), {total.labelled} labels")
    print(f"mem: {' '.join(command)}; --format {'auto' if auto_format else 'from labels.json'}")
    print()
    header = f"{'category':<10} {'labelled':>8} {'extracted':>9} {'tp':>4} {'precision':>9} "
    print(header + f"{'recall':>6}  goals")
    for name, counts in [*by_category.items(), ("overall", total)]:
        print(
            f"{name:<10} {counts.labelled:>8} {counts.extracted:>9} {counts.true_positives:>4} "
            f"{percent(counts.precision):>9} {percent(counts.recall):>6}  {goal_text(name, counts)}"
        )
    for title, groups in (
        ("language", grouped(results, "language", LANGUAGES)),
        ("format", grouped(results, "format", FORMATS)),
    ):
        print()
        for value, counts in groups.items():
            print(
                f"{title} {value:<13} labelled {counts.labelled:>3}  extracted "
                f"{counts.extracted:>3}  tp {counts.true_positives:>3}  precision "
                f"{percent(counts.precision)}  recall {percent(counts.recall)}"
            )
    not_dry = [r.case.file for r in results if not r.dry_run]
    if not_dry:
        print(f"\nwarning: `dry_run` was not true for {', '.join(not_dry)}", file=sys.stderr)
    if not verbose:
        return
    print()
    for result in results:
        counts = result.total
        if not result.false_positives and not result.misses:
            status = "all matched" if counts.labelled else "nothing labelled, nothing extracted"
            print(f"{result.case.file} ({result.case.format}, {result.case.language}): {status}")
            continue
        print(
            f"{result.case.file} ({result.case.format}, {result.case.language}): "
            f"tp {counts.true_positives}/{counts.labelled}, "
            f"{len(result.false_positives)} false positive(s)"
        )
        for miss in result.misses:
            print(f"  miss {miss.category:<9} {short(miss.text)}")
        for fp in result.false_positives:
            note = f" (labelled as {fp.labelled_as})" if fp.labelled_as else ""
            print(f"  fp   {fp.category:<9} {short(fp.body)}{note}")


def json_report(
    results: Sequence[CaseResult], command: Sequence[str], auto_format: bool
) -> dict[str, Any]:
    by_category = summary(results)
    total = overall(by_category)
    return {
        "schema_version": 1,
        "cases": len(results),
        "mem": list(command),
        "format_flag": "auto" if auto_format else "labelled",
        "matching": {
            "jaccard_min": JACCARD_MIN,
            "containment_min": CONTAINMENT_MIN,
            "min_letters": MIN_LETTERS,
        },
        "by_category": {name: counts.as_json() for name, counts in by_category.items()},
        "overall": total.as_json(),
        "by_language": {k: v.as_json() for k, v in grouped(results, "language", LANGUAGES).items()},
        "by_format": {k: v.as_json() for k, v in grouped(results, "format", FORMATS).items()},
        "goals": {
            "precision": GOAL_PRECISION,
            "recall": GOAL_RECALL,
            "met": goals_met(by_category, total),
        },
        "per_case": [
            {
                "file": r.case.file,
                "format": r.case.format,
                "language": r.case.language,
                **r.total.as_json(),
                "dry_run": r.dry_run,
                "false_positives": [
                    {"category": fp.category, "body": fp.body, "labelled_as": fp.labelled_as}
                    for fp in r.false_positives
                ],
                "misses": [{"category": m.category, "text": m.text} for m in r.misses],
            }
            for r in results
        ],
    }


# ---------------------------------------------------------------------------- self-test


def decoded_text(case: Case) -> str:
    """A case as a person reads it: JSON lines become the strings they hold."""
    raw = case.path.read_text(encoding="utf-8")
    if case.format in ("text", "aider"):
        return raw
    parts: list[str] = []

    def collect(value: object) -> None:
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, dict):
            for inner in value.values():
                collect(inner)
        elif isinstance(value, list):
            for inner in value:
                collect(inner)

    for number, line in enumerate(raw.splitlines(), 1):
        if line.strip():
            try:
                collect(json.loads(line))
            except ValueError as error:
                raise AssertionError(f"{case.file}:{number}: not JSON ({error})") from error
    return "\n".join(parts)


def self_test(labels_file: Path = LABELS_FILE) -> None:
    """Check the matcher and scorer on synthetic entries, and the labelled set itself."""
    if not __debug__:
        raise BenchError("the self-test needs assertions: run it without -O")
    # Words: lowercased, >= 3 letters, punctuation and #tags dropped, accents kept.
    assert words("Chose bcrypt over argon2: it's fine. #security") == {
        "chose",
        "bcrypt",
        "over",
        "argon2",
        "fine",
    }, words("Chose bcrypt over argon2: it's fine. #security")
    assert words("Decidimos usar o Redis, não o cache em memória") == {
        "decidimos",
        "usar",
        "redis",
        "não",
        "cache",
        "memória",
    }
    assert words("See #214 and v18 on py3") == {"see", "and"}
    assert words("`api_key` in app/security/") == {"api_key", "app", "security"}

    label = "Chose bcrypt over argon2: argon2-cffi has no musllinux wheel for Alpine."
    # Same sentence reworded slightly: Jaccard >= 0.5.
    assert is_match(
        words("Chose bcrypt over argon2 because argon2-cffi has no musllinux wheel"), words(label)
    )
    # A longer extract holding the whole label: containment >= 0.8.
    longer = (
        label + " bcrypt ships musl wheels, and every other service of the platform uses it today."
    )
    assert similarity(words(longer), words(label))[0] < JACCARD_MIN
    assert is_match(words(longer), words(label))
    # Unrelated sentence: no match; empty sets never match.
    assert not is_match(words("I decided to look at the logs first."), words(label))
    assert not is_match(frozenset(), words(label))

    # Greedy one-to-one matching: the best pair wins, a label is matched once.
    labels = [
        "Decided to retry with exponential backoff in our own worker instead of Stripe redelivery",
        "Decided to store webhook events before processing them",
    ]
    extracted = [
        "Decided to retry with exponential backoff in our own worker",
        "Decided to retry with exponential backoff in our own worker instead of Stripe redelivery",
        "Decided to store webhook events before processing them.",
    ]
    assert match(extracted, labels) == [(1, 0), (2, 1)], match(extracted, labels)

    # Scoring: categories are kept apart; a wrong category is a false positive and a miss.
    case = Case(
        "cases/synthetic.txt",
        "text",
        "en",
        (
            Item("decisions", "Chose bcrypt over argon2: argon2-cffi does not build on Alpine."),
            Item("lessons", "The root cause was the lockout window using local time."),
            Item("facts", "This codebase keeps all password logic in app/security."),
            Item("tasks", "Rotate the legacy SHA-256 hashes on next login."),
        ),
    )
    found = [
        Extracted("decisions", "Chose bcrypt over argon2: argon2-cffi does not build on Alpine."),
        Extracted("decisions", "I decided to look at the test fixtures first."),
        Extracted("facts", "The root cause was the lockout window using local time."),
        Extracted("tasks", "- [ ] Rotate the legacy SHA-256 hashes on next login #auth"),
    ]
    result = score(case, found)
    assert result.by_category["decisions"] == Counts(1, 2, 1)
    assert result.by_category["lessons"] == Counts(1, 0, 0)
    assert result.by_category["facts"] == Counts(1, 1, 0)
    assert result.by_category["tasks"] == Counts(1, 1, 1)
    assert result.total == Counts(4, 4, 2)
    assert [m.category for m in result.misses] == ["lessons", "facts"]
    assert [(fp.category, fp.labelled_as) for fp in result.false_positives] == [
        ("decisions", None),
        ("facts", "lessons"),
    ]
    totals = summary([result, score(Case("cases/empty.txt", "text", "pt", ()), [])])
    assert overall(totals).precision == 0.5 and overall(totals).recall == 0.5
    assert totals["lessons"].precision is None and totals["lessons"].recall == 0.0
    met = goals_met(totals, overall(totals))
    assert met["decisions"] == {"precision": False, "recall": True}
    assert met["facts"]["precision"] is None

    # The commit JSON contract: only scored categories of `added`; kind as a fallback.
    stdout = json.dumps(
        {
            "schema_version": 1,
            "dry_run": True,
            "format": "text",
            "added": [
                {
                    "category": "decisions",
                    "kind": "decision",
                    "body": "Chose X over Y.",
                    "tags": [],
                },
                {"kind": "warning", "body": "Never run the migration twice."},
                {"category": "handoffs", "kind": "handoff", "body": "Did things."},
                {"category": "projects", "kind": "context", "body": "A project."},
            ],
            "reinforced": [{"category": "facts", "body": "Already known."}],
            "redactions": 0,
            "by_category": {"decisions": 1, "lessons": 1},
            "handoff": None,
        }
    )
    parsed, _ = parse_commit_output(stdout, case)
    assert parsed == [
        Extracted("decisions", "Chose X over Y."),
        Extracted("lessons", "Never run the migration twice."),
    ], parsed
    for bad in ("", "[]", '{"added": 3}'):
        try:
            parse_commit_output(bad, case)
        except BenchError:
            pass
        else:
            raise AssertionError(f"accepted {bad!r}")

    # The labelled set: loads, and every label is found in its case (spacing aside).
    cases = load_cases(labels_file)
    for real in cases:
        text = " ".join(decoded_text(real).split())
        for item in real.labels:
            assert " ".join(item.text.split()) in text, f"{real.file}: not found: {item.text}"
    report = json_report([result], ["mem"], False)
    assert report["overall"] == {
        "labelled": 4,
        "extracted": 4,
        "true_positives": 2,
        "precision": 0.5,
        "recall": 0.5,
    }
    labelled = sum(len(c.labels) for c in cases)
    print(f"self-test: ok ({len(cases)} cases, {labelled} labels checked)")


def synthetic_report(jobs: int) -> None:
    """Every synthetic labelled set under bench/extraction, one line each, then all combined."""
    sets = sorted(SET_DIR.glob("**/labels.json"))
    everything: list[CaseResult] = []
    print(f"{'set':<10} {'labelled':>8} {'extracted':>9} {'tp':>4} {'precision':>9} {'recall':>6}")
    for labels in sets:
        cases = load_cases(labels)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = [
                score(case, extracted)
                for case, (extracted, _) in zip(
                    cases, pool.map(lambda c: extract(c, False), cases), strict=True
                )
            ]
        everything += results
        counts = overall(summary(results))
        name = labels.parent.name if labels.parent != SET_DIR else "cases"
        print(
            f"{name:<10} {counts.labelled:>8} {counts.extracted:>9} {counts.true_positives:>4} "
            f"{percent(counts.precision):>9} {percent(counts.recall):>6}"
        )
    counts = overall(summary(everything))
    print(
        f"{'all':<10} {counts.labelled:>8} {counts.extracted:>9} {counts.true_positives:>4} "
        f"{percent(counts.precision):>9} {percent(counts.recall):>6}"
    )


# ---------------------------------------------------------------------------- main


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Precision and recall of `mem commit` on a labelled set (default: bench/extraction/)."
    )
    parser.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="list every false positive and miss, case by case",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--auto-format",
        action="store_true",
        help="pass --format auto instead of each case's labelled format",
    )
    parser.add_argument(
        "--case", metavar="TEXT", help="only the cases whose file name contains TEXT"
    )
    parser.add_argument(
        "--labels",
        metavar="PATH",
        type=Path,
        default=LABELS_FILE,
        help="the labels file to run; case paths are relative to its folder "
        "(default: bench/extraction/labels.json)",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=min(8, os.cpu_count() or 1),
        help="cases run at once (default: up to 8)",
    )
    parser.add_argument(
        "--capture",
        metavar="DIR",
        type=Path,
        help="score real sessions labelled by key (such as ../shared/bench/capture-dev)",
    )
    parser.add_argument(
        "--synthetic",
        action="store_true",
        help="run every synthetic set under bench/extraction and print them combined",
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="check the scorer and the labels, without running mem",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    try:
        if arguments.self_test:
            self_test(arguments.labels)
            return 0
        if arguments.capture:
            import capture  # bench/capture.py, beside this file

            flags = ["--verbose"] * arguments.verbose + ["--json"] * arguments.json
            return capture.main([str(arguments.capture), *flags])
        if arguments.synthetic:
            synthetic_report(arguments.jobs)
            return 0
        cases = load_cases(arguments.labels)
        if arguments.case:
            cases = [c for c in cases if arguments.case in Path(c.file).name]
            if not cases:
                raise BenchError(f"no case file name contains {arguments.case!r}")
        results: list[CaseResult] = []
        pool = ThreadPoolExecutor(max_workers=max(1, arguments.jobs))
        try:
            futures = [pool.submit(extract, case, arguments.auto_format) for case in cases]
            for case, future in zip(cases, futures, strict=True):
                extracted, report = future.result()
                result = score(case, extracted)
                result.dry_run = report.get("dry_run") is True
                results.append(result)
        finally:
            # On a failure, don't start the cases still queued.
            pool.shutdown(wait=True, cancel_futures=True)
    except BenchError as error:
        print(f"extraction: {error}", file=sys.stderr)
        return 1
    except AssertionError as error:
        line = traceback.extract_tb(error.__traceback__)[-1].lineno
        print(f"extraction: self-test failed at line {line}: {error}", file=sys.stderr)
        return 1
    if arguments.json:
        print(json.dumps(json_report(results, mem_command(), arguments.auto_format), indent=2))
    else:
        print_report(results, mem_command(), arguments.auto_format, arguments.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
