"""What typed text carries: card numbers, national ids, bank numbers, password-shaped tokens. Our own
examples (published test numbers of the card networks and banks), each with near misses."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision
from gate.sensitive import aba_valid, find_sensitive, iban_valid, luhn_valid, password_shaped

GATE = SafetyGate()


def typed(text: str, label: str | None = "Notes"):
    data: dict = {"type": "type", "text": text}
    if label:
        data["target"] = {"label": label}
    return GATE.assess(action_from_dict(data))


def test_checksums():
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")
    assert iban_valid("GB82WEST12345698765432") and not iban_valid("GB82WEST12345698765433")
    assert aba_valid("011000015") and not aba_valid("011000016") and not aba_valid("991000015")


@pytest.mark.parametrize(("text", "kind"), [
    ("4111 1111 1111 1111", "card number"),
    ("my card is 5500-0000-0000-0004", "card number"),
    ("3782 822463 10005", "card number"),
    ("SSN: 219-09-9999", "US social security number"),
    ("social security 219099999", "US social security number"),
    ("Pay to DE89 3704 0044 0532 0130 00 please", "IBAN"),
    ("iban=FR1420041010050500013M02606", "IBAN"),
    ("routing number 011000015, account 12345678", "US bank routing number"),
    ("NI number JG 10 37 45 B", "UK national insurance number"),
    ("DNI 12345678Z", "Spanish national id (DNI)"),
    ("SIN 046-454-286", "Canadian social insurance number"),
    ("the db is at 10.20.30.40:5432", "internal IP address"), ("gateway 192.168.0.1", "internal IP address"),
])
def test_found(text, kind):
    assert kind in {f.kind for f in find_sensitive(text)}, text
    got = typed(text)
    assert got.decision is Decision.CONFIRM and "confirm.gui.sensitive-data" in got.rules, got
    assert "text" in got.redact


@pytest.mark.parametrize("text", [
    "4111 1111 1111 1112",  # Luhn fails
    "Order #1234567890123",  # 13 digits, no card prefix / Luhn
    "000-12-3456", "666-45-6789", "912-34-5678",  # never issued
    "DE89 3704 0044 0532 0130 01",  # mod-97 fails
    "order 011000015",  # a routing-valid number, but nothing says routing
    "call me at +1 (415) 555-2671", "2024-12-01", "Meeting at 10:30 in room 4",
    "DNI 12345678A",  # wrong letter
    "version 10.2.3.4567", "public DNS 8.8.8.8", "172.32.0.1 is not private", "10.300.1.1",
])
def test_not_found(text):
    assert not find_sensitive(text), text
    assert "confirm.gui.sensitive-data" not in typed(text).rules


@pytest.mark.parametrize("text", ["Tr0ub4dor&3", "RiverStone2024!", "Sunflower77", "Xk9pQm2Lw7Zt", "p@ssw0rd99",
                                  "Blue_Whale_2024"])  # words joined by underscores, not a variable's upper-case name
def test_password_shaped(text):
    assert password_shaped(text)
    got = typed(text, "Comment")
    assert got.decision is Decision.CONFIRM and "confirm.gui.password-shaped" in got.rules
    assert "text" in got.redact


@pytest.mark.parametrize("text", [
    "iPhone15Pro", "MacBook", "john.doe88", "jane_smith", "ABC-12345", "2024-12-01", "user@example.com",
    "https://example.com/a?b=1", "Weekly standup", "da39a3ee5e6b4b0d", "SKU4567", "Hello!",
    "FEATURE_FLAG_newCheckout2", "MY_APP_token9Zx",  # a variable's name with a suffix
])
def test_not_password_shaped(text):
    assert not password_shaped(text), text


@pytest.mark.parametrize("label", ["Password", "Search", "Username", "Email", "Coupon code", "Nickname",
                                   "Full name"])
def test_password_shaped_into_password_search_or_login_field_is_not_this_rule(label):
    assert "confirm.gui.password-shaped" not in typed("RiverStone2024!", label).rules


def test_a_secret_token_is_blocked_not_merely_asked():
    got = typed("ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "Description")
    assert got.decision is Decision.BLOCK
    assert "confirm.gui.password-shaped" not in got.rules


def test_private_key_into_an_ordinary_field_is_blocked():
    got = typed("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n", "Message")
    assert got.decision is Decision.BLOCK


def test_linear_on_a_huge_text():
    # one pass each: a hostile agent sends a mebibyte of digits and separators
    assert find_sensitive("ab 12, " * 150_000 + "4111111111111111")[-1].kind == "card number"
    assert not find_sensitive("1 " * 500_000)
    assert not password_shaped("aA1!" * 100_000)


@pytest.mark.parametrize(("label", "asks"), [
    ("Type DELETE to confirm", True), ("Enter the repository name to confirm", True),
    ("To confirm, type 'permanently delete'", True), ("Type a name and press Enter", False),
    ("Confirm deletion by typing the workspace name", True), ("Type your message", False),
    ("Confirm password", False), ("Type here to search", False),
])
def test_typing_the_confirmation_phrase_of_a_destructive_dialog_asks(label, asks):
    assert ("confirm.gui.typed-confirmation" in typed("delete", label).rules) is asks, label
