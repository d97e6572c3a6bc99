"""Parse category files and edit their entries as text, never re-rendering what a person wrote."""

import re
import string
from bisect import bisect_left
from datetime import UTC, datetime
from itertools import accumulate
from typing import Any, NamedTuple

from mem.model import KINDS_BY_CATEGORY, Entry, Problem
from mem.text import fence_mark
from mem.vault.layout import FileRef
from mem.vault.version import PARSER_VERSION  # noqa: F401 - the parser's version, beside it

HEADER = re.compile(r"<!--\s*id:(?P<id>[^\s>]*)(?P<rest>.*?)-->\s*")
HEADER_START = re.compile(r"\s*<!--\s*id:")
UNESCAPE = re.compile(r'\\([\\"])')
HEADER_PAIR = re.compile(
    r'(?P<key>[A-Za-z][\w-]*):(?:"(?P<quoted>(?:[^"\\]|\\.)*)"|(?P<plain>\S*))'
)
HEADING = re.compile(
    r"##\s+(?P<date>\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?)\s*(?:[·|—–-]\s*(?P<tags>.*?))?\s*"
)
VALID_ID = re.compile(r"[A-Za-z0-9_-]+")
# A tag needs a letter, and starts a word: `#123` is an issue, `# Heading` a heading, `a#b` neither.
TAG = re.compile(r"(?:^|(?<=[\s(\[,;]))#(?P<tag>[\w-]*[^\W\d_][\w-]*)")
CODE_SPAN = re.compile(r"`[^`\n]*`")
SEPARATOR = "---"
ID_ALPHABET = string.digits + string.ascii_lowercase
ID_RANDOM_CHARS = 6  # 36**6 ≈ 2**31 random values per second


class EntrySpan(NamedTuple):
    """Where one entry stands in its file's text: [start, end) character offsets."""

    entry: Entry
    start: int
    header_end: int  # offset just past the header comment line
    end: int  # offset just past the closing `---` line (or where the entry stops)


class ParsedFile(NamedTuple):
    """A category file's text and the entries found in it."""

    text: str
    spans: tuple[EntrySpan, ...]
    problems: tuple[Problem, ...]
    body_start: int  # offset just past the frontmatter
    strays: tuple[Problem, ...] = ()  # text between entries: valid markdown, found by no search

    @property
    def entries(self) -> list[Entry]:
        return [span.entry for span in self.spans]

    def span_of(self, entry_id: str) -> EntrySpan | None:
        for span in self.spans:
            if span.entry.id == entry_id:
                return span
        return None


def new_entry_id(now: datetime) -> str:
    """Make an id sortable by creation time and unique without coordination."""
    import secrets  # only writers make ids: keep its imports off the search path

    suffix = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_RANDOM_CHARS))
    return f"{now.astimezone(UTC):%Y%m%d-%H%M%S}-{suffix}"


def format_date(moment: datetime) -> str:
    """Write a date as UTC minutes with a Z."""
    return f"{moment.astimezone(UTC):%Y-%m-%dT%H:%MZ}"


def parse_date(text: str) -> datetime:
    """Read a heading date, with or without a zone (no zone means UTC)."""
    cleaned = text.strip().replace(" ", "T")
    if cleaned.endswith("Z"):
        cleaned = cleaned[:-1] + "+00:00"
    moment = datetime.fromisoformat(cleaned)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def parse_header(rest: str) -> tuple[tuple[str, str], ...]:
    """Read the `key:value` pairs after the id in a header comment."""
    pairs = []
    for match in HEADER_PAIR.finditer(rest):
        quoted = match.group("quoted")
        value = UNESCAPE.sub(r"\1", quoted) if quoted is not None else match.group("plain")
        pairs.append((match.group("key"), value))
    return tuple(pairs)


def render_pair(key: str, value: str) -> str:
    """Write one `key:value` of a header, quoting and defusing what needs it."""
    value = " ".join(value.splitlines())  # a header is one line
    while "-->" in value or "--!>" in value:  # either would end the comment early
        value = value.replace("-->", "- ->").replace("--!>", "- -!>")
    if value == "" or any(ch.isspace() or ch in '"\\' for ch in value):
        value = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{key}:{value}"


def render_header(entry_id: str, header: tuple[tuple[str, str], ...]) -> str:
    """Write a header comment line (without its newline)."""
    parts = [f"id:{entry_id}", *(render_pair(key, value) for key, value in header)]
    return f"<!-- {' '.join(parts)} -->"


def find_tags(heading_tags: str, body: str) -> tuple[str, ...]:
    """Collect `#tags` from the heading and the body, skipping code spans and fences."""
    found: list[str] = []
    if "#" not in heading_tags and "#" not in body:
        return ()  # most bodies: skip the line-by-line scan
    in_fence = False
    for line in [heading_tags, *body.splitlines()]:
        if fence_mark(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for match in TAG.finditer(CODE_SPAN.sub(" ", line)):
            tag = match.group("tag").lower()
            if tag not in found:
                found.append(tag)
    return tuple(found)


def parse_file(
    text: str, path: str, agent: str, category: str, scope: str = "agent", archived: bool = False
) -> ParsedFile:
    """Find every entry in a category file; bad entries become problems, good ones still load.

    The file is read a chunk at a time, a chunk being a header line and every line down to the
    next: what an entry is depends on its chunk alone (a header always starts the next entry),
    so a chunk seen before in this process is not parsed again. A writer that parses a file
    several times, and again after a person's save, pays for the chunks that changed."""
    return parse_cut(cut_file(text, Where(path, agent, category, scope, archived)))


def parse_cut(cut: "Cut") -> ParsedFile:
    """parse_file of a text already cut (see cut_file)."""
    path, text = cut.where.path, cut.text
    lines, heads = cut.lines, cut.heads
    spans: list[EntrySpan] = []
    problems: list[Problem] = []
    strays: list[Problem] = []
    first = heads[0] if heads else len(lines)
    loose_lines(lines, cut.body_from, first, path, problems, strays)
    at = 0  # the header in `heads` to read next
    seen: dict[str, Chunk] = {}
    while at < len(heads):
        merged = merge_leftover(lines, heads[at], cut.found[heads[at]], path)
        if merged is not None:
            problem, resume = merged
            problems.append(problem)
            at = bisect_left(heads, resume)  # a header line further down
            continue
        chunk = read_chunk(cut, at, seen)
        spans += chunk.spans
        problems += chunk.problems
        strays += chunk.strays
        at += 1
    remember(cut.where, seen)
    return ParsedFile(
        text, tuple(spans), tuple(problems), cut.offsets[cut.body_from], tuple(strays)
    )


class Where(NamedTuple):
    """The file a chunk was read from, as far as its entries and problems say it."""

    path: str
    agent: str
    category: str
    scope: str
    archived: bool


class Cut(NamedTuple):
    """A category file's text cut into lines, and where its header lines are."""

    text: str
    lines: list[str]
    offsets: list[int]  # of each line's start, and the text's end
    body_from: int  # the first line after the frontmatter
    found: dict[int, re.Match[str]]  # the header lines after it, by line index
    heads: list[int]  # their line indexes, in order
    where: Where

    def chunk_span(self, at: int) -> tuple[int, int]:
        """The offsets [start, end) of the chunk the `at`-th header starts."""
        stop = self.heads[at + 1] if at + 1 < len(self.heads) else len(self.lines)
        return self.offsets[self.heads[at]], self.offsets[stop]


def cut_file(text: str, where: Where) -> Cut:
    lines = text.splitlines(keepends=True)
    body_from = frontmatter_end(lines)
    found = {
        index: match
        for index in range(body_from, len(lines))
        if lines[index].startswith("<") and (match := HEADER.fullmatch(lines[index].rstrip("\r\n")))
    }
    offsets = list(accumulate(map(len, lines), initial=0))
    return Cut(text, lines, offsets, body_from, found, list(found), where)


def read_chunk(cut: Cut, at: int, seen: "dict[str, Chunk] | None" = None) -> "Chunk":
    """The chunk the `at`-th header starts, parsed, or as parsed before when its text was
    seen before in this process (wherever it stood in the file's last version read whole);
    `seen` gathers the chunks of a version read whole."""
    index = cut.heads[at]
    start, end = cut.chunk_span(at)
    key = cut.text[start:end]
    known = CHUNKS.get(cut.where)
    chunk = None if known is None else known.get(key)
    if chunk is None:
        stop = cut.heads[at + 1] if at + 1 < len(cut.heads) else len(cut.lines)
        chunk = parse_chunk(cut.lines, index, stop, start, cut.found[index], cut.where)
        if seen is None:
            remember(cut.where, {key: chunk}, keep=True)
    elif chunk.line != index or chunk.start != start:
        chunk = moved(chunk, index, start)
    if seen is not None:
        seen[key] = chunk
    return chunk


def remember(where: Where, chunks: "dict[str, Chunk]", keep: bool = False) -> None:
    """Remember the chunks of a file: those of the version just read whole in place of the
    last (`keep`: besides them). One version a file is what the next read can use; every
    version a writer made held ~40 MB in a compaction of 100,000 entries."""
    if sum(map(len, CHUNKS.values())) + len(chunks) > CHUNKS_HELD:
        CHUNKS.clear()  # a rebuild reads each chunk once: hold a file's worth, no more
    if keep and where in CHUNKS:
        CHUNKS[where].update(chunks)
    else:
        CHUNKS[where] = chunks


def plain_chunks(cut: Cut) -> bool:
    """Whether every header of the file starts an entry of its own: no merge left two header
    lines over one body, or one header above entries it belongs below (see merge_leftover)."""
    return all(
        merge_leftover(cut.lines, index, match, cut.where.path) is None
        for index, match in cut.found.items()
    )


class Chunk(NamedTuple):
    """What one chunk holds, read where it started: at line index `line`, offset `start`."""

    spans: tuple[EntrySpan, ...]
    problems: tuple[Problem, ...]
    strays: tuple[Problem, ...]
    line: int
    start: int


CHUNKS: dict[Where, dict[str, Chunk]] = {}  # by file, each chunk by its text
CHUNKS_HELD = 20_000  # chunks remembered, ~20 MB at most: the largest category file, and more
LINE_FIELD = Entry._fields.index("line")
new_tuple = tuple.__new__  # builds a NamedTuple from a tuple, without its slower keyword path


def moved(chunk: Chunk, line: int, start: int) -> Chunk:
    """A chunk read before, now at line index `line` and offset `start` of its file."""
    lines, offset = line - chunk.line, start - chunk.start
    spans = tuple(
        new_tuple(
            EntrySpan,
            (
                new_tuple(Entry, (*entry[:LINE_FIELD], entry.line + lines, entry.archived)),
                begin + offset,
                header_end + offset,
                end + offset,
            ),
        )
        for entry, begin, header_end, end in chunk.spans
    )
    problems = tuple(problem._replace(line=problem.line + lines) for problem in chunk.problems)
    strays = tuple(problem._replace(line=problem.line + lines) for problem in chunk.strays)
    return Chunk(spans, problems, strays, line, start)


def merge_leftover(
    lines: list[str], index: int, header: re.Match[str], path: str
) -> tuple[Problem, int] | None:
    """What a union merge left at the header on line `index`, if anything: (the problem, the
    header line to read on from)."""
    following = lines[index + 1] if index + 1 < len(lines) else ""
    if following.strip() and not following.startswith("<"):
        after = skip_blank(lines, index + 2)
        if after < len(lines) and not lines[after].startswith("<"):
            return None  # a heading, then a body: what nearly every entry is, told cheaply
    twin = next_header(lines, index + 1)
    if twin is not None and twin[1].group("id") == header.group("id"):
        # Both sides of a union merge reinforced this entry: git kept both header lines.
        # The entry loads from the last; `mem doctor --fix` merges them.
        message = f"entry {header.group('id')} has two header lines (a merge kept both)"
        return Problem("duplicate_header", path, index + 1, message), twin[0]
    split = split_from(lines, index, header)
    if split is not None:
        # One side of a union merge changed this header line, the other added entries just
        # above it: git kept the header (and heading) here, the entries it added, then the
        # header again over the body. The entry loads from the last; `mem doctor --fix`
        # merges the two lines there.
        message = (
            f"entry {header.group('id')} has a second header line at line {split[1] + 1}, "
            "over its body (a merge put entries between them)"
        )
        return Problem("duplicate_header", path, index + 1, message), split[0]
    if twin is not None and folded_over_one_body(lines, header, twin):
        # Both sides of a union merge added the same text in the same minute: git kept both
        # header lines over the one body they share. The entry loads from the last; `mem
        # doctor --fix` gives the first its copy of the body.
        message = (
            f"entries {header.group('id')} and {twin[1].group('id')} share one body "
            "(a merge folded two entries that said the same)"
        )
        return Problem("shared_body", path, index + 1, message), twin[0]
    return None


def parse_chunk(
    lines: list[str], start: int, last: int, offset: int, header: re.Match[str], where: Where
) -> Chunk:
    """Read one chunk, lines [start, last) at character `offset`: the entry its header
    starts, and what follows it down to the next header."""
    path = where.path
    spans: list[EntrySpan] = []
    problems: list[Problem] = []
    strays: list[Problem] = []
    # entry_end, knowing the chunk holds no other header: the entry stops at `---` or `last`
    stop, closed, in_fence = last, False, False
    for index in range(start + 1, last):
        line = lines[index]
        if fence_mark(line):
            in_fence = not in_fence
        elif not in_fence and line.rstrip() == SEPARATOR:
            stop, closed = index, True
            break
    open_fence = in_fence and not closed
    entry_id = header.group("id")
    heading_at = next((k for k in range(start + 1, stop) if lines[k].strip()), None)
    heading = HEADING.fullmatch(lines[heading_at].rstrip("\r\n")) if heading_at else None
    date = None
    if heading:
        try:
            date = parse_date(heading.group("date"))
        except (ValueError, OverflowError):
            date = None
    if not VALID_ID.fullmatch(entry_id):
        message = f"entry id {entry_id!r} is not [A-Za-z0-9_-]+"
        problems.append(Problem("malformed_entry", path, start + 1, message))
    elif heading is None or date is None or heading_at is None:
        message = "entry heading must read `## DATE · #tags`"
        problems.append(Problem("malformed_entry", path, (heading_at or start) + 1, message))
    else:
        if open_fence:
            message = f"entry {entry_id} opens a code fence (```) it never closes"
            problems.append(Problem("unclosed_fence", path, start + 1, message))
        if not closed:
            message = f"entry {entry_id} does not end with a `---` line"
            problems.append(Problem("missing_separator", path, start + 1, message))
        body = "".join(lines[heading_at + 1 : stop]).replace("\r\n", "\n").strip("\n").rstrip()
        pairs = parse_header(header.group("rest"))
        entry = Entry(
            id=entry_id,
            agent=where.agent,
            category=where.category,
            kind=dict(pairs).get("kind") or KINDS_BY_CATEGORY.get(where.category, ("fact",))[0],
            date=date,
            tags=find_tags(heading.group("tags") or "", body),
            body=body,
            header=pairs,
            scope=where.scope,
            path=path,
            line=start + 1,
            archived=where.archived,
        )
        header_end = offset + len(lines[start])
        end = offset + sum(map(len, lines[start : stop + 1 if closed else stop]))
        spans.append(EntrySpan(entry, offset, header_end, end))
    loose_lines(lines, stop + 1 if closed else stop, last, path, problems, strays)
    return Chunk(tuple(spans), tuple(problems), tuple(strays), start, offset)


def loose_lines(
    lines: list[str],
    index: int,
    stop: int,
    path: str,
    problems: list[Problem],
    strays: list[Problem],
) -> None:
    """Look at lines [index, stop) outside every entry: a broken header is a problem; a run
    of words is stray text (reported at its first line)."""
    stray = False  # inside a run of text that belongs to no entry
    for number in range(index, stop):
        line = lines[number].strip()
        if HEADER_START.match(lines[number]):
            message = "header comment does not close with -->"
            problems.append(Problem("malformed_entry", path, number + 1, message))
        elif is_stray(line) and not stray:
            # A note written between entries, or an entry whose header was mistyped or
            # deleted: no search finds it, so say where it is (mem never removes it).
            strays.append(
                Problem(
                    "stray_text",
                    path,
                    number + 1,
                    f"text that belongs to no entry, so no search finds it: {line[:60]!r}; "
                    "give it an entry header",
                )
            )
        stray = is_stray(line)


def is_stray(line: str) -> bool:
    """Whether a line outside every entry holds words: not blank, a rule, a heading (a file's
    own title) or a comment."""
    return bool(line) and line != "---" and not line.startswith(("#", "<!--"))


def next_header(lines: list[str], index: int) -> tuple[int, re.Match[str]] | None:
    """The header comment on the next line that is not blank, if that line is one."""
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index < len(lines) and lines[index].startswith("<"):
        header = HEADER.fullmatch(lines[index].rstrip("\r\n"))
        if header is not None:
            return index, header
    return None


def split_from(lines: list[str], index: int, header: re.Match[str]) -> tuple[int, int] | None:
    """When the header at `index` is all a union merge left above entries it put there of
    what follows the same id's header further down (its heading too, if that is the same):
    (the line of the next header, the line of that later header)."""
    stop, heading = skip_blank(lines, index + 1), None
    if stop < len(lines) and not lines[stop].startswith("<"):
        heading, stop = lines[stop].rstrip("\r\n"), skip_blank(lines, stop + 1)
    # Most entries: a heading, then their body. Cheap to tell, so the parser stays fast.
    if stop >= len(lines) or not lines[stop].startswith("<"):
        return None
    if (heading is not None and not HEADING.fullmatch(heading)) or next_header(lines, stop) is None:
        return None
    for later in range(stop, len(lines)):
        line = lines[later]
        found = HEADER.fullmatch(line.rstrip("\r\n")) if line.startswith("<") else None
        if found is not None and found.group("id") == header.group("id"):
            below = next_line(lines, later + 1)
            same = heading is None or (below is not None and below.rstrip("\r\n") == heading)
            return (stop, later) if same else None
    return None


def skip_blank(lines: list[str], index: int) -> int:
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def merged_headers(text: str) -> str:
    """Merge the header lines a union merge doubled into one per entry, where its body is:
    the higher `reinforced`, the later `seen`, every other key from the last line, then the
    first."""
    lines = text.splitlines(keepends=True)
    index = 0
    while index < len(lines):
        header = (
            HEADER.fullmatch(lines[index].rstrip("\r\n")) if lines[index].startswith("<") else None
        )
        split = split_from(lines, index, header) if header else None
        if header is None or split is None:
            index += 1
            continue
        stop, later = split
        second = HEADER.fullmatch(lines[later].rstrip("\r\n"))
        assert second is not None  # split_from found it there
        first, last = dict(parse_header(header.group("rest"))), dict(parse_header(second["rest"]))
        pairs = merged_pairs(first, last)
        ending = "\r\n" if lines[later].endswith("\r\n") else "\n"
        lines[later] = render_header(header.group("id"), tuple(pairs.items())) + ending
        del lines[index:stop]  # this header (its heading, blank lines): the one below has them
    return "".join(lines)


def merged_pairs(first: dict[str, str], last: dict[str, str]) -> dict[str, str]:
    """The keys of two header lines of one entry as one: the higher `reinforced`, the later
    `seen`, every other key from the last line, then the first."""
    pairs = {**first, **last}
    counts = [
        int(v) for v in (first.get("reinforced"), last.get("reinforced")) if v and v.isdigit()
    ]
    if counts:
        pairs["reinforced"] = str(max(counts))
    seen = [v for v in (first.get("seen"), last.get("seen")) if v]
    if seen:
        pairs["seen"] = max(seen)
    return pairs


def with_keys_of(earlier: str, block: str) -> str:
    """An entry's block with the header keys an earlier copy of it has that it lacks (a
    forget, a link), joined as `merged_pairs` joins them; the very same string when none."""
    line, _, rest = block.partition("\n")
    found = HEADER.fullmatch(line.rstrip("\r"))
    other = HEADER.fullmatch(earlier.partition("\n")[0].rstrip("\r"))
    if found is None or other is None:
        return block
    own = dict(parse_header(found["rest"]))
    pairs = merged_pairs(dict(parse_header(other["rest"])), own)
    if pairs == own:
        return block
    ending = "\r" if line.endswith("\r") else ""
    return render_header(found["id"], tuple(pairs.items())) + ending + "\n" + rest


def folded_over_one_body(
    lines: list[str], header: re.Match[str], twin: tuple[int, re.Match[str]]
) -> bool:
    """Whether a header line followed at once by another's is what a union merge leaves of
    two entries that said the same (both made in the minute of the heading they share, of one
    kind), not a header whose heading and body a person deleted (which stays malformed: the
    next entry's text is not its)."""
    index, second = twin
    heading = next_line(lines, index + 1)
    found = HEADING.fullmatch(heading.rstrip("\r\n")) if heading is not None else None
    if found is None:
        return False
    minute = re.sub(r"\D", "", found.group("date"))[:12]  # 2026-11-28T17:42Z: 202611281742
    ids = (header.group("id"), second.group("id"))
    kinds = {dict(parse_header(m.group("rest"))).get("kind") for m in (header, second)}
    return len(kinds) == 1 and all(re.sub(r"\D", "", i)[:12] == minute for i in ids)


def next_line(lines: list[str], index: int) -> str | None:
    """The next line from `index` that is neither blank nor a header (more entries folded
    over the same body)."""
    while index < len(lines) and (
        not lines[index].strip() or HEADER.fullmatch(lines[index].rstrip("\r\n"))
    ):
        index += 1
    return lines[index] if index < len(lines) else None


def unfolded_bodies(text: str) -> str:
    """Give each header line a union merge left without a body (another entry's header follows
    it) a copy of the next entry's heading and body: both entries are whole again."""
    lines = text.splitlines(keepends=True)
    index = len(lines) - 1
    while index >= 0:  # from the end: an entry's copy is made before the header above it
        header = (
            HEADER.fullmatch(lines[index].rstrip("\r\n")) if lines[index].startswith("<") else None
        )
        twin = next_header(lines, index + 1) if header else None
        if (
            header is not None
            and twin is not None
            and twin[1].group("id") != header.group("id")
            and folded_over_one_body(lines, header, twin)
        ):
            stop, closed, _ = entry_end(lines, twin[0] + 1)
            ending = "\r\n" if lines[index].endswith("\r\n") else "\n"
            if closed:  # its lines down to its `---`
                body = lines[twin[0] + 1 : stop + 1]
            else:
                body = [*lines[twin[0] + 1 : stop], ending, SEPARATOR + ending]
            lines[index + 1 : twin[0]] = [*body, ending]
        index -= 1
    return "".join(lines)


def frontmatter_end(lines: list[str]) -> int:
    """Return the index of the first line after a leading YAML frontmatter block (0: none).

    The block must close before the first entry header, or an entry's own `---` would be
    taken for the end of the frontmatter and the entry lost.
    """
    if not lines or lines[0].lstrip("\ufeff").rstrip() != "---":
        return 0
    for index in range(1, len(lines)):
        line = lines[index]
        if line.startswith("<") and HEADER.fullmatch(line.rstrip("\r\n")):
            return 0
        if line.rstrip() in ("---", "..."):
            return index + 1
    return 0


def entry_end(lines: list[str], index: int) -> tuple[int, bool, bool]:
    """Find where an entry stops: (line index, ended by `---`, a code fence was left open).

    A `---` inside a code fence does not end an entry, but a header line always starts the
    next one: `mem` escapes header-like lines in bodies, so an unclosed fence cannot swallow
    the entries after it.
    """
    in_fence = False
    while index < len(lines):
        line = lines[index]
        if line.startswith("<") and HEADER.fullmatch(line.rstrip("\r\n")):
            return index, False, in_fence
        if fence_mark(line):
            in_fence = not in_fence
        elif not in_fence and line.rstrip() == SEPARATOR:
            return index, True, False
        index += 1
    return index, False, in_fence


def read_frontmatter(text: str) -> dict[str, Any]:
    """Read a file's YAML frontmatter (python-frontmatter, read only); {} when absent or broken."""
    import frontmatter  # only doctor needs the YAML parser

    try:
        metadata = frontmatter.loads(text).metadata
    except Exception:  # noqa: BLE001 - python-frontmatter raises whatever its YAML parser raises
        return {}
    return dict(metadata) if isinstance(metadata, dict) else {}


def new_file_text(agent: str, category: str) -> str:
    """Return the text of a new, empty category file."""
    return f"---\nagent: {agent}\ncategory: {category}\n---\n\n"


def clean_body(body: str) -> str:
    """Keep a body from closing its entry early or faking a header."""
    lines = []
    fence: str | None = None  # a fence left open would swallow the closing `---` line
    for line in body.strip("\n").rstrip().splitlines():
        mark = fence_mark(line)
        if mark:
            fence = None if fence else mark
        if line.rstrip() == SEPARATOR:
            line = "* * *"  # the same horizontal rule in markdown, without ending the entry
        elif HEADER_START.match(line):
            line = line.replace("<!--", "&lt;!--", 1)
        lines.append(line)
    if fence:
        lines.append(fence)
    return "\n".join(lines)


def body_changes(body: str) -> list[str]:
    """What `clean_body` changes in the body, in words for the person who wrote it."""
    changes = []
    lines = body.strip("\n").rstrip().splitlines()
    if any(line.rstrip() == SEPARATOR for line in lines):
        changes.append("a `---` line is written `* * *` (the same rule; `---` ends an entry)")
    if any(HEADER_START.match(line) for line in lines):
        changes.append("a line starting `<!--` is written `&lt;!--` (it would start an entry)")
    if clean_body(body).count("\n") > len(lines) - 1:
        changes.append("a code fence left open is closed")
    return changes


def render_entry(
    entry_id: str,
    date: datetime,
    tags: tuple[str, ...],
    body: str,
    header: tuple[tuple[str, str], ...],
) -> str:
    """Write a new entry block, ending with its `---` line and a blank line."""
    heading = f"## {format_date(date)}"
    if tags:
        heading += " · " + " ".join(f"#{tag}" for tag in tags)
    return f"{render_header(entry_id, header)}\n{heading}\n\n{clean_body(body)}\n\n---\n\n"


def insert_entry(parsed: ParsedFile, block: str) -> str:
    """Put a new entry before the first one (newest first), touching nothing else."""
    text = parsed.text
    if parsed.spans:
        at = parsed.spans[0].start
        return text[:at] + block + text[at:]
    if text and not text.endswith("\n"):
        text += "\n"
    if text and not text.endswith("\n\n"):
        text += "\n"
    return text + block


def with_header(parsed: ParsedFile, entry_id: str, updates: dict[str, str | None]) -> str:
    """Return the file text with one entry's header keys set (None removes a key).

    Only the pairs that change are touched; any other text a person wrote in the header stays.
    """
    if parsed.span_of(entry_id) is None:
        raise KeyError(entry_id)
    return with_headers(parsed, {entry_id: updates})


def with_headers(parsed: ParsedFile, changes: dict[str, dict[str, str | None]]) -> str:
    """Set header keys of several entries in one pass (the first entry of each id)."""
    chosen: dict[str, EntrySpan] = {}
    for span in parsed.spans:
        if span.entry.id in changes and span.entry.id not in chosen:
            chosen[span.entry.id] = span
    text = parsed.text
    # The text between the changed header lines and those lines, joined once: a roll-up marks
    # thousands of entries, and a copy of the whole text for each cost seconds at 100,000.
    pieces: list[str] = []
    done = 0
    for span in sorted(chosen.values(), key=lambda item: item.start):
        old_line = text[span.start : span.header_end]
        line = edited_header_line(old_line, span.entry, changes[span.entry.id])
        if line != old_line:
            pieces += [text[done : span.start], line]
            done = span.header_end
    if not pieces:
        return text  # the very same string when nothing changed: callers skip the write
    return "".join([*pieces, text[done:]])


def edited_header_line(line: str, entry: Entry, updates: dict[str, str | None]) -> str:
    """Return a header line with some `key:value` pairs set, removed or appended."""
    header = HEADER.match(line)
    if header is None:  # a parsed span always starts with a header line
        raise KeyError(entry.id)
    rest_start = header.start("rest")
    found = {
        match.group("key"): (rest_start + match.start(), rest_start + match.end())
        for match in reversed(list(HEADER_PAIR.finditer(header.group("rest"))))
    }  # reversed: the first occurrence of a key wins, as in parse_header
    current = dict(entry.header)
    edits: list[tuple[int, int, str]] = []
    appended: list[str] = []
    for key, value in updates.items():
        if value is None:
            if key in found:
                start, end = found[key]
                while start > 0 and line[start - 1] in " \t":
                    start -= 1
                edits.append((start, end, ""))
        elif key not in found:
            appended.append(render_pair(key, value))
        elif current.get(key) != value:
            edits.append((*found[key], render_pair(key, value)))
    if appended:
        close = header.end("rest")
        while close > rest_start and line[close - 1] in " \t":
            close -= 1
        edits.append((close, close, "".join(" " + pair for pair in appended)))
    for start, end, replacement in sorted(edits, reverse=True):
        line = line[:start] + replacement + line[end:]
    return line


def with_entry_text(parsed: ParsedFile, entry_id: str, new_text: str) -> str:
    """Return the file text with one entry's whole block replaced by `new_text`."""
    span = parsed.span_of(entry_id)
    if span is None:
        raise KeyError(entry_id)
    return parsed.text[: span.start] + new_text + parsed.text[span.end :]


def without_entry(parsed: ParsedFile, span: EntrySpan) -> str:
    """Return the file text with one entry block and the blank lines after it removed."""
    end = span.end
    text = parsed.text
    while end < len(text) and text[end] in "\r\n":
        end += 1
    return text[: span.start] + text[end:]


def parse_ref(text: str, ref: FileRef) -> ParsedFile:
    """Parse a category file's text, taking agent, category and scope from where it lives."""
    return parse_cut(cut_ref(text, ref))


def cut_ref(text: str, ref: FileRef) -> Cut:
    """cut_file of a category file's text, taking where it lives from `ref`."""
    return cut_file(text, Where(ref.path, ref.agent, ref.category, ref.scope, ref.archived))
