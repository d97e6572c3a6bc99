"""`mem compact`: tiers by age, nothing lost (proven on the multiset of entries), a second run
changes no byte, and a run killed at any point leaves every file whole."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from mem.config import load_settings
from mem.vault import entries as entry_codec
from mem.vault import layout
from tests.cli.helpers import ok

NOW = datetime.now(UTC)


def write_file(vault: Path, agent: str, category: str, entries: list[tuple[str, int, str, str]]):
    """A category file written by hand: (id, age in days, extra header, body), newest first."""
    blocks = []
    for entry_id, days, extra, body in sorted(entries, key=lambda e: e[1]):
        kind = (
            layout.file_ref(agent, category).category.rstrip("s") if category != "facts" else "fact"
        )
        kind = {
            "decision": "decision",
            "lesson": "lesson",
            "task": "task",
            "handoff": "handoff",
        }.get(kind, kind if category != "projects" else "project")
        moment = NOW - timedelta(days=days)
        header = f"<!-- id:{entry_id} kind:{kind}{' ' + extra if extra else ''} -->"
        blocks.append(f"{header}\n## {moment:%Y-%m-%dT%H:%MZ}\n\n{body}\n\n---\n")
    folder = vault / agent
    folder.mkdir(exist_ok=True)
    text = entry_codec.new_file_text(agent, category) + "\n".join(blocks)
    (folder / f"{category}.md").write_text(text, encoding="utf-8")


def every_entry(vault: Path) -> Counter:
    """(id, body) of every entry, hot files and archives alike."""
    found: Counter = Counter()
    for ref in layout.category_files(vault):
        parsed = entry_codec.parse_ref((vault / ref.path).read_text(encoding="utf-8"), ref)
        assert not parsed.problems, (ref.path, parsed.problems)
        found.update((entry.id, entry.body) for entry in parsed.entries)
    return found


def hot_ids(vault: Path, agent: str, category: str) -> set[str]:
    ref = layout.file_ref(agent, category)
    text = (vault / ref.path).read_text(encoding="utf-8")
    return {entry.id for entry in entry_codec.parse_ref(text, ref).entries}


def big_vault(vault: Path) -> None:
    decisions = [
        (
            f"d{n:03d}",
            n,
            "",
            f"Decision number {n} chose library{n} for component{n} after bench{n}.",
        )
        for n in range(60)
    ]
    decisions.append(("dsup", 40, "superseded-by:d001", "An old decision, replaced."))
    decisions.append(("dpin", 90, "pin:true", "A pinned decision that never leaves."))
    decisions.append(("dexp", 1, "expires:2026-01-01T00:00Z", "A freeze that has ended."))
    write_file(vault, "dev", "decisions", decisions)
    tasks = [(f"t{n:03d}", 35 + n, "", f"- [ ] open task {n} on page{n}") for n in range(25)]
    tasks += [(f"x{n:03d}", 35 + n, "", f"- [x] done task {n} on view{n}") for n in range(25)]
    write_file(vault, "dev", "tasks", tasks)
    facts = [
        (f"f{n:03d}", 31 + n, f"reinforced:{n % 5}", f"Fact {n}: service{n} listens on port{n}.")
        for n in range(40)
    ]
    write_file(vault, "dev", "facts", facts)


def test_tiers_nothing_lost_and_a_second_run_changes_no_byte(mem, vault):
    big_vault(vault)
    before = every_entry(vault)
    report = json.loads(ok(mem("compact", "--json")).stdout)
    assert every_entry(vault) == before  # the multiset: hot + archive after = all before
    decisions = hot_ids(vault, "dev", "decisions")
    assert {f"d{n:03d}" for n in range(20)} <= decisions  # the 20 newest, hot and warm included
    assert {f"d{n:03d}" for n in range(30, 60)}.isdisjoint(decisions)  # cold beyond them: gone
    assert "dpin" in decisions and "dsup" not in decisions and "dexp" not in decisions
    tasks = hot_ids(vault, "dev", "tasks")
    assert {f"t{n:03d}" for n in range(25)} <= tasks  # every open task stays
    assert {f"x{n:03d}" for n in range(25)} & tasks == {f"x{n:03d}" for n in range(10)}
    facts = hot_ids(vault, "dev", "facts")
    assert len(facts) == 20 + len({f"f{n:03d}" for n in range(20, 40) if n % 5 == 4} - set())
    reasons = {step["reason"] for step in report["steps"] if step["action"] == "archive"}
    assert reasons == {"cold", "superseded", "expired"}
    files = {p: p.read_bytes() for p in vault.rglob("*") if p.is_file() and ".mem" not in p.parts}
    second = json.loads(ok(mem("compact", "--json")).stdout)
    assert second["steps"] == []
    assert {p: p.read_bytes() for p in files} == files
    log = (vault / ".mem" / "compact-log.jsonl").read_text().splitlines()
    assert len(log) == len(report["steps"])  # the second run logged nothing


def test_archived_entries_are_found_with_all_and_never_recalled(mem, vault):
    big_vault(vault)
    ok(mem("compact"))
    assert "d050" not in ok(mem("search", "Decision number 50", "--json")).stdout
    assert "d050" in ok(mem("search", "Decision number 50", "--all", "--json")).stdout
    assert "library50" not in ok(mem("recall", "-a", "dev", "--task", "library50")).stdout


def test_a_big_compaction_indexes_the_archive_so_no_later_command_waits_for_it(mem, vault):
    # A big compaction rebuilds the index, archive included: else the first `search --all` or
    # id lookup after it would index thousands of moved entries (~40 s at 100,000).
    decisions = [(f"d{n:03d}", 40 + n, "", f"Decision {n} picked engine{n}.") for n in range(260)]
    write_file(vault, "dev", "decisions", decisions)
    ok(mem("search", "engine5"))
    report = json.loads(ok(mem("compact", "--json")).stdout)
    assert sum(len(s["ids"]) for s in report["steps"] if s["action"] == "archive") == 240
    assert "healthy" in ok(mem("doctor")).stderr  # an archive not indexed yet is not stale
    assert "d250" not in ok(mem("search", "engine250", "--json")).stdout
    shown = ok(mem("show", "d245"))  # an id lookup wants the archive: indexed already
    assert "engine245" in shown.stdout and "indexing" not in shown.stderr
    found = ok(mem("search", "engine250", "--all", "--json"))
    assert "d250" in found.stdout and "indexing" not in found.stderr
    decisions_md = vault / "dev" / "archive" / "decisions.md"
    decisions_md.write_text(
        decisions_md.read_text(encoding="utf-8").replace("engine251", "turbine251"),
        encoding="utf-8",
    )
    assert "d251" not in ok(mem("search", "turbine251", "--json")).stdout
    assert "d251" in ok(mem("search", "turbine251", "--all", "--json")).stdout


def test_dry_run_changes_nothing_and_says_what_would_move(mem, vault):
    big_vault(vault)
    files = {p: p.read_bytes() for p in vault.rglob("*.md")}
    shown = ok(mem("compact", "--dry-run")).stdout
    assert "would move" in shown and "dev/decisions.md" in shown
    assert {p: p.read_bytes() for p in vault.rglob("*.md")} == files
    assert not (vault / ".mem" / "compact-log.jsonl").exists()


def test_old_and_damaged_checkpoints_and_migration_backups_go(mem, vault):
    states = vault / ".mem" / "state"
    for agent, saved in (("old", NOW - timedelta(days=9)), ("new", NOW - timedelta(days=1))):
        (states / agent).mkdir(parents=True)
        (states / agent / "checkpoint.json").write_text(
            json.dumps({"saved": saved.isoformat(), "status": "active", "task": "x"})
        )
    (states / "bad").mkdir()
    (states / "bad" / "checkpoint.json").write_text("{not json")
    (vault / "dev.md.bak").write_text("## Decisions\n- old flat file\n")
    ok(mem("compact"))
    assert not (states / "old" / "checkpoint.json").exists()
    assert not (states / "bad" / "checkpoint.json").exists()
    assert (states / "new" / "checkpoint.json").exists()
    assert not (vault / "dev.md.bak").exists()


def test_a_compaction_killed_anywhere_loses_nothing(vault, tmp_path):
    big_vault(vault)
    before = every_entry(vault)
    rng = random.Random(7)
    for _ in range(6):
        run = subprocess.Popen(
            [sys.executable, "-m", "mem", "compact"],
            cwd=vault.parent,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.05, 0.6))
        run.send_signal(signal.SIGKILL)
        run.wait()
        assert every_entry(vault) >= before  # copies may sit in both files; nothing is missing
        assert set(every_entry(vault)) == set(before)
    subprocess.run(
        [sys.executable, "-m", "mem", "compact"],
        cwd=vault.parent,
        check=True,
        capture_output=True,
        env={**os.environ},
    )
    assert every_entry(vault) == before  # the finishing run took the copies out of the hot files
    settings = load_settings(vault_flag=str(vault))
    assert settings.vault == vault.resolve()


def test_warm_near_duplicates_merge_but_failed_and_worked_stay_apart(mem, vault):
    write_file(
        vault,
        "dev",
        "lessons",
        [
            (
                "l1",
                10,
                "reinforced:2",
                "Run the migrations before the seed script, or the seed fails.",
            ),
            ("l2", 12, "", "Run the migrations before the seed script or the seed fails."),
            ("l3", 14, "", "Run migrations before the seed script, or the seed fails!"),
            ("l4", 11, "", "Seeding worked fine once the migrations had run first."),
            ("l5", 2, "", "Run the migrations before the seed script, or the seed fails."),
            ("l6", 15, "", "Running the seed script before the migrations worked."),
            ("l7", 16, "", "Running the seed script before the migrations failed."),
        ],
    )
    before = every_entry(vault)
    report = json.loads(ok(mem("compact", "--json")).stdout)
    merge = [step for step in report["steps"] if step["action"] == "merge"]
    assert [step["ids"] for step in merge] == [["l1", "l2", "l3"]]
    # l5 is hot: untouched; l6 and l7 differ in one word, but one worked and one failed
    assert hot_ids(vault, "dev", "lessons") == {"l1", "l4", "l5", "l6", "l7"}
    text = (vault / "dev" / "lessons.md").read_text()
    assert "id:l1 kind:lesson reinforced:4 supersedes:l2,l3" in text
    archive = (vault / "dev" / "archive" / "lessons.md").read_text()
    assert "superseded-by:l1" in archive and archive.count("superseded-by:l1") == 2
    assert every_entry(vault) == before
    assert json.loads(ok(mem("compact", "--json")).stdout)["steps"] == []


def handoff(what: str, files: str = "", commits: str = "") -> str:
    body = f"**What:** {what}"
    if files:
        body += "\n\n**Files changed:**\n" + "\n".join(f"- {f}" for f in files.split())
    if commits:
        body += "\n\n**Commits:**\n- " + commits
    return body


def ages_in_one_period(youngest: int, apart: int, period: str) -> tuple[int, int]:
    """Two ages in days, `apart` days apart, from `youngest` on, whose dates share a week
    (period "%G-%V") or a month ("%Y-%m") whatever day the test runs on."""
    while f"{NOW - timedelta(days=youngest):{period}}" != (
        f"{NOW - timedelta(days=youngest + apart):{period}}"
    ):
        youngest += 1
    return youngest, youngest + apart


def test_old_handoffs_roll_up_by_week_then_by_month(mem, vault):
    week = ages_in_one_period(9, 1, "%G-%V")  # two sessions of one week, past the hot days
    month = ages_in_one_period(60, 2, "%Y-%m")  # two of one month, past a month
    write_file(
        vault,
        "dev",
        "handoffs",
        [
            ("h1", 1, "", handoff("Fixed the flaky upload test.")),
            (
                "h2",
                week[0],
                "",
                handoff("Moved sessions server-side.", "app/session.py", "4f2a9c1 Sessions"),
            ),
            ("h3", week[1], "", handoff("Added the CSV importer.", "app/csv.py tests/test_csv.py")),
            ("h4", month[0], "", handoff("Set up CI.", ".ci/run")),
            ("h5", month[1], "", handoff("First commit of the API.")),
        ],
    )
    before = every_entry(vault)
    report = json.loads(ok(mem("compact", "--json")).stdout)
    rolled = [step for step in report["steps"] if step["action"] == "roll-up"]
    assert all(step["path"] == "dev/handoffs.md" for step in rolled)
    hot = (vault / "dev" / "handoffs.md").read_text(encoding="utf-8")
    ids = hot_ids(vault, "dev", "handoffs")
    assert "h1" in ids and not {"h2", "h3", "h4", "h5"} & ids  # the week's, not the hot one
    assert "Moved sessions server-side. Files: app/session.py. Commits: 4f2a9c1 Sessions." in hot
    assert "Set up CI. Files: .ci/run." in hot and "week(s) of" in hot  # the month's roll-up
    assert "rolls-up:h2,h3" in hot or "rolls-up:h3,h2" in hot
    archive = (vault / "dev" / "archive" / "handoffs.md").read_text(encoding="utf-8")
    assert archive.count("rolled-into:") >= 4  # the sessions, and the weeks rolled into months
    after = every_entry(vault)
    assert all(after[key] == count for key, count in before.items())  # every original kept
    again = json.loads(ok(mem("compact", "--json")).stdout)
    assert again["steps"] == []


def test_a_private_entry_is_shared_at_the_first_compaction_after_its_date(mem, vault):
    from mem.services.compact import compact

    secret = "The load test hits staging at 09:00 on Mondays."
    ok(mem("add", secret, "-c", "facts", "-a", "dev", "--scope", "private", "--share-after", "14d"))
    private, shared = vault / ".mem" / "private" / "dev" / "facts.md", vault / "dev" / "facts.md"
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    compact(settings, now=NOW + timedelta(days=13))
    assert secret in private.read_text() and not shared.exists()  # not before its date
    before = every_entry(vault)
    report = compact(settings, now=NOW + timedelta(days=15))
    assert [step.action for step in report.steps] == ["share"]
    assert secret in shared.read_text() and secret not in private.read_text()
    assert every_entry(vault) == before
    assert compact(settings, now=NOW + timedelta(days=16)).steps == ()


def test_a_private_entry_that_shares_an_id_with_a_public_one_stays_private(mem, vault):
    """An id in both the private file and the agent's (a hand copy, a merge) is not a share a
    kill stopped: the private text never replaces the public one nor goes public before its
    date. (It did: every agent listed it, and compact said "nothing to compact".)"""
    public = ok(mem("add", "Builds run on Fridays", "-c", "facts", "-a", "dev")).stdout.strip()
    ok(mem("add", "zebrasecret private body", "-c", "facts", "-a", "dev", "--scope", "private"))
    private, shared = vault / ".mem" / "private" / "dev" / "facts.md", vault / "dev" / "facts.md"
    theirs = entry_codec.parse_file(private.read_text(), "x", "dev", "facts").spans[0].entry.id
    private.write_text(private.read_text().replace(theirs, public))  # the same id in both
    before = shared.read_bytes()
    ok(mem("compact"))
    assert shared.read_bytes() == before and "zebrasecret" in private.read_text()
    assert "zebrasecret" not in ok(mem("list", "-a", "qa", "--all")).stdout
    assert "zebrasecret" not in ok(mem("search", "zebrasecret", "-a", "qa")).stdout


def test_share_after_is_only_for_private_entries(mem, vault):
    refused = mem("add", "A fact.", "-c", "facts", "-a", "dev", "--share-after", "14d")
    assert refused.exit_code == 2 and "--scope private" in refused.stderr
