"""Secrets wherever text enters the vault by hand: add, task add, --scope user, edit, import.

Capture (commit, hooks, MCP publish) redacts what agents say; a person's own entries go into the
same committed files, so they are redacted the same way, with one notice naming the kinds and
never the secret."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from extract.fake_secrets import FAKE_SECRETS

from mem.config import load_settings
from mem.services.add import add
from mem.services.feedback import Feedback

from .helpers import added_id, ok

GITHUB = next(case for case in FAKE_SECRETS if case.kind == "github-token")
STRIPE = next(case for case in FAKE_SECRETS if case.kind == "stripe-key")


def vault_text(folder: Path) -> str:
    """Every file of the folder that a secret could reach: the markdown and the index."""
    return "".join(
        path.read_bytes().decode("utf-8", "replace") for path in folder.rglob("*") if path.is_file()
    )


def assert_gone(case, where: str) -> None:
    for piece in [case.secret, *(part for part in case.secret.split() if len(part) >= 12)]:
        assert piece not in where


def test_every_kind_of_secret_typed_into_an_entry_is_replaced_by_its_marker(vault):
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    notices: list[str] = []
    for case in FAKE_SECRETS:
        entry = add(settings, case.text, "lessons", feedback=Feedback(notice=notices.append))
        assert f"[REDACTED:{case.kind}]" in entry.body, case.name
    stored = vault_text(vault)
    for case in FAKE_SECRETS:
        assert_gone(case, stored)
        assert all(case.secret not in notice for notice in notices)
    assert len(notices) == len(FAKE_SECRETS)  # one notice per entry, naming what went
    assert all("\n" not in notice and "[REDACTED:<kind>]" in notice for notice in notices)


def test_mem_add_says_which_kinds_went_in_one_line_and_search_cannot_find_them(mem, vault):
    text = f"CI deploys with {GITHUB.secret} and bills with {STRIPE.secret}"
    result = mem("add", text, "-c", "facts", "-a", "dev")
    entry_id = added_id(result)
    notice, added = result.stderr.splitlines()
    assert notice.startswith("mem: a secret was replaced by [REDACTED:<kind>] before writing")
    assert "github-token" in notice and "stripe-key" in notice
    assert added == "added fact to dev/facts.md"
    assert GITHUB.secret not in result.stdout + result.stderr
    assert_gone(GITHUB, vault_text(vault))
    assert_gone(STRIPE, vault_text(vault))
    found = json.loads(ok(mem("search", "deploys", "--json")).stdout)
    assert [hit["id"] for hit in found["hits"]] == [entry_id]
    assert "[REDACTED:github-token]" in found["hits"][0]["body"]
    assert json.loads(ok(mem("search", GITHUB.secret, "--json")).stdout)["hits"] == []


def test_an_entry_without_a_secret_says_nothing_more(mem):
    result = mem("add", "Run the tests with make check", "-c", "facts", "-a", "dev")
    assert result.stderr == "added fact to dev/facts.md\n"


def test_a_task_is_redacted_too(mem, vault):
    result = mem("task", "add", f"rotate {GITHUB.secret} before Friday", "-a", "dev")
    ok(result)
    assert "github-token" in result.stderr
    assert_gone(GITHUB, vault_text(vault))
    assert (
        "rotate [REDACTED:github-token] before Friday" in (vault / "dev" / "tasks.md").read_text()
    )


def test_an_entry_in_the_users_own_vault_is_redacted_too(mem, tmp_path):
    home = tmp_path / "me"
    result = mem(
        "add", f"my token is {GITHUB.secret}", "--scope", "user", env={"MEM_HOME": str(home)}
    )
    ok(result)
    assert "github-token" in result.stderr
    assert_gone(GITHUB, vault_text(home))


def test_a_secret_typed_in_mem_edit_is_replaced_when_the_editor_closes(mem, vault, tmp_path):
    entry_id = added_id(mem("add", "Deploys use the CI token", "-c", "facts", "-a", "dev"))
    script = tmp_path / "ed.py"
    script.write_text(
        "import pathlib, sys\n"
        "path = pathlib.Path(sys.argv[-1])\n"
        f"path.write_text(path.read_text().replace('the CI token', 'the CI token {GITHUB.secret}'))\n"
    )
    path = vault / "dev" / "facts.md"
    path.write_text(path.read_text() + "A note of the person's, left alone.\n")
    result = mem("edit", entry_id, env={"EDITOR": f"{sys.executable} {script}"})
    ok(result)
    assert "github-token" in result.stderr and GITHUB.secret not in result.stderr
    text = path.read_text()
    assert "Deploys use the CI token [REDACTED:github-token]" in text
    assert text.endswith("A note of the person's, left alone.\n")
    assert_gone(GITHUB, vault_text(vault))


def test_an_import_is_redacted_before_it_is_written(mem, vault, tmp_path):
    dump = tmp_path / "events.jsonl"
    lines = [
        {"type": "decision", "text": f"Use the deploy key {GITHUB.secret}", "ts": "2026-01-02"},
        {"type": "lesson", "text": "Flaky tests came from a shared temp dir", "ts": "2026-01-03"},
    ]
    dump.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = mem("migrate", "--from", "jsonl", str(dump), "-a", "dev")
    ok(result)
    assert "github-token" in result.stderr
    assert_gone(GITHUB, vault_text(vault))
    again = json.loads(ok(mem("migrate", "--from", "jsonl", str(dump), "--json")).stdout)
    assert again["added"] == {} and again["skipped"] == 2  # the same records, known again
