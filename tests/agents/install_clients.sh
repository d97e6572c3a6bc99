#!/usr/bin/env bash
# Install the agent clients the tests in tests/agents/ drive, each pinned, each in a folder of
# its own under the cache ($MEM_TEST_CLIENTS, else ~/.cache/mem-test-clients). A client already
# there is skipped, so a second run takes no time. Without node and npm it says so and exits 0:
# the tests then skip themselves, naming why.
#
#   tests/agents/install_clients.sh            # all three
#   tests/agents/install_clients.sh codex      # one of them
set -euo pipefail

# name  npm package  version  the executable, relative to the install folder
CLIENTS="
claude-code @anthropic-ai/claude-code 2.1.332 node_modules/.bin/claude
codex @openai/codex 0.171.0 node_modules/.bin/codex
gemini @google/gemini-cli 0.61.0 node_modules/.bin/gemini
"
cache="${MEM_TEST_CLIENTS:-${XDG_CACHE_HOME:-$HOME/.cache}/mem-test-clients}"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "install_clients: node and npm are not on PATH; the agent client tests will skip" >&2
    exit 0
fi
mkdir -p "$cache"
status=0
while read -r name package version bin; do
    [ -n "$name" ] || continue
    if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
        continue
    fi
    folder="$cache/$name-$version"
    if [ -x "$folder/$bin" ] && [ -f "$folder/.installed" ]; then
        continue
    fi
    echo "install_clients: installing $package@$version into $folder" >&2
    # Into a folder of its own first, then renamed: an interrupted install leaves no half folder.
    partial="$folder.partial.$$"
    rm -rf "$partial"
    mkdir -p "$partial"
    if npm install --prefix "$partial" --no-audit --no-fund --no-save --loglevel=error \
        "$package@$version" >&2 && [ -x "$partial/$bin" ]; then
        touch "$partial/.installed"
        rm -rf "$folder"
        mv "$partial" "$folder"
    else
        echo "install_clients: could not install $package@$version" >&2
        rm -rf "$partial"
        status=1
    fi
done <<< "$CLIENTS"
exit $status
