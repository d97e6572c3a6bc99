"""The command line: parse flags, call one service, render its result."""
