"""`mem run`: recall, run a real command with the context, stream, checkpoint, commit, hand off."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from .helpers import data, failed, messages, ok, with_default_sigint

AGENT = """\
import json, os, pathlib, sys, time
context = pathlib.Path(os.environ["MEM_CONTEXT"]).read_text()
state = pathlib.Path(os.environ["MEM_VAULT"]) / ".mem/state/dev/checkpoint.json"
print("context lines:", len(context.splitlines()), "recall fence:", "mem-recall agent=" in context)
# mem run saves the checkpoint once the command has started (a command that cannot start leaves
# the last one): on a loaded machine this script may look first, so it waits (at most 20 s).
for _ in range(400):
    if state.exists():
        break
    time.sleep(0.05)
print("checkpoint while running:", json.loads(state.read_text())["status"])
print("We decided to keep Redis streams instead of Kafka because the volume is small.")
print("TODO: add retries to the consumer")
sys.stdout.flush()  # the text layer's buffer, before bytes go straight to the byte layer
sys.stdout.buffer.write(b"raw bytes \\xff pass through\\n")
sys.exit(int(os.environ.get("EXIT", "0")))
"""


def start_run(
    vault: Path, agent: str, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """`mem run -a dev -- python AGENT` as a real process, its output piped back to the test,
    that Ctrl-C reaches as in a terminal."""
    args = [sys.executable, "-m", "mem", "--vault", str(vault), "run", "-a", "dev", "--"]
    args += [sys.executable, agent]
    return subprocess.Popen(
        with_default_sigint(args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_run_gives_the_context_streams_output_and_remembers(mem, vault, tmp_path):
    agent = script(tmp_path, "agent.py", AGENT)
    mem("add", "Queue consumers are written in Go.", "-c", "facts", "-a", "dev")
    result = mem("run", "-a", "dev", "--task", "queue consumer", "--", sys.executable, agent)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == [
        "context lines: 5 recall fence: True",
        "checkpoint while running: active",
    ]
    assert "raw bytes \ufffd pass through" in result.stdout  # bytes went through untouched
    assert messages(result.stderr)[-1].startswith("mem run: kept 2, reinforced 0; handoff ")
    decisions = (vault / "dev" / "decisions.md").read_text()
    assert "keep Redis streams instead of Kafka" in decisions
    assert "add retries to the consumer" in (vault / "dev" / "tasks.md").read_text()
    assert data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"] is None
    assert "Redis streams" in ok(mem("handoff", "show", "-a", "dev")).stdout
    assert not list((vault / ".mem" / "state" / "dev").glob("run-*"))  # context file removed


def test_a_failed_run_keeps_what_it_learned_but_not_its_handoff(mem, vault, tmp_path):
    agent = script(tmp_path, "agent.py", AGENT)
    ok(mem("handoff", "--what", "Moved the queue to Redis streams.", "-a", "dev"))
    result = mem("run", "-a", "dev", "--", sys.executable, agent, env={"EXIT": "3"})
    assert result.exit_code == 3
    assert "the command failed (exit 3); the last handoff stays" in result.stderr
    assert "keep Redis streams instead of Kafka" in (vault / "dev" / "decisions.md").read_text()
    shown = ok(mem("handoff", "show", "-a", "dev")).stdout
    assert shown.startswith("**What:** Moved the queue to Redis streams.")
    assert data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"] is None


def test_an_empty_run_writes_no_handoff_over_the_last_good_one(mem, vault, tmp_path):
    quiet = script(tmp_path, "quiet.py", "pass\n")
    ok(mem("handoff", "--what", "Moved the queue to Redis streams.", "-a", "dev"))
    result = ok(mem("run", "-a", "dev", "--", sys.executable, quiet))
    assert "left nothing to hand off; the last handoff stays" in result.stderr
    shown = ok(mem("handoff", "show", "-a", "dev")).stdout
    assert shown.startswith("**What:** Moved the queue to Redis streams.")


def test_a_runs_bare_output_is_no_handoff(mem, vault):
    ok(mem("handoff", "--what", "Moved the queue to Redis streams.", "-a", "dev"))
    result = ok(mem("run", "-a", "dev", "--", "bash", "-c", 'echo "len: 507"'))
    assert "left nothing to hand off; the last handoff stays" in result.stderr
    shown = ok(mem("handoff", "show", "-a", "dev")).stdout
    assert shown.startswith("**What:** Moved the queue to Redis streams.")


def test_run_passes_bytes_through_exactly(run_mem, vault, tmp_path):
    raw = bytes(range(256)) * 4
    agent = script(tmp_path, "raw.py", f"import sys\nsys.stdout.buffer.write({raw!r})\n")
    completed = subprocess.run(
        [sys.executable, "-m", "mem", "--vault", str(vault), "run", "--", sys.executable, agent],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == raw


def test_the_context_can_come_on_stdin_as_an_argument_or_as_a_file(mem, vault, tmp_path):
    (vault / "_project.md").write_text("The billing service, in Go.\n")
    echo_stdin = script(tmp_path, "stdin.py", "import sys\nprint(sys.stdin.read())\n")
    shown = ok(mem("run", "--inject", "stdin", "--", sys.executable, echo_stdin, input="PROMPT"))
    assert "The billing service, in Go." in shown.stdout
    assert shown.stdout.rstrip().endswith("</mem-recall>\nPROMPT")
    echo_arg = script(tmp_path, "arg.py", "import sys\nprint(sys.argv[-1])\n")
    shown = ok(mem("run", "--inject", "arg", "--", sys.executable, echo_arg, input=""))
    assert shown.stdout.startswith("<mem-recall ") and "billing service" in shown.stdout
    read_file = script(tmp_path, "file.py", "import sys\nprint(open(sys.argv[-1]).read())\n")
    shown = ok(mem("run", "--inject", "file", "--", sys.executable, read_file, input=""))
    assert shown.stdout.startswith("<mem-recall ") and "billing service" in shown.stdout


def test_a_killed_command_leaves_an_interrupted_checkpoint_for_the_next_recall(
    mem, vault, tmp_path
):
    dying = script(
        tmp_path,
        "dying.py",
        "import os, signal\n"
        "print('Halfway through the migration of table users.', flush=True)\n"
        "print('password=hunter2hunter2', flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n",
    )
    result = mem("run", "-a", "dev", "--task", "migrate users", "--", sys.executable, dying)
    assert result.exit_code == 128 + signal.SIGKILL
    assert "interrupted (exit 137)" in messages(result.stderr)[-1]
    checkpoint = data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"]
    assert checkpoint["status"] == "interrupted" and checkpoint["task"] == "migrate users"
    assert "Halfway through the migration" in checkpoint["output_tail"]
    assert "hunter2" not in (vault / ".mem" / "state" / "dev" / "checkpoint.json").read_text()
    block = ok(mem("recall", "-a", "dev")).stdout
    assert "## Recovering" in block and "Checkpoint (interrupted" in block
    assert "Halfway through the migration" in block
    assert not (vault / "dev" / "handoffs.md").exists()


def test_ctrl_c_stops_the_command_and_leaves_an_interrupted_checkpoint(vault, tmp_path):
    slow = script(
        tmp_path,
        "slow.py",
        "import signal, sys, time\n"
        "def bye(*_):\n"
        "    print('stopping cleanly', flush=True)\n"
        "    sys.exit(1)\n"
        "signal.signal(signal.SIGINT, bye)\n"
        "print('started', flush=True)\n"
        "time.sleep(60)\n",
    )
    process = start_run(vault, slow, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    assert process.stdout.readline() == b"started\n"
    time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 1, err  # what the command itself exited with
    assert b"stopping cleanly" in out
    saved = json.loads((vault / ".mem" / "state" / "dev" / "checkpoint.json").read_text())
    assert saved["status"] == "interrupted"
    assert "started" in saved["output_tail"]


def test_bad_run_arguments_are_one_line_errors(mem, vault):
    assert "command" in failed(mem("run", "-a", "dev"), 2)
    assert "--inject" in failed(mem("run", "--inject", "smoke", "--", "true"), 2)
    message = failed(mem("run", "-a", "dev", "--", "no-such-agent-binary-xyz"), 1)
    assert "cannot start no-such-agent-binary-xyz" in message
    assert data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"] is None


def test_the_checkpoint_follows_the_output_while_the_command_runs(vault, tmp_path):
    # The service with an injected clock that jumps 20 s per look: every chunk saves a checkpoint.
    from mem.config import load_settings
    from mem.services import run as run_service

    watcher = script(
        tmp_path,
        "watcher.py",
        "import json, os, pathlib, time\n"
        "state = pathlib.Path(os.environ['MEM_VAULT']) / '.mem/state/dev/checkpoint.json'\n"
        "print('step one done', flush=True)\n"
        "time.sleep(0.5)\n"
        "print('tail seen:', json.loads(state.read_text())['output_tail'].strip(), flush=True)\n",
    )
    ticks = iter(range(0, 10_000, 20))
    out = tmp_path / "out.bin"
    settings = load_settings(vault_flag=str(vault), agent_flag="dev", environ={})
    with out.open("wb") as sink:
        report = run_service.run(
            settings, [sys.executable, watcher], sink, clock=lambda: float(next(ticks))
        )
    assert report.exit_code == 0 and not report.interrupted
    assert out.read_text().splitlines() == ["step one done", "tail seen: step one done"]


def test_sigterm_stops_the_command_and_leaves_an_interrupted_checkpoint(vault, tmp_path):
    sleeper = script(
        tmp_path, "sleeper.py", "import time\nprint('working', flush=True)\ntime.sleep(60)\n"
    )
    process = start_run(vault, sleeper)
    assert process.stdout is not None
    assert process.stdout.readline() == b"working\n"
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGTERM, err
    saved = json.loads((vault / ".mem" / "state" / "dev" / "checkpoint.json").read_text())
    assert saved["status"] == "interrupted" and "working" in saved["output_tail"]
    assert not list((vault / ".mem" / "state" / "dev").glob("run-*"))


def test_a_command_that_cannot_start_keeps_the_last_checkpoint(mem, vault, tmp_path):
    dying = script(
        tmp_path, "dying.py", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
    )
    mem("run", "-a", "dev", "--", sys.executable, dying)
    failed(mem("run", "-a", "dev", "--", "no-such-agent-binary-xyz"), 1)
    assert data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"]["status"] == (
        "interrupted"
    )


def test_a_commit_that_fails_does_not_hide_the_command_exit_code(mem, vault, tmp_path):
    (vault / "main").mkdir(exist_ok=True)
    (vault / "main" / "lessons.md").write_bytes(b"---\nagent: main\ncategory: lessons\n---\n\xff\n")
    teller = script(
        tmp_path,
        "teller.py",
        "print('Turns out the cache must be cleared before every deploy.')\nraise SystemExit(7)\n",
    )
    result = mem("run", "--", sys.executable, teller)
    assert result.exit_code == 7
    assert any("could not commit the output" in line for line in result.stderr.splitlines())


def test_a_mem_run_killed_outright_leaves_an_interrupted_checkpoint_not_one_in_progress(
    mem, vault, tmp_path
):
    pid_file = tmp_path / "sleeper.pid"
    sleeper = script(
        tmp_path,
        "sleeper.py",
        f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "print('working', flush=True)\ntime.sleep(60)\n",
    )
    process = start_run(vault, sleeper)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline() == b"working\n"
    shown = data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"]
    assert shown["status"] == "active"  # while it runs
    process.send_signal(signal.SIGKILL)  # mem run itself: no chance to say anything
    process.wait(timeout=30)
    os.kill(int(pid_file.read_text()), signal.SIGKILL)  # the command it ran, orphaned now
    process.stdout.close()
    process.stderr.close()
    checkpoint = data(mem("checkpoint", "show", "-a", "dev", "--json"))["checkpoint"]
    assert checkpoint["status"] == "interrupted"
    recall = ok(mem("recall", "-a", "dev")).stdout
    assert "Checkpoint (interrupted" in recall and "in progress" not in recall


def test_run_on_a_vault_it_cannot_write_is_a_one_line_error(mem, vault, tmp_path):
    # Root ignores read-only modes; a file where the state folder should be fails for anyone.
    (vault / ".mem").mkdir(exist_ok=True)
    state = vault / ".mem" / "state"
    if state.is_dir():
        shutil.rmtree(state)
    state.write_text("not a folder")
    marker = tmp_path / "ran"
    result = mem("run", "-a", "dev", "--", sys.executable, "-c", f"open({str(marker)!r}, 'w')")
    failed(result, 1)
    assert not marker.exists()  # the command never started: nothing half done
