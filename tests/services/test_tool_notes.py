"""What a tool call is about to touch, read from each agent's tool input."""

from __future__ import annotations

import pytest

from mem.services.tool_notes import targets_of


@pytest.mark.parametrize(
    ("tool_input", "files", "commands"),
    [
        (
            {"file_path": "/repo/src/app/settings.py", "content": "x"},
            ["/repo/src/app/settings.py"],
            [],
        ),
        ({"notebook_path": "/repo/nb/eda.ipynb"}, ["/repo/nb/eda.ipynb"], []),
        ({"command": "git push --force origin main"}, [], [("git", "push")]),
        ({"command": "cd app && npm publish"}, [], [("npm", "publish")]),
        ({"command": "FOO=1 sudo terraform -chdir=infra apply"}, [], [("terraform",)]),
        ({"command": "uv run pytest tests/test_auth.py -x"}, ["tests/test_auth.py"], [("pytest",)]),
        ({"command": "python -m alembic upgrade head"}, [], [("alembic", "upgrade")]),
        ({"command": "ls -la && cat notes.md | grep TODO"}, ["notes.md"], []),
        (
            {"command": ["bash", "-lc", "make release && ./deploy.sh"]},
            ["./deploy.sh"],
            [("make", "release")],
        ),
        ({"command": "echo 'unclosed"}, [], []),
        (
            {"command": "*** Begin Patch\n*** Update File: src/db.rs\n@@\n-a\n+b\n*** End Patch"},
            ["src/db.rs"],
            [],
        ),
        ({"tool": "read_file"}, [], []),
    ],
)
def test_targets_of_each_agents_tool_input(tool_input, files, commands):
    targets = targets_of(tool_input)
    assert list(targets.files) == files
    assert list(targets.commands) == commands
