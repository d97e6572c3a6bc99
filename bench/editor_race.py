"""Writes of `mem` racing a person's editor (a benchmark, not a test).

    python bench/editor_race.py                  # 8 processes x 25 adds, a save every 50 ms
    python bench/editor_race.py --code /tmp/old  # the same with another checkout's code

In a fresh vault, 8 processes each run `mem add` into `dev/lessons.md` while a loop saves that
file the way an editor does, without any lock of mem's: read it, append a hand-written entry,
write a temp file, rename it over the original, every `--every` seconds. At the end it counts
the hand-written entries and the added entries missing from the file.

A hand-written entry lost is mem's fault: a write of mem's replaced the file with a copy made
before the editor's save. An added entry lost is the editor's: it renamed a copy it read before
mem's write, as it would undo any program's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, default=REPO, help="a checkout of mem to run")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--adds", type=int, default=25, help="adds per writer")
    parser.add_argument("--every", type=float, default=0.05, help="seconds between saves")
    args = parser.parse_args(argv)
    environment = {**os.environ, "PYTHONPATH": str(args.code)}
    environment.pop("MEM_VAULT", None)

    def mem(folder: str, *words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mem", *words],
            cwd=folder,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )

    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["git", "init", "-q", folder], check=True)
        mem(folder, "init")
        mem(folder, "add", "The first lesson", "-c", "lessons", "-a", "dev")
        path = Path(folder, ".memory", "dev", "lessons.md")
        stop = threading.Event()
        hand: list[str] = []

        def editor() -> None:
            while not stop.is_set():
                mark = f"hand-written-{len(hand):05d}"
                entry_id = f"20260101-000000-h{len(hand):05d}"
                block = (
                    f"<!-- id:{entry_id} kind:lesson -->\n## 2026-01-01T00:00Z\n\n{mark}\n\n---\n\n"
                )
                text = path.read_text(encoding="utf-8")
                temp = path.with_name(path.name + ".editor")
                temp.write_text(text + block, encoding="utf-8")
                temp.replace(path)
                hand.append(mark)
                time.sleep(args.every)

        added: list[str] = []
        failed: list[str] = []

        def writer(number: int) -> None:
            for n in range(args.adds):
                done = mem(folder, "add", f"Parallel {number}-{n}", "-c", "lessons", "-a", "dev")
                (added if done.returncode == 0 else failed).append(
                    done.stdout.strip() or done.stderr
                )

        saving = threading.Thread(target=editor)
        saving.start()
        writers = [threading.Thread(target=writer, args=(n,)) for n in range(args.writers)]
        for thread in writers:
            thread.start()
        for thread in writers:
            thread.join()
        stop.set()
        saving.join()
        final = path.read_text(encoding="utf-8")
        # A save that came twice around one write of mem's is kept beside the file, named.
        kept = "".join(p.read_text(encoding="utf-8") for p in path.parent.glob("*.kept-*"))
    lost_hand = sum(mark not in final and mark not in kept for mark in hand)
    in_kept = sum(mark not in final and mark in kept for mark in hand)
    lost_added = sum(entry_id not in final for entry_id in added)
    print(
        f"hand-written: {len(hand)} saved, {lost_hand} lost (mem's fault), {in_kept} only in "
        f"a file kept beside; added: {len(added)}, {lost_added} lost (the editor's), "
        f"{len(failed)} refused"
    )
    for reason, times in Counter(line.strip().splitlines()[-1] for line in failed).items():
        print(f"  refused {times}x: {reason[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
