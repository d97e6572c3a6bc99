"""Create a vault from the template, at the project's git root; never overwrite anything."""

from __future__ import annotations

from pathlib import Path

from mem.config import VAULT_DIR, Settings
from mem.errors import NotAFolder
from mem.model import InitReport
from mem.vault import layout, store


def init(settings: Settings, path: Path | None, cwd: Path) -> InitReport:
    """Create `.memory/` (or the --vault folder) and copy in the template's missing files."""
    outside_git = False
    if settings.vault_flag:
        target = (cwd / settings.vault_flag).resolve()
    else:
        base = (cwd / path).resolve() if path else cwd.resolve()
        if not base.is_dir():
            raise NotAFolder(f"{base} is not a folder; create it first or pick another")
        root = layout.project_root(base)
        outside_git = root is None  # then the folder itself holds it
        target = (root or base) / VAULT_DIR
    existed = (target / "mem.toml").is_file()
    template = layout.template_folder()
    created: list[str] = []
    try:
        target.mkdir(parents=True, exist_ok=True)
        for source in sorted(template.rglob("*")):
            relative = source.relative_to(template).as_posix()
            destination = target / relative
            if source.is_dir():
                destination.mkdir(exist_ok=True)
            elif not destination.exists():
                store.write_atomic(target, relative, source.read_text(encoding="utf-8"))
                created.append(relative)
    except OSError as exc:
        raise store.explain_os_error(exc, str(target)) from exc
    return InitReport(str(target), tuple(created), existed, outside_git)
