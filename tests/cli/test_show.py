"""`mem show`: one entry exactly as it stands in its file, named by id or unique prefix."""

from __future__ import annotations

from .helpers import (
    added_id,
    data,
    entry_block,
    error_payload,
    failed,
    messages,
    ok,
    write_category_file,
)

OLD_FORMAT = entry_block(
    "1773679871839",
    "2026-03-16T16:51",
    "An entry written by the older format: numeric id, no time zone.",
    tags="#react #typescript",
)


def test_show_prints_the_block_verbatim_and_the_place_on_stderr(mem, vault):
    write_category_file(vault, "dev/facts.md", "dev", "facts", OLD_FORMAT)
    result = ok(mem("show", "1773679871839"))
    assert result.stdout == OLD_FORMAT.rstrip("\n") + "\n"
    assert messages(result.stderr) == ["dev/facts.md:6"]


def test_show_finds_an_entry_by_a_unique_prefix(mem):
    entry_id = added_id(mem("add", "Prefixes of four or more characters name entries", "-a", "dev"))
    ok(mem("add", "Another entry with a different id", "-a", "dev"))
    shown = data(mem("show", entry_id[:-1], "--json"))["entry"]
    assert shown["id"] == entry_id
    assert shown["body"] == "Prefixes of four or more characters name entries"
    full = ok(mem("show", entry_id))
    assert full.stdout.startswith(f"<!-- id:{entry_id} kind:fact -->\n")


def test_show_json_reads_an_old_format_entry(mem, vault):
    write_category_file(vault, "dev/facts.md", "dev", "facts", OLD_FORMAT)
    entry = data(mem("show", "1773", "--json"))["entry"]
    assert entry["id"] == "1773679871839"
    assert entry["date"] == "2026-03-16T16:51:00Z"  # no zone means UTC
    assert entry["tags"] == ["react", "typescript"]
    assert entry["kind"] == "fact" and entry["header"] == {}


def test_show_refuses_an_ambiguous_prefix_and_lists_the_candidates(mem, vault):
    write_category_file(
        vault,
        "dev/facts.md",
        "dev",
        "facts",
        entry_block("abcd-0001", "2026-11-01T10:00Z", "first twin"),
        entry_block("abcd-0002", "2026-11-01T10:00Z", "second twin"),
    )
    message = error_payload(mem("show", "abcd", "--json"), 1, "ambiguous_id")
    assert "abcd-0001" in message and "abcd-0002" in message
    assert data(mem("show", "abcd-0002", "--json"))["entry"]["body"] == "second twin"


def test_show_of_an_unknown_id_fails(mem):
    result = mem("show", "nosuchentry")
    assert failed(result, 1) == (
        "mem: no entry with id nosuchentry; find it with `mem search` or `mem list`"
    )
    assert result.stdout == ""


def test_show_refuses_a_prefix_shorter_than_four_characters(mem, vault):
    write_category_file(vault, "dev/facts.md", "dev", "facts", OLD_FORMAT)
    message = error_payload(mem("show", "177", "--json"), 2, "invalid_input")
    assert "at least 4" in message


def test_show_hides_another_agents_private_entry(mem):
    entry_id = added_id(mem("add", "dev's own secret note", "--scope", "private", "-a", "dev"))
    assert data(mem("show", entry_id, "-a", "dev", "--json"))["entry"]["scope"] == "private"
    failed(mem("show", entry_id, "-a", "qa"), 1)


def test_an_entry_is_named_by_the_random_tail_of_its_id_or_a_part_of_it(mem, vault):
    first = added_id(mem("add", "Sessions live in Redis.", "-c", "facts", "-a", "dev"))
    second = added_id(mem("add", "Queues live in Kafka.", "-c", "facts", "-a", "dev"))
    tail = first.rpartition("-")[2]
    assert ok(mem("show", tail)).stdout.startswith(f"<!-- id:{first} ")
    assert ok(mem("show", tail[1:5])).stdout.startswith(f"<!-- id:{first} ")  # any part of it
    listed = ok(mem("list", "-a", "dev")).stdout
    assert f"{tail}  " in listed and first not in listed  # shown short, as git shows a hash
    # The date part is every entry's of the day: a prefix of it is ambiguous, and says so.
    result = mem("show", first[:8])
    assert result.exit_code == 1 and f"matches 2 entries ({min(first, second)}" in result.stderr
