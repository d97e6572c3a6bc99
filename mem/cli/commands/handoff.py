"""`mem handoff`: a session summary for the next session (or another agent), and `show`."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.feedback import for_people
from mem.cli.input import clean_text, text_or_stdin
from mem.cli.options import (
    AgentOption,
    JsonFlag,
    VaultOption,
    group_settings,
    json_output,
    settings_of,
)

app = typer.Typer(
    help="Write a session summary for the next session, or show the latest.",
    invoke_without_command=True,
    rich_markup_mode=None,
)


@app.callback()
@reports_errors
def handoff(
    ctx: typer.Context,
    what: Annotated[str, typer.Option("--what", help="What the session did.")] = "",
    decision: Annotated[
        list[str] | None, typer.Option("--decision", help="A decision (repeatable).")
    ] = None,
    file: Annotated[
        list[str] | None, typer.Option("--changed", help="A file the session changed (repeatable).")
    ] = None,
    commit: Annotated[
        list[str] | None, typer.Option("--commit", help="A commit, 'sha subject' (repeatable).")
    ] = None,
    unfinished: Annotated[
        list[str] | None, typer.Option("--unfinished", help="Work left open (repeatable).")
    ] = None,
    next_step: Annotated[
        list[str] | None, typer.Option("--next", help="The next step (repeatable).")
    ] = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to", metavar="AGENT", help="Hand off to another agent.", show_default=False
        ),
    ] = None,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Write a handoff from flags, or from stdin when no flag is given; it clears the checkpoint.

    Example: mem handoff --what "login redirect fixed" --next "add the e2e test" --to qa
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = {"agent": agent, "vault": vault}
        return
    from mem.services import session

    parts = session.HandoffParts(
        what=clean_text(what),
        decisions=[clean_text(item) for item in decision or ()],
        files=[clean_text(item) for item in file or ()],
        commits=[clean_text(item) for item in commit or ()],
        unfinished=[clean_text(item) for item in unfinished or ()],
        next_steps=[clean_text(item) for item in next_step or ()],
    )
    text = ""
    if parts.is_empty() and not sys.stdin.isatty():
        text = text_or_stdin("-")
    entry, redactions = session.write_handoff(
        settings_of(ctx, vault=vault, agent=agent), parts, text=text, to=to, feedback=for_people()
    )
    render.handoff_written(entry, redactions, as_json)


@app.command("show")
@reports_errors
def show(
    ctx: typer.Context,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Print the latest handoff addressed to the agent.

    Example: mem handoff show --agent dev
    """
    from mem.services import session

    settings = group_settings(ctx, agent, vault)
    entry = session.latest_handoff(settings, feedback=for_people())
    render.handoff_shown(entry, json_output(ctx))
