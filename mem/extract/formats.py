"""Read agent output in its many shapes as a stream of messages, one line at a time."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

FORMATS = ("text", "claude-jsonl", "stream-json", "codex-jsonl", "aider")
DETECT_LINES = 20  # how many non-empty lines auto-detection may look at

EDITING_TOOLS = {"Write", "Edit", "MultiEdit", "NotebookEdit"}
COMMIT_LINE = re.compile(
    r"^\[(?P<branch>[^\s\]]+)(?: \(root-commit\))? (?P<sha>[0-9a-f]{7,40})\] (?P<subject>.+)$",
    re.MULTILINE,
)
RECALL_BLOCK = re.compile(r"<mem-recall\b[^>]*>.*?(?:</mem-recall>|\Z)", re.DOTALL)
AIDER_COMMIT = re.compile(r"^Commit (?P<sha>[0-9a-f]{7,40}) (?P<subject>.+)$")
AIDER_EDIT = re.compile(r"^Applied edit to (?P<path>\S.*)$")


class Message(NamedTuple):
    """One unit of agent output: prose worth mining, or facts about the session."""

    role: str  # assistant | user | result
    text: str = ""  # prose only: never tool output
    files: tuple[str, ...] = ()  # files the agent wrote or edited
    commits: tuple[str, ...] = ()  # "abc1234 subject"
    input_tokens: int = 0
    output_tokens: int = 0


def detect(lines: list[str]) -> str:
    """Guess the format from the first non-empty lines."""
    sample = [line for line in lines if line.strip()][:DETECT_LINES]
    if not sample:
        return "text"
    if any(line.startswith("# aider chat started at") for line in sample):
        return "aider"
    objects = []
    for line in sample:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            objects.append(value)
    if len(objects) < max(1, len(sample) // 2):
        return "text"
    types = {str(obj.get("type", "")) for obj in objects}
    if types & {"thread.started", "turn.started", "turn.completed", "item.completed"}:
        return "codex-jsonl"
    if "result" in types or any(
        obj.get("type") == "system" and obj.get("subtype") == "init" for obj in objects
    ):
        return "stream-json"
    if any("sessionId" in obj or "parentUuid" in obj for obj in objects):
        return "claude-jsonl"
    if types & {"assistant", "user"}:
        return "stream-json"
    return "text"


def read(fmt: str, lines: Iterable[str]) -> Iterator[Message]:
    """Yield the messages of agent output in a known format."""
    readers = {
        "text": read_text,
        "claude-jsonl": read_claude_jsonl,
        "stream-json": read_claude_jsonl,  # the same message objects, plus a final `result`
        "codex-jsonl": read_codex_jsonl,
        "aider": read_aider,
    }
    return readers[fmt](lines)


def strip_recall(text: str) -> str:
    """Drop `mem`'s own recall block, so recalled memory is never stored again."""
    return RECALL_BLOCK.sub("", text) if "<mem-recall" in text else text


def without_recall(lines: Iterable[str]) -> Iterator[str]:
    """Drop the lines of a recall block from a line stream."""
    inside = False
    for line in lines:
        if not inside and "<mem-recall" in line:
            before, _, after = line.partition("<mem-recall")
            if before.strip():
                yield before + "\n"
            inside = "</mem-recall>" not in after
            if not inside:
                rest = after.split("</mem-recall>", 1)[1]
                if rest.strip():
                    yield rest
            continue
        if inside:
            if "</mem-recall>" in line:
                inside = False
                rest = line.split("</mem-recall>", 1)[1]
                if rest.strip():
                    yield rest
            continue
        yield line


# --- plain text ---------------------------------------------------------------------------


def read_text(lines: Iterable[str]) -> Iterator[Message]:
    """Plain output (`claude -p`, `codex exec`): one message per paragraph; commits noticed."""
    paragraph: list[str] = []
    for line in without_recall(lines):
        commit = COMMIT_LINE.match(line.strip())
        if commit:
            yield Message("assistant", commits=(f"{commit['sha'][:7]} {commit['subject']}",))
            continue
        if line.strip():
            paragraph.append(line)
            if len(paragraph) < 200:
                continue
        if paragraph:
            yield Message("assistant", "".join(paragraph))
            paragraph = []
    if paragraph:
        yield Message("assistant", "".join(paragraph))


# --- Claude Code transcripts and `claude -p --output-format stream-json` -------------------


def json_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Parse JSON lines, skipping the ones that do not parse (real files break)."""
    for line in lines:
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def read_claude_jsonl(lines: Iterable[str]) -> Iterator[Message]:
    """A Claude Code transcript or stream-json: assistant text, human prompts, edits, commits."""
    pending_edits: dict[str, str] = {}  # tool_use id -> file path, until its result confirms it
    commit_calls: set[str] = set()  # tool_use ids of `git commit` commands
    counted: set[str] = set()  # API message ids whose usage was counted
    cwd = ""
    last_text = ""
    for record in json_lines(lines):
        kind = record.get("type")
        cwd = str(record.get("cwd") or cwd)
        message = record.get("message")
        if kind == "assistant" and isinstance(message, dict) and not record.get("isSidechain"):
            usage = as_dict(message.get("usage"))
            message_id = str(message.get("id") or "")
            tokens_in = tokens_out = 0
            if usage and message_id not in counted:
                counted.add(message_id)
                tokens_in = token_count(
                    usage, "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"
                )
                tokens_out = token_count(usage, "output_tokens")
            texts = []
            for block in blocks_of(message.get("content")):
                if block.get("type") == "text":
                    texts.append(str(block.get("text") or ""))
                elif block.get("type") == "tool_use":
                    tool_input = as_dict(block.get("input"))
                    name = block.get("name")
                    if name in EDITING_TOOLS:
                        path = tool_input.get("file_path") or tool_input.get("notebook_path")
                        if path:
                            pending_edits[str(block.get("id"))] = relative_to(str(path), cwd)
                    elif name == "Bash" and re.search(
                        r"\bgit\b(?:\s+-C\s+\S+)?\s+commit\b", str(tool_input.get("command", ""))
                    ):
                        commit_calls.add(str(block.get("id")))
            text = strip_recall("\n\n".join(texts))
            last_text = text or last_text
            yield Message("assistant", text, input_tokens=tokens_in, output_tokens=tokens_out)
        elif kind == "user" and isinstance(message, dict):
            content = message.get("content")
            if isinstance(content, str):
                if not (record.get("isMeta") or record.get("isCompactSummary")) and not (
                    content.lstrip().startswith(("<command-name>", "<local-command-stdout>"))
                ):
                    yield Message("user", strip_recall(content))
                continue
            for block in blocks_of(content):
                if block.get("type") != "tool_result":
                    continue
                use_id = str(block.get("tool_use_id"))
                failed = bool(block.get("is_error"))
                if use_id in pending_edits:
                    path = pending_edits.pop(use_id)
                    if not failed:
                        yield Message("assistant", files=(path,))
                if use_id in commit_calls and not failed:
                    commit_calls.discard(use_id)
                    output = result_text(block.get("content"))
                    found = tuple(
                        f"{match['sha'][:7]} {match['subject']}"
                        for match in COMMIT_LINE.finditer(output)
                    )
                    if found:
                        yield Message("assistant", commits=found)
        elif kind == "result":
            usage = as_dict(record.get("usage"))
            final = strip_recall(str(record.get("result") or ""))
            # The result repeats the last assistant text; mine it only if it is new.
            yield Message(
                "result",
                final if final.strip() != last_text.strip() else "",
                input_tokens=0 if counted else token_count(usage, "input_tokens"),
                output_tokens=0 if counted else token_count(usage, "output_tokens"),
            )


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def blocks_of(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [block for block in content if isinstance(block, dict)]
    return []


def result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(str(block.get("text", "")) for block in blocks_of(content))


def token_count(usage: dict[str, Any], *keys: str) -> int:
    return sum(value for key in keys if isinstance(value := usage.get(key), int))


def relative_to(path: str, cwd: str) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path


# --- Codex `exec --json` -------------------------------------------------------------------


def read_codex_jsonl(lines: Iterable[str]) -> Iterator[Message]:
    """Codex events: agent messages, file changes, commits in command output, turn usage."""
    for record in json_lines(lines):
        kind = record.get("type")
        if kind == "turn.completed":
            usage = as_dict(record.get("usage"))
            yield Message(
                "assistant",
                input_tokens=token_count(usage, "input_tokens"),
                output_tokens=token_count(usage, "output_tokens"),
            )
            continue
        item = record.get("item")
        if kind != "item.completed" or not isinstance(item, dict):
            continue
        item_type = item.get("type")
        if item_type == "agent_message":
            yield Message("assistant", strip_recall(str(item.get("text") or "")))
        elif item_type == "file_change":
            changes = item.get("changes") if isinstance(item.get("changes"), list) else []
            paths = tuple(
                str(change["path"])
                for change in changes or []
                if isinstance(change, dict)
                and change.get("path")
                and change.get("kind") != "delete"
            )
            if paths and item.get("status", "completed") == "completed":
                yield Message("assistant", files=paths)
        elif item_type == "command_execution" and "commit" in str(item.get("command", "")):
            output = str(item.get("aggregated_output") or "")
            found = tuple(
                f"{match['sha'][:7]} {match['subject']}" for match in COMMIT_LINE.finditer(output)
            )
            if found:
                yield Message("assistant", commits=found)


# --- Aider `.aider.chat.history.md` ---------------------------------------------------------


def read_aider(lines: Iterable[str]) -> Iterator[Message]:
    """Aider's chat log: `#### ` user lines, `> ` tool output, assistant markdown."""
    assistant: list[str] = []
    user: list[str] = []

    def flush() -> Iterator[Message]:
        if user:
            yield Message("user", "\n".join(user))
            user.clear()
        if assistant:
            yield Message("assistant", "".join(assistant))
            assistant.clear()

    for line in without_recall(lines):
        if line.startswith("# aider chat started at"):
            yield from flush()
        elif line.startswith("####"):
            if assistant:
                yield from flush()
            user.append(line[4:].strip())
        elif line.startswith(">"):
            if user or assistant:
                yield from flush()
            output = line[1:].strip()
            commit = AIDER_COMMIT.match(output)
            edit = AIDER_EDIT.match(output)
            if commit:
                yield Message("assistant", commits=(f"{commit['sha'][:7]} {commit['subject']}",))
            elif edit:
                yield Message("assistant", files=(edit["path"].strip(),))
        else:
            if user and line.strip():
                yield from flush()
            if not user:
                assistant.append(line)
                if len(assistant) >= 400:
                    yield from flush()
    yield from flush()
