"""The `mem` command: the Typer app, its root options, and the list of commands."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Annotated, Any

import typer

from mem import __version__
from mem.cli.failure import report_failure
from mem.cli.options import AgentOption, VaultOption
from mem.errors import ExitCode

# Every command, in the order `mem --help` lists them: (name, module, function).
# A module is imported only when its command runs (or for the full help), which keeps
# `mem search` and `mem recall` from paying for every other command's imports.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("init", "init", "init"),
    ("add", "add", "add"),
    ("commit", "commit", "commit"),
    ("backfill", "backfill", "backfill"),
    ("show", "show", "show"),
    ("list", "list", "list_"),
    ("search", "search", "search"),
    ("recall", "recall", "recall"),
    ("handoff", "handoff", "app"),
    ("checkpoint", "checkpoint", "app"),
    ("roster", "roster", "roster"),
    ("run", "run", "run"),
    ("install", "install", "install"),
    ("uninstall", "install", "uninstall"),
    ("hook", "hook", "hook"),
    ("mcp", "mcp", "mcp"),
    ("watch", "watch", "watch"),
    ("edit", "edit", "edit"),
    ("forget", "forget", "forget"),
    ("task", "task", "app"),
    ("export", "export", "export"),
    ("compact", "compact", "compact"),
    ("migrate", "migrate", "migrate"),
    ("doctor", "doctor", "doctor"),
    ("stats", "stats", "stats"),
)
COMPLETE_VARIABLE = "_MEM_COMPLETE"
ROOT_OPTIONS_WITH_VALUES = {"--vault", "--agent", "-a"}
HELP = "Memory for AI coding agents, kept as plain markdown in a git-friendly vault."


def show_version(value: bool) -> None:
    if value:
        print(f"mem {__version__}")
        raise typer.Exit()


def root(
    vault: VaultOption = None,
    agent: AgentOption = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Memory for AI coding agents, kept as plain markdown in a git-friendly vault."""


def build_app(only: str | None = None) -> typer.Typer:
    """Build the app with every command, or with just the one about to run."""
    app = typer.Typer(
        name="mem",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_show_locals=False,  # locals hold memory text
        rich_markup_mode=None,  # plain help: Rich would add ~50 ms to every `--help`
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(root)
    plain_argument_metavars()
    for name, module_name, attribute in COMMANDS:
        if only is not None and name != only:
            continue
        module = importlib.import_module(f"mem.cli.commands.{module_name}")
        target = getattr(module, attribute)
        if isinstance(target, typer.Typer):
            app.add_typer(target, name=name)
        else:
            app.command(name)(target)
    return app


def plain_argument_metavars() -> None:
    """Show a required argument as `ID`, not Typer's `{ID}`, which reads as a set of choices."""
    from typer.core import TyperArgument

    make_metavar = TyperArgument.make_metavar
    if getattr(make_metavar, "plain", False):
        return

    def plain(self: TyperArgument, ctx: Any, *, usage: bool = False) -> str:
        shown: str = make_metavar(self, ctx, usage=usage)
        return shown[1:-1] if shown.startswith("{") and shown.endswith("}") else shown

    plain.plain = True  # type: ignore[attr-defined]  # marks the patch, so it is applied once
    TyperArgument.make_metavar = plain  # type: ignore[method-assign]  # see the docstring


def command_named(arguments: list[str]) -> str | None:
    """Return the command the arguments name, skipping root options; None for anything else."""
    names = {name for name, _, _ in COMMANDS}
    skip = False
    for argument in arguments:
        if skip:
            skip = False
        elif argument in ROOT_OPTIONS_WITH_VALUES:
            skip = True
        elif argument in ("-h", "--help"):
            return None  # `mem --help list` is the root's help: it lists every command
        elif argument.startswith("-"):
            continue
        else:
            return argument if argument in names else None
    return None


def main() -> None:
    """Run the `mem` command line."""
    if COMPLETE_VARIABLE in os.environ:
        # A shell asking for completions (see completions/): register Typer's shell classes.
        from typer._completion_classes import completion_init

        completion_init()
        build_app()(prog_name="mem", complete_var=COMPLETE_VARIABLE)
        return
    arguments = sys.argv[1:]
    app = build_app(only=command_named(arguments))
    if "--json" not in arguments[: arguments.index("--") if "--" in arguments else None]:
        app(prog_name="mem")
        return
    # Asked for JSON, a caller reads stdout as JSON: Click's usage text there is no answer.
    try:
        code = app(prog_name="mem", standalone_mode=False)
    except typer.TyperException as exc:  # Click's errors: bad usage (2), an unreadable file (1)
        usage = exc.exit_code == ExitCode.USAGE
        report_failure(usage_message(exc), "usage" if usage else "mem_error", as_json=True)
        raise SystemExit(exc.exit_code) from None
    except typer.Abort:
        report_failure("aborted", "interrupted", as_json=True)
        raise SystemExit(int(ExitCode.FAILURE)) from None
    raise SystemExit(code if isinstance(code, int) else 0)  # an int: the code typer.Exit gave


def usage_message(exc: typer.TyperException) -> str:
    """Click's error as one line, pointing at the help of the command it concerns."""
    message = " ".join(exc.format_message().split()).rstrip(".")
    ctx = getattr(exc, "ctx", None)
    return f"{message}; see `{ctx.command_path} --help`" if ctx is not None else message
