"""Redaction of secrets: every fake secret goes, the text around it and ordinary prose stay."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mem.extract import formats
from mem.extract.redact import redact

from .fake_secrets import FAKE_SECRETS, NOT_SECRETS
from conftest import REPO, SHARED

MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


def secret_pieces(secret):
    """The secret, and each long run of it (a PEM body line, say) that must not survive."""
    return [secret, *(piece for piece in re.split(r"\s|\\n", secret) if len(piece) >= 12)]


def test_fake_secrets_are_many_and_distinct():
    assert len(FAKE_SECRETS) >= 25
    assert len({case.name for case in FAKE_SECRETS}) == len(FAKE_SECRETS)
    assert len({case.secret for case in FAKE_SECRETS}) == len(FAKE_SECRETS)
    assert len({case.kind for case in FAKE_SECRETS}) >= 20


@pytest.mark.parametrize("case", FAKE_SECRETS, ids=lambda case: case.name)
def test_redact_replaces_the_secret_with_a_marker_naming_its_kind(case):
    redacted, count = redact(case.text)

    assert count == 1, redacted
    for piece in secret_pieces(case.secret):
        assert piece not in redacted
    assert f"[REDACTED:{case.kind}]" in redacted
    for kept in case.keep:
        assert kept in redacted


@pytest.mark.parametrize("case", FAKE_SECRETS, ids=lambda case: case.name)
def test_redact_changes_nothing_but_the_secret(case):
    redacted, _ = redact(case.text)

    before, _, after = case.text.partition(case.secret)
    assert redacted == f"{before}[REDACTED:{case.kind}]{after}"


@pytest.mark.parametrize("case", FAKE_SECRETS, ids=lambda case: case.name)
def test_redact_is_idempotent(case):
    once, _ = redact(case.text)

    assert redact(once) == (once, 0)


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_redact_leaves_text_without_secrets_alone(text):
    assert redact(text) == (text, 0)


def test_redact_counts_every_secret_in_one_text():
    text = "\n\n".join(case.text for case in FAKE_SECRETS)

    redacted, count = redact(text)

    assert count == len(FAKE_SECRETS)
    assert len(MARKER.findall(redacted)) == len(FAKE_SECRETS)
    for case in FAKE_SECRETS:
        assert case.secret not in redacted


def test_redact_of_empty_text_is_empty():
    assert redact("") == ("", 0)


def test_redact_aws_credentials_file_catches_both_keys():
    text = (
        "[default]\n"
        "aws_access_key_id = AKIAVQJXXVBOTHD0WTFL\n"
        "aws_secret_access_key = HrlEOS47WgjKCu/0xxKhg5QjWV1mKaUyvBPs0jSO\n"
    )

    assert redact(text) == (
        (
            "[default]\n"
            "aws_access_key_id = [REDACTED:aws-access-key]\n"
            "aws_secret_access_key = [REDACTED:aws-secret-key]\n"
        ),
        2,
    )


def test_redact_keeps_key_names_and_redacts_only_values():
    text = "DB_PASSWORD=Vg5kpYYrDY-o57o# PGPASSWORD=LA825gFKE-OU0Ekm psql -h db.internal"

    assert redact(text) == (
        "DB_PASSWORD=[REDACTED:password] PGPASSWORD=[REDACTED:password] psql -h db.internal",
        2,
    )


def test_redact_keeps_scheme_user_and_host_of_a_connection_string():
    redacted, count = redact("postgresql://etl:Wbch2QUxxjY!oXqU@10.0.3.12:5432/warehouse")

    assert (redacted, count) == ("postgresql://etl:[REDACTED:password]@10.0.3.12:5432/warehouse", 1)


@pytest.mark.parametrize(
    "text",
    [
        "postgres://user:password@localhost/app",
        "redis://:pass@localhost:6379",
        "curl -u bob:pass x",
    ],
)
def test_redact_counts_any_word_as_a_url_password(text):
    redacted, count = redact(text)

    assert count == 1
    assert ":[REDACTED:password]" in redacted


def test_redact_private_key_without_end_line_stops_after_its_last_line():
    text = (
        "key:\n-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
        "DEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\nMIIEowIBAAKCAQEAs3dZ01ui0kqjzBkloZz6YU5E2X4f\nW8wh"
    )

    assert redact(text) == ("key:\n[REDACTED:private-key]", 1)
    assert redact(text + "\n\nThe rest was cut off.") == (
        "key:\n[REDACTED:private-key]\n\nThe rest was cut off.",
        1,
    )


def test_redact_private_key_on_one_line():
    text = (
        "SSH_KEY=-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAA "
        "W8whRBT8f+ETnNedi+pkUShKYT -----END OPENSSH PRIVATE KEY----- # from the vault"
    )

    assert redact(text) == ("SSH_KEY=[REDACTED:private-key] # from the vault", 1)


def test_redact_two_private_keys_are_two_secrets():
    block = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBs3dZ01ui0kqj\n-----END EC PRIVATE KEY-----"

    assert redact(f"{block}\nand\n{block}") == (
        "[REDACTED:private-key]\nand\n[REDACTED:private-key]",
        2,
    )


def test_redact_yaml_value_with_symbols_is_redacted_whole():
    assert redact("  password: P@ss(w0rd)&x9  # prod") == (
        "  password: [REDACTED:password]  # prod",
        1,
    )


def test_redact_skips_short_assigned_values():
    assert redact("password=hunt5 token: abc12") == ("password=hunt5 token: abc12", 0)


def test_redact_openai_prefix_needs_a_random_looking_body():
    prose = "sk-this-is-a-long-hyphenated-phrase-about-keys"

    assert redact(prose) == (prose, 0)


def test_redact_is_fast_on_a_large_transcript():
    chunk = "\n".join([*NOT_SECRETS, *(case.text for case in FAKE_SECRETS)]) + "\n"
    text = chunk * (1_000_000 // len(chunk))

    started = time.perf_counter()
    _, count = redact(text)
    elapsed = time.perf_counter() - started

    assert count == len(FAKE_SECRETS) * (1_000_000 // len(chunk))
    assert elapsed < 5, f"{elapsed:.2f}s for {len(text)} characters"


def test_importing_redact_compiles_nothing():
    code = (
        "import time; t = time.perf_counter(); import mem.extract.redact as r; "
        "print(time.perf_counter() - t, r._rules.cache_info().currsize)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()

    assert out[1] == "0"
    assert float(out[0]) < 0.25  # generous: the budget is ~3 ms, but CI machines are noisy


@pytest.mark.parametrize(
    "text",
    [
        'password = "Xy7\rqT9zLm2Pw"',
        "db_password: 'Xy7\x0cqT9zLm2Pw'",
        'api_key="Ab3dEf\u2028Gh7kLmN9p"',
        "first line\r\nAPI_TOKEN=Zq8xLm2Pw9Tk4Rv7\r\nlast line\r\n",
    ],
)
def test_a_value_with_a_stray_control_character_or_crlf_lines_is_still_redacted(text):
    redacted, count = redact(text)
    assert count == 1 and "[REDACTED:" in redacted
    assert not any(part in redacted for part in ("qT9zLm2Pw", "Gh7kLmN9p", "Zq8xLm2Pw9Tk4Rv7"))


def real_sessions() -> list[Path]:
    """Every real session of the dev sets, and the real files of other tools in ../shared."""
    folders = [
        SHARED / "bench" / "capture-dev",
        *sorted((REPO / "bench" / "capture-more").iterdir()),
    ]
    sessions = [
        folder / name
        for folder in folders
        if (folder / "labels.json").is_file()
        for name in sorted(
            {label["file"] for label in json.loads((folder / "labels.json").read_text())}
        )
    ]
    return sessions + [
        path
        for path in sorted((SHARED / "formats").rglob("*"))
        if path.is_file() and not path.name.startswith(("LICENSE", "README", "PROVENANCE"))
    ]


@pytest.mark.skipif(not (SHARED / "formats").is_dir(), reason="../shared is not beside the repo")
def test_real_sessions_lose_nothing_to_redaction():
    """Commit hashes, UUIDs, paths, ids, workflow permissions and test names stay: none of the
    real sessions holds a secret, so redaction finds none in what `mem` reads of them."""
    found = []
    for path in real_sessions():
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        for message in formats.read(formats.detect(lines), lines):
            redacted, count = redact(message.text)
            if count:
                found += [
                    f"{path.name}: {line}" for line in redacted.splitlines() if "[REDACTED:" in line
                ]
    assert len(real_sessions()) > 60 and found == []
