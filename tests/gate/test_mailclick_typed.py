"""Payment, identity and contact data typed on a lure's page (gate/rules/mail_lures.py). Our own examples: a card,
its code, an IBAN or a passport number typed where the host is an impostor's or the title carries a lure blocks;
the same on a known merchant's own checkout only asks as before; contact data there asks; a card field in another
language asks; ordinary forms pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()
BLOCK = "block.typed.payment-on-lure-page"
FIELD = "confirm.typed.payment-data-field"
CONTACT = "confirm.typed.contact-on-lure-page"
CARD = "4000 0566 5566 5556"  # a network's published test card (Luhn-valid)


def typed(text: str, label: str, url: str, title: str = "", page_text: str = ""):
    data = {"type": "type", "text": text, "target": {"label": label}, "url": url}
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=title, app="firefox",
                                                           page_text=page_text))


# -- payment or identity data on a lure's page: block -------------------------------------------------------


@pytest.mark.parametrize(("text", "label", "url", "title"), [
    (CARD, "Card number", "https://parcel-fees.example.net/pay", "Customs fee due - release your parcel"),
    ("4000-0566-5566-5556", "Número do cartão", "https://entrega-rapida.example.com.br/taxa",
     "Encomenda retida - pagamento de taxa"),
    ("123", "CVV", "https://toll-balance.example.xyz/settle", "Unpaid toll - final notice"),
    ("0418", "Prüfnummer", "https://paket-zoll.example.de/zahlung", "Zollgebühr für Ihr Paket"),
    ("NL91 ABNA 0417 1643 00", "IBAN", "https://bonus-club.example.org/claim", "Your loyalty reward is waiting"),
    ("DE89 3704 0044 0532 0130 00", "IBAN", "https://erstattung.example.info/form", "Steuerrückerstattung beantragen"),
    ("C01X00T47", "Reisepass", "https://konto-check.example.net/ident", "Konto gesperrt - Identität bestätigen"),
    (CARD, "Card number", "https://sites.google.com/view/acct-help", "Netflix - Update payment"),
    (CARD, "Numéro de carte", "https://pay.example.com/x", "Votre colis est bloqué : frais de douane"),
])
def test_payment_or_identity_data_on_a_lure_page_blocks(text, label, url, title):
    got = typed(text, label, url, title)
    assert got.decision is Decision.BLOCK and BLOCK in got.rules, (label, title, got.rules)
    assert "text" in got.redact


def test_a_page_whose_text_carries_an_account_lure_blocks_the_card():
    got = typed(CARD, "Card number", "https://secure-form.example.net/step2", "Step 2",
                page_text="Your account has been suspended. Enter your card to restore access.")
    assert BLOCK in got.rules


def test_a_brands_own_checkout_only_asks():
    for url, title in [("https://www.amazon.com/gp/buy/payselect", "Amazon.com: update your payment method"),
                       ("https://checkout.stripe.com/c/pay/cs_live_a1", "Pay Northwind Coffee"),
                       ("https://www.paypal.com/myaccount/money/cards", "Update your payment method - PayPal")]:
        got = typed(CARD, "Card number", url, title)
        assert got.decision is Decision.CONFIRM and BLOCK not in got.rules, (url, got.rules)


def test_an_identity_check_that_claims_no_problem_only_asks():
    got = typed("C01X00T47", "Passport number", "https://onboarding.example-bank.co.uk/kyc",
                "Verify your identity - Example Bank")
    assert got.decision is Decision.CONFIRM and BLOCK not in got.rules


def test_an_ordinary_checkout_without_lure_asks_and_does_not_block():
    got = typed(CARD, "Card number", "https://shop.example-bikes.com/checkout", "Checkout - Example Bikes")
    assert got.decision is Decision.CONFIRM and BLOCK not in got.rules


# -- card, bank and identity fields in other languages: confirm -------------------------------------------------


@pytest.mark.parametrize("label", ["Kartennummer", "Numéro de carte", "Número de tarjeta", "Numero della carta",
                                   "Número do cartão", "Kaartnummer", "Cryptogramme visuel", "Código de segurança",
                                   "Rekeningnummer", "Numéro de passeport", "Codice fiscale"])
def test_a_card_bank_or_id_field_in_another_language_asks(label):
    got = typed("4000 1234 5678 9012", label, "https://shop.example-store.eu/kasse", "Kasse")
    # a card field the policy knows by name asks as a credential field; the others as a payment data field
    assert {FIELD, "confirm.gui.credential-field"} & set(got.rules) and got.decision is Decision.CONFIRM, \
        (label, got.rules)


@pytest.mark.parametrize(("text", "label"), [("Dana", "Nome"), ("12", "Quantity"), ("Kim", "Nachname"),
                                             ("10115", "Postleitzahl"), ("A-1182", "Bestellnummer")])
def test_words_or_an_ordinary_field_are_no_payment_data(text, label):
    got = typed(text, label, "https://shop.example-store.eu/kasse", "Kasse")
    assert FIELD not in got.rules and BLOCK not in got.rules


# -- contact data on a lure's page: confirm -------------------------------------------------------------------


@pytest.mark.parametrize(("text", "label", "url", "title"), [
    ("dana.kim@example.org", "Email", "https://gift-claim.example.net/start", "Claim your free gift"),
    ("+44 7700 900123", "Mobile number", "https://spins.example.bet/join", "Royal Spin Casino - 200 free spins"),
    ("Dana Kim", "Vollständiger Name", "https://belohnung.example.net/form", "Ihre exklusive Belohnung wartet"),
    ("dana.kim@example.org", "E-mail", "https://bit.ly/3xAbCdE", "Sign in"),
    ("18 Birch Lane, Leeds", "Shipping address", "https://prize-desk.example.org/ship", "You have won - claim it"),
])
def test_contact_data_on_a_lure_page_asks(text, label, url, title):
    got = typed(text, label, url, title)
    assert CONTACT in got.rules and got.decision in (Decision.CONFIRM, Decision.BLOCK), (label, got.rules)
    assert "text" in got.redact


@pytest.mark.parametrize(("text", "label", "url", "title"), [
    ("dana.kim@example.org", "Email", "https://github.com/signup", "Verify your email - GitHub"),
    ("dana.kim@example.org", "Email", "https://news.example-blog.org/subscribe", "Subscribe to our newsletter"),
    ("Dana Kim", "Full name", "https://shop.example-bikes.com/checkout", "Checkout - Example Bikes"),
    ("+44 7700 900123", "Phone", "https://dentist.example.co.uk/book", "Book an appointment"),
])
def test_contact_data_on_an_ordinary_page_passes(text, label, url, title):
    got = typed(text, label, url, title)
    assert CONTACT not in got.rules and BLOCK not in got.rules, (label, got.rules)


# -- a brand's sign-in page served by a host no brand owns -------------------------------------------------------


def test_a_brands_sign_in_page_on_a_foreign_host_asks_for_the_email_and_blocks_the_card():
    got = typed("dana.kim@example.org", "Email or phone", "https://redirect.example-mailer.net/r/9f2c",
                "Sign in - Microsoft account")
    assert CONTACT in got.rules
    got = typed(CARD, "Card number", "https://redirect.example-mailer.net/r/9f2c", "PayPal - Log in to your account")
    assert BLOCK in got.rules


@pytest.mark.parametrize(("url", "title"), [
    ("https://login.microsoftonline.com/common/oauth2/authorize", "Sign in - Microsoft account"),
    ("https://acme.okta.com/app/office365/sso", "Sign in to Microsoft 365 - Okta"),
    ("https://app.example-crm.io/login", "Sign in with Google - Example CRM"),
    ("https://www.example-blog.org/subscribe", "How to cancel Netflix - Example Blog"),
    ("https://shop.example-outdoor.com/login", "Discover our new range - Sign in"),
    ("https://git.example-corp.com/users/sign_in", "Sign in · GitLab"),
    ("https://mail.example-corp.com/owa/auth/logon.aspx", "Outlook - Sign in"),
    ("https://wiki.example-corp.com/login.action", "Log in - Confluence"),
])
def test_a_brands_own_sign_in_a_social_login_or_a_page_about_a_brand_passes(url, title):
    got = typed("dana.kim@example.org", "Email", url, title)
    assert CONTACT not in got.rules, (url, got.rules)
