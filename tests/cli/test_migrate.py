"""`mem migrate`: a flat vault (`.memory/<agent>.md`, sections in English or Portuguese) into the
category layout, once, with the original kept as `.md.bak`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli.helpers import ok

PORTUGUESE = """# Memória do agente dev

## Decisões
- 2026-03-02: Usamos PostgreSQL em vez de MySQL por causa do JSONB.
- Autenticação por sessão no servidor, não JWT.

## Aprendizados
- [2026-03-05] O seed falha se as migrações não rodarem antes.
  Rode `make migrate` primeiro.

## Tarefas
- [ ] Documentar SESSION_BACKEND
- [x] Corrigir o redirect do login

## Contexto
Projeto de billing em FastAPI com front em React.

## Ideias soltas
- talvez usar Redis
"""

ENGLISH = """## Decisions
We chose Celery over RQ: we need scheduled retries.

## Lessons Learned
- Never run the billing backfill during business hours.

## Notes
- The staging database is reset every Sunday.
"""


def test_a_portuguese_flat_file_becomes_category_files_dated_and_kept_as_bak(mem, vault):
    (vault / "dev.md").write_text(PORTUGUESE, encoding="utf-8")
    done = json.loads(ok(mem("migrate", "--json")).stdout)["migrated"][0]
    assert done["added"] == {"decisions": 2, "lessons": 1, "tasks": 2, "projects": 1}
    assert done["unknown_sections"] == ["Ideias soltas"]
    assert (vault / "dev.md.bak").read_text(encoding="utf-8") == PORTUGUESE
    assert not (vault / "dev.md").exists()
    decisions = (vault / "dev" / "decisions.md").read_text(encoding="utf-8")
    assert "## 2026-03-02T00:00Z\n\nUsamos PostgreSQL em vez de MySQL" in decisions
    assert "source:migrate src-id:flat:" in decisions
    lessons = (vault / "dev" / "lessons.md").read_text(encoding="utf-8")
    assert (
        "O seed falha se as migrações não rodarem antes.\nRode `make migrate` primeiro." in lessons
    )
    tasks = (vault / "dev" / "tasks.md").read_text(encoding="utf-8")
    assert "- [ ] Documentar SESSION_BACKEND" in tasks and "- [x] Corrigir o redirect" in tasks
    projects = (vault / "dev" / "projects.md").read_text(encoding="utf-8")
    assert "kind:context" in projects and "FastAPI" in projects
    listed = json.loads(ok(mem("list", "-a", "dev", "--open-tasks", "--json")).stdout)
    assert [e["body"] for e in listed["entries"]] == ["- [ ] Documentar SESSION_BACKEND"]


def test_english_sections_and_every_agent_file(mem, vault):
    (vault / "ops.md").write_text(ENGLISH, encoding="utf-8")
    (vault / "dev.md").write_text(PORTUGUESE, encoding="utf-8")
    done = json.loads(ok(mem("migrate", "--json")).stdout)["migrated"]
    assert {d["agent"]: d["added"] for d in done}["ops"] == {
        "decisions": 1,
        "lessons": 1,
        "facts": 1,
    }
    hits = ok(mem("search", "Celery retries", "--json")).stdout
    assert "ops/decisions.md" in hits


def test_a_second_run_and_a_run_after_a_kill_add_nothing_twice(mem, vault):
    (vault / "dev.md").write_text(PORTUGUESE, encoding="utf-8")
    ok(mem("migrate"))
    files = {p: p.read_bytes() for p in (vault / "dev").glob("*.md")}
    assert "nothing to migrate" in ok(mem("migrate")).stdout
    # A run killed after writing the category files, before renaming the flat file:
    shutil.copy(vault / "dev.md.bak", vault / "dev.md")
    again = json.loads(ok(mem("migrate", "--json")).stdout)["migrated"][0]
    assert again["added"] == {} and again["skipped"] == 6
    assert {p: p.read_bytes() for p in (vault / "dev").glob("*.md")} == files


def test_a_flat_file_with_no_known_section_is_refused_and_nothing_is_written(mem, vault):
    (vault / "dev.md").write_text("## Random thoughts\n- hello\n", encoding="utf-8")
    refused = mem("migrate")
    assert refused.exit_code == 2 and "Random thoughts" in refused.stderr
    assert (vault / "dev.md").exists() and not (vault / "dev").exists()


def test_compact_removes_the_backup_migration_left(mem, vault):
    (vault / "dev.md").write_text(ENGLISH, encoding="utf-8")
    ok(mem("migrate"))
    ok(mem("compact"))
    assert not (vault / "dev.md.bak").exists()


def exported(mem) -> list[dict]:
    lines = ok(mem("export", "--format", "jsonl")).stdout.splitlines()
    return sorted(
        ({k: v for k, v in json.loads(line).items() if k != "line"} for line in lines),
        key=lambda entry: entry["id"],
    )


def test_export_then_import_into_an_empty_vault_round_trips_every_entry(
    mem, vault, run_mem, tmp_path
):
    ok(
        mem(
            "add",
            "We chose Celery over RQ.",
            "-c",
            "decisions",
            "-a",
            "dev",
            "--tags",
            "queue,infra",
        )
    )
    ok(
        mem(
            "add",
            "Never deploy on Fridays.",
            "-c",
            "lessons",
            "-a",
            "ops",
            "-k",
            "warning",
            "--pin",
        )
    )
    ok(mem("add", "Everyone uses UTC.", "-c", "facts", "-a", "dev", "--scope", "shared"))
    ok(mem("task", "add", "Rotate the keys", "-a", "dev"))
    dump = tmp_path / "export.jsonl"
    dump.write_text(ok(mem("export", "--format", "jsonl")).stdout, encoding="utf-8")
    other = tmp_path / "other"
    other.mkdir()
    ok(run_mem("init", cwd=other))

    def in_other(*args):
        return run_mem(*args, cwd=other)

    first = json.loads(ok(in_other("migrate", "--from", "jsonl", str(dump), "--json")).stdout)
    assert sum(first["added"].values()) == 4 and first["problems"] == []
    assert exported(in_other) == exported(mem)
    again = json.loads(ok(in_other("migrate", "--from", "jsonl", str(dump), "--json")).stdout)
    assert again["added"] == {} and again["skipped"] == 4


OSTWIN = Path(__file__).resolve().parents[2].parent / "shared" / "formats" / "ostwin"


def test_a_real_ledger_with_a_broken_line_imports_the_rest_and_says_which_line(mem, vault):
    ledger = OSTWIN / "ledger.3cc136d.has-malformed-line.jsonl"
    if not ledger.is_file():
        pytest.skip("../shared/formats is not beside the repository")
    result = mem("migrate", "--from", "jsonl", str(ledger), "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert [problem["line"] for problem in report["problems"]] == [9]
    assert sum(report["added"].values()) == 12
    stored = "".join(p.read_text(encoding="utf-8") for p in vault.rglob("*.md"))
    assert "source:import:jsonl" in stored and "src-id:mem-" in stored
    again = json.loads(mem("migrate", "--from", "jsonl", str(ledger), "--json").stdout)
    assert again["added"] == {} and again["skipped"] == 12


def test_migrate_from_needs_a_known_source_and_a_file(mem, vault, tmp_path):
    unknown = mem("migrate", "--from", "notion", str(tmp_path))
    assert unknown.exit_code == 2 and "unknown source" in unknown.stderr
    missing = mem("migrate", "--from", "jsonl", str(tmp_path / "nope.jsonl"))
    assert missing.exit_code == 2 and "is not a file" in missing.stderr


def test_an_ostwin_ledger_honours_supersedes_as_its_own_index_does(mem, vault):
    ledger, index = OSTWIN / "ledger.dfcd87a.jsonl", OSTWIN / "index.dfcd87a.json"
    if not ledger.is_file() or not index.is_file():
        pytest.skip("../shared/formats is not beside the repository")
    report = json.loads(ok(mem("migrate", "--from", "ostwin", str(ledger), "--json")).stdout)
    assert sum(report["added"].values()) == 18
    shown = json.loads(ok(mem("list", "--json", "--limit", "100")).stdout)["entries"]
    expected = {entry["id"] for entry in json.loads(index.read_text())["entries"]}
    assert {entry["header"]["src-id"] for entry in shown} == expected  # 17: one superseded
    everything = json.loads(ok(mem("list", "--json", "--limit", "100", "--all")).stdout)
    by_src = {e["header"]["src-id"]: e for e in everything["entries"]}
    older = by_src["mem-art-1775936334625874000-80748"]
    newer = by_src["mem-art-1775936814157217000-84344"]
    assert older["superseded_by"] == newer["id"] and newer["header"]["supersedes"] == older["id"]
    kinds = {entry["kind"] for entry in everything["entries"]}
    assert {"decision", "convention", "artifact"} <= kinds


CLINE = Path(__file__).resolve().parents[2].parent / "shared" / "formats" / "cline-memory-bank"


def test_real_cline_memory_banks_import_by_section_once(mem, vault):
    banks = [CLINE / "passivbot", CLINE / "moonx-farm"]
    if not all(bank.is_dir() for bank in banks):
        pytest.skip("../shared/formats is not beside the repository")
    for bank in banks:
        report = json.loads(
            ok(mem("migrate", "--from", "cline", str(bank), "-a", "dev", "--json")).stdout
        )
        assert report["problems"] == [] and set(report["added"]) == {
            "dev/projects.md",
            "dev/facts.md",
        }
        again = json.loads(
            ok(mem("migrate", "--from", "cline", str(bank), "-a", "dev", "--json")).stdout
        )
        assert again["added"] == {} and again["skipped"] == sum(report["added"].values())
    facts = (vault / "dev" / "facts.md").read_text(encoding="utf-8")
    assert "**Trading Strategy Implementation › Unstucking Mechanism** (systemPatterns.md)" in facts
    assert "kind:pattern source:import:cline src-id:cline:systemPatterns.md:" in facts
    block = ok(
        mem("recall", "-a", "dev", "--task", "unstucking mechanism", "--budget", "600")
    ).stdout
    assert "Unstucking Mechanism" in block


def test_a_folder_without_a_memory_bank_is_reported(mem, vault, tmp_path):
    result = mem("migrate", "--from", "cline", str(tmp_path))
    assert result.exit_code == 1 and "no memory-bank file" in result.stderr


CLAUDE_MD = """# Notes for Claude

@docs/architecture.md

## Build
- Run `make test` before every commit; `pytest` alone skips the integration suite.
- The dev server is `make dev` (port 8080).

## Code style
Use ruff's defaults. Keep functions
under 40 lines.

```sh
make lint
```
"""


def test_claude_md_and_an_auto_memory_folder_become_conventions_and_facts(mem, vault, tmp_path):
    project = tmp_path / "proj"
    (project / "memory").mkdir(parents=True)
    (project / "CLAUDE.md").write_text(CLAUDE_MD, encoding="utf-8")
    (project / "memory" / "MEMORY.md").write_text(
        "# Memory\n- The staging database is reset every Sunday.\n", encoding="utf-8"
    )
    report = json.loads(
        ok(mem("migrate", "--from", "claude", str(project), "-a", "dev", "--json")).stdout
    )
    assert report["added"] == {"dev/facts.md": 4}
    facts = (vault / "dev" / "facts.md").read_text(encoding="utf-8")
    assert "Build: Run `make test` before every commit" in facts
    assert "Code style: Use ruff's defaults. Keep functions under 40 lines." in facts
    assert "kind:convention" in facts and "kind:fact" in facts
    assert "@docs" not in facts and "make lint" not in facts
    assert "\nThe staging database is reset every Sunday." in facts
    again = json.loads(
        ok(mem("migrate", "--from", "claude", str(project), "-a", "dev", "--json")).stdout
    )
    assert again["added"] == {} and again["skipped"] == 4


PORTOS = Path(__file__).resolve().parents[2].parent / "shared" / "formats" / "portos"


def test_portos_memory_index_empty_real_seed_and_a_populated_one(mem, vault, tmp_path):
    seed = PORTOS / "cos-memory-index.template.json"
    if not seed.is_file():
        pytest.skip("../shared/formats is not beside the repository")
    empty = json.loads(ok(mem("migrate", "--from", "portos", str(seed), "--json")).stdout)
    assert empty["added"] == {} and empty["problems"] == []
    index = tmp_path / "index.json"  # the memory item shape of PortOS's design
    index.write_text(
        json.dumps(
            {
                "version": 1,
                "count": 3,
                "memories": [
                    {
                        "id": "m1",
                        "type": "preference",
                        "content": "User prefers dark mode.",
                        "tags": ["ui"],
                        "importance": 0.7,
                        "createdAt": "2026-10-01T10:00:00.000Z",
                    },
                    {
                        "id": "m2",
                        "type": "learning",
                        "content": "The cron agent needs UTC.",
                        "createdAt": "2026-10-02T10:00:00.000Z",
                    },
                    {"id": "m3", "type": "decision", "content": "Store memories in PostgreSQL."},
                    "not a memory",
                ],
            }
        )
    )
    result = mem("migrate", "--from", "portos", str(index), "-a", "cos", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["added"] == {"cos/facts.md": 1, "cos/lessons.md": 1, "cos/decisions.md": 1}
    assert report["problems"] == [{"line": 4, "reason": "a memory that is not a JSON object"}]
    facts = (vault / "cos" / "facts.md").read_text(encoding="utf-8")
    assert (
        "kind:preference source:import:portos src-id:m1" in facts
        and "## 2026-10-01T10:00Z" in facts
    )


BASIC_MEMORY_NOTE = """---
title: Auth service
type: note
permalink: auth/auth-service
tags:
- '#auth'
---

# Auth service

The login flow for the web app and the mobile app.

## Observations
- [decision] Sessions live server-side, not in JWTs #auth #sessions (the cookie hit 4 KB)
- [problem] The redirect raced the session write #bug
- [idea] Try WebAuthn for admins

## Relations
- implements [[Login spec]]
"""


def test_basic_memory_notes_observations_by_category_and_relations_left_out(mem, vault, tmp_path):
    notes = tmp_path / "notes" / "auth"
    notes.mkdir(parents=True)
    (notes / "auth-service.md").write_text(BASIC_MEMORY_NOTE, encoding="utf-8")
    report = json.loads(
        ok(
            mem("migrate", "--from", "basic-memory", str(tmp_path / "notes"), "-a", "dev", "--json")
        ).stdout
    )
    assert report["added"] == {
        "dev/decisions.md": 1,
        "dev/lessons.md": 1,
        "dev/facts.md": 1,
        "dev/projects.md": 1,
    }
    decisions = (vault / "dev" / "decisions.md").read_text(encoding="utf-8")
    assert "Auth service: Sessions live server-side, not in JWTs (the cookie hit 4 KB)" in decisions
    assert "#auth #sessions" in decisions  # the note's hashtags become the entry's tags
    lessons = (vault / "dev" / "lessons.md").read_text(encoding="utf-8")
    assert "kind:observation" in lessons and "raced the session write" in lessons
    stored = "".join(p.read_text(encoding="utf-8") for p in (vault / "dev").glob("*.md"))
    assert "[[Login spec]]" not in stored and "The login flow for the web app" in stored
    again = json.loads(
        ok(
            mem("migrate", "--from", "basic-memory", str(tmp_path / "notes"), "-a", "dev", "--json")
        ).stdout
    )
    assert again["added"] == {} and again["skipped"] == 4


def test_an_import_on_a_terminal_shows_a_progress_bar_and_ends_with_a_table(vault, tmp_path):
    # the bar is drawn only when stderr is a terminal: give the real command a pseudo-terminal
    import os
    import pty
    import subprocess
    import sys

    kinds = ("decision", "lesson", "fact", "task", "project", "warning", "convention")
    lines = [
        json.dumps({"id": f"e{n}", "type": kinds[n % len(kinds)], "text": f"Record {n} of a log."})
        for n in range(70)
    ]
    log = tmp_path / "events.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mem",
            "--vault",
            str(vault),
            "migrate",
            "--from",
            "jsonl",
            str(log),
        ],
        stdout=subprocess.PIPE,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the follower side closed: the command has ended
            break
        if not chunk:
            break
        drawn += chunk
    stdout = process.communicate(timeout=60)[0].decode("utf-8")
    os.close(leader)
    assert process.returncode == 0
    assert b"importing" in drawn  # the bar's label, drawn while files were written
    assert "imported from jsonl" in stdout and "70 imported from jsonl, 0 already there" in stdout
    assert "main/lessons.md" in stdout  # the table names each file written
