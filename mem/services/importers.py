"""`mem migrate --from SOURCE PATH`: other systems' memory, read into entries.

Each reader turns its source into Records: where the entry goes (agent, category, kind), when
it happened, its text, and `src-id`, the source's own id for it (or a hash of it), which makes
a second import add nothing. A record a reader cannot use becomes a Problem with its line, and
the good ones are imported all the same.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from mem.model import CATEGORY_OF_KIND, KINDS_BY_CATEGORY

TEXT_KEYS = ("body", "text", "content", "summary", "message", "note", "memory")
KIND_KEYS = ("kind", "type", "category")
TIME_KEYS = ("date", "ts", "timestamp", "created_at", "createdAt", "time", "updatedAt")
ID_KEYS = ("id", "uuid", "_id")
# Other systems' names for mem's kinds.
KIND_SYNONYMS = {  # mem's own kind names need none: CATEGORY_OF_KIND knows them
    "lesson_learned": "lesson",
    "learning": "lesson",
    "user_preference": "preference",
    "codebase_pattern": "pattern",
    "workflow_habit": "convention",
    "todo": "task",
    "note": "fact",
    "insight": "lesson",
    "summary": "handoff",
    "idea": "fact",
    "tech": "fact",
    "requirement": "fact",
    "issue": "observation",
    "problem": "observation",
    "solution": "lesson",
    "design": "decision",
    "feature": "fact",
    "bug": "observation",
}


class Record(NamedTuple):
    agent: str | None  # None: the importing agent
    category: str
    kind: str
    moment: datetime
    text: str
    src_id: str
    tags: tuple[str, ...] = ()
    header: tuple[tuple[str, str], ...] = ()  # beyond kind (an export's own)
    entry_id: str | None = None  # an export's id, kept
    scope: str = "agent"
    archived: bool = False


class Problem(NamedTuple):
    line: int
    reason: str


def kind_and_category(raw: Any) -> tuple[str, str]:
    """A source's kind or type as mem's (kind, category); a fact when nothing fits."""
    name = str(raw or "").strip().lower().replace(" ", "_").replace("-", "_")
    name = KIND_SYNONYMS.get(name, name)
    if name in CATEGORY_OF_KIND:
        return name, CATEGORY_OF_KIND[name]
    if name in KINDS_BY_CATEGORY:
        return KINDS_BY_CATEGORY[name][0], name
    if name.rstrip("s") in CATEGORY_OF_KIND:
        return name.rstrip("s"), CATEGORY_OF_KIND[name.rstrip("s")]
    return "fact", "facts"


def moment_of(raw: Any, fallback: datetime) -> datetime:
    """A source's time: epoch seconds or milliseconds, or an ISO date as headings take it."""
    from mem.vault.entries import parse_date

    if isinstance(raw, (int, float)) and raw > 0:
        try:
            return datetime.fromtimestamp(raw / 1000 if raw > 1e11 else raw, UTC)
        except (ValueError, OverflowError, OSError):  # beyond the years a date can hold
            return fallback
    if isinstance(raw, str) and raw.strip():
        try:
            return parse_date(raw)
        except ValueError:
            return fallback
    return fallback


def modified_at(path: Path) -> datetime:
    """When a file was last written: what a source without its own dates is dated by."""
    return datetime.fromtimestamp(os.stat(path).st_mtime, UTC)


def first(record: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((record[key] for key in keys if record.get(key) not in (None, "")), None)


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def digest(*parts: str) -> str:
    joined = "\x1f".join(parts).encode("utf-8")
    return hashlib.sha1(joined, usedforsecurity=False).hexdigest()[:16]


def read_jsonl(path: Path, fallback: datetime) -> Iterator[Record | Problem]:
    """`mem export`'s own lines (kept exactly: ids, headers, places) or any event log with a
    text field (`text`, `content`, `summary`…), a kind or type, and a time."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                yield Problem(number, f"not one JSON object ({exc.msg})")
                continue
            if not isinstance(record, dict):
                yield Problem(number, "not a JSON object")
                continue
            yield from from_record(record, number, fallback)


def from_record(
    record: dict[str, Any], number: int, fallback: datetime
) -> Iterator[Record | Problem]:
    if {"id", "agent", "category", "body", "header"} <= record.keys():  # mem export
        header = record["header"] if isinstance(record["header"], dict) else {}
        kind = str(record.get("kind") or header.get("kind") or "")
        category = str(record["category"])
        if category not in KINDS_BY_CATEGORY:
            yield Problem(number, f"unknown category {category!r}")
            return
        yield Record(
            agent=str(record["agent"]),
            category=category,
            kind=kind or KINDS_BY_CATEGORY[category][0],
            moment=moment_of(record.get("date"), fallback),
            text=str(record["body"]),
            src_id=str(record["id"]),
            tags=tuple(str(tag) for tag in as_list(record.get("tags"))),
            header=tuple((str(k), str(v)) for k, v in header.items() if k != "kind"),
            entry_id=str(record["id"]),
            scope=str(record.get("scope") or "agent"),
            archived=bool(record.get("archived")),
        )
        return
    text = first(record, TEXT_KEYS)
    detail = record.get("detail")
    if not isinstance(text, str) or not text.strip():
        yield Problem(number, f"no text ({', '.join(TEXT_KEYS)})")
        return
    if isinstance(detail, str) and detail.strip():
        text = f"{text.strip()}\n\n{detail.strip()}"
    kind, category = kind_and_category(first(record, KIND_KEYS))
    source_id = first(record, ID_KEYS)
    agent = record.get("agent") or record.get("author_role") or record.get("role")
    yield Record(
        agent=str(agent).lower() if agent else None,
        category=category,
        kind=kind,
        moment=moment_of(first(record, TIME_KEYS), fallback),
        text=text.strip(),
        src_id=str(source_id) if source_id else digest(text),
        tags=tuple(str(tag) for tag in as_list(record.get("tags"))),
        header=(("supersedes-src", str(record["supersedes"])),) if record.get("supersedes") else (),
    )


# Cline's memory bank: its six core files, each to a category and kind.
CLINE_FILES = {
    "projectbrief.md": ("projects", "project"),
    "productContext.md": ("projects", "context"),
    "activeContext.md": ("projects", "context"),
    "progress.md": ("projects", "context"),
    "systemPatterns.md": ("facts", "pattern"),
    "techContext.md": ("facts", "fact"),
}


def read_cline(folder: Path, fallback: datetime) -> Iterator[Record | Problem]:
    """A Cline memory bank (`memory-bank/`): each `## ` section of its core files becomes an
    entry (its title first), dated by the file's time; other files are left alone."""
    found = False
    for name, (category, kind) in CLINE_FILES.items():
        path = folder / name
        if not path.is_file():
            continue
        found = True
        moment = modified_at(path)
        text = path.read_text(encoding="utf-8", errors="replace")
        for title, body in sections(text):
            entry = f"**{title}** ({name})\n\n{body}"
            src_id = f"cline:{name}:{digest(title, body)}"
            yield Record(None, category, kind, moment, entry, src_id)
    if not found:
        yield Problem(0, f"no memory-bank file ({', '.join(CLINE_FILES)}) in {folder}")


def sections(text: str) -> Iterator[tuple[str, str]]:
    """The `##` and `###` sections of a markdown text, as (title, body), a `###` titled under
    its `##` ("Risk › Unstucking"): memory-bank sections run to hundreds of lines, one entry
    each would fill a recall. Text before the first heading is the file's own title."""
    parent, title, lines = "", "", list[str]()
    in_fence = False
    for line in [*text.splitlines(), "## "]:
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        heading = not in_fence and line.startswith(("## ", "### "))
        if heading:
            body = "\n".join(lines).strip()
            if title and body:
                yield title, body
            name = line.split(" ", 1)[1].strip()
            if line.startswith("## "):
                parent, title = name, name
            else:
                title = f"{parent} › {name}" if parent else name
            lines = []
        elif title:
            lines.append(line)


CLAUDE_FILES = ("CLAUDE.md", "CLAUDE.local.md", "MEMORY.md")
LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s+(.*)$")


def read_claude(path: Path, fallback: datetime) -> Iterator[Record | Problem]:
    """Claude Code's memory: CLAUDE.md (a project's standing instructions: conventions),
    MEMORY.md and the topic files of an auto-memory folder (`~/.claude/projects/<p>/memory/`:
    facts). Given a folder, its CLAUDE.md, .claude/CLAUDE.md, MEMORY.md and memory/*.md are
    read. Each list item, or paragraph, is an entry, its section's title first."""
    files = [path] if path.is_file() else claude_files(path)
    if not files:
        yield Problem(0, f"no CLAUDE.md, MEMORY.md or memory/*.md in {path}")
        return
    for file in files:
        kind = "convention" if file.name.startswith("CLAUDE") else "fact"
        moment = modified_at(file)
        text = file.read_text(encoding="utf-8", errors="replace")
        for title, item in items(text):
            entry = f"{title}: {item}" if title else item
            src_id = f"claude:{file.name}:{digest(title, item)}"
            yield Record(None, "facts", kind, moment, entry, src_id)


def claude_files(folder: Path) -> list[Path]:
    found = [
        folder / name
        for name in (*CLAUDE_FILES, f".claude/{CLAUDE_FILES[0]}")
        if (folder / name).is_file()
    ]
    found += sorted(p for p in (folder / "memory").glob("*.md") if p.is_file())
    return list(dict.fromkeys(found))


def items(text: str) -> Iterator[tuple[str, str]]:
    """(section title, text) for each list item or paragraph of a markdown text; `@path`
    imports, headings and fenced code are not entries."""
    title, chunk = "", list[str]()
    in_fence = False

    def flush() -> Iterator[tuple[str, str]]:
        body = " ".join(part.strip() for part in chunk).strip()
        chunk.clear()
        if body and not body.startswith("@"):
            yield title, body

    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if line.startswith("#"):
            yield from flush()
            # A file's own `# Title` names no section; `## Build` does.
            title = "" if line.startswith("# ") else line.lstrip("#").strip()
            continue
        item = LIST_ITEM.match(line)
        if item and not line.startswith("    "):
            yield from flush()
            chunk.append(item.group(1))
        elif not line.strip():
            yield from flush()
        else:
            chunk.append(line)


def read_portos(path: Path, fallback: datetime) -> Iterator[Record | Problem]:
    """PortOS's Chief-of-Staff memory: an index `{version, count, memories: [...]}` (or a
    `memory.json` holding one memory, or a list), each memory `{id, type, content, tags,
    importance, createdAt}`. Memories it marks low importance are imported all the same."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        yield Problem(0, f"{path} is not a JSON file ({exc})")
        return
    if isinstance(data, dict) and isinstance(data.get("memories"), list):
        memories: list[Any] = data["memories"]
    elif isinstance(data, list):
        memories = data
    elif isinstance(data, dict) and first(data, TEXT_KEYS):
        memories = [data]
    else:
        yield Problem(0, f"{path} holds no memories (a `memories` list)")
        return
    for number, memory in enumerate(memories, start=1):
        if not isinstance(memory, dict):
            yield Problem(number, "a memory that is not a JSON object")
            continue
        yield from from_record(memory, number, fallback)


OBSERVATION = re.compile(r"^\s*[-*]\s+\[(?P<category>[^\]]+)\]\s+(?P<text>.+?)\s*$")
HASHTAG = re.compile(r"(?<![\w#])#([A-Za-z][\w-]*)")
CONTEXT_NOTE = re.compile(r"\s*\((?P<context>[^()]*)\)\s*$")


def read_basic_memory(path: Path, fallback: datetime) -> Iterator[Record | Problem]:
    """basic-memory's notes (markdown with frontmatter): each observation
    (`- [decision] Chose X #tag (why)`) becomes an entry of its category, with the note's title
    first; the note's text before its Observations is kept as a project context. Relations
    (`- implements [[Other]]`) are links between notes, not memories, and are left out."""
    notes = [path] if path.is_file() else sorted(p for p in path.rglob("*.md") if p.is_file())
    if not notes:
        yield Problem(0, f"no markdown notes in {path}")
        return
    for note in notes:
        moment = modified_at(note)
        text = note.read_text(encoding="utf-8", errors="replace")
        meta, body = split_frontmatter(text)
        title = meta.get("title") or note.stem
        section, intro = "", list[str]()
        for line in body.splitlines():
            if line.startswith("#"):
                section = line.lstrip("#").strip().lower()
                continue
            observation = OBSERVATION.match(line)
            if observation and section in ("observations", ""):
                yield observation_record(note.name, title, observation, moment)
            elif section not in ("observations", "relations") and line.strip():
                intro.append(line.strip())
        if intro:
            text_of = f"{title}\n\n" + "\n".join(intro)
            yield Record(
                None, "projects", "context", moment, text_of, f"basic-memory:{digest(note.name)}"
            )


def observation_record(name: str, title: str, found: re.Match[str], moment: datetime) -> Record:
    text = found.group("text")
    tags = tuple(dict.fromkeys(tag.lower() for tag in HASHTAG.findall(text)))
    text = HASHTAG.sub("", text).strip()
    context = CONTEXT_NOTE.search(text)
    if context:
        text = f"{text[: context.start()].strip()} ({context.group('context').strip()})"
    kind, category = kind_and_category(found.group("category"))
    src_id = f"basic-memory:{digest(name, found.group(0).strip())}"
    return Record(None, category, kind, moment, f"{title}: {text}", src_id, tags)


def split_frontmatter(text: str) -> tuple[dict[str, str], str]:
    """A note's simple `key: value` frontmatter (title, type, permalink) and its body."""
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 4)
    if end < 0:
        return {}, text
    meta = {}
    for line in text[4:end].splitlines():
        key, sep, value = line.partition(":")
        if sep and not line.startswith((" ", "-")):
            meta[key.strip()] = value.strip().strip("'\"")
    return meta, text[end + 4 :].lstrip("-\n")
