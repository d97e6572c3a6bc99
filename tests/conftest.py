"""Shared fixtures: an isolated environment, real vaults in tmp_path, `mem` as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@dataclass(frozen=True)
class Result:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep tests away from the real home, vaults and terminal settings."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in (
        "MEM_VAULT",
        "MEM_AGENT",
        "MEM_HOME",
        "XDG_DATA_HOME",
        "FORCE_COLOR",
        "VISUAL",
        "EDITOR",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture
def run_mem(tmp_path: Path):
    """Run `mem` as a real subprocess: run_mem(*args, input=None, cwd=None, env=None)."""

    def run(
        *args: str,
        input: str | bytes | None = None,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        timeout: float = 60,
    ) -> Result:
        full_env = dict(os.environ)
        full_env.update(env or {})
        data = input.encode("utf-8") if isinstance(input, str) else input
        completed = subprocess.run(
            [sys.executable, "-m", "mem", *args],
            input=data,
            capture_output=True,
            cwd=cwd or tmp_path,
            env=full_env,
            timeout=timeout,
            check=False,
        )
        return Result(
            completed.returncode,
            completed.stdout.decode("utf-8", "replace"),
            completed.stderr.decode("utf-8", "replace"),
        )

    return run


@pytest.fixture
def vault(tmp_path: Path, run_mem) -> Path:
    """A fresh vault made by `mem init` in a new project folder; returns the vault folder."""
    project = tmp_path / "project"
    project.mkdir()
    result = run_mem("init", cwd=project)
    assert result.exit_code == 0, result.stderr
    return project / ".memory"
