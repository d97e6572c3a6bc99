"""The shell completion scripts in completions/ are what `mem` generates today."""

import pytest

from conftest import REPO


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script_is_current(run_mem, shell):
    result = run_mem(env={"_MEM_COMPLETE": f"source_{shell}"})
    assert result.exit_code == 0, result.stderr
    shipped = (REPO / "completions" / f"mem.{shell}").read_text(encoding="utf-8")
    assert result.stdout == shipped, (
        f"regenerate: _MEM_COMPLETE=source_{shell} mem > completions/mem.{shell}"
    )


def test_bash_completion_offers_commands(run_mem):
    result = run_mem(
        env={"_MEM_COMPLETE": "complete_bash", "COMP_WORDS": "mem sea", "COMP_CWORD": "1"}
    )
    assert result.stdout.split() == ["search"]
