"""Whoosh loads without OpenSSL, hashes as it would with it, and hashlib stays whole for the
rest of the process (checked in a fresh interpreter: the test run has imported hashlib)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
from mem.index.light_md5 import import_whoosh_tables
import_whoosh_tables()
import whoosh.filedb.filetables as tables
assert "_hashlib" not in sys.modules and "hashlib" not in sys.modules, "OpenSSL was loaded"
import hashlib
assert hashlib.sha256(b"x").hexdigest().startswith("2d711642"), "hashlib is not the real one"
key = b"content:postgres"
assert tables.md5_hash(key) == int(hashlib.md5(key).hexdigest(), 16) & 0xFFFFFFFF
print("ok")
"""


def test_whoosh_tables_load_without_openssl_and_hash_the_same():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], check=False, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
