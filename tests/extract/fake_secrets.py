"""Invented secrets of real shapes in realistic surroundings, for every test of redaction.

Every value here was generated at random for these tests; none of them was ever issued.
Import with `from .fake_secrets import FAKE_SECRETS` inside tests/extract, or
`from extract.fake_secrets import FAKE_SECRETS` from another test folder (tests/ is on sys.path).
"""

from __future__ import annotations

from typing import NamedTuple


class FakeSecret(NamedTuple):
    name: str  # a test id
    kind: str  # redact() should leave `[REDACTED:<kind>]`
    secret: str  # must not survive redaction
    text: str  # the secret once, embedded in realistic surroundings
    keep: tuple[str, ...]  # surrounding text that must survive (key names, schemes, hosts)


def _case(name: str, kind: str, secret: str, template: str, *keep: str) -> FakeSecret:
    assert template.count("{secret}") == 1, name
    return FakeSecret(name, kind, secret, template.replace("{secret}", secret), keep)


_PEM_LINES = (
    "s3dZ01ui0kqjzBkloZz6YU5E2X4fHpFPNXiVTOeFLkeZvx/1gZITqU9Z3iwYhbqs",
    "+MC7tKSiSZEdOCObjyB2bpgWCQqqLUWpbF4XT8iwunifK4agz0XbhLFZCVz4/jmq",
    "W8whRBT8f+ETnNedi+pkUShKYT+ym6X2btq1ZG77Ih0T/+HXLBLJVukQnOofofTH",
    "CPUaCm3TC5cPanGD9IrZ4YxkTSlIl5/+cxd5wWk/79hWsUR5894cETjvNHny5uWX",
    "emtZMuAJ0hxZSCpymt3l4hjUVpypjtNNBT0jwbyW2VYCV5l2bxRzmha7O1A+sBiV",
    "GffWBrqr5lLoaHS8t57cLX1Skyg6WpU9f6enWjGwvZoxenlcylITM6hchJQMxF5G",
)


def _pem(label: str, first: str, lines: int = 4, indent: str = "", end: bool = True) -> str:
    body = [first + _PEM_LINES[0][len(first) :], *_PEM_LINES[1:lines]]
    block = [f"-----BEGIN {label}-----", *body]
    if end:
        block.append(f"-----END {label}-----")
    return ("\n" + indent).join(block)


_JWT_HS256 = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiJ1Xzg4NDEyMDciLCJvcmciOiJhY21lLWxvZ2lzdGljcyIsImlhdCI6MTcxODA5MDMxMiwiZXhwIjoxNz"
    "E4MDkzOTEyfQ.vfWXTKTiVQ47qsxG72VnY6wGD4tylc_Y3oLOr0GlsP5"
)
_JWT_RS256 = (
    "eyJhbGciOiJSUzI1NiIsImtpZCI6Imt1MXFrdm13bmZzIiwidHlwIjoiSldUIn0"
    ".eyJpc3MiOiJodHRwczovL2xvZ2luLm5vcnRod2luZC1hcHBzLmlvLyIsImF1ZCI6ImFwaTovL29yZGVycyIsInN1Yi"
    "I6IjlmNmMyZCIsImVtYWlsIjoiZGFuYS5yZXllc0Bub3J0aHdpbmQtYXBwcy5pbyIsImV4cCI6MTcxODEwMDAwMH0"
    ".Xv5Zzjhe3p1g1aKfux6fX1L3dd4u2dDGqt1NvVeIWmQmcVFzbjcoP95wL0rKA53zmg7srxirfu19Ac_kKd2Lq1D595WX"
    "jjOt6v3rzKE4RNo88yLVvlwEpgnR74KLO10yZ2ChVIHNaQzlMKYdILjCZO4uEHrIxdNb9UixrXkOKKjOwTTozqvCnAKjsm"
)

FAKE_SECRETS: list[FakeSecret] = [
    # --- private key blocks -------------------------------------------------------------------
    _case(
        "rsa-private-key-cat",
        "private-key",
        _pem("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", lines=6),
        "$ cat deploy/keys/id_rsa\n{secret}\n$ chmod 600 deploy/keys/id_rsa\n",
        "$ cat deploy/keys/id_rsa\n",
        "\n$ chmod 600 deploy/keys/id_rsa",
    ),
    _case(
        "openssh-private-key-python",
        "private-key",
        _pem("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"),
        'DEPLOY_KEY = """\n{secret}\n"""\nkey = paramiko.Ed25519Key.from_private_key(io.StringIO(DEPLOY_KEY))',
        'DEPLOY_KEY = """',
        "paramiko.Ed25519Key.from_private_key",
    ),
    _case(
        "ec-private-key-k8s-secret",
        "private-key",
        _pem("EC PRIVATE KEY", "MHcCAQEEIB", lines=3, indent="    "),
        "kind: Secret\ntype: kubernetes.io/tls\nstringData:\n  tls.key: |\n    {secret}\n"
        "  tls.crt: managed by cert-manager\n",
        "  tls.key: |\n",
        "tls.crt: managed by cert-manager",
    ),
    _case(
        "pgp-private-key-block",
        "private-key",
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: release signing key\n\n"
        + "\n".join(_PEM_LINES[:5])
        + "\n=Xk3q\n-----END PGP PRIVATE KEY BLOCK-----",
        "Exported the release key:\n{secret}\nImport it with `gpg --import release.asc`.",
        "Exported the release key:",
        "gpg --import release.asc",
    ),
    _case(
        "encrypted-private-key-json-escaped",
        "private-key",
        _pem("ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQww").replace(
            "\n", "\\n"
        ),
        '{"type": "service_account", "private_key": "{secret}\\n", '
        '"client_email": "ci-deployer@northwind-prod.iam.gserviceaccount.com"}',
        '"private_key": "',
        '"client_email": "ci-deployer@northwind-prod.iam.gserviceaccount.com"',
    ),
    _case(
        "private-key-cut-off-at-end",
        "private-key",
        _pem("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", lines=5, end=False),
        "Read config/ssl/server.key (first 6 lines):\n{secret}",
        "Read config/ssl/server.key (first 6 lines):\n",
    ),
    # --- cloud and SaaS tokens ------------------------------------------------------------------
    _case(
        "aws-access-key-id-log",
        "aws-access-key",
        "AKIAVQJXXVBOTHD0WTFL",
        "2024-06-11T09:12:44Z ERROR botocore: An error occurred (InvalidClientTokenId) when "
        "calling the GetCallerIdentity operation: The security token included in the request "
        "is invalid. AccessKeyId={secret} region=eu-west-1",
        "(InvalidClientTokenId)",
        "AccessKeyId=",
        "region=eu-west-1",
    ),
    _case(
        "aws-temporary-key-id-sts-json",
        "aws-access-key",
        "ASIAHBMUAPTT0ZN3X0PD",
        '{\n    "Credentials": {\n        "AccessKeyId": "{secret}",\n'
        '        "Expiration": "2024-06-11T10:12:44+00:00"\n    }\n}',
        '"AccessKeyId": "',
        '"Expiration": "2024-06-11T10:12:44+00:00"',
    ),
    _case(
        "aws-secret-access-key-credentials-file",
        "aws-secret-key",
        "HrlEOS47WgjKCu/0xxKhg5QjWV1mKaUyvBPs0jSO",
        "[profile ci]\nregion = eu-west-1\naws_secret_access_key = {secret}\noutput = json\n",
        "aws_secret_access_key = ",
        "region = eu-west-1",
        "output = json",
    ),
    _case(
        "aws-secret-access-key-sts-json",
        "aws-secret-key",
        "QfT4vXpR8sJ2mK9wLz6bN3cY7hA1dE5gU0iO/Prs",
        '        "SecretAccessKey": "{secret}",\n        "Expiration": "2024-06-11T10:12:44Z"',
        '"SecretAccessKey": "',
        '"Expiration"',
    ),
    _case(
        "github-classic-pat-in-remote-url",
        "github-token",
        "ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR",
        "$ git remote -v\norigin\thttps://{secret}@github.com/acme/payments.git (fetch)",
        "origin\thttps://",
        "@github.com/acme/payments.git (fetch)",
    ),
    _case(
        "github-oauth-token-gh-hosts-yaml",
        "github-token",
        "gho_mXBYQ0DVbpag1xYKiuMw7TpHD8BHbNdZU0NY",
        "github.com:\n    user: dana-reyes\n    oauth_token: {secret}\n    git_protocol: https\n",
        "oauth_token: ",
        "user: dana-reyes",
        "git_protocol: https",
    ),
    _case(
        "github-fine-grained-pat-curl",
        "github-token",
        "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",
        'curl -sS -H "Authorization: token {secret}" https://api.github.com/user/repos',
        'curl -sS -H "Authorization: token ',
        '" https://api.github.com/user/repos',
    ),
    _case(
        "github-app-token-actions-log",
        "github-token",
        "ghs_J2gClNbc7Hrd0APsmYaUSRCsllZq3ZycZOkN",
        "Run actions/checkout@v4\n  with:\n    repository: acme/payments\n    token: {secret}\n"
        "    persist-credentials: true\n",
        "    token: ",
        "persist-credentials: true",
    ),
    _case(
        "gitlab-pat-in-clone-url",
        "gitlab-token",
        "glpat-m7aSz7NRSOtv75y4SXvE",
        "$ git clone https://oauth2:{secret}@gitlab.com/acme/infra/terraform.git\n"
        "Cloning into 'terraform'...",
        "git clone https://oauth2:",
        "@gitlab.com/acme/infra/terraform.git",
    ),
    _case(
        "slack-bot-token-python",
        "slack-token",
        "xoxb-722403280997-0701343067145-XQIChPnlnhG2BqxLHmAuMe57",
        'from slack_sdk import WebClient\n\nclient = WebClient(token="{secret}")\n'
        'client.chat_postMessage(channel="#deploys", text="done")',
        'client = WebClient(token="',
        'channel="#deploys"',
    ),
    _case(
        "slack-user-token-env",
        "slack-token",
        "xoxp-285281542375-180783752346-3202687496510-1e0c0d1a0dc00f0e71a714a16e81c1aa",
        "SLACK_CHANNEL=#ops-alerts\nSLACK_USER_TOKEN={secret}\n",
        "SLACK_USER_TOKEN=",
        "SLACK_CHANNEL=#ops-alerts",
    ),
    _case(
        "slack-webhook-url-curl",
        "slack-webhook",
        "T1FGM1HD8/B035BXT1ETS/hRQNG3dhi4wVnX558GkvxThv",
        "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"Deploy finished\"}' "
        "https://hooks.slack.com/services/{secret}",
        "https://hooks.slack.com/services/",
        "Deploy finished",
    ),
    _case(
        "openai-legacy-key-traceback",
        "openai-key",
        "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",
        "Traceback (most recent call last):\n"
        '  File "/srv/app/summarize.py", line 41, in <module>\n'
        '    resp = client.chat.completions.create(model="gpt-4o", messages=msgs)\n'
        "openai.AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key "
        "provided: {secret}. You can find your API key at https://platform.openai.com/account/"
        "api-keys.', 'type': 'invalid_request_error', 'code': 'invalid_api_key'}}",
        "Incorrect API key provided: ",
        'File "/srv/app/summarize.py", line 41',
        "'code': 'invalid_api_key'",
    ),
    _case(
        "openai-project-key-env",
        "openai-key",
        "sk-proj-AeSsUfFgUl8oPK-HJN45P_ED75cNRqsKz5b70CO8W7RQHy2Yp-ptzsJqLOJqu3g9DYpQaxEN-cT3Blbk"
        "FJNljiRkV71kDRuIr2jhTxs-OHKDpnJh_rgiOaPq_N9RtlnnudSkpmKog0Qwp_vaQcT7xl2cwC6d",
        "# .env.local\nOPENAI_API_KEY={secret}\nOPENAI_MODEL=gpt-4o-mini\n",
        "OPENAI_API_KEY=",
        "OPENAI_MODEL=gpt-4o-mini",
    ),
    _case(
        "anthropic-key-shell-export",
        "anthropic-key",
        "sk-ant-api03-T0ctPVnaawqrczLJWImKMG4hEbuUVDPDR_m0k5iqkwUONAIifEcLav-q5ZvQmLL8ZrF8w50SR2Q"
        "ugs4lIFVRdxtDyKUOtAA",
        '$ export ANTHROPIC_API_KEY="{secret}"\n$ claude --version',
        'export ANTHROPIC_API_KEY="',
        "$ claude --version",
    ),
    _case(
        "google-api-key-firebase-js",
        "google-api-key",
        "AIzafZUTqr8aFvnKbnHFbDfj3u-ypO09RnKw1zW",
        'const firebaseConfig = {\n  apiKey: "{secret}",\n'
        '  authDomain: "northwind-prod.firebaseapp.com",\n};',
        'apiKey: "',
        'authDomain: "northwind-prod.firebaseapp.com"',
    ),
    _case(
        "google-oauth-access-token-curl",
        "google-oauth-token",
        "ya29.a0w8MDaD3vSS1Mmn7qOiqh1yudML66YbgqaD7XBPgUbqr2RbwXOq43IedbtWe27WH77hBlyqz_9PNldsWh",
        'curl -H "Authorization: Bearer {secret}" '
        "https://www.googleapis.com/drive/v3/files?pageSize=10",
        "Authorization: Bearer ",
        "https://www.googleapis.com/drive/v3/files?pageSize=10",
    ),
    _case(
        "stripe-secret-key-ruby",
        "stripe-key",
        "sk_live_51EVIR6LFYhOTduCDuaOHZgO3IwAwufmcTZv6Alsau4ywWylEHwUwlCyxtq7g5HwjWcbSDS5mZGF2Hlr"
        "7PNBC159twsB09lmZYc",
        "# config/initializers/stripe.rb\nStripe.api_key = '{secret}'\n",
        "Stripe.api_key = '",
        "config/initializers/stripe.rb",
    ),
    _case(
        "stripe-restricted-key-yaml",
        "stripe-key",
        "rk_live_51Zt7dC9HVfrRz3eKFIfNhqrWO9BzG9db057ANuHlwF5SEvPMZUIKK6Q4O5W3zCVFBZSntMY467o6hHde"
        "HHwJwRJvreuENsrgDU",
        "stripe:\n  restricted_key: {secret}\n  currency: eur\n",
        "restricted_key: ",
        "currency: eur",
    ),
    _case(
        "stripe-webhook-secret-env",
        "stripe-webhook-secret",
        "whsec_IvMAZCQLzPdaWq33w5bqyhPzDalfDsnq",
        "STRIPE_WEBHOOK_SECRET={secret}\n",
        "STRIPE_WEBHOOK_SECRET=",
    ),
    _case(
        "npm-token-npmrc",
        "npm-token",
        "npm_dVtx8qRuzg1ODn5N5LBS9QN3JFCVJwnh8S0z",
        "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={secret}\n",
        "//registry.npmjs.org/:_authToken=",
    ),
    _case(
        "pypi-token-pypirc",
        "pypi-token",
        "pypi-AgEIcHlwaS5vcmcw6d3eK3pxFkhJA5uFyeUhwksU8dSaNrFWv5SRclfFhhqCmzhp59yZk4d6_GlThw-Zqy"
        "C85Nn7Jf30xIOdZh-NRwhUTv3L-Smo927U2aT1yVPMm5nYtffRcvy0Dxo5pCJFz2B30M8KVM-",
        "[pypi]\nusername = __token__\npassword = {secret}\n",
        "username = __token__",
        "password = ",
    ),
    _case(
        "huggingface-token-cli",
        "huggingface-token",
        "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",
        "$ huggingface-cli login --token {secret} --add-to-git-credential\nLogin successful",
        "huggingface-cli login --token ",
        " --add-to-git-credential",
    ),
    _case(
        "sendgrid-key-python",
        "sendgrid-key",
        "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",
        'sg = SendGridAPIClient("{secret}")\nresponse = sg.send(message)',
        'sg = SendGridAPIClient("',
        "response = sg.send(message)",
    ),
    _case(
        "jwt-in-gateway-log",
        "jwt",
        _JWT_HS256,
        "INFO 2024-06-11 09:14:02 gateway: upstream=orders-api status=401 "
        'authorization="Bearer {secret}" latency_ms=12',
        "upstream=orders-api status=401",
        'authorization="Bearer ',
        "latency_ms=12",
    ),
    _case(
        "jwt-id-token-json",
        "jwt",
        _JWT_RS256,
        '{"token_type": "Bearer", "expires_in": 3600, "id_token": "{secret}"}',
        '"token_type": "Bearer"',
        '"id_token": "',
    ),
    # --- key = value assignments ----------------------------------------------------------------
    _case(
        "password-dotenv",
        "password",
        "Vg5kpYYrDY-o57o#",
        "DB_HOST=db.internal\nDB_USER=orders\nDB_PASSWORD={secret}\nDB_NAME=orders\n",
        "DB_PASSWORD=",
        "DB_HOST=db.internal",
        "DB_NAME=orders",
    ),
    _case(
        "password-docker-compose-yaml",
        "password",
        "LA825gFKE-OU0Ekm",
        "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: orders\n"
        "      POSTGRES_PASSWORD: {secret}\n      POSTGRES_DB: orders\n",
        "POSTGRES_PASSWORD: ",
        "image: postgres:16",
        "POSTGRES_DB: orders",
    ),
    _case(
        "password-json-config",
        "password",
        "5h!Kt9sbg9bAjtbD",
        '{"database": {"host": "10.0.3.12", "user": "report_ro", "password": "{secret}"}}',
        '"password": "',
        '"host": "10.0.3.12"',
    ),
    _case(
        "password-escaped-json-log",
        "password",
        "qn6dQj@QKhCHD4@@",
        '{"level":"debug","msg":"request body",'
        '"body":"{\\"username\\":\\"svc-ingest\\",\\"password\\":\\"{secret}\\"}"}',
        '\\"username\\":\\"svc-ingest\\"',
        '\\"password\\":\\"',
    ),
    _case(
        "password-cli-flag",
        "password",
        "V3J7Y59r5zFa1lyk",
        "$ mysqldump --host db.internal --user backup --password '{secret}' orders > orders.sql",
        "--password '",
        "orders > orders.sql",
    ),
    _case(
        "password-python-kwarg",
        "password",
        "JP6hq6ItLy8k@QY0",
        'conn = psycopg2.connect(host="db.internal", dbname="orders", user="etl", '
        'password="{secret}")',
        'password="',
        'user="etl"',
    ),
    _case(
        "passwd-yaml-quoted",
        "password",
        "!UzpWcP1mLMwT3zW",
        'ldap:\n  bind_dn: "cn=svc-wiki,ou=services,dc=example,dc=com"\n  passwd: "{secret}"\n',
        'passwd: "',
        "cn=svc-wiki,ou=services",
    ),
    _case(
        "pwd-odbc-connection-string",
        "password",
        "1Y6PQlA81ax0owkZ",
        "Driver={ODBC Driver 18 for SQL Server};Server=tcp:sql01.example.com,1433;"
        "Database=ledger;Uid=ledger_rw;Pwd={secret};Encrypt=yes;",
        "Uid=ledger_rw;Pwd=",
        ";Encrypt=yes;",
    ),
    _case(
        "api-key-python-settings",
        "api-key",
        "b2ca917b4c5d21718cde22967e79f252",
        '# settings/production.py\nMAPBOX_API_KEY = "{secret}"\nMAPBOX_STYLE = "streets-v12"\n',
        'MAPBOX_API_KEY = "',
        'MAPBOX_STYLE = "streets-v12"',
    ),
    _case(
        "apikey-http-header-curl",
        "api-key",
        "UM8kzlYsv1zHM9TBCn8icRUMQlk6",
        'curl -s https://api.weather.example/v1/forecast?city=Lisbon -H "apikey: {secret}"',
        '-H "apikey: ',
        "https://api.weather.example/v1/forecast?city=Lisbon",
    ),
    _case(
        "client-secret-oauth-yaml",
        "secret",
        "tArgKl90rY79tSJ9VvqapTaRE3DylQtP",
        "oauth:\n  client_id: 8841207-orders.apps.example.com\n  client_secret: {secret}\n"
        "  redirect_uri: https://orders.example.com/callback\n",
        "client_id: 8841207-orders.apps.example.com",
        "client_secret: ",
        "redirect_uri: https://orders.example.com/callback",
    ),
    _case(
        "secret-ini",
        "secret",
        "f5fa229d4f62a0290c9d174e373bdb76",
        "[jwt]\nsecret = {secret}\nalgorithm = HS256\n",
        "secret = ",
        "algorithm = HS256",
    ),
    _case(
        "access-token-query-string",
        "token",
        "vUR4HbTO0V2mMNVvvyWfEqXbTF9s",
        "GET https://graph.example.com/v2/me/photos?access_token={secret}&limit=25 HTTP/1.1",
        "https://graph.example.com/v2/me/photos?access_token=",
        "&limit=25 HTTP/1.1",
    ),
    _case(
        "token-codecov-yaml",
        "token",
        "019e78d0-e229-2d76-334d-306f5ef11798",
        "codecov:\n  token: {secret}\n  require_ci_to_pass: true\n",
        "  token: ",
        "require_ci_to_pass: true",
    ),
    _case(
        "auth-token-flag-equals",
        "token",
        "d409eb75962fd301a84cc84eab845e9c019e78d0e2292d76334d306f5ef11798",
        "$ sentry-cli --auth-token={secret} releases new 2024.06.11",
        "sentry-cli --auth-token=",
        " releases new 2024.06.11",
    ),
    _case(
        "password-k8s-env",
        "password",
        "9JNSe7RAsHpevfHN",
        '        env:\n          - name: REDIS_PASSWORD\n            value: "{secret}"\n'
        "          - name: REDIS_HOST\n            value: redis-master\n",
        "name: REDIS_PASSWORD",
        'value: "',
        "value: redis-master",
    ),
    _case(
        "password-sql-create-role",
        "password",
        "w65no5VB180ACFa0",
        "CREATE ROLE reporting WITH LOGIN PASSWORD '{secret}' VALID UNTIL '2025-01-01';",
        "CREATE ROLE reporting WITH LOGIN PASSWORD '",
        "VALID UNTIL '2025-01-01'",
    ),
    # --- connection strings ---------------------------------------------------------------------
    _case(
        "postgres-url",
        "password",
        "Wbch2QUxxjY!oXqU",
        "DATABASE_URL=postgres://orders_app:{secret}@db-primary.internal.example.com:5432/orders"
        "?sslmode=require",
        "DATABASE_URL=postgres://orders_app:",
        "@db-primary.internal.example.com:5432/orders?sslmode=require",
    ),
    _case(
        "mysql-url-with-at-sign-in-password",
        "password",
        "j!22nRe40JZ@bYZ!",
        'engine = create_engine("mysql+pymysql://reporting:{secret}@mysql.internal:3306/analytics")',
        "mysql+pymysql://reporting:",
        "@mysql.internal:3306/analytics",
    ),
    _case(
        "mongodb-srv-url",
        "password",
        "Xp4vR7cT2mW9qL1z",
        'MONGO_URI="mongodb+srv://atlas-admin:{secret}@cluster0.ab1cd.mongodb.net/prod'
        '?retryWrites=true&w=majority"',
        "mongodb+srv://atlas-admin:",
        "@cluster0.ab1cd.mongodb.net/prod?retryWrites=true&w=majority",
    ),
    _case(
        "redis-url-without-user",
        "password",
        "Jd83kQx0pLm2",
        "REDIS_URL=redis://:{secret}@cache.internal:6379/0\n",
        "REDIS_URL=redis://:",
        "@cache.internal:6379/0",
    ),
    _case(
        "amqp-url-celery",
        "password",
        "Uj_gjfXudzTQXGqi",
        'broker_url = "amqp://celery:{secret}@rabbitmq.internal:5672/jobs"',
        "amqp://celery:",
        "@rabbitmq.internal:5672/jobs",
    ),
    _case(
        "curl-basic-user-flag",
        "password",
        "Tz7wq2Lk9vBn",
        "$ curl -u elastic:{secret} -X DELETE https://es.internal:9200/logs-2024.05",
        "curl -u elastic:",
        " -X DELETE https://es.internal:9200/logs-2024.05",
    ),
    # --- authorization headers ------------------------------------------------------------------
    _case(
        "bearer-opaque-token-curl",
        "bearer-token",
        "sAuPFJiN7UZpjxV2KKrgnfHCzbt5G7-eSeiOJcT_",
        'curl -H "Authorization: Bearer {secret}" https://api.internal.example.com/v1/orders',
        'curl -H "Authorization: Bearer ',
        "https://api.internal.example.com/v1/orders",
    ),
    _case(
        "basic-auth-request-dump",
        "basic-auth",
        "ZGVwbG95LWJvdDpxUHFZaUpoOGJwS2t4cDNJQWM=",
        "> GET /api/v4/projects HTTP/1.1\n> Host: git.example.com\n> Authorization: Basic {secret}\n"
        "> Accept: */*\n",
        "> Authorization: Basic ",
        "> Host: git.example.com",
        "> Accept: */*",
    ),
    # --- providers a user found reaching the vault (gitleaks' census of provider shapes) -------
    _case(
        "azure-storage-connection-string",
        "azure-storage-key",
        "q8Vx2mLk9Rt4Zw7Yc1Hn5Bp3Jd6Fs0Ga8Ue2Wi4Oy7Tr1Ql5Xk9Mz3Nc6Vb0Hg2Jf4Dk8Sa1Lp7Qw3Er5Ty9Ui2Op6Az4Sx==",
        'export AZURE_STORAGE="DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={secret};'
        'EndpointSuffix=core.windows.net"',
        "AccountName=acmelogs;AccountKey=",
        ";EndpointSuffix=core.windows.net",
    ),
    _case(
        "huggingface-token-login",
        "huggingface-token",
        "hf_Qm3Lx9Zr2Kv7Tn5Bw1Hc8Yd4Fj6Gs0PaRu2",
        "$ huggingface-cli login --token {secret}\nToken is valid (permission: write).",
        "$ huggingface-cli login --token ",
        "Token is valid",
    ),
    _case(
        "digitalocean-token-doctl",
        "digitalocean-token",
        "dop_v1_4f9a2c7e1b8d3f6a0c5e9b2d7f4a1c8e3b6d9f2a5c0e7b4d1f8a3c6e9b2d5f7a",
        "Ran `doctl auth init --access-token {secret}` on the runner.",
        "Ran `doctl auth init --access-token ",
        "` on the runner.",
    ),
    _case(
        "shopify-admin-token",
        "shopify-token",
        "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",
        "curl -H 'X-Shopify-Access-Token: {secret}' https://acme.myshopify.com/admin/shop.json",
        "curl -H 'X-Shopify-Access-Token: ",
        "https://acme.myshopify.com/admin/shop.json",
    ),
    _case(
        "databricks-token-cfg",
        "databricks-token",
        "dapi3e8a1c6f9b2d5e7a0c4f1b8d3e6a9c2f",
        "[DEFAULT]\nhost = https://adb-123.azuredatabricks.net\ntoken = {secret}\n",
        "host = https://adb-123.azuredatabricks.net",
    ),
    _case(
        "twilio-api-key",
        "twilio-key",
        "SK9f2c7a4e1d8b3f6a0e5c2b9d7f4a1e6c",
        "client = Client('{secret}', api_secret, account_sid)",
        "client = Client('",
        "', api_secret, account_sid)",
    ),
    _case(
        "discord-bot-token",
        "discord-token",
        "MTE5ODc2NTQzMjEwOTg3NjU0Mw.Gx7Kp2.Qm3Lx9Zr2Kv7Tn5Bw1Hc8Yd4Fj6Gs0PaRu2Ws",
        "client.run('{secret}')  # the bot of the support server",
        "client.run('",
        "# the bot of the support server",
    ),
    _case(
        "discord-webhook-url",
        "discord-webhook",
        "Qm3Lx9Zr2Kv7Tn5Bw1Hc8Yd4Fj6Gs0PaRu2WsX7Kp2Gx9Tn4Bw2Hc5Yd8Fj1Gs3PaRu6Ws9Lx",
        "Alerts post to https://discord.com/api/webhooks/1198765432109876543/{secret} now.",
        "https://discord.com/api/webhooks/1198765432109876543/",
        " now.",
    ),
    _case(
        "telegram-bot-token",
        "telegram-bot-token",
        "7123456789:AAH4kLm9Qx2Zr7Tn5Bw1Hc8Yd4Fj6Gs0PaR",
        "TELEGRAM_BOT = {secret}",
        "TELEGRAM_BOT = ",
    ),
    _case(
        "linear-api-key",
        "linear-key",
        "lin_api_Qm3Lx9Zr2Kv7Tn5Bw1Hc8Yd4Fj6Gs0PaRu2WsX7A",
        "linear: {secret} (personal key)",
        "linear: ",
        " (personal key)",
    ),
    _case(
        "groq-key",
        "groq-key",
        "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",
        "export GROQ={secret}  # from console.groq.com",
        "export GROQ=",
    ),
    _case(
        "replicate-token",
        "replicate-token",
        "r8_VGOeUvfJIssDj4PTTKtb2TxxDBfz5LJF3hBGZ",
        "replicate login with {secret} worked",
        "replicate login with ",
    ),
    _case(
        "openrouter-key",
        "openrouter-key",
        "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",
        "OpenRouter key {secret} was rotated",
        "OpenRouter key ",
    ),
    _case(
        "xai-key",
        "xai-key",
        "xai-NYmphNcWI9rQWOwjauQLKX783FSU8iIoELi9M4SGsfAQk7iYY6LtGAyZjHZmya9gy4ed1wPw7X8bbGEu",
        "grok: {secret}",
        "grok: ",
    ),
    _case(
        "perplexity-key",
        "perplexity-key",
        "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",
        "use {secret} for sonar",
        "use ",
    ),
    _case(
        "mailgun-key",
        "mailgun-key",
        "key-046455c8dd2c95b58efd9e5afe383670",
        "mailgun = Mailgun('{secret}', domain='mg.example.com')",
        "domain='mg.example.com'",
    ),
    _case(
        "atlassian-token-short",
        "atlassian-token",
        "ATATT3xFfGF09f4DPvAIY122Ql9bw2kwJRKYInhNTrJWKUnKsKrQJigYqg9BkgRdWwUZlPOg=A829A588",
        "Jira API token {secret} for ci@example.com",
        "Jira API token ",
    ),
    _case(
        "sentry-dsn",
        "sentry-dsn",
        "20d8d01370933bae1ca6ed3b8c9b1d09",
        "SENTRY_DSN set to https://{secret}@o450123.ingest.sentry.io/5512345 in prod",
        "@o450123.ingest.sentry.io/5512345",
    ),
    _case(
        "gcp-private-key-id",
        "gcp-private-key-id",
        "a939da0a61353314b90d4bdcc7d7450c847008fd",
        '{"type": "service_account", "private_key_id": "{secret}", "client_id": "1"}',
        '"private_key_id": "',
        '"client_id": "1"',
    ),
    _case(
        "aws-secret-key-unlabelled",
        "aws-secret-key",
        "q9ui8OLf1lJcP390G0/qvOHWVudQ1aOp+EdoRG3j",
        "aws credentials of deploy-bot (csv): deploy-bot,{secret}\n",
        "aws credentials of deploy-bot (csv): deploy-bot,",
    ),
    _case(
        "mysql-password-flag",
        "password",
        "Rt7!kPz2wQ",
        "mysql -u root -p{secret} -h db.internal shop < dump.sql",
        "mysql -u root -p",
        " -h db.internal shop",
    ),
    _case(
        "password-in-a-clause",
        "password",
        "Xk9#pq2!",
        "Task: rotate the admin password, which is {secret}",
        "Task: rotate the admin password, which is ",
    ),
    _case(
        "password-in-prose",
        "password",
        "Hunter2-Bravo!",
        "The admin password is {secret}. Change it after the demo.",
        "The admin password is ",
        ". Change it after the demo.",
    ),
    _case(
        "docker-hub-token",
        "docker-hub-token",
        "dckr_pat_u8jzPde0IgxLd6GncfBAepfJBd0",
        "docker login -u bot -p {secret}",
        "docker login -u bot -p ",
    ),
    _case(
        "pinecone-key",
        "pinecone-key",
        "pcsk_Kh8oOO_L8dKLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFRIBXuDL7DxtpYlSXpfKtHF",
        "PINECONE_KEY={secret}",
        "PINECONE_KEY=",
    ),
    _case(
        "langsmith-key",
        "langsmith-key",
        "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",
        "tracing with {secret} on",
        "tracing with ",
    ),
    _case(
        "tavily-key",
        "tavily-key",
        "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",
        "search key {secret} (dev)",
        "search key ",
    ),
    _case(
        "rubygems-key",
        "rubygems-key",
        "rubygems_f58904dba41ecccc3fc1626e53a13043b026c48bbf33feff",
        ":rubygems_api_key: {secret}",
        ":rubygems_api_key: ",
    ),
    _case(
        "planetscale-token",
        "planetscale-token",
        "pscale_tkn_tfjgVvVqE1SkHbn88HxjSI6bWHtP3fS2qHx6kwXoIIX",
        "pscale auth with {secret}",
        "pscale auth with ",
    ),
    _case(
        "prefect-key",
        "prefect-key",
        "pnu_GvOoNZYW2mZp0zVZomHFwUbbYrEqmSM9wCZ7",
        "prefect cloud login -k {secret}",
        "prefect cloud login -k ",
    ),
    _case(
        "contentful-token",
        "contentful-token",
        "CFPAT-SUkCnD8zRA9a9SkpXz9w3QlY7Zkuvqdt7s8Stqcbnr3",
        "contentful token {secret}.",
        "contentful token ",
    ),
    _case(
        "dynatrace-token",
        "dynatrace-token",
        "dt0c01.MNBQNS6PUQ80IDW3706I8J76.B2LAJLJ4H9DU7794G9DPMRCG629BE2U66MR26846P7Q9M2I0HZ2UEP1ENTHJXJQI",
        "Api-Token {secret}",
        "Api-Token ",
    ),
    _case(
        "shippo-token",
        "shippo-token",
        "shippo_live_e73cf575dcad6ba2b0aee0ca923732881584d8c4",
        "shippo.api_key = {secret}",
        "shippo.api_key = ",
    ),
    _case(
        "razorpay-key",
        "razorpay-key",
        "rzp_live_I6GKFSufrdZSlB",
        "razorpay: {secret} live",
        "razorpay: ",
    ),
    _case(
        "bitbucket-app-password",
        "bitbucket-app-password",
        "ATBB5er8bOfZqfM2oeq3hDavJA76rNicHTp8",
        "bitbucket app password {secret} for ci",
        "for ci",
    ),
    _case(
        "netlify-token",
        "netlify-token",
        "nfp_hkqdlm7tOtHWnsCGRlrwZbqcabUGJmGEp7Cg",
        "netlify deploy --auth {secret}",
        "netlify deploy --auth ",
    ),
    _case(
        "azure-client-secret",
        "azure-client-secret",
        "abc8Q~3~Y.NBDRzrZSgqbjG3uhkW.KFLf6xuI5aH",
        "client secret is {secret} for the app",
        "for the app",
    ),
    _case(
        "alibaba-access-key",
        "alibaba-access-key",
        "LTAIx9vJupc94tnwlavyfE7q",
        "aliyun key {secret} in prod",
        "aliyun key ",
    ),
    _case(
        "facebook-token",
        "facebook-token",
        "EAArGPmpGXafq0fjzLczbttOofL9H2WjQ5TY4MyWuUFjsUNPjc01T5GOBUSZGi6HWGK10Zb0RLZ5TR9SPofbciOx9gy1CJdObOIRpFqaDZeV7G5IfQHeVVEqZe2",
        "graph call with {secret} failed",
        "graph call with ",
    ),
]

# Text that mentions secrets without holding one: redact() must leave it alone.
NOT_SECRETS: list[str] = [
    "The token expires after an hour, so the client refreshes it before each nightly sync.",
    "Never commit passwords or API keys; we keep them in 1Password and inject them at deploy.",
    "Added a password_hash column (bcrypt, cost 12) and dropped the plaintext password column.",
    "CREATE TABLE users (id uuid PRIMARY KEY, email text NOT NULL, password_hash text NOT NULL);",
    "[main 3f2a9c1] Fix token refresh race\ncommit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    "request_id=550e8400-e29b-41d4-a716-446655440000 status=200 duration_ms=31",
    "The payload aGVsbG8gd29ybGQ= decodes to a greeting.",
    "Edited src/auth/token_store.py and ~/.ssh/id_ed25519.pub; see docs/secrets.md.",
    (
        "Moved the desk-top widgets; risk-assessment-for-quarterly-review-2024 and "
        "task-runner-config-v2-final are done; scikit-learn (sk-learn) stays pinned."
    ),
    "DB_PASSWORD=...",
    "password=<password>",
    "PASSWORD=${PASSWORD}",
    "export GITHUB_TOKEN=$GITHUB_TOKEN",
    "password: changeme",
    "api_key: your-api-key-here",
    "password: '********'",
    "pwd=abc12",
    "token: ${{ secrets.GITHUB_TOKEN }}",
    'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
    "Authorization: Bearer <token>",
    'password = getpass.getpass("DB password: ")',
    'token = os.environ["GITHUB_TOKEN"]',
    "api_key = settings.OPENAI_API_KEY",
    "client = Client(token=access_token, timeout=30)",
    "def login(username: str, password: str) -> Token:",
    "interface Login { username: string; password: string }",
    "class Settings(BaseModel):\n    db_password: SecretStr\n    api_token: SecretStr | None = None",
    "usage: input_tokens=18234 output_tokens=912 max_tokens=4096",
    (
        "  --token TOKEN        GitHub token (default: $GITHUB_TOKEN)\n"
        "  --password PASSWORD  prompted for when omitted"
    ),
    "Use the --token flag, or set the password in the vault.",
    "postgres://localhost:5432/orders and git@github.com:acme/payments.git",
    "https://deploy@example.com/repo.git and http://localhost:8080/health",
    "Access key ids start with AKIA (long-term) or ASIA (temporary).",
    "Prefixes: ghp_ for classic GitHub tokens, glpat- for GitLab, sk-ant- for Anthropic.",
    "valueFrom:\n  secretKeyRef:\n    name: db-credentials\n    key: password",
    "is_secret: false\nrotate_tokens: true\nbypass=enabled",
    'if token == "integer":\n    return Integer(value)',
    "STYLES = {\n    Token: foreground,\n    Keyword: COLORS['white'],\n    Name: '#d0d0d0',\n}",
    "token = Punctuation\nutil._assertion_pass = saved_assert_hooks",
    "pattern_token = rf'(?:[^\"{_nl}])+'",
    "Credentials can be given with the --username and --password options",
    "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
    # Seen in real sessions: a workflow's permission, names as values, a Go test's name.
    "permissions:\n  contents: read\n  id-token: write\n",
    "apiKey: 'proxy-mode', // the proxy injects the key",
    '@patch.dict("os.environ", {"ELEVENLABS_API_KEY": "test-key"})',
    "--- PASS: TestProviderTTLExpiry (0.01s)\n--- PASS: TestStoreTTLExpiry (0.00s)",
    "The password is required, and the password was reset by the admin.",
    "Your password is stored hashed; the password is `$DB_PASSWORD` in CI.",
    "mysql -u root -p shop < dump.sql  # prompts for the password",
    "AWS commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 and src/aws/Client/Config2/HandlerX.ts",
    "Sentry issue https://sentry.io/organizations/acme/issues/4412345/ was closed.",
    "See key-value stores and key-based access; mailgun uses an API key.",
    # From a review: words after "password is", a line that names mysql, flaws and paths.
    "The password is case-sensitive, will be auto-generated, and was (re)set; it is SHA-256.",
    "Password is PBKDF2-SHA256 hashed and the password is stored in Vault",
    "docker run --name mysql -p3306:3306 mysql:8 && mkdir -pv data",
    "Fixed the flaws in Components/Settings/UserProfileEditForm2.tsx for the Asia release",
    "redis key-d41d8cd98f00b204e9800998ecf8427e expires after an hour",
    '[{"number": 12, "title": "Fix login"}]',
]
