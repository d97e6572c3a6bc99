"""`mem migrate`: a flat vault (`.memory/<agent>.md`, sections in English or Portuguese) into the
category layout, once, with the original kept as `.md.bak`."""

from __future__ import annotations

import json
import shutil

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
