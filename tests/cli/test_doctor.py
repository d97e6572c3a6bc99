"""`mem doctor [--fix]`: malformed entries, duplicate ids, misplaced kinds, a stale index."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from mem.config import load_settings
from mem.services.add import add

from .helpers import (
    added_id,
    data,
    entry_block,
    messages,
    ok,
    read_only_mem,
    write_category_file,
)


def problems(result, exit_code=1):
    assert result.exit_code == exit_code, result.stderr
    return problems_of(data_of(result))


def problems_of(payload):
    return [(p["code"], p["path"], p["line"], p["fixed"]) for p in payload["problems"]]


def data_of(result):
    assert "Traceback" not in result.stderr
    payload = json.loads(result.stdout)
    assert payload["schema_version"] == 1
    return payload


def healthy_vault(mem):
    ok(mem("add", "Chose bcrypt", "-c", "decisions", "-a", "dev"))
    ok(mem("add", "Flaky test root cause: timezones", "-c", "lessons", "-a", "dev"))
    ok(mem("search", "bcrypt"))  # builds the index


def test_doctor_passes_a_healthy_vault(mem):
    healthy_vault(mem)
    result = ok(mem("doctor"))
    assert result.stdout == ""
    assert messages(result.stderr) == ["checked 2 entries in 2 files: healthy"]
    payload = data(mem("doctor", "--json"))
    assert payload == {
        "schema_version": 1,
        "problems": [],
        "warnings": [],
        "files_checked": 2,
        "entries_checked": 2,
        "healthy": True,
    }


def test_doctor_names_the_file_and_line_of_a_malformed_entry(mem, vault):
    healthy_vault(mem)
    write_category_file(
        vault,
        "dev/facts.md",
        "dev",
        "facts",
        entry_block("fine-1", "2026-11-01T10:00Z", "A good fact about logging."),
        "<!-- id:broken-1 kind:fact -->\n## yesterday afternoon\n\nNo date here.\n\n---\n\n",
        entry_block("fine-2", "2026-11-02T10:00Z", "Another good fact about tracing."),
    )
    ok(mem("search", "logging"))  # the index is current; only the malformed entry remains
    result = mem("doctor")
    assert result.exit_code == 1
    assert result.stdout == (
        "dev/facts.md:14: malformed_entry: entry heading must read `## DATE · #tags`\n"
    )
    assert "1 problem(s); `mem doctor --fix` repairs what is safe to repair" in result.stderr
    # --fix cannot repair it, so it still fails
    assert problems(mem("doctor", "--fix", "--json")) == [
        ("malformed_entry", "dev/facts.md", 14, False)
    ]
    # and the good entries around it still load
    found = data(mem("search", "logging tracing", "--json"))["hits"]
    assert {hit["id"] for hit in found} == {"fine-1", "fine-2"}


def test_doctor_fix_removes_an_identical_copy_left_by_a_union_merge(mem, vault):
    first = added_id(mem("add", "Use UTC everywhere", "-c", "decisions", "-a", "dev"))
    ok(mem("add", "Pin dependencies", "-c", "decisions", "-a", "dev"))
    path = vault / "dev" / "decisions.md"
    text = path.read_text()
    start = text.index(f"<!-- id:{first}")
    block = text[start : text.index("---\n", start) + 4] + "\n"
    path.write_text(text + block)  # both sides of a merge=union kept the entry
    assert path.read_text().count(f"id:{first}") == 2

    found = problems(mem("doctor", "--json"))
    assert ("duplicate_id", "dev/decisions.md", 20, False) in found
    duplicate = next(
        p for p in data_of(mem("doctor", "--json"))["problems"] if p["code"] == "duplicate_id"
    )
    assert "(identical copy)" in duplicate["message"]

    fixed = problems(mem("doctor", "--fix", "--json"), exit_code=0)
    assert ("duplicate_id", "dev/decisions.md", 20, True) in fixed
    assert path.read_text() == text
    ok(mem("doctor"))


def test_doctor_fix_renames_a_different_entry_that_reuses_an_id(mem, vault):
    write_category_file(
        vault,
        "dev/facts.md",
        "dev",
        "facts",
        entry_block("same-id", "2026-11-02T10:00Z", "Edited on branch A."),
        entry_block("same-id", "2026-11-01T10:00Z", "Edited on branch B."),
    )
    assert ("duplicate_id", "dev/facts.md", 13, False) in problems(mem("doctor", "--json"))
    ok(mem("doctor", "--fix"))
    bodies = {e["body"]: e["id"] for e in data(mem("list", "--json"))["entries"]}
    assert bodies["Edited on branch A."] == "same-id"
    assert bodies["Edited on branch B."] not in ("same-id", None)
    assert "Edited on branch B." in (vault / "dev" / "facts.md").read_text()


def test_doctor_fix_moves_an_entry_to_the_file_of_its_kind(mem, vault):
    healthy_vault(mem)
    write_category_file(
        vault,
        "dev/facts.md",
        "dev",
        "facts",
        entry_block(
            "misplaced", "2026-11-03T10:00Z", "Beware of the cron job at midnight.", kind="warning"
        ),
    )
    result = mem("doctor")
    assert result.exit_code == 1
    assert (
        "dev/facts.md:6: wrong_file: entry misplaced of kind warning is in facts; "
        "it belongs in lessons\n"
    ) in result.stdout

    fixed = ok(mem("doctor", "--fix"))
    assert "dev/facts.md:6: fixed: " in fixed.stdout and "moved it to lessons" in fixed.stdout
    assert "misplaced" not in (vault / "dev" / "facts.md").read_text()
    assert "<!-- id:misplaced kind:warning -->" in (vault / "dev" / "lessons.md").read_text()
    shown = data(mem("show", "misplaced", "--json"))["entry"]
    assert (shown["category"], shown["path"]) == ("lessons", "dev/lessons.md")
    ok(mem("doctor"))


def test_doctor_says_what_fix_would_do_to_a_stale_index_and_fix_does_it(mem, vault):
    healthy_vault(mem)
    path = vault / "dev" / "decisions.md"
    path.write_text(path.read_text().replace("Chose bcrypt", "Chose scrypt for hashing"))
    before = tree(vault)
    result = mem("doctor")
    assert result.exit_code == 1 and "fixed" not in result.stdout
    assert result.stdout == (
        ".mem/index: stale_index: 1 file(s) changed since indexed; "
        "`mem doctor --fix` would reindex them\n"
    )
    assert problems(mem("doctor", "--json")) == [("stale_index", ".mem/index", 0, False)]
    assert tree(vault) == before  # without --fix, doctor writes nothing
    assert problems(mem("doctor", "--fix", "--json"), exit_code=0) == [
        ("stale_index", ".mem/index", 0, True)
    ]
    assert data(mem("doctor", "--json"))["problems"] == []
    assert len(data(mem("search", "scrypt", "--json"))["hits"]) == 1


def tree(folder):
    """Every file under `folder`, machine-local state included."""
    return {path: path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_doctor_checks_a_read_only_vault_and_only_fix_needs_write_access(mem, vault):
    healthy_vault(mem)
    path = vault / "dev" / "decisions.md"
    path.write_text(path.read_text().rstrip().removesuffix("---") + "\n")  # stale, unclosed
    before = tree(vault)
    checked = read_only_mem(vault, "doctor", "--json")
    assert checked.returncode == 1, checked.stderr
    assert "Traceback" not in checked.stderr
    assert problems_of(json.loads(checked.stdout)) == [
        ("missing_separator", "dev/decisions.md", 6, False),
        ("stale_index", ".mem/index", 0, False),
    ]
    fixing = read_only_mem(vault, "doctor", "--fix")
    assert fixing.returncode == 1 and fixing.stdout == ""
    assert messages(fixing.stderr) == [
        "mem: cannot write dev/decisions.md: the vault is read-only (Read-only file system); "
        + "check its permissions or mount"
    ]
    assert tree(vault) == before


def test_doctor_fix_restores_a_missing_superseded_by_link(mem, vault):
    write_category_file(
        vault,
        "dev/decisions.md",
        "dev",
        "decisions",
        entry_block("newer", "2026-11-02T10:00Z", "Use argon2.", supersedes="older"),
        entry_block("older", "2026-11-01T10:00Z", "Use bcrypt."),
    )
    assert ("supersedes", "dev/decisions.md", 13, False) in problems(mem("doctor", "--json"))
    ok(mem("doctor", "--fix"))
    assert "<!-- id:older superseded-by:newer -->" in (vault / "dev/decisions.md").read_text()


def every_body(vault):
    return sorted(
        line
        for path in vault.rglob("*.md")
        if ".mem" not in path.parts and path.name not in ("README.md", "_project.md")
        for line in path.read_text().splitlines()
        if line.startswith("BODY-")
    )


def test_doctor_fix_loses_nothing_when_a_duplicate_id_is_also_in_the_wrong_file(mem, vault):
    write_category_file(
        vault,
        "dev/decisions.md",
        "dev",
        "decisions",
        entry_block("x1", "2026-11-01T10:00Z", "BODY-AAA", kind="fact"),
    )
    # No frontmatter: fixing it shifts every line of the file before the other fixes run.
    (vault / "dev" / "facts.md").write_text(entry_block("x1", "2026-11-02T10:00Z", "BODY-BBB"))
    for _ in range(3):
        mem("doctor", "--fix")
    assert every_body(vault) == ["BODY-AAA", "BODY-BBB"]
    assert data(mem("doctor", "--json"))["healthy"] is True


def test_doctor_fix_keeps_an_identical_copy_in_another_agents_file(mem, vault):
    block = entry_block("same1", "2026-11-01T10:00Z", "BODY-SHARED-TEXT")
    write_category_file(vault, "alice/facts.md", "alice", "facts", block)
    write_category_file(vault, "bob/facts.md", "bob", "facts", block)
    mem("doctor", "--fix")
    assert every_body(vault) == ["BODY-SHARED-TEXT", "BODY-SHARED-TEXT"]


def test_a_temp_file_of_a_dead_writer_is_reported_and_removed_and_git_ignores_it(
    mem, vault, tmp_path
):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    leftover = vault / "dev" / f".lessons.md.{dead.stdout.strip()}-1a2b3c4d.tmp"
    leftover.parent.mkdir(parents=True, exist_ok=True)
    leftover.write_text("half of a write")
    live = vault / "dev" / f".facts.md.{os.getpid()}-5e6f7a8b.tmp"  # a write in progress
    live.write_text("being written")
    report = mem("doctor", "--json")
    assert report.exit_code == 1
    problems = json.loads(report.stdout)["problems"]
    assert [(p["code"], p["path"]) for p in problems] == [
        ("temp_file", leftover.relative_to(vault).as_posix())
    ]
    ok(mem("doctor", "--fix"))
    assert not leftover.exists() and live.exists()
    subprocess.run(["git", "init", "-q"], cwd=vault.parent, check=True)
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", str(live)], cwd=vault.parent, check=False
    )
    assert ignored.returncode == 0


def test_a_save_kept_beside_a_file_is_reported_and_fix_never_deletes_it(mem, vault):
    kept = vault / "dev" / "lessons.md.kept-1a2b3c"
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text("an editor's second save")
    report = mem("doctor", "--json")
    assert report.exit_code == 1
    problems = json.loads(report.stdout)["problems"]
    assert [(p["code"], p["path"]) for p in problems] == [
        ("kept_save", "dev/lessons.md.kept-1a2b3c")
    ]
    assert "lessons.md" in problems[0]["message"]
    assert mem("doctor", "--fix").exit_code == 1
    assert kept.read_text() == "an editor's second save"


def test_a_vault_whose_gitignore_predates_temp_files_gets_the_rule(mem, vault):
    (vault / ".gitignore").write_text("# Machine-local state.\n.mem/\n")
    report = json.loads(mem("doctor", "--json").stdout)
    assert [p["code"] for p in report["problems"]] == ["gitignore"]
    ok(mem("doctor", "--fix"))
    assert (vault / ".gitignore").read_text().endswith(".*.tmp\n")
    ok(mem("doctor"))


def git(folder, *args):
    return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True)


def test_a_union_merge_that_doubled_a_header_line_is_merged_by_fix(mem, vault):
    project = vault.parent
    git(project, "init", "-q", "-b", "main")
    git(project, "config", "user.email", "t@example.com")
    git(project, "config", "user.name", "t")
    cause = "The root cause was a stale session cookie left by the old domain."

    def session(name: str) -> str:  # each session's own summary, so handoffs differ
        return f"SUMMARY: Session {name} looked into the login loop.\n\n{cause}\n"

    ok(mem("commit", "-a", "dev", input=session("one")))
    git(project, "add", "-A")
    git(project, "commit", "-qm", "first")
    git(project, "checkout", "-qb", "other")
    ok(mem("commit", "-a", "dev", input=session("two")))
    git(project, "commit", "-qam", "reinforced on other")
    git(project, "checkout", "-q", "main")
    for name in ("three", "four"):
        ok(mem("commit", "-a", "dev", input=session(name)))
    git(project, "commit", "-qam", "reinforced twice on main")
    git(project, "merge", "-q", "other", "-m", "merge")  # .gitattributes: merge=union
    lessons = vault / "dev" / "lessons.md"
    assert lessons.read_text().count("<!-- id:") == 2  # one entry, its header line twice
    report = json.loads(mem("doctor", "--json").stdout)
    in_lessons = [p["code"] for p in report["problems"] if p["path"] == "dev/lessons.md"]
    assert in_lessons == ["duplicate_header"]
    ok(mem("doctor", "--fix"))
    text = lessons.read_text()
    assert text.count("<!-- id:") == 1 and "reinforced:2" in text and cause in text
    ok(mem("doctor"))
    assert data(mem("search", "stale session cookie", "--json"))["hits"]


def test_a_union_merge_that_folded_two_entries_over_one_body_gives_each_its_own(mem, vault):
    """Both branches added the same text in the same minute: git kept both header lines over
    the one heading and body they share, and the first entry vanished from every list."""
    project = vault.parent
    git(project, "init", "-q", "-b", "main")
    git(project, "config", "user.email", "t@example.com")
    git(project, "config", "user.name", "t")
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    moment = datetime(2026, 3, 4, 10, 30, tzinfo=UTC)
    add(settings, "Sessions live in Redis", "facts", now=moment - timedelta(days=1))
    git(project, "add", "-A")
    git(project, "commit", "-qm", "first")
    git(project, "checkout", "-qb", "other")
    theirs = add(settings, "Deploys go out on Tuesdays", "facts", now=moment)
    git(project, "commit", "-qam", "added on other")
    git(project, "checkout", "-q", "main")
    ours = add(settings, "Deploys go out on Tuesdays", "facts", now=moment + timedelta(seconds=5))
    git(project, "commit", "-qam", "added on main")
    git(project, "merge", "-q", "other", "-m", "merge")  # .gitattributes: merge=union
    facts = vault / "dev" / "facts.md"
    assert facts.read_text().count("Deploys go out on Tuesdays") == 1  # one body, two headers
    report = json.loads(mem("doctor", "--json").stdout)
    assert [p["code"] for p in report["problems"]] == ["shared_body"]
    ok(mem("doctor", "--fix"))
    assert facts.read_text().count("Deploys go out on Tuesdays") == 2
    listed = {hit["id"] for hit in data(mem("list", "-a", "dev", "--json"))["entries"]}
    assert {ours.id, theirs.id} <= listed and len(listed) == 3
    ok(mem("doctor"))  # healthy: nothing lost, nothing left to fix


def test_a_compaction_stopped_midway_is_finished_by_fix_never_renamed(mem, vault):
    """A kill between the archive's write and the hot file's leaves each moved entry in both:
    --fix finishes the move (as the next `mem compact` would), never copies it under a new id."""
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    moment = datetime(2026, 3, 4, 10, 30, tzinfo=UTC)
    old = [add(settings, f"Old lesson {n} about caching", "lessons", now=moment) for n in range(3)]
    kept = add(settings, "Fresh lesson about retries", "lessons", now=moment + timedelta(days=9))
    hot = vault / "dev" / "lessons.md"
    text = hot.read_text()
    blocks = [text[text.index(f"<!-- id:{e.id}") :].split("---\n", 1)[0] + "---\n\n" for e in old]
    blocks[0] = blocks[0].replace("Old lesson 0", "Old lesson 0, as first archived")
    archive = vault / "dev" / "archive" / "lessons.md"
    archive.parent.mkdir(exist_ok=True)
    archive.write_text("---\nagent: dev\ncategory: lessons\n---\n\n" + "".join(blocks))
    report = json.loads(mem("doctor", "--json").stdout)
    assert sorted(p["code"] for p in report["problems"]) == ["interrupted_move"] * 3
    ok(mem("doctor", "--fix"))
    assert kept.id in hot.read_text() and all(e.id not in hot.read_text() for e in old)
    archived = archive.read_text()
    assert all(archived.count(e.id) == 1 for e in old)
    assert "Old lesson 0 about caching" in archived  # the file's copy, the later, won
    listed = data(mem("list", "-a", "dev", "--all", "--json"))["entries"]
    assert sorted(e["id"] for e in listed) == sorted([kept.id, *(e.id for e in old)])
    ok(mem("doctor"))
    ok(mem("compact"))
    assert sorted(
        e["id"] for e in data(mem("list", "-a", "dev", "--all", "--json"))["entries"]
    ) == (sorted([kept.id, *(e.id for e in old)]))


def test_a_compaction_finishing_a_stopped_move_keeps_the_files_later_copy(mem, vault):
    """As doctor --fix does: an entry edited in its file after a stopped move is archived as
    the file has it, not as the archive's older copy has it."""
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    moment = datetime(2026, 3, 4, 10, 30, tzinfo=UTC)
    entry = add(settings, "The API listens on port 8081", "lessons", now=moment)
    hot = vault / "dev" / "lessons.md"
    text = hot.read_text()
    block = text[text.index(f"<!-- id:{entry.id}") :].split("---\n", 1)[0] + "---\n\n"
    archive = vault / "dev" / "archive" / "lessons.md"
    archive.parent.mkdir(exist_ok=True)
    head = "---\nagent: dev\ncategory: lessons\n---\n\n"
    archive.write_text(head + block.replace("8081", "8080"))  # archived before the edit
    ok(mem("compact"))
    assert entry.id not in hot.read_text()
    archived = archive.read_text()
    assert archived.count(entry.id) == 1 and "port 8081" in archived and "8080" not in archived


@pytest.mark.parametrize(
    ("damage", "line"),
    [
        (
            "A note between entries, written by hand.\n\n",
            "A note between entries, written by hand.",
        ),
        (
            "<!-- idd:typo1 kind:decision -->\n## 2026-01-02T00:00Z\n\nThe header is mistyped.\n\n---\n\n",
            "The header is mistyped.",
        ),
        ("## 2026-01-02T00:00Z\n\nIts header was deleted.\n\n---\n\n", "Its header was deleted."),
    ],
)
def test_text_that_belongs_to_no_entry_is_reported_with_its_line_and_kept(mem, vault, damage, line):
    first = entry_block("20260103-000000-aaaaaa", "2026-01-03T00:00Z", "First decision.")
    last = entry_block("20260101-000000-bbbbbb", "2026-01-01T00:00Z", "Last decision.")
    path = write_category_file(vault, "dev/decisions.md", "dev", "decisions", first, damage, last)
    before = path.read_bytes()
    result = mem("doctor", "--json")
    assert result.exit_code == 1
    (problem,) = json.loads(result.stdout)["problems"]
    assert problem["code"] == "stray_text" and problem["path"] == "dev/decisions.md"
    assert path.read_text().splitlines()[problem["line"] - 1] == line
    ok(mem("add", "Newest decision.", "-c", "decisions", "-a", "dev"))
    assert before[before.index(b"<!-- id:20260103") :] in path.read_bytes()  # kept, byte for byte


def test_doctor_says_which_entries_left_a_file_since_the_index_saw_them(mem, vault):
    """An editor that saves a copy it read before a write of mem's takes that write's entry
    away; no write of mem's can see it. The index last saw the entry: doctor says so."""
    kept = added_id(mem("add", "Deploys go out on Tuesdays", "-a", "dev"))
    gone = added_id(mem("add", "The cache lives for an hour", "-a", "dev"))
    ok(mem("search", "cache"))  # the index sees both
    path = vault / "dev" / "facts.md"
    text = path.read_text()
    start = text.index(f"<!-- id:{gone}")
    path.write_text(text[:start] + text[text.index("---\n", start) + 5 :])  # an older copy
    checked = mem("doctor", "--json")
    report = json.loads(checked.stdout)
    vanished = [p for p in report["problems"] if p["code"] == "vanished_entry"]
    assert checked.exit_code == 1 and len(vanished) == 1 and vanished[0]["path"] == "dev/facts.md"
    assert gone in vanished[0]["message"] and kept not in vanished[0]["message"]
    ok(mem("doctor", "--fix"))
    ok(mem("doctor"))  # accepted as the file now is


def test_an_entry_a_merged_compaction_moved_to_the_archive_has_not_vanished(mem, vault):
    """A teammate's compaction, merged in: the entry left the hot file for its archive, which
    the index has not seen yet. It moved; nothing was lost, and doctor must not say so."""
    moved = added_id(mem("add", "The cache lives for an hour", "-a", "dev"))
    ok(mem("add", "Deploys go out on Tuesdays", "-a", "dev"))
    ok(mem("search", "cache"))  # the index sees both in dev/facts.md
    path = vault / "dev" / "facts.md"
    text = path.read_text()
    start = text.index(f"<!-- id:{moved}")
    end = text.index("---\n", start) + 5
    archive = vault / "dev" / "archive" / "facts.md"
    archive.parent.mkdir(parents=True, exist_ok=True)
    archive.write_text(text[: text.index("<!-- id:")] + text[start:end])
    path.write_text(text[:start] + text[end:])
    report = json.loads(mem("doctor", "--json").stdout)
    assert [p["code"] for p in report["problems"]] == ["stale_index"]


def test_doctor_fix_links_back_an_entry_whose_stopped_move_it_just_finished(mem, vault):
    """A merge of a branch that compacted (the entry archived, `superseded-by:` its survivor)
    with one that edited the entry: the file's edited copy wins the move, and the link it did
    not have is restored on the archived entry, where it now is."""
    survivor = entry_block("newer", "2026-11-02T10:00Z", "Use argon2.", supersedes="older")
    older = entry_block("older", "2026-11-01T10:00Z", "Use bcrypt.", superseded_by="newer")
    edited = entry_block("older", "2026-11-01T10:00Z", "Use bcrypt, edited.")
    write_category_file(vault, "dev/decisions.md", "dev", "decisions", survivor, edited)
    write_category_file(vault, "dev/archive/decisions.md", "dev", "decisions", older)
    fixing = mem("doctor", "--fix")
    assert fixing.exit_code == 0, fixing.stderr
    archived = (vault / "dev/archive/decisions.md").read_text()
    assert "<!-- id:older superseded-by:newer -->" in archived and "bcrypt, edited" in archived
    assert "older" not in (vault / "dev/decisions.md").read_text().replace("supersedes:older", "")
    ok(mem("doctor"))


@pytest.mark.parametrize("with_heading", [False, True])
def test_a_union_merge_that_put_entries_between_a_header_and_its_body_is_joined_by_fix(
    mem, vault, with_heading
):
    """This branch changed an entry's header (forgot it), the merged one added an entry just
    above it: git kept the header line here, the new entry, then the header again over the body.
    --fix keeps one entry under its id, forgotten, and the new one; nothing renamed or lost."""
    project = vault.parent
    git(project, "init", "-q", "-b", "main")
    git(project, "config", "user.email", "t@example.com")
    git(project, "config", "user.name", "t")
    old = added_id(mem("add", "Chose bcrypt for passwords", "-c", "decisions", "-a", "dev"))
    git(project, "add", "-A")
    git(project, "commit", "-qm", "first")
    git(project, "checkout", "-qb", "other")
    new = added_id(mem("add", "Chose argon2 for tokens", "-c", "decisions", "-a", "dev"))
    git(project, "commit", "-qam", "added on other")
    git(project, "checkout", "-q", "main")
    ok(mem("forget", old, "-a", "dev"))
    git(project, "commit", "-qam", "forgot it on main")
    git(project, "merge", "-q", "other", "-m", "merge")  # .gitattributes: merge=union
    decisions = vault / "dev" / "decisions.md"
    text = decisions.read_text()
    assert text.count(f"<!-- id:{old}") == 2 and text.index(f"id:{old}") < text.index(new)
    if with_heading:  # the other shape: the header and its heading above the new entry
        heading = text[text.index("## ", text.index(f"id:{old}")) :].split("\n", 1)[0]
        first_line = text.index("\n", text.index(f"id:{old}")) + 1
        decisions.write_text(text[:first_line] + heading + "\n" + text[first_line:])
    report = json.loads(mem("doctor", "--json").stdout)
    assert [p["code"] for p in report["problems"] if p["path"] == "dev/decisions.md"] == [
        "duplicate_header"
    ]
    ok(mem("doctor", "--fix"))
    text = decisions.read_text()
    assert text.count("<!-- id:") == 2 and text.count(f"id:{old}") == 1
    assert "superseded-by:forgotten" in text and "Chose bcrypt" in text and "argon2" in text
    ok(mem("doctor"))
    assert {e["id"] for e in data(mem("list", "-a", "dev", "--all", "--json"))["entries"]} == {
        old,
        new,
    }


def test_doctor_fix_finishes_a_stopped_move_of_an_entry_whose_doubled_header_it_merged(mem, vault):
    """A merge doubled the header of an entry the other branch had archived: one --fix merges
    the header lines, then finishes the move with the entry as it now reads."""
    doubled = entry_block("moved", "2026-11-01T10:00Z", "Use bcrypt.", reinforced="2")
    doubled = '<!-- id:moved reinforced:1 seen:"2026-11-03T10:00:00Z" -->\n' + doubled
    archived = entry_block("moved", "2026-11-01T10:00Z", "Use bcrypt.", reinforced="1")
    stays = entry_block("stays", "2026-11-02T10:00Z", "Use argon2.")
    write_category_file(vault, "dev/decisions.md", "dev", "decisions", stays, doubled)
    write_category_file(vault, "dev/archive/decisions.md", "dev", "decisions", archived)
    ok(mem("doctor", "--fix"))
    assert "moved" not in (vault / "dev/decisions.md").read_text()
    archive = (vault / "dev/archive/decisions.md").read_text()
    assert archive.count("<!-- id:moved") == 1 and "reinforced:2" in archive and "seen:" in archive
    ok(mem("doctor"))


@pytest.mark.parametrize("command", [("doctor", "--fix"), ("compact",)])
def test_finishing_a_move_keeps_a_forget_only_the_archived_copy_has(mem, vault, command):
    """A merge of a branch that forgot and archived an entry with one that reinforced it in
    its file: the move is finished with the file's copy, and the forget still stands."""
    hot = entry_block("fact1", "2026-10-01T10:00Z", "Use bcrypt.", reinforced="3")
    archived = entry_block(
        "fact1", "2026-10-01T10:00Z", "Use bcrypt.", reinforced="2", superseded_by="forgotten"
    )
    write_category_file(vault, "dev/decisions.md", "dev", "decisions", hot)
    write_category_file(vault, "dev/archive/decisions.md", "dev", "decisions", archived)
    ok(mem(*command))
    archive = (vault / "dev/archive/decisions.md").read_text()
    assert "<!-- id:fact1 reinforced:3 superseded-by:forgotten -->" in archive
    assert "fact1" not in (vault / "dev/decisions.md").read_text()
    ok(mem("doctor"))
