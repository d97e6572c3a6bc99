"""Turn expected failures into a one-line message and an exit code, in one place."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

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
            fail(str(exc), exc.code, exc.exit_code, wants_json(args, kwargs))
        except KeyboardInterrupt:
            fail("interrupted", "interrupted", ExitCode.INTERRUPTED, wants_json(args, kwargs))
        raise AssertionError("unreachable")  # fail() always raises

    return run


def wants_json(args: tuple[object, ...], kwargs: dict[str, object]) -> bool:
    """Whether --json was given to this command or to a group above it (`mem handoff --json
    show`): the whole command line decides the output, not one function's parameters."""
    if kwargs.get("as_json"):
        return True
    # The command's context (Typer hands it in as `ctx`), then its groups' up to the root.
    context: Any = next((v for v in (*args, *kwargs.values()) if hasattr(v, "find_root")), None)
    while context is not None:
        if context.params.get("as_json"):
            return True
        context = context.parent
    return False


def fail(message: str, code: str, exit_code: int, as_json: bool) -> None:
    report_failure(message, code, as_json)
    raise typer.Exit(int(exit_code))
