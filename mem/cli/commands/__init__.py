"""One module per command; `mem.cli.app` registers them."""
