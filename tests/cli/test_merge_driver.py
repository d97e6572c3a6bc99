"""`mem init` has git merge category files entry by entry (the union driver of the clone): a
real git merge that git's own union merge gets wrong, and a file of the project's own that
still merges by union."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from mem.services.init import MERGE_DRIVER
from mem.vault import entries as codec

WEEK = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def environment() -> dict[str, str]:
    # git runs `mem merge-driver` from the PATH, as it would for a user who installed mem.
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return {
        **os.environ,
        "PATH": path,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }


def git(repo: Path, *words: str) -> str:
    done = subprocess.run(
        ["git", *words], cwd=repo, env=environment(), capture_output=True, text=True, check=True
    )
    return done.stdout


def block(entry_id: str, body: str, *pairs: tuple[str, str], at: datetime = WEEK) -> str:
    return codec.render_entry(entry_id, at, (), body, (("kind", "handoff"), *pairs))


def merged_handoffs(repo: Path) -> codec.ParsedFile:
    """Branches that git's union merge splices: a roll-up of h1 and h2 on one, a new session
    on the other; returns the handoffs file after `git merge`."""
    path = repo / ".memory" / "dev" / "handoffs.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    head = codec.new_file_text("dev", "handoffs")
    first, second = block("h1", "session 1 fixed the build"), block("h2", "session 2 fixed auth")
    path.write_text(head + first + second)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "other")
    later = datetime(2026, 11, 20, tzinfo=UTC)
    path.write_text(head + block("h3", "session 3 fixed the login", at=later) + first + second)
    git(repo, "commit", "-qam", "a new session")
    git(repo, "checkout", "-q", "-")
    path.write_text(head + block("r1", "2 session(s) of week 2026-W45", ("rollup", "2026-W45")))
    git(repo, "commit", "-qam", "compacted")
    git(repo, "merge", "-q", "other", "-m", "merge")
    return codec.parse_file(path.read_text(), "dev/handoffs.md", "dev", "handoffs")


def new_repo(tmp_path: Path, name: str) -> Path:
    repo = tmp_path / name
    repo.mkdir()
    git(repo, "init", "-q")
    subprocess.run(
        [sys.executable, "-m", "mem", "init"],
        cwd=repo,
        env=environment(),
        check=True,
        capture_output=True,
    )
    return repo


def test_init_sets_the_driver_and_a_merge_keeps_every_header_on_its_body(tmp_path):
    repo = new_repo(tmp_path, "driver")
    assert git(repo, "config", "--get", "merge.union.driver").strip() == MERGE_DRIVER
    parsed = merged_handoffs(repo)
    assert parsed.problems == ()
    assert {e.id: e.body for e in parsed.entries} == {
        "h3": "session 3 fixed the login",
        "r1": "2 session(s) of week 2026-W45",
    }


def test_without_the_driver_git_union_merge_splices_the_entries(tmp_path):
    # What the driver is for: the same branches merged by git's own union merge.
    repo = new_repo(tmp_path, "union")
    git(repo, "config", "--remove-section", "merge.union")
    parsed = merged_handoffs(repo)
    bodies = {e.id: e.body for e in parsed.entries}
    assert parsed.problems or bodies != {
        "h3": "session 3 fixed the login",
        "r1": "2 session(s) of week 2026-W45",
    }


def test_a_projects_own_union_file_still_merges_by_union(tmp_path):
    repo = new_repo(tmp_path, "own")
    (repo / ".gitattributes").write_text("CHANGES.txt merge=union\n")
    changes = repo / "CHANGES.txt"
    changes.write_text("one\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "other")
    changes.write_text("one\ntheirs\n")
    git(repo, "commit", "-qam", "theirs")
    git(repo, "checkout", "-q", "-")
    changes.write_text("one\nours\n")
    git(repo, "commit", "-qam", "ours")
    git(repo, "merge", "-q", "other", "-m", "merge")
    assert changes.read_text() == "one\nours\ntheirs\n"


def test_doctor_warns_of_a_clone_without_the_driver_and_fix_sets_it(tmp_path):
    repo = new_repo(tmp_path, "clone")
    git(repo, "config", "--remove-section", "merge.union")

    def doctor(*flags: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mem", "doctor", "--json", *flags],
            cwd=repo,
            env=environment(),
            capture_output=True,
            text=True,
            check=False,
        )

    report = doctor()
    assert report.returncode == 0  # a warning sets no exit status
    warnings = [w["code"] for w in json.loads(report.stdout)["warnings"]]
    assert warnings == ["merge_driver"]
    doctor("--fix")
    assert git(repo, "config", "--get", "merge.union.driver").strip() == MERGE_DRIVER
    assert json.loads(doctor().stdout)["warnings"] == []
