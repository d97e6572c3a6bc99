"""Run `mem` as `python -m mem`."""

from mem.cli.app import main

main()
