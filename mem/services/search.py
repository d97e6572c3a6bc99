"""Search and list entries through the index, with a snippet around what matched."""

import re
from datetime import UTC, datetime
from typing import NamedTuple

from mem.config import Settings, check_agent
from mem.errors import InvalidInput
from mem.index.search_index import Filters, Ranking
from mem.model import Entry, SearchHit
from mem.services.feedback import QUIET, Feedback
from mem.services.lookup import with_lines
from mem.services.refresh import fresh_index
from mem.text import WORD
from mem.vault import layout

SNIPPET_CHARS = 160


class Query(NamedTuple):
    """What to look for and where; every filter is optional."""

    text: str = ""
    agent: str | None = None
    category: str | None = None
    kind: str | None = None
    tag: str | None = None
    since: datetime | None = None
    exclude_agents: tuple[str, ...] = ()
    include_superseded: bool = False
    open_tasks_only: bool = False
    limit: int | None = 10
    decay: bool = True


def ranking_for(settings: Settings, now: datetime, decay: bool = True) -> Ranking:
    """How scores are shaped after BM25F: the vault's half-lives and decay floor, as of `now`."""
    return Ranking(now, settings.half_life_days, decay, settings.decay_floor)


def filters_of(settings: Settings, query: Query, now: datetime | None = None) -> Filters:
    """Check a query's filters and turn them into index filters. Entries past their `expires:`
    are hidden as of `now`, unless the query asks for all (`--all`)."""
    if query.agent is not None and query.agent != "_shared":
        check_agent(query.agent)
    for agent in query.exclude_agents:
        check_agent(agent)
    if query.category is not None:
        layout.check_category(query.category)
    if query.limit is not None and query.limit < 1:
        raise InvalidInput("--limit must be at least 1")
    return Filters(
        agent=query.agent,
        category=query.category,
        kind=query.kind,
        tag=query.tag.lstrip("#").lower() if query.tag else None,
        since=query.since,
        exclude_agents=query.exclude_agents,
        viewer=settings.agent,
        include_superseded=query.include_superseded,
        include_archived=query.include_superseded,  # --all: the archive too
        open_tasks_only=query.open_tasks_only,
        expired_by=None if query.include_superseded else (now or datetime.now(UTC)),
    )


def search(
    settings: Settings, query: Query, now: datetime | None = None, feedback: Feedback = QUIET
) -> list[SearchHit]:
    """Return entries ranked by BM25F × decay × reinforcement, best first."""
    vault = settings.require_vault()
    if not query.text.strip():
        raise InvalidInput("nothing to search for; give some words")
    moment = now or datetime.now(UTC)
    filters = filters_of(settings, query, moment)
    index = fresh_index(vault, feedback, archive=filters.include_archived)
    ranking = ranking_for(settings, moment, query.decay)
    found = index.search(query.text, filters, ranking, query.limit)
    terms = tuple(dict.fromkeys(word.lower() for word in WORD.findall(query.text)))
    placed = with_lines(vault, [hit.entry for hit in found])
    hits = [
        SearchHit(entry, hit.score, *snippet(entry.body, terms))
        for entry, hit in zip(placed, found, strict=True)
    ]
    hits.sort(key=lambda hit: (-hit.score, hit.entry.id))
    return hits


def list_entries(settings: Settings, query: Query, feedback: Feedback = QUIET) -> list[Entry]:
    """Return entries matching the filters, newest first."""
    vault = settings.require_vault()
    filters = filters_of(settings, query)
    index = fresh_index(vault, feedback, archive=filters.include_archived)
    return with_lines(vault, index.browse(filters, query.limit))


def term_pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """Match words that start like a query word (a rough stem: "migrations" finds "migrate")."""
    stems = sorted({term[: max(4, len(term) - 2)] for term in terms if term}, key=len, reverse=True)
    if not stems:
        return None
    return re.compile(r"(?i)\b(?:" + "|".join(map(re.escape, stems)) + r")\w*")


def snippet(
    body: str, terms: tuple[str, ...], width: int = SNIPPET_CHARS
) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Cut the part of a body around the first matched word, on one line.

    Returns the snippet and the (start, end) spans in it of the words that matched.
    """
    flat = " ".join(body.split())
    pattern = term_pattern(terms)
    first = pattern.search(flat) if pattern else None
    cut = flat
    if len(flat) > width:
        at = first.start() if first else 0
        start = max(0, min(at - width // 3, len(flat) - width))
        if start > 0:
            space = flat.find(" ", start)
            start = space + 1 if 0 <= space < at else start
        end = min(len(flat), start + width)
        if end < len(flat):
            space = flat.rfind(" ", start, end)
            end = space if space > at else end
        cut = ("…" if start > 0 else "") + flat[start:end] + ("…" if end < len(flat) else "")
    spans = tuple(match.span() for match in pattern.finditer(cut)) if pattern else ()
    return cut, spans


# Ages: m is minutes (as in 30m), mo months; 1 mo counts 30 days, 1 y 365.
SINCE_AGO = re.compile(r"(?P<count>\d+)\s*(?P<unit>mo|[mhdwy])", re.IGNORECASE)
SINCE_UNITS_DAYS = {"m": 1 / 1440, "h": 1 / 24, "d": 1, "w": 7, "mo": 30, "y": 365}
SINCE_FORMS = "a date (2026-11-01) or an age (30m, 12h, 7d, 2w, 3mo, 1y)"


def parse_since(text: str, now: datetime | None = None) -> datetime:
    """Read `--since`: a date (2026-11-01), a time, or an age such as 30m (minutes), 12h, 7d,
    2w, 3mo (months) or 1y."""
    return read_moment(text, now, -1, "--since", SINCE_FORMS)


def read_moment(text: str, now: datetime | None, sign: int, option: str, forms: str) -> datetime:
    """A date or time as given, or a span (30m, 12h, 7d, 2w, 3mo, 1y) before (`sign` -1) or
    after (+1) now; what `option` cannot read is refused, naming the `forms` it takes."""
    from datetime import timedelta

    from mem.vault.entries import parse_date

    now = now or datetime.now(UTC)
    span = SINCE_AGO.fullmatch(text.strip())
    try:
        if span:
            days = SINCE_UNITS_DAYS[span.group("unit").lower()]
            return now + sign * timedelta(days=int(span.group("count")) * days)
        return parse_date(text)
    except (ValueError, OverflowError):
        raise InvalidInput(f"cannot read {option} {text!r}; give {forms}") from None
