"""Retrieval quality of `mem` on LoCoMo, beside a plain BM25 baseline (a benchmark, not a test).

Run it from the repository with the project installed with its dev extras, which bring the
baseline's `rank_bm25` (`pip install -e ".[dev]"`)::

    python bench/locomo.py                       # the dev half in ../shared/bench/locomo-dev.json
    python bench/locomo.py --data other.json     # any file of the same schema
    python bench/locomo.py --json                # the same figures as one JSON object
    python bench/locomo.py --conversations 1     # only the first conversation (a quick look)

For each conversation the script makes a fresh vault and loads every turn through `mem`'s own
code path (`mem.services.add.add_many`: one `facts` entry per turn, dated by its session's date,
with `src-id` = the turn's `dia_id`). An image turn's text ends with its caption, the only textual
trace of the image. Then, for every question of categories 1–4 (multi-hop, temporal, open-domain,
single-hop), with the clock set to the conversation's last session date:

- `mem` search (`mem.services.search.search`, decay on) gives the ranked turns for
  recall_any@5, recall_any@10 (any evidence turn in the top k) and recall_all@10 (every one);
- `mem` recall (`mem.services.recall.recall`, the question as the task, a 2,000-token budget)
  gives **evidence in budget**: the fraction of evidence turns that appear in the block;
- session hit@5 and hit@10: a turn of a session that holds evidence is in the top k, the
  session-level figure published systems report (a turn's session is its `dia_id` before the
  colon: `D3:12` is session 3);
- the baseline is `rank_bm25.BM25Okapi` over the same turn texts (lowercase word tokens); its
  "block" packs its ranked turns, whole, in rank order, while they fit in the same budget
  (characters / 4, as `mem` counts).

Latency is per question, in this process (no interpreter start): `mem` search plus recall, and the
baseline's scoring and sort. Figures are per category and overall; evidence in budget is counted
per evidence turn, the recall figures per question.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "bench" / "locomo-dev.json"
CATEGORY_NAMES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop"}
AGENT = "chat"
WORD = re.compile(r"\w+")
DIA_ID = re.compile(r"D\d+:\d+")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    text: str
    moment: datetime


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]


def session_of(dia_id: str) -> str:
    """The session a turn belongs to: `D3` of `D3:12`."""
    return dia_id.partition(":")[0]


@dataclass
class Tally:
    """Running counts for one system and one slice (a category, or all)."""

    questions: int = 0
    any_at_5: int = 0
    any_at_10: int = 0
    all_at_10: int = 0
    session_at_5: int = 0
    session_at_10: int = 0
    evidence: int = 0
    evidence_in_budget: int = 0
    latencies_ms: list[float] = field(default_factory=list)

    def add(
        self, evidence: Sequence[str], ranked: Sequence[str], packed: set[str], ms: float
    ) -> None:
        wanted = set(evidence)
        self.questions += 1
        self.any_at_5 += bool(wanted & set(ranked[:5]))
        self.any_at_10 += bool(wanted & set(ranked[:10]))
        self.all_at_10 += wanted <= set(ranked[:10])
        sessions = {session_of(turn) for turn in wanted}
        self.session_at_5 += bool(sessions & {session_of(turn) for turn in ranked[:5]})
        self.session_at_10 += bool(sessions & {session_of(turn) for turn in ranked[:10]})
        self.evidence += len(wanted)
        self.evidence_in_budget += len(wanted & packed)
        self.latencies_ms.append(ms)

    def figures(self) -> dict[str, Any]:
        share = (lambda n: round(n / self.questions, 3)) if self.questions else (lambda n: 0.0)
        return {
            "questions": self.questions,
            "recall_any_at_5": share(self.any_at_5),
            "recall_any_at_10": share(self.any_at_10),
            "recall_all_at_10": share(self.all_at_10),
            "session_hit_at_5": share(self.session_at_5),
            "session_hit_at_10": share(self.session_at_10),
            "evidence_in_budget": round(self.evidence_in_budget / self.evidence, 3)
            if self.evidence
            else 0.0,
            "median_latency_ms": round(statistics.median(self.latencies_ms), 1)
            if self.latencies_ms
            else 0.0,
        }


def session_date(raw: str) -> datetime:
    """'1:56 pm on 8 May, 2023' → an aware datetime (UTC: the data gives no zone)."""
    cleaned = " ".join(raw.replace(",", " ").split())
    for pattern in ("%I:%M %p on %d %B %Y", "%I:%M %p on %d %b %Y", "%d %B %Y"):
        try:
            return datetime.strptime(cleaned, pattern).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unreadable session date {raw!r}")


def turns_of(conversation: dict[str, Any]) -> list[Turn]:
    turns = []
    for key, value in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if not match or not isinstance(value, list):
            continue
        moment = session_date(conversation[f"{key}_date_time"])
        for turn in value:
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            turns.append(Turn(turn["dia_id"], text, moment))
    return turns


def questions_of(sample: dict[str, Any], categories: set[int]) -> list[Question]:
    found = []
    for qa in sample.get("qa", []):
        if qa.get("category") not in categories:
            continue
        evidence = tuple(
            dict.fromkeys(DIA_ID.findall(" ".join(str(e) for e in qa.get("evidence", []))))
        )
        if evidence:
            found.append(Question(str(qa["question"]), int(qa["category"]), evidence))
    return found


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def tokens(text: str) -> int:
    return -(-len(text) // 4)


class Baseline:
    """Plain BM25 over whole turns, as the issue defines it."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        from rank_bm25 import BM25Okapi

        self.turns = list(turns)
        self.bm25 = BM25Okapi([words(turn.text) for turn in self.turns])

    def rank(self, question: str) -> list[int]:
        scores = self.bm25.get_scores(words(question))
        return sorted(range(len(self.turns)), key=lambda n: -scores[n])

    def pack(self, ranked: Sequence[int], budget: int) -> set[str]:
        room, packed = budget, set()
        for n in ranked:
            cost = tokens(self.turns[n].text + "\n")
            if cost <= room:
                packed.add(self.turns[n].dia_id)
                room -= cost
            if room <= 0:
                break
        return packed


def run_conversation(
    sample: dict[str, Any], categories: set[int], budget: int, tallies: dict[str, dict[str, Tally]]
) -> int:
    from mem.config import load_settings
    from mem.services.add import NewEntry, add_many
    from mem.services.init import init
    from mem.services.recall import recall
    from mem.services.search import Query, search

    turns = turns_of(sample["conversation"])
    questions = questions_of(sample, categories)
    now = max(turn.moment for turn in turns)
    baseline = Baseline(turns)
    with tempfile.TemporaryDirectory(prefix="mem-locomo-") as folder:
        vault = Path(folder) / ".memory"
        init(load_settings(vault_flag=str(vault), environ={}), None, Path(folder))
        settings = load_settings(vault_flag=str(vault), agent_flag=AGENT, environ={})
        made = add_many(
            settings,
            [NewEntry(turn.text, turn.moment, header=(("src-id", turn.dia_id),)) for turn in turns],
            "facts",
            "fact",
        )
        dia_of = {entry.id: entry.get("src-id") for entry in made}
        for question in questions:
            started = time.perf_counter()
            hits = search(settings, Query(text=question.text, limit=10), now=now)
            block = recall(settings, task=question.text, budget=budget, now=now)
            mem_ms = (time.perf_counter() - started) * 1000
            ranked = [dia_of.get(hit.entry.id, "") for hit in hits]
            packed = {
                dia_of.get(item.entry.id, "")
                for section in block.sections
                for item in section.items
                if item.entry is not None
            }
            started = time.perf_counter()
            order = baseline.rank(question.text)
            base_ms = (time.perf_counter() - started) * 1000
            base_ranked = [baseline.turns[n].dia_id for n in order[:10]]
            base_packed = baseline.pack(order, budget)
            for slice_ in ("overall", CATEGORY_NAMES[question.category]):
                tallies["mem"][slice_].add(question.evidence, ranked, packed, mem_ms)
                tallies["baseline"][slice_].add(
                    question.evidence, base_ranked, base_packed, base_ms
                )
    return len(questions)


def report(tallies: dict[str, dict[str, Tally]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for system, slices in tallies.items():
        figures = slices["overall"].figures()
        figures["by_category"] = {
            name: slices[name].figures() for name in CATEGORY_NAMES.values() if name in slices
        }
        result[system] = figures
    return result


def print_table(result: dict[str, Any], seconds: float, data: Path) -> None:
    keys = (
        "recall_any_at_5",
        "recall_any_at_10",
        "recall_all_at_10",
        "session_hit_at_5",
        "session_hit_at_10",
    )
    print(f"LoCoMo retrieval: {data.name}, {result['mem']['questions']} questions, {seconds:.0f} s")
    print(
        f"{'':22}{'any@5':>8}{'any@10':>8}{'all@10':>8}{'sess@5':>8}{'sess@10':>8}"
        f"{'in budget':>11}{'median ms':>11}"
    )
    slices = ["overall", *result["mem"]["by_category"]]
    for slice_ in slices:
        for system in ("mem", "baseline"):
            row = result[system] if slice_ == "overall" else result[system]["by_category"][slice_]
            label = f"{slice_} {system}"
            cells = "".join(f"{row[key]:>8.3f}" for key in keys)
            print(
                f"{label:22}{cells}{row['evidence_in_budget']:>11.3f}"
                f"{row['median_latency_ms']:>11.1f}"
            )
    gain = result["mem"]["recall_any_at_10"] - result["baseline"]["recall_any_at_10"]
    packed = result["mem"]["evidence_in_budget"] - result["baseline"]["evidence_in_budget"]
    print(
        f"goals: recall_any@10 ≥ baseline + 0.06: {gain:+.3f} "
        f"{'met' if gain >= 0.06 else 'MISSED'}; evidence in budget ≥ baseline + 0.10: "
        f"{packed:+.3f} {'met' if packed >= 0.10 else 'MISSED'}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a LoCoMo-schema JSON file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--budget", type=int, default=2000, help="recall budget in tokens")
    parser.add_argument("--conversations", type=int, default=0, help="only the first N")
    parser.add_argument(
        "--categories", default="1,2,3,4", help="question categories to ask (default 1,2,3,4)"
    )
    args = parser.parse_args(argv)
    try:
        samples = json.loads(args.data.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"locomo: cannot read {args.data}: {exc}", file=sys.stderr)
        return 1
    if not isinstance(samples, list):
        print(f"locomo: {args.data} is not a list of conversations", file=sys.stderr)
        return 1
    if args.conversations:
        samples = samples[: args.conversations]
    categories = {int(part) for part in args.categories.split(",") if part.strip()}
    tallies: dict[str, dict[str, Tally]] = {
        system: {slice_: Tally() for slice_ in ("overall", *CATEGORY_NAMES.values())}
        for system in ("mem", "baseline")
    }
    started = time.perf_counter()
    for n, sample in enumerate(samples, 1):
        try:
            asked = run_conversation(sample, categories, args.budget, tallies)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            name = sample.get("sample_id", n) if isinstance(sample, dict) else n
            print(f"locomo: conversation {name} does not fit the schema: {exc!r}", file=sys.stderr)
            return 1
        print(
            f"locomo: {sample.get('sample_id', n)}: {asked} questions",
            file=sys.stderr,
        )
    result = report(tallies)
    for system in result.values():  # categories with no questions in this file
        system["by_category"] = {
            name: figures for name, figures in system["by_category"].items() if figures["questions"]
        }
    if args.json:
        print(json.dumps(result))
    else:
        print_table(result, time.perf_counter() - started, args.data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
