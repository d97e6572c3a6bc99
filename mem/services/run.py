"""`mem run`: the whole loop around one agent command.

Recall, start the command with the context, stream its output through unchanged while keeping a
checkpoint, then commit what it printed and hand off. An interrupted or killed command leaves its
checkpoint marked interrupted, which the next recall shows under Recovering.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from mem.config import Settings, check_agent
from mem.errors import CommandNotStarted, InvalidInput, MemError
from mem.model import CommitReport, Entry
from mem.services import session
from mem.services.commit import commit, lines_of
from mem.services.feedback import QUIET, Feedback
from mem.services.recall import recall
from mem.vault import state, store
from mem.vault.layout import inside

INJECT_MODES = ("env", "stdin", "arg", "file")
CHECKPOINT_EVERY = 15.0  # seconds between checkpoint saves while output streams
TAIL_LINES = 15  # lines of output a checkpoint keeps, for whoever recovers
STOP_GRACE = 10.0  # seconds an interrupted command gets to exit before it is terminated


class Stopped(Exception):
    """SIGTERM or SIGHUP reached `mem run`: stop the command as Ctrl-C would."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


class RunReport(NamedTuple):
    exit_code: int
    interrupted: bool
    context_tokens: int
    commit: CommitReport | None
    handoff: Entry | None


class Tail:
    """The last lines of a byte stream, for the checkpoint."""

    def __init__(self) -> None:
        self.lines: deque[bytes] = deque(maxlen=TAIL_LINES)
        self.partial = b""

    def feed(self, chunk: bytes) -> None:
        *complete, self.partial = (self.partial + chunk).split(b"\n")
        self.lines.extend(complete)
        self.partial = self.partial[-4096:]

    def text(self) -> str:
        lines = [*self.lines, self.partial] if self.partial else list(self.lines)
        return b"\n".join(lines[-TAIL_LINES:]).decode("utf-8", errors="replace")[-2000:]


def run(
    settings: Settings,
    command: Sequence[str],
    out: BinaryIO,
    task: str = "",
    inject: str = "env",
    budget: int | None = None,
    stdin: BinaryIO | None = None,
    clock: Callable[[], float] = time.monotonic,
    feedback: Feedback = QUIET,
) -> RunReport:
    """Run `command` with the agent's memory and remember what it did."""
    vault = settings.require_vault()
    agent = check_agent(settings.agent)
    if not command:
        raise InvalidInput("give the command to run after --, e.g. mem run -- claude -p 'fix it'")
    if inject not in INJECT_MODES:
        raise InvalidInput(f"unknown --inject {inject!r}; choose one of {', '.join(INJECT_MODES)}")
    shown = shlex.join(command)
    block = recall(settings, task, budget, feedback=feedback)
    relative = f"{state.STATE_FOLDER}/{agent}/run-{os.getpid()}-{os.urandom(3).hex()}"
    folder = inside(vault, relative)
    try:
        # Before the command starts: a vault it cannot write is one line, not a traceback.
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "context.md").write_text(block.text, encoding="utf-8")
    except OSError as exc:
        raise store.explain_os_error(exc, relative) from exc
    try:
        context = folder / "context.md"
        capture = folder / "output.log"
        args = list(command)
        if inject == "arg":
            args.append(block.text)
        elif inject == "file":
            args.append(str(context))
        env = dict(os.environ, MEM_CONTEXT=str(context), MEM_AGENT=agent, MEM_VAULT=str(vault))
        try:
            process = subprocess.Popen(
                args,
                stdout=subprocess.PIPE,
                stdin=subprocess.PIPE if inject == "stdin" else None,
                env=env,
            )
        except OSError as exc:  # the last checkpoint stays: nothing new was started
            raise CommandNotStarted(f"cannot start {command[0]}: {exc.strerror}") from exc
        previous = catch_stop_signals()
        session.save_checkpoint(
            settings,
            task=task,
            what=f"running {shown}",
            command=shown,
            owner=state.owner_of_this_process(),
        )
        if inject == "stdin":
            threading.Thread(
                target=feed_stdin, args=(process, block.text, stdin), daemon=True
            ).start()
        tail = Tail()
        interrupted = False
        try:
            try:
                stream(process, out, capture, tail, settings, task, shown, clock)
                code = process.wait()
            except (KeyboardInterrupt, Stopped) as exc:
                interrupted = True
                code = stop(process, exc.signum if isinstance(exc, Stopped) else signal.SIGINT)
                stream(process, out, capture, tail, settings, task, shown, clock)  # its last words
        finally:
            restore_signals(previous)
            if process.stdout is not None:
                process.stdout.close()
        if code < 0:  # killed by a signal
            interrupted = True
            code = shell_status(code)
        failed = code != 0 and not interrupted
        try:
            report = remember(settings, capture, interrupted or failed)
        except MemError as exc:  # the command's result matters more than our bookkeeping
            feedback.notice(f"mem run: could not commit the output: {exc}")
            report = None
        handoff = report.handoff if report else None
        if interrupted:
            session.save_checkpoint(
                settings,
                task=task,
                what=f"interrupted (exit {code}) before it finished",
                command=shown,
                output_tail=tail.text(),
                status="interrupted",
            )
        elif handoff is None:
            # A failed run, or one that said nothing to hand off, must not replace the last
            # good handoff in recall; it is no longer in progress either.
            session.clear_checkpoint(settings)
            outcome = f"failed (exit {code})" if failed else "left nothing to hand off"
            feedback.notice(f"mem run: the command {outcome}; the last handoff stays")
        return RunReport(code, interrupted, block.tokens, report, handoff)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def feed_stdin(process: subprocess.Popen[bytes], context: str, stdin: BinaryIO | None) -> None:
    """Give the command the context, then whatever was piped into `mem run`."""
    assert process.stdin is not None
    try:
        process.stdin.write(context.encode("utf-8"))
        if stdin is not None:
            shutil.copyfileobj(stdin, process.stdin)
        process.stdin.close()
    except (BrokenPipeError, OSError, ValueError):
        pass  # the command stopped reading; that is its business


def stream(
    process: subprocess.Popen[bytes],
    out: BinaryIO,
    capture: Path,
    tail: Tail,
    settings: Settings,
    task: str,
    shown: str,
    clock: Callable[[], float],
) -> None:
    """Copy the command's output to `out` unchanged as it comes, and keep it for the commit."""
    assert process.stdout is not None
    last_save = clock()
    with capture.open("ab") as kept:
        while chunk := os.read(process.stdout.fileno(), 65536):
            # Kept before it is passed on: a SIGTERM sent by whoever just read it (the handler
            # raises between any two steps) must not lose it from the checkpoint and the commit.
            tail.feed(chunk)
            kept.write(chunk)
            try:
                out.write(chunk)
                out.flush()
            except BrokenPipeError:
                pass  # whoever reads our output left; keep capturing for the commit
            if clock() - last_save >= CHECKPOINT_EVERY:
                last_save = clock()
                session.save_checkpoint(
                    settings,
                    task=task,
                    what=f"running {shown}",
                    command=shown,
                    output_tail=tail.text(),
                    owner=state.owner_of_this_process(),
                )


def catch_stop_signals() -> dict[int, Any]:
    """Turn SIGTERM and SIGHUP into Stopped while the command runs (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def raise_stopped(signum: int, _frame: object) -> None:
        raise Stopped(signum)

    previous: dict[int, Any] = {}
    for signum in (signal.SIGTERM, signal.SIGHUP):
        previous[signum] = signal.signal(signum, raise_stopped)
    return previous


def restore_signals(previous: dict[int, Any]) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler)


def stop(process: subprocess.Popen[bytes], signum: int) -> int:
    """Pass the signal on, give the command a moment, then terminate it; return its exit code
    as a shell reports it. A second Ctrl-C while waiting kills it at once."""
    try:
        if process.poll() is None:
            process.send_signal(signum)
        try:
            process.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                process.kill()
    except (KeyboardInterrupt, Stopped):
        process.kill()
    return shell_status(process.wait())


def shell_status(code: int) -> int:
    """An exit code as a shell reports it: 128 + N for a process killed by signal N."""
    return 128 - code if code < 0 else code


def remember(settings: Settings, capture: Path, no_handoff: bool) -> CommitReport | None:
    """Commit what the command printed; an interrupted or failed run writes no handoff."""
    if not capture.exists() or capture.stat().st_size == 0:
        return None
    with capture.open("rb") as handle:
        return commit(
            settings, lines_of(handle), "auto", now=datetime.now(UTC), hand_off=not no_handoff
        )
