"""Read chat sessions exported as markdown (SpecStory's exports of Cursor, VS Code Copilot and
Claude Code, and Cursor's own "Export Chat"): `_**User**_` and `_**Assistant**_` turns (Cursor:
`**User**` and `**Cursor**`), tool blocks, thinking.

SpecStory has written thinking three ways: `<think><details><summary>Thought Process</summary>
… </details></think>` (2025-07 on), a bare `<details><summary>Thought Process</summary>`, and
in Cursor's 2025-04 exports not at all. Thinking is not the agent's prose: it is yielded with
the role `thinking`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mem.extract.formats import (
    CURSOR_EXPORT,
    Message,
    commits_in,
    committed,
    succeeded_call,
    without_recall,
)

ROLE = re.compile(
    r"^(?:_\*\*(?P<who>User|Assistant|Agent)\b[^*]*\*\*_|\*\*(?P<cursor>User|Cursor)\*\*)\s*$"
)
TOOL_TAG_OPEN = re.compile(r"^\s*<tool-use\b")
TOOL_TAG_CLOSE = "</tool-use>"
TOOL_LINE = re.compile(r"^Tool use: \*\*(?P<name>[^*]+)\*\*")
EDIT_SUMMARY = re.compile(r"<summary>Edit file: (?P<path>[^<]+)</summary>")
FILE_NAMED = re.compile(
    r"(?:The file (?P<a>\S+) has been (?:updated|created)|File created successfully at: (?P<b>\S+)"
    r"|\"file_path\": \"(?P<c>[^\"]+)\")"
)
THINK_OPEN = re.compile(r"<think>|<details>\s*<summary>Thought Process</summary>")
# Tools that run a shell command, shown in a fenced block: what checks the work is read there.
TERMINAL_TOOLS = re.compile(r"run_terminal_cmd|run_in_terminal|runInTerminal|Bash\b", re.IGNORECASE)
TOOL_NAME = re.compile(r'data-tool-name="(?P<name>[^"]+)"')
COMMAND_BLOCK = re.compile(
    r"^\s*```(?:bash|sh|shell|zsh|powershell|ps1|cmd)?\s*\n(?P<command>.*?)^\s*```",
    re.MULTILINE | re.DOTALL,
)


def read(lines: Iterable[str]) -> Iterator[Message]:
    """Yield the turns of an exported chat: prose of each side, files the agent edited, commits
    shown in tool output. Tool blocks are never prose, and thinking is yielded apart from it."""
    role = "assistant"
    prose: list[str] = []
    tool_until = ""  # what ends the tool block being skipped: "</tool-use>", "---" or "</details>"
    tool_text: list[str] = []
    tool_name = ""  # the tool of the block being skipped
    thinking_until = ""  # what ends the thinking being read: "</think>" or "</details>"
    thought: list[str] = []
    turned = False  # a role line was read
    specstory = False  # SpecStory's `_**User**_` lines seen: Cursor's own lines are no turns

    def think(text: str) -> Iterator[Message]:
        thought.append(text)
        if not thinking_until:
            joined = "".join(thought)
            thought.clear()
            if joined.strip():
                yield from flush()  # the prose before it comes first
                yield Message("thinking", joined)

    def flush() -> Iterator[Message]:
        if any(line.strip() for line in prose):
            yield Message(role, "".join(prose))
        prose.clear()

    def close_tool() -> Iterator[Message]:
        nonlocal tool_name
        text = "".join(tool_text)
        tool_text.clear()
        files = tuple(
            dict.fromkeys(m["a"] or m["b"] or m["c"] for m in FILE_NAMED.finditer(text))
        ) + tuple(m["path"].strip() for m in EDIT_SUMMARY.finditer(text))
        commits = commits_in(text) if "commit" in text else ()
        if files:
            yield Message("assistant", files=tuple(dict.fromkeys(files)))
        named = TOOL_NAME.search(text)
        name = tool_name or (named["name"] if named else "")
        tool_name = ""  # the next block names its own tool
        block = COMMAND_BLOCK.search(text) if TERMINAL_TOOLS.search(name) else None
        command = block["command"].strip() if block else ""
        yield from committed(commits, command)  # what its message says, where the call shows it
        if command:
            yield from succeeded_call(command)  # the checks it ran, what it posted

    last_said = ""  # the last line with something on it, before this one
    for line in without_recall(lines):
        stripped = line.strip()
        turn = ROLE.match(stripped)
        before, last_said = last_said, (stripped or last_said)
        if thinking_until and not turn:
            if thinking_until in line:
                inside, after = line.split(thinking_until, 1)
                thinking_until = ""
                yield from think(inside.removesuffix("</details>") + "\n")
                if after.strip():
                    prose.append(after)
            else:
                thought.append(line)
            continue
        thinking = THINK_OPEN.search(line)
        if thinking and not turn and not tool_until:
            before, rest = line[: thinking.start()], line[thinking.end() :]
            if before.strip():
                prose.append(before + "\n")
            rest = THINK_OPEN.sub("", rest)  # `<think><details><summary>…` opens twice
            closing = "</think>" if thinking.group().startswith("<think>") else "</details>"
            if closing in rest:
                inside, after = rest.split(closing, 1)
                yield from think(inside.removesuffix("</details>") + "\n")
                if after.strip():
                    prose.append(after)
            else:
                thinking_until = closing
                thought.append(rest)
            continue
        if turn and turn["cursor"] and (specstory or (turned and before != "---")):
            # A bold "**User**" in a SpecStory export's prose, or in Cursor's own between
            # rules: Cursor's turns follow a `---` rule.
            turn = None
        if turn:
            turned = True
            specstory = specstory or bool(turn["who"])
            if thinking_until:
                thinking_until = ""
                yield from think("")
            if tool_until:
                yield from close_tool()
                tool_until = ""
            yield from flush()
            role = "user" if "User" in (turn["who"], turn["cursor"]) else "assistant"
            continue
        if tool_until:
            tool_text.append(line)
            if (tool_until == "---" and stripped == "---") or (
                tool_until != "---" and tool_until in stripped
            ):
                tool_until = ""
                yield from close_tool()
            continue
        if TOOL_TAG_OPEN.match(line):
            tool_until = TOOL_TAG_CLOSE
            tool_text.append(line)
            if TOOL_TAG_CLOSE in stripped:
                tool_until = ""
                yield from close_tool()
            continue
        if named := TOOL_LINE.match(stripped):
            tool_until = "---"  # a Cursor tool call runs to the next rule
            tool_name = named["name"]
            continue
        if stripped.startswith("<details>") and "Thought Process" not in stripped:
            tool_until = "</details>"
            tool_text.append(line)
            if "</details>" in stripped:
                tool_until = ""
                yield from close_tool()
            continue
        if CURSOR_EXPORT.match(stripped):
            if not turned:
                prose.clear()  # the chat's title and when Cursor exported it: nobody said them
            continue
        if stripped in ("---", "<!-- Generated by SpecStory -->") or stripped.startswith("<!--"):
            prose.append("\n")
            continue
        prose.append(line)
    if tool_until:
        yield from close_tool()
    yield from flush()
