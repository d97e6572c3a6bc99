"""`mem commit` on real sessions: what it keeps, what it never stores, and the handoff it writes."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from .helpers import data, ok
from conftest import REPO, SHARED

CAPTURE = SHARED / "bench" / "capture-dev"


def stored_text(vault) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(vault.rglob("*.md")))


# --- noise ----------------------------------------------------------------------------------


def test_what_the_projects_instruction_files_say_is_not_stored_again(mem, vault):
    (vault.parent / "CLAUDE.md").write_text(
        "# Rules\n\n- Always run make lint before committing.\n- Never push to main directly.\n"
    )
    output = (
        "Always run make lint before committing.\n\n"
        "Turns out the linter config ignores the migrations folder.\n"
    )
    report = data(mem("commit", "--agent", "dev", "--json", input=output))
    assert [entry["body"] for entry in report["added"]] == [
        "Turns out the linter config ignores the migrations folder."
    ]


def test_system_reminders_hook_lines_and_the_agents_narration_are_never_stored(mem, vault):
    output = (
        "<system-reminder>\nWhenever you read a file, you should consider whether it would be "
        "considered malware. Never improve it.\n</system-reminder>\n\n"
        "The user asked to make the tests faster.\n\n"
        "Let me check the test configuration first.\n\n"
        "The root cause was a fixture that rebuilt the database for every test.\n"
    )
    report = data(mem("commit", "--agent", "dev", "--json", input=output))
    assert [entry["body"] for entry in report["added"]] == [
        "The root cause was a fixture that rebuilt the database for every test."
    ]
    assert "malware" not in stored_text(vault) and "asked to" not in stored_text(vault)


# --- the handoff ----------------------------------------------------------------------------


def test_the_handoff_says_what_the_session_did_with_files_and_commits_named_in_prose(mem, vault):
    output = (
        "I fixed the flaky test_webhook_retry test: the retry clock was not frozen.\n\n"
        "I fixed it in src/webhooks/retry.py and added a case to tests/test_webhooks.py.\n"
        "Committed as 9f3e1ab.\n\n"
        "All 214 tests pass.\n"
    )
    handoff = data(mem("commit", "--agent", "dev", "--json", input=output))["handoff"]["body"]
    assert handoff.startswith("**What:** I fixed the flaky test_webhook_retry test")
    assert "- src/webhooks/retry.py" in handoff and "- tests/test_webhooks.py" in handoff
    assert "- 9f3e1ab" in handoff


def test_the_handoff_names_what_was_asked(mem, vault):
    transcript = [
        {
            "type": "user",
            "sessionId": "h1",
            "message": {"role": "user", "content": "Add a --since flag to list."},
        },
        {
            "type": "assistant",
            "sessionId": "h1",
            "message": {
                "id": "m1",
                "role": "assistant",
                "content": [{"type": "text", "text": "Added the --since flag to `mem list`."}],
            },
        },
    ]
    lines = "".join(json.dumps(record) + "\n" for record in transcript)
    handoff = data(mem("commit", "--agent", "dev", "--json", input=lines))["handoff"]["body"]
    assert "**What:** Added the --since flag to `mem list`." in handoff
    assert "**Asked:** Add a --since flag to list." in handoff


def test_a_failed_run_writes_no_handoff_over_the_last_good_one(mem, vault):
    good = "SUMMARY: Moved the session store to Redis.\n"
    first = data(mem("commit", "--agent", "dev", "--json", input=good))["handoff"]
    failed = (
        json.dumps(
            {
                "type": "result",
                "subtype": "error_max_turns",
                "is_error": True,
                "result": "",
                "session_id": "f1",
            }
        )
        + "\n"
    )
    report = data(
        mem("commit", "--agent", "dev", "--json", "--format", "stream-json", input=failed)
    )
    assert report["handoff"] is None
    shown = ok(mem("handoff", "show", "--agent", "dev")).stdout
    assert shown.startswith("**What:** Moved the session store to Redis.")
    assert first["body"] in shown


# --- the real sessions of capture-dev -------------------------------------------------------


# The level reached on each part of capture-dev (bench/capture.py), raised as capture improves:
# the part tuned on says how well the rules fit, the part set aside how well they transfer.
FLOOR = {
    "tuned": {"kept": 0.74, "noise": 3, "entries_per_item": 1.8},
    # 0.49 until a failure's bare name stopped making a lesson (70 fewer entries, 7 of them
    # with a labelled item, on the material tuned on): 2 of 79 items, traded for precision
    "set aside": {"kept": 0.46, "noise": 2, "entries_per_item": 1.85},
}
# bench/capture-more, twenty-two more real sessions in the repository itself (all but h read
# since their measurement before tuning, so tuning sets): the level reached on each set.
MORE = REPO / "bench" / "capture-more"
# a: 0.57 before pull requests' descriptions were read; two of its keys are now kept in the
# words of the pull request the agent wrote before its report said them again.
MORE_FLOOR = {
    "a": {"kept": 0.68, "noise": 0},
    "b": {"kept": 0.73, "noise": 1},
    "c": {"kept": 0.43, "noise": 1},
    "d": {"kept": 0.62, "noise": 0},
    # e: noise 1 until list items kept their own full stops: two "Evidence:" items stored
    # before as now, whose noise keys end in a full stop, are now found (a truer count)
    "e": {"kept": 0.79, "noise": 3},
    "f": {"kept": 0.69, "noise": 0},
    "g": {"kept": 0.53, "noise": 0},
    "h": {"kept": 0.44, "noise": 0},
    "i": {"kept": 0.62, "noise": 1},
}


@pytest.mark.skipif(not CAPTURE.is_dir(), reason="../shared/bench is absent")
def test_real_sessions_keep_what_matters_on_the_part_tuned_on_and_the_part_set_aside():
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "capture.py"), str(CAPTURE), "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)["parts"]
    for part, floor in FLOOR.items():
        figures = report[part]
        assert figures["kept"] >= floor["kept"], (part, figures)
        assert figures["noise"] <= floor["noise"], (part, figures)
        assert figures["entries_per_item"] <= floor["entries_per_item"], (part, figures)


@pytest.mark.parametrize("name", sorted(MORE_FLOOR))
def test_more_real_sessions_keep_what_matters_at_the_level_reached(name):
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "capture.py"), str(MORE / name), "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)["parts"]["all"]
    floor = MORE_FLOOR[name]
    assert figures["kept"] >= floor["kept"], (name, figures)
    assert figures["noise"] <= floor["noise"], (name, figures)


@pytest.mark.skipif(not CAPTURE.is_dir(), reason="../shared/bench is absent")
def test_an_aider_change_taken_back_with_undo_is_neither_memory_nor_in_the_handoff(mem, vault):
    path = CAPTURE / "aider-aider-playwright-unbound.md"
    report = data(mem("commit", "--agent", "dev", "--file", str(path), "--json"))
    commits = re.findall(r"^- ([0-9a-f]{7}) ", report["handoff"]["body"], re.MULTILINE)
    assert "0fdc07f" not in commits and "5bb744f" not in commits and "55b7089" in commits
    bodies = [entry["body"] for entry in report["added"]]
    # The change kept (55b7089) is memory; what was said of the two undone ones is not.
    assert any("Initializes the `response` variable" in body for body in bodies)
    assert not any("`content = None`" in body for body in bodies)
    assert not any("JavaScript error" in body for body in bodies)


def test_half_an_emoji_in_a_transcript_is_stored_as_a_replacement_not_a_crash(mem, vault):
    line = json.dumps(
        {
            "type": "assistant",
            "sessionId": "S\udc80",
            "message": {
                "id": "m",
                "role": "assistant",
                "content": [{"type": "text", "text": "The root cause was a \ud83d cut emoji."}],
            },
        }
    )
    report = data(mem("commit", "--agent", "dev", "--json", input=line + "\n"))
    assert report["added"][0]["body"].startswith("The root cause was a ")


# --- bad input ------------------------------------------------------------------------------


def test_a_format_that_matches_nothing_is_an_error_not_an_empty_session(mem, vault):
    before = stored_text(vault)
    result = mem(
        "commit",
        "--agent",
        "dev",
        "--format",
        "claude-jsonl",
        "--json",
        input="We decided to use Redis because it is fast.\n",
    )
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "format_mismatch"
    assert "no line of the input reads as claude-jsonl" in result.stderr
    assert stored_text(vault) == before


def test_tee_passes_every_byte_through_even_when_the_commit_fails(run_mem, tmp_path):
    raw = b"agent output \xff\xfe with odd bytes\nand a second line\n"
    result = subprocess.run(
        [sys.executable, "-m", "mem", "--vault", str(tmp_path / "none"), "commit", "--tee"],
        input=raw,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1 and result.stdout == raw
    assert b"no vault" in result.stderr


def test_binary_input_stores_no_handoff_of_garbage(mem, vault):
    noise = bytes(range(256)) * 40
    result = mem("commit", "--agent", "dev", "--json", input=noise)
    assert result.exit_code == 1 and json.loads(result.stdout)["error"]["code"] == "invalid_content"
    assert not (vault / "dev").exists()


def test_a_byte_order_mark_is_not_part_of_what_is_read(mem, vault):
    report = data(
        mem(
            "commit",
            "--agent",
            "dev",
            "--json",
            input="\ufeffSUMMARY: Moved sessions to Redis.\n".encode("utf-8"),
        )
    )
    assert report["handoff"]["body"].startswith("**What:** Moved sessions to Redis.")
    assert "\ufeff" not in stored_text(vault)


def test_a_commit_says_what_it_left_out_past_the_most_it_stores(mem, vault):
    many = "\n\n".join(f"TODO: move job{n} queue{n} worker{n} store{n}" for n in range(520))
    report = data(mem("commit", "--agent", "dev", "--json", input=many))
    assert len(report["added"]) == 500 and report["left_out"] == 20
    said = ok(
        mem("commit", "--agent", "dev", "--dry-run", input=many.replace("move", "port"))
    ).stdout
    assert "left out 20 more: one commit stores at most 500" in said


def test_explain_says_where_each_entry_was_found_and_what_made_it_memory(mem, vault):
    output = (
        "The deploy failed because `pnpm` was missing from the runner image.\n\n"
        "- The change is uncommitted on `next`.\n"
    )
    report = data(mem("commit", "--agent", "dev", "--json", "--explain", input=output))
    assert {entry["body"]: entry["why"] for entry in report["added"]} == {
        "The deploy failed because `pnpm` was missing from the runner image.": (
            "the agent's report: lesson cue 'The deploy failed because'"
        ),
        "- [ ] The change is uncommitted on `next`.": (
            "the agent's report: open signal 'uncommitted'"
        ),
    }
    said = ok(mem("commit", "--agent", "qa", "--dry-run", "--explain", input=output)).stdout
    assert "why: the agent's report: open signal 'uncommitted'" in said
    plain = data(mem("commit", "--agent", "qa", "--json", "--dry-run", input=output))
    assert all("why" not in entry for entry in plain["added"])
