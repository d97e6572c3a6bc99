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


def test_entries_made_in_the_same_second_list_as_the_file_has_them(mem, vault):
    # mem writes at the top, so within one second the higher entry is the later one; the random
    # end of an id says nothing about which came first.
    same = "2026-11-23T08:57Z"
    path = write_category_file(
        vault,
        "dev/facts.md",
        "dev",
        "facts",
        entry_block("20261123-085716-aaaaaa", same, "Third, written last"),
        entry_block("20261123-085716-zzzzzz", same, "Second"),
        entry_block("20261123-085716-mmmmmm", same, "First"),
    )
    expected = ["20261123-085716-aaaaaa", "20261123-085716-zzzzzz", "20261123-085716-mmmmmm"]
    assert ids(mem("list", "--json")) == expected  # a fresh index
    text = path.read_text()
    head, body = text.split("\n\n", 1)
    path.write_text(f"{head}\n\n{entry_block('20261123-085716-bbbbbb', same, 'Fourth')}{body}")
    assert ids(mem("list", "--json")) == ["20261123-085716-bbbbbb", *expected]  # updated


def test_entries_from_before_1970_keep_their_order_and_their_date(mem, vault):
    write_category_file(
        vault,
        "dev/facts.md",
        "dev",
        "facts",
        entry_block("f-2020", "2020-01-01T00:00Z", "Zebra crossing rules, 2020"),
        entry_block("f-1965", "1965-01-01T00:00Z", "Zebra crossing rules, 1965"),
        entry_block("f-1950", "1950-01-01T00:00Z", "Zebra crossing rules, 1950"),
    )
    assert ids(mem("list", "--json")) == ["f-2020", "f-1965", "f-1950"]
    found = data(mem("search", "zebra", "--since", "1960-01-01", "--json"))["hits"]
    assert {hit["id"] for hit in found} == {"f-2020", "f-1965"}


def test_since_on_a_vault_with_no_entries_finds_nothing(mem, vault):
    result = ok(mem("search", "zebra", "--since", "7d"))
    assert result.stdout == "" and messages(result.stderr) == ["no matches"]
