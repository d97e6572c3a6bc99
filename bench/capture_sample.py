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

The reader writes `entries-verdicts.json` (a list in the order of `entries.json`, each with
`verdict`: useful, marginal or junk) and `whats-verdicts.json` (each with `right`: true or false).
`--score` then prints, per version, the share of useful, marginal and junk entries and how many
Whats are right. The same `--seed` picks the same sample again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

from capture import BenchError, run_mem  # bench/capture.py, beside this script

REPO = Path(__file__).resolve().parent.parent
CONTEXT = 300  # characters of the session shown before an entry's source
VERSIONS = ("before", "after")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="sessions and labels.json (capture-dev)")
    parser.add_argument("out", type=Path, help="where the sample and the verdicts are")
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the old code")
    parser.add_argument("--count", type=int, default=40, help="entries from each version")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--score", action="store_true", help="score the reader's verdicts")
    args = parser.parse_args(argv)
    if args.score:
        return score(args.out)
    sessions = sorted(
        {item["file"] for item in json.loads((args.folder / "labels.json").read_text())}
    )
    stored = {
        "before": stored_by(args.before, args.folder, sessions),
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
