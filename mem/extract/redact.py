"""Find secrets in agent output and replace each with a marker that names its kind."""

import re
from collections import Counter
from collections.abc import Callable
from functools import cache

MARKER_PREFIX = "[REDACTED:"
MIN_ASSIGNED_SECRET_CHARS = 6
KEY_NAME_CHARS = 32  # a value this long is a key even when made of words (Django's defaults)

# Values that stand for a secret without being one: documentation, templates, masked output.
# `changeme` is a well-known default, not a secret, and "the default password is changeme" is
# worth remembering. In `user:password@` URLs, curl -u and SQL every word counts, even these.
PLACEHOLDER_VALUES = frozenset(
    {
        "changeme", "change_me", "change-me", "password", "passwd", "secret", "token",
        "api_key", "apikey", "example", "placeholder", "redacted", "dummy", "none", "null",
        "nil", "true", "false", "undefined", "string", "required", "optional", "hidden",
        "masked", "notset", "not-set", "not_set", "bearer", "basic",
    }
)  # fmt: skip
PLACEHOLDER_PREFIXES = (
    "your_", "your-", "<your", "replace_", "replace-", "insert_", "insert-", "enter_", "enter-",
    "example", "placeholder",
)  # fmt: skip

_Replace = Callable[[re.Match[str]], str | None]
EXACT, FOLDED, LINES = "exact", "folded", "lines"  # how a rule's hints are looked for
WORDS = "words"  # hints written as patterns: "aws" as a word, not the "aws" of "flaws"
AWS_WORDS = (r"(?i:\baws\b)", r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b")
_Check = Callable[[str], bool]


def redact(text: str) -> tuple[str, int]:
    """Replace every secret in `text` with `[REDACTED:<kind>]`; return the text and the count.

    Only the secret goes: key names, URL schemes, users and hosts stay readable. Running it
    again on its own output finds nothing more.
    """
    total = 0
    folded = ""  # the text in lower case, for the rules whose hints ignore case
    for hinted, pattern, replace, mode in _rules():
        if mode == LINES:
            # A key/value rule tries every word start; run it on the lines that name a key.
            text, count = _substitute_lines(pattern, replace, text, hinted)
        else:
            if mode == FOLDED:
                folded = folded or text.lower()
                if not hinted.search(folded):
                    continue
            elif not hinted.search(text):
                continue
            text, count = _substitute(pattern, replace, text)
        if count:
            folded = ""
        total += count
    return text, total


# --- patterns -------------------------------------------------------------------------------

# Key names whose value is a secret. Strong words may be glued to a prefix (PGPASSWORD,
# dbpassword); weak ones need a separator or a camelCase hump, so `bypass=` is left alone.
_STRONG_WORDS = (
    r"secret[_-]?access[_-]?key|(?:api|secret|private|access|auth|signing|encryption|master)"
    r"[_-]?key|apikey|password|passwd|passphrase|secret|token"
)
_NAME = (
    rf"(?P<name>[\w.\-]*?(?P<strong>(?i:{_STRONG_WORDS}))"
    r"|(?:[\w.\-]*?[_.\-]|[\w.\-]*?[a-z0-9](?=[A-Z]))?(?P<weak>(?i:pass|pwd)))"
)

# Whole tokens, known by prefix and alphabet: (kind, hints, pattern, check). The pattern runs
# only when one of its hints occurs in the text, which keeps long transcripts cheap.
_TOKENS: tuple[tuple[str, tuple[str, ...], str, _Check | None], ...] = (
    (
        "aws-access-key",
        ("AKIA", "ASIA", "ABIA", "ACCA"),
        r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])",
        None,
    ),
    (
        "github-token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])",
        None,
    ),
    (
        "github-token",
        ("github_pat_",),
        r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])",
        None,
    ),
    (
        "gitlab-token",
        ("glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glcbt-", "gloas-"),
        r"(?<![\w-])gl(?:pat|dt|rt|ptt|ft|cbt|oas)-[\w-]{20,255}(?![\w-])",
        None,
    ),
    ("slack-token", ("xox",), r"(?<![\w-])xox[abposre]-[A-Za-z0-9-]{10,250}(?![\w-])", None),
    ("slack-token", ("xapp-",), r"(?<![\w-])xapp-\d-[A-Za-z0-9-]{10,250}(?![\w-])", None),
    ("anthropic-key", ("sk-ant-",), r"(?<![\w-])sk-ant-[\w-]{20,}", None),
    ("openrouter-key", ("sk-or-",), r"(?<![\w-])sk-or-v\d-[0-9a-f]{64}(?![\w-])", None),
    # `sk-` also starts ordinary hyphenated words, so the body must look random.
    (
        "openai-key",
        ("sk-",),
        r"(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[\w-]{20,}",
        lambda key: _has_digit(key) and _has_lower(key) and _has_upper(key),
    ),
    ("google-api-key", ("AIza",), r"(?<![\w-])AIza[\w-]{35}(?![\w-])", None),
    ("google-oauth-token", ("ya29.",), r"(?<![\w-])ya29\.[\w-]{20,}", None),
    (
        "stripe-key",
        ("_live_", "_test_"),
        r"(?<![A-Za-z0-9_])(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",
        None,
    ),
    ("stripe-webhook-secret", ("whsec_",), r"(?<![A-Za-z0-9_])whsec_[A-Za-z0-9]{24,}", None),
    ("npm-token", ("npm_",), r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])", None),
    ("pypi-token", ("pypi-AgE",), r"(?<![\w-])pypi-AgE[\w-]{50,}", None),
    (
        "huggingface-token",
        ("hf_",),
        r"(?<![A-Za-z0-9_])(?:hf_|api_org_)[A-Za-z0-9]{34,40}(?![A-Za-z0-9_])",
        None,
    ),
    # The providers below follow the census of gitleaks' rules; the shapes are each provider's
    # documented token format, written here from those documents.
    (
        "digitalocean-token",
        ("do_v1_", "dop_v1_", "doo_v1_", "dor_v1_"),
        r"(?<![A-Za-z0-9_])do[opr]?_v1_[a-f0-9]{64}(?![A-Za-z0-9_])",
        None,
    ),
    (
        "shopify-token",
        ("shpat_", "shpca_", "shppa_", "shpss_"),
        r"(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9_])",
        None,
    ),
    (
        "databricks-token",
        ("dapi",),
        r"(?<![A-Za-z0-9_])dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9_])",
        None,
    ),
    (
        "twilio-key",
        ("SK",),
        r"(?<![A-Za-z0-9_])SK[0-9a-fA-F]{32}(?![A-Za-z0-9_])",
        lambda token: _has_letter_and_digit(token),
    ),
    (
        "discord-token",
        ("MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"),  # base64 of a user id's digits
        r"(?<![\w.-])[MNO][A-Za-z\d_-]{23,25}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,38}(?![\w.-])",
        lambda token: _has_letter_and_digit(token),
    ),
    (
        "telegram-bot-token",
        (":AA",),
        r"(?<![\w:])\d{8,10}:AA[0-9A-Za-z_-]{33}(?![\w-])",
        None,
    ),
    ("grafana-token", ("glsa_", "glc_"), r"(?<![\w-])gl(?:sa|c)_[\w+/=-]{32,400}", None),
    ("vault-token", ("hvs.", "hvb."), r"(?<![\w.-])hv[sb]\.[\w-]{90,200}", None),
    (
        "terraform-cloud-token",
        (".atlasv1.",),
        r"(?<![\w-])[a-z0-9]{14}\.atlasv1\.[\w=-]{60,70}(?![\w-])",
        None,
    ),
    (
        "doppler-token",
        ("dp.pt.", "dp.st.", "dp.sa."),
        r"(?<![\w.])dp\.(?:pt|st|sa)\.[\w]{40,44}",
        None,
    ),
    ("linear-key", ("lin_api_",), r"(?<![\w-])lin_api_[A-Za-z0-9]{40}(?![\w-])", None),
    ("postman-key", ("PMAK-",), r"(?<![\w-])PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![\w-])", None),
    ("sentry-token", ("sntrys_", "sntryu_"), r"(?<![\w-])sntry[su]_[\w=+/]{40,}", None),
    ("newrelic-key", ("NRAK-",), r"(?<![\w-])NRAK-[A-Z0-9]{27}(?![\w-])", None),
    ("pulumi-token", ("pul-",), r"(?<![\w-])pul-[a-f0-9]{40}(?![\w-])", None),
    ("supabase-token", ("sbp_",), r"(?<![\w-])sbp_[a-f0-9]{40}(?![\w-])", None),
    ("notion-token", ("ntn_",), r"(?<![\w-])ntn_[A-Za-z0-9]{40,}", None),
    ("square-token", ("sq0atp-", "sq0csp-"), r"(?<![\w-])sq0(?:atp|csp)-[\w-]{22,43}", None),
    (
        "airtable-token",
        ("pat",),
        r"(?<![\w-])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![\w-])",
        None,
    ),
    ("atlassian-token", ("ATATT3",), r"(?<![\w-])ATATT3[\w=-]{40,300}", None),
    ("groq-key", ("gsk_",), r"(?<![\w-])gsk_[A-Za-z0-9]{48,56}(?![\w-])", None),
    (
        "replicate-token",
        ("r8_",),
        r"(?<![\w-])r8_[A-Za-z0-9]{37}(?![\w-])",
        lambda token: _has_letter_and_digit(token[3:]),
    ),
    ("xai-key", ("xai-",), r"(?<![\w-])xai-[A-Za-z0-9]{70,90}(?![\w-])", None),
    ("perplexity-key", ("pplx-",), r"(?<![\w-])pplx-[A-Za-z0-9]{40,56}(?![\w-])", None),
    ("docker-hub-token", ("dckr_pat_",), r"(?<![\w-])dckr_pat_[\w-]{27,}", None),
    ("pinecone-key", ("pcsk_",), r"(?<![\w-])pcsk_[A-Za-z0-9_]{40,}", None),
    ("langsmith-key", ("lsv2_",), r"(?<![\w-])lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}", None),
    ("tavily-key", ("tvly-",), r"(?<![\w-])tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}(?![\w-])", None),
    ("rubygems-key", ("rubygems_",), r"(?<![\w-])rubygems_[0-9a-f]{48}(?![\w-])", None),
    (
        "planetscale-token",
        ("pscale_",),
        r"(?<![\w-])pscale_(?:tkn|pw|oauth)_[\w.=-]{32,64}",
        None,
    ),
    ("prefect-key", ("pnu_",), r"(?<![\w-])pnu_[A-Za-z0-9]{36}(?![\w-])", None),
    ("readme-key", ("rdme_",), r"(?<![\w-])rdme_[a-z0-9]{70}(?![\w-])", None),
    ("contentful-token", ("CFPAT-",), r"(?<![\w-])CFPAT-[\w-]{43}(?![\w-])", None),
    ("dynatrace-token", ("dt0c01.",), r"(?<![\w.-])dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}", None),
    ("easypost-key", ("EZAK", "EZTK"), r"(?<![\w-])EZ[AT]K[A-Za-z0-9]{54}(?![\w-])", None),
    (
        "shippo-token",
        ("shippo_live_", "shippo_test_"),
        r"(?<![\w-])shippo_(?:live|test)_[0-9a-f]{40}",
        None,
    ),
    ("flutterwave-key", ("FLWSECK",), r"(?<![\w-])FLWSECK(?:_TEST)?-[0-9a-f]{32}-X", None),
    ("razorpay-key", ("rzp_",), r"(?<![\w-])rzp_(?:live|test)_[A-Za-z0-9]{14}(?![\w-])", None),
    ("dropbox-token", ("sl.",), r"(?<![\w.-])sl\.[A-Za-z0-9_-]{130,}", None),
    ("bitbucket-app-password", ("ATBB",), r"(?<![\w-])ATBB[A-Za-z0-9]{32}(?![\w-])", None),
    ("netlify-token", ("nfp_",), r"(?<![\w-])nfp_[A-Za-z0-9]{36}(?![\w-])", None),
    ("render-key", ("rnd_",), r"(?<![\w-])rnd_[A-Za-z0-9]{32}(?![\w-])", None),
    (
        "azure-client-secret",
        ("Q~",),
        r"(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])",
        None,
    ),
    (
        "alibaba-access-key",
        ("LTAI",),
        r"(?<![\w-])LTAI[A-Za-z0-9]{20}(?![\w-])",
        lambda key: _has_letter_and_digit(key[4:]),
    ),
    (
        "braintree-token",
        ("access_token$",),
        r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}",
        None,
    ),
    ("facebook-token", ("EAA",), r"(?<![\w-])EAA[A-Za-z0-9]{100,}(?![\w-])", None),
    ("fly-token", ("fo1_",), r"(?<![\w-])fo1_[\w-]{43}(?![\w-])", None),
    ("heroku-key", ("HRKU-",), r"(?<![\w-])HRKU-[\w-]{60}(?![\w-])", None),
    (
        "age-secret-key",
        ("AGE-SECRET-KEY-1",),
        r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        None,
    ),
    (
        "mailchimp-key",
        ("-us",),
        r"(?<![\w-])[0-9a-f]{32}-us\d{1,2}(?![\w-])",
        None,
    ),
    ("sendgrid-key", ("SG.",), r"(?<![\w-])SG\.[\w-]{22}\.[\w-]{43}(?![\w-])", None),
    ("jwt", ("eyJ",), r"(?<![\w-])eyJ[\w-]{5,}\.ey[\w-]{5,}\.[\w-]*", None),
)

_PEM_BEGIN = r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----"
_PEM_END = r"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----"
_PEM_BREAK = r"(?:\r?\n|\\n)[ \t]*"  # a newline, or a `\n` escape inside a JSON string
_PEM_LINE = (
    r"(?:[A-Za-z0-9+/=]+(?=[ \t]*(?:\r?\n|\\n|\Z))"
    r"|(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset):[^\n\\]*)"
)
# BEGIN ... END on one line (spaces or `\n` escapes), or line by line. A block cut off before
# its END line ends at its last base64 line, not at the end of the text; a BEGIN line alone,
# as in prose about key files, is no secret.
_PRIVATE_KEY = (
    rf"{_PEM_BEGIN}(?:[A-Za-z0-9+/=\\ \t:,-]{{16,8192}}?{_PEM_END}"
    rf"|(?:(?:{_PEM_BREAK})+{_PEM_LINE})+(?:(?:{_PEM_BREAK})+{_PEM_END})?)"
)
_SLACK_WEBHOOK = (
    r"https://hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[\w/-]{10,})"
)
_DISCORD_WEBHOOK = (
    r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/(?P<secret>[\w-]{40,})"
)
# An Azure storage connection string: `…;AccountName=x;AccountKey=<base64>;EndpointSuffix=…`.
_AZURE_ACCOUNT_KEY = r"(?i:\b(?:Account|Shared)Key)=(?P<secret>[A-Za-z0-9+/]{40,}={0,2})"
# scheme://user:password@host; a password may hold `@`, so backtrack to the last one.
_CONNECTION = (
    r"\b[A-Za-z][A-Za-z0-9+.\-]{0,30}://[^:/?#@\s\"'<>\[\]]*:"
    r"(?P<secret>[^\s/?#\"'<>`]+)@(?=[\w\[])"
)
_CURL_USER = (
    r"\bcurl\b(?:[ \t]+\S+){0,40}?[ \t]+(?:-u|--user)[ \t=]*[\"']?[^\s:\"'$]+:"
    r"(?P<secret>[^\s\"']+)"
)
_SQL_PASSWORD = r"(?i:\b(?:password|identified[ \t]+by))[ \t]+'(?P<secret>[^'\n]+)'"
# `mysql -u root -pS3cret`: the password glued to `-p` (a space after it would be a prompt),
# among the options right after the command (each with its value): a line that merely names
# mysql (`install mysql and gcc -pthread`, `docker run --name mysql -p3306:3306`) holds no
# password, and a long line costs no scan from every "mysql" in it.
_MYSQL_PASSWORD = (
    r"(?<![\w./-])(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)"
    r"(?:[ \t]+(?:-[^p\s-]\S*|--\S+)(?:[ \t]+[^\s-]\S*)?){0,8}"
    r"[ \t]+-p(?P<secret>(?!\d+:\d)[^\s\"'`-][^\s\"'`]*)"
)
# A Sentry DSN: https://<public key>[:<secret key>]@o123.ingest.sentry.io/456.
_SENTRY_DSN = (
    r"\bhttps?://(?P<secret>[0-9a-f]{32}(?::[0-9a-f]{32})?)@[\w.-]*sentry[\w.-]*(?::\d+)?/\d+"
)
# A Google service account's key file: the key's id beside the key itself.
_KEY_ID = r"\\?\"private_key_id\\?\"[ \t]*:[ \t]*\\?\"(?P<secret>[0-9a-f]{40})\\?\""
# An AWS secret access key with no label before it (pasted after its key id, in a CSV of
# credentials): 40 characters of base64, run only where the text speaks of AWS.
_AWS_SECRET = r"(?<![\w/+=.\-])(?P<secret>[A-Za-z0-9/+]{40})(?![\w/+=]|\.\w)"
# Mailgun's older keys: `key-` and 32 hex digits, which is also how a cache key built from an
# MD5 looks, so only on a line that names Mailgun.
_MAILGUN_KEY = r"(?<![\w-])key-[0-9a-f]{32}(?![\w-])"
# "The admin password is hunter2!": a password told in prose; the value must not read as a
# word ("the password is required"), so only values with digits, symbols or inner capitals.
_PROSE_PASSWORD = (
    r"(?i:\b(?:password|passphrase|passwd|passcode)\b(?:[ \t]+(?:for|of)[ \t]+[\w@.\-]+)?"
    r"(?:,?[ \t]+(?:which|that))?"  # "the admin password, which is …"
    r"[ \t]+(?:is|was|=|:|(?:is[ \t]+)?(?:now|still|set[ \t]+to)|will[ \t]+be)[ \t]+)"
    r"[\"'`]?(?P<secret>[^\s\"'`]+)"
)
_AUTH_HEADER = (
    r"(?i:\b(?:proxy-)?authorization)\\?[\"']?[ \t]*[:=][ \t]*f?\\?[\"']?[ \t]*"
    r"(?:(?P<scheme>(?i:bearer|basic|token|bot))[ \t]+)?(?P<credential>[\w.~+/=\-]+)"
)
_BARE_BEARER = r"(?<![\w-])(?i:bearer)[ \t]+(?P<secret>[\w.~+/\-]{16,}=*)"
_K8S_ENV = (
    rf"\bname:[ \t]*[\"']?{_NAME}[\"']?[ \t]*\r?\n[ \t]*(?:-[ \t]+)?value:[ \t]*"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s#]+)"
)
# KEY=value (.env, shell, Dockerfile) or `key: value` (YAML) at the start of a line: the value
# runs to the next whitespace, so symbols in generated passwords do not cut it short.
_LINE_ASSIGNMENT = (
    rf"(?m)^[ \t]*(?:-[ \t]+)?(?:(?:export|set|ENV|ARG)[ \t]+)?{_NAME}[ \t]*"
    r"(?:=[ \t]*(?P<value>[^\s\"'`$<\[{(][^\s]*)"
    r"|:[ \t]+(?P<yaml>[^\s\"'`$<\[{*&!|>][^\s]*)(?=[ \t]*(?:\#.*)?\r?$))"
)
# Anywhere in a line: key = "value", "key": "value", key: value, --key value, --key=value.
_ASSIGNMENT = (
    rf"(?<![\w.\-])(?P<kq>(?:\\?[\"'])?)(?P<dash>--)?{_NAME}(?P=kq)"
    r"(?P<sep>(?(dash)(?:[ \t]*=[ \t]*|[ \t]+)"
    r"|(?:[ \t]*(?::[ \t]*[A-Za-z_][\w.\[\]|, ]{0,40}?[ \t]*)?(?:=>|:=|=)[ \t]*|[ \t]*:[ \t]*)))"
    r"(?:\\\"(?P<escaped>[^\"\\\n]*)\\\""
    r"|\"(?P<double>(?:[^\"\\\n]|\\.)*)\""
    r"|'(?P<single>[^'\n]*)'"
    r"|(?P<bare>[^\s\"'`,;&(){}\[\]<>]+))"
)

_PATH = r"(?:~|\.{1,2})?/[\w.\-]+(?:/[\w.\-]*)+"
_DOTTED_NAME = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"
# A call or subscript: getpass.getpass(...), os.environ[...], SecretStr(...), but not `Xy7(k`.
_CALL = r"(?:[A-Za-z_]\w*\.)*(?:[a-z_][a-z0-9_]*|(?:[A-Z][a-z]+)+)[(\[]"
_BRACKETED = r"[A-Za-z_][\w.]*[(\[].*[)\]]"
# Names of variables and classes (snake_case, camelCase, Capitalized), f"..." and r'...'.
_IDENTIFIER = (
    r"[a-z]+(?:_[a-z]+)+|[a-z]+(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]+)+|[rRbBuUfF]{1,2}[\"'].*"
    r"|![A-Za-z]+"  # a YAML tag: !vault, !Ref, !ENV
)
_LETTERS = r"[A-Za-z_]+"
_HEX_COLOUR = r"#[0-9a-fA-F]{3,8}"
_SECRET_WORD = rf"(?i:{_STRONG_WORDS}|pass|pwd)"
# Every key name a key/value rule recognises holds one of these, in any case.
_KEY_WORDS = ("pass", "pwd", "secret", "token", "key")
_LINE_END = r"[ \t]*(?:#|\r?(?:\n|\Z))"  # the end of the line, or a comment
_PASSWORD_WORDS = frozenset({"password", "passwd", "passphrase", "pass", "pwd"})


@cache
def _rules() -> tuple[tuple[re.Pattern[str], re.Pattern[str], _Replace, str], ...]:
    """Compile on first use, not at import: `mem` starts before every agent launch.

    Order matters: blocks and prefixed tokens go first, so the looser key/value rules then
    find a marker where the secret was, and skip it instead of counting it twice.
    """
    # Hints in lower case are looked for in the text in lower case. Key/value rules run line
    # by line, on the lines that hold one of their key words (every match sits on one line).
    # Hints are looked for as written (EXACT), or in the text in lower case (FOLDED); key/value
    # rules run line by line, on the lines that hold one of their key words (LINES).
    rules: list[tuple[tuple[str, ...], str, _Replace, str]] = [
        (("PRIVATE KEY",), _PRIVATE_KEY, _whole("private-key"), EXACT),
        *((hints, pattern, _whole(kind, check), EXACT) for kind, hints, pattern, check in _TOKENS),
        (("hooks.slack.com",), _SLACK_WEBHOOK, _secret_group("slack-webhook"), EXACT),
        (("/api/webhooks/",), _DISCORD_WEBHOOK, _secret_group("discord-webhook"), EXACT),
        (
            ("accountkey", "sharedkey"),
            _AZURE_ACCOUNT_KEY,
            _secret_group("azure-storage-key"),
            FOLDED,
        ),
        (("://",), _CONNECTION, _secret_group("password", is_literal=True), EXACT),
        (("curl",), _CURL_USER, _secret_group("password", is_literal=True), EXACT),
        (
            ("password", "identified"),
            _SQL_PASSWORD,
            _secret_group("password", is_literal=True),
            FOLDED,
        ),
        (("mysql", "mariadb"), _MYSQL_PASSWORD, _secret_group("password", is_literal=True), EXACT),
        (("sentry",), _SENTRY_DSN, _secret_group("sentry-dsn"), EXACT),
        (("private_key_id",), _KEY_ID, _secret_group("gcp-private-key-id"), EXACT),
        (AWS_WORDS, _AWS_SECRET, _secret_group("aws-secret-key", _aws_like), WORDS),
        (("mailgun",), _MAILGUN_KEY, _whole("mailgun-key"), LINES),
        (("authorization",), _AUTH_HEADER, _replace_header, FOLDED),
        (
            ("bearer",),
            _BARE_BEARER,
            _secret_group("bearer-token", check=_has_letter_and_digit),
            FOLDED,
        ),
        (("name:",), _K8S_ENV, _replace_k8s_env, EXACT),
        (_KEY_WORDS, _LINE_ASSIGNMENT, _replace_line_assignment, LINES),
        (_KEY_WORDS, _ASSIGNMENT, _replace_assignment, LINES),
        (
            ("password", "passphrase", "passwd", "passcode"),
            _PROSE_PASSWORD,
            _replace_prose_password,
            FOLDED,
        ),
    ]
    # Each rule's hints as one pattern: a single scan of the text tells whether any occurs.
    return tuple(
        (
            re.compile("|".join(hints)) if mode == WORDS else _any_of(hints),
            re.compile(pattern),
            replace,
            mode,
        )
        for hints, pattern, replace, mode in rules
    )


def _any_of(hints: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern found where any of `hints` is; with none, found everywhere."""
    return re.compile("|".join(re.escape(hint) for hint in hints))


# --- replacing ------------------------------------------------------------------------------


def _substitute_lines(
    pattern: re.Pattern[str], replace: _Replace, text: str, words: re.Pattern[str]
) -> tuple[str, int]:
    """`_substitute` on the lines where `words` (in lower case) is found in the line in lower
    case; others stay as they are."""
    folded = text.lower()
    if not words.search(folded):
        return text, 0
    # Only a newline ends a line for these rules: a stray `\r` or `\f` may sit inside a value.
    # Lowering case keeps every newline where it was, so the folded text's lines are the lines'.
    lines = text.split("\n")
    folded_lines = folded.split("\n")
    total = 0
    for number, line in enumerate(lines):
        if words.search(folded_lines[number]):
            lines[number], count = _substitute(pattern, replace, line)
            total += count
    return ("\n".join(lines), total) if total else (text, 0)


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


def marked_kinds(text: str) -> Counter[str]:
    """How many markers of each kind the text holds (compiled on first use, as the rules)."""
    return Counter(re.findall(re.escape(MARKER_PREFIX) + r"([a-z0-9-]+)\]", text))


def _replace_span(match: re.Match[str], start: int, end: int, kind: str) -> str:
    """The matched text with [start, end) (offsets in the whole text) replaced by a marker."""
    text = match.string
    return text[match.start() : start] + _marker(kind) + text[end : match.end()]


def _whole(kind: str, check: _Check | None = None) -> _Replace:
    def replace(match: re.Match[str]) -> str | None:
        if check is not None and not check(match.group(0)):
            return None
        return _marker(kind)

    return replace


def _secret_group(kind: str, check: _Check | None = None, is_literal: bool = False) -> _Replace:
    """Replace the `secret` group; `is_literal` for `user:password@`, where any word counts."""
    min_chars = 1 if is_literal else MIN_ASSIGNED_SECRET_CHARS

    def replace(match: re.Match[str]) -> str | None:
        value = match.group("secret")
        if not _is_secret_value(value, kind, min_chars, skip_placeholder_words=not is_literal):
            return None
        if check is not None and not check(value):
            return None
        return _replace_span(match, *match.span("secret"), kind)

    return replace


def _replace_prose_password(match: re.Match[str]) -> str | None:
    """The value after "password is": only where it ends its clause (the end of a line, its
    own full stop or comma, or a new sentence after it), so "the password is stored in
    Vault" or "is case-sensitive" keep their words; a clause's stop is no part of it."""
    start, end = match.span("secret")
    value = match.group("secret").rstrip(".,;:?)")
    after = match.string[end : end + 3]
    ended = value != match.group("secret") or re.match(
        r"[\"'`]|[ \t]*(?:$|\r?\n|[ \t]+[A-Z])", after
    )
    if not ended or not _is_secret_value(value, "password") or not _told_password(value):
        return None
    if _is_code(value, following=after[:1]) or value.endswith(("(", "[")):
        return None  # `password = getpass.getpass("…")`: an expression, not a value
    return _replace_span(match, start, start + len(value), "password")


def _replace_header(match: re.Match[str]) -> str | None:
    scheme = (match.group("scheme") or "").lower()
    credential = match.group("credential")
    if not scheme and credential.lower() in ("bearer", "basic", "token", "bot", "digest"):
        return None  # the real credential was a $VARIABLE or is already redacted
    kind = {"bearer": "bearer-token", "basic": "basic-auth"}.get(scheme, "auth-token")
    if not _is_secret_value(credential, kind):
        return None
    return _replace_span(match, *match.span("credential"), kind)


def _replace_k8s_env(match: re.Match[str]) -> str | None:
    start, end = match.span("value")
    value = match.group("value")
    if value[:1] in ('"', "'"):
        start, end, value = start + 1, end - 1, value[1:-1]
    kind = _assignment_kind(match)
    if not value or not _is_secret_value(value, kind):
        return None
    return _replace_span(match, start, end, kind)


def _replace_line_assignment(match: re.Match[str]) -> str | None:
    group = "value" if match.group("value") is not None else "yaml"
    start = match.start(group)
    value = match.group(group)
    if group == "yaml" and value.endswith(","):
        return None  # `key: name,` is an entry of a dict in code, not YAML
    value = value.rstrip(",;")
    kind = _assignment_kind(match)
    if _is_code(value, following="") or not _is_secret_value(value, kind):
        return None
    if not _could_be_key(value, kind):
        return None
    return _replace_span(match, start, start + len(value), kind)


def _replace_assignment(match: re.Match[str]) -> str | None:
    group = next(g for g in ("escaped", "double", "single", "bare") if match.group(g) is not None)
    start, end = match.span(group)
    value = match.group(group)
    kind = _assignment_kind(match)
    if match.group("name") == "PASS" and ":" in match.group("sep"):
        return None  # a test runner's verdict: "--- PASS: TestStoreTTLExpiry (0.01s)"
    if group == "bare":
        value = value.rstrip(".:")  # a sentence's full stop, `if token == other:`
        end = start + len(value)
        if not value or _is_code(value, following=match.string[end : end + 1]):
            return None
        # After `--key ` or `key:` prose is as likely as a value: take a plain word after a
        # flag never, after a colon only when nothing follows it on the line, as in YAML.
        sep = match.group("sep")
        if sep.strip() == "" and not _looks_random(value):
            return None
        is_colon = ":" in sep and "=" not in sep
        if is_colon and not (_ends_value(match.string, end) or _looks_random(value)):
            return None
    if not value or not _is_secret_value(value, kind) or not _could_be_key(value, kind):
        return None
    return _replace_span(match, start, end, kind)


# --- judging values -------------------------------------------------------------------------


def _assignment_kind(match: re.Match[str]) -> str:
    word = match.group("strong") or match.group("weak")
    normalized = word.lower().replace("_", "").replace("-", "")
    if normalized in _PASSWORD_WORDS:
        return "password"
    if normalized == "secretaccesskey" or (
        "aws" in match.group("name").lower() and "secret" in normalized
    ):
        return "aws-secret-key"
    if normalized == "token":
        return "token"
    if normalized == "apikey":
        return "api-key"
    return "secret"


def _is_secret_value(
    value: str,
    kind: str,
    min_chars: int = MIN_ASSIGNED_SECRET_CHARS,
    skip_placeholder_words: bool = True,
) -> bool:
    """False for values too short to matter, placeholders, templates, masks and paths."""
    lowered = value.lower()
    return not (
        len(value) < min_chars
        or MARKER_PREFIX in value
        or (skip_placeholder_words and lowered in PLACEHOLDER_VALUES)
        or (skip_placeholder_words and lowered.startswith(PLACEHOLDER_PREFIXES))
        or value[0] in "$<{"  # $VAR, ${VAR}, $(cmd), <password>, {{ var }}, {password}
        or lowered.startswith(("%(", "%{", "%s"))
        or (len(value) > 2 and value[0] == value[-1] == "%")  # %PASSWORD% on Windows
        or "..." in value
        or "…" in value
        or set(lowered) <= set("x*.•#-_ ")  # ********, xxxxxxxx
        or (kind != "password" and value.isdigit())
        or re.fullmatch(_PATH, value) is not None
        or re.fullmatch(_HEX_COLOUR, value) is not None
    )


def _could_be_key(value: str, kind: str) -> bool:
    """A password may be a word; a key or token is random or long, not a name such as
    `proxy-mode`, `test-key` or a permission (`id-token: write`)."""
    if kind == "password" or len(value) >= KEY_NAME_CHARS:
        return True
    return not re.fullmatch(r"[a-z]+(?:[-_.][a-z]+)*", value)


def _aws_like(value: str) -> bool:
    """Forty characters that read as base64 of random bytes: not hex (a commit), not a path."""
    return (
        _has_digit(value)
        and _has_lower(value)
        and _has_upper(value)
        and value.count("/") < 3
        and not re.fullmatch(r"[0-9a-fA-F]+", value)
    )


def _is_code(value: str, following: str) -> bool:
    """True when an unquoted value reads as an expression: os.environ[...], self.token, str."""
    return (
        following in ("(", "[")
        or re.fullmatch(_DOTTED_NAME, value) is not None
        or value.startswith("(")
        or re.match(_CALL, value) is not None
        or re.fullmatch(_BRACKETED, value) is not None
        or re.fullmatch(_IDENTIFIER, value) is not None
        or (
            re.fullmatch(_LETTERS, value) is not None and re.search(_SECRET_WORD, value) is not None
        )
        or (value.isupper() and re.fullmatch(_LETTERS, value) is not None)  # a METAVAR or CONSTANT
    )


def _ends_value(text: str, end: int) -> bool:
    """A closing quote, the end of the line or a comment follows."""
    if text[end : end + 1] in ('"', "'", "`"):
        return True
    return re.compile(_LINE_END).match(text, end) is not None


def _told_password(value: str) -> bool:
    """A value prose gives as a password: not a word, nor words joined by hyphens
    ("case-sensitive", "auto-generated", "SHA-256"), nor a bracketed aside ("(re)set")."""
    if re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z0-9]+)*|\(?[a-z]+\)[a-z]*", value):
        return False
    return _looks_random(value)


def _looks_random(value: str) -> bool:
    """Anything but a plain word: digits, symbols, or capitals after the first letter."""
    return not value.isalpha() or (_has_upper(value[1:]) and _has_lower(value))


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


def _has_lower(value: str) -> bool:
    return any(c.islower() for c in value)


def _has_upper(value: str) -> bool:
    return any(c.isupper() for c in value)


def _has_letter_and_digit(value: str) -> bool:
    return _has_digit(value) and any(c.isalpha() for c in value)
