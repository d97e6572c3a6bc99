"""Turn expected failures into a one-line message and an exit code, in one place."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from mem.cli.failure import report_failure
from mem.errors import ExitCode, MemError

P = ParamSpec("P")
R = TypeVar("R")


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Report MemError as `mem: <message>` (and a JSON error with --json), then exit."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except MemError as exc:
            fail(str(exc), exc.code, exc.exit_code, bool(kwargs.get("as_json")))
        except KeyboardInterrupt:
            fail("interrupted", "interrupted", ExitCode.INTERRUPTED, bool(kwargs.get("as_json")))
        raise AssertionError("unreachable")  # fail() always raises

    return run


def fail(message: str, code: str, exit_code: int, as_json: bool) -> None:
    report_failure(message, code, as_json)
    raise typer.Exit(int(exit_code))
