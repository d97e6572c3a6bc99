"""Read what Claude Code printed on a terminal: `⏺` (`●` in some terminals and versions) opens
the agent's text or a tool call, `⎿` opens a tool's output, `>` or `❯` opens the person's
prompt; continuation lines are indented."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mem.extract.checks import check_commands
from mem.extract.formats import COMMIT_LINE, Message, without_recall

# `⏺ Bash(git add .)`, `⏺ Update(src/app.ts)`, `⏺ Update Todos`: tool calls, not prose.
TOOL_CALL = re.compile(r"^[⏺●] (?P<name>[A-Z][\w-]*(?: Todos)?)(?:\((?P<args>.*)|\s*$)")
AGENT = ("⏺ ", "● ")
EDIT_TOOLS = {"Write", "Edit", "Update", "MultiEdit", "Create", "NotebookEdit"}


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield the person's prompts and the agent's text; tool output is read only for commits,
    tool calls only for the files they edit and the checks they run."""
    role = ""  # assistant | user | tool | call, for the block being read
    prose: list[str] = []

    def flush() -> Iterator[Message]:
        if role in ("assistant", "user") and any(line.strip() for line in prose):
            yield Message(role, "".join(prose))
        prose.clear()

    for line in without_recall(lines):
        if line.startswith(AGENT):
            yield from flush()
            call = TOOL_CALL.match(line.rstrip())
            if call:
                role = "call"
                args = (call["args"] or "").rstrip(")").strip()
                if call["name"] in EDIT_TOOLS and args:
                    yield Message("assistant", files=(args,))
                elif call["name"] == "Bash" and not args.endswith("…"):  # not cut short
                    # No exit status is printed for sure: a check that failed is still run so.
                    checks = check_commands(args)
                    if checks:
                        yield Message("assistant", checks=checks)
                continue
            role = "assistant"
            prose.append(line[2:])
            continue
        if line.lstrip().startswith("⎿"):
            yield from flush()
            role = "tool"
            line = line.lstrip()[1:]
        # `❯` is only ever the prompt; `>` may also start a line of a tool's output.
        if line.startswith("❯ ") or (line.startswith("> ") and role != "tool"):
            yield from flush()
            role = "user"
            prose.append(line[2:])
            continue
        if role == "tool":
            commit = COMMIT_LINE.match(line.strip())
            if commit:
                yield Message("assistant", commits=(f"{commit['sha'][:7]} {commit['subject']}",))
            continue
        if role == "call":
            continue
        # The agent's and the person's text go on at an indent of two.
        prose.append(line.removeprefix("  "))
    yield from flush()
