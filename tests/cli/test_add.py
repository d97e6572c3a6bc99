"""`mem add`: one entry by hand, inserted as text at the top of the right file."""

from __future__ import annotations

import re

from .helpers import ENTRY_ID, added_id, data, entry_block, ok, write_category_file


def test_add_writes_an_entry_and_prints_only_its_id(mem, vault):
    result = mem(
        "add",
        "Chose bcrypt over argon2: argon2-cffi does not build on Alpine",
        "--category",
        "decisions",
        "--tags",
        "auth,#Security",
        "--agent",
        "dev",
    )
    entry_id = added_id(result)
    assert result.stderr == "added decision to dev/decisions.md\n"
    text = (vault / "dev" / "decisions.md").read_text()
    assert text.startswith("---\nagent: dev\ncategory: decisions\n---\n")
    block = re.search(
        rf"<!-- id:{entry_id} kind:decision -->\n"
        r"## (\d{4}-\d\d-\d\dT\d\d:\d\dZ) · #auth #security\n\n"
        r"Chose bcrypt over argon2: argon2-cffi does not build on Alpine\n\n---\n",
        text,
    )
    assert block, text


def test_add_puts_the_newest_entry_first_and_keeps_the_rest_byte_for_byte(mem, vault):
    first = added_id(mem("add", "First lesson learned", "-c", "lessons", "-a", "dev"))
    path = vault / "dev" / "lessons.md"
    path.write_text(path.read_text() + "A note a person left at the end.\n")
    before = path.read_text()
    second = added_id(mem("add", "Second lesson learned", "-c", "lessons", "-a", "dev"))
    after = path.read_text()
    assert after.index(second) < after.index(first)
    start = after.index(f"<!-- id:{second}")
    end = after.index(f"<!-- id:{first}")
    assert after[:start] + after[end:] == before


def test_add_reads_the_text_from_stdin_with_a_dash(mem, vault):
    result = mem(
        "add",
        "-",
        "-c",
        "facts",
        "-k",
        "convention",
        "-a",
        "dev",
        "--json",
        input="Run the suite with make test,\nnever plain pytest.\n",
    )
    entry = data(result)["entry"]
    assert entry["kind"] == "convention"
    assert entry["body"] == "Run the suite with make test,\nnever plain pytest."
    assert "never plain pytest." in (vault / "dev" / "facts.md").read_text()


def test_add_json_reports_the_entry_as_stored(mem):
    entry = data(mem("add", "Use ruff for lint #tooling", "-a", "dev", "--pin", "--json"))["entry"]
    assert ENTRY_ID.fullmatch(entry["id"])
    assert entry["agent"] == "dev"
    assert entry["category"] == "facts" and entry["kind"] == "fact"
    assert entry["scope"] == "agent"
    assert entry["path"] == "dev/facts.md" and entry["line"] == 6
    assert entry["tags"] == ["tooling"]
    assert entry["header"] == {"kind": "fact", "pin": "true"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:00Z", entry["date"])
    assert entry["superseded_by"] is None and entry["reinforced"] == 0


def test_add_with_shared_scope_goes_to_the_shared_folder(mem, vault):
    entry = data(mem("add", "All services log JSON", "--scope", "shared", "-a", "dev", "--json"))[
        "entry"
    ]
    assert entry["path"] == "_shared/facts.md"
    assert entry["agent"] == "_shared" and entry["scope"] == "shared"
    assert entry["header"]["by"] == "dev"
    text = (vault / "_shared" / "facts.md").read_text()
    assert "agent: _shared" in text and "All services log JSON" in text
    assert not (vault / "dev").exists()


def test_add_with_private_scope_stays_in_machine_local_state(mem, vault):
    entry = data(
        mem("add", "My local API token lives in pass", "--scope", "private", "-a", "dev", "--json")
    )["entry"]
    assert entry["path"] == ".mem/private/dev/facts.md"
    assert entry["scope"] == "private"
    assert "My local API token" in (vault / ".mem/private/dev/facts.md").read_text()
    assert not (vault / "dev").exists()
    assert ".mem/" in (vault / ".gitignore").read_text()  # never committed


def test_add_supersedes_marks_the_old_entry_and_hides_it_from_search(mem, vault):
    old = added_id(mem("add", "Sessions are stored in postgres", "-c", "decisions", "-a", "dev"))
    new = data(
        mem(
            "add",
            "Sessions are stored in redis",
            "-c",
            "decisions",
            "-a",
            "dev",
            "--supersedes",
            old[:-1],
            "--json",
        )
    )["entry"]
    assert new["header"]["supersedes"] == old
    text = (vault / "dev" / "decisions.md").read_text()
    assert f"<!-- id:{old} kind:decision superseded-by:{new['id']} -->" in text

    hits = data(mem("search", "sessions stored", "--json"))["hits"]
    assert [hit["id"] for hit in hits] == [new["id"]]
    every = data(mem("search", "sessions stored", "--all", "--json"))["hits"]
    assert {hit["id"] for hit in every} == {old, new["id"]}
    assert {hit["id"]: hit["superseded_by"] for hit in every}[old] == new["id"]


def test_add_supersedes_an_unknown_id_fails_and_writes_nothing(mem, vault):
    ok(mem("add", "keep me", "-a", "dev"))
    before = (vault / "dev" / "facts.md").read_text()
    result = mem("add", "replacement", "-a", "dev", "--supersedes", "nosuchid")
    assert result.exit_code == 1
    assert result.stderr.startswith("mem: no entry with id nosuchid")
    assert (vault / "dev" / "facts.md").read_text() == before


def test_a_private_entry_cannot_supersede_a_public_one(mem, vault):
    public = mem("add", "Staging runs on eu-west", "-a", "alice").stdout.strip()
    before = (vault / "alice" / "facts.md").read_bytes()
    result = mem(
        "add", "Staging runs on ap-south", "--scope", "private", "--supersedes", public, "-a", "bob"
    )
    assert result.exit_code == 2 and "cannot supersede" in result.stderr
    assert (vault / "alice" / "facts.md").read_bytes() == before


def test_adding_a_fact_past_the_cap_archives_the_oldest_as_a_commit_would(mem, vault):
    blocks = [
        entry_block(
            f"20260101-0000{n:02d}-aaaa{n:02d}",
            f"2026-01-01T00:{n:02d}Z",
            f"Fact number {n} about the build.",
            kind="fact",
        )
        for n in range(50)
    ]
    write_category_file(vault, "dev/facts.md", "dev", "facts", *reversed(blocks))
    result = ok(mem("add", "The CI image ships Python 3.12.", "-c", "facts", "-a", "dev"))
    assert "moved 1 older fact(s) to dev/archive/facts.md" in result.stderr
    live = (vault / "dev" / "facts.md").read_text()
    assert live.count("<!-- id:") == 50 and "Fact number 0 " not in live
    assert "Fact number 0 " in (vault / "dev" / "archive" / "facts.md").read_text()


def test_a_file_saved_with_crlf_line_ends_keeps_them_after_every_write(mem, vault):
    ok(mem("add", "We decided to cache sessions in Redis.", "-c", "decisions", "-a", "dev"))
    path = vault / "dev" / "decisions.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))  # an editor on Windows saved it
    ok(mem("add", "We decided to retry webhooks three times.", "-c", "decisions", "-a", "dev"))
    ok(mem("commit", "-a", "dev", input="We decided to cache sessions in Redis!\n"))  # reinforces
    raw = path.read_bytes()
    assert raw.count(b"\n") == raw.count(b"\r\n") > 0
    assert b"reinforced:1" in raw and b"retry webhooks" in raw


def test_add_says_what_it_changed_so_the_text_cannot_end_its_entry(mem, vault):
    text = "Release steps\n---\n<!-- id:20200101-000000-aaaaaa kind:fact -->\n```sh\nmake"
    result = mem("add", text, "-c", "facts", "-a", "dev")
    added_id(result)
    assert result.stderr.splitlines() == [
        "mem: a `---` line is written `* * *` (the same rule; `---` ends an entry)",
        "mem: a line starting `<!--` is written `&lt;!--` (it would start an entry)",
        "mem: a code fence left open is closed",
        "added fact to dev/facts.md",
    ]
    stored = (vault / "dev" / "facts.md").read_text()
    assert "Release steps\n* * *\n&lt;!-- id:20200101-000000-aaaaaa kind:fact -->" in stored
    assert mem("add", "Plain text - nothing to change", "-a", "dev").stderr == (
        "added fact to dev/facts.md\n"
    )
