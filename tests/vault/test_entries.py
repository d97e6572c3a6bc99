"""The entry codec: category files in, entries and problems out; edits touch only their span."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta, timezone

from mem.vault import entries as codec

PATH = "dev/decisions.md"

DESIGN_EXAMPLE = """\
---
agent: dev
category: decisions
---

<!-- id:20261122-230415-k3f9q2 kind:decision reinforced:2 -->
## 2026-11-22T23:04Z · #auth #database

Chose bcrypt over argon2: argon2-cffi does not build on Alpine. #security

---

<!-- id:1773679871839 -->
## 2026-03-16T16:51 · #react #typescript

An entry written by the older format: numeric id, no time zone. Still valid.

---
"""


def parse(text: str, category: str = "decisions") -> codec.ParsedFile:
    return codec.parse_file(text, PATH, "dev", category)


def entry_text(entry_id: str, heading: str, body: str) -> str:
    return f"<!-- id:{entry_id} -->\n{heading}\n\n{body}\n\n---\n\n"


def one_entry_file(body: str, heading: str = "## 2026-01-02T03:04Z") -> str:
    return codec.new_file_text("dev", "decisions") + entry_text("e1", heading, body)


# --- the DESIGN §1 example ------------------------------------------------------------------


def test_design_example_loads_new_and_old_entries_without_problems():
    parsed = parse(DESIGN_EXAMPLE)

    assert parsed.problems == ()
    assert [entry.id for entry in parsed.entries] == ["20261122-230415-k3f9q2", "1773679871839"]


def test_new_format_entry_keeps_its_header_keys_kind_and_tags():
    new = parse(DESIGN_EXAMPLE).entries[0]

    assert new.kind == "decision"
    assert new.header == (("kind", "decision"), ("reinforced", "2"))
    assert new.reinforced == 2
    assert new.date == datetime(2026, 11, 22, 23, 4, tzinfo=UTC)
    assert new.tags == ("auth", "database", "security")
    assert new.body == "Chose bcrypt over argon2: argon2-cffi does not build on Alpine. #security"
    assert (new.agent, new.category, new.path, new.line) == ("dev", "decisions", PATH, 6)


def test_old_numeric_id_with_zoneless_date_reads_as_utc_and_default_kind():
    old = parse(DESIGN_EXAMPLE).entries[1]

    assert old.id == "1773679871839"
    assert old.date == datetime(2026, 3, 16, 16, 51, tzinfo=UTC)
    assert old.date.utcoffset() == timedelta(0)
    assert old.kind == "decision"  # no kind key: the category's first kind
    assert old.header == ()
    assert old.tags == ("react", "typescript")
    assert old.line == 13


def test_dates_with_an_offset_are_converted_to_utc():
    parsed = parse(one_entry_file("Body.", heading="## 2026-01-02T03:04+02:00 · #x"))

    assert parsed.entries[0].date == datetime(2026, 1, 2, 1, 4, tzinfo=UTC)


def test_date_only_heading_reads_as_utc_midnight():
    parsed = parse(one_entry_file("Body.", heading="## 2026-01-02"))

    assert parsed.entries[0].date == datetime(2026, 1, 2, tzinfo=UTC)


def test_dates_are_written_as_utc_minutes_with_z():
    moment = datetime(2026, 1, 2, 5, 4, 59, tzinfo=timezone(timedelta(hours=2)))

    assert codec.format_date(moment) == "2026-01-02T03:04Z"


# --- tags -----------------------------------------------------------------------------------


def tags_of(body: str) -> tuple[str, ...]:
    parsed = parse(one_entry_file(body, heading="## 2026-01-02T03:04Z · #Heading-Tag"))
    assert parsed.problems == ()
    return parsed.entries[0].tags


def test_tags_come_from_heading_and_body_lowercased_without_duplicates():
    assert tags_of("Uses #Redis and (#cache), also #redis again.") == (
        "heading-tag",
        "redis",
        "cache",
    )


def test_issue_numbers_are_not_tags():
    assert tags_of("Fixes #123 and #4567.") == ("heading-tag",)


def test_markdown_headings_in_the_body_are_not_tags():
    assert tags_of("# Heading\n\n## Sub heading\n\ntext") == ("heading-tag",)


def test_hash_inside_a_word_is_not_a_tag():
    assert tags_of("See page.html#anchor and C#sharp.") == ("heading-tag",)


def test_tags_inside_code_spans_are_ignored():
    assert tags_of("Run `grep #notatag` then #real.") == ("heading-tag", "real")


def test_tags_inside_fenced_code_are_ignored():
    body = "Before #before.\n\n```python\nx = 1  #fenced\n```\n\n~~~\n#tilde\n~~~\n\nAfter #after."

    assert tags_of(body) == ("heading-tag", "before", "after")


def test_tag_with_digits_and_a_letter_is_a_tag():
    assert tags_of("Python #py311 and #2fa.") == ("heading-tag", "py311", "2fa")


# --- malformed files ------------------------------------------------------------------------


def test_bad_heading_is_reported_with_file_and_line_and_neighbours_still_load():
    text = (
        codec.new_file_text("dev", "decisions")
        + entry_text("good1", "## 2026-01-03T00:00Z", "First good entry.")
        + entry_text("broken", "## yesterday afternoon", "Bad heading.")
        + entry_text("good2", "## 2026-01-01T00:00Z", "Second good entry.")
    )

    parsed = parse(text)

    assert [entry.id for entry in parsed.entries] == ["good1", "good2"]
    assert len(parsed.problems) == 1
    problem = parsed.problems[0]
    assert problem.code == "malformed_entry"
    assert problem.path == PATH
    assert text.splitlines()[problem.line - 1] == "## yesterday afternoon"


def test_impossible_date_is_reported_as_malformed():
    text = one_entry_file("Body.", heading="## 2026-13-45T99:99Z")

    parsed = parse(text)

    assert parsed.entries == []
    assert [p.code for p in parsed.problems] == ["malformed_entry"]
    assert text.splitlines()[parsed.problems[0].line - 1].startswith("## 2026-13-45")


def test_header_comment_that_does_not_close_is_reported_on_its_line():
    text = (
        codec.new_file_text("dev", "decisions")
        + "<!-- id:broken kind:decision\n## 2026-01-02T00:00Z\n\nNo close.\n\n---\n\n"
        + entry_text("good", "## 2026-01-01T00:00Z", "Still here.")
    )

    parsed = parse(text)

    assert [entry.id for entry in parsed.entries] == ["good"]
    assert [(p.code, p.line) for p in parsed.problems] == [("malformed_entry", 6)]


def test_invalid_id_is_reported():
    text = codec.new_file_text("dev", "decisions") + entry_text(
        "bad.id!", "## 2026-01-01T00:00Z", "Body."
    )

    parsed = parse(text)

    assert parsed.entries == []
    assert parsed.problems[0].code == "malformed_entry"
    assert "bad.id!" in parsed.problems[0].message
    assert parsed.problems[0].line == 6


def test_missing_separator_between_entries_is_reported_and_both_entries_load():
    text = (
        codec.new_file_text("dev", "decisions")
        + "<!-- id:first -->\n## 2026-01-02T00:00Z\n\nNo closing line.\n\n"
        + entry_text("second", "## 2026-01-01T00:00Z", "Closed.")
    )

    parsed = parse(text)

    assert [entry.id for entry in parsed.entries] == ["first", "second"]
    assert parsed.entries[0].body == "No closing line."
    assert [(p.code, p.path, p.line) for p in parsed.problems] == [("missing_separator", PATH, 6)]


def test_missing_separator_at_end_of_file_is_reported_and_the_entry_loads():
    text = codec.new_file_text("dev", "decisions") + "<!-- id:last -->\n## 2026-01-01\n\nEnd."

    parsed = parse(text)

    assert [entry.body for entry in parsed.entries] == ["End."]
    assert [p.code for p in parsed.problems] == ["missing_separator"]


def test_separator_inside_a_fence_does_not_end_the_entry():
    body = "Example:\n\n```\n---\n## 2026-01-01\n```\n\nDone."
    text = one_entry_file(body) + entry_text("e2", "## 2026-01-01T00:00Z", "Next.")

    parsed = parse(text)

    assert parsed.problems == ()
    assert [entry.id for entry in parsed.entries] == ["e1", "e2"]
    assert parsed.entries[0].body == body


def test_file_without_frontmatter_still_loads_its_entries():
    text = entry_text("e1", "## 2026-01-01T00:00Z", "No frontmatter here.")

    parsed = parse(text)

    assert parsed.body_start == 0
    assert [entry.id for entry in parsed.entries] == ["e1"]


def test_crlf_file_loads_the_same_entries_as_lf():
    crlf = DESIGN_EXAMPLE.replace("\n", "\r\n")

    lf_entries = parse(DESIGN_EXAMPLE).entries
    crlf_entries = parse(crlf).entries

    assert parse(crlf).problems == ()
    assert crlf_entries == lf_entries
    assert "\r" not in crlf_entries[0].body


def test_crlf_file_keeps_crlf_endings_when_its_header_changes():
    crlf = DESIGN_EXAMPLE.replace("\n", "\r\n")
    parsed = parse(crlf)

    changed = codec.with_header(parsed, "1773679871839", {"reinforced": "1"})

    assert "<!-- id:1773679871839 reinforced:1 -->\r\n" in changed
    assert "\n" not in changed.replace("\r\n", "")
    assert parse(changed).entries[1].reinforced == 1


# --- edits touch only their span -------------------------------------------------------------

HAND_WRITTEN = """\
---
agent: dev
category: decisions
---

# Decisions

Some notes a person wrote   with odd   spacing.

<!-- id:a1 kind:decision -->
## 2026-01-03T00:00Z · #one

First.

---

A remark between entries, by hand.
---
More remarks, including a rule above.

<!-- id:a2 -->
## 2026-01-02T00:00Z

Second.

---

Trailing notes.
"""


def test_text_between_entries_is_not_part_of_any_entry():
    parsed = parse(HAND_WRITTEN)

    assert parsed.problems == ()
    assert [entry.body for entry in parsed.entries] == ["First.", "Second."]


def test_inserting_an_entry_keeps_hand_written_text_byte_for_byte():
    parsed = parse(HAND_WRITTEN)
    block = codec.render_entry("new1", datetime(2026, 2, 1, tzinfo=UTC), ("x",), "Newest.", ())

    new_text = codec.insert_entry(parsed, block)

    at = parsed.spans[0].start
    assert new_text == HAND_WRITTEN[:at] + block + HAND_WRITTEN[at:]
    assert [entry.id for entry in parse(new_text).entries] == ["new1", "a1", "a2"]


def test_inserting_into_a_file_without_entries_appends_after_a_blank_line():
    text = "---\nagent: dev\ncategory: decisions\n---\nNotes without a newline"
    block = codec.render_entry("n1", datetime(2026, 2, 1, tzinfo=UTC), (), "Body.", ())

    new_text = codec.insert_entry(parse(text), block)

    assert new_text == text + "\n\n" + block
    assert [entry.id for entry in parse(new_text).entries] == ["n1"]


def test_with_header_changes_only_the_header_line():
    parsed = parse(HAND_WRITTEN)
    span = parsed.span_of("a2")
    assert span is not None

    new_text = codec.with_header(parsed, "a2", {"superseded-by": "new1", "reinforced": "3"})

    new_line = "<!-- id:a2 superseded-by:new1 reinforced:3 -->\n"
    assert new_text == HAND_WRITTEN[: span.start] + new_line + HAND_WRITTEN[span.header_end :]
    reparsed = parse(new_text).span_of("a2")
    assert reparsed is not None
    assert reparsed.entry.header == (("superseded-by", "new1"), ("reinforced", "3"))


def test_with_header_replaces_and_removes_keys_in_place():
    parsed = parse(HAND_WRITTEN)

    new_text = codec.with_header(parsed, "a1", {"kind": "interface", "pin": "true"})
    new_text = codec.with_header(parse(new_text), "a1", {"kind": None})

    assert "<!-- id:a1 pin:true -->\n" in new_text
    assert parse(new_text).entries[0].header == (("pin", "true"),)


def test_with_header_that_changes_nothing_returns_the_same_text():
    parsed = parse(HAND_WRITTEN)

    assert codec.with_header(parsed, "a1", {"kind": "decision", "absent": None}) is parsed.text


def test_header_values_with_spaces_quotes_and_backslashes_round_trip():
    values = {"note": 'say "hi" now', "win": "C:\\path with space\\", "ends": 'a \\"b'}
    parsed = parse(HAND_WRITTEN)

    new_text = codec.with_header(parsed, "a2", values)

    header = dict(parse(new_text).entries[1].header)
    assert {key: header[key] for key in values} == values


def test_header_values_cannot_break_the_comment_or_the_line():
    parsed = parse(HAND_WRITTEN)

    new_text = codec.with_header(parsed, "a2", {"src": "two\nlines --> --->", "other": "x"})

    reparsed = parse(new_text)
    assert reparsed.problems == ()
    assert [entry.id for entry in reparsed.entries] == ["a1", "a2"]
    header_line = new_text.splitlines()[parsed.spans[1].entry.line - 1]
    assert header_line.count("-->") == 1 and header_line.endswith("-->")
    assert dict(reparsed.entries[1].header)["other"] == "x"


def test_ids_with_double_dashes_survive_as_header_values():
    text = codec.new_file_text("dev", "decisions") + entry_text(
        "imported--7", "## 2026-01-01T00:00Z", "Imported."
    )
    block = codec.render_entry(
        "n1", datetime(2026, 2, 1, tzinfo=UTC), (), "Newer.", (("supersedes", "imported--7"),)
    )

    parsed = parse(codec.insert_entry(parse(text), block))

    assert [entry.id for entry in parsed.entries] == ["n1", "imported--7"]
    assert parsed.entries[0].get("supersedes") == "imported--7"


def test_rendered_body_cannot_close_its_entry_or_fake_a_header():
    body = "Look:\n---\n<!-- id:fake -->\n## 2026-01-01\nend"
    block = codec.render_entry("n1", datetime(2026, 2, 1, tzinfo=UTC), (), body, ())

    parsed = parse(codec.insert_entry(parse(HAND_WRITTEN), block))

    assert parsed.problems == ()
    assert [entry.id for entry in parsed.entries] == ["n1", "a1", "a2"]


def test_rendered_body_with_an_unclosed_fence_does_not_swallow_older_entries():
    block = codec.render_entry(
        "n1", datetime(2026, 2, 1, tzinfo=UTC), (), "Output was:\n```python\nx = 1", ()
    )

    parsed = parse(codec.insert_entry(parse(HAND_WRITTEN), block))

    assert parsed.problems == ()
    assert [entry.id for entry in parsed.entries] == ["n1", "a1", "a2"]
    assert parsed.entries[0].body.startswith("Output was:\n```python\nx = 1")


def test_without_entry_removes_only_that_block():
    parsed = parse(HAND_WRITTEN)
    span = parsed.span_of("a1")
    assert span is not None

    new_text = codec.without_entry(parsed, span)

    assert new_text == HAND_WRITTEN.replace(HAND_WRITTEN[span.start : span.end] + "\n", "")
    assert [entry.id for entry in parse(new_text).entries] == ["a2"]


# --- ids ------------------------------------------------------------------------------------

ID_SHAPE = re.compile(r"(?P<stamp>\d{8}-\d{6})-(?P<random>[0-9a-z]{6})")


def test_new_entry_id_is_utc_timestamp_and_six_base36_characters():
    moment = datetime(2026, 11, 23, 1, 4, 15, tzinfo=timezone(timedelta(hours=2)))

    entry_id = codec.new_entry_id(moment)

    match = ID_SHAPE.fullmatch(entry_id)
    assert match is not None, entry_id
    assert match.group("stamp") == "20261122-230415"
    assert codec.VALID_ID.fullmatch(entry_id)


def test_new_entry_ids_sort_by_creation_time():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    moments = [start + timedelta(seconds=s) for s in (0, 1, 59, 3600, 86400 * 40, 86400 * 400)]

    ids = [codec.new_entry_id(moment) for moment in moments]

    assert sorted(ids) == ids


def test_new_entry_ids_carry_at_least_30_random_bits():
    moment = datetime(2026, 1, 1, tzinfo=UTC)

    ids = {codec.new_entry_id(moment) for _ in range(500)}

    assert math.log2(len(codec.ID_ALPHABET) ** codec.ID_RANDOM_CHARS) >= 30
    assert len(ids) == 500  # same second, no collisions
    used = {char for entry_id in ids for char in entry_id.rsplit("-", 1)[1]}
    assert len(used) == 36  # every base36 character shows up: the suffix is not a counter


def test_an_unclosed_fence_does_not_swallow_the_entries_after_it():
    # A header line always starts the next entry, so a fence left open hides nothing.
    text = one_entry_file("Broken:\n\n```python\nprint(1)\n---\n") + entry_text(
        "e2", "## 2026-01-01T00:00Z", "Next."
    )

    parsed = parse(text)

    assert [entry.id for entry in parsed.entries] == ["e1", "e2"]
    assert "unclosed_fence" in [p.code for p in parsed.problems]


def test_entries_folded_over_one_body_each_get_their_own_copy():
    heading = "## 2026-03-04T10:30Z\n\nDeploys go out on Tuesdays\n"
    text = (
        "---\nagent: dev\ncategory: facts\n---\n\n"
        "<!-- id:20260304-103000-aaaaaa kind:fact -->\n"
        "<!-- id:20260304-103001-bbbbbb kind:fact -->\n\n"
        f"<!-- id:20260304-103002-cccccc kind:fact -->\n{heading}"  # the last, unclosed
    )
    parsed = codec.parse_file(text, "dev/facts.md", "dev", "facts")
    assert [p.code for p in parsed.problems] == ["shared_body", "shared_body", "missing_separator"]
    fixed = codec.unfolded_bodies(text)
    again = codec.parse_file(fixed, "dev/facts.md", "dev", "facts")
    assert [span.entry.body for span in again.spans] == ["Deploys go out on Tuesdays"] * 3
    assert [span.entry.id[-6:] for span in again.spans] == ["aaaaaa", "bbbbbb", "cccccc"]
    assert [p.code for p in again.problems] == ["missing_separator"]  # only the last's, as before
    crlf = codec.unfolded_bodies(text.replace("\n", "\r\n"))
    assert crlf == fixed.replace("\n", "\r\n")


def test_a_header_whose_heading_and_body_a_person_deleted_stays_malformed():
    """Not two entries folded over one body: the next entry's text is not the first one's."""
    text = (
        "---\nagent: dev\ncategory: facts\n---\n\n"
        "<!-- id:20260310-090000-aaaaaa kind:fact pin:true -->\n\n"
        "<!-- id:20260304-103000-bbbbbb kind:fact -->\n## 2026-03-04T10:30Z\n\nOld note\n\n---\n"
    )
    parsed = codec.parse_file(text, "dev/facts.md", "dev", "facts")
    assert "shared_body" not in [p.code for p in parsed.problems]
    assert codec.unfolded_bodies(text) == text
