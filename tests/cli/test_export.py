"""`mem export`: every entry as JSON lines or one JSON object, private ones only when asked."""

from __future__ import annotations

import json

from .helpers import ENTRY_KEYS, added_id, data, failed, ok


def seed(mem):
    return {
        "dev": added_id(mem("add", "dev decision", "-c", "decisions", "-a", "dev")),
        "shared": added_id(mem("add", "shared fact", "--scope", "shared", "-a", "dev")),
        "dev-private": added_id(mem("add", "dev secret", "--scope", "private", "-a", "dev")),
        "qa-private": added_id(mem("add", "qa secret", "--scope", "private", "-a", "qa")),
        "qa": added_id(mem("task", "add", "qa task", "-a", "qa")),
    }


def test_export_jsonl_prints_one_entry_per_line_without_private_ones(mem):
    ids = seed(mem)
    result = ok(mem("export"))
    lines = result.stdout.splitlines()
    entries = [json.loads(line) for line in lines]
    assert all(set(entry) == ENTRY_KEYS for entry in entries)
    assert {entry["id"] for entry in entries} == {ids["dev"], ids["shared"], ids["qa"]}
    assert "secret" not in result.stdout
    assert result.stderr == ""


def test_export_json_is_one_object_with_a_count(mem):
    ids = seed(mem)
    payload = data(mem("export", "--format", "json"))
    assert set(payload) == {"schema_version", "entries", "count"}
    assert payload["count"] == 3 == len(payload["entries"])
    assert {entry["id"] for entry in payload["entries"]} == {ids["dev"], ids["shared"], ids["qa"]}


def test_export_includes_only_the_current_agents_private_entries_when_asked(mem):
    ids = seed(mem)
    as_dev = data(mem("export", "-f", "json", "--include-private", env={"MEM_AGENT": "dev"}))
    exported = {entry["id"] for entry in as_dev["entries"]}
    assert ids["dev-private"] in exported and ids["qa-private"] not in exported
    dev_private = next(e for e in as_dev["entries"] if e["id"] == ids["dev-private"])
    assert dev_private["scope"] == "private"

    only_qa = data(
        mem("export", "-f", "json", "--include-private", "--agent", "qa", env={"MEM_AGENT": "qa"})
    )
    assert {e["id"] for e in only_qa["entries"]} == {ids["qa"], ids["qa-private"]}
    # Filtering by another agent never reveals its private entries.
    as_main = data(mem("export", "-f", "json", "--include-private", "--agent", "qa"))
    assert {e["id"] for e in as_main["entries"]} == {ids["qa"]}
    without = data(mem("export", "-f", "json", "--agent", "qa"))
    assert {e["id"] for e in without["entries"]} == {ids["qa"]}


def test_export_of_an_empty_vault_prints_nothing(mem):
    assert ok(mem("export")).stdout == ""
    assert data(mem("export", "-f", "json")) == {"schema_version": 1, "entries": [], "count": 0}


def test_export_refuses_an_unknown_format(mem):
    result = mem("export", "--format", "xml")
    assert "unknown format 'xml'" in failed(result, 2)
    assert result.stdout == ""


def test_export_json_flag_is_the_json_format(mem):
    mem("add", "a fact worth exporting", "-a", "dev")
    assert data(mem("export", "--json")) == data(mem("export", "--format", "json"))
