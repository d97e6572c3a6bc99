"""Find secrets in agent output and replace each with a marker that names its kind."""

import re
from collections.abc import Callable
from functools import cache

MARKER_PREFIX = "[REDACTED:"

# Values that stand for a secret without being one: documentation, templates, masked output.
# `changeme` is a known default rather than a secret, and "the default password is changeme"
# is worth remembering, so it stays; `postgres:postgres@` style dev defaults are still redacted.
PLACEHOLDER_VALUES = frozenset(
    {
        "changeme", "change_me", "change-me", "password", "passwd", "secret", "token",
        "api_key", "apikey", "example", "placeholder", "redacted", "dummy", "none", "null",
        "nil", "true", "false", "undefined", "string", "required", "optional", "hidden",
        "masked", "notset", "not-set", "not_set", "bearer", "basic",
    }
)  # fmt: skip
PLACEHOLDER_PREFIXES = ("your", "replace", "insert", "enter-", "enter_", "example", "placeholder")
MIN_ASSIGNED_SECRET_CHARS = 6

_Replace = Callable[[re.Match[str]], str | None]

# Key names whose value is a secret. Strong words may be glued to a prefix (PGPASSWORD,
# dbpassword); weak ones need a separator or a camelCase hump so `bypass=` is left alone.
_STRONG_WORDS = (
    r"secret[_-]?access[_-]?key|(?:api|secret|private|access|auth|signing|encryption|master)"
    r"[_-]?key|apikey|password|passwd|passphrase|secret|token"
)
_NAME = (
    r"(?P<name>[\w.\-]*?(?P<strong>(?i:" + _STRONG_WORDS + r"))"
    r"|(?:[\w.\-]*?[_.\-]|[\w.\-]*?[a-z0-9](?=[A-Z]))?(?P<weak>(?i:pass|pwd)))"
)
_PASSWORD_WORDS = frozenset({"password", "passwd", "passphrase", "pass", "pwd"})

_PATH = re.compile(r"(?:~|\.{1,2})?/[\w.\-]+(?:/[\w.\-]*)+")
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
# A call or subscript: getpass.getpass(...), os.environ[...], SecretStr(...), not `Xy7(kd9!`.
_CALL = re.compile(r"(?:[A-Za-z_]\w*\.)*(?:[a-z_][a-z0-9_]*|(?:[A-Z][a-z]+)+)[(\[]")
_CLASS_NAME = re.compile(r"(?:[A-Z][a-z]+){2,}")
_ALPHA_NAME = re.compile(r"[A-Za-z_]+")
_SECRET_WORD = re.compile(r"(?i:" + _STRONG_WORDS + r"|pass|pwd)")
_LINE_END = re.compile(r"[ \t]*(?:#.*)?\r?")


def redact(text: str) -> tuple[str, int]:
    """Replace every secret in `text` with `[REDACTED:<kind>]`; return the text and the count.

    Only the secret goes: key names, URL schemes, users and hosts stay readable. Running it
    again on its own output finds nothing more.
    """
    total = 0
    for pattern, replace in _rules():
        text, count = _substitute(pattern, replace, text)
        total += count
    return text, total


def _substitute(pattern: re.Pattern[str], replace: _Replace, text: str) -> tuple[str, int]:
    count = 0

    def substitute(match: re.Match[str]) -> str:
        nonlocal count
        replacement = replace(match)
        if replacement is None:
            return match.group(0)
        count += 1
        return replacement

    return pattern.sub(substitute, text), count


def _marker(kind: str) -> str:
    return f"{MARKER_PREFIX}{kind}]"


def _replace_span(match: re.Match[str], start: int, end: int, kind: str) -> str:
    """The match with [start, end) (absolute offsets) replaced by the marker."""
    text = match.string
    return text[match.start() : start] + _marker(kind) + text[end : match.end()]


def _whole(kind: str, check: Callable[[str], bool] | None = None) -> _Replace:
    def replace(match: re.Match[str]) -> str | None:
        if check is not None and not check(match.group(0)):
            return None
        return _marker(kind)

    return replace


def _group(kind: str, group: str, min_chars: int = 1) -> _Replace:
    def replace(match: re.Match[str]) -> str | None:
        if not _is_secret_value(match.group(group), kind, min_chars):
            return None
        return _replace_span(match, *match.span(group), kind)

    return replace


def _has_mixed_case_and_digit(value: str) -> bool:
    return (
        any(c.isdigit() for c in value)
        and any(c.islower() for c in value)
        and any(c.isupper() for c in value)
    )


def _has_letter_and_digit(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _looks_like_secret(value: str) -> bool:
    """Not a plain word: prose after `token:` or `--password` is usually a lowercase word."""
    return not value.isalpha() or (
        any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    )


def _is_secret_value(value: str, kind: str, min_chars: int = MIN_ASSIGNED_SECRET_CHARS) -> bool:
    """False for values that are too short, placeholders, templates, masks or paths."""
    lowered = value.lower()
    return not (
        len(value) < min_chars
        or MARKER_PREFIX in value
        or lowered in PLACEHOLDER_VALUES
        or lowered.startswith(PLACEHOLDER_PREFIXES)
        or value[0] in "$%<{*"  # $VAR, ${VAR}, %(name)s, <password>, {{ var }}, ******
        or "..." in value
        or "…" in value
        or set(lowered) <= set("x*.•#-_ ")
        or (kind != "password" and value.isdigit())
        or _PATH.fullmatch(value) is not None
    )


def _is_code(value: str, following: str) -> bool:
    """True when an unquoted value reads as an expression (os.environ[...], self.token, str)."""
    return (
        following in ("(", "[")
        or _DOTTED_NAME.fullmatch(value) is not None
        or _CALL.match(value) is not None
        or _CLASS_NAME.fullmatch(value) is not None
        or (_ALPHA_NAME.fullmatch(value) is not None and _SECRET_WORD.search(value) is not None)
        or (value.isupper() and _ALPHA_NAME.fullmatch(value) is not None)  # a METAVAR or CONST
    )


def _assignment_kind(name: str, word: str) -> str:
    normalized = word.lower().replace("_", "").replace("-", "")
    if normalized in _PASSWORD_WORDS:
        return "password"
    if normalized == "secretaccesskey" or ("aws" in name.lower() and "secret" in normalized):
        return "aws-secret-key"
    if normalized == "token":
        return "token"
    if normalized == "apikey":
        return "api-key"
    return "secret"


def _word(match: re.Match[str]) -> str:
    return match.group("strong") or match.group("weak")


def _replace_line_assignment(match: re.Match[str]) -> str | None:
    """`KEY=value` or `key: value` at the start of a line: the value runs to the whitespace."""
    group = "value" if match.group("value") is not None else "yaml"
    start, end = match.span(group)
    value = match.group(group).rstrip(",;")
    end = start + len(value)
    kind = _assignment_kind(match.group("name"), _word(match))
    if _is_code(value, "") or not _is_secret_value(value, kind):
        return None
    return _replace_span(match, start, end, kind)


def _replace_assignment(match: re.Match[str]) -> str | None:
    """`key = "value"`, `"key": "value"`, `key: value`, `--key value` anywhere in a line."""
    group = next(g for g in ("escaped", "double", "single", "bare") if match.group(g) is not None)
    start, end = match.span(group)
    value = match.group(group)
    kind = _assignment_kind(match.group("name"), _word(match))
    if group == "bare":
        value = value.rstrip(".")  # a sentence's full stop
        end = start + len(value)
        if not value or _is_code(value, match.string[end : end + 1]):
            return None
        sep = match.group("sep")
        loose = sep.strip() == "" or (":" in sep and "=" not in sep)
        if loose and not (_ends_value(match.string, end) or _looks_like_secret(value)):
            return None
    if not value or not _is_secret_value(value, kind):
        return None
    return _replace_span(match, start, end, kind)


def _ends_value(text: str, end: int) -> bool:
    """A closing quote or bracket, a comma, or the end of the line follows."""
    if text[end : end + 1] in ('"', "'", "`", ",", ";", ")", "}", "]"):
        return True
    line_end = text.find("\n", end)
    return _LINE_END.fullmatch(text, end, len(text) if line_end < 0 else line_end) is not None


def _replace_header(match: re.Match[str]) -> str | None:
    scheme = (match.group("scheme") or "").lower()
    credential = match.group("credential")
    if not scheme and credential.lower() in ("bearer", "basic", "token", "bot", "digest"):
        return None
    kind = {"bearer": "bearer-token", "basic": "basic-auth"}.get(scheme, "auth-token")
    if not _is_secret_value(credential, kind):
        return None
    return _replace_span(match, *match.span("credential"), kind)


def _replace_k8s_env(match: re.Match[str]) -> str | None:
    start, end = match.span("value")
    value = match.group("value")
    if value[:1] in ('"', "'"):
        start, end, value = start + 1, end - 1, value[1:-1]
    kind = _assignment_kind(match.group("name"), _word(match))
    if not _is_secret_value(value, kind):
        return None
    return _replace_span(match, start, end, kind)


# Whole tokens recognised by their prefix and alphabet: (kind, pattern, extra check).
_TOKENS: tuple[tuple[str, str, Callable[[str], bool] | None], ...] = (
    ("aws-access-key", r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])", None),
    ("github-token", r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])", None),
    ("github-token", r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])", None),
    ("gitlab-token", r"(?<![\w-])gl(?:pat|dt|rt|ptt|ft|cbt|oas)-[\w-]{20,255}(?![\w-])", None),
    ("slack-token", r"(?<![\w-])xox[abposre]-[A-Za-z0-9-]{10,250}(?![\w-])", None),
    ("slack-token", r"(?<![\w-])xapp-\d-[A-Za-z0-9-]{10,250}(?![\w-])", None),
    ("anthropic-key", r"(?<![\w-])sk-ant-[\w-]{20,}", None),
    ("openai-key", r"(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[\w-]{20,}", _has_mixed_case_and_digit),
    ("google-api-key", r"(?<![\w-])AIza[\w-]{35}(?![\w-])", None),
    ("google-oauth-token", r"(?<![\w-])ya29\.[\w-]{20,}", None),
    ("stripe-key", r"(?<![A-Za-z0-9_])(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}", None),
    ("stripe-webhook-secret", r"(?<![A-Za-z0-9_])whsec_[A-Za-z0-9]{24,}", None),
    ("npm-token", r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])", None),
    ("pypi-token", r"(?<![\w-])pypi-AgE[\w-]{50,}", None),
    ("huggingface-token", r"(?<![A-Za-z0-9_])hf_[A-Za-z]{34}(?![A-Za-z0-9_])", None),
    ("sendgrid-key", r"(?<![\w-])SG\.[\w-]{22}\.[\w-]{43}(?![\w-])", None),
    ("jwt", r"(?<![\w-])eyJ[\w-]{5,}\.ey[\w-]{5,}\.[\w-]*", None),
)

_PEM_BEGIN = r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----"
_PEM_END = r"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----"
_PEM_BREAK = r"(?:\r?\n|\\n)[ \t]*"  # a newline, or a `\n` escape inside a JSON string
_PEM_LINE = (
    r"(?:[A-Za-z0-9+/=]+(?=[ \t]*(?:\r?\n|\\n|\Z))"
    r"|(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset):[^\n\\]*)"
)
# Either BEGIN ... END on one line (spaces or `\n` escapes), or line by line; a block cut off
# before its END line ends with its last base64 line, not at the end of the text. A BEGIN line
# alone, as in prose about key files, is not a secret.
_PRIVATE_KEY = (
    rf"{_PEM_BEGIN}(?:[A-Za-z0-9+/=\\ \t:,-]{{16,8192}}?{_PEM_END}"
    rf"|(?:(?:{_PEM_BREAK})+{_PEM_LINE})+(?:(?:{_PEM_BREAK})+{_PEM_END})?)"
)
_SLACK_WEBHOOK = r"https://hooks\.slack\.com/(?:services|workflows|triggers)/(?P<path>[\w/-]{10,})"
# scheme://user:password@host: the password may hold `@`, so backtrack to the last one.
_CONNECTION = (
    r"\b[A-Za-z][A-Za-z0-9+.\-]{0,30}://[^:/?#@\s\"'<>\[\]]*:"
    r"(?P<password>[^\s/?#\"'<>`]+)@(?=[\w\[])"
)
_CURL_USER = r"\bcurl\b(?:[ \t]+\S+){0,40}?[ \t]+(?:-u|--user)[ \t=]*[\"']?[^\s:\"'$]+:(?P<password>[^\s\"']+)"
_SQL_PASSWORD = r"(?i:\b(?:password|identified[ \t]+by))[ \t]+'(?P<password>[^'\n]+)'"
_AUTH_HEADER = (
    r"(?i:\b(?:proxy-)?authorization)\\?[\"']?[ \t]*[:=][ \t]*f?\\?[\"']?[ \t]*"
    r"(?:(?P<scheme>(?i:bearer|basic|token|bot))[ \t]+)?(?P<credential>[\w.~+/=\-]+)"
)
_BARE_BEARER = r"(?<![\w-])(?i:bearer)[ \t]+(?P<credential>[\w.~+/\-]{16,}=*)"
_LINE_ASSIGNMENT = (
    r"(?m)^[ \t]*(?:-[ \t]+)?(?:(?:export|set|ENV|ARG)[ \t]+)?" + _NAME + r"[ \t]*"
    r"(?:=[ \t]*(?P<value>[^\s\"'`$<\[{][^\s]*)"
    r"|:[ \t]+(?P<yaml>[^\s\"'`$<\[{*&!|>][^\s]*)(?=[ \t]*(?:\#.*)?\r?$))"
)
_ASSIGNMENT = (
    r"(?<![\w.\-])(?P<kq>(?:\\?[\"'])?)(?P<dash>--)?" + _NAME + r"(?P=kq)"
    r"(?P<sep>(?(dash)(?:[ \t]*=[ \t]*|[ \t]+)"
    r"|(?:[ \t]*(?::[ \t]*[A-Za-z_][\w.\[\]|, ]{0,40}?[ \t]*)?(?:=>|:=|==|=)[ \t]*|[ \t]*:[ \t]*)))"
    r"(?:\\\"(?P<escaped>[^\"\\\n]*)\\\""
    r"|\"(?P<double>(?:[^\"\\\n]|\\.)*)\""
    r"|'(?P<single>[^'\n]*)'"
    r"|(?P<bare>[^\s\"'`,;&(){}\[\]<>]+))"
)
_K8S_ENV = (
    r"\bname:[ \t]*[\"']?" + _NAME + r"[\"']?[ \t]*\r?\n[ \t]*(?:-[ \t]+)?value:[ \t]*"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s#]+)"
)


@cache
def _rules() -> tuple[tuple[re.Pattern[str], _Replace], ...]:
    """Compile on first use, not at import: `mem` starts before every agent launch.

    Order matters: whole blocks and prefixed tokens go first, so the looser key/value rules
    then see a marker (never a secret) and skip it instead of counting it twice.
    """
    rules: list[tuple[str, _Replace]] = [(_PRIVATE_KEY, _whole("private-key"))]
    rules += [(pattern, _whole(kind, check)) for kind, pattern, check in _TOKENS]
    rules += [
        (_SLACK_WEBHOOK, _group("slack-webhook", "path")),
        (_CONNECTION, _group("password", "password")),
        (_CURL_USER, _group("password", "password")),
        (_SQL_PASSWORD, _group("password", "password")),
        (_AUTH_HEADER, _replace_header),
        (_BARE_BEARER, _whole_group_if("bearer-token", "credential", _has_letter_and_digit)),
        (_K8S_ENV, _replace_k8s_env),
        (_LINE_ASSIGNMENT, _replace_line_assignment),
        (_ASSIGNMENT, _replace_assignment),
    ]
    return tuple((re.compile(pattern), replace) for pattern, replace in rules)


def _whole_group_if(kind: str, group: str, check: Callable[[str], bool]) -> _Replace:
    def replace(match: re.Match[str]) -> str | None:
        if not check(match.group(group)):
            return None
        return _replace_span(match, *match.span(group), kind)

    return replace
