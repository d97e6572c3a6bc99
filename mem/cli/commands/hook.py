"""`mem hook`: answer an agent's hook event (the work is in mem/cli/hook.py, without Typer)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from mem.cli.options import AgentOption, VaultOption


def hook(
    ctx: typer.Context,
    kind: Annotated[
        str,
        typer.Argument(metavar="AGENT", help="claude-code, codex or gemini: whose JSON to read."),
    ],
    agent: AgentOption = None,
    vault: VaultOption = None,
) -> None:
    """Answer an agent's hook event: JSON on stdin, the agent's own JSON on stdout.

    SessionStart gets the recall; a session's first prompt, what it makes relevant; an edit or
    a command, the lessons and warnings that name it; Stop, PreCompact and SessionEnd commit the
    new part of the transcript. Never fails: errors go to .memory/.mem/hook-errors.log.

    Example: mem install claude-code  (writes the hooks that call this)
    """
    from mem.cli.hook import run_hook

    root = ctx.find_root().params
    code = run_hook(
        kind,
        agent if agent is not None else root.get("agent"),
        vault if vault is not None else root.get("vault"),
        sys.stdin.buffer,
        sys.stdout,
    )
    raise typer.Exit(code)
