"""gate.redact: what reaches the log, and approval keys."""

import copy
import hashlib
import json
import shlex
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.model import action_from_dict
from gate.redact import (
    approval_key,
    digest,
    find_secrets,
    looks_secret,
    redact_text,
    sanitize_action,
    sanitize_data,
    typed_secret,
)

# Made-up credentials of the right shapes (none is real).
GH = "ghp_" + "Zq8LmN3vXt7RkP2wYb5C" + "aH9dJ4sF6gU1eQ0iO7nM"
GLPAT = "glpat-" + "x7Fq2LmN9vRt4KpW8yZb"
SK = "sk-" + "proj-" + "T3BlbkFJ9xQ2mN7vLr4Kp8WyZb5CaH"
SLACK = "xoxb-" + "2048-77aa-Bq9LmN3vXt"
AWS_ID = "AKIA" + "Q3ZXMN7VLR4KP8WY"
JWT = ("eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiJhbGljZSIsImV4cCI6MTl9" + "."
       + "c2lnbmF0dXJlLW9mLXRoZS10b2tlbg_x")
PEM = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----"
RANDOM40 = "wJ8rXu2nF5EMkq7MDb9Gz4bPxR1fCiY3Lk0pZaQ6"


def test_known_token_shapes_are_secret():
    for token in (GH, GLPAT, SK, SLACK, AWS_ID, JWT, PEM, RANDOM40, "github_pat_" + "11AB" * 8):
        assert looks_secret(token), token
        assert looks_secret(f"use {token} now"), token


def test_ordinary_text_is_not_secret():
    for text in ("ls -la /usr/share/applications/FirefoxDeveloperEdition.desktop",
                 "git checkout 4f3a9c0e1b2d3f4a5b6c7d8e9f00112233445566",  # a hex digest
                 "rm 123e4567-e89b-12d3-a456-426614174000.tmp",  # a uuid
                 "getElementByIdForTestingPurposes2023", "https://example.com/docs/getting-started",
                 "Place order", "cd $(pwd) && make", "python -m pytest -q tests/",
                 "tokenizer=fast python train.py", "psql --password -h db.local", "password=$PASS ./run"):
        assert not looks_secret(text), text


def test_secret_inside_a_command_is_replaced_and_the_rest_kept():
    cases = {
        "curl -H 'Authorization: Bearer abc.def12345' https://api.example.com": "abc.def12345",
        "git push https://me:hunter22@example.com/repo.git": "hunter22",
        "mysql -u root -pS3cretPw db": "S3cretPw",
        "DB_PASSWORD=opensesame ./run.sh": "opensesame",
        "psql --password=abc123 -h x": "abc123",
        "sshpass -p letmein ssh host": "letmein",
        f"export GITHUB_TOKEN={GH}": GH,
        "curl -u admin:pa55word https://x": "pa55word",
        '{"api_key": "k-1234-zz"}': "k-1234-zz",
    }
    for command, secret in cases.items():
        out = redact_text(command)
        assert secret not in out, out
        marker = f"«redacted sha256:{hashlib.sha256(secret.encode()).hexdigest()[:12]}… len:{len(secret)}»"
        assert marker in out, (out, marker)
        assert out.replace(marker, secret) == command


def test_find_secrets_merges_overlapping_spans():
    text = f"TOKEN={GH} rest"
    spans = find_secrets(text)
    assert spans == [(6, 6 + len(GH))]


def test_redact_fields_and_always_redacted_fields():
    typed = sanitize_action({"type": "type", "text": "correct horse", "target": {"label": "Password"}},
                            frozenset({"text"}))
    assert typed["text"] == digest("correct horse")
    assert typed["text"]["redacted"] is True and typed["text"]["len"] == 13
    assert typed["target"] == {"label": "Password"}

    wrote = sanitize_action({"type": "file_write", "path": "/tmp/notes.txt", "content": "dear diary"})
    assert wrote["content"] == digest("dear diary") and wrote["path"] == "/tmp/notes.txt"

    shell = sanitize_action({"type": "shell", "command": "make deploy", "env": {"STAGE": "prod", "KEY": "v"}})
    assert shell["env"] == {"STAGE": digest("prod"), "KEY": digest("v")}
    assert shell["command"] == "make deploy"


def test_argv_secret_flags_and_sensitive_keys():
    out = sanitize_action({"type": "shell", "argv": ["psql", "--password", "pw-123", "-h", "db"]})
    assert out["argv"] == ["psql", "--password", digest("pw-123"), "-h", "db"]
    assert sanitize_action({"type": "shell", "argv": ["ls", "-p", "dir"]})["argv"] == ["ls", "-p", "dir"]
    tool = sanitize_action({"type": "tool", "name": "login",
                            "input": {"user": "ann", "password": "pw", "opts": {"api_key": "k"}, "n": 3}})
    assert tool["input"] == {"user": "ann", "password": digest("pw"), "opts": {"api_key": digest("k")}, "n": 3}
    system = sanitize_action({"type": "system", "name": "wifi", "params": {"ssid": "home", "passphrase": "x1"}})
    assert system["params"] == {"ssid": "home", "passphrase": digest("x1")}


def test_dotted_redact_field_reaches_into_objects():
    out = sanitize_action({"type": "tool", "name": "fill", "input": {"card": "4111 1111", "name": "Ann"}},
                          frozenset({"input.card"}))
    assert out["input"] == {"card": digest("4111 1111"), "name": "Ann"}


def test_whole_secret_value_becomes_a_digest_not_a_marker():
    out = sanitize_action({"type": "type", "text": GH})
    assert out["text"] == digest(GH)
    pem = sanitize_action({"type": "type", "text": f"key:\n{PEM}\n"})
    assert pem["text"].startswith("key:\n«redacted sha256:") and pem["text"].endswith(f"len:{len(PEM)}»\n")
    assert "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU" not in json.dumps(pem)


def test_sanitize_does_not_mutate_its_input():
    action = {"type": "shell", "command": f"echo {GH}", "env": {"A": "b"}, "target": {"label": "x"}}
    before = copy.deepcopy(action)
    sanitize_action(action, frozenset({"command"}))
    assert action == before


def test_sanitize_data_scrubs_event_details():
    data = {"stdout": f"token is {GH}\n", "exit_code": 0, "headers": {"Authorization": "Basic dXNlcjpwYXNz"}}
    out = sanitize_data(data)
    assert GH not in json.dumps(out) and "dXNlcjpwYXNz" not in json.dumps(out)
    assert out["exit_code"] == 0 and out["stdout"].startswith("token is «redacted")


def test_approval_key_is_stable_and_ignores_noise():
    a = {"type": "shell", "command": "ls -la", "cwd": "/tmp"}
    b = {"cwd": "/tmp", "command": "ls -la", "type": "shell", "confidence": 0.4, "note": "look around"}
    assert approval_key(a) == approval_key(b)
    assert len(approval_key(a)) == 64 and set(approval_key(a)) <= set(string.hexdigits.lower())
    assert approval_key(a) != approval_key({**a, "command": "ls -lah"})
    assert approval_key(a) != approval_key({**a, "cwd": "/"})
    assert approval_key({"type": "type", "text": "abc"}) != approval_key({"type": "type", "text": "abd"})
    assert approval_key({"type": "click", "x": 1, "y": 2}) != approval_key({"type": "move", "x": 1, "y": 2})


def test_approval_key_tells_different_secrets_apart():
    one = {"type": "shell", "command": f"gh auth login --with-token {GH}"}
    two = {"type": "shell", "command": f"gh auth login --with-token {GH[:-1]}X"}
    assert approval_key(one) != approval_key(two)
    assert approval_key({"type": "file_write", "path": "/a", "content": "x"}) != \
        approval_key({"type": "file_write", "path": "/a", "content": "y"})


def test_approval_key_accepts_a_gate_action():
    raw = {"type": "click", "x": 10, "y": 20, "target": {"label": "OK"}}
    assert approval_key(action_from_dict(raw)) == approval_key(raw)


_token_alphabet = st.text(alphabet=string.ascii_letters + string.digits, min_size=36, max_size=36)


@given(token=_token_alphabet, prefix=st.sampled_from(["", "run ", "x=1; ", "echo '"]),
       field=st.sampled_from(["command", "text", "note"]))
def test_a_github_token_never_survives_sanitising(token, prefix, field):
    secret = "ghp_" + token
    action = {"type": "shell", "command": "true"} if field != "text" else {"type": "type", "text": ""}
    action[field] = prefix + secret
    out = json.dumps(sanitize_action(action), ensure_ascii=False)
    assert secret not in out
    assert token not in out


@given(st.dictionaries(st.sampled_from(["command", "cwd", "note", "confidence"]),
                       st.text(max_size=30), max_size=4))
def test_approval_key_is_deterministic(fields):
    action = {"type": "shell", **fields}
    assert approval_key(action) == approval_key(dict(reversed(list(action.items()))))


def test_secret_arguments_of_programs_in_strings_and_argv() -> None:
    cases = [
        ("docker login -u me -p Rg1secretValue reg.example", "Rg1secretValue"),
        ("podman login --password=Rg2secretValue reg.example", "Rg2secretValue"),
        ("htpasswd -nb someone Hp1secretValue", "Hp1secretValue"),
        ("curl -uuser:Cu1secretValue https://x.example", "Cu1secretValue"),
        ("curl -b 'sid=Ck1secretValue' https://x.example", "Ck1secretValue"),
        ("curl --header 'X-Api-Key: Hk1secretValue' https://x.example", "Hk1secretValue"),
        ("vault login Vl1secretValue", "Vl1secretValue"),
        ("sudo env PGPASSWORD=Pg1secretValue psql", "Pg1secretValue"),
        ("openssl enc -k Os1secretValue -in f", "Os1secretValue"),
        ("sshpass -pSp1secretValue ssh host", "Sp1secretValue"),
    ]
    for command, secret in cases:
        assert secret not in str(sanitize_action({"type": "shell", "command": command})), command
        argv = shlex.split(command)
        assert secret not in str(sanitize_action({"type": "shell", "argv": argv})), argv
    # near misses: what only looks like a secret argument stays readable
    for command in ("curl -b cookies.txt https://x.example", "htpasswd -D file someone",
                    "docker run -p 8080:80 nginx", "vault status", "curl -H 'Accept: text/html' https://x.example"):
        assert sanitize_action({"type": "shell", "command": command})["command"] == command


def test_a_key_gives_hmac_fingerprints_never_the_plain_digest() -> None:
    import hmac

    key = b"k" * 32
    assert digest("hunter2", key) == {"redacted": True, "len": 7,
                                      "hmac": hmac.new(key, b"hunter2", hashlib.sha256).hexdigest()}
    plain = hashlib.sha256(b"Zz9secretValueZz9").hexdigest()
    out = redact_text("mysql -pZz9secretValueZz9 db", key=key)
    assert "«redacted hmac:" in out and plain[:12] not in out
    clean = sanitize_action({"type": "shell", "command": "run --token=Zz9secretValueZz9",
                             "env": {"A": "Zz9secretValueZz9"}}, key=key)
    assert plain[:12] not in str(clean) and clean["env"]["A"]["hmac"]


# -- fields an agent could smuggle a secret through ---------------------------------------------------------

_KEY = "ghp_Q7vN2kLm9RtX4wYb8ZcD1fGh5JsP3aEu6T0i"


@pytest.mark.parametrize(("action", "secret"), [
    ({"type": "navigate", "url": "https://dl.example.net/a.zip?expires=1&sig=3f7a9c1e5b2d4f6a8c0e2b4d6f8a0c1e"},
     "3f7a9c1e5b2d4f6a8c0e2b4d6f8a0c1e"),
    ({"type": "navigate", "url": "https://maps.example.com/api/js?key=AIzbX1y2Z3w4V5u6T7s8"}, "AIzbX1y2Z3w4V5u6T7s8"),
    ({"type": "navigate", "url": "https://app.example.com/callback?code=4/0AfJohXk93&state=x"}, "4/0AfJohXk93"),
    ({"type": "navigate", "url": "https://bucket.s3.example.com/o?X-Amz-Signature=9a8b7c6d5e4f3a2b1c0d"},
     "9a8b7c6d5e4f3a2b1c0d"),
    ({"type": "navigate", "url": "https://hooks.slack.com/services/T0A1B2C3D/B4E5F6G7H/q8r9s0t1u2v3w4x5"},
     "q8r9s0t1u2v3w4x5"),
    ({"type": "navigate", "url": "https://discord.com/api/webhooks/123456789012/AbCdEfGhIjKlMnOpQrStUv"},
     "AbCdEfGhIjKlMnOpQrStUv"),
    ({"type": "shell", "command": f"echo {_KEY.encode().hex()} | xxd -r -p"}, _KEY.encode().hex()),
    ({"type": "tool", "name": "t", "input": {"args": ["--api-key", "plainvalue123"]}}, "plainvalue123"),
])
def test_a_secret_in_an_address_an_encoding_or_an_argument_list_is_redacted(action: dict, secret: str) -> None:
    assert secret not in str(sanitize_action(action))


@pytest.mark.parametrize("action", [
    {"type": "navigate", "url": "https://docs.example.org/search?q=rollback&page=2&lang=en"},
    {"type": "shell", "command": "git show 9fceb02d0ae598e95dc970b74767f19372d61af8"},
    {"type": "shell", "command": "sha256sum -c e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"type": "tool", "name": "t", "input": {"args": ["--verbose", "--output", "report.txt"]}},
])
def test_ordinary_addresses_digests_and_arguments_stay_readable(action: dict) -> None:
    assert sanitize_action(action) == action


def test_a_key_typed_in_pieces_is_a_secret_in_each_piece() -> None:
    assert typed_secret("", "export T=" + _KEY[:14])  # an issuer's prefix starts it
    assert typed_secret("export T=" + _KEY[:14], _KEY[14:])  # the rest, read after the line
    assert not typed_secret("", "git status")
    assert not typed_secret("git commit -m '", "fix the login form'")
    assert not typed_secret("", "pip install scikit-learn")
