"""`mem list`: entries newest first, filtered by category, kind, tag, agent and state."""

from __future__ import annotations

from .helpers import data, entry_block, messages, ok, write_category_file


def seed(vault):
    write_category_file(
        vault,
        "dev/decisions.md",
        "dev",
        "decisions",
        entry_block("dec-new", "2026-11-03T10:00Z", "Use redis for the session store", "#cache"),
        entry_block("dec-api", "2026-11-02T10:00Z", "The REST API is versioned", kind="interface"),
        entry_block(
            "dec-old", "2026-11-01T10:00Z", "Use memcached", "#cache", superseded_by="dec-new"
        ),
    )
    write_category_file(
        vault,
        "qa/tasks.md",
        "qa",
        "tasks",
        entry_block("task-open", "2026-11-04T10:00Z", "- [ ] write the e2e tests\n- [x] plan"),
        entry_block("task-done", "2026-10-30T10:00Z", "- [x] set up CI"),
    )


def ids(result):
    return [entry["id"] for entry in data(result)["entries"]]


def test_list_shows_active_entries_newest_first(mem, vault):
    seed(vault)
    result = ok(mem("list"))
    lines = result.stdout.splitlines()
    assert lines == [
        "task-open  2026-11-04  qa/tasks  task",
        "    - [ ] write the e2e tests",
        "dec-new  2026-11-03  dev/decisions  decision  #cache",
        "    Use redis for the session store",
        "dec-api  2026-11-02  dev/decisions  interface",
        "    The REST API is versioned",
        "task-done  2026-10-30  qa/tasks  task",
        "    - [x] set up CI",
    ]
    assert messages(result.stderr) == []


def test_list_filters_narrow_the_entries(mem, vault):
    seed(vault)
    assert ids(mem("list", "--category", "decisions", "--json")) == ["dec-new", "dec-api"]
    assert ids(mem("list", "--kind", "interface", "--json")) == ["dec-api"]
    assert ids(mem("list", "--tag", "#Cache", "--json")) == ["dec-new"]
    assert ids(mem("list", "--agent", "qa", "--json")) == ["task-open", "task-done"]
    assert ids(mem("list", "--open-tasks", "--json")) == ["task-open"]
    assert ids(mem("list", "--limit", "1", "--json")) == ["task-open"]


def test_list_all_includes_superseded_entries_marked_as_such(mem, vault):
    seed(vault)
    assert ids(mem("list", "-c", "decisions", "--all", "--json")) == [
        "dec-new",
        "dec-api",
        "dec-old",
    ]
    human = ok(mem("list", "-c", "decisions", "--all")).stdout
    assert "dec-old  2026-11-01  dev/decisions  decision [superseded]  #cache" in human


def test_list_of_an_empty_vault_is_a_success(mem):
    empty = ok(mem("list"))
    assert empty.stdout == ""
    assert messages(empty.stderr) == ["no entries"]
    payload = data(mem("list", "--json"))
    assert payload == {"schema_version": 1, "entries": [], "count": 0}


def test_list_sees_a_file_edited_behind_its_back(mem, vault):
    seed(vault)
    assert ids(mem("list", "-a", "qa", "--json")) == ["task-open", "task-done"]
    path = vault / "qa" / "tasks.md"
    path.write_text(path.read_text().replace("id:task-done", "id:task-renamed"))
    assert ids(mem("list", "-a", "qa", "--json")) == ["task-open", "task-renamed"]
