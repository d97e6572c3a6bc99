"""A blind sample of what two versions of `mem commit` store, for a reader to judge (a benchmark
tool, not a test).

    git worktree add /tmp/before <rev>
    python bench/capture_sample.py ../shared/bench/capture-dev OUT --before /tmp/before
    python bench/capture_sample.py ../shared/bench/capture-dev OUT --before /tmp/before --score

The first run commits every session of the folder (every file `labels.json` names) with the code
of `--before` and with this checkout's, each through the real command line into a fresh vault,
and writes to OUT:

- `entries.json`: N entries picked at random from everything each version stored (N from each,
  `--count`, 40 by default), shuffled together, each with its session, category, text and the
  text around where it came from in the session: what a reader judges, blind to the version;
- `whats.json`: the handoff's What of every session by both versions, shuffled the same way;
- `key.json`: which version wrote each item of the two (the reader must not open it).

With `--before labels`, the "before" version is no code but the labels themselves: a capture
that stores exactly the labelled items, each as the sentence that holds its key, in its own
category. The reader, blind to which is which, then says how useful what the labels ask to keep
reads as an entry: the ceiling a capture that keeps them can reach in the reader's eyes.

The reader writes `entries-verdicts.json` (a list in the order of `entries.json`, each with
`verdict`: useful, marginal or junk) and `whats-verdicts.json` (each with `right`: true or false).
`--score` then prints, per version, the share of useful, marginal and junk entries and how many
Whats are right. The same `--seed` picks the same sample again.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from capture import BenchError, run_mem  # bench/capture.py, beside this script

REPO = Path(__file__).resolve().parent.parent
CONTEXT = 300  # characters of the session shown before an entry's source
VERSIONS = ("before", "after")
LABELS = "labels"  # `--before labels`: the labelled items as the "before" version
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)]|#)\s)")
MARKER = re.compile(r"^(?:#+|[-*+>]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
ORACLE_CHARS = 300  # about what `mem` keeps of one sentence


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="sessions and labels.json (capture-dev)")
    parser.add_argument("out", type=Path, help="where the sample and the verdicts are")
    parser.add_argument(
        "--before", type=Path, required=True, help="a checkout of the old code, or `labels`"
    )
    parser.add_argument("--count", type=int, default=40, help="entries from each version")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--score", action="store_true", help="score the reader's verdicts")
    args = parser.parse_args(argv)
    if args.score:
        return score(args.out)
    sessions = sorted(
        {item["file"] for item in json.loads((args.folder / "labels.json").read_text())}
    )
    oracle = str(args.before) == LABELS
    stored = {
        "before": labelled(args.folder)
        if oracle
        else stored_by(args.before, args.folder, sessions),
        "after": stored_by(REPO, args.folder, sessions),
    }
    rng = random.Random(args.seed)
    picked = []
    for version in VERSIONS:
        entries = stored[version][0]
        picked += [
            dict(entry, version=version)
            for entry in rng.sample(entries, min(args.count, len(entries)))
        ]
    rng.shuffle(picked)
    whats = [
        {"file": name, "what": stored[version][1].get(name, ""), "version": version}
        for name in sessions
        for version in VERSIONS
        if not (oracle and version == "before")  # the labels have no handoff
    ]
    rng.shuffle(whats)
    args.out.mkdir(parents=True, exist_ok=True)
    write(args.out / "entries.json", [without_version(item) for item in picked])
    write(args.out / "whats.json", [without_version(item) for item in whats])
    write(
        args.out / "key.json",
        {"entries": [item["version"] for item in picked], "whats": [w["version"] for w in whats]},
    )
    counts = ", ".join(f"{v} {len(stored[v][0])} entries" for v in VERSIONS)
    print(f"capture_sample: {counts}; sampled {len(picked)}, {len(whats)} Whats, in {args.out}")
    return 0


def stored_by(code: Path, folder: Path, sessions: list[str]) -> tuple[list[dict], dict[str, str]]:
    """Every entry the code at `code` stores from each session, with its context, and each
    session's What."""
    if not (code / "mem" / "__init__.py").is_file():
        # Else `python -m mem` would quietly run the installed version instead.
        raise SystemExit(f"capture_sample: {code} holds no mem package; give a checkout of mem")
    entries: list[dict] = []
    whats: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        vault = ["--vault", f"{tmp}/.memory"]
        try:
            run_mem(["init", tmp], "mem init", code)
            for name in sessions:
                path = folder / name
                arguments = [*vault, "commit", "--agent", "x", "--file", str(path), "--json"]
                done = run_mem([*arguments, "--dry-run"], f"mem commit {name}", code)
                report = json.loads(done.stdout)
                text = path.read_text(encoding="utf-8", errors="replace")
                for entry in report["added"]:
                    entries.append(
                        {
                            "file": name,
                            "category": entry["category"],
                            "entry": entry["body"],
                            "context": around(text, entry["body"]),
                        }
                    )
                body = (report.get("handoff") or {}).get("body", "")
                whats[name] = body.split("\n", 1)[0].removeprefix("**What:** ") if body else ""
        except BenchError as error:
            raise SystemExit(f"capture_sample: {error}") from error
    return entries, whats


def labelled(folder: Path) -> tuple[list[dict], dict[str, str]]:
    """The labelled items of every session, each as the sentence of the session that holds its
    key (as `mem` reads the session: JSON decoded), in the label's category."""
    from mem.extract import formats  # only here: the sampler needs no reader otherwise

    entries: list[dict] = []
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    texts: dict[str, list[str]] = {}
    for label in labels:
        if label["category"] == "noise":
            continue
        name = label["file"]
        if name not in texts:
            raw = (folder / name).read_text(encoding="utf-8", errors="replace")
            lines = raw.splitlines(keepends=True)
            read = formats.read(formats.detect(lines), lines)
            texts[name] = [raw, *(message.text for message in read)]
        sentence = sentence_of(texts[name], label["key"])
        entries.append(
            {
                "file": name,
                "category": label["category"],
                "entry": sentence,
                "context": around(texts[name][0], sentence),
            }
        )
    return entries, {}


def sentence_of(texts: list[str], key: str) -> str:
    """The sentence (or list item) of the texts that holds the key, matched as the scorer does
    (case and runs of white space ignored); the key itself where none holds it whole."""
    words = [re.escape(word) for word in key.split()]
    pattern = re.compile(r"\s+".join(words), re.IGNORECASE)
    for text in reversed(texts):  # the decoded messages first, the raw file last
        found = pattern.search(text)
        if found is None:
            continue
        starts = [m.end() for m in SENTENCE_END.finditer(text, 0, found.start())]
        start = starts[-1] if starts else 0
        end = SENTENCE_END.search(text, found.end())
        sentence = " ".join(text[start : end.start() if end else len(text)].split())
        sentence = MARKER.sub("", sentence)  # a list's or heading's marker is no part of it
        if len(sentence) > ORACLE_CHARS:  # cut around the key, as a long sentence is cut
            at = max(0, sentence.lower().find(key.split()[0].lower()) - ORACLE_CHARS // 3)
            sentence = sentence[at : at + ORACLE_CHARS]
        return sentence
    return key


def around(text: str, body: str) -> str:
    """The session's text around where an entry came from: found by its first words after any
    label ("Decision: …") and task box, else nothing."""
    said = body.removeprefix("- [ ] ")
    probe = said.split(": ", 1)[-1] if ": " in said[:70] else said
    probe = probe[:40]
    at = text.find(probe)
    if at < 0 or not probe.strip():
        return ""
    return text[max(0, at - CONTEXT) : at + len(said) + CONTEXT // 2]


def score(out: Path) -> int:
    key = json.loads((out / "key.json").read_text())
    for name, field in (("entries", "verdict"), ("whats", "right")):
        path = out / f"{name}-verdicts.json"
        if not path.exists():
            print(f"{name}: no {path.name} yet")
            continue
        verdicts = json.loads(path.read_text())
        if len(verdicts) != len(key[name]):
            raise SystemExit(
                f"capture_sample: {path.name} has {len(verdicts)} verdicts, not {len(key[name])}"
            )
        for version in VERSIONS:
            said = Counter(
                v[field] for v, k in zip(verdicts, key[name], strict=True) if k == version
            )
            total = sum(said.values())
            if not total:
                continue  # (the labels have no What)
            if field == "verdict":
                shares = " / ".join(
                    f"{said[v] / total:.0%} {v}" for v in ("useful", "marginal", "junk")
                )
                print(f"entries, {version}: {shares} (of {total})")
            else:
                print(f"Whats, {version}: {said[True]} of {total} right")
    return 0


def without_version(item: dict) -> dict:
    return {k: v for k, v in item.items() if k != "version"}


def write(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
