"""Property tests: editing one entry as text never changes a byte of anything else in the file."""

from __future__ import annotations

import string
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from mem.vault import entries as codec

PATH = "dev/decisions.md"
PROPERTY_SETTINGS = settings(max_examples=100, deadline=None, database=None)

# Characters a person types, without the ones `str.splitlines` treats as line breaks.
TYPED = string.ascii_letters + string.digits + " \t#*`-_.,:;!?()[]{}<>/\\'\"|~=+&%$@^" + "éü·—中😀"


def is_plain(line: str) -> bool:
    """A line that neither ends an entry, nor starts one, nor opens a fence."""
    return (
        line.rstrip() != codec.SEPARATOR
        and not codec.HEADER_START.match(line)
        and not codec.fence_mark(line)
    )


plain_lines = st.text(alphabet=TYPED, max_size=30).filter(is_plain)
tag_words = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)
moments = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2099, 12, 31), timezones=st.just(UTC)
)


@st.composite
def fenced_blocks(draw: st.DrawFn) -> str:
    """A fenced code block, whose lines may look like a separator or a heading.

    (A header line always starts an entry, even inside a fence: mem escapes such lines.)
    """
    marker = draw(st.sampled_from(["```", "~~~"]))
    inner = draw(
        st.lists(
            st.one_of(
                plain_lines, st.sampled_from(["---", "  <!-- id:fake kind:x -->", "## 2026"])
            ),
            max_size=4,
        )
    )
    language = draw(st.sampled_from(["", "python", "sh"]))
    return "\n".join([marker + language, *inner, marker])


bodies = st.lists(st.one_of(plain_lines, fenced_blocks()), min_size=1, max_size=6).map("\n".join)
gap_texts = st.lists(
    st.one_of(plain_lines, st.sampled_from(["---", "# Notes", "", "<!-- a plain comment -->"])),
    max_size=4,
).map(lambda lines: "".join(line + "\n" for line in lines))
# Text handed to `mem add`: anything at all, or lines built to close, fake or fence an entry.
hostile_bodies = st.one_of(
    st.text(max_size=200),
    st.lists(
        st.one_of(
            plain_lines,
            st.text(max_size=10),
            st.sampled_from(
                ["---", "--- ", "<!-- id:fake -->", "  <!--id:x -->", "```", "~~~python", "## 2026"]
            ),
        ),
        max_size=8,
    ).map("\n".join),
)
header_values = st.text(alphabet=string.ascii_letters + string.digits + ":._", min_size=1)
# Header values a person could read back unchanged: one line, nothing that closes a comment.
ONE_LINE = string.ascii_letters + string.digits + string.punctuation + " \t"
header_keys = st.sampled_from(["kind", "reinforced", "seen", "source", "scope", "by", "pin"])


@dataclass(frozen=True)
class GeneratedFile:
    text: str
    ids: tuple[str, ...]
    bodies: tuple[str, ...]


@st.composite
def category_files(draw: st.DrawFn) -> GeneratedFile:
    """A category file with frontmatter, hand-written text, and entries between more text."""
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    parts = [
        draw(
            st.sampled_from(
                [
                    "---\nagent: dev\ncategory: decisions\n---\n",
                    "---\ncategory: decisions\nagent: dev  # hand-written\n---\n",
                    "# No frontmatter, so the text must not open with a `---` line\n",
                ]
            )
        ),
        draw(gap_texts),
    ]
    count = draw(st.integers(min_value=1, max_value=5))
    ids = [
        draw(st.one_of(st.from_regex(r"[0-9]{13}", fullmatch=True), tag_words)) + f"-{number}"
        for number in range(count)
    ]
    generated_bodies = []
    for position, entry_id in enumerate(ids):
        pairs = draw(st.dictionaries(header_keys, header_values, max_size=3))
        rest = "".join(f" {key}:{value}" for key, value in pairs.items())
        spacing = draw(st.sampled_from(["", " ", "  "]))
        moment = draw(moments)
        date = moment.strftime(
            draw(st.sampled_from(["%Y-%m-%dT%H:%MZ", "%Y-%m-%dT%H:%M", "%Y-%m-%d"]))
        )
        tags = draw(st.lists(tag_words, max_size=3))
        heading = f"## {date}" + (" · " + " ".join(f"#{tag}" for tag in tags) if tags else "")
        body = draw(bodies)
        generated_bodies.append(body.strip("\n").rstrip())
        last = position == count - 1
        parts.append(f"<!--{spacing}id:{entry_id}{rest} -->\n{heading}\n\n{body}\n\n---")
        if last and draw(st.booleans()):
            break  # the file ends right after the last `---`, without a newline
        parts.append("\n" + draw(gap_texts))
    text = "".join(parts).replace("\n", ending)
    return GeneratedFile(
        text, tuple(ids), tuple(body.replace("\n", ending) for body in generated_bodies)
    )


def parse(text: str) -> codec.ParsedFile:
    return codec.parse_file(text, PATH, "dev", "decisions")


def without_line(entry: codec.Entry) -> codec.Entry:
    return entry._replace(line=0)


def replaced_middle(old: str, new: str, start: int, end: int) -> str:
    """Assert `new` is `old` with only old[start:end] replaced, and return the replacement."""
    prefix, suffix = old[:start], old[end:]
    assert new.startswith(prefix)
    assert new.endswith(suffix)
    assert len(new) >= len(prefix) + len(suffix)
    return new[len(prefix) : len(new) - len(suffix)]


def expected_header(
    old: tuple[tuple[str, str], ...], updates: dict[str, str | None]
) -> tuple[tuple[str, str], ...]:
    pairs = dict(old)
    for key, value in updates.items():
        if value is None:
            pairs.pop(key, None)
        else:
            pairs[key] = value
    return tuple(pairs.items())


@PROPERTY_SETTINGS
@given(category_files())
def test_generated_files_parse_with_every_entry_and_no_problems(generated: GeneratedFile):
    parsed = parse(generated.text)

    assert parsed.problems == ()
    assert tuple(entry.id for entry in parsed.entries) == generated.ids
    assert tuple(entry.body for entry in parsed.entries) == tuple(
        body.replace("\r\n", "\n") for body in generated.bodies
    )


@PROPERTY_SETTINGS
@given(
    category_files(),
    hostile_bodies,
    st.lists(tag_words, max_size=3, unique=True),
    st.lists(st.tuples(st.from_regex(r"[a-z][a-z-]{0,6}", fullmatch=True), st.text(max_size=20))),
    moments,
)
def test_inserting_an_entry_changes_no_other_byte(
    generated: GeneratedFile,
    body: str,
    tags: list[str],
    header: list[tuple[str, str]],
    moment: datetime,
):
    parsed = parse(generated.text)
    new_id = codec.new_entry_id(moment)
    block = codec.render_entry(new_id, moment, tuple(tags), body, tuple(header))

    new_text = codec.insert_entry(parsed, block)

    at = parsed.spans[0].start
    assert replaced_middle(generated.text, new_text, at, at) == block
    reparsed = parse(new_text)
    assert reparsed.problems == ()
    assert [entry.id for entry in reparsed.entries] == [new_id, *generated.ids]
    assert list(map(without_line, reparsed.entries[1:])) == list(map(without_line, parsed.entries))
    assert reparsed.entries[0].tags[: len(tags)] == tuple(tags)
    assert codec.without_entry(reparsed, reparsed.spans[0]) == generated.text


@PROPERTY_SETTINGS
@given(
    category_files(),
    st.data(),
    st.dictionaries(
        st.one_of(header_keys, st.sampled_from(["superseded-by", "src-id", "note"])),
        st.one_of(
            st.none(),
            header_values,
            st.text(alphabet=ONE_LINE, max_size=15).filter(
                lambda value: "-->" not in value and "--!>" not in value
            ),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_setting_header_keys_changes_only_that_header_line(
    generated: GeneratedFile, data: st.DataObject, updates: dict[str, str | None]
):
    parsed = parse(generated.text)
    target = data.draw(st.sampled_from(generated.ids))
    span = parsed.span_of(target)
    assert span is not None

    new_text = codec.with_header(parsed, target, updates)

    header_line = replaced_middle(generated.text, new_text, span.start, span.header_end)
    old_line = generated.text[span.start : span.header_end]
    assert header_line.splitlines() == [header_line.rstrip("\r\n")]
    assert (
        header_line[len(header_line.rstrip("\r\n")) :] == old_line[len(old_line.rstrip("\r\n")) :]
    )
    reparsed = parse(new_text)
    assert reparsed.problems == ()
    assert tuple(entry.id for entry in reparsed.entries) == generated.ids
    for before, after in zip(parsed.entries, reparsed.entries, strict=True):
        if before.id == target:
            assert after.header == expected_header(before.header, updates)
            assert after._replace(header=(), kind="") == before._replace(header=(), kind="")
        else:
            assert after == before


@PROPERTY_SETTINGS
@given(category_files(), st.data(), hostile_bodies, moments)
def test_superseding_an_entry_changes_only_the_insert_point_and_its_header(
    generated: GeneratedFile, data: st.DataObject, body: str, moment: datetime
):
    parsed = parse(generated.text)
    older = data.draw(st.sampled_from(generated.ids))
    old_span = parsed.span_of(older)
    assert old_span is not None
    new_id = codec.new_entry_id(moment)
    block = codec.render_entry(
        new_id, moment, (), body, (("kind", "decision"), ("supersedes", older))
    )

    inserted = codec.insert_entry(parsed, block)
    superseded = codec.with_header(parse(inserted), older, {"superseded-by": new_id})

    at = parsed.spans[0].start
    untouched_before = generated.text[:at] + block + generated.text[at : old_span.start]
    shift = len(block)
    header_line = replaced_middle(
        inserted, superseded, old_span.start + shift, old_span.header_end + shift
    )
    assert superseded.startswith(untouched_before)
    assert superseded.endswith(generated.text[old_span.header_end :])
    assert header_line.rstrip("\r\n").endswith(f"superseded-by:{new_id} -->")
    reparsed = parse(superseded)
    assert reparsed.problems == ()
    assert [entry.id for entry in reparsed.entries] == [new_id, *generated.ids]
    assert reparsed.entries[0].get("supersedes") == older
    for before, after in zip(parsed.entries, reparsed.entries[1:], strict=True):
        if before.id == older:
            assert after.get("superseded-by") == new_id
            assert after.body == before.body
        else:
            assert without_line(after) == without_line(before)


@PROPERTY_SETTINGS
@given(moments, st.integers(min_value=1, max_value=10**8))
def test_new_ids_are_filesystem_safe_and_sort_by_creation_second(moment: datetime, later: int):
    first = codec.new_entry_id(moment)
    second = codec.new_entry_id(moment + timedelta(seconds=later))

    assert codec.VALID_ID.fullmatch(first) and codec.VALID_ID.fullmatch(second)
    assert first < second


LINES = [
    "<!-- id:a1 kind:fact -->",
    "<!-- id:a1 -->",
    "<!-- id:b2 reinforced:2 -->",
    "<!-- id:20260101-1000-aaaaaa -->",
    "<!-- id:20260101-1000-bbbbbb -->",
    "<!-- id:bad",
    "## 2026-01-01T10:00Z · #x",
    "## 2026-01-01T10:00Z",
    "## not a date",
    "body with #tag",
    "",
    "---",
    "```",
    "stray words",
    "# title",
]


@PROPERTY_SETTINGS
@given(
    st.lists(st.sampled_from(LINES), max_size=30),
    st.lists(st.sampled_from(LINES), max_size=8),
    st.sampled_from(["\n", "\r\n"]),
)
def test_a_chunk_parsed_before_reads_as_a_fresh_parse_would_wherever_it_moved(
    body: list[str], above: list[str], ending: str
) -> None:
    # A writer parses a file, a person adds lines above: the chunks it read before now stand
    # at other lines and offsets, and must come out exactly as a parse from nothing would.
    first = "".join(line + ending for line in body)
    second = "".join(line + ending for line in above) + first
    codec.CHUNKS.clear()
    fresh = [codec.parse_file(text, PATH, "dev", "decisions") for text in (first, second)]
    codec.CHUNKS.clear()
    codec.parse_file(first, PATH, "dev", "decisions")
    assert codec.parse_file(first, PATH, "dev", "decisions") == fresh[0]
    assert codec.parse_file(second, PATH, "dev", "decisions") == fresh[1]
    other = codec.parse_file(second, "qa/lessons.md", "qa", "lessons")  # the same text elsewhere
    assert all(span.entry.path == "qa/lessons.md" for span in other.spans)
    assert all(span.entry.kind != "decision" for span in other.spans)


MOMENT = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def test_the_parser_remembers_the_last_version_of_a_file_it_read_whole() -> None:
    # A writer makes version after version of a file (a roll-up marks thousands of entries):
    # what the next read can use is the last version's chunks, not every version's.
    blocks = [
        codec.render_entry(f"e{n}", MOMENT, (), f"Decision {n}.", (("kind", "decision"),))
        for n in range(6)
    ]
    first = codec.new_file_text("dev", "decisions") + "".join(blocks)
    second = first.replace("Decision 1.", "Decision 1, changed.")
    codec.CHUNKS.clear()
    codec.parse_file(first, PATH, "dev", "decisions")
    codec.parse_file(second, PATH, "dev", "decisions")
    [(where, known)] = codec.CHUNKS.items()
    assert where.path == PATH and len(known) == 6
    assert not any("Decision 1." in text for text in known)
    codec.parse_file(first, "qa/decisions.md", "qa", "decisions")
    assert len(codec.CHUNKS) == 2  # each file its own
