"""The lessons and warnings file beside the index: written whole, read line by line."""

from __future__ import annotations

from datetime import UTC, datetime

from mem.index import notes_file
from mem.model import Entry


def entry(entry_id: str, body: str, category: str = "lessons", kind: str = "lesson") -> Entry:
    return Entry(
        id=entry_id,
        agent="dev",
        category=category,
        kind=kind,
        date=datetime(2026, 11, 20, 10, 0, tzinfo=UTC),
        tags=(),
        body=body,
        header=(("kind", kind), ("superseded-by", "x1")),
        scope="private",
        path=f"dev/{category}.md",
    )


def test_only_lessons_and_warnings_are_kept_and_read_back_as_they_were(tmp_path):
    kept = [
        entry("l1", 'login.py "quotes" and ünïcode'),
        entry("w1", "never run make clean", "facts", "warning"),
    ]
    notes_file.write(tmp_path, notes_file.by_path([*kept, entry("f1", "a fact", "facts", "fact")]))
    read = notes_file.read(tmp_path)
    assert read is not None
    assert [e for entries in read.values() for e in entries] == sorted(kept, key=lambda e: e.path)
    assert read["dev/lessons.md"][0].is_superseded


def test_the_archives_notes_are_left_out(tmp_path):
    # No tool call is shown an archived note, and after a year most notes are archived: the
    # lookup before every tool call would read them all for nothing.
    hot = entry("l1", "login.py needs a restart")
    archived = entry("l2", "login.py used to need a restart")._replace(
        path="dev/archive/lessons.md", archived=True
    )
    notes_file.write(tmp_path, notes_file.by_path([hot, archived]))
    assert [note.id for note in notes_file.saved(tmp_path, ["login.py"]) or []] == ["l1"]


def test_words_pick_the_lines_that_hold_them(tmp_path):
    notes_file.write(tmp_path, notes_file.by_path([entry("l1", 'a "quoted.py"'), entry("l2", "b")]))
    lines = notes_file.read_lines(tmp_path)
    assert lines is not None
    assert [e.id for e in notes_file.entries(lines, ['"quoted.py"'])] == ["l1"]
    assert [e.id for e in notes_file.entries(lines, ["nothing"])] == []


def test_a_damaged_line_loses_one_note_and_a_foreign_file_reads_as_none(tmp_path):
    notes_file.write(tmp_path, notes_file.by_path([entry("l1", "one"), entry("l2", "two")]))
    path = tmp_path / notes_file.NOTES_FILE
    header, first, second = path.read_text(encoding="utf-8").splitlines()
    path.write_text(f"{header}\n{first[:-5]}\n{second}\n", encoding="utf-8")
    assert [e.id for e in notes_file.entries(notes_file.read_lines(tmp_path) or [])] == ["l2"]
    path.write_text('{"mem-notes": 0}\n' + second, encoding="utf-8")
    assert notes_file.read(tmp_path) is None
    path.unlink()
    assert notes_file.read(tmp_path) is None


def at(entry_: Entry, path: str) -> Entry:
    return entry_._replace(path=path)


def test_replacing_one_files_notes_keeps_every_other_line_as_it_stood(tmp_path):
    a1, a2 = (
        at(entry("a1", "alpha one"), "alpha/lessons.md"),
        at(entry("a2", "two"), "alpha/lessons.md"),
    )
    b1 = entry("b1", 'beta "one"')
    notes_file.write(tmp_path, notes_file.by_path([a1, a2, b1]))
    before = notes_file.read_lines(tmp_path) or []
    assert notes_file.replace(tmp_path, {"dev/lessons.md": [entry("b2", "beta two")]})
    after = notes_file.read_lines(tmp_path) or []
    assert after[:2] == before[:2]  # alpha's lines, byte for byte
    assert [e.id for e in notes_file.entries(after)] == ["a1", "a2", "b2"]
    assert notes_file.replace(tmp_path, {"alpha/lessons.md": []})
    assert [e.id for e in notes_file.entries(notes_file.read_lines(tmp_path) or [])] == ["b2"]
    (tmp_path / notes_file.NOTES_FILE).unlink()
    assert not notes_file.replace(tmp_path, {"dev/lessons.md": []})


def test_the_lines_holding_a_word_are_those_a_line_by_line_look_finds(tmp_path):
    # Lowercasing "İ" makes two characters of one: positions move, lines do not.
    bodies = ["İstanbul deploy", "login.py broke", "ıı LOGIN.PY again", 'a "quoted" word', "plain"]
    kept = [entry(f"l{n}", body) for n, body in enumerate(bodies)]
    notes_file.write(tmp_path, notes_file.by_path(kept))
    lines = notes_file.read_lines(tmp_path)
    assert lines is not None
    for words in (["login.py"], ["deploy", "plain"], ['"quoted"'], ["nothing"], ["i̇stanbul"]):
        expected = newest_first(notes_file.entries(lines, words))
        assert list(notes_file.saved(tmp_path, words) or []) == expected
    assert [e.id for e in notes_file.saved(tmp_path, ["login.py"]) or []] == ["l2", "l1"]
    assert list(notes_file.saved(tmp_path) or []) == newest_first(notes_file.entries(lines))


def newest_first(entries) -> list[Entry]:
    return sorted(entries, key=lambda e: (e.date, e.id), reverse=True)


def test_saved_notes_come_newest_first_whatever_file_they_are_in(tmp_path):
    dated = [
        at(entry("z1", "old one"), "alpha/lessons.md")._replace(
            date=datetime(2025, 1, 1, tzinfo=UTC)
        ),
        at(entry("a9", "new one"), "alpha/lessons.md")._replace(
            date=datetime(2026, 5, 1, tzinfo=UTC)
        ),
        entry("m5", "one in between")._replace(date=datetime(2025, 6, 1, tzinfo=UTC)),
        entry("m4", "one before 1970")._replace(date=datetime(1969, 6, 1, tzinfo=UTC)),
    ]
    notes_file.write(tmp_path, notes_file.by_path(dated))
    lines = notes_file.read_lines(tmp_path) or []
    assert [notes_file.newest_key(line) for line in lines] == [
        (int(e.date.timestamp()), e.id) for e in notes_file.entries(lines)
    ]
    assert [e.id for e in notes_file.saved(tmp_path, ["one"]) or []] == ["a9", "m5", "z1", "m4"]
    assert notes_file.newest_key('["broken') == (0, "")


def test_a_note_whose_body_holds_a_line_separator_stays_one_note(tmp_path):
    # json.dumps keeps U+2028 and U+0085 as they are; only a newline ends a line of the file.
    kept = [entry("l1", "deploy\u2028then\x85check"), entry("l2", "another")]
    notes_file.write(tmp_path, notes_file.by_path(kept))
    assert [e.body for e in notes_file.saved(tmp_path) or []] == [
        "another",
        "deploy\u2028then\x85check",
    ]
    assert [e.id for e in notes_file.saved(tmp_path, ["then"]) or []] == ["l1"]
    assert len(notes_file.read_lines(tmp_path) or []) == 2
