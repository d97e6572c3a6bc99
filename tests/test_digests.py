"""mem.digests gives hashlib's digests without importing hashlib (which starts OpenSSL)."""

import hashlib
import subprocess
import sys

import pytest

from mem import digests


@pytest.mark.parametrize("name", ["md5", "sha1", "sha256"])
@pytest.mark.parametrize("data", [b"", b"abc", "é ✓ 日本".encode(), bytes(range(256)) * 300])
def test_the_digests_are_hashlibs(name: str, data: bytes) -> None:
    ours = getattr(digests, name)(data, usedforsecurity=False)
    theirs = getattr(hashlib, name)(data)
    assert (ours.hexdigest(), ours.digest()) == (theirs.hexdigest(), theirs.digest())


def test_a_module_python_lacks_is_skipped_for_the_next() -> None:
    assert digests._builtin(("_no_such_module", "md5"), ("_md5", "nothing")) is None
    assert digests._builtin(("_no_such_module", "sha1"), ("_sha1", "sha1")) is not None


def test_picking_up_an_edit_imports_no_hashlib() -> None:
    # What a search runs when a file changed: the chunk digests, the fingerprints, the stamp.
    code = (
        "import sys\n"
        "from mem.index import chunk_table, context\n"
        "from mem.services import file_patch, refresh\n"
        "from mem.vault import hook_sessions\n"
        "chunk_table.digest('x'); file_patch.fingerprint('x')\n"
        "assert 'hashlib' not in sys.modules, 'hashlib imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
