"""End-to-end tests of the `mem` command line, through real subprocesses.

A package so that `cli/test_add.py` and `cli/conftest.py` do not collide with same-named
modules elsewhere under tests/ (pytest's default import mode keys modules by basename).
"""
