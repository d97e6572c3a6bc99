"""`mem install` and `mem uninstall`: wire `mem hook` into an agent's settings, or take it out."""

from __future__ import annotations

import difflib
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of

AgentArgument = Annotated[
    str,
    typer.Argument(
        metavar="AGENT", help="claude-code, codex, gemini or antigravity (the MCP server only)."
    ),
]
UserFlag = Annotated[
    bool,
    typer.Option("--user", help="The agent's settings in your home folder: every project."),
]
DryRunFlag = Annotated[
    bool, typer.Option("--dry-run", help="Show the change as a diff; write nothing.")
]


@reports_errors
def install(
    ctx: typer.Context,
    target: AgentArgument,
    user: UserFlag = False,
    dry_run: DryRunFlag = False,
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Give an agent its memory: hooks and the MCP server, in the agent's own settings files.

    Session start gets the recall, the first prompt what it makes relevant, an edit or a
    command the lessons that name it, and each turn's transcript is committed; `mem mcp` is
    registered as the MCP server "mem". Installing again changes nothing; `mem uninstall` takes
    it out.

    Example: mem install claude-code
    """
    from mem.services import install as service

    service.check_installable(target)
    mem_agent = service.check_mem_agent(agent or ctx.find_root().params.get("agent"))
    if mem_agent is None and not user:
        # The vault's default agent, written out: the hooks act as it even if the default
        # changes later, and the person is told which agent recall will read.
        mem_agent = settings_of(ctx, vault=vault).agent
    changes = service.plan_install(target, wired(ctx, target, user, vault, mem_agent))
    report(target, changes, dry_run, as_json, installing=True, user=user)
    if not dry_run and not as_json:
        say_which_agent(ctx, vault, mem_agent, chosen=agent is not None, user=user)
        offer_backfill(ctx, target, vault, mem_agent)


def say_which_agent(
    ctx: typer.Context, vault: str | None, mem_agent: str | None, chosen: bool, user: bool
) -> None:
    """Which agent the hooks and the server remember as, and a word when it has nothing yet
    while other agents of the vault have entries (a recall would be empty, silently)."""
    from mem.errors import MemError
    from mem.services.wired_agents import empty_agent_note, entries_per_agent

    if mem_agent is None:
        render.say(
            "hooks and server act as each project's default agent "
            "(default_agent in its mem.toml, else main; --agent NAME to choose one)"
        )
        return
    source = "MEM_AGENT" if os.environ.get("MEM_AGENT") else "the vault's default agent"
    why = "" if chosen else f" ({source}; --agent NAME to choose another)"
    render.say(f"hooks and server act as agent {mem_agent}{why}")
    try:
        note = empty_agent_note(entries_per_agent(settings_of(ctx, vault=vault)), mem_agent)
    except MemError:
        return
    if note:
        render.say(f"note: they act as {note}")


def offer_backfill(
    ctx: typer.Context, target: str, vault: str | None, mem_agent: str | None
) -> None:
    """Say how many of this project's past sessions the agent kept, and how to commit them."""
    from mem.errors import MemError
    from mem.extract.sessions import SOURCES
    from mem.services import backfill
    from mem.services.search import parse_since

    if target not in SOURCES:
        return
    try:
        settings = settings_of(ctx, vault, mem_agent)
        since = parse_since(backfill.DEFAULT_SINCE)  # what `mem backfill` takes by default
        found = backfill.find(settings, (target,), dict(os.environ), since)
    except MemError:
        return  # a user-level install outside any vault: nothing to offer here
    if found:
        named = f" --agent {mem_agent}" if mem_agent else ""
        render.say(
            f"{len(found)} {target} session(s) of this project from the last "
            f"{backfill.DEFAULT_SINCE} found: `mem backfill --from {target}{named}` commits them "
            "(again, it adds nothing; --since all takes older ones too)"
        )


@reports_errors
def uninstall(
    ctx: typer.Context,
    target: AgentArgument,
    user: UserFlag = False,
    dry_run: DryRunFlag = False,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Take out what `mem install` added to an agent's settings, and nothing else.

    Example: mem uninstall claude-code
    """
    from mem.services import install as service

    service.check_installable(target)
    state = service.state_folder(dict(os.environ))
    changes = service.plan_uninstall(target, wired(ctx, target, user, vault, None), state)
    report(target, changes, dry_run, as_json, installing=False)


def wired(
    ctx: typer.Context, target: str, user: bool, vault: str | None, mem_agent: str | None
) -> Any:
    """The agent's files: in the home folder with --user, else in the project that holds the
    vault (hooks without a vault would have nothing to remember)."""
    from mem.services import install as service

    project = Path.cwd()
    if not user:
        project = settings_of(ctx, vault=vault).require_vault().parent
    return service.wiring(target, user, project, dict(os.environ), mem_agent)


def report(
    target: str,
    changes: list[Any],
    dry_run: bool,
    as_json: bool,
    installing: bool,
    user: bool = False,
) -> None:
    from mem.services import install as service

    if not dry_run:
        state = service.state_folder(dict(os.environ))
        for change in changes:
            service.apply(change, state, installing)
    files = [
        {
            "path": str(change.path),
            "changed": change.changed,
            "removed": change.after is None and change.before is not None,
            "diff": diff_of(change),
        }
        for change in changes
    ]
    if as_json:
        render.write_json({"agent": target, "dry_run": dry_run, "files": files})
        return
    if dry_run:
        for change, file in zip(changes, files, strict=True):
            sys.stdout.write(file["diff"] or f"{change.path}: nothing to change\n")
        return
    verb = "installed in" if installing else "removed from"
    for change in changes:
        if not change.changed:
            render.say(f"{change.path}: nothing to change")
        else:
            render.say(f"mem {verb} {change.path}")
    if installing and any(change.changed for change in changes):
        steps = service.USER_NEXT_STEPS if user else service.NEXT_STEPS
        render.say(f"next: {steps.get(target, service.NEXT_STEPS[target])}")


def diff_of(change: Any) -> str:
    return "".join(
        difflib.unified_diff(
            (change.before or b"").decode("utf-8", "replace").splitlines(keepends=True),
            (change.after or b"").decode("utf-8", "replace").splitlines(keepends=True),
            fromfile=str(change.path),
            tofile=str(change.path),
        )
    )
