"""A host label's brand is found as before now that the brands are sorted once: the longest listed brand of five
letters or more spelled inside the label, or the label itself when it is a listed brand."""

from gate.rules import kit_deploy
from gate.rules.kit_deploy import _BRANDS, _brand_in, kit_host


def _brand_in_per_call(label: str) -> str | None:
    flat = label.replace("-", "")
    if flat in _BRANDS:
        return flat
    return next((b for b in sorted(_BRANDS, key=len, reverse=True) if len(b) >= 5 and b.isalpha() and b in flat), None)


LABELS = ["get", "example", "www", "paypal-login", "secure-paypal", "appleid-verify", "microsoftonline-auth",
          "my-bank", "netflix", "amazon-prime-help", "docs", "login-microsoft365", "x", "", "wellsfargo-alerts",
          "github", "coinbase-wallet", "steamcommunity-gift", "update-chrome", "outlook-office"]


def test_the_brand_spelled_in_a_label_is_the_same():
    for label in LABELS:
        assert _brand_in(label) == _brand_in_per_call(label), label


def test_every_spelled_brand_is_listed_long_and_alphabetic():
    assert set(kit_deploy._SPELLED_BRANDS) == {b for b in _BRANDS if len(b) >= 5 and b.isalpha()}
    lengths = [len(b) for b in kit_deploy._SPELLED_BRANDS]
    assert lengths == sorted(lengths, reverse=True)


def test_a_brand_spelled_on_a_dynamic_dns_name_is_still_named():
    assert kit_host("paypal-secure.duckdns.org") is not None
    assert kit_host("en.wikipedia.org") is None
