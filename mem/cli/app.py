"""The `mem` command: the Typer app, its root options, and the list of commands."""

from __future__ import annotations

from typing import Annotated

import typer

from mem import __version__
from mem.cli.commands import add, doctor, edit, export, forget, init, search, show, stats, task
from mem.cli.commands import list as list_command
from mem.cli.options import AgentOption, VaultOption

app = typer.Typer(
    name="mem",
    help="Memory for AI coding agents, kept as plain markdown in a git-friendly vault.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,  # locals hold memory text
    rich_markup_mode=None,  # plain help: Rich would add ~50 ms to every `--help`
    context_settings={"help_option_names": ["-h", "--help"]},
)


def show_version(value: bool) -> None:
    if value:
        print(f"mem {__version__}")
        raise typer.Exit()


@app.callback()
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


app.command()(init.init)
app.command()(add.add)
app.command()(show.show)
app.command("list")(list_command.list_)
app.command()(search.search)
app.command()(edit.edit)
app.command()(forget.forget)
app.add_typer(task.app, name="task")
app.command()(export.export)
app.command()(doctor.doctor)
app.command()(stats.stats)


def main() -> None:
    """Run the `mem` command line."""
    app()
