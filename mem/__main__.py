"""Run `mem` as `python -m mem`."""

from mem.cli.main import main

main()
