"""`mem recall`: the context block an agent starts with."""

from __future__ import annotations

from typing import Annotated

import typer

from mem.cli.answers import recall_answer
from mem.cli.errors import reports_errors
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of


@reports_errors
def recall(
    ctx: typer.Context,
    task: Annotated[
        str,
        typer.Option("--task", help="What the agent is about to do; ranks what is relevant."),
    ] = "",
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget",
            help="Token budget (characters / 4); default: [recall] budget in mem.toml, else 2000.",
            show_default=False,
        ),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format", help="md (for a prompt) or claude-hook (hook JSON); --json gives JSON."
        ),
    ] = "md",
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Print the agent's memory as one block for its prompt, within a token budget.

    Example: mem recall --agent dev --task "fix the login redirect"
    """
    recall_answer(lambda: settings_of(ctx, vault=vault, agent=agent), task, budget, fmt, as_json)
