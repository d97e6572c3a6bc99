"""Fixtures for the CLI tests: `mem` bound to a fresh vault."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def mem(run_mem, vault: Path):
    """Run `mem --vault VAULT ...` as a subprocess (same keywords as run_mem)."""

    def run(*args: str, **kwargs):
        return run_mem("--vault", str(vault), *args, **kwargs)

    return run
