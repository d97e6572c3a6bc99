"""Run a script of `bench/` as a user would, and a folder of labelled sessions for it to read."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO


def bench(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "bench" / script), *args],
        capture_output=True,
        text=True,
        check=False,
    )


def labelled_folder(folder: Path, labels: list[dict[str, str]], **texts: str) -> Path:
    """`folder` with the README's example session as `login.txt`, the given texts as files and
    `labels.json`."""
    folder.mkdir()
    shutil.copy(REPO / "examples" / "agent-output.txt", folder / "login.txt")
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    return folder
