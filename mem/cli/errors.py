"""Turn expected failures into a one-line message and an exit code, in one place."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import typer

from mem.cli.failure import report_failure
from mem.cli.options import json_output
from mem.errors import ExitCode, MemError

P = ParamSpec("P")
R = TypeVar("R")


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Report MemError as `mem: <message>` (and a JSON error when the command line asked for
    JSON, as its results would be), then exit."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        # Every command takes its Typer context first: what it parsed decides the output.
        ctx: Any = kwargs.get("ctx", args[0] if args else None)
        try:
            return command(*args, **kwargs)
        except MemError as exc:
            fail(str(exc), exc.code, exc.exit_code, json_output(ctx))
        except KeyboardInterrupt:
            fail("interrupted", "interrupted", ExitCode.INTERRUPTED, json_output(ctx))
        raise AssertionError("unreachable")  # fail() always raises

    return run


def fail(message: str, code: str, exit_code: int, as_json: bool) -> None:
    report_failure(message, code, as_json)
    raise typer.Exit(int(exit_code))
