"""`mem edit`: open an entry in $EDITOR."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path
from typing import Annotated

import typer

from mem.cli import render
from mem.cli.errors import reports_errors
from mem.cli.feedback import for_people
from mem.cli.options import AgentOption, JsonFlag, VaultOption, settings_of
from mem.errors import EditorFailed
from mem.services import edit as edit_service

# Editors known to take `+LINE FILE`; others get `FILE` alone (VS Code-likes get `-g FILE:LINE`).
PLUS_LINE_EDITORS = {
    "vi",
    "vim",
    "nvim",
    "nano",
    "emacs",
    "emacsclient",
    "micro",
    "kak",
    "hx",
    "joe",
    "ne",
    "mg",
    "jed",
    "pico",
    "ed",
}
GOTO_EDITORS = {"code", "codium", "cursor", "subl", "zed"}


@reports_errors
def edit(
    ctx: typer.Context,
    entry_id: Annotated[str, typer.Argument(metavar="ID", help="An id or a unique prefix.")],
    agent: AgentOption = None,
    vault: VaultOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Open an entry in $VISUAL or $EDITOR at its line; reindex when the editor closes.

    Example: EDITOR=nano mem edit 20261122-2304
    """
    settings = settings_of(ctx, vault=vault, agent=agent)

    def open_editor(path: Path, line: int) -> int:
        try:
            command = shlex.split(settings.editor) or ["vi"]
        except ValueError as exc:
            raise EditorFailed(f"cannot read $EDITOR {settings.editor!r} ({exc}); fix it") from exc
        name = Path(command[0]).name
        if name in PLUS_LINE_EDITORS:
            command += [f"+{line}", str(path)]
        elif name in GOTO_EDITORS:
            command += ["-g", f"{path}:{line}"]
        else:
            command.append(str(path))
        try:
            return subprocess.run(command, check=False).returncode
        except OSError as exc:
            raise EditorFailed(
                f"cannot start the editor {command[0]!r} ({exc.strerror}); set $EDITOR"
            ) from exc

    report = edit_service.edit(settings, entry_id, open_editor, for_people())
    render.edited(report, as_json)
