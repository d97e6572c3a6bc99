"""What every part of the reliability bench shares: its rows, running `mem`, a fresh vault."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Row:
    """One line of the bench's table: what was measured, what it came to, against which goal.

    `ok` is None for a figure given for information (a latency, a count of runs) with no goal."""

    part: str
    check: str
    measured: str
    goal: str = ""
    ok: bool | None = None


def mem_command() -> list[str]:
    """The installed `mem` console script beside this interpreter, else `python -m mem`."""
    script = Path(sys.executable).parent / "mem"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mem"]


def with_default_sigint(command: list[str]) -> list[str]:
    """`command`, started so that SIGINT stops it as Ctrl-C would, even when the bench runs as
    a background job, whose shell starts every command with SIGINT ignored."""
    restore = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    restore += "os.execv(sys.argv[1], sys.argv[1:])"
    return [sys.executable, "-c", restore, *command]


def child_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a user's shell would give `mem`: none of this machine's MEM_* settings,
    .pyc files written (an editable install otherwise recompiles mem at every run)."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("MEM_") and key != "PYTHONDONTWRITEBYTECODE"
    }
    # `mem` on the PATH, as for a user who installed it: git runs `mem merge-driver` from it.
    bin_folder = str(Path(sys.executable).parent)
    environment["PATH"] = os.pathsep.join([bin_folder, environment.get("PATH", "")])
    environment.update(extra or {})
    return environment


@dataclass(frozen=True)
class Ran:
    """One finished `mem` run: its exit status, output and wall time."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float


def run_mem(
    words: Sequence[str],
    cwd: Path,
    *,
    stdin: str | bytes | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 300,
) -> Ran:
    """Run `mem WORDS` in `cwd` as a subprocess and wait for it."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    started = time.perf_counter()
    done = subprocess.run(
        [*mem_command(), *words],
        cwd=cwd,
        env=child_environment(env),
        input=data,
        capture_output=True,
        check=False,
        timeout=timeout,
    )
    return Ran(
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
        time.perf_counter() - started,
    )


def fresh_vault(folder: Path) -> Path:
    """A git repository at `folder` with `mem init` run in it; returns the vault (.memory/)."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    subprocess.run(
        ["git", "-C", str(folder), "config", "user.email", "bench@example.com"], check=True
    )
    subprocess.run(["git", "-C", str(folder), "config", "user.name", "bench"], check=True)
    ran = run_mem(["init"], folder)
    if ran.returncode != 0:
        raise RuntimeError(f"mem init failed: {ran.stderr.strip()}")
    return folder / ".memory"


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


def count(number: int) -> str:
    """A count as the table prints it: 1,600."""
    return f"{number:,}"
