"""What a commit message the agent wrote says under its subject is read from the shell call
that made the commit, and mined as a note for the next reader."""

from __future__ import annotations

import pytest

from extract.claude_sessions import bash_session
from mem.extract import formats
from mem.extract.capture import Capture
from mem.extract.commit_message import commit_body

HEREDOC = (
    "git add src/importer.py && git commit -m \"$(cat <<'EOF'\n"
    "fix: skip import rows without an id\n\n"
    "The importer now skips rows without an id, instead of\n"
    "stopping at the first one and losing the rest of the file.\n\n"
    "🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\n"
    "Co-Authored-By: Claude <noreply@anthropic.com>\n"
    "EOF\n"
    ')" && git push'
)


@pytest.mark.parametrize(
    ("command", "body"),
    [
        (
            HEREDOC,
            (
                "The importer now skips rows without an id, instead of\n"
                "stopping at the first one and losing the rest of the file."
            ),
        ),
        (
            'git commit -m "Fix it" -m "The cache outlived the session." -m "Left: docs."',
            "The cache outlived the session.\n\nLeft: docs.",
        ),
        (
            (
                'git add x\ngit commit -m "probe: settled\n\nThe probe ran.\nThe other leg '
                'remains open.\n\nCo-authored-by: Copilot <1@users.noreply.github.com>"\ngit push'
            ),
            "The probe ran.\nThe other leg remains open.",
        ),
        ('git -C repo commit --message="Subject only" && git push', ""),
        (
            'git commit -am "Fix parser" -m "The tokenizer dropped the last token."',
            "The tokenizer dropped the last token.",
        ),
        (
            'git commit -m "Subject" -m "Pipe it: a | b; then && more" && git push',
            "Pipe it: a | b; then && more",
        ),
        ('bash -lc \'git commit -m "Fix it" -m "Body in a script."\'', "Body in a script."),
        ('git commit -m "Fix parser" && cat <<EOF > notes.txt\nunrelated\nnotes\nEOF', ""),
        ("git commit -F - <<'EOF'\nSubject\n\nBody line.\nEOF", "Body line."),
        (
            "git commit -F - <<'EOF'\nSubject\n\nEOF handling was the bug.\nEOF",
            "EOF handling was the bug.",
        ),
        ('git commit -m "an unbalanced quote', ""),
        ("git log --oneline", ""),
    ],
)
def test_a_commit_messages_body_is_read_from_the_command_without_its_trailers(command, body):
    assert commit_body(command) == body


def test_a_commit_body_is_mined_as_a_note_only_when_the_commit_was_made():
    def session(result: str, error: bool) -> list[formats.Message]:
        lines = bash_session(HEREDOC, result, error, prompt="fix the importer")
        return list(formats.read(formats.detect(lines), lines))

    made = session("[main 1a2b3c4] fix: skip import rows without an id", False)
    assert [(m.role, m.commits) for m in made if m.commits] == [
        ("assistant", ("1a2b3c4 fix: skip import rows without an id",))
    ]
    assert len([m for m in made if m.role == "commit"]) == 1
    capture = Capture()
    found = [c for m in made for c in capture.mine(m, m.text)] + capture.finish()
    assert [c.text for c in found if c.why.startswith("a commit message the agent wrote")] == [
        (
            "The importer now skips rows without an id, instead of stopping at the first one and "
            "losing the rest of the file."
        )
    ]
    refused = session("pre-commit hook failed: lint", True)
    assert not [m for m in refused if m.role == "commit" or m.commits]


def test_a_chat_exported_as_markdown_gives_the_body_of_a_commit_its_terminal_block_shows():
    lines = [
        "_**User**_\n",
        "\n",
        "commit it\n",
        "\n",
        "---\n",
        "\n",
        "_**Assistant**_\n",
        "\n",
        "Tool use: **run_terminal_cmd**\n",
        "\n",
        "```bash\n",
        'git commit -m "Pause only network tasks" -m "Manual pauses stay paused."\n',
        "```\n",
        "\n",
        "```\n",
        "[main 3f2e1d0] Pause only network tasks\n",
        "```\n",
        "\n",
        "---\n",
        "\n",
        "Committed.\n",
    ]
    messages = list(formats.read("markdown-chat", lines))
    assert [c for m in messages for c in m.commits] == ["3f2e1d0 Pause only network tasks"]
    assert [m.text for m in messages if m.role == "commit"] == ["Manual pauses stay paused."]


RTK = (
    "rtk git add uv.lock && rtk git commit -m \"$(cat <<'EOF'\n"
    "feat(ci): add CI and release workflows\n\n"
    "The release runs on a version tag and publishes with trusted publishing.\n"
    "EOF\n"
    ')"'
)


@pytest.mark.parametrize(
    ("output", "commits"),
    [
        (
            "ok 23 files changed, 778 insertions(+)\nok f1bcd13",
            ("f1bcd13 feat(ci): add CI and release workflows",),
        ),
        (
            "[main 2b74a1a] feat(ci): the subject git printed\n 1 file changed",
            ("2b74a1a feat(ci): the subject git printed",),
        ),
        # a push's range after it names no commit of its own
        (
            "ok 2b74a1a\n   f1bcd13..2b74a1a  main -> main",
            ("2b74a1a feat(ci): add CI and release workflows",),
        ),
        ("ok f1bcd13\nok 2b74a1a", ()),  # two ids: which one it made is not said
        ("nothing to commit, working tree clean", ()),
        ("ok defaced", ()),  # a word in hex letters is no id
    ],
)
def test_a_commit_a_wrapper_reports_in_its_own_words_is_the_commands_subject_with_its_id(
    output, commits
):
    assert formats.commits_in(output, RTK) == commits
    assert formats.commits_in("ok f1bcd13") == ()  # without the command, no subject to give
