"""`mem commit`: store what is worth keeping from agent output."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Annotated, BinaryIO

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of
from mem.errors import FileUnreadable, InvalidInput, MemError


@reports_errors
def commit(
    ctx: typer.Context,
    file: Annotated[
        Path | None,
        typer.Option("--file", "-f", help="Read this file instead of stdin.", show_default=False),
    ] = None,
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            help="auto, text, claude-jsonl, stream-json, codex-jsonl, gemini-jsonl, "
            "copilot-jsonl, otel-spans, antigravity-jsonl, generic-json, aider, markdown-chat, "
            "gemini-md, cline-md, markdown-roles, antigravity-md, claude-terminal, codex-terminal or "
            "codex-log.",
        ),
    ] = "auto",
    tee: Annotated[
        bool,
        typer.Option(
            "--tee", help="Copy the input to stdout unchanged (the report goes to stderr)."
        ),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Store nothing; print what would be stored.")
    ] = False,
    explain: Annotated[
        bool,
        typer.Option("--explain", help="Say, for each entry added, what made it memory."),
    ] = False,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Store what is worth keeping from agent output: decisions, lessons, facts, tasks, a handoff.

    Example: claude -p "fix the login redirect" | mem commit --agent dev
    """
    from mem.services import commit as commit_service  # its rules compile in ~25 ms: not for --help

    try:
        settings = settings_of(ctx, vault=vault, agent=agent)
    except MemError:
        if tee and file is None:
            shutil.copyfileobj(sys.stdin.buffer, sys.stdout.buffer)  # no vault: pass it all on
            sys.stdout.buffer.flush()
        raise
    if file is None and sys.stdin.isatty():
        raise InvalidInput("nothing on stdin; pipe agent output in, or give --file PATH")
    if file is not None and not tee:
        # Read from where the last commit of this file reached (only what was appended).
        report = commit_service.commit_file(settings, file, output_format, dry_run=dry_run)
        render.committed(report, as_json, explain=explain)
        return
    try:
        stream: BinaryIO = file.open("rb") if file is not None else sys.stdin.buffer
    except OSError as exc:
        raise FileUnreadable(f"cannot read {file} ({exc.strerror}); check the path") from exc
    with stream:
        copy = sys.stdout.buffer if tee else None
        try:
            report = commit_service.commit(
                settings, commit_service.lines_of(stream, copy), output_format, dry_run=dry_run
            )
        finally:
            if copy is not None:
                # Pass through whatever the reader did not read, whatever became of the commit:
                # the agent's output must reach the rest of the pipe.
                for _ in commit_service.copied(stream, copy):
                    pass
    render.committed(report, as_json, to_stderr=tee, explain=explain)
