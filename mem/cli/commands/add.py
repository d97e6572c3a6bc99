"""`mem add`: one entry by hand."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import typer

from mem.cli import feedback, render
from mem.cli.errors import reports_errors
from mem.cli.input import text_or_stdin
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of
from mem.errors import InvalidInput
from mem.services import add as add_service


@reports_errors
def add(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(metavar="TEXT", help="What to remember; - reads stdin.")],
    category: Annotated[
        str,
        typer.Option(
            "--category", "-c", help="decisions, lessons, facts, tasks, projects or handoffs."
        ),
    ] = "facts",
    kind: Annotated[
        str | None,
        typer.Option(
            "--kind",
            "-k",
            help="A finer kind (decision, lesson, convention, ...).",
            show_default=False,
        ),
    ] = None,
    tags: Annotated[str, typer.Option("--tags", help="Comma-separated tags.")] = "",
    scope: Annotated[
        str,
        typer.Option(
            "--scope",
            help="agent, shared, private, or user (your own vault, outside every project).",
        ),
    ] = "agent",
    supersedes: Annotated[
        str | None,
        typer.Option("--supersedes", help="Id of the entry this one replaces.", show_default=False),
    ] = None,
    pin: Annotated[bool, typer.Option("--pin", help="Never compact this entry away.")] = False,
    expires: Annotated[
        str | None,
        typer.Option(
            "--expires",
            help="Hide it from recall and search after this date (2026-12-31) or time from now "
            "(30d, 2w, 3mo); --all still shows it.",
            show_default=False,
        ),
    ] = None,
    share_after: Annotated[
        str | None,
        typer.Option(
            "--share-after",
            help="With --scope private: becomes the agent's (committed) entry after this date "
            "or time from now (14d), at the next mem compact.",
            show_default=False,
        ),
    ] = None,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Add one entry to the agent's category file.

    Example: mem add "Chose bcrypt over argon2: argon2 does not build on Alpine" -c decisions
    """
    until = add_service.parse_expires(expires) if expires else None
    shared = add_service.parse_expires(share_after, option="--share-after") if share_after else None
    if scope == "user":
        if shared is not None:
            raise InvalidInput("--share-after is for private entries; add --scope private")
        add_for_you(ctx, text, category, kind, tags, supersedes, pin, until, agent, vault, as_json)
        return
    entry = add_service.add(
        settings_of(ctx, vault=vault, agent=agent),
        text_or_stdin(text),
        category,
        kind=kind,
        tags=(tags,),
        scope=scope,
        supersedes=supersedes,
        pin=pin,
        feedback=feedback.for_people(),
        expires=until,
        share_after=shared,
    )
    render.added(entry, as_json)


def add_for_you(
    ctx: typer.Context,
    text: str,
    category: str,
    kind: str | None,
    tags: str,
    supersedes: str | None,
    pin: bool,
    until: datetime | None,
    agent: str | None,
    vault: str | None,
    as_json: bool,
) -> None:
    """`mem add --scope user`: into the person's own vault, which every project's recall reads."""
    from mem.services import user_vault

    if supersedes:
        raise InvalidInput("--supersedes is not taken with --scope user; use mem edit there")
    settings = settings_of(ctx, vault=vault, agent=agent)
    entry = user_vault.add_to_user_vault(
        settings,
        text_or_stdin(text),
        category,
        kind,
        (tags,),
        pin=pin,
        expires=until,
        feedback=feedback.for_people(),
    )
    render.added(entry, as_json)
    if not as_json:
        render.say(f"(in your user vault, {user_vault.home()})")
