"""One commit of a stream mines at most MINE_LIMIT characters of new messages: the rest is read
and counted, neither mined nor recorded, and the same input committed again mines the next
part. A gigabyte on stdin then takes a minute and flat memory, not most of an hour."""

from __future__ import annotations

from mem.cli.render import committed
from mem.config import load_settings
from mem.extract.formats import TEXT_CHUNK_LINES
from mem.services import commit as commit_service
from mem.vault import ledger

LESSONS = [
    "The deploy script needs the staging key before it runs migrations.",
    "The billing webhook retries three times, so handlers must be idempotent.",
    "The search index is rebuilt nightly, so a fresh entry shows up the next day.",
]


def message(lesson: str) -> list[str]:
    """One message of plain text: a lesson a rule keeps, then enough test output (indented:
    never mined) that the reader cuts the text there, at the blank line."""
    output = [f"    PASS tests/test_module.py::test_case_{n}\n" for n in range(TEXT_CHUNK_LINES)]
    return [f"Lesson learned: {lesson}\n", *output, "\n"]


def stream() -> list[str]:
    return [line for lesson in LESSONS for line in message(lesson)]


def test_past_the_limit_messages_are_counted_not_mined_and_the_next_commit_mines_them(
    vault, monkeypatch, capsys
):
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    first_message = len("".join(message(LESSONS[0])))
    monkeypatch.setattr(commit_service, "MINE_LIMIT", first_message)  # one message a commit

    reports = [commit_service.commit(settings, stream())]
    assert len(ledger.read(vault, "dev").messages) == 1  # what was mined, and only that
    reports += [commit_service.commit(settings, stream()) for _ in range(3)]

    assert [(r.messages, r.already_committed, r.unmined) for r in reports] == [
        (3, 0, 2),
        (3, 1, 1),
        (3, 2, 0),
        (3, 3, 0),
    ]
    bodies = [[entry.body for entry in report.added] for report in reports]
    assert [len(added) for added in bodies] == [1, 1, 1, 0]
    for lesson, added in zip(LESSONS, bodies, strict=False):
        assert lesson in added[0]
    assert len(ledger.read(vault, "dev").messages) == 3
    committed(reports[0], as_json=False)
    said = capsys.readouterr()
    assert "read 2 more message(s)" in said.out + said.err
    assert "commit the same input again to mine the next part" in said.out + said.err


def test_a_message_said_again_past_the_limit_is_not_counted_as_left(vault, monkeypatch):
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    first, second = message(LESSONS[0]), message(LESSONS[1])
    monkeypatch.setattr(commit_service, "MINE_LIMIT", len("".join(first)))
    report = commit_service.commit(settings, [*first, *first, *second, *first, *second])
    assert (report.messages, report.unmined) == (5, 2)  # the second message, twice


def test_under_the_limit_or_unlimited_every_message_is_mined(vault, monkeypatch):
    settings = load_settings(vault_flag=str(vault), agent_flag="dev")
    report = commit_service.commit(settings, stream())
    assert (report.messages, report.unmined, len(report.added)) == (3, 0, 3)
    monkeypatch.setattr(commit_service, "MINE_LIMIT", 1)  # a backfill's session has an end
    second = load_settings(vault_flag=str(vault), agent_flag="qa")
    unlimited = commit_service.commit(second, stream(), limited=False)
    assert (unlimited.messages, unlimited.unmined, len(unlimited.added)) == (3, 0, 3)
