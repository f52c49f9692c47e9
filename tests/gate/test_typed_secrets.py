"""Live secrets typed where they leave (block.typed.secret-out, confirm.typed.secret-into-file): the token
formats of resources/secrets.toml, session cookies, seed phrases and recovery codes, each with its near miss.
Our own examples: every token below is made up in the issuer's published shape."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.sensitive import find_secret, partial_secret, seed_phrase

GATE = SafetyGate()
CHAT = "https://chat.example.com/channel/general"
ISSUE = "https://git.example.com/acme/app/issues/new"
SEARCH = "https://search.example.com/"
HEX32 = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"


def typed(text: str, label: str | None, page: str = CHAT, app: str = "", window: str = ""):
    action = {"type": "type", "text": text}
    if label:
        action["target"] = {"label": label}
    return GATE.assess(action_from_dict(action), Observation(url=page, app=app, window_title=window))


TOKENS = [
    ("Twilio API key secret", f"the twilio key is SK{HEX32}"),
    ("Shopify access token", f"shpat_{HEX32}"),
    ("Databricks access token", f"token dapi{HEX32}"),
    ("GitLab token", "deploy with gldt-Zq3k8RbW2mTn7xPf4LhC9v"),
    ("Stripe webhook signing secret", "whsec_R2d9Kq7mWx3LpT8vN4bZc6Yh"),
    ("Google OAuth client secret", "GOCSPX-7fQk2LmZp9RtWx4Nb8VcHd3J"),
    ("Azure storage or service bus key",
     "DefaultEndpointsProtocol=https;AccountName=st1;AccountKey=q8Zk3Lm9Pw2Rt7Vx4Nb6Hc1Jd5Fg0Ks==;"),
    ("Mailgun API key", f"key-{HEX32}"),
    ("Mailchimp API key", f"{HEX32}-us14"),
    ("Telegram bot token", "bot 7312456890:AAF3kq9ZmWp2Lr7Xt4Nv8Bc6Hd1Jf5Gs0Ky"),
    ("Postman API key", "PMAK-65f0a1b2c3d4e5f6a7b8c9d0-0f1e2d3c4b5a69788796a5b4c3d2e1f0ab"),
    ("private key body", "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDq7"),
    ("Heroku API key", "heroku api key: 3f2b8c1d-9a4e-4b7f-8c2d-1e5f6a7b8c9d"),
    ("database connection string with a password",
     "Data Source=db01.corp;Initial Catalog=crm;User Id=app;Password=Wint3r-Sun-88;"),
    ("credential named and given", "client_secret: 8dK2mQ7xLp4Rz9Wt3Nv6Bc1H"),
    ("a session cookie", "here: PHPSESSID=9k2m4q7x1z8w3r6t5y0u2i4o; path=/"),
    ("a wallet seed phrase",
     "1. gravity 2. machine 3. north 4. sort 5. system 6. female 7. filter 8. attitude 9. volume 10. fold "
     "11. club 12. stay"),
    ("two-factor recovery codes", "backup codes: 4821-9930 1174-5082 6639-2207 8845-1063"),
]


@pytest.mark.parametrize(("kind", "text"), TOKENS)
def test_each_format_is_found_and_blocked_in_a_message(kind, text):
    assert find_secret(text) == kind
    a = typed(text, "Message")
    assert a.decision is Decision.BLOCK
    assert "block.typed.secret-out" in a.rules or "block.gui.secret-exposure" in a.rules


@pytest.mark.parametrize("place", [("Comment", ISSUE), ("Search", SEARCH), ("Address bar", SEARCH),
                                   ("Email", "http://203.0.113.7/verify"), (None, "")])
def test_a_secret_blocks_in_a_comment_a_search_an_unknown_form_and_nowhere_named(place):
    label, page = place
    a = typed(f"shpat_{HEX32}", label, page)
    assert a.decision is Decision.BLOCK
    assert "block.typed.secret-out" in a.rules


def test_into_its_own_credential_field_it_asks_and_never_blocks():
    a = typed(f"shpat_{HEX32}", "Admin API access token", "https://shop.example.com/admin/settings")
    assert a.decision is Decision.CONFIRM
    assert "block.typed.secret-out" not in a.rules


def test_into_a_code_editor_it_asks():
    a = typed(f"mailgun: key-{HEX32}", None, "", app="code", window=".env - shop - Visual Studio Code")
    assert a.decision is Decision.CONFIRM
    assert "confirm.typed.secret-into-file" in a.rules


def test_a_terminal_leaves_it_to_the_shell_rules():
    a = typed(f"export SHOPIFY_TOKEN=shpat_{HEX32}", "Terminal", "")
    assert "block.typed.secret-out" not in a.rules


NEAR_MISSES = [
    "Rotate the Shopify token and the Twilio key before Friday",
    "api key: YOUR_API_KEY_GOES_HERE_123",
    f"the commit {HEX32} fixed it",
    "the access token expires in 3600 seconds",
    "we use a sessionid cookie to keep you signed in",
    "I wrote the able above absent word list for my spelling test today",
    "my backup codes are in the safe, not here",
    "Server=db01;Database=crm;Integrated Security=true;",
    "SKU SK12 ships tomorrow",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_text_about_secrets_and_placeholders_is_no_secret(text):
    assert find_secret(text) is None
    assert "block.typed.secret-out" not in typed(text, "Message").rules


def test_a_seed_phrase_needs_twelve_list_words_in_a_row():
    words = ["gravity", "machine", "north", "sort", "system", "female", "filter", "attitude", "volume", "fold",
             "club", "stay"]
    assert seed_phrase(" ".join(words))
    assert not seed_phrase(" ".join(words[:11]))
    assert not seed_phrase(" ".join([*words[:6], "the", *words[6:]]))


def test_a_url_with_a_token_opened_from_the_address_bar_is_left_to_the_navigation_rules():
    a = typed("https://app.example.com/magic?token=Zk3Lm9Pw2Rt7Vx4Nb6Hc1Jd5", "Address bar", SEARCH)
    assert "block.typed.secret-out" not in a.rules
    # the same token typed there alone is a search: it goes to the search engine
    assert "block.typed.secret-out" in typed(f"shpat_{HEX32}", "Address bar", SEARCH).rules


def test_an_env_line_with_a_secret_value_blocks_in_a_comment_and_a_reference_does_not():
    a = typed("DB_PASSWORD=Tr0ub4dor&3", "Comment", ISSUE)
    assert a.decision is Decision.BLOCK
    assert find_secret("export STRIPE_SECRET_KEY=rk8Zq2Lm9Pw") == "a secret variable with its value"
    for text in ("DB_PASSWORD=${DB_PASSWORD}", "Please set DB_PASSWORD in your .env file", "AUTH_TOKEN=true",
                 "DB_PASSWORD=<your password>"):
        assert find_secret(text) is None, text


def test_a_rich_text_box_labelled_editor_is_no_code_editor():
    a = typed(f"shpat_{HEX32}", "Editor", ISSUE)
    assert "block.typed.secret-out" in a.rules


@pytest.mark.parametrize(("kind", "text"), [
    ("credential file entry", "machine git.acme-corp.net login ann password ghx8Zk2Lm9"),
    ("credential file entry", '{"auths": {"registry.acme-corp.net": {"auth": "YW5uOnMzY3JldHBhc3N3b3Jk"}}}'),
    ("vendor token with a fixed prefix", "sonar token sqp_" + "0f1e2d3c4b" * 4),
    ("vendor token with a fixed prefix", "pscale_tkn_" + "Ab3Cd4Ef5G" * 4),
    ("webhook or service URL with its key",
     "https://contoso.webhook.office.com/webhookb2/" + "a1b2c3d4-e5f6-" * 4),
])
def test_credential_files_and_more_vendor_formats(kind, text):
    assert find_secret(text) == kind


def test_prose_that_names_the_words_of_a_netrc_line_is_no_secret():
    assert find_secret("the machine learning login page password field is broken") is None


def test_a_seed_phrase_into_a_web_pages_recovery_field_blocks_and_into_a_wallet_app_asks():
    seed = "gravity machine north sort system female filter attitude volume fold club stay"
    a = typed(seed, "Recovery phrase", "https://wallet-restore.example.net/import")
    assert a.decision is Decision.BLOCK
    assert "block.typed.secret-out" in a.rules
    a = typed(seed, "Recovery phrase", "", app="electrum", window="Electrum - Restore wallet")
    assert a.decision is Decision.CONFIRM


# -- keys written partly: a prefix, the first characters, an elision ----------------------------------------

@pytest.mark.parametrize(("text", "kind"), [
    ("prod key is rk_live_9Tq2...(rest in vault)", "a Stripe live key"),
    ("token ghs_Lm8P… from the CI box", "a GitHub token"),
    ("ASIA7QZR**** was the session key", "an AWS access key"),
    ("sk-ant-api03-Xb [redacted]", "an OpenAI or Anthropic key"),
    ("bot token xoxb-5521-88… works", "a Slack token"),
])
def test_a_key_written_partly_is_found(text, kind):
    assert partial_secret(text) == kind


@pytest.mark.parametrize("text", [
    "Stripe secret keys begin with sk_live_... and test ones with sk_test_",
    "paste your ghp_your_token... here",
    "AKIA... is the prefix of an access key id",
    "the ghp_ prefix marks a classic personal token",
    "she said... AKIA is fine",
])
def test_a_prefix_alone_or_a_placeholder_is_no_key(text):
    assert partial_secret(text) is None


@pytest.mark.parametrize(("text", "label", "page"), [
    ("Here's the one from .env: rk_live_9Tq2Zk…", "Message", CHAT),
    ("Failing with ghs_Lm8Pq3... on deploy", "Leave a comment", ISSUE),
    ("ASIA7QZR**** / secret in the usual place", None, ""),
])
def test_a_key_written_partly_into_a_message_blocks(text, label, page):
    a = typed(text, label, page)
    assert a.decision is Decision.BLOCK
    assert "block.typed.partial-secret-out" in a.rules


def test_a_key_written_partly_into_a_runbook_asks():
    a = typed("Rotated ASIA7QZR**** on Monday", "Page content", "https://wiki.example.com/ops/aws-rotation")
    assert a.decision is Decision.CONFIRM
    assert "confirm.typed.partial-secret" in a.rules


def test_a_message_about_key_prefixes_passes():
    a = typed("Live Stripe keys look like sk_live_... so never paste one here", "Message", CHAT)
    assert a.decision is Decision.ALLOW
