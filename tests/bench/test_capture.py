"""bench/capture.py scores a folder of labelled sessions, with this checkout's code or another's."""

from __future__ import annotations

import json

from bench.scripts import bench, labelled_folder

from conftest import REPO


def test_a_folder_is_scored_with_the_code_of_another_checkout(tmp_path):
    labels = [
        {"file": "login.txt", "category": "lessons", "key": "root cause was a race"},
        {"file": "login.txt", "category": "tasks", "key": "delays the session write"},
    ]
    folder = labelled_folder(tmp_path / "sessions", labels)
    mine = bench("capture.py", str(folder), "--json")
    other = bench("capture.py", str(folder), "--json", "--code", str(REPO))
    assert mine.returncode == other.returncode == 0, (mine.stderr, other.stderr)
    figures = json.loads(other.stdout)["parts"]["all"]
    assert figures["kept"] == 1.0 and figures["labelled"] == 2
    same = ("kept", "recall", "noise", "entries")
    assert {k: figures[k] for k in same} == {
        k: json.loads(mine.stdout)["parts"]["all"][k] for k in same
    }


def test_a_checkout_without_mem_is_a_one_line_error(tmp_path):
    labels = [{"file": "login.txt", "category": "decisions", "key": "server-side session"}]
    folder = labelled_folder(tmp_path / "sessions", labels)
    done = bench("capture.py", str(folder), "--code", str(tmp_path))
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0 and "no checkout of mem" in done.stderr
