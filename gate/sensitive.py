"""What typed text carries: card numbers, national ids, bank account numbers, internal network addresses,
password-shaped tokens and live secrets.

    find_sensitive(text) -> tuple[Sensitive, ...]   every finding, in order of appearance
    password_shaped(text) -> bool                     one token that reads like a password
    find_secret(text) -> str | None                   the kind of live secret the text holds (resources/secrets.toml,
                                                      session cookies, a wallet's seed phrase, 2FA recovery codes)
    assigned_secret(text) -> str | None               a secret's name given a key-shaped value in code or config
                                                      (`export DEPLOY_TOKEN=9b8c...`, `os.environ['X_KEY'] = '...'`)
    variable_name(text) -> bool                       the whole text is one variable's name (`DATABASE_URL`)

Each detector is a shape (a linear regex: no nested quantifiers, so 1 MiB of text costs one pass) and a
check that the shape alone cannot fake: the Luhn digit of a card, mod-97 of an IBAN, the ABA checksum
of a US routing number, the letter of a Spanish DNI, the number ranges the SSA never issues. A random
run of digits rarely passes both, so an order number or a phone number does not look like a card.

Live credentials (token prefixes, PEM keys, JWTs) are `[gui] secret_patterns` of the policy, matched by
gate/rules/gui.py; `find_secret` adds the token formats of resources/secrets.toml and the secrets that are
not one token: a session cookie, a seed phrase, a list of recovery codes.
"""

from __future__ import annotations

import base64
import functools
import importlib.util
import itertools
import pathlib
import re
from importlib import resources
from typing import NamedTuple

from gate import regex_store
from gate.digits import digit_count, has_digit
from gate.prefix import Guarded, literals

__all__ = ["Sensitive", "aba_valid", "assigned_secret", "find_secret", "find_sensitive", "iban_valid", "luhn_valid",
           "partial_secret", "password_shaped", "seed_phrase", "variable_name"]


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


# 13-19 digits, optionally grouped by single spaces or dashes; not glued to other digits, nor inside a word of
# letters and digits (a wallet address, a hash or a key holds long digit runs that are no card)
_CARD = re.compile(r"(?<![\w-])\d(?:[ -]?\d){12,18}(?!\w)")
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


# a word of letters and digits right before a digit run ("DE89 3704 ...", an IBAN's country and check digits): the
# run continues that word, and is no card of its own
_GLUED_BEFORE = re.compile(r"(?:[A-Za-z]\w*\d|\d\w*[A-Za-z])[ -]?$")


def _cards(text: str) -> list[Sensitive]:
    out = []
    for m in _CARD.finditer(text):
        if m.start() and _GLUED_BEFORE.search(text, max(0, m.start() - 40), m.start()):
            continue
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


# -- national ids of other countries: a shape, its own check, and (where the check is weak) the id's name near it

_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 3, 4, 0, 6, 7, 8, 9, 5), (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7), (4, 0, 1, 2, 3, 9, 5, 6, 7, 8), (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2), (7, 6, 5, 9, 8, 2, 1, 0, 4, 3), (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0))
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 5, 7, 6, 2, 8, 3, 0, 9, 4), (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7), (9, 4, 5, 3, 1, 2, 6, 8, 7, 0), (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5), (7, 0, 4, 6, 9, 1, 3, 2, 5, 8))


def verhoeff_valid(digits: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][ord(ch) - 48]]
    return c == 0


def _weighted(digits: str, weights: tuple[int, ...]) -> int:
    return sum((ord(c) - 48) * w for c, w in zip(digits, weights, strict=False))


def _date_ok(yy: str, mm: str, dd: str) -> bool:
    m, d = int(mm), int(dd)
    return 1 <= m <= 12 and 1 <= d <= 31


def _cpf(d: str) -> bool:
    if len(set(d)) == 1:
        return False
    for n in (9, 10):
        check = _weighted(d, tuple(range(n + 1, 1, -1))) * 10 % 11 % 10
        if check != ord(d[n]) - 48:
            return False
    return True


def _bsn(d: str) -> bool:
    return d[0] != "0" and (_weighted(d, (9, 8, 7, 6, 5, 4, 3, 2)) - (ord(d[8]) - 48)) % 11 == 0


def _steuer_id(d: str) -> bool:
    if d[0] == "0":
        return False
    product = 10
    for ch in d[:10]:
        total = (ord(ch) - 48 + product) % 10 or 10
        product = total * 2 % 11
    return (11 - product) % 10 == ord(d[10]) - 48


def _pesel(d: str) -> bool:
    month = int(d[2:4]) % 20
    return 1 <= month <= 12 and 1 <= int(d[4:6]) <= 31 and \
        (10 - _weighted(d, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)) % 10) % 10 == ord(d[10]) - 48


def _fodselsnummer(d: str) -> bool:
    k1 = 11 - _weighted(d, (3, 7, 6, 1, 8, 9, 4, 5, 2)) % 11
    k2 = 11 - _weighted(d, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
    return (k1 % 11) == ord(d[9]) - 48 and (k2 % 11) == ord(d[10]) - 48 and int(d[:2]) % 40 <= 31


def _tfn(d: str) -> bool:
    return _weighted(d, (1, 4, 3, 7, 5, 8, 6, 9, 10)) % 11 == 0


def _nhs(d: str) -> bool:
    check = 11 - _weighted(d, (10, 9, 8, 7, 6, 5, 4, 3, 2)) % 11
    return check != 10 and check % 11 == ord(d[9]) - 48


_CN_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def _china_id(v: str) -> bool:
    v = v.upper()
    return _date_ok(v[8:10], v[10:12], v[12:14]) and "10X98765432"[_weighted(v[:17], _CN_WEIGHTS) % 11] == v[17]


def _nir(v: str) -> bool:
    body = v[:13].upper().replace("2A", "19").replace("2B", "18")
    return body.isdigit() and 97 - int(body) % 97 == int(v[13:15])


_CF_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                   (1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8,
                    12, 14, 16, 10, 22, 25, 24, 23), strict=True))


def _codice_fiscale(v: str) -> bool:
    v = v.upper()
    total = sum(_CF_ODD[c] if i % 2 == 0 else (int(c) if c.isdigit() else ord(c) - 65) for i, c in enumerate(v[:15]))
    return chr(65 + total % 26) == v[15]


def _nie(v: str) -> bool:
    v = v.upper()
    return _DNI_LETTERS[int(str("XYZ".index(v[0])) + v[1:8]) % 23] == v[8]


def _nric(v: str) -> bool:
    v = v.upper()
    total = _weighted(v[1:8], (2, 7, 6, 5, 4, 3, 2)) + (4 if v[0] in "TG" else 0)
    table = "JZIHGFEDCBA" if v[0] in "ST" else "XWUTRQPNMLK"
    return table[total % 11] == v[8]


def _personnummer(v: str) -> bool:
    d = v.replace("-", "").replace("+", "")
    return _date_ok(d[:2], d[2:4], str(int(d[4:6]) % 60 or 1)) and luhn_valid(d)


_HETU_CHECK = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def _hetu(v: str) -> bool:
    v = v.upper()
    return _date_ok(v[4:6], v[2:4], v[:2]) and _HETU_CHECK[int(v[:6] + v[7:10]) % 31] == v[10]


def _digits(v: str) -> str:
    return "".join(c for c in v if c.isalnum())


# (what it is, its category, its shape, its check over the shape's letters and digits, the words that must stand
# just before it when the check alone would pass a random number too often, or None)
_ID_TABLE: tuple[tuple[str, str, re.Pattern[str], object, re.Pattern[str] | None], ...] = (
    ("Indian Aadhaar number", "identity documents", re.compile(r"(?<![\d-])[2-9]\d{3}([ -]?)\d{4}\1\d{4}(?![\d-])"),
     verhoeff_valid, re.compile(r"\b(?:aadhaa?r|uidai|uid)\b", re.I)),
    ("Indian PAN", "identity documents", re.compile(r"\b[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]\b"), None, None),
    ("Brazilian CPF", "identity documents", re.compile(r"(?<![\d.-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d-])"), _cpf, None),
    ("Brazilian CPF", "identity documents", re.compile(r"(?<![\d.-])\d{11}(?![\d-])"), _cpf,
     re.compile(r"\bcpf\b", re.I)),
    ("Dutch citizen service number (BSN)", "identity documents", re.compile(r"(?<![\d.-])\d{9}(?![\d-])"), _bsn,
     re.compile(r"\b(?:bsn|burgerservicenummer|sofinummer|sofi)\b", re.I)),
    ("German tax id", "identity documents", re.compile(r"(?<![\d.-])\d{2} ?\d{3} ?\d{3} ?\d{3}(?![\d-])"), _steuer_id,
     re.compile(r"\b(?:steuer-?id|steuer-?identifikationsnummer|steueridentifikationsnummer|idnr|tin|tax id)\b",
                re.I)),
    ("Polish PESEL", "identity documents", re.compile(r"(?<![\d.-])\d{11}(?![\d-])"), _pesel,
     re.compile(r"\bpesel\b", re.I)),
    ("Norwegian national id", "identity documents", re.compile(r"(?<![\d.-])\d{6} ?\d{5}(?![\d-])"), _fodselsnummer,
     re.compile(r"\b(?:f\u00f8dselsnummer|fodselsnummer|personnummer|national id)\b", re.I)),
    ("Swedish personal identity number", "identity documents",
     re.compile(r"(?<![\d-])(?:19|20)?\d{6}[-+]\d{4}(?![\d-])"), lambda v: _personnummer(v[-11:]), None),
    ("Finnish personal identity code", "identity documents",
     re.compile(r"\b\d{6}[-+ABCDEFUVWXY]\d{3}[0-9A-Y]\b", re.I), _hetu, None),
    ("French social security number (NIR)", "identity documents",
     re.compile(r"\b[12] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}\b", re.I),
     lambda v: _nir(v.replace(" ", "")), None),
    ("Italian fiscal code", "identity documents",
     re.compile(r"\b[A-Z]{6}\d{2}[ABCDEHLMPRST]\d{2}[A-Z]\d{3}[A-Z]\b", re.I), _codice_fiscale, None),
    ("Spanish foreigner id (NIE)", "identity documents", re.compile(r"\b[XYZ]-?\d{7}-?[A-Z]\b"),
     lambda v: _nie(_digits(v)), None),
    ("Singapore NRIC/FIN", "identity documents", re.compile(r"\b[STFG]\d{7}[A-Z]\b"), _nric, None),
    ("Australian tax file number", "identity documents", re.compile(r"(?<![\d.-])\d{3} ?\d{3} ?\d{3}(?![\d-])"),
     lambda v: _tfn(_digits(v)), re.compile(r"\b(?:tfn|tax file number)\b", re.I)),
    ("UK NHS number", "health records", re.compile(r"(?<![\d.-])\d{3}[ -]?\d{3}[ -]?\d{4}(?![\d-])"),
     lambda v: _nhs(_digits(v)), re.compile(r"\bnhs\b", re.I)),
    ("Chinese resident identity number", "identity documents", re.compile(r"(?<![\d])\d{17}[\dXx](?![\d])"),
     _china_id, None),
    ("US individual taxpayer number (ITIN)", "identity documents",
     re.compile(r"(?<![\d-])9\d{2}-(?:5\d|6[0-5]|7\d|8[0-8]|9[0-2]|9[4-9])-\d{4}(?![\d-])"), None, None),
    ("Mexican CURP", "identity documents",
     re.compile(r"\b[A-Z][AEIOUX][A-Z]{2}\d{6}[HMX][A-Z]{2}[B-DF-HJ-NP-TV-Z]{3}[A-Z\d]\d\b"), None, None),
    ("South Korean resident registration number", "identity documents",
     re.compile(r"(?<![\d-])\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-[1-8]\d{6}(?![\d-])"), None,
     re.compile(r"\b(?:rrn|resident registration|jumin)\b|\uc8fc\ubbfc", re.I)),
    # the machine-readable lines of a passport or an identity card: the holder's name, number, birth date
    ("passport or id card machine-readable zone", "identity documents",
     re.compile(r"\b[PIAC][A-Z<][A-Z]{3}[A-Z<]{20,39}\s{0,3}[A-Z0-9<]{9}\d[A-Z]{3}\d{6}\d[MFX<]\d{6}\d"), None, None),
    # documents named, then their number: a passport's, a driving licence's, a patient's record or insurance
    ("passport number", "identity documents",
     re.compile(r"(?<![A-Z0-9])(?=[A-Z]{0,2}\d)[A-Z0-9]{6,9}(?![A-Z0-9])", re.I), None,
     re.compile(r"\b(?:passport|passeport|reisepass|pasaporte|passaporto)(?: (?:number|no|num|nr|n\u00b0|#))?\.?:?$",
                re.I)),
    ("driving licence number", "identity documents",
     re.compile(r"(?<![A-Z0-9-])(?=[A-Z-]{0,4}\d)[A-Z0-9-]{5,16}(?![A-Z0-9-])", re.I), None,
     re.compile(r"\b(?:driver'?s? ?licen[cs]e|driving licen[cs]e|dl)(?: (?:number|no|num|#))?\.?:?$", re.I)),
    ("medical record number", "health records", re.compile(r"(?<![A-Z0-9-])[A-Z]{0,3}-?\d{5,12}(?![A-Z0-9-])", re.I),
     None, re.compile(r"\b(?:mrn|medical record(?: number| no| #)?|patient id|patient number|chart number)\.?:?$",
                      re.I)),
    ("health insurance number", "health records",
     re.compile(r"(?<![A-Z0-9-])(?=[A-Z-]{0,4}\d)[A-Z0-9-]{8,14}(?![A-Z0-9-])", re.I), None,
     re.compile(r"\b(?:medicare|medicaid|mbi|health insurance|insurance member|member id|policy number|"
                r"krankenversichertennummer|carte vitale)(?: (?:number|no|id|#))?\.?:?$", re.I)),
)
_KEYWORD_REACH = 32  # how far before a number its name is looked for
# pieces of each id's name, one of which the lower-case text must hold before the name itself is searched for
_NAME_HINTS = {
    "Indian Aadhaar number": ("aadha", "uid"), "Brazilian CPF": ("cpf",),
    "Dutch citizen service number (BSN)": ("bsn", "burgerservice", "sofi"),
    "German tax id": ("steuer", "idnr", "tin", "tax id"), "Polish PESEL": ("pesel",),
    "Norwegian national id": ("dselsnummer", "personnummer", "national id"),
    "Australian tax file number": ("tfn", "tax file"), "UK NHS number": ("nhs",),
    "South Korean resident registration number": ("rrn", "resident", "jumin", "\uc8fc\ubbfc"),
    "passport number": ("passport", "passeport", "reisepass", "pasaporte", "passaporto"),
    "driving licence number": ("licen", "dl"), "medical record number": ("mrn", "medical record", "patient", "chart"),
    "health insurance number": ("medicare", "medicaid", "mbi", "insurance", "member id", "policy number", "kranken",
                                "carte vitale"),
}
_HINTS = tuple(_NAME_HINTS[kind] if keyword is not None else () for kind, _, _, _, keyword in _ID_TABLE)
if any(keyword is not None and not hints for (_, _, _, _, keyword), hints in zip(_ID_TABLE, _HINTS, strict=True)):
    raise ValueError("gate/sensitive.py: an id whose name is required has no hints")
# each id's hints as one search (for an id read without its name: None, never searched)
_HINT_CUES = tuple(literals(hints) for hints in _HINTS)


_FOUR_DIGITS = re.compile(r"\d{4}")


def _other_ids(text: str) -> list[Sensitive]:
    out = []
    low = text.lower()
    # an id read without its name has seven digits or more, or four in a row (an Indian PAN)
    bare = digit_count(text) >= 7 or _FOUR_DIGITS.search(text) is not None
    for (kind, category, shape, check, keyword), hints in zip(_ID_TABLE, _HINT_CUES, strict=True):
        if (keyword is None and not bare) or (keyword is not None and not hints.search(low)):
            continue
        for m in shape.finditer(text):
            value = m.group(0)
            if keyword is not None:
                before = text[max(0, m.start() - _KEYWORD_REACH): m.start()].rstrip(" \t:#=-")
                if keyword.search(before) is None and keyword.search(before + ":") is None:
                    continue
            if check is not None:
                raw = value if not value.replace(" ", "").replace("-", "").replace(".", "").isdigit() else \
                    value.replace(" ", "").replace("-", "").replace(".", "")
                if not check(raw):  # type: ignore[operator]
                    continue
            out.append(Sensitive(kind, category, m.start()))
            break
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
    """Every finding of `_find_sensitive`; several rules ask of one typed text, so a short one is read once."""
    if len(text) <= _CACHED:
        return _find_sensitive_cached(text)
    return _find_sensitive(text)


_CACHED = 512


@functools.lru_cache(maxsize=1024)
def _find_sensitive_cached(text: str) -> tuple[Sensitive, ...]:
    return _find_sensitive(text)


def _find_sensitive(text: str) -> tuple[Sensitive, ...]:
    """Every card number, national id (the US, Canada, the UK, Spain, and `_ID_TABLE`: India, Brazil, the
    Netherlands, Germany, Poland, the Nordics, France, Italy, Singapore, Australia, China, Mexico, Korea),
    bank account number that passes its checksum, a passport, driving licence, medical record or health
    insurance number written after its name, and private network addresses."""
    if not has_digit(text):  # every detector needs digits: most text stops here
        return ()
    found = _cards(text) + _other_ids(text) + _national_ids(text) + _bank(text) + _internal(text)
    # one number read as two kinds is one finding, the kind its name says first ("TFN 123 456 782": not a SIN)
    out: dict[int, Sensitive] = {}
    for f in sorted(found, key=lambda s: s.start):
        out.setdefault(f.start, f)
    return tuple(out.values())


# -- passwords ------------------------------------------------------------------------------------

_ONE_TOKEN = re.compile(r"\S{8,64}")
_NOT_PASSWORD = re.compile(
    r"^(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # an e-mail address
    r"|[a-z][a-z0-9+.-]*://\S*|www\.\S*"  # a URL
    r"|[\d\s/.:+()-]+"  # dates, times, phone numbers, amounts
    r"|[A-Fa-f0-9-]+"  # hex ids, UUIDs
    r"|[A-Z0-9_-]+|[a-z0-9_-]+"  # one case only: codes, slugs, SKUs
    # a variable's name: an upper-case prefix of two words or more, then a suffix (`APP_CACHE_dir2`, `ENV_VAR_x9Kq`)
    r"|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+_\w+"
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
    if not _ONE_TOKEN.fullmatch(token) or _NOT_PASSWORD.match(token) or _encoded_words(token):
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


_BASE64_TOKEN = re.compile(r"(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
_READABLE = re.compile(r"[A-Za-z][a-z]+(?:[ ,.!?'-]+[A-Za-z0-9][a-z0-9]*)+[.!?]?")


def _encoded_words(token: str) -> bool:
    """The token is base64 of readable words (`aGVsbG8gd29ybGQ=` is "hello world"): data being encoded or
    decoded, not a password. A key or a token in base64 decodes to bytes, never to words."""
    if len(token) % 4 or not _BASE64_TOKEN.fullmatch(token):
        return False
    try:
        plain = base64.b64decode(token, validate=True).decode("ascii")
    except ValueError:  # binascii.Error and UnicodeDecodeError are both ValueErrors
        return False
    return _READABLE.fullmatch(plain) is not None


# -- live secrets -----------------------------------------------------------------------------------

_SECRETS = regex_store.toml(resources.files("resources").joinpath("secrets.toml").read_text("utf-8"))


class _Format(NamedTuple):
    name: str
    pattern: re.Pattern[str]
    keywords: tuple[str, ...]  # lower case: a text holding none of them cannot match


def _format(entry: dict[str, object]) -> _Format:
    keywords = tuple(str(k).lower() for k in entry["keywords"])  # type: ignore[attr-defined]
    if not keywords:
        raise ValueError(f"resources/secrets.toml: {entry['name']!r} has no keywords")
    return _Format(str(entry["name"]), re.compile(str(entry["pattern"])), keywords)


_FORMATS = tuple(_format(t) for t in _SECRETS["token"])
# every keyword at once: one pass over the lower-case text says which formats can match at all. The search is
# zero-width (a keyword is found at every position, overlaps too), takes the longest keyword at a position, and
# that keyword stands for every keyword inside it ("secret_" holds "secret")
_ALL_KEYWORDS = frozenset(k for f in _FORMATS for k in f.keywords)
_KEYWORDS = re.compile("(?=(" + "|".join(sorted(map(re.escape, _ALL_KEYWORDS), key=lambda k: (-len(k), k))) + "))")
_INSIDE = {k: frozenset(o for o in _ALL_KEYWORDS if o in k) for k in _ALL_KEYWORDS}
# what stands in for a secret in documentation and templates: not a live one
_PLACEHOLDER = re.compile(r"example|your|xxxx|placeholder|redacted|dummy|sample|changeme|fake|<|\*\*\*\*|\.\.\.",
                          re.IGNORECASE)
_COOKIE_NAMES = frozenset(n.lower() for n in _SECRETS["cookie"]["names"])
_COOKIE_NAME = re.compile(r"[\w.-]{1,64}$")
_COOKIE_VALUE = re.compile(r"[^\s;,\"']{16,512}")
_COOKIE_SUFFIX = re.compile(r"_[0-9a-f]{8,40}$")  # wordpress_logged_in_<hash>
_RECOVERY_NAME = re.compile(
    r"(?<!\w)(?:" + "|".join(sorted((re.escape(n) for n in _SECRETS["recovery"]["names"]), key=len, reverse=True))
    + r")(?!\w)", re.IGNORECASE)
# one recovery code: 8 to 12 letters and digits, maybe split in two by a dash or a space ("4f8a-2c9d", "1234 5678")
_RECOVERY_CODE = re.compile(r"(?<![\w-])(?=[a-z]{0,11}\d)[a-z0-9]{4,6}[- ]?[a-z0-9]{4,6}(?![\w-])", re.IGNORECASE)
# eight or more codes of the one shape GitHub and others print them in, named or not
_CODE_LIST = re.compile(r"(?<![\w-])[a-f0-9]{5}-[a-f0-9]{5}(?![\w-])")


def _mixed(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _token(text: str, low: str) -> str | None:
    found = frozenset(_KEYWORDS.findall(low))
    if not found:
        return None
    present = frozenset().union(*(_INSIDE[k] for k in found))
    for f in _FORMATS:
        if present.isdisjoint(f.keywords):
            continue
        for m in f.pattern.finditer(text):
            if _PLACEHOLDER.search(m.group(0)) is None:
                return f.name
    return None


def _cookie(text: str, low: str) -> str | None:
    """A session cookie's name, `=`, and a value of 16 or more characters with letters and digits."""
    at = low.find("=")
    seen = 0
    while at > 0 and seen < 256:
        seen += 1
        name = _COOKIE_NAME.search(low, max(0, at - 64), at)
        if name is not None:
            key = _COOKIE_SUFFIX.sub("", name.group(0))
            if key in _COOKIE_NAMES or name.group(0) in _COOKIE_NAMES:
                value = _COOKIE_VALUE.match(text, at + 1)
                if value is not None and _mixed(value.group(0)) and _PLACEHOLDER.search(value.group(0)) is None:
                    return "a session cookie"
        at = low.find("=", at + 1)
    return None


def _recovery_codes(text: str, low: str) -> str | None:
    if "-" in text and len(_CODE_LIST.findall(text, 0, 4096)) >= 8:
        return "two-factor recovery codes"
    if "code" not in low and "código" not in low:
        return None
    named = _RECOVERY_NAME.search(text)
    if named is None:
        return None
    codes = _RECOVERY_CODE.findall(text, named.end(), named.end() + 1024)
    return "two-factor recovery codes" if len(codes) >= 2 else None


_SEED_LENGTHS = (12, 15, 18, 21, 24)
_WORDS = re.compile(r"[a-z]+")


def _bip39_words() -> frozenset[str]:
    """The BIP39 English word list, as the `mnemonic` package ships it."""
    spec = importlib.util.find_spec("mnemonic")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the mnemonic package (the BIP39 word list) is not installed")
    path = pathlib.Path(next(iter(spec.submodule_search_locations))) / "wordlist" / "english.txt"
    words = frozenset(w.strip() for w in path.read_text("utf-8").split() if w.strip())
    if len(words) != 2048:
        raise RuntimeError(f"{path}: the BIP39 list has 2048 words, found {len(words)}")
    return words


# read at import, like the other shipped data: no file is read while an action is judged
_BIP39 = _bip39_words()


def seed_phrase(text: str) -> bool:
    """The text holds a wallet's recovery (seed) phrase: 12 or more words in a row (numbers and punctuation
    between them allowed) all from the BIP39 list, the words every wallet writes its phrase in. Whoever has
    the phrase has the wallet. Prose does not run so long inside that list: it has no "the", "a", "is", "to"."""
    low = text[:8192].lower()
    if low.count(" ") + low.count("\n") < _SEED_LENGTHS[0] - 1:
        return False
    words = _BIP39
    run = 0
    # word after word; anything that is not a letter (spaces, "1.", commas, line ends) only separates them
    for m in _WORDS.finditer(low):
        run = run + 1 if m.group(0) in words else 0
        if run >= _SEED_LENGTHS[0]:
            return True
    return False


def find_secret(text: str) -> str | None:
    """`_find_secret`, a short text read once (an agent retries, a session approves the same text)."""
    if len(text) <= _CACHED:
        return _find_secret_cached(text)
    return _find_secret(text)


@functools.lru_cache(maxsize=1024)
def _find_secret_cached(text: str) -> str | None:
    return _find_secret(text)


def _find_secret(text: str) -> str | None:
    """The kind of live secret `text` holds ("Shopify access token", "a session cookie", "a wallet seed
    phrase", "two-factor recovery codes"), or None. Placeholders ("your-api-key", "xxxx", "EXAMPLE") are not
    secrets."""
    if len(text) < 12:
        return None
    head = text[:65536]
    low = head.lower()
    found = _token(head, low) or (_cookie(head, low) if "=" in head else None) or _recovery_codes(head, low)
    if found is not None:
        return found
    return "a wallet seed phrase" if seed_phrase(head) else None


# -- keys written partly -------------------------------------------------------------------------------

_PARTIAL_KIND = {start: str(p["name"]) for p in _SECRETS["partial"]["prefix"] for start in p["starts"]}
# an issuer's prefix, the key's first characters (two or more), then an elision: dots, an ellipsis, stars, x's or
# a "[redacted]" mark
_PARTIAL = re.compile(
    r"(?<![\w.-])(" + "|".join(sorted(map(re.escape, _PARTIAL_KIND), key=len, reverse=True)) + r")"
    r"([A-Za-z0-9_-]{2,40}?)\s?(?:\.{2,}|\u2026|\*{3,}|x{4,}|X{4,}|[\[<(](?:redacted|truncated|snip)[\]>)])")
# what a writer puts after a prefix to say what goes there, not the key's start
_PARTIAL_WORDS = re.compile(r"^(?:key|keys|token|tokens|secret|prefix|here|your|my|the|xx|rest|etc|something|"
                            r"and|or|followed|whatever)$", re.IGNORECASE)
_PARTIAL_KEYS = tuple(sorted({k[:2].lower() for k in _PARTIAL_KIND}))
_PARTIAL_CUE = literals(_PARTIAL_KEYS)  # (one search for them all)


def partial_secret(text: str) -> str | None:
    """The kind of key `text` writes partly (its issuer's prefix, its first characters, then an elision:
    "sk_live_51Hx...", "ghp_7Qa…", "AKIA4T2R****"), or None. A prefix alone ("keys start with sk_live_...") or
    a placeholder after it ("ghp_your_token...") is no key."""
    head = text[:16384]
    low = head.lower()
    if not _PARTIAL_CUE.search(low):
        return None
    for m in _PARTIAL.finditer(head):
        start = m.group(2).strip("_-")
        if len(start) < 2 or _PARTIAL_WORDS.match(start) or _PLACEHOLDER.search(start):
            continue
        return _PARTIAL_KIND[m.group(1)]
    return None


# -- a secret's name given a value in code or config ----------------------------------------------------

# a name, maybe quoted or indexed, then `=`, `:`, `:=` or the `,` of `setdefault('X', '...')`, then the value,
# maybe quoted. Shell (`export X=`), Python (`os.environ['X'] = `), JavaScript (`process.env.X = `), PowerShell
# (`$env:X = `), YAML and .env lines all reach this shape. A value that calls or refers to something
# (`os.getenv(...)`, `${{ secrets.X }}`, `$X`) stops at its first sign, so it is never one token long enough.
_ASSIGNMENT = re.compile(
    r"(?<![\w$-])([A-Za-z_][\w.-]{1,63})[\"'`]?\s{0,3}\]?\s{0,3}(?::=|=|:|,)\s{0,3}[\"'`]?"
    r"([A-Za-z0-9+/_.=~-]{16,256})")
# the words that make a name a secret's, one piece of it (`KAGGLE_KEY`, `apiKey`, `client-secret`); a name
# split at `_`, `-`, `.` and case humps, so `monkey` or `keyboard` are no key
_SECRET_PIECES = frozenset({"key", "apikey", "token", "secret", "password", "passwd", "pwd", "pass", "passphrase",
                            "credential", "credentials", "pat", "auth", "privatekey", "accesskey", "secretkey"})
_NAME_HUMPS = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NAME_SPLIT = re.compile(r"[_.\-]+")
# names that hold no secret though a piece says key: a table's key, a sort key, a key's id or name
_NOT_SECRET_NAMES = frozenset({"primary", "foreign", "sort", "partition", "cache", "hash", "idempotency", "public",
                               "pub", "id", "name", "names", "file", "path", "type", "length", "size", "count",
                               "prefix", "fingerprint", "url", "uri", "endpoint", "host", "header", "expiry",
                               "expires", "ttl", "env", "field", "column", "map", "index", "pair", "event"})
_HEX = re.compile(r"[0-9a-fA-F]{32,128}")
_B64ISH = re.compile(r"[A-Za-z0-9+/_=~-]{20,256}")


def _secret_name(name: str) -> bool:
    pieces = [p.lower() for p in _NAME_SPLIT.split(_NAME_HUMPS.sub("_", name)) if p]
    if not pieces or any(p in _NOT_SECRET_NAMES for p in pieces):
        return False
    return any(p in _SECRET_PIECES for p in pieces)


def _key_shaped(value: str) -> bool:
    """A value that reads as a generated key: 32 or more hex digits with letters among them, or 20 or more
    characters of mixed case with digits and a spread of characters (a path, a slug, a version, a dotted
    reference or a word with a number are none)."""
    if _PLACEHOLDER.search(value):
        return False
    digits = sum(c.isdigit() for c in value)
    if _HEX.fullmatch(value):
        return 4 <= digits < len(value) - 4  # hex with letters and digits: not a run of one digit or a word
    if not _B64ISH.fullmatch(value) or digits < 2 or value.count(".") > 1 or value.count("/") > 1:
        return False
    if not any(c.islower() for c in value) or not any(c.isupper() for c in value):
        return False
    distinct = len(set(value))
    return distinct >= min(16, len(value) * 0.6)


def assigned_secret(text: str) -> str | None:
    """The secret's name when the text gives a name that says key, token, secret or password a value that reads
    as a generated key (`export DEPLOY_TOKEN=9b8c7d...`, `os.environ['HF_KEY'] = '3f9a...'`, `api_key: "..."`),
    or None. A name without a value (`DATABASE_URL`), a value read from elsewhere (`os.getenv("X")`,
    `${{ secrets.X }}`) and placeholders (`<your key here>`, `xxxx`) are no secret."""
    head = text[:16384]
    if ("=" not in head and ":" not in head and "," not in head) or sum(c.isdigit() for c in head[:4096]) < 2:
        return None
    for m in _ASSIGNMENT.finditer(head):
        name, value = m.group(1), m.group(2).rstrip(".")
        if _secret_name(name.rsplit(".", 1)[-1]) and _key_shaped(value):
            return name.rsplit(".", 1)[-1]
    return None


# one variable's name as code and config write it: `DATABASE_URL`, `OPENAI_API_KEY`, `db.password` is not one
_VARIABLE_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


def variable_name(text: str) -> bool:
    """The whole text is one environment variable's or constant's name (capitals, digits, and underscores
    between words: `DATABASE_URL`, `STRIPE_SECRET_KEY`): the name a secret is kept under, not the secret."""
    token = text.strip()
    return len(token) <= 64 and _VARIABLE_NAME.fullmatch(token) is not None and any(c.isalpha() for c in token)


# -- files named for what they keep (resources/secrets.toml `[file-names]`) ---------------------------------------

_NAMES = _SECRETS["file-names"]
_NAME_WORDS = Guarded(re.compile("|".join(f"(?:{w})" for w in _NAMES["words"])))
_NAME_NOT = re.compile("|".join(f"(?:{w})" for w in _NAMES["not_words"]))
_NAME_NOT_FOLDER = re.compile("|".join(f"(?:{w})" for w in _NAMES["not_folders"]))
_NAME_EXTENSIONS = frozenset(_NAMES["extensions"])
_AGENT_TOKENS = Guarded(re.compile("|".join(f"(?:{w})" for w in _NAMES["agent-tokens"]["paths"])))
_CAPTURED_BLOCK = Guarded(re.compile("|".join(f"(?:{w})" for w in _NAMES["captured"]["block"])))
_CAPTURED_CONFIRM = re.compile("|".join(f"(?:{w})" for w in _NAMES["captured"]["confirm"]))
_NAME_SEPARATORS = re.compile(r"[\s._\-+()\[\]]+")
_EXTENSION = re.compile(r"\.([a-z0-9]{1,8})$")


def _stem(name: str) -> tuple[str, str]:
    """(`_`-joined words of a file's base name, lower case, with `_` at both ends; its extension)."""
    ext = ""
    low = name.lower()
    while (m := _EXTENSION.search(low)) and m.group(1) in _NAME_EXTENSIONS and m.group(1):
        ext = ext or m.group(1)
        low = low[: m.start()]
    humped = _NAME_HUMPS.sub("_", name[: len(low)]).lower() if len(name) >= len(low) else low
    return "_" + _NAME_SEPARATORS.sub("_", humped).strip("_") + "_", ext


@functools.lru_cache(maxsize=1024)
def secret_file_name(path: str) -> str | None:
    """What a file's name says it keeps, when that is passwords, keys, logins, bank or card details, a wallet or
    recovery codes (`API_infor.txt`, `ssh-info.txt`, `bankaccount.txt`, `passwörter.txt`, `密码.txt`), or None: a
    program's source, a word list, a template or documentation is not such a note."""
    path = path.replace("\\", "/")
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if not name or len(name) > 120:
        return None
    m = _EXTENSION.search(name.lower())
    if m and m.group(1) not in _NAME_EXTENSIONS:
        return None
    stem, _ = _stem(name)
    hit = _NAME_WORDS.search(stem)
    if hit is None or _NAME_NOT.search(stem) or _NAME_NOT_FOLDER.search(path.lower()):
        return None
    return f"a file named for what it keeps ({hit.group(0).strip('_')}): passwords, keys, logins or money details"


def agent_token_file(path: str) -> str | None:
    """A coding agent's or editor's MCP settings file, whose servers' environments hold their API tokens."""
    low = path.replace("\\", "/").lower()
    if _AGENT_TOKENS.search(low):
        return "a coding agent's MCP settings, where each server's API token is kept in the clear"
    return None


def captured_credentials(path: str) -> str | None:
    """"block" for what a phishing kit captured, in its own folder (zphisher's `.server/www/usernames.txt`,
    evilginx's `data.db`, SET's reports); "confirm" when only the names say so (`auth/ip.txt`); None otherwise."""
    low = path.replace("\\", "/").lower()
    if _CAPTURED_BLOCK.search(low):
        return "block"
    if _CAPTURED_CONFIRM.search(low):
        return "confirm"
    return None
