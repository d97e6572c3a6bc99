"""Agent output → candidate entries: formats, patterns, redaction, dedup."""
