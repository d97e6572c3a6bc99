"""`mem migrate --from aiteamx`: multi-agent apps whose memory is kept per agent. No real
vault of theirs is public, so the fixtures follow the shapes their code writes (AITEAM-X:
@inosx/agent-memory's src/vault.ts)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import data, no_traceback, ok

# vault.ts's entriesToMarkdown: newest first, `<!-- id:<ms> -->`, `## <ISO minute> · #tags`.
AITEAMX_DECISIONS = """<!-- id:1711234567890 -->
## 2026-03-23T14:32 · #postgresql #database

Use PostgreSQL for the persistence layer. Considered SQLite but need concurrent writes.

---

<!-- id:1711000000000 -->
## 2026-03-21T09:05

Adotar SSE em vez de WebSockets: o ambiente de deploy não suporta conexões persistentes.

Before the rule
---
after the rule, still this entry.

---"""

AITEAMX_TASKS = """<!-- id:1711234567999 -->
## 2026-03-23T15:00 · #auto-handoff

- [ ] Revisar handoffs após sessões críticas
- [x] Migrar fluxo de handoff

---"""

AITEAMX_LESSONS = """a note typed by hand, with no heading

---

<!-- id:1711234500000 -->
## 2026-03-22T10:00 · #windows

spawn()'s close event on Windows gives no reliable exit code after a timeout kill.

---"""


def aiteamx_vault(root: Path) -> Path:
    memory = root / ".memory"
    for folder in ("bmad-master", "conversations", ".vault/checkpoints"):
        (memory / folder).mkdir(parents=True)
    (memory / "bmad-master" / "decisions.md").write_text(AITEAMX_DECISIONS, encoding="utf-8")
    (memory / "bmad-master" / "tasks.md").write_text(AITEAMX_TASKS, encoding="utf-8")
    (memory / "bmad-master" / "lessons.md").write_text(AITEAMX_LESSONS, encoding="utf-8")
    (memory / "_project.md").write_text(
        "# Projeto\n\n**Stack:** Next.js 15, sem Tailwind\n", encoding="utf-8"
    )
    (memory / "conversations" / "bmad-master.md").write_text(
        "## 2026-03-23T14:00\n\ndecidimos usar Redis\n", encoding="utf-8"
    )
    (memory / ".vault" / "checkpoints" / "bmad-master.json").write_text("{}", encoding="utf-8")
    return memory


def test_aiteamx_vault_each_agents_entries_with_ids_dates_and_tags(mem, vault, tmp_path):
    aiteamx_vault(tmp_path / "aiteam")
    result = mem("migrate", "--from", "aiteamx", str(tmp_path / "aiteam"), "--json")
    assert result.exit_code == 1  # the headingless note is reported, the rest imported
    no_traceback(result)
    report = json.loads(result.stdout)
    assert report["added"] == {
        "bmad-master/decisions.md": 2,
        "bmad-master/tasks.md": 1,
        "bmad-master/lessons.md": 1,
        "_shared/projects.md": 1,
    }
    assert report["problems"] == [
        {"line": 1, "reason": "bmad-master/lessons.md: text without a '## <date>' heading"}
    ]
    decisions = data(ok(mem("list", "-a", "bmad-master", "-c", "decisions", "--json")))
    by_src = {e["header"]["src-id"]: e for e in decisions["entries"]}
    newest = by_src["aiteamx:bmad-master/decisions:1711234567890"]
    assert newest["date"].startswith("2026-03-23T14:32")
    assert newest["tags"] == ["postgresql", "database"]
    assert newest["header"]["source"] == "import:aiteamx"
    older = by_src["aiteamx:bmad-master/decisions:1711000000000"]
    assert "still this entry" in older["body"]  # an entry's own `---` line does not cut it
    tasks = data(ok(mem("list", "-a", "bmad-master", "-c", "tasks", "--json")))["entries"]
    assert "- [ ] Revisar handoffs" in tasks[0]["body"]
    stored = "".join(p.read_text(encoding="utf-8") for p in vault.rglob("*.md"))
    assert "decidimos usar Redis" not in stored  # conversations are chat history, not memory
    assert "sem Tailwind" in (vault / "_shared" / "projects.md").read_text(encoding="utf-8")

    again = mem("migrate", "--from", "aiteamx", str(tmp_path / "aiteam" / ".memory"), "--json")
    assert json.loads(again.stdout)["added"] == {}
    assert json.loads(again.stdout)["skipped"] == 5


def test_aiteamx_needs_a_folder_holding_a_vault(mem, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = mem("migrate", "--from", "aiteamx", str(empty))
    assert result.exit_code == 1 and "no AITEAM-X vault" in result.stderr
    file = tmp_path / "decisions.md"
    file.write_text(AITEAMX_DECISIONS, encoding="utf-8")
    result = mem("migrate", "--from", "aiteamx", str(file))
    assert result.exit_code == 2 and "is not a folder" in result.stderr
    no_traceback(result)


def test_aiteamx_vault_that_is_this_vault_is_refused_before_anything_is_written(
    mem, vault, tmp_path
):
    # AITEAM-X and mem both keep their memory in .memory/: importing a folder into itself
    # would read and write the same files
    (vault / "bmad-master").mkdir()
    (vault / "bmad-master" / "decisions.md").write_text(AITEAMX_DECISIONS, encoding="utf-8")
    before = {p: p.read_bytes() for p in vault.rglob("*") if p.is_file()}
    for target in (vault, vault.parent):
        result = mem("migrate", "--from", "aiteamx", str(target))
        assert result.exit_code == 2 and "is this vault" in result.stderr
        no_traceback(result)
    assert {p: p.read_bytes() for p in vault.rglob("*") if p.is_file()} == before


def bit_office_home(home: Path) -> Path:
    """A bit-office install as @bit-office/memory (packages/memory/src/types.ts) writes it:
    pretty-printed JSON under data/instances/<gateway>/memory/, names in team-state.json."""
    instance = home / "data" / "instances" / "desktop"
    memory = instance / "memory"
    for folder in ("sessions", "agents", "work-state"):
        (memory / folder).mkdir(parents=True)

    def write(path: Path, value: object) -> None:
        path.write_text(json.dumps(value, indent=2), encoding="utf-8")

    write(
        instance / "team-state.json",
        {"agents": [{"agentId": "agent-2sZAz3", "name": "Rex", "role": "developer"}], "team": None},
    )
    session = {
        "timestamp": "2026-03-20T18:57:30.123Z",
        "what": "Optimized MultiPaneView pagination UI",
        "decisions": ["Used TERM_HOVER tokens instead of hardcoded rgba values"],
        "filesChanged": ["src/components/MultiPaneView.tsx"],
        "unfinished": ["agent-session.ts changes remain unstaged"],
        "commits": ["ad8ed51"],
        "tokens": {"input": 12000, "output": 3400},
    }
    older = {**session, "timestamp": "2026-03-19T08:00:00.000Z", "what": "Set up the web app"}
    older.update(decisions=[], commits=[], unfinished=[])
    write(
        memory / "sessions" / "agent-2sZAz3.json", {"latest": session, "history": [session, older]}
    )
    write(
        memory / "agents" / "agent-2sZAz3.json",
        {
            "agentId": "agent-2sZAz3",
            "facts": [
                {
                    "id": "3f9a1c0b7e21",
                    "category": "lesson_learned",
                    "fact": "@types/node version conflicts are pre-existing; don't try to fix them",
                    "reinforceCount": 3,
                    "createdAt": "2026-03-19T07:30:00.000Z",
                    "lastSeen": "2026-03-20T18:57:30.000Z",
                },
                {
                    "id": "a1b2c3d4e5f6",
                    "category": "codebase_pattern",
                    "fact": "This project uses pnpm workspaces with apps/web and apps/gateway",
                    "reinforceCount": 3,
                    "createdAt": "2026-03-19T07:31:00.000Z",
                    "lastSeen": "2026-03-20T18:57:30.000Z",
                },
                {"id": "broken", "category": "lesson_learned", "reinforceCount": 1},
            ],
        },
    )
    write(
        memory / "shared.json",
        {
            "items": [
                {
                    "id": "a1b2c3d4e5f6",
                    "fact": "This project uses pnpm workspaces with apps/web and apps/gateway",
                    "source": "agent-2sZAz3",
                    "confirmedBy": ["agent-2sZAz3"],
                    "createdAt": "2026-03-20T19:00:00.000Z",
                }
            ]
        },
    )
    write(
        memory / "work-state" / "agent-2sZAz3.json",
        {
            "startedAt": "2026-03-21T09:00:00.000Z",
            "updatedAt": "2026-03-21T09:20:00.000Z",
            "status": "interrupted",
            "taskPrompt": "Add keyboard navigation to the pane list",
            "summary": "Arrow keys move the focus; Enter is not wired yet",
            "nextSteps": ["Wire Enter to open the pane"],
            "unfinished": [],
            "filesTouched": ["src/components/PaneList.tsx"],
        },
    )
    (memory / "work-state" / "agent-Done01.json").write_text("null", encoding="utf-8")
    (memory / "agents" / "agent-x.json.4242.1773950000000.tmp").write_text("{", encoding="utf-8")
    write(
        memory / "memory.json",
        {
            "reviewPatterns": [
                {
                    "pattern": "Missing error handling in fetch calls",
                    "count": 2,
                    "lastSeen": 1773950000000,
                }
            ],
            "techPreferences": ["React + Vite + Tailwind"],
            "projectHistory": [
                {
                    "summary": "Built a pixel snake game",
                    "tech": "HTML5 Canvas",
                    "completedAt": 1773950000000,
                    "reviewPassed": True,
                }
            ],
        },
    )
    return home


def test_bit_office_stores_sessions_facts_shared_work_and_legacy(mem, vault, tmp_path):
    home = bit_office_home(tmp_path / "open-office")
    result = mem("migrate", "--from", "bit-office", str(home), "-a", "dev", "--json")
    assert result.exit_code == 1  # the fact with no text is reported, the rest imported
    no_traceback(result)
    report = json.loads(result.stdout)
    assert report["problems"] == [
        {"line": 0, "reason": "agents/agent-2sZAz3.json: fact 3 has no text"}
    ]
    assert report["added"] == {
        "_shared/facts.md": 1,  # the fact in shared.json, not twice
        "rex/lessons.md": 1,
        "rex/handoffs.md": 2,  # `latest` is history[0] again
        "rex/decisions.md": 1,
        "rex/tasks.md": 1,  # the interrupted task; the null work state is no task
        "dev/lessons.md": 1,  # memory.json belongs to no agent: the importing one (-a)
        "dev/facts.md": 1,
        "dev/projects.md": 1,
    }
    lessons = data(ok(mem("list", "-a", "rex", "-c", "lessons", "--json")))["entries"]
    assert lessons[0]["reinforced"] == 2 and lessons[0]["date"].startswith("2026-03-19T07:30")
    handoffs = data(ok(mem("list", "-a", "rex", "-c", "handoffs", "--json")))["entries"]
    newest = next(e for e in handoffs if "MultiPaneView" in e["body"])
    assert newest["body"].startswith("**What:** Optimized MultiPaneView pagination UI")
    assert "**Commits:**\n- ad8ed51" in newest["body"]
    assert "**Unfinished:**\n- agent-session.ts changes remain unstaged" in newest["body"]
    tasks = data(ok(mem("list", "-a", "rex", "-c", "tasks", "--json")))["entries"]
    assert tasks[0]["body"].startswith("- [ ] Add keyboard navigation to the pane list")
    assert "Wire Enter to open the pane" in tasks[0]["body"]
    shared = (vault / "_shared" / "facts.md").read_text(encoding="utf-8")
    assert "pnpm workspaces" in shared and "by:rex" in shared
    legacy = (vault / "dev" / "lessons.md").read_text(encoding="utf-8")
    assert "Missing error handling in fetch calls" in legacy and "kind:warning" in legacy

    again = mem("migrate", "--from", "bit-office", str(home / "data" / "instances" / "desktop"))
    assert again.exit_code == 1 and "0 imported from bit-office, 9 already there" in again.stdout


def test_bit_office_file_that_is_not_json_is_reported_and_the_rest_imported(mem, tmp_path):
    home = bit_office_home(tmp_path / "open-office")
    memory = home / "data" / "instances" / "desktop" / "memory"
    (memory / "sessions" / "agent-2sZAz3.json").write_text('{"latest": {', encoding="utf-8")
    result = mem("migrate", "--from", "bit-office", str(memory), "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert any("sessions/agent-2sZAz3.json: not JSON" in p["reason"] for p in report["problems"])
    assert report["added"]["rex/lessons.md"] == 1 and "rex/handoffs.md" not in report["added"]


def test_aiteamx_agent_folders_named_as_mem_names_agents(mem, vault, tmp_path):
    memory = tmp_path / "aiteam" / ".memory"
    for folder in ("Game Designer", "_drafts"):
        (memory / folder).mkdir(parents=True)
        (memory / folder / "decisions.md").write_text(AITEAMX_DECISIONS, encoding="utf-8")
    result = mem("migrate", "--from", "aiteamx", str(memory), "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["added"] == {"game-designer/decisions.md": 2}
    assert [p["reason"] for p in report["problems"]] == [
        "_drafts/decisions.md: no agent name can be made of '_drafts'; rename the folder"
    ]


def test_a_jsonl_file_kept_inside_the_vault_can_be_imported(mem, vault):
    ok(mem("add", "Sessions live server-side.", "-c", "decisions", "-a", "dev"))
    backup = vault / "backup.jsonl"
    backup.write_text(ok(mem("export")).stdout, encoding="utf-8")
    again = ok(mem("migrate", "--from", "jsonl", str(backup)))
    assert "0 imported from jsonl, 1 already there" in again.stdout


def test_bit_office_values_out_of_any_range_are_read_as_none_given(mem, vault, tmp_path):
    home = bit_office_home(tmp_path / "open-office")
    memory = home / "data" / "instances" / "desktop" / "memory"
    sessions = memory / "sessions" / "agent-2sZAz3.json"
    odd = {
        "timestamp": 17000000000000000,  # beyond the years a date holds
        "what": "A session with odd numbers",
        "decisions": [None, {"x": 1}, "Kept the retry loop"],
        "tokens": {"input": "12k", "output": 1e400},
    }
    sessions.write_text(json.dumps({"latest": odd, "history": [odd]}), encoding="utf-8")
    result = mem("migrate", "--from", "bit-office", str(memory), "-a", "dev", "--json")
    no_traceback(result)
    report = json.loads(result.stdout)
    assert report["added"]["rex/handoffs.md"] == 1 and report["added"]["rex/decisions.md"] == 1
    handoff = (vault / "rex" / "handoffs.md").read_text(encoding="utf-8")
    assert "- Kept the retry loop" in handoff and "None" not in handoff
    assert "Tokens" not in handoff  # no count could be read
