"""At most MAX_FACTS live facts per agent, however they were added: the least reinforced, oldest
move to the archive (still searchable), so the facts recall reads stay few and strong."""

from __future__ import annotations

from pathlib import Path

from mem.model import Entry
from mem.vault import entries as entry_codec
from mem.vault import layout, store

MAX_FACTS = 50  # per agent


def cap_facts(vault: Path, agent: str) -> list[Entry]:
    """Keep at most MAX_FACTS live facts per agent: move the least reinforced, oldest out."""
    ref = layout.file_ref(agent, "facts")
    archive = layout.file_ref(agent, "facts", archived=True)
    moved: list[Entry] = []
    with store.locked(vault, ref.path):
        parsed = entry_codec.parse_ref(store.read_strict(vault, ref.path), ref)
        live = [s for s in parsed.spans if not s.entry.is_superseded and not s.entry.is_pinned]
        # A crash after the archive write but before the removal leaves copies in both files:
        # those leave the hot file first, and are not archived again.
        archived = {
            entry.id
            for entry in entry_codec.parse_ref(
                store.read_text(vault, archive.path), archive
            ).entries
        }
        already = [span for span in live if span.entry.id in archived]
        rest = [span for span in live if span.entry.id not in archived]
        if len(rest) <= MAX_FACTS and not already:
            return []
        rest.sort(key=lambda span: (span.entry.reinforced, span.entry.date))
        leaving = already + rest[: max(0, len(rest) - MAX_FACTS)]

        def add_to_archive(old: str) -> str:
            text = old or entry_codec.new_file_text(agent, "facts")
            present = {entry.id for entry in entry_codec.parse_ref(text, archive).entries}
            for span in leaving:
                if span.entry.id not in present:
                    block = parsed.text[span.start : span.end].rstrip("\n") + "\n\n"
                    text = entry_codec.insert_entry(entry_codec.parse_ref(text, archive), block)
            return text

        # Archive first, then remove: a crash in between leaves a copy, never a loss.
        store.update(vault, archive.path, add_to_archive)
        text = parsed.text
        for span in sorted(leaving, key=lambda s: s.start, reverse=True):
            text = text[: span.start] + text[span.end :].lstrip("\r\n")
        store.write_atomic(vault, ref.path, text)
        moved = [span.entry for span in leaving if span.entry.id not in archived]
    return moved
