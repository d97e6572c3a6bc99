"""Periods a query names: an entry written then ranks above an equal match from another time."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from mem.index.periods import periods_named
from mem.index.search_index import Filters, Ranking, SearchIndex
from mem.model import DEFAULT_HALF_LIFE_DAYS

from .helpers import indexed as entry

NOW = datetime(2023, 12, 1, tzinfo=UTC)


def days(text: str, now: datetime = NOW) -> list[tuple[str, str]]:
    """Each named period as (first day, first day after it), ISO dates."""
    return [
        (
            datetime.fromtimestamp(period.start, UTC).date().isoformat(),
            datetime.fromtimestamp(period.end, UTC).date().isoformat(),
        )
        for period in periods_named(text, now)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What did we decide on October 13, 2023?", [("2023-10-13", "2023-10-15")]),
        ("the 3rd of June, 2023 outage", [("2023-06-03", "2023-06-05")]),
        (
            "see 2023-10-13 and 2023-11",
            [("2023-10-13", "2023-10-15"), ("2023-11-01", "2023-12-08")],
        ),
        ("What broke in May 2023?", [("2023-05-01", "2023-06-08")]),
        ("Sept. 2023 release", [("2023-09-01", "2023-10-08")]),
        # A month alone is the latest such month: this year's, or last year's if still to come.
        ("the flaky test we fixed in June", [("2023-06-01", "2023-07-08")]),
        ("What did we ship in December?", [("2023-12-01", "2024-01-08")]),
    ],
)
def test_named_periods_take_in_a_few_days_after(text: str, expected: list[tuple[str, str]]):
    assert days(text) == expected


def test_a_month_alone_still_to_come_this_year_is_last_year_s():
    assert days("the flaky test we fixed in June", datetime(2023, 3, 1, tzinfo=UTC)) == [
        ("2022-06-01", "2022-07-08")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "this may break the build",  # "may" the verb
        "Call mar() on the 31 February 2023 entry",  # no such day
        "version 2023.10 of the api",
        "retry 13 times",
    ],
)
def test_words_that_only_look_like_dates_name_no_period(text: str):
    assert days(text) == []


def test_an_entry_written_in_the_named_period_ranks_first(tmp_path):
    index = SearchIndex(tmp_path / "index")
    entries = [
        entry(1, "The deploy failed on a stale cache.", datetime(2023, 9, 20, tzinfo=UTC)),
        entry(2, "The deploy failed on a stale cache.", datetime(2023, 5, 12, tzinfo=UTC)),
        entry(3, "The deploy failed on a stale cache.", datetime(2023, 11, 2, tzinfo=UTC)),
        entry(4, "Nothing to do with it.", datetime(2023, 5, 12, tzinfo=UTC)),
    ]
    index.rebuild(entries, len(entries), {})
    ranking = Ranking(NOW, DEFAULT_HALF_LIFE_DAYS, decay=False)

    def ids(query: str) -> list[str]:
        return [hit.entry.id for hit in index.search(query, Filters(), ranking, None)]

    assert ids("why did the deploy fail in May 2023?")[0] == "e002"
    assert ids("why did the deploy fail on 2023-11-02?")[0] == "e003"
    # A named period ranks what matches; it never brings in what does not.
    assert "e004" not in ids("why did the deploy fail in May 2023?")
    # Without a period, the three equal matches tie (document order breaks ties).
    assert sorted(ids("why did the deploy fail?")) == ["e001", "e002", "e003"]
