"""bench/capture.py scores a folder of labelled sessions, with this checkout's code or another's."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from conftest import REPO

SCRIPT = REPO / "bench" / "capture.py"


def capture(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


def test_a_folder_is_scored_with_the_code_of_another_checkout(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    shutil.copy(REPO / "examples" / "agent-output.txt", folder / "login.txt")
    labels = [
        {"file": "login.txt", "category": "lessons", "key": "root cause was a race"},
        {"file": "login.txt", "category": "tasks", "key": "delays the session write"},
    ]
    (folder / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    mine = capture(str(folder), "--json")
    other = capture(str(folder), "--json", "--code", str(REPO))
    assert mine.returncode == other.returncode == 0, (mine.stderr, other.stderr)
    figures = json.loads(other.stdout)["parts"]["all"]
    assert figures["kept"] == 1.0 and figures["labelled"] == 2
    same = ("kept", "recall", "noise", "entries")
    assert {k: figures[k] for k in same} == {
        k: json.loads(mine.stdout)["parts"]["all"][k] for k in same
    }


def test_a_checkout_without_mem_is_a_one_line_error(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    (folder / "a.txt").write_text("We decided to use Redis.\n", encoding="utf-8")
    (folder / "labels.json").write_text(
        json.dumps([{"file": "a.txt", "category": "decisions", "key": "use Redis"}]),
        encoding="utf-8",
    )
    done = capture(str(folder), "--code", str(tmp_path))
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0 and "no checkout of mem" in done.stderr
