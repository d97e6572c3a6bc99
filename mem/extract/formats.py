"""Read agent output in its many shapes as a stream of messages, one line at a time."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from mem.extract.checks import check_commands
from mem.extract.choices import ASKING_TOOLS, answers_in, chosen
from mem.extract.commit_message import GIT_COMMIT, commit_body, commit_subject
from mem.extract.posted import posted
from mem.text import fence_mark, unfenced

FORMATS = (
    "text",
    "claude-jsonl",
    "stream-json",
    "codex-jsonl",
    "gemini-jsonl",
    "copilot-jsonl",
    "otel-spans",
    "antigravity-jsonl",
    "generic-json",
    "aider",
    "markdown-chat",
    "gemini-md",
    "cline-md",
    "antigravity-md",
    "claude-terminal",
    "codex-terminal",
    "markdown-roles",
    "codex-log",
)
# Nothing else reads as these. (`generic-json` falls back to text, so it is not one.)
JSON_FORMATS = (
    "claude-jsonl",
    "stream-json",
    "codex-jsonl",
    "gemini-jsonl",
    "copilot-jsonl",
    "otel-spans",
    "antigravity-jsonl",
)
DETECT_LINES = 20  # how many non-empty lines auto-detection may look at

EDITING_TOOLS = {"Write", "Edit", "MultiEdit", "NotebookEdit"}
# What Claude Code writes as the person's turn that the person did not write: a slash command
# and its output, and a `!` shell command with what it printed ("<bash-stdout>…"): tool output.
HARNESS_TAGS = (
    "<command-name>",
    "<local-command-stdout>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
)
# A commit's id in a line of its own words: hex with a digit ("f1bcd13"), not "defaced".
COMMIT_ID = re.compile(r"(?<![\w/.-])(?=[a-f]*\d)[0-9a-f]{7,40}(?![\w/.-])")
COMMIT_OUTPUT = 2000  # where a commit's id is said: the start of what the call printed
COMMIT_LINE = re.compile(
    r"^\[(?P<branch>[^\s\]]+)(?: \(root-commit\))? (?P<sha>[0-9a-f]{7,40})\] (?P<subject>.+)$",
    re.MULTILINE,
)
# `<` and `>` as `mem`'s own recall reaches a transcript: written; HTML-escaped (Gemini CLI
# hands hook context back so), as character references or escaped twice (a web page of such a
# chat); JSON-escaped (`\u003c`, as Go writes JSON; `<\/`, as PHP does).
RECALL_ANGLES = {
    "written": ("<", ">"),
    "html": ("&lt;", "&gt;"),
    "decimal": ("&#0*60;", "&#0*62;"),
    "hex": ("&#x0*3c;", "&#x0*3e;"),
    "html_twice": ("&amp;lt;", "&amp;gt;"),
    "json": (r"\\u003c", r"\\u003e"),
}
RECALL_OPENER = re.compile(
    "|".join(f"(?P<{name}>{lt})mem-recall\\b" for name, (lt, _) in RECALL_ANGLES.items()),
    re.IGNORECASE,
)
# A block ends at a closer in its own encoding: a written one also at the end of the text; an
# escaped one without its closer is prose that names the tag.
RECALL_CLOSERS = {
    name: re.compile(f"{lt}\\\\?/mem-recall{gt}", re.IGNORECASE)
    for name, (lt, gt) in RECALL_ANGLES.items()
}
AIDER_COMMIT = re.compile(r"^Commit (?P<sha>[0-9a-f]{7,40}) (?P<subject>.+)$")
AIDER_EDIT = re.compile(r"^Applied edit to (?P<path>\S.*)$")
AIDER_UNDO = re.compile(r"^Removed: (?P<sha>[0-9a-f]{7,40}) ")
MARKDOWN_CHAT_ROLE = re.compile(r"^_\*\*(?:User|Assistant|Agent)\b")
# Cursor's own "Export Chat": `_Exported on … from Cursor (1.7.38)_`, then `**User**` and
# `**Cursor**` turns between rules.
CURSOR_EXPORT = re.compile(r"^_Exported on .{4,60} from Cursor \([\d.]+\)_\s*$")
CURSOR_TURNS = {"**User**", "**Cursor**"}
# Gemini CLI's `/chat share` markdown: `## USER 🧑‍💻` and `## MODEL ✨` turns, the chat opened
# by the CLI's setup turn.
GEMINI_SHARED_TURN = re.compile(
    r"^(?:## (?:USER|MODEL)\s+[^\x00-\x7f]|[^\x00-\x7f]+\s+## (?:USER|MODEL)\b)"
)
GEMINI_SETUP = "This is the Gemini CLI. We are setting up the context for our chat."
# A chat exported as markdown with a heading per turn: `## User`, `## Assistant`.
MARKDOWN_TURN_LEVEL = re.compile(r"^##\s")
# What an exporter writes above a chat: "**Session ID:** ses_1", "**Project:** /x", "_Started
# 2026-05-03 21:15 UTC_", "**Date:** …".
SESSION_NOTE = re.compile(
    r"^(?:\*\*(?:Session(?: ID)?|Project|Date|Created|Updated|Model|Started):\*\*"
    r"|_(?:Started|Exported)\b)",
    re.IGNORECASE,
)
MARKDOWN_PERSON = ("user", "human", "you")  # the person's side of a heading-per-turn chat
MARKDOWN_ROLE_TURN = re.compile(
    # OpenCode: "## Assistant (Build · gemini-3-flash-preview · 20.5s)"
    r"^(?P<level>#{1,3})\s+(?P<who>User|Human|You|Assistant|Claude|AI|Model|Agent)"
    r"(?:\s+\([^)\n]*\))?\s*:?\s*$",
    re.IGNORECASE,
)
# Codex CLI's interactive view: the person's prompt opens `▌` (2025) or `›`; a `•` line says
# what a tool did, its output indented after `└`.
CODEX_PROMPTS = ("▌", "› ")
# A `•` line for a tool's work, not a message that opens on the same verb ("• Added retries
# to the uploader"): a file edit carries its counts, the other actions stand as the view
# prints them.
CODEX_TOOL_ACTION = re.compile(
    r"^(?:(?:Edited|Added|Deleted) \S.*\(\+\d+ -\d+\)$|Ran \S|Explored$|Updated Plan$"
    r"|Waited\b|Called \S|Worked for\b|Proposed Change\b|Change Approved\b|Applied patch\b)"
)
# "• Ran grpcurl … list. Services available:": the agent's message, which a command is not.
CODEX_SAID = re.compile(r"\.\s+[A-Z]|:$")
# The title line of the view's frame: `│ >_ OpenAI Codex (v0.63.0)   │`.
CODEX_FRAME_TITLE = re.compile(r"^[│|]\s*>_ OpenAI Codex \(v")
# Cline's exported task opens `**User:**`, then its request and the editor's state.
CLINE_MARKS = ("<task>", "<environment_details>", "**Assistant:**")
ANTIGRAVITY_TURN = re.compile(r"^### (?:User Input|Planner Response)\s*$")
CODEX_LOG_HEADERS = {"user", "codex", "exec", "apply patch", "tokens used", "thinking"}
# Claude Code on a terminal: `⏺`/`●` open the agent's text or a tool call, `⎿` a tool's output,
# `❯`/`>` the person's prompt.
TERMINAL_AGENT = ("⏺ ", "● ")
# Copilot CLI's session events (`~/.copilot/session-state/…/events.jsonl`).
CLAUDE_TYPES = {
    "user",
    "assistant",
    "system",
    "summary",
    "attachment",
    "progress",
    "queue-operation",
    "file-history-snapshot",
    "ai-title",
}
COPILOT_EVENTS = {"session.start", "user.message", "assistant.message", "assistant.turn_start"}
# Text a harness puts in a user message that the person did not write: a tag block at the start
# (`<environment_context>`, `<system-reminder>`, `<hook_context>` …) or the instructions files it
# loaded; and blocks it wraps around the person's words.
INJECTED_START = re.compile(r"^\s*(?:<[A-Za-z][\w-]*(?:\s[^>]*)?>|# AGENTS\.md instructions)")
INJECTED_BLOCK = re.compile(
    r"<(?P<tag>system[-_]reminder|hook_context|environment_context|user_instructions"
    r"|current_datetime|session_context)\b[^>]*>.*?(?:</(?P=tag)>|\Z)",
    re.DOTALL,
)


class Message(NamedTuple):
    """One unit of agent output: prose worth mining, or facts about the session."""

    # assistant | user | result | summary (a compaction summary) | undo | thinking (the agent's
    # reasoning, where a format keeps it as plain text: never its prose, never `assistant`) |
    # commit (what a commit message the agent wrote says under its subject) | posted (what the
    # agent posted for other people: a pull request's or an issue's description, a comment) |
    # chosen (an option the person chose when the agent asked them to choose)
    role: str
    text: str = ""  # prose only: never tool output
    files: tuple[str, ...] = ()  # files the agent wrote or edited
    commits: tuple[str, ...] = ()  # "abc1234 subject"; with role undo, the commits taken back
    input_tokens: int = 0
    output_tokens: int = 0
    session: str = ""  # the session id, where the format gives one
    after_failure: bool = False  # the first words after a failed command: its cause, often
    failed: bool = False  # the run ended in an error
    # Commands that checked the work and succeeded (tests, linters, builds), as
    # `checks.check_commands` gives them: how the project's checks are run.
    checks: tuple[str, ...] = ()
    title: str = ""  # with role posted: the title of the pull request the agent opened


def detect(lines: list[str]) -> str:
    """Guess the format from the first non-empty lines."""
    sample = [line for line in lines if line.strip()][:DETECT_LINES]
    if not sample:
        return "text"
    if any(line.startswith("# aider chat started at") for line in sample):
        return "aider"
    if any(MARKDOWN_CHAT_ROLE.match(line) or "Generated by SpecStory" in line for line in sample):
        return "markdown-chat"
    if any(CURSOR_EXPORT.match(line) for line in sample) or CURSOR_TURNS <= {
        line.strip() for line in sample
    }:
        return "markdown-chat"
    if any(GEMINI_SHARED_TURN.match(line) for line in sample):
        return "gemini-md"  # a Gemini CLI chat as `/chat share` writes it
    if sample[0].strip() == "**User:**" and any(
        line.startswith(CLINE_MARKS) for line in sample[1:]
    ):
        return "cline-md"  # a Cline (Roo Code, Kilo Code) task as "Export task" writes it
    if any(ANTIGRAVITY_TURN.match(line) for line in sample):
        return "antigravity-md"
    if is_claude_terminal(sample):
        return "claude-terminal"
    if is_codex_terminal(sample):
        return "codex-terminal"
    if is_markdown_roles(sample):
        return "markdown-roles"
    if any(line.startswith("OpenAI Codex v") for line in sample) or (
        sum(line.strip() in CODEX_LOG_HEADERS for line in sample) >= 2
    ):
        return "codex-log"
    if is_aider_excerpt(sample):
        return "aider"
    objects = []
    for line in sample:
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            objects.append(value)
    if len(objects) < max(1, len(sample) // 2):
        # One JSON document spread over many lines (`{` or `[` alone on the first line).
        return "generic-json" if sample[0].strip() in ("{", "[") else "text"
    return detect_json(objects)


def cut_json_lines(lines: list[str]) -> bool:
    """Whether text `detect` could not read is JSON records cut short (a transcript copied
    while it was written, or cut by hand): most lines open an object and too few parse. Read
    as text, the What of the handoff would be `"type":"assistant","message":…`."""
    sample = [line for line in lines if line.strip()][:DETECT_LINES]
    return sum(opens_broken_record(line) for line in sample) * 2 > len(sample)


def opens_broken_record(line: str) -> bool:
    """A line that opens a JSON record and does not parse (`[{"n": 1}]` whole is no such)."""
    if not line.lstrip().startswith(('{"', '[{"')):
        return False
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return True
    return False


def is_claude_terminal(sample: list[str]) -> bool:
    """Claude Code drawn on a terminal: its glyphs at the start of lines (`●` is also a bullet,
    so it counts only beside a tool result or a prompt)."""
    agent = sum(line.startswith("⏺ ") for line in sample)
    bullet = sum(line.startswith("● ") for line in sample)
    result = sum(line.lstrip().startswith("⎿") for line in sample)
    prompt = sum(line.startswith("❯ ") for line in sample)
    return agent + result >= 2 or (agent + bullet >= 1 and result + prompt >= 1)


def is_markdown_roles(sample: list[str]) -> bool:
    """A chat with a heading per turn: the person's and the assistant's headings, which are
    most of the headings at their level, and a turn that comes again or the exporter's note of
    the session ("**Session ID:**", "_Started …_"). (A README's "## Model" and "## User"
    sections among "## License" are no chat, nor a page that has a "## User" and an
    "## Assistant" section once each.)"""
    sides = set()
    headings = turns = 0
    for line in sample:
        if not MARKDOWN_TURN_LEVEL.match(line):
            continue
        headings += 1
        if turn := MARKDOWN_ROLE_TURN.match(line.strip()):
            turns += 1
            who = turn["who"].lower()
            sides.add("user" if who in MARKDOWN_PERSON else who)
    if not (sides & {"assistant", "claude"} and "user" in sides and 2 * turns >= headings):
        return False
    return turns >= 3 or any(SESSION_NOTE.match(line) for line in sample)


def is_codex_terminal(sample: list[str]) -> bool:
    """Codex CLI's interactive view: its frame's title, or a prompt or a tool's output beside
    a line that says what a tool did."""
    sample = unfenced(sample)  # a README's fenced example of the view is no view
    if any(CODEX_FRAME_TITLE.match(line) for line in sample):
        return True
    prompts = sum(line.startswith(CODEX_PROMPTS) for line in sample)
    actions = sum(line.startswith("• ") and codex_tool_action(line[2:]) for line in sample)
    outputs = sum(line.startswith("  └ ") for line in sample)
    return actions >= 1 and prompts + outputs >= 1


def codex_tool_action(said: str) -> bool:
    """Whether the text of a `•` line in Codex's view says what a tool did."""
    said = said.rstrip()
    return bool(CODEX_TOOL_ACTION.match(said)) and not (
        said.startswith("Ran ") and CODEX_SAID.search(said)
    )


def is_aider_excerpt(sample: list[str]) -> bool:
    """Aider's history cut from the middle: `#### ` prompts and `> ` tool output, which aider
    ends with two spaces (a markdown line break), or, where an editor trimmed them, says what
    only aider says ("Applied edit to …", "Commit 1a2b3c4 …")."""
    prompts = any(line.startswith("#### ") for line in sample)
    output = any(line.startswith("> ") and aider_output(line) for line in sample)
    return prompts and output


def aider_output(line: str) -> bool:
    """Whether a `> ` line reads as aider's own output."""
    if line.rstrip("\r\n").endswith("  "):
        return True
    said = line[2:].strip()
    return bool(AIDER_COMMIT.match(said) or AIDER_EDIT.match(said) or AIDER_UNDO.match(said))


def detect_json(objects: list[dict[str, Any]]) -> str:
    """Which agent wrote these JSON lines; `generic-json` when none is known."""
    types = {str(obj.get("type", "")) for obj in objects}
    raw_types = {str(as_dict(obj.get("raw")).get("type", "")) for obj in objects}
    if (types | raw_types) & COPILOT_EVENTS:
        return "copilot-jsonl"  # bare, or wrapped as {role, content, raw: event}
    if any("span_id" in obj or "spanId" in obj or "resourceSpans" in obj for obj in objects):
        return "otel-spans"
    if any("step_index" in obj for obj in objects) and types & {"USER_INPUT", "PLANNER_RESPONSE"}:
        return "antigravity-jsonl"
    if types & {"thread.started", "turn.started", "turn.completed", "item.completed"}:
        return "codex-jsonl"
    if types & {"session_meta", "response_item", "event_msg", "turn_context"}:
        return "codex-jsonl"  # a Codex session rollout
    if types & {"gemini"} or any("projectHash" in obj for obj in objects):
        return "gemini-jsonl"  # a Gemini CLI session file: metadata first, then messages
    if "result" in types or any(
        obj.get("type") == "system" and obj.get("subtype") == "init" for obj in objects
    ):
        return "stream-json"
    if types & CLAUDE_TYPES and any("sessionId" in obj or "parentUuid" in obj for obj in objects):
        return "claude-jsonl"
    if types & {"assistant", "user"}:
        return "stream-json"
    return "generic-json"


def read(fmt: str, lines: Iterable[str]) -> Iterator[Message]:
    """Yield the messages of agent output in a known format."""
    from mem.extract import (
        antigravity,
        cline_md,
        codex_log,
        codex_terminal,
        copilot_jsonl,
        gemini_jsonl,
        gemini_md,
        generic_json,
        markdown_chat,
        markdown_roles,
        otel_spans,
        terminal,
    )

    readers = {
        "text": read_text,
        "claude-jsonl": read_claude_jsonl,
        "stream-json": read_claude_jsonl,  # the same message objects, plus a final `result`
        "codex-jsonl": read_codex_jsonl,
        "gemini-jsonl": gemini_jsonl.read,
        "copilot-jsonl": copilot_jsonl.read,
        "otel-spans": otel_spans.read,
        "antigravity-jsonl": antigravity.read_trajectory,
        "generic-json": generic_json.read,
        "aider": read_aider,
        "markdown-chat": markdown_chat.read,
        "gemini-md": gemini_md.read,
        "cline-md": cline_md.read,
        "antigravity-md": antigravity.read_chat,
        "claude-terminal": terminal.read,
        "codex-terminal": codex_terminal.read,
        "markdown-roles": markdown_roles.read,
        "codex-log": codex_log.read,
    }
    return readers[fmt](lines)


def is_injected(text: str) -> bool:
    """Whether a user message is the harness's rather than the person's: it opens with a tag
    block (`<environment_context>`, `<system-reminder>`, `<hook_context>` …) or with the
    instructions files it loaded."""
    return bool(INJECTED_START.match(text))


def strip_injected(text: str) -> str:
    """Drop the blocks a harness adds around the person's words (system reminders, hook
    context, the time), keeping the words."""
    return INJECTED_BLOCK.sub("", text) if "<" in text else text


def person_text(text: str) -> str:
    """The person's own words in a user message: "" when the harness wrote all of it."""
    text = strip_injected(strip_recall(text))
    return "" if not text.strip() or is_injected(text) else text


def strip_recall(text: str) -> str:
    """Drop `mem`'s own recall blocks, in any encoding (RECALL_ANGLES), so recalled memory is
    never stored again."""
    return cut_recall(text, final=True)[0] if "mem-recall" in text else text


def cut_recall(text: str, final: bool) -> tuple[str, bool, re.Pattern[str] | None]:
    """`text` without its recall blocks; whether a written block is left open at its end; and,
    unless `final`, the closer an escaped block left open waits for (the text is then to be
    read again with what follows, "" kept meanwhile)."""
    kept: list[str] = []
    at = 0
    while found := RECALL_OPENER.search(text, at):
        kind = found.lastgroup or "written"
        end = RECALL_CLOSERS[kind].search(text, found.end())
        if end is not None:
            kept.append(text[at : found.start()])
            at = end.end()
        elif kind == "written":
            kept.append(text[at : found.start()])
            return "".join(kept), True, None
        elif not final:
            return "", False, RECALL_CLOSERS[kind]
        else:  # an escaped tag with no closer: prose that names it
            kept.append(text[at : found.end()])
            at = found.end()
    kept.append(text[at:])
    return "".join(kept), False, None


def without_recall(lines: Iterable[str]) -> Iterator[str]:
    """Drop the lines of a recall block (in any encoding) from a line stream; what stands
    before or after a block on its lines is kept, as one line. Lines from an escaped opener on
    are held until its closer: with none by the end, they were prose and are kept."""
    held: list[str] = []
    closer: re.Pattern[str] | None = None  # what the held lines wait for
    written_open = False  # inside a written block: its lines go, up to its closer or the end
    for line in lines:
        if held:
            held.append(line)
            if closer is not None and not closer.search(line):
                continue
            line, held = "".join(held), []
        elif written_open:
            end = RECALL_CLOSERS["written"].search(line)
            if end is None:
                continue
            line, written_open = line[end.end() :], False
        elif "mem-recall" not in line:
            yield line
            continue
        text, written_open, closer = cut_recall(line, final=False)
        if closer is not None:
            held = [line]
        elif text.strip():
            yield from as_lines(text)
    if held:
        yield from as_lines(cut_recall("".join(held), final=True)[0])


def as_lines(text: str) -> Iterator[str]:
    """The lines of `text`, each ending in a newline."""
    for line in text.splitlines(keepends=True):
        yield line if line.endswith("\n") else line + "\n"


# --- plain text ---------------------------------------------------------------------------


# An agent-kept session log: `[2026-07-23T11:33:17+02:00] USER_INPUT: …`, `=== date — title ===`.
LOG_LINE = re.compile(
    r"^\[?\d{4}-\d{2}-\d{2}[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?\]?\s+"
    r"(?P<label>[A-Z][A-Z_ ]{1,30}[A-Z])\s*:\s*(?P<text>.*)$"
)
LOG_TITLE = re.compile(r"^={3,}(?:\s*(?P<title>.*?)\s*={3,})?\s*$")
USER_LABELS = {"USER_INPUT", "USER", "PROMPT", "HUMAN", "INPUT", "REQUEST", "USER INPUT"}
TEXT_CHUNK_LINES = 400  # plain output is read in chunks this long, cut at a blank line
# ... and cut anyway this long: a log with no blank line (or an unclosed fence) would otherwise
# be one message as large as the input, and memory would grow with it.
MAX_CHUNK_LINES = 4000


def can_cut(chunk: list[str]) -> bool:
    """Whether a long chunk of prose may end here: at a blank line, outside a code fence.

    The blank line is looked at first: counting the fences reads the whole chunk, which at
    every line of a log with no blank line made a commit quadratic (10 MB took hours)."""
    if chunk[-1].strip():
        return False
    return sum(bool(fence_mark(line)) for line in chunk) % 2 == 0


def read_text(lines: Iterable[str]) -> Iterator[Message]:
    """Plain output (`claude -p`, `codex exec`, a log an agent keeps): the prose in chunks that
    keep headings with what they head; commits noticed; a log's user lines are the person's."""
    chunk: list[str] = []
    role = "assistant"

    def flush(next_role: str = "assistant") -> Iterator[Message]:
        nonlocal role
        if any(line.strip() for line in chunk):
            yield Message(role, "".join(chunk))
        chunk.clear()
        role = next_role

    for line in without_recall(lines):
        stripped = line.strip()
        commit = COMMIT_LINE.match(stripped)
        if commit:
            yield Message("assistant", commits=(f"{commit['sha'][:7]} {commit['subject']}",))
            continue
        logged = LOG_LINE.match(stripped)
        title = LOG_TITLE.match(stripped) if stripped.startswith("===") else None
        if logged:
            label = logged["label"].strip()
            yield from flush("user" if label in USER_LABELS else "assistant")
            if role == "user":
                chunk.append(logged["text"] + "\n")
            else:
                # The label heads what follows it: DECISION files the items under it.
                chunk.append(f"## {label.title().replace('_', ' ')}\n{logged['text']}\n")
            continue
        if title:
            yield from flush()
            if title["title"]:
                chunk.append(f"## {title['title']}\n")
            continue
        if role == "user" and not stripped:
            yield from flush()
            continue
        chunk.append(line)
        if len(chunk) >= TEXT_CHUNK_LINES and (len(chunk) >= MAX_CHUNK_LINES or can_cut(chunk)):
            yield from flush()
    yield from flush()


# --- Claude Code transcripts and `claude -p --output-format stream-json` -------------------


def json_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Parse JSON lines, skipping the ones that do not parse (real files break)."""
    for line in lines:
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            yield value


def read_claude_jsonl(lines: Iterable[str]) -> Iterator[Message]:
    """A Claude Code transcript or stream-json: assistant text, human prompts, edits, commits,
    compaction summaries. A subagent's own file (every line a sidechain) reads as a transcript;
    inside a main transcript, sidechain lines are the subagent's and its answer sums them up."""
    pending_edits: dict[str, str] = {}  # tool_use id -> file path, until its result confirms it
    commit_calls: dict[str, str] = {}  # tool_use ids of `git commit` commands: the command
    check_calls: dict[str, tuple[str, ...]] = {}  # tool_use id -> the checks it runs
    posted_calls: dict[str, Message] = {}  # tool_use id -> what it posts, until it succeeds
    asked_calls: dict[str, Any] = {}  # tool_use id -> the questions the person is asked
    counted: set[str] = set()  # API message ids whose usage was counted
    cwd = session = ""
    last_text = ""
    sidechain_file: bool | None = None  # decided by the first user or assistant line
    after_failure = False
    for record in json_lines(lines):
        kind = record.get("type")
        cwd = str(record.get("cwd") or cwd)
        session = str(record.get("sessionId") or record.get("session_id") or session)
        message = record.get("message")
        if kind in ("user", "assistant") and sidechain_file is None:
            sidechain_file = bool(record.get("isSidechain"))
        if record.get("isSidechain") and not sidechain_file:
            continue
        if kind == "assistant" and isinstance(message, dict):
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
                    elif name in ASKING_TOOLS:
                        asked_calls[str(block.get("id"))] = tool_input.get("questions")
                    elif name == "Bash":
                        command = str(tool_input.get("command", ""))
                        if GIT_COMMIT.search(command):
                            commit_calls[str(block.get("id"))] = command
                        elif checks := check_commands(command):
                            check_calls[str(block.get("id"))] = checks
                        if post := post_of(command, session):
                            posted_calls[str(block.get("id"))] = post
            text = strip_recall("\n\n".join(texts))
            last_text = text or last_text
            yield Message(
                "assistant",
                text,
                input_tokens=tokens_in,
                output_tokens=tokens_out,
                session=session,
                after_failure=after_failure and bool(text.strip()),
            )
            if text.strip():
                after_failure = False
        elif kind == "user" and isinstance(message, dict):
            content = message.get("content")
            if record.get("isCompactSummary"):
                yield Message("summary", strip_recall(result_text(content)), session=session)
                continue
            if isinstance(content, str):
                if not record.get("isMeta") and not content.lstrip().startswith(HARNESS_TAGS):
                    yield Message("user", strip_recall(content), session=session)
                continue
            for block in blocks_of(content):
                if block.get("type") != "tool_result":
                    if block.get("type") == "text" and not record.get("isMeta"):
                        text = strip_recall(str(block.get("text") or ""))
                        if text.strip() and not text.lstrip().startswith("<"):
                            yield Message("user", text, session=session)
                    continue
                use_id = str(block.get("tool_use_id"))
                failed = bool(block.get("is_error"))
                after_failure = after_failure or failed
                if use_id in pending_edits:
                    path = pending_edits.pop(use_id)
                    if not failed:
                        yield Message("assistant", files=(path,), session=session)
                if use_id in check_calls:
                    checks = check_calls.pop(use_id)
                    if not failed:
                        yield Message("assistant", session=session, checks=checks)
                if use_id in commit_calls and not failed:
                    command = commit_calls.pop(use_id)
                    found = commits_in(result_text(block.get("content")), command)
                    yield from committed(found, command, session)
                if use_id in posted_calls:
                    post = posted_calls.pop(use_id)
                    if not failed:
                        yield post
                if use_id in asked_calls and not failed:
                    answers = as_dict(as_dict(record.get("toolUseResult")).get("answers"))
                    answers = answers or answers_in(result_text(block.get("content")))
                    for choice in chosen(asked_calls.pop(use_id), answers):
                        yield Message("chosen", choice, session=session)
        elif kind == "result":
            usage = as_dict(record.get("usage"))
            final = strip_recall(str(record.get("result") or ""))
            # The result repeats the last assistant text; mine it only if it is new.
            yield Message(
                "result",
                final if final.strip() != last_text.strip() else "",
                input_tokens=0 if counted else token_count(usage, "input_tokens"),
                output_tokens=0 if counted else token_count(usage, "output_tokens"),
                session=session,
                failed=bool(record.get("is_error"))
                or str(record.get("subtype", "success")) != "success",
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


# --- Codex `exec --json` and session rollouts -----------------------------------------------


class CodexRollout:
    """What reading a Codex rollout remembers from line to line: the session, `git commit`
    calls waiting for their output, and which text was said, since the same message can come
    as a turn item (`item_completed`, Codex 0.171) and as a legacy event."""

    def __init__(self) -> None:
        self.session = ""
        self.commit_calls: dict[str, str] = {}  # call id: the `git commit` command
        self.check_calls: dict[str, tuple[str, ...]] = {}  # call id -> the checks it runs
        self.posted_calls: dict[str, Message] = {}  # call id -> what it posts
        self.posted: set[Message] = set()  # a call is reported by more than one line
        self.said: dict[tuple[str, str], str] = {}  # (role, text) -> "item" | "event"
        self.patched: set[str] = set()  # ids of file changes already read

    def ran(self, command: str) -> Iterator[Message]:
        """What a shell call that succeeded tells (`succeeded_call`), its posted text once."""
        for message in succeeded_call(command, self.session):
            if message.role == "posted":
                yield from self.post(message)
            else:
                yield message

    def post(self, message: Message) -> Iterator[Message]:
        if message not in self.posted:
            self.posted.add(message)
            yield message

    def say(self, role: str, text: str, source: str) -> Iterator[Message]:
        """Yield a message once, whether it comes as an item, an event or both."""
        key = (role, " ".join(text.split()))
        if not key[1]:
            return
        if self.said.setdefault(key, source) != source:
            return
        yield Message(role, text, session=self.session)


def read_codex_jsonl(lines: Iterable[str]) -> Iterator[Message]:
    """Codex events (`codex exec --json`) or a session rollout (`~/.codex/sessions/…`): agent
    messages, the person's prompts, file changes, commits in command output, token usage."""
    rollout = CodexRollout()
    for record in json_lines(lines):
        kind = record.get("type")
        if kind == "thread.started":
            rollout.session = str(record.get("thread_id") or rollout.session)
        if kind in ("session_meta", "response_item", "event_msg", "turn_context", "compacted"):
            payload = as_dict(record.get("payload"))
            if kind == "session_meta":
                rollout.session = str(payload.get("id") or rollout.session)
            yield from rollout_item(kind, payload, rollout)
            continue
        session = rollout.session
        if kind == "turn.completed":
            usage = as_dict(record.get("usage"))
            yield Message(
                "assistant",
                input_tokens=token_count(usage, "input_tokens"),
                output_tokens=token_count(usage, "output_tokens"),
                session=session,
            )
            continue
        if kind == "turn.failed":
            yield Message("result", session=session, failed=True)
            continue
        item = record.get("item")
        if kind != "item.completed" or not isinstance(item, dict):
            continue
        item_type = item.get("type")
        if item_type == "agent_message":
            yield Message("assistant", strip_recall(str(item.get("text") or "")), session=session)
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
                yield Message("assistant", files=paths, session=session)
        elif item_type == "command_execution":
            command = shell_command(item.get("command"))
            succeeded = item.get("exit_code", 0) == 0 and item.get("status") != "failed"
            if "commit" in command:
                found = commits_in(str(item.get("aggregated_output") or ""), command)
                yield from committed(found, command, session)
            if succeeded:
                yield from succeeded_call(command, session)


# What Codex injects as a user message before the person's own words.
CODEX_INJECTED = ("# AGENTS.md instructions", "<environment_context>", "<user_instructions>")
SHELL_TOOLS = {"shell", "exec_command", "local_shell", "container.exec", "shell_command"}


def rollout_item(kind: str, payload: dict[str, Any], rollout: CodexRollout) -> Iterator[Message]:
    """One line of a Codex rollout. The agent's words come as events (`agent_message`,
    `user_message`) or, since Codex 0.171, as turn items (`item_completed`); `response_item`
    lines repeat them for the model and are read only for the commands run."""
    session = rollout.session
    if kind == "compacted":
        text = str(payload.get("message") or "")
        if text.strip():
            yield Message("summary", text, session=session)
        return
    if kind == "response_item":
        yield from response_item(payload, rollout)
        return
    if kind != "event_msg":
        return
    event = payload.get("type")
    if event == "item_completed":
        yield from turn_item(as_dict(payload.get("item")), rollout)
    elif event == "agent_message":
        text = strip_recall(str(payload.get("message") or ""))
        yield from rollout.say("assistant", text, "event")
    elif event == "user_message":
        text = person_text(str(payload.get("message") or ""))
        if not text.lstrip().startswith(CODEX_INJECTED):
            yield from rollout.say("user", text, "event")
    elif event == "patch_apply_end" and payload.get("success", True):
        changes = as_dict(payload.get("changes"))
        rollout.patched.add(str(payload.get("call_id") or ""))
        if changes:
            yield Message("assistant", files=tuple(str(path) for path in changes), session=session)
    elif event == "exec_command_end":
        joined = shell_command(payload.get("command"))
        succeeded = payload.get("exit_code", 0) == 0
        if succeeded:
            yield from rollout.ran(joined)
        if "commit" in joined and succeeded:
            output = str(payload.get("aggregated_output") or payload.get("stdout") or "")
            rollout.commit_calls.pop(str(payload.get("call_id") or ""), None)
            yield from committed(commits_in(output, joined), joined, session)
    elif event == "token_count":
        info = as_dict(payload.get("info"))
        usage = as_dict(info.get("last_token_usage"))
        if usage:
            yield Message(
                "assistant",
                input_tokens=token_count(usage, "input_tokens"),
                output_tokens=token_count(usage, "output_tokens"),
                session=session,
            )
    elif event == "turn_aborted":
        yield Message("result", session=session, failed=True)


def turn_item(item: dict[str, Any], rollout: CodexRollout) -> Iterator[Message]:
    """A completed turn item (`codex-rs/protocol/src/items.rs` `TurnItem`, tagged by `type`).
    Reasoning, hook prompts and tool calls other than commands and file changes are not read."""
    kind = item.get("type")
    session = rollout.session
    if kind == "AgentMessage":
        text = "".join(
            str(part.get("text") or "")
            for part in blocks_of(item.get("content"))
            if str(part.get("type", "text")).lower() == "text"
        )
        yield from rollout.say("assistant", strip_recall(text), "item")
    elif kind == "Plan":
        yield from rollout.say("assistant", strip_recall(str(item.get("text") or "")), "item")
    elif kind == "UserMessage":
        text = "".join(
            str(part.get("text") or "")
            for part in blocks_of(item.get("content"))
            if part.get("type") == "text"
        )
        text = person_text(text)
        if not text.lstrip().startswith(CODEX_INJECTED):
            yield from rollout.say("user", text, "item")
    elif kind == "FileChange":
        item_id = str(item.get("id") or "")
        status = str(item.get("status") or "completed").lower()
        if item_id in rollout.patched or status in ("failed", "declined", "inprogress"):
            return
        rollout.patched.add(item_id)
        paths = []
        for path, change in as_dict(item.get("changes")).items():
            change = as_dict(change)
            if change.get("type") == "delete":
                continue
            paths.append(str(change.get("move_path") or path))
        if paths:
            yield Message("assistant", files=tuple(paths), session=session)
    elif kind == "CommandExecution":
        joined = shell_command(item.get("command"))
        status = str(item.get("status") or "completed").lower()
        succeeded = item.get("exitCode", 0) in (0, None) and status == "completed"
        if succeeded:
            yield from rollout.ran(joined)
        if GIT_COMMIT.search(joined) and item.get("exitCode", 0) in (0, None):
            output = str(item.get("aggregatedOutput") or item.get("stdout") or "")
            yield from committed(commits_in(output, joined), joined, session)


def response_item(payload: dict[str, Any], rollout: CodexRollout) -> Iterator[Message]:
    """A `response_item` line: only shell calls that commit, check the work or post text, and
    their output, are read (older rollouts keep no `exec_command_end`)."""
    kind = payload.get("type")
    call_id = str(payload.get("call_id") or "")
    if kind == "function_call" and payload.get("name") in SHELL_TOOLS:
        try:
            arguments = json.loads(str(payload.get("arguments") or "{}"))
        except (ValueError, RecursionError):
            arguments = {}
        arguments = as_dict(arguments)
        joined = shell_command(arguments.get("cmd") or arguments.get("command"))
        if GIT_COMMIT.search(joined):
            rollout.commit_calls[call_id] = joined
        elif checks := check_commands(joined):
            rollout.check_calls[call_id] = checks
        if post := post_of(joined, rollout.session):
            rollout.posted_calls[call_id] = post
        return
    if kind != "function_call_output":
        return
    if call_id in rollout.posted_calls:
        post = rollout.posted_calls.pop(call_id)
        if exit_code(payload.get("output")) == 0:
            yield from rollout.post(post)
    if call_id in rollout.check_calls:
        checks = rollout.check_calls.pop(call_id)
        if exit_code(payload.get("output")) == 0:
            yield Message("assistant", session=rollout.session, checks=checks)
    elif call_id in rollout.commit_calls:
        command = rollout.commit_calls.pop(call_id)
        output = payload.get("output")
        if isinstance(output, dict):
            output = output.get("output") or output.get("content")
        found = commits_in(output if isinstance(output, str) else result_text(output), command)
        yield from committed(found, command, rollout.session)


EXIT_CODE = re.compile(r"^(?:Process exited with code|Exit code:)\s*(-?\d+)", re.MULTILINE)


def exit_code(output: Any) -> int | None:
    """The exit code a shell call's output reports (as text, or in its JSON `metadata`), or
    None when it reports none (a command still running when its output was taken)."""
    if isinstance(output, str) and output.lstrip().startswith("{"):
        try:
            output = json.loads(output)
        except (ValueError, RecursionError):
            pass
    if isinstance(output, dict):
        code = as_dict(output.get("metadata")).get("exit_code")
        return code if isinstance(code, int) else None
    found = EXIT_CODE.search(str(output or "")[:2000])
    return int(found[1]) if found else None


def shell_command(command: Any) -> str:
    """A command as one line, as a shell would be given it: `["bash", "-lc", "cargo test"]` is
    `bash -lc 'cargo test'` (which `checks.check_commands` reads as `cargo test`)."""
    if isinstance(command, list):
        return shlex.join(str(word) for word in command)
    return str(command or "")


def commits_in(output: str, command: str = "") -> tuple[str, ...]:
    """The commits `git commit` reported: "abc1234 subject" each. Where a wrapper printed its
    own words rather than git's (`rtk git commit` says "ok f1bcd13"), the commit the command
    made is its message's subject, with the one commit id the output names."""
    found = tuple(f"{m['sha'][:7]} {m['subject']}" for m in COMMIT_LINE.finditer(output))
    if found or not command:
        return found
    ids = set(COMMIT_ID.findall(output[:COMMIT_OUTPUT]))
    subject = commit_subject(command) if len(ids) == 1 else ""
    return (f"{ids.pop()[:7]} {subject}",) if subject else ()


def shell_call_done(command: str, output: str) -> Iterator[Message]:
    """What a shell call a reader knows succeeded did, read from its output: the commits
    `git commit` reported (with what their message says), the checks it ran, what it posted."""
    yield from committed(commits_in(output, command), command)
    yield from succeeded_call(command)


def succeeded_call(command: str, session: str = "") -> Iterator[Message]:
    """What a shell call that succeeded tells: the checks it ran (tests, linters, builds) and
    the text it posted for other people (a pull request's description, an issue, a comment)."""
    if checks := check_commands(command):
        yield Message("assistant", session=session, checks=checks)
    if post := post_of(command, session):
        yield post


def post_of(command: str, session: str = "") -> Message | None:
    """What a shell call posts for other people (`posted`), with the title of the pull
    request it opens; None for a call that posts nothing."""
    text, title = posted(command)
    return Message("posted", text, session=session, title=title) if text or title else None


def committed(found: tuple[str, ...], command: str, session: str = "") -> Iterator[Message]:
    """The commits a `git commit` call made, then what its message says under the subject
    (none if no commit was made: a failed hook, nothing to commit)."""
    if not found:
        return
    yield Message("assistant", commits=found, session=session)
    if body := commit_body(command):
        yield Message("commit", body, session=session)


# --- Aider `.aider.chat.history.md` ---------------------------------------------------------


def read_aider(lines: Iterable[str]) -> Iterator[Message]:
    """Aider's chat log: `#### ` user lines, `> ` tool output, assistant markdown."""
    assistant: list[str] = []
    user: list[str] = []
    session = ""  # "aider <start time>" of the session being read

    def flush() -> Iterator[Message]:
        if user:
            yield Message("user", "\n".join(user), session=session)
            user.clear()
        if assistant:
            yield Message("assistant", "".join(assistant), session=session)
            assistant.clear()

    fenced = False  # inside a code block of the assistant's (a SEARCH/REPLACE block has `>>>`)
    for line in without_recall(lines):
        if assistant and not user and fence_mark(line):
            fenced = not fenced
        if fenced:
            assistant.append(line)
        elif line.startswith("# aider chat started at"):
            yield from flush()
            session = "aider " + line.removeprefix("# aider chat started at").strip()
        elif line.startswith("####"):
            if assistant:
                yield from flush()
            # `/diff`, `/undo`: commands to aider; `/ask …` is repeated as the next line.
            if not line[4:].lstrip().startswith("/"):
                user.append(line[5:].rstrip())  # indented lines stay code
        elif line.startswith(">"):
            if user or assistant:
                yield from flush()
            output = line[1:].strip()
            commit = AIDER_COMMIT.match(output)
            edit = AIDER_EDIT.match(output)
            undo = AIDER_UNDO.match(output)
            if commit:
                yield Message("assistant", commits=(f"{commit['sha'][:7]} {commit['subject']}",))
            elif undo:
                yield Message("undo", commits=(undo["sha"][:7],))
            elif edit:
                yield Message("assistant", files=(edit["path"].strip(),))
        else:
            if user and line.strip():
                yield from flush()
            if not user:
                assistant.append(line)
                if len(assistant) >= TEXT_CHUNK_LINES and (
                    len(assistant) >= MAX_CHUNK_LINES or can_cut(assistant)
                ):
                    yield from flush()
    yield from flush()
