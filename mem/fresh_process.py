"""Run one of mem's modules in a fresh interpreter: work whose memory should not stay with the
process that asked for it (see mem/index/tables.py and mem/services/reindex.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def command(module: str, *args: str) -> list[str]:
    return [sys.executable, "-m", module, *args]


def environment() -> dict[str, str]:
    """This process's environment, with this very `mem` first on the import path (a checkout
    run as `python -m mem` is not installed) and the current folder never on it."""
    home = str(Path(__file__).resolve().parent.parent)
    paths = [home, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONSAFEPATH": "1", "PYTHONPATH": os.pathsep.join(paths)}


def os_error_line(error: OSError) -> str:
    """An OSError as one line a child says and its parent reads back (os_error_of)."""
    return f"{error.errno or 0} {error.strerror or error}"


def os_error_of(line: str) -> OSError:
    """The OSError a child described with os_error_line, its errno kept (a full disk stays one)."""
    number, _, message = line.partition(" ")
    return OSError(int(number) if number.isdigit() else 0, message)
