"""Related words: pairs that several entries hold together widen a search, worked out when the
index is written; they rank an entry, never make it relevant."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from mem.index import related
from mem.index.search_index import Filters, Ranking, SearchIndex
from mem.model import DEFAULT_HALF_LIFE_DAYS, Entry

from .helpers import indexed as entry

NOW = datetime(2026, 11, 24, tzinfo=UTC)
RANKING = Ranking(NOW, DEFAULT_HALF_LIFE_DAYS, decay=False)


def filler(start: int, count: int) -> list[tuple[Entry, str]]:
    # Entries of their own words, so the pairs under test stay under a twentieth of the vault.
    return [entry(n, f"note{n} about topic{n}") for n in range(start, start + count)]


def build(folder: Path, entries: list[tuple[Entry, str]]) -> SearchIndex:
    index = SearchIndex(folder / "index")
    index.rebuild(entries, len(entries), {})
    return index


def table(index: SearchIndex) -> dict[str, list[str]]:
    lines = (index.folder / related.RELATED_FILE).read_text(encoding="utf-8").splitlines()
    assert lines[0] == related.HEADER
    return {
        word: [pair.rpartition(":")[0] for pair in rest.split()]
        for word, _, rest in (line.partition("\t") for line in lines[1:])
    }


VAULT = [
    entry(1, "Uploads go through multipart above 8 MB."),
    entry(2, "Large uploads need multipart or they stall."),
    entry(3, "The multipart threshold lives in storage settings."),
    entry(4, "Only once: uploads and kittens."),
    entry(5, "kittens appear once with zebra"),
]


def test_words_held_together_by_several_entries_are_related(tmp_path):
    index = build(tmp_path, VAULT + filler(100, 80))
    words = table(index)
    assert "multipart" in words["upload"] and "upload" in words["multipart"]
    assert "zebra" not in words.get("kitten", [])  # together in one entry: chance
    assert "zebra" not in words


def test_a_word_in_many_entries_relates_to_nothing(tmp_path):
    common = [entry(n, f"deploy step {n} with multipart") for n in range(10, 20)]
    index = build(tmp_path, VAULT + common + filler(100, 80))
    assert "multipart" not in table(index)  # in 13 of 95 entries: says little


def test_a_related_word_finds_an_entry_below_those_with_the_task_words(tmp_path):
    index = build(tmp_path, VAULT + filler(100, 80))
    hits = index.search("uploads time out", Filters(), RANKING, None)
    ids = [hit.entry.id for hit in hits]
    assert "e003" in ids  # says multipart, not upload
    assert ids.index("e003") > max(ids.index("e001"), ids.index("e002"))
    found = next(hit for hit in hits if hit.entry.id == "e003")
    assert "~multipart" in found.matched  # and `+upload`: its neighbours, written with it, say it
    assert not [word for word in found.matched if word[0] not in "~+"]
    assert found.strength == 0 and found.coverage == 0  # relevance is the task's words' say


def test_an_update_works_the_table_out_again_once_enough_has_changed(tmp_path):
    index = build(tmp_path, filler(100, 20))
    assert "cach" not in table(index)
    pair = [entry(n, f"cache warming needs redis {n}", path="dev/facts.md") for n in (1, 2)]
    index.update({"dev/facts.md": pair}, {})
    assert "redi" in table(index)["cach"]
    manifest = (index.folder / "manifest.json").read_text(encoding="utf-8")
    assert '"unrelated": 0' in manifest


def test_a_small_change_to_a_large_index_keeps_the_table_and_counts_it(tmp_path):
    index = build(tmp_path, filler(100, 400))
    before = (index.folder / related.RELATED_FILE).stat().st_mtime_ns
    index.update({"dev/facts.md": [entry(1, "cache warming"), entry(2, "cache warming")]}, {})
    assert (index.folder / related.RELATED_FILE).stat().st_mtime_ns == before
    manifest = (index.folder / "manifest.json").read_text(encoding="utf-8")
    assert '"unrelated": 2' in manifest


def test_indexing_an_archive_is_no_reason_to_work_the_table_out_again(tmp_path):
    # Its entries were hot, and counted, when the table was worked out: after a compaction the
    # first search of the archive indexes most of the vault and would pay for it every time.
    index = build(tmp_path, filler(100, 20))
    before = (index.folder / related.RELATED_FILE).stat().st_mtime_ns
    moved = [
        entry(n, f"cache warming needs redis {n}", path="dev/archive/facts.md") for n in (1, 2)
    ]
    index.update({"dev/archive/facts.md": moved}, {})
    assert (index.folder / related.RELATED_FILE).stat().st_mtime_ns == before
    manifest = (index.folder / "manifest.json").read_text(encoding="utf-8")
    assert '"unrelated": 0' in manifest


def test_a_table_of_another_version_or_none_widens_nothing(tmp_path):
    index = build(tmp_path, VAULT + filler(100, 80))
    path = index.folder / related.RELATED_FILE
    path.write_text("# mem related words 0\nupload\tkitten:1.000\n", encoding="utf-8")
    assert related.RelatedWords(index.folder).around(["upload"]) == {}
    path.unlink()
    assert related.RelatedWords(index.folder).around(["upload"]) == {}


def test_at_most_a_few_related_words_are_added_closest_first(tmp_path):
    lines = [related.HEADER]
    lines.append("alpha\t" + " ".join(f"w{n}:0.{9 - n}00" for n in range(6)))
    lines.append("beta\t" + " ".join(f"v{n}:0.{8 - n}50" for n in range(6)) + " alpha:0.990")
    (tmp_path / related.RELATED_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    around = related.RelatedWords(tmp_path).around(["alpha", "beta"])
    assert len(around) == related.MAX_ADDED
    assert "alpha" not in around  # a task word is not added again
    assert list(around)[:3] == ["w0", "v0", "w1"]
    assert around["w0"] == related.WEIGHT * 0.9


def test_words_of_private_entries_relate_nothing(tmp_path):
    """The table widens every agent's searches and names what it added: a private entry's
    words must not reach it."""
    private = [
        (made._replace(scope="private", path=".mem/private/dev/lessons.md"), key)
        for made, key in (
            entry(n, f"The zebracode vault opens with quokkaword number {n}") for n in (6, 7, 8)
        )
    ]
    words = table(build(tmp_path, VAULT + private + filler(100, 80)))
    assert "zebracode" not in words and "quokkaword" not in words
    assert "multipart" in words["upload"]  # the others' words as before
