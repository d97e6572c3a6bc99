"""Where things live in a vault: category files per agent, shared and private folders."""

import os
from pathlib import Path
from typing import NamedTuple

from mem.config import check_agent, is_valid_agent
from mem.errors import InvalidCategory, UnsafePath
from mem.model import CATEGORIES, SHARED_FOLDER

STATE_DIR = ".mem"
PRIVATE_DIR = ".mem/private"
ARCHIVE_DIR = "archive"


class FileRef(NamedTuple):
    """A category file's place in the vault and what that place means."""

    path: str  # vault-relative, POSIX style
    agent: str  # an agent name, or "_shared"
    category: str
    scope: str  # agent | shared | private
    archived: bool = False


def check_category(name: str) -> str:
    """Return a known category, or say which ones exist."""
    if name not in CATEGORIES:
        raise InvalidCategory(f"unknown category {name!r}; choose one of {', '.join(CATEGORIES)}")
    return name


def file_ref(agent: str, category: str, scope: str = "agent", archived: bool = False) -> FileRef:
    """Return where an agent's category file of a given scope lives."""
    check_category(category)
    name = f"{ARCHIVE_DIR}/{category}.md" if archived else f"{category}.md"
    if scope == "shared":
        return FileRef(f"{SHARED_FOLDER}/{name}", SHARED_FOLDER, category, scope, archived)
    check_agent(agent)
    if scope == "private":
        return FileRef(f"{PRIVATE_DIR}/{agent}/{name}", agent, category, scope, archived)
    return FileRef(f"{agent}/{name}", agent, category, "agent", archived)


def describe(path: str) -> FileRef | None:
    """Tell what a vault-relative path is, or None when it is not a category file."""
    parts = path.split("/")
    if not parts[-1].endswith(".md"):
        return None
    category = parts[-1][:-3]
    if category not in CATEGORIES:
        return None
    archived = len(parts) >= 2 and parts[-2] == ARCHIVE_DIR
    folder = parts[:-2] if archived else parts[:-1]
    if len(folder) == 1 and folder[0] == SHARED_FOLDER:
        return FileRef(path, SHARED_FOLDER, category, "shared", archived)
    if len(folder) == 1 and is_valid_agent(folder[0]):
        return FileRef(path, folder[0], category, "agent", archived)
    if len(folder) == 3 and folder[:2] == PRIVATE_DIR.split("/") and is_valid_agent(folder[2]):
        return FileRef(path, folder[2], category, "private", archived)
    return None


def category_files(vault: Path) -> list[FileRef]:
    """List the category files that exist in the vault, in a stable order.

    Anything that is not a regular file, or a symlink leading out of the vault, is left out
    (`links_outside` names those for `mem doctor`).
    """
    found: list[FileRef] = []
    for folder in agent_folders(vault):
        for sub in (folder, f"{folder}/{ARCHIVE_DIR}"):
            for name, item in sorted_items(vault / sub):
                ref = describe(f"{sub}/{name}")
                if ref is None or not item.is_file():
                    continue
                if item.is_symlink() and not is_inside(vault, ref.path):
                    continue
                found.append(ref)
    return found


def sorted_items(folder: Path) -> list[tuple[str, os.DirEntry[str]]]:
    try:
        with os.scandir(folder) as items:
            return sorted((item.name, item) for item in items)
    except OSError:
        return []  # no archive yet, or not a folder


def agent_folders(vault: Path) -> list[str]:
    """List vault-relative folders that may hold category files (agents, shared, private)."""
    folders: list[str] = []
    for name, item in sorted_items(vault):
        if (name == SHARED_FOLDER or is_valid_agent(name)) and item.is_dir():
            folders.append(name)
    for name, item in sorted_items(vault / PRIVATE_DIR):
        if is_valid_agent(name) and item.is_dir():
            folders.append(f"{PRIVATE_DIR}/{name}")
    return [folder for folder in folders if is_inside(vault, folder)]


def links_outside(vault: Path) -> list[str]:
    """Name the agent folders and category files that are symlinks leading out of the vault."""
    outside: list[str] = []
    for name, item in sorted_items(vault):
        if (name == SHARED_FOLDER or is_valid_agent(name)) and item.is_dir():
            if not is_inside(vault, name):
                outside.append(name)
                continue
            for sub in (name, f"{name}/{ARCHIVE_DIR}"):
                for file_name, file_item in sorted_items(vault / sub):
                    relative = f"{sub}/{file_name}"
                    if file_item.is_symlink() and not is_inside(vault, relative):
                        outside.append(relative)
    return outside


def is_inside(vault: Path, relative: str) -> bool:
    return resolved_inside(vault.resolve(), relative)


def resolved_inside(root: Path, relative: str) -> bool:
    """Whether `relative` leads, through any symlink, to `root` (resolved) or below it."""
    target = (root / relative).resolve()
    return target == root or root in target.parents


def agents(vault: Path) -> list[str]:
    """List the agents that have a folder in the vault (not `_shared`, not private-only)."""
    return [name for name in agent_folders(vault) if "/" not in name and name != SHARED_FOLDER]


def inside(vault: Path, relative: str) -> Path:
    """Return the absolute path of a vault-relative path, refusing anything that leads out."""
    root = vault.resolve()  # once: each resolve is a system call per part of the path
    if not resolved_inside(root, relative):
        raise UnsafePath(
            f"{relative} leads outside the vault (a symlink?); mem never reads or writes "
            f"outside {root}"
        )
    return root / relative


def project_root(start: Path) -> Path | None:
    """Return the main checkout of the git repository holding `start`, or None outside one."""
    import subprocess  # only `mem init` asks git: ~4 ms off every other command

    try:
        result = subprocess.run(
            ["git", "rev-parse", "--path-format=absolute", "--git-common-dir", "--show-toplevel"],
            cwd=start,
            capture_output=True,
            text=True,
            check=False,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None  # no git to ask
    lines = result.stdout.splitlines() if result.returncode == 0 else []
    if len(lines) < 2:
        return None  # not a repository, or a bare one
    common, toplevel = Path(lines[0]), Path(lines[1])
    # Worktrees share the common `.git` of the main checkout; submodules and repositories with
    # a separate git dir do not have one named `.git`, so their own top level is the root.
    return common.parent if common.name == ".git" else toplevel


def template_folder() -> Path:
    """Return the vault template: inside the installed package, or beside it in a checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "vault_template", package.parent / "vault-template"):
        if (candidate / "mem.toml").is_file():
            return candidate
    raise FileNotFoundError("vault template not found; reinstall mem")


# The files in which a project tells its agents how to work (and the vault's own context):
# restating them is no memory. Relative to the folder that holds the vault.
INSTRUCTION_FILES = (
    "CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
    ".cursorrules",
    "CONVENTIONS.md",
    ".github/copilot-instructions.md",
)
MAX_INSTRUCTION_BYTES = 256 * 1024  # a larger file is no instruction file


def instruction_texts(vault: Path) -> list[str]:
    """The text of the project's instruction files and of the vault's `_project.md`, those that
    exist and read as UTF-8."""
    found = []
    for path in [vault.parent / name for name in INSTRUCTION_FILES] + [vault / "_project.md"]:
        try:
            if path.is_file() and path.stat().st_size <= MAX_INSTRUCTION_BYTES:
                found.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue  # unreadable: nothing to compare against
    return found
