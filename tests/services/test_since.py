"""`--since` ages: m is minutes, mo is months, as people write them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from mem.errors import InvalidInput
from mem.services.search import parse_since

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("age", "delta"),
    [
        ("30m", timedelta(minutes=30)),
        ("12h", timedelta(hours=12)),
        ("7d", timedelta(days=7)),
        ("2w", timedelta(weeks=2)),
        ("3mo", timedelta(days=90)),
        ("1y", timedelta(days=365)),
        ("3MO", timedelta(days=90)),
    ],
)
def test_an_age_counts_back_from_now(age, delta):
    assert parse_since(age, NOW) == NOW - delta


def test_an_unknown_unit_says_which_ones_there_are():
    with pytest.raises(InvalidInput, match=r"30m, 12h, 7d, 2w, 3mo, 1y"):
        parse_since("3x", NOW)
