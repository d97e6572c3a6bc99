"""The bodies of `mem recall` and `mem search`, free of Typer: the quick parser (quick.py) and
the Typer commands both read the flags, then call these, so the two paths cannot answer apart."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from mem.config import Settings
    from mem.services.search import Query

SEARCH_LIMIT = 10


def recall_answer(
    settings: Callable[[], Settings], task: str, budget: int | None, fmt: str, as_json: bool
) -> None:
    """Recall and print the block: the body of `mem recall`, whichever parser read the flags.
    The settings are resolved after the format is checked, as a usage error comes first."""
    from mem.cli import render
    from mem.cli.feedback import for_people
    from mem.cli.input import clean_text
    from mem.services import recall as recall_service

    render.check_recall_format(fmt)
    block = recall_service.recall(settings(), clean_text(task), budget, feedback=for_people())
    render.recall_block(block, "json" if as_json else fmt)


def search_answer(
    settings: Callable[[], Settings],
    request: Query,
    since: str | None,
    as_json: bool,
    user: bool = False,
) -> None:
    """Search and print the hits: the body of `mem search`, whichever parser read the flags.
    `--since` is read here, before the settings, as Typer's command always did. With `user`,
    the person's own vault is searched instead of the project's."""
    from mem.cli import render
    from mem.cli.feedback import for_people
    from mem.services import search as search_service

    if since:
        request = request._replace(since=search_service.parse_since(since))
    where = settings()
    if user:
        from mem.services.user_vault import settings_for

        where = settings_for(where)
    hits = search_service.search(where, request, feedback=for_people())
    render.search_hits(hits, as_json)
