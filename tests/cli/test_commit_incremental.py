"""A transcript file committed again reads only what was appended since (the ledger records
where reading may start again), and stores exactly what reading it whole would have stored."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from .helpers import KILL_BEFORE_WRITE, data, ok

AGENT = "dev"
CWD = "/work/shop"


def line(kind: str, session: str, number: int, **message: object) -> str:
    record = {"type": kind, "sessionId": session, "cwd": CWD, "uuid": f"{session}-{number}"}
    return json.dumps({**record, "message": message}) + "\n"


def turn(session: str, number: int, prompt: str, said: str, edited: str = "") -> str:
    """One turn of a Claude Code transcript: the prompt, an edit and its result, the reply."""
    usage = {"input_tokens": 100 + number, "output_tokens": 10}
    text = [{"type": "text", "text": said}]
    lines = [line("user", session, 4 * number, role="user", content=prompt)]
    if edited:
        call = {"type": "tool_use", "id": f"t{number}", "name": "Edit"}
        call["input"] = {"file_path": f"{CWD}/{edited}", "old_string": "a", "new_string": "b"}
        calling = {"id": f"m{number}a", "role": "assistant", "content": [call], "usage": usage}
        lines.append(line("assistant", session, 4 * number + 1, **calling))
        result = [{"type": "tool_result", "tool_use_id": f"t{number}", "content": "ok"}]
        lines.append(line("user", session, 4 * number + 2, role="user", content=result))
    reply = {"id": f"m{number}b", "role": "assistant", "content": text, "usage": usage}
    lines.append(line("assistant", session, 4 * number + 3, **reply))
    return "".join(lines)


TURNS = [
    ("Why do logins fail?", "The root cause was a stale session cookie left by the old domain."),
    ("Pick a session store.", "We decided to use Redis over Memcached because it persists."),
    ("Anything about the proxy?", "Turns out the staging proxy strips the SameSite attribute."),
    ("And the tests?", "TODO: add a regression test for the redirect race."),
    ("Which database?", "We chose PostgreSQL over MySQL for its JSONB columns."),
    ("What about builds?", "Lesson learned: the Alpine image cannot build argon2-cffi."),
    ("Wrap up.", "SUMMARY: Fixed the login redirect by moving sessions server-side."),
]


def transcript(session: str = "s-1", upto: int = len(TURNS)) -> str:
    return "".join(
        turn(session, n, prompt, said, f"src/app{n}.py" if n % 2 else "")
        for n, (prompt, said) in enumerate(TURNS[:upto])
    )


def commit(mem, path: Path, *extra: str) -> dict:
    return data(mem("commit", "-a", AGENT, "--file", str(path), "--json", *extra))


def reached(vault: Path) -> list[dict]:
    folder = vault / ".mem" / "state" / AGENT / "reached"
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


def memory(vault: Path) -> dict[str, str]:
    """Every category file, ids, dates and stamps of the moment aside."""
    found = {}
    for path in sorted(vault.rglob("*.md")):
        if ".mem" in path.parts or path.name == "README.md":
            continue
        text = path.read_text(encoding="utf-8")
        found[str(path.relative_to(vault))] = re.sub(
            r"id:\S+|## \d{4}-\S+|seen:\S+|promoted:\S+", "", text
        )
    return found


def test_a_grown_transcript_is_read_from_where_the_last_commit_reached(mem, vault, tmp_path):
    path = tmp_path / "s-1.jsonl"
    path.write_text(transcript(upto=4))
    first = commit(mem, path)
    assert first["messages"] > 4
    [place] = reached(vault)
    assert place["path"] == str(path.resolve()) and place["format"] == "claude-jsonl"
    assert 0 < place["restart"] < path.stat().st_size
    with path.open("a") as handle:
        handle.write(transcript()[len(transcript(upto=4)) :])
    grown = commit(mem, path)
    # Read again: the last turn before (from its restart point) and the three new ones.
    assert grown["messages"] < first["messages"]
    assert {e["body"] for e in grown["added"]} >= {TURNS[4][1], TURNS[5][1]}
    assert reached(vault)[0]["restart"] > place["restart"]


def test_what_lies_before_the_restart_point_is_not_read_again(mem, vault, tmp_path):
    """Change a message far before the restart point (same length, so the offsets hold, and
    beyond the bytes the check covers): read from the restart point, the change is never
    seen; read whole, it is."""
    filler = "".join(
        turn("s-1", n, f"Step {n}?", f"Looked at step {n}. " + "Nothing to note. " * 120)
        for n in range(10, 60)
    )
    start = transcript(upto=1) + filler
    path = tmp_path / "s-1.jsonl"
    path.write_text(start)
    commit(mem, path)
    old = "The root cause was a stale session cookie left by the old domain."
    new = "The root cause was a stale DNS entry cached by the office router."
    assert len(old) == len(new) and reached(vault)[0]["restart"] > 100_000
    path.write_text(start.replace(old, new) + turn("s-1", 99, *TURNS[4]))
    grown = commit(mem, path)
    assert [e["body"] for e in grown["added"]] == [TURNS[4][1]]
    shutil.rmtree(vault / ".mem" / "state" / AGENT / "reached")
    whole = commit(mem, path)
    assert [e["body"] for e in whole["added"]] == [new]


def test_a_rewritten_file_is_read_whole(mem, vault, tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_text(transcript("s-1", upto=5))
    commit(mem, path)
    path.write_text(transcript("s-2"))  # another session at the same path, longer
    again = commit(mem, path)
    assert again["messages"] == commit_whole_count(mem, tmp_path, transcript("s-2"))
    assert len(again["reinforced"]) >= 5  # the same words in another session reinforce


def commit_whole_count(mem, tmp_path: Path, text: str) -> int:
    other = tmp_path / "count.jsonl"
    other.write_text(text)
    return commit(mem, other, "--dry-run")["messages"]


def test_a_truncated_file_is_read_whole(mem, vault, tmp_path):
    path = tmp_path / "s-1.jsonl"
    path.write_text(transcript())
    first = commit(mem, path)
    path.write_text(transcript(upto=2))
    cut = commit(mem, path)
    assert cut["messages"] == cut["already_committed"] > 0
    assert cut["added"] == cut["reinforced"] == [] and first["added"]


def test_two_files_keep_a_place_each(mem, vault, tmp_path):
    one, two = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    one.write_text(transcript("s-a", upto=3))
    two.write_text(transcript("s-b", upto=6))
    commit(mem, one)
    commit(mem, two)
    places = {place["path"]: place["restart"] for place in reached(vault)}
    assert set(places) == {str(one.resolve()), str(two.resolve())}
    assert places[str(one.resolve())] < places[str(two.resolve())]
    one.write_text(transcript("s-a"))
    grown = commit(mem, one)
    assert TURNS[5][1] in {e["body"] for e in grown["added"] + grown["reinforced"]}
    assert grown["messages"] < commit_whole_count(mem, tmp_path, transcript("s-a"))
    assert {p["path"]: p["restart"] for p in reached(vault)}[str(two.resolve())] == places[
        str(two.resolve())
    ]


def test_the_handoff_after_reading_from_the_restart_point_is_that_of_a_whole_read(
    run_mem, tmp_path
):
    """Commit a transcript as it grows, turn by turn: once from the restart points, once read
    whole every time; every file, handoff included, ends the same."""
    vaults = {}
    for way in ("restart", "whole"):
        base = tmp_path / way
        base.mkdir()
        ok(run_mem("init", cwd=base))
        vault = base / ".memory"
        path = base / "s-1.jsonl"
        for upto in range(1, len(TURNS) + 1):
            path.write_text(transcript(upto=upto))
            if way == "whole":
                shutil.rmtree(vault / ".mem" / "state" / AGENT / "reached", ignore_errors=True)
            ok(run_mem("--vault", str(vault), "commit", "-a", AGENT, "--file", str(path)))
        vaults[way] = memory(vault)
    assert vaults["restart"] == vaults["whole"]
    handoffs = vaults["restart"]["dev/handoffs.md"]
    assert "src/app5.py" in handoffs and "Fixed the login redirect" in handoffs


def test_an_aider_history_is_read_again_from_its_last_session(mem, vault, tmp_path):
    history = tmp_path / ".aider.chat.history.md"
    first = (
        "\n# aider chat started at 2026-01-05 10:00:00\n\n#### fix the login redirect\n\n"
        "The root cause was a stale session cookie left by the old domain.\n\n"
    )
    second = (
        "\n# aider chat started at 2026-01-06 09:00:00\n\n#### add the audit log\n\n"
        "We decided to write the audit log to Postgres because it is transactional.\n\n"
    )
    history.write_text(first + second)
    commit(mem, history)
    [place] = reached(vault)
    assert place["restart"] == len(first.encode()) + 1  # the second session's start line
    third = "\n#### and the retention?\n\nWe chose 90 days of retention because of the audit.\n"
    history.write_text(first + second + third)
    grown = commit(mem, history)
    assert [e["body"] for e in grown["added"]] == [
        "We chose 90 days of retention because of the audit."
    ]
    assert grown["handoff"]["body"].count("audit") >= 1
    assert "login redirect" not in grown["handoff"]["body"]


# A child that commits a file and kills itself (SIGKILL) just before its Nth file sync or
# rename: every point where a write, the ledger's or the restart point's, can be cut short.
KILLED_CHILD = (
    """
import sys
from datetime import datetime
from pathlib import Path
from mem.config import load_settings
from mem.services.commit import commit_file

vault, path, kill_at = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
"""
    + KILL_BEFORE_WRITE
    + """
moment = datetime.fromisoformat("2026-03-01T10:00:00+00:00")
commit_file(load_settings(vault_flag=vault, agent_flag="dev"), path, now=moment)
print(calls[0], flush=True)
"""
)


def child(vault: Path, path: Path, kill_at: int = 0) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", KILLED_CHILD, str(vault), str(path), str(kill_at)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_a_commit_killed_before_it_records_its_place_loses_and_doubles_nothing(run_mem, tmp_path):
    """Kill the commit of the grown transcript before each of its writes in turn (the last
    one records the restart point); the next commit leaves what one uninterrupted commit
    leaves, and reads on from a place whose part before is stored."""
    base = tmp_path / "base"
    base.mkdir()
    ok(run_mem("init", cwd=base))
    path = base / "s-1.jsonl"
    path.write_text(transcript(upto=3))
    assert child(base / ".memory", path).returncode == 0
    path.write_text(transcript())
    reference = tmp_path / "reference"
    shutil.copytree(base, reference)
    finished = child(reference / ".memory", reference / "s-1.jsonl")
    assert finished.returncode == 0, finished.stderr
    expected, writes = memory(reference / ".memory"), int(finished.stdout)
    for kill_at in range(1, writes + 1):
        copy = tmp_path / f"killed{kill_at}"
        shutil.copytree(base, copy)
        vault, copied = copy / ".memory", copy / "s-1.jsonl"
        assert child(vault, copied, kill_at).returncode == -signal.SIGKILL
        assert child(vault, copied).returncode == 0
        assert memory(vault) == expected, f"killed before write {kill_at} of {writes}"
        again = data(
            run_mem("--vault", str(vault), "commit", "-a", AGENT, "--file", str(copied), "--json")
        )
        assert again["added"] == again["reinforced"] == [], f"kill {kill_at}: counted twice"


def check_turn(session: str, number: int, command: str) -> str:
    """A turn in which the agent runs a shell command that succeeds."""
    call = {"type": "tool_use", "id": f"b{number}", "name": "Bash", "input": {"command": command}}
    calling = {"id": f"c{number}", "role": "assistant", "content": [call]}
    result = [{"type": "tool_result", "tool_use_id": f"b{number}", "content": "ok"}]
    return line("assistant", session, 100 + 2 * number, **calling) + line(
        "user", session, 101 + 2 * number, role="user", content=result
    )


def test_the_checks_a_session_ran_are_facts_kept_once_each_as_the_transcript_grows(
    mem, vault, tmp_path
):
    token = "ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR"  # invented (tests/extract/fake_secrets.py)
    path = tmp_path / "s-1.jsonl"
    path.write_text(
        transcript(upto=2) + check_turn("s-1", 1, f"cd {CWD} && npm test -- --token {token}")
    )
    commit(mem, path)
    facts = (vault / AGENT / "facts.md").read_text(encoding="utf-8")
    assert "Tests: `npm test -- --token [REDACTED" in facts
    assert token not in facts
    # Each turn end commits the grown transcript again (as a hook does), with a check more.
    for number, command in enumerate(["npm run lint", "npm run typecheck", "npm run build"], 2):
        with path.open("a") as handle:
            handle.write(check_turn("s-1", number, command))
        commit(mem, path)
    facts = (vault / AGENT / "facts.md").read_text(encoding="utf-8")
    for said in ["Tests: `npm test", "Lint: `npm run lint`", "Type check: `npm run typecheck`"]:
        assert facts.count(said) == 1, said
    assert "Build: `npm run build`" in facts
    assert "reinforced:" not in facts  # one session's own checks reinforce nothing
    shared = vault / "_shared" / "facts.md"
    assert not shared.exists() or "npm" not in shared.read_text(encoding="utf-8")
