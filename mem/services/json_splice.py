"""Edit a JSON file's text into a new value, touching only the bytes of what changed.

`mem install` adds its hooks to settings files people format by hand. Serialising the whole
value again would re-indent their arrays and reorder their spacing; instead the old text is
parsed with the place of every value, and only the members and items whose value differs are
replaced, inserted or cut out, each new piece written in the indentation around it.
"""

from __future__ import annotations

import difflib
import json
import re
from typing import Any, NamedTuple

WHITESPACE = " \t\r\n"
NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")


class Node(NamedTuple):
    start: int
    end: int  # one past the value's last character
    value: Any
    members: tuple[Member, ...] = ()  # an object's, in file order
    items: tuple[Node, ...] = ()  # an array's


class Member(NamedTuple):
    key: str
    start: int  # where the key's opening quote is
    node: Node


class Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in WHITESPACE:
            self.at += 1

    def value(self) -> Node:
        self.skip()
        if self.at >= len(self.text):
            raise ValueError("unexpected end of the file")
        char = self.text[self.at]
        if char == "{":
            return self.object()
        if char == "[":
            return self.array()
        if char == '"':
            start = self.at
            return Node(start, self.string_end(), json.loads(self.text[start : self.at]))
        for word, meaning in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.at):
                self.at += len(word)
                return Node(self.at - len(word), self.at, meaning)
        found = NUMBER.match(self.text, self.at)
        if found is None:
            raise ValueError(f"unexpected {char!r} at character {self.at}")
        self.at = found.end()
        return Node(found.start(), found.end(), json.loads(found.group()))

    def string_end(self) -> int:
        self.at += 1
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "\\":
                self.at += 2
                continue
            self.at += 1
            if char == '"':
                return self.at
        raise ValueError("unterminated string")

    def object(self) -> Node:
        start = self.at
        self.at += 1
        members: list[Member] = []
        self.skip()
        if self.text.startswith("}", self.at):
            self.at += 1
            return Node(start, self.at, {})
        while True:
            self.skip()
            key_start = self.at
            if not self.text.startswith('"', self.at):
                raise ValueError(f"expected a key at character {self.at}")
            key = json.loads(self.text[key_start : self.string_end()])
            self.skip()
            self.expect(":")
            members.append(Member(key, key_start, self.value()))
            self.skip()
            if self.text.startswith("}", self.at):
                self.at += 1
                value = {member.key: member.node.value for member in members}
                return Node(start, self.at, value, members=tuple(members))
            self.expect(",")

    def array(self) -> Node:
        start = self.at
        self.at += 1
        items: list[Node] = []
        self.skip()
        if self.text.startswith("]", self.at):
            self.at += 1
            return Node(start, self.at, [])
        while True:
            items.append(self.value())
            self.skip()
            if self.text.startswith("]", self.at):
                self.at += 1
                return Node(start, self.at, [n.value for n in items], items=tuple(items))
            self.expect(",")

    def expect(self, char: str) -> None:
        if not self.text.startswith(char, self.at):
            raise ValueError(f"expected {char!r} at character {self.at}")
        self.at += 1


def parse(text: str) -> Node:
    parser = Parser(text)
    node = parser.value()
    parser.skip()
    if parser.at != len(text):
        raise ValueError(f"extra text at character {parser.at}")
    return node


def splice(text: str, new: Any) -> str:
    """`text` (a JSON document) changed into `new`: what did not change keeps its bytes."""
    root = parse(text)
    unit = indent_unit(text)
    edits: list[tuple[int, int, str]] = []
    change(text, root, new, unit, edits)
    for start, end, piece in sorted(edits, reverse=True):
        text = text[:start] + piece + text[end:]
    return text


def change(text: str, node: Node, new: Any, unit: str, edits: list[tuple[int, int, str]]) -> None:
    if same(node.value, new):
        return
    if isinstance(node.value, dict) and isinstance(new, dict) and node.members:
        change_object(text, node, new, unit, edits)
    elif isinstance(node.value, list) and isinstance(new, list) and node.items:
        change_array(text, node, new, unit, edits)
    else:
        edits.append((node.start, node.end, render(new, line_indent(text, node.start), unit)))


def change_object(
    text: str, node: Node, new: dict[str, Any], unit: str, edits: list[tuple[int, int, str]]
) -> None:
    members = node.members
    gone = {n for n, member in enumerate(members) if member.key not in new}
    if len(gone) == len(members):  # nothing of it stays: the object is new
        edits.append((node.start, node.end, render(new, line_indent(text, node.start), unit)))
        return
    for member in members:
        if member.key in new:
            change(text, member.node, new[member.key], unit, edits)
    edits += cuts(members, gone, node)
    added = [key for key in new if key not in node.value]
    if added:
        indent = line_indent(text, members[0].start)
        pieces = "".join(
            f",\n{indent}{json.dumps(key, ensure_ascii=False)}: {render(new[key], indent, unit)}"
            for key in added
        )
        last = members[-1].node.end
        edits.append((last, last, pieces))


def change_array(
    text: str, node: Node, new: list[Any], unit: str, edits: list[tuple[int, int, str]]
) -> None:
    items = node.items
    indent = line_indent(text, items[0].start)
    inline = "\n" not in text[node.start : items[0].start]  # `[1, 2]` stays on its line
    gap = ", " if inline else f",\n{indent}"
    old_keys = [key_of(item.value) for item in items]
    new_keys = [key_of(value) for value in new]
    matcher = difflib.SequenceMatcher(a=old_keys, b=new_keys, autojunk=False)
    gone: set[int] = set()
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if op == "replace" and a2 - a1 == b2 - b1:
            for offset in range(a2 - a1):
                change(text, items[a1 + offset], new[b1 + offset], unit, edits)
            continue
        if a2 > a1 and b2 == b1:  # deleted items
            gone.update(range(a1, a2))
            continue
        pieces = [render(value, indent, unit) for value in new[b1:b2]]
        if a2 > a1:  # replaced by a different number of items: one span for them all
            edits.append((items[a1].start, items[a2 - 1].end, gap.join(pieces)))
        elif a1 < len(items):  # inserted before an item
            edits.append((items[a1].start, items[a1].start, gap.join(pieces) + gap))
        else:  # appended
            edits.append((items[-1].end, items[-1].end, gap + gap.join(pieces)))
    edits += cuts(items, gone, node)


def cuts(parts: tuple[Any, ...], gone: set[int], parent: Node) -> list[tuple[int, int, str]]:
    """The edits that take members or items out, with the commas that joined them: each run of
    them up to the next kept one, or, at the end, from the last kept one on (never two edits
    over the same bytes)."""
    if not gone:
        return []
    if len(gone) == len(parts):
        return [(parent.start + 1, parent.end - 1, "")]
    edits = []
    n = 0
    while n < len(parts):
        if n not in gone:
            n += 1
            continue
        first = n
        while n < len(parts) and n in gone:
            n += 1
        if n < len(parts):  # a kept one follows: up to where it starts (a member: its key)
            edits.append((parts[first].start, parts[n].start, ""))
        else:  # the run ends the list: from the end of the last kept one
            edits.append((end_of(parts[first - 1]), end_of(parts[-1]), ""))
    return edits


def end_of(part: Any) -> int:
    return int(part.node.end if isinstance(part, Member) else part.end)


def render(value: Any, indent: str, unit: str) -> str:
    """`value` as JSON whose lines after the first sit at `indent`, nested by `unit`."""
    text = json.dumps(value, indent=unit, ensure_ascii=False)
    return text.replace("\n", "\n" + indent)


def line_indent(text: str, at: int) -> str:
    line_start = text.rfind("\n", 0, at) + 1
    line = text[line_start:at]
    return line[: len(line) - len(line.lstrip(" \t"))]


def indent_unit(text: str) -> str:
    found = re.search(r"\n([ \t]+)\S", text)
    return found.group(1) if found else "  "


def key_of(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def same(old: Any, new: Any) -> bool:
    return key_of(old) == key_of(new)
