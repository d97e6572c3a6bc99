"""`mem init`: a vault at the git root, shared by subfolders and worktrees, safe to re-run."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .helpers import data, failed, ok, snapshot

TEMPLATE_FILES = {".gitattributes", ".gitignore", "README.md", "_project.md", "mem.toml"}
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "init.defaultBranch=main", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


def make_repo(root: Path) -> Path:
    root.mkdir()
    git(root, "init", "-q")
    git(root, "commit", "-q", "--allow-empty", "-m", "start")
    return root


def test_init_creates_the_vault_in_a_plain_folder_and_says_it_is_not_in_git(run_mem, tmp_path):
    project = tmp_path / "plain"
    project.mkdir()
    result = ok(run_mem("init", cwd=project))
    vault = project / ".memory"
    assert result.stdout == f"{vault}\n"
    assert result.stderr == (
        f"vault ready at {vault} ({len(TEMPLATE_FILES)} files created)\n"
        f"{project} is not in a git repository, so the vault is in that folder "
        "(inside one, it goes at the repository's root)\n"
    )
    assert {p.name for p in vault.iterdir()} == TEMPLATE_FILES
    assert 'default_agent = "main"' in (vault / "mem.toml").read_text()


def test_init_json_lists_the_files_it_created(run_mem, tmp_path):
    payload = data(run_mem("init", "--json"))
    assert payload == {
        "schema_version": 1,
        "vault": str(tmp_path / ".memory"),
        "created": sorted(TEMPLATE_FILES),
        "already_existed": False,
    }


def test_init_in_a_subfolder_of_a_git_repo_creates_the_vault_at_the_git_root(run_mem, tmp_path):
    repo = make_repo(tmp_path / "repo")
    deep = repo / "src" / "deep"
    deep.mkdir(parents=True)
    said = ok(run_mem("init", cwd=deep)).stderr  # nothing to warn of: it is at the git root
    assert said == f"vault ready at {repo / '.memory'} ({len(TEMPLATE_FILES)} files created)\n"
    payload = data(run_mem("init", "--json", cwd=deep))
    assert payload["vault"] == str(repo / ".memory")
    assert (repo / ".memory" / "mem.toml").is_file()
    assert not (deep / ".memory").exists()
    assert not (repo / "src" / ".memory").exists()
    # and a command run from the subfolder finds it
    ok(run_mem("add", "Subfolders share the root vault", "--agent", "dev", cwd=deep))
    assert "Subfolders share" in (repo / ".memory" / "dev" / "facts.md").read_text()


def test_a_linked_worktree_uses_the_main_checkouts_vault(run_mem, tmp_path):
    repo = make_repo(tmp_path / "repo")
    ok(run_mem("init", cwd=repo))
    worktree = tmp_path / "feature"
    git(repo, "worktree", "add", "-q", str(worktree))
    assert (worktree / ".git").is_file()  # a real linked worktree

    again = data(run_mem("init", "--json", cwd=worktree))
    assert again["vault"] == str(repo / ".memory")
    assert again["created"] == [] and again["already_existed"] is True
    assert not (worktree / ".memory").exists()

    ok(run_mem("add", "Written from the worktree", "--agent", "dev", cwd=worktree))
    assert "Written from the worktree" in (repo / ".memory" / "dev" / "facts.md").read_text()
    assert not (worktree / ".memory").exists()


def test_a_worktree_with_the_vault_committed_still_uses_the_main_checkouts(run_mem, tmp_path):
    repo = make_repo(tmp_path / "repo")
    ok(run_mem("init", cwd=repo))
    ok(run_mem("add", "Committed before branching", "--agent", "dev", cwd=repo))
    git(repo, "add", ".memory")
    git(repo, "commit", "-q", "-m", "memory")
    worktree = tmp_path / "feature"
    git(repo, "worktree", "add", "-q", str(worktree))
    assert (worktree / ".memory" / "mem.toml").is_file()  # checked out in the worktree too

    ok(run_mem("add", "Written from the worktree", "--agent", "dev", cwd=worktree / ".memory"))
    assert "Written from the worktree" in (repo / ".memory" / "dev" / "facts.md").read_text()
    assert (
        "Written from the worktree" not in (worktree / ".memory" / "dev" / "facts.md").read_text()
    )


def test_init_again_creates_nothing_and_overwrites_nothing(run_mem, tmp_path):
    ok(run_mem("init"))
    vault = tmp_path / ".memory"
    toml = vault / "mem.toml"
    toml.write_text(toml.read_text().replace('default_agent = "main"', 'default_agent = "dev"'))
    (vault / "_project.md").write_text("Our own project notes.\n")
    before = snapshot(vault)

    payload = data(run_mem("init", "--json"))
    assert payload["created"] == [] and payload["already_existed"] is True
    human = ok(run_mem("init"))
    assert human.stderr == f"vault already set up at {vault}; nothing changed\n"
    assert snapshot(vault) == before


def test_init_restores_a_deleted_template_file_only(run_mem, tmp_path):
    ok(run_mem("init"))
    vault = tmp_path / ".memory"
    (vault / ".gitignore").unlink()
    (vault / "README.md").write_text("mine\n")
    payload = data(run_mem("init", "--json"))
    assert payload["created"] == [".gitignore"]
    assert payload["already_existed"] is True
    assert (vault / "README.md").read_text() == "mine\n"


def test_init_with_a_path_or_vault_flag_creates_it_there(run_mem, tmp_path):
    (tmp_path / "other").mkdir()
    assert data(run_mem("init", "other", "--json"))["vault"] == str(tmp_path / "other" / ".memory")
    elsewhere = tmp_path / "custom-vault"
    assert "git" not in ok(run_mem("--vault", str(elsewhere), "init")).stderr  # asked for there
    assert data(run_mem("--vault", str(elsewhere), "init", "--json"))["vault"] == str(elsewhere)
    assert (elsewhere / "mem.toml").is_file()


def test_init_on_a_missing_folder_fails_with_a_message(run_mem, tmp_path):
    message = failed(run_mem("init", "no-such-folder"), 1)
    assert "no-such-folder" in message and "not a folder" in message
    assert not (tmp_path / "no-such-folder").exists()
