"""The derived full-text index: always rebuildable from the markdown."""
