"""A plain `mem recall` skips the Typer app, and answers exactly as the Typer command does."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.cli.helpers import ok


def test_a_plain_recall_loads_none_of_the_slow_modules(vault, mem):
    # Typer's app costs ~20 ms to build, dataclasses (with inspect) ~30 ms, Whoosh's searcher
    # with its query modules ~15 ms: recall runs before every agent launch, so none of them may
    # creep back onto its path.
    ok(mem("add", "Cache invalidation uses redis pubsub", "-c", "decisions", "-a", "dev"))
    code = (
        "import sys\n"
        "from mem.cli.main import main\n"
        f"sys.argv = ['mem', '--vault', {str(vault)!r}, 'recall', '--task', 'redis', '--json']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as stop:\n"
        "    assert stop.code == 0, stop.code\n"
        "heavy = {'typer', 'dataclasses', 'inspect', 'whoosh.searching', 'whoosh.query'}\n"
        "loaded = sorted(heavy & set(sys.modules))\n"
        "sys.stderr.write(f'loaded: {loaded}')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert '"redis pubsub' in result.stdout or "redis pubsub" in result.stdout
    assert result.stderr.endswith("loaded: []")


CASES = [
    (["--task", "redis cache"], 0),
    (["--task", "redis cache", "--json"], 0),
    (["--task", "redis cache", "--format", "claude-hook"], 0),
    (["--task", "redis cache", "--budget", "60", "--json"], 0),
    (["--agent", "qa", "--task", "redis cache"], 0),
    (["--task", "redis cache", "--format", "yaml"], 2),
    (["--task", "redis cache", "--budget", "10", "--json"], 2),
    (["--task", "redis cache", "--agent", "Bad Name"], 2),
]


@pytest.mark.parametrize(("args", "exit_code"), CASES, ids=lambda value: str(value))
def test_the_quick_path_answers_as_the_typer_command_does(mem, vault, args, exit_code):
    mem("add", "Redis is the session cache; keys expire after a day.", "-c", "decisions")
    mem("add", "Flush the redis cache after a schema change.", "-c", "lessons", "-a", "qa")
    mem("search", "redis")  # builds the index, so neither run below prints that notice
    quick = mem("recall", *args)
    # `--task=…` is a form the quick path leaves to Typer: the same request, the other parser.
    typer_args = [f"--task={args[1]}", *args[2:]] if args[0] == "--task" else args
    if args[0] != "--task":
        typer_args = [*args[:2], f"--task={args[3]}", *args[4:]]
    slow = mem("recall", *typer_args)
    assert quick.exit_code == slow.exit_code == exit_code, (quick.stderr, slow.stderr)
    assert quick.stdout == slow.stdout
    assert quick.stderr == slow.stderr


def test_the_root_options_before_recall_are_honoured(run_mem, vault, tmp_path):
    run_mem(
        "--vault", str(vault), "add", "Chose Postgres for billing.", "-c", "decisions", "-a", "dev"
    )
    quick = run_mem(
        "--vault", str(vault), "--agent", "dev", "recall", "--task", "billing", cwd=tmp_path
    )
    slow = run_mem(
        "--vault", str(vault), "--agent", "dev", "recall", "--task=billing", cwd=tmp_path
    )
    assert quick.exit_code == slow.exit_code == 0
    assert quick.stdout == slow.stdout and "Chose Postgres for billing." in quick.stdout


def test_arguments_the_quick_path_does_not_know_go_to_typer(mem, vault):
    assert mem("recall", "--help").stdout.startswith("Usage: mem recall")
    result = mem("recall", "--budget", "lots")
    assert result.exit_code == 2 and "Invalid value" in result.stderr
    result = mem("recall", "--nope")
    assert result.exit_code == 2 and "No such option" in result.stderr
