"""`./install.sh` leaves `mem` on the PATH of every new shell, on a machine without pipx or uv."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO


@pytest.mark.slow
def test_install_puts_mem_on_the_path_of_a_new_shell(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    tools = tmp_path / "bin"  # python3 and the basics, and neither pipx nor uv
    tools.mkdir()
    (tools / "python3").symlink_to(getattr(sys, "_base_executable", sys.executable))
    env = {"HOME": str(home), "PATH": f"{tools}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    for _ in range(2):  # a second run changes nothing it should not
        done = subprocess.run(
            [str(REPO / "install.sh")],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    assert "added to PATH in your shell profile" in done.stderr
    profile = (home / ".profile").read_text()
    assert profile.count("added by mem's install.sh") == 1
    # A new login shell, as a user opens one: it reads ~/.profile.
    shell = subprocess.run(
        ["bash", "-lc", "mem --version"],
        check=False,
        env={k: v for k, v in env.items() if k != "PATH"} | {"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shell.returncode == 0 and shell.stdout.startswith("mem"), shell.stderr
    assert os.path.islink(Path(home, ".local", "bin", "mem"))
