"""The context of an entry: the entries written beside it in the same session.

One session's entries sit next to each other in a category file with the same date: the turns of
an imported conversation, the notes one `mem commit` kept. A note often leaves out what the one
before it said ("Chicago, last week" answers "Where did you run the marathon?"), so the index
holds each entry's neighbours' words beside its own. A search lifts an entry it found whose
neighbours also hold the task's rarer words; it never finds an entry by them alone, and they
never count toward whether an entry is relevant.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from mem.model import Entry

Indexed = tuple[Entry, str]  # an entry and a fingerprint of its text, to skip unchanged ones
InContext = tuple[Entry, str, str]  # and the text of its neighbours


def in_context(entries: Iterable[Indexed]) -> Iterator[InContext]:
    """Each entry with its neighbours' text, in the order given (top down or bottom up): an
    entry's neighbours are the entries just before and after it in the same file, written in
    the same minute. The fingerprint covers the neighbours' text too, so an entry whose
    neighbour changed is indexed again."""
    window: list[Indexed] = []
    for item in entries:
        window.append(item)
        if len(window) == 3:
            yield with_neighbours(window[1], (window[0], window[2]))
            window.pop(0)
        elif len(window) == 2:
            yield with_neighbours(window[0], (window[1],))
    if len(window) == 2:
        yield with_neighbours(window[1], (window[0],))
    elif len(window) == 1:
        yield with_neighbours(window[0], ())


def with_neighbours(item: Indexed, around: Sequence[Indexed]) -> InContext:
    entry, fingerprint = item
    text = "\n".join(
        other.body for other, _ in around if other.path == entry.path and other.date == entry.date
    )
    if not text:
        return entry, fingerprint, ""
    from mem.digests import md5  # only writing the index needs it

    digest = md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:12]
    return entry, f"{fingerprint}+{digest}", text
