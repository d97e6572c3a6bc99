"""`mem migrate`: a flat vault (one `.memory/<agent>.md` per agent, `## Section` headings in
English or Portuguese) into the category layout.

Each section names a category; each top-level list item (or, without a list, each paragraph)
under it becomes one entry, dated by a leading date when it has one (`- 2026-03-02: …`,
`- [2026-03-02] …`), else by the file's modification time. Every entry records where it came
from (`source:migrate`, `src-id:` a hash of its agent, section and text), and the category
files are written before the flat file is renamed to `.md.bak` (which `mem compact` removes
later): a run killed in between is finished by the next, which finds the src-ids already there
and adds nothing twice.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from mem.config import Settings, is_valid_agent
from mem.errors import InvalidInput
from mem.model import Entry
from mem.services.feedback import QUIET, Feedback
from mem.services.importers import digest, modified_at
from mem.services.refresh import parse
from mem.vault import layout, store
from mem.vault.entries import parse_date

# Section titles, lowercased and without accents, to (category, kind).
SECTIONS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("decisions", "decisoes", "decision", "decisao"), ("decisions", "decision")),
    **dict.fromkeys(
        ("lessons", "lessons learned", "learnings", "aprendizados", "licoes", "licoes aprendidas"),
        ("lessons", "lesson"),
    ),
    **dict.fromkeys(("warnings", "avisos", "alertas"), ("lessons", "warning")),
    **dict.fromkeys(("tasks", "todo", "to do", "tarefas", "pendencias"), ("tasks", "task")),
    **dict.fromkeys(("context", "contexto"), ("projects", "context")),
    **dict.fromkeys(("projects", "project", "projetos", "projeto"), ("projects", "project")),
    **dict.fromkeys(
        ("facts", "fatos", "notes", "notas", "knowledge", "conhecimento"), ("facts", "fact")
    ),
    **dict.fromkeys(("preferences", "preferencias"), ("facts", "preference")),
    **dict.fromkeys(("conventions", "convencoes"), ("facts", "convention")),
    **dict.fromkeys(("handoffs", "handoff", "sessions", "sessoes"), ("handoffs", "handoff")),
}
HEADING = re.compile(r"^##\s+(.+?)\s*#*\s*$")
ITEM = re.compile(r"^[-*+]\s+(.*)$")
LEADING_DATE = re.compile(
    r"^\[?(?P<date>\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?Z?)?)\]?\s*[:\-–—]?\s*"
)
SKIPPED_FILES = ("README.md", "_project.md")


class Item(NamedTuple):
    category: str
    kind: str
    text: str
    moment: datetime
    src_id: str


class Migrated(NamedTuple):
    flat_file: str  # vault-relative
    agent: str
    added: dict[str, int]  # category -> entries written
    skipped: int  # entries an earlier (killed) run had written already
    unknown_sections: tuple[str, ...]  # headings that name no category: their text stays in .bak


def plain(title: str) -> str:
    folded = unicodedata.normalize("NFKD", title.strip().lower())
    return "".join(c for c in folded if not unicodedata.combining(c)).strip(" :")


def flat_files(vault: Path) -> list[Path]:
    """`.memory/<agent>.md` files: a flat vault's, one per agent."""
    return [
        path
        for path in sorted(vault.glob("*.md"))
        if path.name not in SKIPPED_FILES and is_valid_agent(path.stem) and path.is_file()
    ]


def items_of(agent: str, text: str, modified: datetime) -> tuple[list[Item], list[str]]:
    """The entries of a flat file, and the section titles that name no category."""
    items: list[Item] = []
    unknown: list[str] = []
    section: tuple[str, str] | None = None
    title = ""
    chunk: list[str] = []

    def flush() -> None:
        body = "\n".join(chunk).strip()
        chunk.clear()
        if section is None or not body:
            return
        found = LEADING_DATE.match(body)
        moment = modified
        if found:
            try:
                moment = parse_date(found.group("date"))
                body = body[found.end() :].strip()
            except ValueError:
                pass
        category, kind = section
        if category == "tasks" and not body.startswith("["):
            body = f"- [ ] {body}"
        elif category == "tasks":
            body = f"- {body}"
        items.append(Item(category, kind, body, moment, f"flat:{digest(agent, title, body)}"))

    after_blank = True
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading:
            flush()
            title = plain(heading.group(1))
            section = SECTIONS.get(title)
            if section is None:
                unknown.append(heading.group(1).strip())
            after_blank = True
            continue
        item = ITEM.match(line)
        if item:  # a list item starts an entry
            flush()
            chunk.append(item.group(1))
        elif not line.strip():  # a blank line ends one
            flush()
        elif chunk and (not after_blank or line.startswith(("  ", "\t"))):
            chunk.append(line.strip())  # its next line
        else:  # a paragraph starts an entry
            flush()
            chunk.append(line.strip())
        after_blank = not line.strip()
    flush()
    return items, unknown


def migrate_flat(settings: Settings, feedback: Feedback = QUIET) -> list[Migrated]:
    """Convert every flat agent file of the vault; an empty list when there are none."""
    from mem.services.add import NewEntry, add_many

    vault = settings.require_vault()
    done: list[Migrated] = []
    flat = flat_files(vault)
    for path in flat:
        agent = path.stem
        text = store.read_text(vault, path.name)
        items, unknown = items_of(agent, text, modified_at(path))
        if not items:
            raise InvalidInput(
                f"{path.name} has no section mem knows ({', '.join(unknown) or 'no ## headings'}); "
                "name them Decisions, Lessons, Tasks, Context, Notes or Handoffs (or in Portuguese)"
            )
        as_agent = settings._replace(agent=agent)
        added: dict[str, int] = {}
        skipped = 0
        for category in dict.fromkeys(item.category for item in items):
            ref = layout.file_ref(agent, category)
            present = {entry.get("src-id") for entry in parse(vault, ref)[0]}
            wanted = [i for i in items if i.category == category and i.src_id not in present]
            skipped += sum(1 for i in items if i.category == category and i.src_id in present)
            for kind in dict.fromkeys(i.kind for i in wanted):
                batch = [
                    NewEntry(i.text, i.moment, header=(("source", "migrate"), ("src-id", i.src_id)))
                    for i in wanted
                    if i.kind == kind
                ]
                add_many(as_agent, batch, category, kind, feedback)
                added[category] = added.get(category, 0) + len(batch)
        os.replace(path, path.with_name(path.name + ".bak"))
        store.sync_folder(path.parent)
        done.append(Migrated(path.name, agent, added, skipped, tuple(unknown)))
        if feedback.progress is not None and len(flat) > 1:
            feedback.progress(len(done), len(flat))
    return done


SOURCES = ("aiteamx", "bit-office", "jsonl", "ostwin", "cline", "claude", "portos", "basic-memory")
FOLDER_SOURCES = {
    "cline": "Cline keeps its memory in memory-bank/",
    "aiteamx": "AITEAM-X keeps its memory in .memory/",
    "bit-office": "bit-office keeps its memory in ~/.open-office/data/instances/<id>/memory/",
}


class Imported(NamedTuple):
    source: str
    added: dict[str, int]  # vault-relative file -> entries written
    skipped: int  # records imported before (their src-id or id is in the vault)
    problems: tuple[tuple[int, str], ...]  # (line, why) of records that could not be read


def import_from(
    settings: Settings, source: str, path: Path, feedback: Feedback = QUIET
) -> Imported:
    """Import another system's memory (see importers.py); records already imported are
    skipped, unreadable ones reported with their line, the rest written."""
    from mem.services import importers, team_importers
    from mem.services.add import without_secrets
    from mem.vault import entries as entry_codec
    from mem.vault import operations

    vault = settings.require_vault()
    if source not in SOURCES:
        raise InvalidInput(f"unknown source {source!r}; use one of {', '.join(SOURCES)}")
    if source in FOLDER_SOURCES and not path.is_dir():
        raise InvalidInput(f"{path} is not a folder ({FOLDER_SOURCES[source]})")
    if source in ("jsonl", "ostwin", "portos") and not path.is_file():
        raise InvalidInput(f"{path} is not a file")
    if not path.exists():
        raise InvalidInput(f"{path} does not exist")
    source_root = team_importers.aiteamx_root(path) if source == "aiteamx" else path
    if source in FOLDER_SOURCES and vault.resolve() in (
        source_root.resolve(),
        *source_root.resolve().parents,
    ):
        # AITEAM-X keeps its vault in .memory/ too: the same files would be read and written
        where = "this vault" if source_root.resolve() == vault.resolve() else "inside this vault"
        raise InvalidInput(
            f"{source_root} is {where}: move the other system's files out of it "
            f"(e.g. to .memory-{source}) and import from there"
        )
    fallback = importers.modified_at(path)
    records: list[importers.Record] = []
    problems: list[tuple[int, str]] = []
    read = {
        "cline": importers.read_cline,
        "claude": importers.read_claude,
        "portos": importers.read_portos,
        "basic-memory": importers.read_basic_memory,
        "aiteamx": team_importers.read_aiteamx,
        "bit-office": team_importers.read_bit_office,
    }.get(source, importers.read_jsonl)
    for found in read(path, fallback):
        if isinstance(found, importers.Problem):
            problems.append((found.line, found.reason))
        else:
            records.append(found)
    texts = without_secrets([record.text for record in records], feedback)
    records = [record._replace(text=text) for record, text in zip(records, texts, strict=True)]
    known: set[str] = set()
    for entry in vault_entries(vault):
        known.update((entry.id, entry.get("src-id")))
    by_file: dict[layout.FileRef, list[str]] = {}
    new_ids: dict[layout.FileRef, set[str]] = {}
    skipped = 0
    for record in records:
        if record.src_id in known or (record.entry_id and record.entry_id in known):
            skipped += 1
            continue
        agent = record.agent if record.agent and is_valid_agent(record.agent) else settings.agent
        scope = record.scope if record.scope in ("agent", "shared", "private") else "agent"
        ref = layout.file_ref(agent, record.category, scope, record.archived)
        entry_id = record.entry_id or entry_codec.new_entry_id(record.moment)
        if record.entry_id:
            header = (("kind", record.kind), *record.header)
        else:
            header = (
                ("kind", record.kind),
                ("source", f"import:{source}"),
                ("src-id", record.src_id),
                *record.header,
            )
        tags = tuple(t for t in record.tags if valid_tag(t))
        block = entry_codec.render_entry(entry_id, record.moment, tags, record.text, header)
        by_file.setdefault(ref, []).append(block)
        new_ids.setdefault(ref, set()).add(entry_id)
        known.update((entry_id, record.src_id))
    added: dict[str, int] = {}
    for ref, blocks in by_file.items():
        operations.insert(vault, ref, "".join(blocks), new_ids[ref])
        added[ref.path] = len(blocks)
        if feedback.progress is not None and len(by_file) > 1:
            feedback.progress(len(added), len(by_file))
    if added:
        link_supersedes(vault)
    return Imported(source, added, skipped, tuple(problems))


def link_supersedes(vault: Path) -> None:
    """A source's own `supersedes` (kept as `supersedes-src:`, its id for the older record)
    becomes mem's links both ways: `supersedes:` on the newer entry, `superseded-by:` on the
    older, which search and recall then leave out."""
    entries = vault_entries(vault)
    by_src = {entry.get("src-id"): entry for entry in entries if entry.get("src-id")}
    changes: dict[str, dict[str, dict[str, str | None]]] = {}
    for newer in entries:
        older = by_src.get(newer.get("supersedes-src"))
        if older is None or newer.get("supersedes") == older.id:
            continue
        changes.setdefault(newer.path, {})[newer.id] = {"supersedes": older.id}
        changes.setdefault(older.path, {})[older.id] = {"superseded-by": newer.id}
    by_path = {ref.path: ref for ref in layout.category_files(vault)}
    for path, updates in changes.items():
        store.update(vault, path, with_headers_of(by_path[path], updates))


def with_headers_of(
    ref: layout.FileRef, updates: dict[str, dict[str, str | None]]
) -> Callable[[str], str]:
    from mem.vault import entries as entry_codec

    def change(text: str) -> str:
        return entry_codec.with_headers(entry_codec.parse_ref(text, ref), updates)

    return change


def vault_entries(vault: Path) -> list[Entry]:
    """Every entry of the vault, archives and private files too, read from the markdown."""
    return [entry for ref in layout.category_files(vault) for entry in parse(vault, ref)[0]]


def valid_tag(tag: str) -> bool:
    """A source's tag that mem can keep (one word with a letter); others are dropped."""
    from mem.services.add import check_tags

    try:
        return bool(check_tags((tag,)))
    except InvalidInput:
        return False
