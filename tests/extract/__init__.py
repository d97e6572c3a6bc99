"""Unit tests of extraction: formats, patterns, redaction, dedup.

A package so that `extract/fake_secrets.py` can be imported as `from .fake_secrets import ...`
here and as `from extract.fake_secrets import ...` from other test folders.
"""
