#!/usr/bin/env bash
# Install `mem` from this checkout so that every new shell finds it: with pipx, else uv, else in a
# virtual environment of its own under ~/.local/share/mem, linked into ~/.local/bin. Then make
# sure ~/.local/bin is on the PATH of new shells, as `pipx ensurepath` would. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")"
bin="$HOME/.local/bin"

if command -v pipx >/dev/null 2>&1; then
    pipx install --force . >/dev/null
    how="pipx"
elif command -v uv >/dev/null 2>&1; then
    uv tool install --force . >/dev/null
    how="uv tool"
else
    home="${XDG_DATA_HOME:-$HOME/.local/share}/mem"
    python3 -m venv "$home/venv"
    "$home/venv/bin/python" -m pip install --quiet --upgrade . >/dev/null
    mkdir -p "$bin"
    ln -sf "$home/venv/bin/mem" "$bin/mem"
    how="a virtual environment in $home/venv"
fi

case ":$PATH:" in
    *":$bin:"*) on_path=1 ;;
    *) on_path=0 ;;
esac
if [ "$on_path" = 0 ]; then
    line='export PATH="$HOME/.local/bin:$PATH"  # added by mem'"'"'s install.sh'
    for rc in "$HOME/.profile" "$HOME/.bashrc" "$HOME/.zshrc"; do
        if [ "$rc" = "$HOME/.profile" ] || [ -f "$rc" ]; then
            grep -qsF "added by mem's install.sh" "$rc" || printf '\n%s\n' "$line" >> "$rc"
        fi
    done
    echo "mem: installed with $how; new shells find it in $bin (added to PATH in your shell profile)" >&2
else
    echo "mem: installed with $how; it is at $bin/mem, on your PATH" >&2
fi
