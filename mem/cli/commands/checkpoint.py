"""`mem checkpoint`: save work in progress so a crash or an interruption can be picked up."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.input import clean_text
from mem.cli.options import (
    AgentOption,
    JsonFlag,
    VaultOption,
    group_settings,
    json_output,
    settings_of,
)

app = typer.Typer(
    help="Save, show or clear the agent's checkpoint of work in progress.",
    invoke_without_command=True,
    rich_markup_mode=None,
)


@app.callback()
@reports_errors
def checkpoint(
    ctx: typer.Context,
    what: Annotated[str, typer.Option("--what", help="What is in progress.")] = "",
    task: Annotated[str, typer.Option("--task", help="The task being worked on.")] = "",
    next_step: Annotated[str, typer.Option("--next", help="What comes next.")] = "",
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Save the checkpoint (it replaces the last one; a handoff clears it; it expires in 7 days).

    Example: mem checkpoint --what "halfway through the session store migration" --next "tests"
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = {"agent": agent, "vault": vault}
        return
    from mem.services import session

    saved = session.save_checkpoint(
        settings_of(ctx, vault=vault, agent=agent),
        task=clean_text(task),
        what=clean_text(what),
        next_step=clean_text(next_step),
    )
    render.checkpoint_shown(saved, as_json, saved=True)


@app.command("show")
@reports_errors
def show(
    ctx: typer.Context,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Print the agent's live checkpoint, if any.

    Example: mem checkpoint show --agent dev
    """
    from mem.services import session

    settings = group_settings(ctx, agent, vault)
    render.checkpoint_shown(session.show_checkpoint(settings), json_output(ctx))


@app.command("clear")
@reports_errors
def clear(
    ctx: typer.Context,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Remove the agent's checkpoint.

    Example: mem checkpoint clear --agent dev
    """
    from mem.services import session

    settings = group_settings(ctx, agent, vault)
    render.checkpoint_cleared(session.clear_checkpoint(settings), json_output(ctx))
