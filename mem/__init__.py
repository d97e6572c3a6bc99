"""Memory for AI coding agents, kept as plain markdown in a git-friendly vault."""

__version__ = "0.1.0"
