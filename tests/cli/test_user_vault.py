"""The person's own vault: `mem add --scope user`, `mem search --user`, recall's "You" section;
outside every project, written only when asked."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.cli.helpers import ok


@pytest.fixture
def user_home(tmp_path: Path) -> dict[str, str]:
    return {"MEM_HOME": str(tmp_path / "me")}


def git(project: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_user_entries_live_outside_the_project_and_its_git(mem, vault, user_home, tmp_path):
    project = vault.parent
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "vault")
    added = ok(
        mem(
            "add",
            "I prefer pytest over unittest.",
            "-k",
            "preference",
            "--scope",
            "user",
            env=user_home,
        )
    )
    assert "user vault" in added.stderr
    assert git(project, "status", "--porcelain", "--untracked-files=all") == ""
    stored = (tmp_path / "me" / "_shared" / "facts.md").read_text(encoding="utf-8")
    assert "I prefer pytest over unittest." in stored and "kind:preference" in stored


def test_search_user_searches_the_person_and_plain_search_the_project(mem, vault, user_home):
    ok(
        mem(
            "add",
            "Never force-push to shared branches.",
            "-c",
            "lessons",
            "--scope",
            "user",
            env=user_home,
        )
    )
    ok(
        mem(
            "add",
            "Deploys go through the release branch.",
            "-c",
            "facts",
            "-a",
            "dev",
            env=user_home,
        )
    )
    mine = ok(mem("search", "--user", "force-push", env=user_home))
    assert "Never force-push" in mine.stdout
    assert "Never force-push" not in mem("search", "force-push", env=user_home).stdout
    assert "release branch" not in mem("search", "--user", "release branch", env=user_home).stdout


def test_recall_has_a_short_you_section_task_matches_first(mem, vault, user_home):
    for text in (
        "I prefer small commits with imperative messages.",
        "Use pytest with plain asserts, never unittest classes.",
        "Answer in British English.",
        "Keep functions under 40 lines.",
        "Tabs, not spaces, in Go files only.",
    ):
        ok(mem("add", text, "-k", "preference", "--scope", "user", env=user_home))
    block = ok(mem("recall", "-a", "dev", "--task", "add pytest coverage", env=user_home)).stdout
    you = block.split("## You\n", 1)[1].split("\n#", 1)[0].split("</mem-recall>")[0]
    lines = [line for line in you.splitlines() if line.startswith("- ")]
    assert len(lines) == 4 and "pytest" in lines[0]


def test_no_user_vault_means_no_you_section_and_a_clear_search_error(mem, vault, user_home):
    ok(mem("add", "A project fact.", "-c", "facts", "-a", "dev", env=user_home))
    assert "## You" not in ok(mem("recall", "-a", "dev", env=user_home)).stdout
    missing = mem("search", "--user", "anything", env=user_home)
    assert missing.exit_code != 0 and "no user vault" in missing.stderr
    assert missing.stderr.count("\n") == 1


def test_a_user_vault_inside_the_project_is_refused(mem, vault):
    inside = {"MEM_HOME": str(vault.parent / "me")}
    refused = mem("add", "I like tea.", "--scope", "user", env=inside)
    assert refused.exit_code != 0 and "inside this project" in refused.stderr
    assert not (vault.parent / "me").exists()
    assert ok(mem("recall", "-a", "dev", env=inside)).exit_code == 0


def test_a_commit_never_writes_to_the_user_vault(mem, vault, user_home, tmp_path):
    ok(mem("add", "I prefer pytest.", "--scope", "user", env=user_home))
    before = {p: p.read_bytes() for p in (tmp_path / "me").rglob("*.md")}
    said = "I prefer tabs. We decided to use PostgreSQL because of JSONB.\n"
    ok(mem("commit", "-a", "dev", input=said, env=user_home))
    assert {p: p.read_bytes() for p in (tmp_path / "me").rglob("*.md")} == before


def test_without_mem_home_it_lives_under_the_xdg_data_folder(mem, vault, tmp_path):
    data = tmp_path / "data"
    ok(
        mem(
            "add",
            "I prefer rebase over merge.",
            "--scope",
            "user",
            env={"XDG_DATA_HOME": str(data)},
        )
    )
    assert "rebase" in (data / "mem" / "vault" / "_shared" / "facts.md").read_text()
    assert not (data / "mem" / "_shared").exists()  # install.sh's venv lives in data/mem/
