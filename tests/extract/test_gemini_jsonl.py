"""Gemini CLI session files: a log of the chat, read as the chat it ends up being."""

from __future__ import annotations

import json

import pytest

from mem.extract import formats

META = {"sessionId": "g-1", "projectHash": "ab12", "startTime": "2026-11-20T10:00:00Z"}


def line(**record) -> str:
    return json.dumps(record)


def session(*records: str) -> list[str]:
    return [json.dumps(META), *records]


def said(lines: list[str]) -> list[tuple[str, str]]:
    return [(m.role, m.text) for m in formats.read("gemini-jsonl", lines) if m.text]


def test_a_gemini_session_is_detected_as_itself_not_as_claude():
    lines = session(line(id="u1", type="user", content=[{"text": "fix the bug"}]))
    assert formats.detect(lines) == "gemini-jsonl"


def test_the_last_copy_of_a_message_wins_and_keeps_its_place():
    lines = session(
        line(id="u1", type="user", content=[{"text": "Why does the upload fail?"}]),
        line(id="g1", type="gemini", content="Looking."),
        line(id="u2", type="user", content=[{"text": "And the retry?"}]),
        line(
            id="g1",
            type="gemini",
            content="The bucket policy denies PutObject.",
            tokens={"input": 120, "output": 30},
        ),
    )
    assert said(lines) == [
        ("user", "Why does the upload fail?"),
        ("assistant", "The bucket policy denies PutObject."),
        ("user", "And the retry?"),
    ]
    assistant = [m for m in formats.read("gemini-jsonl", lines) if m.role == "assistant"]
    assert (assistant[0].input_tokens, assistant[0].session) == (120, "g-1")


def test_a_rewind_takes_back_a_message_and_all_after_it():
    lines = session(
        line(id="u1", type="user", content="Use MySQL."),
        line(id="g1", type="gemini", content="Switched to MySQL."),
        line(**{"$rewindTo": "u1"}),
        line(id="u3", type="user", content="Keep PostgreSQL."),
    )
    assert said(lines) == [("user", "Keep PostgreSQL.")]


def test_a_checkpoint_replaces_every_message():
    lines = session(
        line(id="u1", type="user", content="old"),
        line(**{"$set": {"messages": [{"id": "s1", "type": "gemini", "content": "summary"}]}}),
    )
    assert said(lines) == [("assistant", "summary")]


def test_tool_results_hook_context_and_recall_blocks_are_not_prose():
    lines = session(
        line(id="u1", type="user", content=[{"text": "<hook_context>mem notes</hook_context>"}]),
        line(id="t1", type="user", content=[{"functionResponse": {"name": "read_file"}}]),
        line(
            id="g1",
            type="gemini",
            content=[{"text": 'Done. <mem-recall agent="x">old</mem-recall>'}],
            toolCalls=[
                {"name": "replace", "args": {"file_path": "src/app.py"}, "status": "success"},
                {"name": "write_file", "args": {"file_path": "x.py"}, "status": "error"},
            ],
        ),
    )
    messages = list(formats.read("gemini-jsonl", lines))
    assert [(m.role, m.text.strip()) for m in messages] == [("assistant", "Done.")]
    assert messages[0].files == ("src/app.py",)


def test_hook_context_after_the_persons_words_and_the_session_preamble_are_not_theirs():
    # Gemini CLI 0.61 writes what hooks added (mem's recall among it) as a second text part,
    # HTML-escaped, and opens a session with its own preamble (INTEGRATIONS.md, section 10).
    recall = (
        "<hook_context>&lt;mem-recall agent=&quot;dev&quot; tokens=&quot;40&quot;&gt;\n"
        "## Decisions\n- Use Postgres for the queue.\n&lt;/mem-recall&gt;</hook_context>"
    )
    lines = session(
        line(
            id="u0",
            type="user",
            content=[{"text": "<session_context>This is the Gemini CLI.</session_context>"}],
        ),
        line(id="u1", type="user", content=[{"text": "Fix the login redirect."}, {"text": recall}]),
        line(id="g1", type="gemini", content="Fixed: the redirect now keeps the `next` path."),
    )
    assert said(lines) == [
        ("user", "Fix the login redirect."),
        ("assistant", "Fixed: the redirect now keeps the `next` path."),
    ]


def test_recall_is_dropped_as_written_and_html_escaped():
    escaped = 'before &lt;mem-recall agent="dev"&gt;\n- old\n&lt;/mem-recall&gt; after'
    assert formats.strip_recall(escaped) == "before  after"
    lines = ["keep\n", "&lt;mem-recall agent=&quot;dev&quot;&gt;\n", "- old\n"]
    lines += ["&lt;/mem-recall&gt; tail\n", "<mem-recall>x</mem-recall>\n", "end\n"]
    assert list(formats.without_recall(lines)) == ["keep\n", " tail\n", "end\n"]


def test_a_prompt_that_opens_with_a_tag_is_still_the_persons():
    lines = session(
        line(id="u1", type="user", content=[{"text": "<button> is misaligned on mobile, fix it"}])
    )
    assert said(lines) == [("user", "<button> is misaligned on mobile, fix it")]


def test_a_recall_block_ends_at_its_own_closer_and_an_escaped_mention_is_prose():
    written = '<mem-recall agent="dev">x &lt;/mem-recall&gt; old </mem-recall> after'
    assert formats.strip_recall(written) == " after"
    mention = "The hook wraps it in &lt;mem-recall&gt; tags, then goes on."
    assert formats.strip_recall(mention) == mention
    lines = ["a <mem-recall>x</mem-recall> b <mem-recall>y</mem-recall> c\n", "\n"]
    assert list(formats.without_recall(lines)) == ["a  b  c\n", "\n"]


# mem's recall block as it may reach a transcript: `<` and `>` written, HTML-escaped (Gemini
# CLI 0.61's hook context), as character references, escaped twice, or JSON-escaped.
RECALL_ENCODINGS = {
    "written": ("<", ">"),
    "html": ("&lt;", "&gt;"),
    "decimal": ("&#60;", "&#62;"),
    "hex": ("&#x3C;", "&#x3E;"),
    "html twice": ("&amp;lt;", "&amp;gt;"),
    "json": ("\\u003c", "\\u003e"),
}


@pytest.mark.parametrize("lt, gt", RECALL_ENCODINGS.values(), ids=RECALL_ENCODINGS)
def test_recall_is_never_read_in_any_encoding(lt, gt):
    block = f'{lt}mem-recall agent="dev"{gt}\n- (2026-11-20) Use Postgres for the queue.\n'
    block += f"{lt}/mem-recall{gt}"
    assert formats.strip_recall(f"before {block} after") == "before  after"
    lines = ["keep\n", *f"{block}\n".splitlines(keepends=True), "end\n"]
    assert list(formats.without_recall(lines)) == ["keep\n", "end\n"]
    lines = session(
        line(
            id="u1",
            type="user",
            content=[{"text": "Fix the login redirect."}, {"text": f"<hook_context>{block}"}],
        )
    )
    assert said(lines) == [("user", "Fix the login redirect.")]


def test_a_json_escaped_closer_ends_a_written_block():
    text = 'a <mem-recall agent=\\"dev\\">\\n- old\\n<\\/mem-recall> b'
    assert formats.strip_recall(text) == "a  b"


def test_an_escaped_tag_named_in_prose_keeps_the_lines_after_it():
    lines = ["The hook wraps it in &lt;mem-recall&gt; tags.\n", "Then the CLI escapes it.\n"]
    assert list(formats.without_recall(lines)) == lines


def test_the_clis_setup_preamble_is_not_the_persons_even_untagged():
    preamble = (
        "This is the Gemini CLI. We are setting up the context for our chat.\n"
        "Today's date is Friday, November 20, 2026.\nMy operating system is: linux\n"
    )
    lines = session(
        line(id="u0", type="user", content=[{"text": preamble}]),
        line(id="u1", type="user", content=[{"text": "Fix the login redirect."}]),
    )
    assert said(lines) == [("user", "Fix the login redirect.")]
