"""`mem task add|done|list`: checkbox tasks."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.feedback import for_people
from mem.cli.input import text_or_stdin
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of
from mem.services import search as search_service
from mem.services import task as task_service

app = typer.Typer(help="Add, tick off and list tasks.", no_args_is_help=True, rich_markup_mode=None)


@app.command("add")
@reports_errors
def add(
    ctx: typer.Context,
    text: Annotated[
        str, typer.Argument(metavar="TEXT", help="The task; one item per line; - reads stdin.")
    ],
    tags: Annotated[str, typer.Option("--tags", help="Comma-separated tags.")] = "",
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Add an open task.

    Example: mem task add "migrate the session store to redis"
    """
    entry = task_service.task_add(
        settings_of(ctx, vault=vault, agent=agent),
        text_or_stdin(text),
        tags=(tags,),
        feedback=for_people(),
    )
    render.added(entry, as_json)


@app.command("done")
@reports_errors
def done(
    ctx: typer.Context,
    entry_id: Annotated[str, typer.Argument(metavar="ID", help="The task's id or prefix.")],
    matching: Annotated[
        str, typer.Argument(metavar="[TEXT]", help="Tick only items containing this text.")
    ] = "",
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Tick off a task's open items.

    Example: mem task done 20261122-2304
    """
    report = task_service.task_done(settings_of(ctx, vault=vault, agent=agent), entry_id, matching)
    render.task_done(report, as_json)


@app.command("list")
@reports_errors
def list_(
    ctx: typer.Context,
    agent: Annotated[
        str | None,
        typer.Option("--agent", "-a", help="Only this agent's tasks.", show_default=False),
    ] = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """List open tasks, newest first.

    Example: mem task list --agent dev
    """
    query = search_service.Query(agent=agent, category="tasks", open_tasks_only=True, limit=None)
    entries = search_service.list_entries(settings_of(ctx, vault=vault), query, for_people())
    render.entries_listed(entries, as_json)
