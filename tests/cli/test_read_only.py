"""A read-only checkout of a vault (no `.mem/`: git ignores it) is still searched and recalled."""

from __future__ import annotations

import json
import shutil

from .helpers import read_only_mem


def test_a_read_only_vault_without_an_index_is_searched_and_recalled(
    vault, run_mem, tmp_path, monkeypatch
):
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    for number in range(3):
        run_mem("add", f"cloned fixture note {number}", "-c", "decisions", cwd=vault.parent)
    shutil.rmtree(vault / ".mem", ignore_errors=True)  # a fresh clone has none

    searched = read_only_mem(vault, "search", "fixture", "--json")
    recalled = read_only_mem(vault, "recall", "--task", "cloned fixture note")

    assert searched.returncode == 0, searched.stderr
    assert len(json.loads(searched.stdout)["hits"]) == 3
    assert recalled.returncode == 0, recalled.stderr
    assert "cloned fixture note" in recalled.stdout
    assert not (vault / ".mem" / "index").exists()  # nothing written in the vault
    assert list((tmp_path / "tmp").iterdir()) == []  # nor left in the temporary folder


def test_an_entry_written_since_the_index_was_made_is_found_in_a_read_only_vault(vault, run_mem):
    run_mem("add", "indexed fixture note", "-c", "decisions", cwd=vault.parent)
    assert run_mem("search", "fixture", cwd=vault.parent).exit_code == 0  # the index, made
    run_mem("add", "a later fixture note", "-c", "lessons", cwd=vault.parent)
    index_before = sorted((vault / ".mem" / "index").iterdir())

    searched = read_only_mem(vault, "search", "fixture", "--json")

    assert searched.returncode == 0, searched.stderr
    assert len(json.loads(searched.stdout)["hits"]) == 2
    assert "the vault is read-only, so the index is brought up to date" in searched.stderr
    assert sorted((vault / ".mem" / "index").iterdir()) == index_before
