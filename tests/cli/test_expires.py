"""`mem add --expires`: an entry that stops being shown after a date, and is never lost."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

from mem.config import load_settings
from mem.services import recall as recall_service
from mem.services import search as search_service
from tests.cli.helpers import added_id, ok


def expire_by_hand(vault, entry_id: str) -> None:
    """Set the entry's expiry in the past, as a person editing the file would."""
    path = vault / "dev" / "lessons.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        re.sub(rf"(id:{entry_id}[^>]*expires:)\S+", r"\g<1>2026-01-01T00:00Z", text),
        encoding="utf-8",
    )


def test_expires_writes_the_date_and_hides_the_entry_once_past(mem, vault):
    freeze = "Deploy freeze on billing.py until the audit ends."
    entry_id = added_id(ok(mem("add", freeze, "-c", "lessons", "-a", "dev", "--expires", "30d")))
    header = next(
        line for line in (vault / "dev" / "lessons.md").read_text().splitlines() if entry_id in line
    )
    when = datetime.fromisoformat(re.search(r"expires:(\S+)", header).group(1))
    assert timedelta(days=29) < when - datetime.now(UTC) <= timedelta(days=30)
    assert entry_id in ok(mem("search", "deploy freeze", "--json")).stdout
    expire_by_hand(vault, entry_id)
    assert entry_id not in ok(mem("search", "deploy freeze", "--json")).stdout
    assert entry_id in ok(mem("search", "deploy freeze", "--all", "--json")).stdout
    assert entry_id not in ok(mem("list", "-a", "dev", "--json")).stdout
    assert entry_id in ok(mem("list", "-a", "dev", "--all", "--json")).stdout
    assert "Deploy freeze" not in ok(mem("recall", "-a", "dev", "--task", "deploy freeze")).stdout
    edit = {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "cwd": str(vault.parent),
        "tool_name": "Edit",
        "tool_input": {"file_path": "/p/billing.py"},
    }
    assert ok(mem("hook", "claude-code", "--agent", "dev", input=json.dumps(edit))).stdout == ""
    assert freeze in (vault / "dev" / "lessons.md").read_text()  # hidden, never lost


def test_an_entry_disappears_when_its_day_comes(mem, vault):
    ok(mem("add", "The staging cluster is frozen.", "-c", "facts", "-a", "dev", "--expires", "2d"))
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    query = search_service.Query("staging cluster frozen")
    later = datetime.now(UTC) + timedelta(days=3)
    assert search_service.search(settings, query)
    assert search_service.search(settings, query, now=later) == []
    block = recall_service.recall(settings, "staging cluster", now=later)
    assert "frozen" not in block.text


def test_a_bad_or_past_expiry_is_refused_and_nothing_is_written(mem, vault):
    for given, said in (("someday", "cannot read --expires"), ("2020-01-01", "later than now")):
        result = mem("add", "A fact.", "-c", "facts", "-a", "dev", "--expires", given)
        assert result.exit_code == 2 and said in result.stderr
        assert result.stderr.count("\n") == 1
    assert not (vault / "dev" / "facts.md").exists()
