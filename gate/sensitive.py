"""What typed text carries: card numbers, national ids, bank account numbers, internal network addresses,
password-shaped tokens and live secrets.

    find_sensitive(text) -> tuple[Sensitive, ...]   every finding, in order of appearance
    password_shaped(text) -> bool                     one token that reads like a password
    find_secret(text) -> str | None                   the kind of live secret the text holds (resources/secrets.toml,
                                                      session cookies, a wallet's seed phrase, 2FA recovery codes)

Each detector is a shape (a linear regex: no nested quantifiers, so 1 MiB of text costs one pass) and a
check that the shape alone cannot fake: the Luhn digit of a card, mod-97 of an IBAN, the ABA checksum
of a US routing number, the letter of a Spanish DNI, the number ranges the SSA never issues. A random
run of digits rarely passes both, so an order number or a phone number does not look like a card.

Live credentials (token prefixes, PEM keys, JWTs) are `[gui] secret_patterns` of the policy, matched by
gate/rules/gui.py; `find_secret` adds the token formats of resources/secrets.toml and the secrets that are
not one token: a session cookie, a seed phrase, a list of recovery codes.
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import pathlib
import re
import tomllib
from importlib import resources
from typing import NamedTuple

__all__ = ["Sensitive", "aba_valid", "find_secret", "find_sensitive", "iban_valid", "luhn_valid", "password_shaped",
           "seed_phrase"]


class Sensitive(NamedTuple):
    kind: str  # "card number", "US social security number", "IBAN", ...
    category: str  # "financial data" | "identity documents" | "internal infrastructure"
    start: int  # where in the text (for a person; never the value itself)


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_valid(iban: str) -> bool:
    """ISO 13616: the country code and check digits moved to the end, letters as numbers, mod 97 is 1."""
    s = iban[4:] + iban[:4]
    try:
        return int("".join(str(int(ch, 36)) for ch in s)) % 97 == 1
    except ValueError:
        return False


def aba_valid(digits: str) -> bool:
    """ABA routing number: 3-7-1 weighted digit sum divisible by 10, and a Federal Reserve prefix."""
    if len(digits) != 9 or not digits.isdigit():
        return False
    prefix = int(digits[:2])
    if not (prefix <= 12 or 21 <= prefix <= 32 or 61 <= prefix <= 72 or prefix == 80):
        return False
    d = [ord(c) - 48 for c in digits]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0


# 13-19 digits, optionally grouped by single spaces or dashes; not glued to other digits
_CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d])")
# issuer prefixes of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro)
_CARD_IIN = re.compile(r"4|5[1-5]|2[2-7]|3[47]|6(?:011|5|4[4-9]|2)|35|30[0-5]|3[68]|5[06-8]|6[0-9]")
_SSN = re.compile(r"(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])")
_SSN_WORD = re.compile(r"\b(?:ssn|social security)\b[^\d\n]{0,30}(\d{9})(?!\d)", re.IGNORECASE)
_SIN = re.compile(r"(?<![\d-])(\d{3})([- ])(\d{3})\2(\d{3})(?![\d-])")
_NINO = re.compile(r"\b(?![DFIQUV])[A-Z](?![DFIOQUV])[A-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b")
_DNI = re.compile(r"\b(\d{8})-?([A-Z])\b")
_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
_IBAN = re.compile(r"\b([A-Z]{2}\d{2})((?: ?[A-Z0-9]){11,30})\b")
_IBAN_LENGTH = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24,
    "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21,
    "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31,
    "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
    "SA": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}
_ROUTING = re.compile(r"\b(?:routing|aba|rtn|transit)\b[^\d\n]{0,30}(\d{9})(?!\d)", re.IGNORECASE)


def _cards(text: str) -> list[Sensitive]:
    out = []
    for m in _CARD.finditer(text):
        digits = m.group(0).replace(" ", "").replace("-", "")
        if 13 <= len(digits) <= 19 and _CARD_IIN.match(digits) and len(set(digits)) > 1 and luhn_valid(digits):
            out.append(Sensitive("card number", "financial data", m.start()))
    return out


def _ssn_ok(area: str, group: str, serial: str) -> bool:
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def _national_ids(text: str) -> list[Sensitive]:
    out = []
    for m in _SSN.finditer(text):
        if _ssn_ok(m.group(1), m.group(3), m.group(4)):
            out.append(Sensitive("US social security number", "identity documents", m.start()))
    for m in _SSN_WORD.finditer(text):
        d = m.group(1)
        if _ssn_ok(d[:3], d[3:5], d[5:]):
            out.append(Sensitive("US social security number", "identity documents", m.start(1)))
    for m in _SIN.finditer(text):
        digits = m.group(1) + m.group(3) + m.group(4)
        # a Canadian SIN is Luhn-valid; the SSN shape (3-2-4) never matches this 3-3-3 one
        if luhn_valid(digits):
            out.append(Sensitive("Canadian social insurance number", "identity documents", m.start()))
    for m in _NINO.finditer(text):
        out.append(Sensitive("UK national insurance number", "identity documents", m.start()))
    for m in _DNI.finditer(text):
        if _DNI_LETTERS[int(m.group(1)) % 23] == m.group(2):
            out.append(Sensitive("Spanish national id (DNI)", "identity documents", m.start()))
    return out


def _bank(text: str) -> list[Sensitive]:
    out = []
    for m in _IBAN.finditer(text):
        iban = (m.group(1) + m.group(2)).replace(" ", "")
        want = _IBAN_LENGTH.get(iban[:2])
        if want is not None and len(iban) >= want and iban_valid(iban[:want]):
            out.append(Sensitive("IBAN", "financial data", m.start()))
    for m in _ROUTING.finditer(text):
        if aba_valid(m.group(1)):
            out.append(Sensitive("US bank routing number", "financial data", m.start(1)))
    return out


# private (RFC 1918) IPv4 addresses: the layout of an internal network, which policies ask not to expose
_PRIVATE_IP = re.compile(
    r"(?<![\d.])(?:10\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])|192\.168)\.\d{1,3}\.\d{1,3}(?![\d.]|\.\d)")


def _internal(text: str) -> list[Sensitive]:
    out = []
    for m in _PRIVATE_IP.finditer(text):
        if all(int(p) <= 255 for p in m.group(0).split(".")):
            out.append(Sensitive("internal IP address", "internal infrastructure", m.start()))
    return out


def find_sensitive(text: str) -> tuple[Sensitive, ...]:
    """Every card number, national id and bank account number in `text` that passes its checksum, and
    private network addresses."""
    if not any(ch.isdigit() for ch in text):  # every detector needs digits: most text stops here
        return ()
    found = _cards(text) + _national_ids(text) + _bank(text) + _internal(text)
    return tuple(sorted(found, key=lambda s: s.start))


# -- passwords ------------------------------------------------------------------------------------

_ONE_TOKEN = re.compile(r"\S{8,64}")
_NOT_PASSWORD = re.compile(
    r"^(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # an e-mail address
    r"|[a-z][a-z0-9+.-]*://\S*|www\.\S*"  # a URL
    r"|[\d\s/.:+()-]+"  # dates, times, phone numbers, amounts
    r"|[A-Fa-f0-9-]+"  # hex ids, UUIDs
    r"|[A-Z0-9_-]+|[a-z0-9_-]+"  # one case only: codes, slugs, SKUs
    r"|<.*>|\S*\(.*\)\S*"  # markup and code: <b>x</b>, print(x)
    r")$")


_STRONG_SYMBOLS = frozenset("!@#$%^&*?~+=<>|;:,/\\\"'`()[]{}")


def _class(ch: str) -> int:
    return 1 if ch.islower() else 2 if ch.isupper() else 3 if ch.isdigit() else 4


def password_shaped(text: str) -> bool:
    """The whole text is one token of 8-64 characters that reads like a password: lower and upper case
    letters with digits (ending in two or more digits, or switching between kinds of character often),
    or letters with digits and a symbol such as `!@#$`. E-mail addresses, URLs, dates, ids, codes in one
    case and product names (`iPhone15Pro`) do not; `.`, `-` and `_` are how identifiers are written, not
    password symbols."""
    token = text.strip()
    if not _ONE_TOKEN.fullmatch(token) or _NOT_PASSWORD.match(token):
        return False
    lower = any(c.islower() for c in token)
    upper = any(c.isupper() for c in token)
    digit = any(c.isdigit() for c in token)
    strong = any(c in _STRONG_SYMBOLS for c in token)
    if not (lower or upper) or not digit:
        return False
    if strong:
        return True
    if not (lower and upper):
        return False
    tail = len(token) - len(token.rstrip("0123456789"))
    switches = sum(1 for a, b in itertools.pairwise(token) if _class(a) != _class(b))
    return tail >= 2 or switches >= 6


# -- live secrets -----------------------------------------------------------------------------------

_SECRETS = tomllib.loads(resources.files("resources").joinpath("secrets.toml").read_text("utf-8"))
_TOKEN_NAMES = tuple(t["name"] for t in _SECRETS["token"])
# one alternation, a named group per format: the text is read once, and the group says which format it was
_TOKENS = re.compile("|".join(f"(?P<t{i}>{t['pattern']})" for i, t in enumerate(_SECRETS["token"])))
# what stands in for a secret in documentation and templates: not a live one
_PLACEHOLDER = re.compile(r"example|your|xxxx|placeholder|redacted|dummy|sample|changeme|fake|<|\*\*\*\*|\.\.\.",
                          re.IGNORECASE)
_COOKIE = re.compile(
    r"(?<![\w.-])(?:" + "|".join(sorted((re.escape(n) for n in _SECRETS["cookie"]["names"]), key=len, reverse=True))
    + r")(?:_[0-9a-f]{8,40})?=(?P<value>[^\s;,\"']{16,512})", re.IGNORECASE)
_RECOVERY_NAME = re.compile(
    r"(?<!\w)(?:" + "|".join(sorted((re.escape(n) for n in _SECRETS["recovery"]["names"]), key=len, reverse=True))
    + r")(?!\w)", re.IGNORECASE)
# one recovery code: 8 to 12 letters and digits, maybe split in two by a dash or a space ("4f8a-2c9d", "1234 5678")
_RECOVERY_CODE = re.compile(r"(?<![\w-])(?=[a-z]{0,11}\d)[a-z0-9]{4,6}[- ]?[a-z0-9]{4,6}(?![\w-])", re.IGNORECASE)
# ten or more codes of the one shape GitHub and others print them in, named or not
_CODE_LIST = re.compile(r"(?<![\w-])[a-f0-9]{5}-[a-f0-9]{5}(?![\w-])")


def _mixed(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _token(text: str) -> str | None:
    for m in _TOKENS.finditer(text):
        if _PLACEHOLDER.search(m.group(0)) is None:
            return _TOKEN_NAMES[int(m.lastgroup[1:])]  # type: ignore[index]
    return None


def _cookie(text: str) -> str | None:
    for m in _COOKIE.finditer(text):
        value = m.group("value")
        if _mixed(value) and _PLACEHOLDER.search(value) is None:
            return "a session cookie"
    return None


def _recovery_codes(text: str) -> str | None:
    if len(_CODE_LIST.findall(text, 0, 4096)) >= 8:
        return "two-factor recovery codes"
    named = _RECOVERY_NAME.search(text)
    if named is None:
        return None
    codes = _RECOVERY_CODE.findall(text, named.end(), named.end() + 1024)
    return "two-factor recovery codes" if len(codes) >= 2 else None


_SEED_LENGTHS = (12, 15, 18, 21, 24)
_WORDS = re.compile(r"[a-z]+")


@functools.cache
def _bip39_words() -> frozenset[str]:
    """The BIP39 English word list, as the `mnemonic` package ships it (read once, when first needed)."""
    spec = importlib.util.find_spec("mnemonic")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the mnemonic package (the BIP39 word list) is not installed")
    path = pathlib.Path(next(iter(spec.submodule_search_locations))) / "wordlist" / "english.txt"
    words = frozenset(w.strip() for w in path.read_text("utf-8").split() if w.strip())
    if len(words) != 2048:
        raise RuntimeError(f"{path}: the BIP39 list has 2048 words, found {len(words)}")
    return words


def seed_phrase(text: str) -> bool:
    """The text holds a wallet's recovery (seed) phrase: 12 or more words in a row (numbers and punctuation
    between them allowed) all from the BIP39 list, the words every wallet writes its phrase in. Whoever has
    the phrase has the wallet. Prose does not run so long inside that list: it has no "the", "a", "is", "to"."""
    low = text[:8192].lower()
    if low.count(" ") + low.count("\n") < _SEED_LENGTHS[0] - 1:
        return False
    words = _bip39_words()
    run = 0
    # word after word; anything that is not a letter (spaces, "1.", commas, line ends) only separates them
    for m in _WORDS.finditer(low):
        run = run + 1 if m.group(0) in words else 0
        if run >= _SEED_LENGTHS[0]:
            return True
    return False


def find_secret(text: str) -> str | None:
    """The kind of live secret `text` holds ("Shopify access token", "a session cookie", "a wallet seed
    phrase", "two-factor recovery codes"), or None. Placeholders ("your-api-key", "xxxx", "EXAMPLE") are not
    secrets."""
    if len(text) < 12:
        return None
    head = text[:65536]
    found = _token(head) or _cookie(head) or _recovery_codes(head)
    if found is not None:
        return found
    return "a wallet seed phrase" if seed_phrase(head) else None
