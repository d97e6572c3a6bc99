"""`mem recall` without Typer, for the one command that runs before every agent launch.

Building the Typer app costs about 25 ms of a recall's start-up. This path reads the plain forms
of recall's options (`--task TEXT`, `--budget N`, `--format F`, `--json`, `--agent`/`-a NAME`,
`--vault PATH`, and the root `--vault`/`--agent` before `recall`) and answers exactly as the Typer
command does. Anything else (help, `--opt=value`, a typo, a bad number) returns None, and the Typer
app handles it, so usage errors and help stay in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mem.cli.failure import report_failure
from mem.errors import ExitCode, MemError

if TYPE_CHECKING:
    from collections.abc import Callable

    from mem.config import Settings

ROOT_VALUES = {"--vault": "vault", "--agent": "agent", "-a": "agent"}
RECALL_VALUES = {
    "--task": "task",
    "--budget": "budget",
    "--format": "format",
    "--agent": "agent",
    "-a": "agent",
    "--vault": "vault",
}


def parse(argv: list[str]) -> tuple[dict[str, str], dict[str, str], bool] | None:
    """Split `[root options] recall [options]` into (root, recall, --json), or None."""
    root: dict[str, str] = {}
    given: dict[str, str] = {}
    as_json = False
    words = iter(argv)
    target, seen_recall = root, False
    for word in words:
        if not seen_recall and word == "recall":
            target, seen_recall = given, True
            continue
        names = RECALL_VALUES if seen_recall else ROOT_VALUES
        if seen_recall and word == "--json" and not as_json:
            as_json = True
        elif word in names and names[word] not in target:
            value = next(words, None)
            if value is None or (value.startswith("-") and names[word] != "task"):
                return None
            target[names[word]] = value
        else:
            return None
    if not seen_recall:
        return None
    budget = given.get("budget")
    if budget is not None and not budget.isdigit():
        return None  # Typer says what is wrong with it
    return root, given, as_json


def run(argv: list[str]) -> int | None:
    """Answer a plain `mem recall`; None when the Typer app should handle these arguments."""
    parsed = parse(argv)
    if parsed is None:
        return None
    root, given, as_json = parsed
    try:
        from pathlib import Path

        from mem.config import load_settings

        def settings() -> Settings:
            return load_settings(
                vault_flag=given.get("vault", root.get("vault")),
                agent_flag=given.get("agent", root.get("agent")),
                cwd=Path.cwd(),
            )

        budget = int(given["budget"]) if "budget" in given else None
        answer(settings, given.get("task", ""), budget, given.get("format", "md"), as_json)
    except MemError as exc:
        report_failure(str(exc), exc.code, as_json)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        report_failure("interrupted", "interrupted", as_json)
        return int(ExitCode.INTERRUPTED)
    return 0


def answer(
    settings: Callable[[], Settings], task: str, budget: int | None, fmt: str, as_json: bool
) -> None:
    """Recall and print the block: the body of `mem recall`, whichever parser read the flags.
    The settings are resolved after the format is checked, as a usage error comes first."""
    from mem.cli import render
    from mem.cli.feedback import for_people
    from mem.cli.input import clean_text
    from mem.services import recall as recall_service

    render.check_recall_format(fmt)
    block = recall_service.recall(settings(), clean_text(task), budget, feedback=for_people())
    render.recall_block(block, "json" if as_json else fmt)
