"""bench/capture_sample.py samples what two versions store, blind, and scores a reader's verdicts."""

from __future__ import annotations

import json
import subprocess

from bench.scripts import bench, labelled_folder

from conftest import REPO


def sample(*args: str) -> subprocess.CompletedProcess[str]:
    return bench("capture_sample.py", *args)


def test_two_versions_are_sampled_blind_and_the_verdicts_scored_per_version(tmp_path):
    labels = [{"file": "login.txt", "category": "lessons", "key": "race"}]
    labels.append({"file": "cache.txt", "category": "lessons", "key": "stale cache key"})
    folder = labelled_folder(
        tmp_path / "sessions",
        labels,
        **{
            "cache.txt": "The root cause was a stale cache key: it ignored the locale.\n"
            "We decided to use Redis instead of memcached because restarts keep sessions.\n"
        },
    )
    out = tmp_path / "out"
    done = sample(str(folder), str(out), "--before", str(REPO), "--count", "3")
    assert done.returncode == 0, done.stderr
    entries = json.loads((out / "entries.json").read_text())
    key = json.loads((out / "key.json").read_text())
    assert len(entries) == 6 and sorted(key["entries"]) == ["after"] * 3 + ["before"] * 3
    assert all("version" not in entry and entry["entry"] for entry in entries)
    assert any(entry["context"] for entry in entries)  # the text around its source
    whats = json.loads((out / "whats.json").read_text())
    assert sorted(w["file"] for w in whats) == ["cache.txt"] * 2 + ["login.txt"] * 2
    again = sample(str(folder), str(tmp_path / "again"), "--before", str(REPO), "--count", "3")
    assert (
        again.returncode == 0
        and (tmp_path / "again" / "key.json").read_text() == (out / "key.json").read_text()
    )  # the same seed, the same sample

    verdicts = [{"verdict": "useful" if k == "after" else "junk"} for k in key["entries"]]
    (out / "entries-verdicts.json").write_text(json.dumps(verdicts), encoding="utf-8")
    (out / "whats-verdicts.json").write_text(
        json.dumps([{"right": k == "after"} for k in key["whats"]]), encoding="utf-8"
    )
    scored = sample(str(folder), str(out), "--before", str(REPO), "--score")
    assert scored.returncode == 0, scored.stderr
    assert "entries, before: 0% useful / 0% marginal / 100% junk (of 3)" in scored.stdout
    assert "entries, after: 100% useful / 0% marginal / 0% junk (of 3)" in scored.stdout
    assert "Whats, after: 2 of 2 right" in scored.stdout


def test_the_labels_sampled_as_a_version_are_the_sentences_holding_their_keys(tmp_path):
    labels = [
        {"file": "cache.txt", "category": "lessons", "key": "stale cache key"},
        {"file": "cache.txt", "category": "noise", "key": "ignored the locale"},
        {"file": "cache.txt", "category": "facts", "key": "make check"},
    ]
    folder = labelled_folder(
        tmp_path / "sessions",
        labels,
        **{
            "cache.txt": "Intro line. The root cause was a stale\ncache key: it ignored the "
            "locale. We decided to use Redis.\n\n- Tests run with `make check` here\n"
        },
    )
    out = tmp_path / "out"
    done = sample(str(folder), str(out), "--before", "labels", "--count", "5")
    assert done.returncode == 0, done.stderr
    key = json.loads((out / "key.json").read_text())
    entries = json.loads((out / "entries.json").read_text())
    oracle = [e for e, k in zip(entries, key["entries"], strict=True) if k == "before"]
    assert sorted((e["category"], e["entry"]) for e in oracle) == [
        ("facts", "Tests run with `make check` here"),  # the item, without its list marker
        ("lessons", "The root cause was a stale cache key: it ignored the locale."),
    ]  # (the noise is nobody's entry)
    whats = json.loads((out / "whats.json").read_text())
    assert key["whats"] == ["after"] and len(whats) == 1  # the labels have no handoff


def test_a_before_checkout_that_cannot_run_mem_is_a_one_line_error(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    (folder / "a.txt").write_text("We decided to use Redis because it restarts fast.\n")
    (folder / "labels.json").write_text(
        json.dumps([{"file": "a.txt", "category": "x", "key": "y"}])
    )
    done = sample(str(folder), str(tmp_path / "out"), "--before", str(tmp_path / "nowhere"))
    assert done.returncode != 0
    assert done.stderr.strip().startswith("capture_sample:") and "\n" not in done.stderr.strip()
