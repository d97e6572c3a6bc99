"""`mem run`: recall, run an agent command with the context, then commit and hand off."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.feedback import for_people
from mem.cli.input import clean_text
from mem.cli.options import AgentOption, VaultOption, settings_of


@reports_errors
def run(
    ctx: typer.Context,
    command: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="-- CMD [ARGS]...", help="The agent command to run.", show_default=False
        ),
    ] = None,
    task: Annotated[
        str, typer.Option("--task", help="What the agent is about to do; ranks the recall.")
    ] = "",
    inject: Annotated[
        str,
        typer.Option(
            "--inject",
            help="How CMD gets the context: env (MEM_CONTEXT = a file's path), stdin (the "
            "context, then mem run's own stdin), arg (the context as a last argument) or file "
            "(the file's path as a last argument).",
        ),
    ] = "env",
    budget: Annotated[
        int | None,
        typer.Option("--budget", help="Token budget of the recall.", show_default=False),
    ] = None,
    agent: AgentOption = None,
    vault: VaultOption = None,
) -> None:
    """Run an agent command with the agent's memory, and remember what it did.

    Recalls the context, starts CMD with it, streams CMD's output through unchanged while keeping
    a checkpoint, then commits the output and hands off. Exits with CMD's exit code; an
    interrupted run leaves its checkpoint marked interrupted for the next recall.

    Example: mem run --agent dev --task "fix the login redirect" -- claude -p "fix the login redirect"
    """
    from mem.services import run as run_service

    stdin = None if sys.stdin.isatty() else sys.stdin.buffer
    report = run_service.run(
        settings_of(ctx, vault=vault, agent=agent),
        command or [],
        sys.stdout.buffer,
        task=clean_text(task),
        inject=inject,
        budget=budget,
        stdin=stdin if inject == "stdin" else None,
        feedback=for_people(),
    )
    render.ran(report)
    raise typer.Exit(report.exit_code)
