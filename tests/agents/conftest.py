"""Fixtures for the real-client tests: the clients installed once per test run (cached)."""

from __future__ import annotations

import pytest

from tests.agents.clients import install_all


@pytest.fixture(scope="session")
def installed() -> str:
    """Run install_clients.sh once; what it said (empty when every client was there)."""
    return install_all()
