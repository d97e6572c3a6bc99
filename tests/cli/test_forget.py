"""`mem forget`: supersede an entry with a reason; its text stays in the file."""

from __future__ import annotations

import re

from .helpers import (
    added_id,
    data,
    entry_block,
    error_payload,
    messages,
    ok,
    write_category_file,
)


def test_forget_hides_the_entry_but_keeps_its_text(mem, vault):
    entry_id = added_id(mem("add", "The build runs on Jenkins", "-c", "decisions", "-a", "dev"))
    assert len(data(mem("search", "jenkins", "--json"))["hits"]) == 1

    result = ok(mem("forget", entry_id[:-1], "--reason", "we  moved to\nGitHub Actions"))
    assert result.stdout == ""
    assert messages(result.stderr) == [
        f"forgot {entry_id} in dev/decisions.md (kept in the file, hidden from search and recall)"
    ]
    text = (vault / "dev" / "decisions.md").read_text()
    assert re.search(
        rf"<!-- id:{entry_id} kind:decision superseded-by:forgotten "
        r'forgotten:\d{4}-\d\d-\d\dT\d\d:\d\dZ reason:"we moved to GitHub Actions" -->',
        text,
    ), text
    assert "The build runs on Jenkins" in text

    assert data(mem("search", "jenkins", "--json"))["hits"] == []
    assert data(mem("list", "--json"))["entries"] == []
    shown = data(mem("search", "jenkins", "--all", "--json"))["hits"]
    assert [(hit["id"], hit["superseded_by"]) for hit in shown] == [(entry_id, "forgotten")]


def test_forget_json_reports_the_updated_entry(mem):
    entry_id = added_id(mem("add", "Use tabs", "-c", "facts", "-k", "convention", "-a", "dev"))
    entry = data(mem("forget", entry_id, "--json"))["entry"]
    assert entry["id"] == entry_id
    assert entry["superseded_by"] == "forgotten"
    assert set(entry["header"]) == {"kind", "superseded-by", "forgotten"}


def test_forget_keeps_the_successor_of_a_superseded_entry(mem, vault):
    write_category_file(
        vault,
        "dev/decisions.md",
        "dev",
        "decisions",
        entry_block("new-choice", "2026-11-02T10:00Z", "Use argon2"),
        entry_block("old-choice", "2026-11-01T10:00Z", "Use bcrypt", superseded_by="new-choice"),
    )
    entry = data(mem("forget", "old-choice", "--json"))["entry"]
    assert entry["superseded_by"] == "new-choice"


def test_forget_touches_only_the_header_line(mem, vault):
    write_category_file(
        vault,
        "dev/lessons.md",
        "dev",
        "lessons",
        entry_block("keep-a", "2026-11-02T10:00Z", "Hand-written   spacing\n\n\n  stays."),
        entry_block("drop-b", "2026-11-01T10:00Z", "This one goes."),
    )
    path = vault / "dev" / "lessons.md"
    before = path.read_text().splitlines()
    ok(mem("forget", "drop-b"))
    after = path.read_text().splitlines()
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert [before[i] for i in changed] == ["<!-- id:drop-b -->"]


def test_forget_refuses_an_id_two_entries_share_and_names_both(mem, vault):
    # A git merge of two branches can leave one id on two different entries.
    same = "20261101-100000-abcdef"
    write_category_file(
        vault,
        "dev/decisions.md",
        "dev",
        "decisions",
        entry_block(same, "2026-11-01T10:00Z", "Use bcrypt."),
        entry_block(same, "2026-11-01T10:00Z", "Use Postgres for billing."),
    )
    write_category_file(
        vault, "qa/lessons.md", "qa", "lessons", entry_block(same, "2026-11-02T10:00Z", "Retry.")
    )
    before = {path: path.read_bytes() for path in vault.rglob("*.md")}
    message = error_payload(mem("forget", "abcdef", "--json"), 1, "duplicate_id")
    assert message == (
        f"mem: id {same} is used by 3 entries (dev/decisions.md:6, dev/decisions.md:13, "
        "qa/lessons.md:6); run `mem doctor --fix` to tell them apart (a second entry gets a "
        "new id, an identical copy is dropped, a stopped compaction is finished), then name "
        "the one you mean"
    )
    assert {path: path.read_bytes() for path in vault.rglob("*.md")} == before
    ok(mem("doctor", "--fix"))
    ok(mem("forget", same))
    assert len(data(mem("list", "--json"))["entries"]) == 2


def test_edit_and_task_done_refuse_an_id_two_entries_share_too(mem, vault):
    same = "20261101-100000-abcdef"
    write_category_file(
        vault,
        "dev/tasks.md",
        "dev",
        "tasks",
        entry_block(same, "2026-11-01T10:00Z", "- [ ] Rotate the keys"),
        entry_block(same, "2026-11-01T10:00Z", "- [ ] Move billing to Postgres"),
    )
    before = {path: path.read_bytes() for path in vault.rglob("*.md")}
    error_payload(mem("task", "done", "abcdef", "--json"), 1, "duplicate_id")
    error_payload(mem("edit", "abcdef", "--json", env={"EDITOR": "true"}), 1, "duplicate_id")
    assert {path: path.read_bytes() for path in vault.rglob("*.md")} == before
