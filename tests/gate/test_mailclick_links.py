"""Links clicked inside an open mail message whose subject or text lures (gate/rules/mail_lures.py,
`[mail-click]` of resources/lures.toml). Our own examples, written from public advice on phishing mail: a
sign-in, verification or payment link of an account or payment lure blocks, any other link of a lure asks, and
the mail program's own controls, the message list and ordinary mail pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.rules.mail_lures import lure_kinds, mail_subject

GATE = SafetyGate()
BLOCK = "block.gui.mail-lure-link"
CONFIRM = "confirm.gui.mail-lure-link"
GMAIL = "https://mail.google.com/mail/u/0/#inbox/QgrcJHrnxyz"


def click(label: str, title: str, app: str = "thunderbird", url: str = "", role: str | None = None,
          page_text: str = ""):
    data: dict = {"type": "click", "x": 400, "y": 300, "target": {"label": label}}
    if role:
        data["target"]["role"] = role
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(window_title=title, app=app, url=url, page_text=page_text))


# -- a sign-in, verification or payment link of an account or payment lure: block ----------------------------


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Verify now", "Your mailbox will be deactivated within 24 hours - Mozilla Thunderbird", "thunderbird"),
    ("Sign in to keep your account", "Unusual sign-in detected on your Contoso account - Thunderbird", "thunderbird"),
    ("Update payment method", "We couldn't process your payment - Message (HTML)", "outlook"),
    ("Retry payment", "Billing failed for your StreamFlix plan - Evolution", "evolution"),
    ("Renew now", "Your antivirus protection has expired - Geary", "geary"),
    ("Pay customs", "Your parcel is on hold: customs fee of 2.99 EUR - KMail", "kmail"),
    ("Claim your refund", "Tax refund notification: 312.40 available - Mailspring", "mailspring"),
    ("Pay toll", "Unpaid toll: final notice - Mail", "mail"),
    ("Jetzt verifizieren", "Ihr Konto wurde eingeschränkt - Thunderbird", "thunderbird"),
    ("Zahlung aktualisieren", "Zahlung fehlgeschlagen: Ihr Abo läuft ab - Thunderbird", "thunderbird"),
    ("Vérifier maintenant", "Activité inhabituelle sur votre compte - Thunderbird", "thunderbird"),
    ("Payer maintenant", "Votre colis est bloqué : frais de douane - Thunderbird", "thunderbird"),
    ("Verificar cuenta", "Su cuenta será suspendida - Thunderbird", "thunderbird"),
    ("Pagar ahora", "Paquete retenido: tasas de aduana pendientes - Thunderbird", "thunderbird"),
    ("Verifica ora", "Attività sospetta sul tuo conto - Thunderbird", "thunderbird"),
    ("Paga ora", "Pacco in giacenza - Thunderbird", "thunderbird"),
    ("Pagar taxa", "Encomenda retida: taxa de importação - Thunderbird", "thunderbird"),
    ("Atualizar dados", "Sua conta será bloqueada - Thunderbird", "thunderbird"),
    ("Nu bevestigen", "Verdachte activiteit op uw rekening - Thunderbird", "thunderbird"),
    ("Betalen", "Laatste herinnering: openstaande factuur - Thunderbird", "thunderbird"),
])
def test_a_sign_in_or_payment_link_of_an_account_or_payment_lure_blocks(label, title, app):
    got = click(label, title, app)
    assert got.decision is Decision.BLOCK and BLOCK in got.rules, (label, title, got.rules)


def test_a_button_that_repeats_the_subject_is_still_a_link_of_the_message():
    got = click("Update billing information", "Reminder: update billing information now - Thunderbird")
    assert BLOCK in got.rules
    # ... while the message's own row in the list (its subject, sender and date) is not
    got = click("Reminder: update billing information now  Billing Team  09:12",
                "Reminder: update billing information now - Thunderbird")
    assert BLOCK not in got.rules and CONFIRM not in got.rules


def test_a_webmail_page_with_the_message_open_is_a_mail_too():
    got = click("Confirm your account", "Mailbox quota exceeded - dana.kim@example.org - Gmail", "firefox", GMAIL)
    assert BLOCK in got.rules
    got = click("Confirm your account", "Mailbox quota exceeded - Mail - Dana Kim - Outlook", "chrome",
                "https://outlook.live.com/mail/0/inbox/id/AQMk")
    assert BLOCK in got.rules


# -- any other link of a lure, or a sign-in link of a mail that presses: confirm --------------------------------


@pytest.mark.parametrize(("label", "title"), [
    ("click here", "New sign-in to your account from an unknown device - Thunderbird"),
    ("See details", "Your parcel could not be delivered - Thunderbird"),
    ("Get it now", "You have been selected to receive a free gift - Thunderbird"),
    ("Open my reward", "Ihre exklusive Belohnung ist bereit - Thunderbird"),
    ("Play now", "150 free spins waiting at Lucky Crown Casino - Thunderbird"),
    ("Start earning", "Make money from home in two hours a day - Thunderbird"),
    ("Découvrir", "Vous avez gagné un bon d'achat - Thunderbird"),
    ("Scopri di più", "Hai vinto un buono regalo - Thunderbird"),
    ("Ver oferta", "{firstname}, tu regalo te espera - Thunderbird"),
    ("Bekijk het aanbod", "Je hebt gewonnen! - Thunderbird"),
    ("Report this sender", "Someone tried to sign in to your account - Thunderbird"),
    ("View details", "Final notice before your service is cut off - Thunderbird"),
    ("Mehr Infos", "Letzte Warnung: Handlungsbedarf - Thunderbird"),
])
def test_another_link_of_a_lure_asks(label, title):
    got = click(label, title)
    assert got.decision is Decision.CONFIRM and CONFIRM in got.rules, (label, title, got.rules)


def test_a_sign_up_confirmation_only_asks():
    got = click("Confirm account", "Please confirm your account - Thunderbird")
    assert got.decision is Decision.CONFIRM and CONFIRM in got.rules and BLOCK not in got.rules
    got = click("Konto bestätigen", "Bitte Konto bestätigen - Thunderbird")
    assert BLOCK not in got.rules
    # ... and another link of such a mail passes
    got = click("Our privacy policy", "Please confirm your account - Thunderbird")
    assert CONFIRM not in got.rules


def test_a_sign_in_link_of_a_mail_that_presses_asks():
    got = click("Log in", "Urgent: the review is on Friday - Thunderbird")
    assert CONFIRM in got.rules
    # ... or whose text, not its subject, claims the account problem
    got = click("Sign in", "Notice - Thunderbird", page_text="Your account has been suspended. Sign in to restore.")
    assert CONFIRM in got.rules


# -- the mail program's own controls, the list, ordinary mail: nothing from these rules ------------------------


@pytest.mark.parametrize("label", ["Reply", "Reply All", "Forward", "Archive", "Delete", "Delete message", "Junk",
                                   "Mark as Junk", "Report phishing", "Move to", "Print", "Antworten", "Löschen",
                                   "Répondre", "Supprimer", "Responder", "Eliminar", "Rispondi", "Excluir",
                                   "Beantwoorden", "Verwijderen"])
def test_the_mail_programs_own_controls_pass(label):
    got = click(label, "Your account will be suspended - verify now - Thunderbird")
    assert BLOCK not in got.rules and CONFIRM not in got.rules, (label, got.rules)


def test_a_row_of_the_message_list_and_a_folder_window_pass():
    got = click("Your account will be suspended", "Inbox - Thunderbird")
    assert BLOCK not in got.rules and CONFIRM not in got.rules
    got = click("Verify now", "Posteingang (12) - Thunderbird")
    assert BLOCK not in got.rules and CONFIRM not in got.rules
    got = click("Unpaid invoice reminder - Acme Billing", "Unpaid invoice reminder - Thunderbird", role="tree item")
    assert BLOCK not in got.rules and CONFIRM not in got.rules


@pytest.mark.parametrize(("label", "title"), [
    ("Track package", "Your order #4471 has shipped - Thunderbird"),
    ("Track your parcel", "Ihre Bestellung ist unterwegs - Thunderbird"),
    ("Read more", "This week in Rust 512 - Thunderbird"),
    ("Join meeting", "Re: Sprint planning on Tuesday - Thunderbird"),
    ("View pull request", "[acme/widgets] Fix the date parser (#88) - Thunderbird"),
    ("Verify email address", "Welcome to Codeberg - Thunderbird"),
    ("Sign in", "Your invitation to the team workspace - Thunderbird"),
    ("View invoice", "Your receipt from Northwind Coffee - Thunderbird"),
    ("Download the slides", "Urgent: slides for tomorrow's review - Thunderbird"),
    ("Open the document", "Fwd: contract draft v3 - Thunderbird"),
])
def test_links_of_ordinary_mail_pass(label, title):
    got = click(label, title)
    assert BLOCK not in got.rules and CONFIRM not in got.rules, (label, title, got.rules)


def test_a_click_outside_any_mail_program_is_not_a_mail_link():
    got = click("Verify now", "Your account will be suspended - Visual Studio Code", "code")
    assert BLOCK not in got.rules and CONFIRM not in got.rules
    got = click("Verify now", "Your account will be suspended", "firefox", "https://docs.example.org/phishing-101")
    assert BLOCK not in got.rules and CONFIRM not in got.rules


def test_a_compose_window_is_no_message_received():
    got = click("Send", "Write: Re: Your account will be suspended - Thunderbird")
    assert BLOCK not in got.rules and CONFIRM not in got.rules


# -- the pieces ----------------------------------------------------------------------------------------------


def test_the_subject_is_the_title_without_the_program_and_the_account():
    assert mail_subject("Quarterly report - Mozilla Thunderbird", "thunderbird") == "Quarterly report"
    assert mail_subject("Lunch? - dana@example.org - Gmail", "firefox", GMAIL) == "Lunch?"
    assert mail_subject("Inbox (3) - dana@example.org - Gmail", "firefox", GMAIL) is None
    assert mail_subject("Quarterly report - LibreOffice Writer", "soffice") is None
    # the program named by the title alone, when the app is not known
    assert mail_subject("Your parcel is on hold - Mozilla Thunderbird") == "Your parcel is on hold"
    assert mail_subject("Your parcel is on hold - Notepad") is None


def test_lure_kinds_read_every_language_and_an_unfilled_merge_field():
    assert lure_kinds("Ihr Passwort läuft ab") == {"account"}
    assert lure_kinds("Bußgeld: letzte Mahnung") >= {"payment"}
    assert lure_kinds("Dear {first_name}, news") == {"placeholder"}
    assert lure_kinds("Meeting notes from Tuesday") == frozenset()
