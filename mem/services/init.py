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
    if not outside_git:
        set_merge_driver(target)
    return InitReport(str(target), tuple(created), existed, outside_git)


# The vault's .gitattributes asks git for its union merge on category files. Defined in this
# clone's git config, a driver of that name replaces git's own: mem merges category files entry
# by entry, and hands anything else (or anything it cannot read) to git's union merge itself,
# as it does when `mem` is not on the PATH. A clone without it merges by union, as before.
MERGE_DRIVER = "mem merge-driver %O %A %B %P || git merge-file --union %A %O %B"


def defined_merge_driver(folder: Path) -> str | None:
    """The union merge driver the git config of the clone holding `folder` defines ('' for
    none), or None when git cannot say (no git, no repository)."""
    import shutil
    import subprocess

    if shutil.which("git") is None:
        return None
    found = subprocess.run(
        ["git", "-C", str(folder), "config", "--get", "merge.union.driver"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode == 1:  # 0: one is defined; other codes: no repository or no config
        return ""
    return found.stdout.strip() if found.returncode == 0 else None


def set_merge_driver(folder: Path) -> bool:
    """Define the union merge driver in the git config of the clone holding `folder`, unless
    one is defined already (mem's, or a person's own); True when mem's is the one defined."""
    import subprocess

    defined = defined_merge_driver(folder)
    if defined != "":
        return defined == MERGE_DRIVER

    def git(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", "-C", str(folder), "config", *words],
            capture_output=True,
            text=True,
            check=False,
        )

    git("merge.union.name", "mem: category files entry by entry, other files by union")
    return git("merge.union.driver", MERGE_DRIVER).returncode == 0
