"""Data leaving by a non-shell road: what goes out, and where to.

    carried(text) -> Payload | None                  what a text carries (typed text, a decoded URL value)
    people_listed(text) -> int                       how many named people it gives a phone or address for
    named_whereabouts(text) -> str | None            one named person's home address or phone, written out
    url_payload(parts) -> Payload | None             what a URL carries in its query, fragment and path
    logging_path(path) -> bool                       the path logs or collects what it is sent (/log, /c)
    destination(host, path, book, collectors) -> str | None   where it lands, when that is a place data hides
    collector_named(host, book) -> bool             the host is named for collecting (collect., track., beacon.)
    security_answers(text) -> int                    how many security questions it answers ("maiden name: ...")
    hostile_host(word) -> str | None                 a host named for malice (evil., malware-, attacker., c2.)
    loot_named(path) -> str | None                   a file or folder named as taken data (loot, exfil, dump)
    birth_and_address(text) -> bool                  a date of birth written with a street address

One "data out" judgement for every road the GUI and web rules see: a URL that carries data in its query or
path (gate/rules/web.py), text typed into a message, comment or issue body (gate/rules/gui.py), and buttons
that export or share (gate/consequence.py, the `data leaving` kind). It is judged by what goes out:

- severity 3: a live secret in a decoded value, a credential list (two or more user/password pairs, or
  service/password entries after a heading such as "my passwords:"), the
  contents of a credential file (`/etc/passwd` or shadow lines, a private key, an AWS credentials file, an
  `.env` with secrets), a whole identity (a card number with its security code or expiry date, a national
  id with a date of birth; in a URL, named by their parameters), a one-time sign-in code written out:
  no honest page needs them, wherever they go;
- severity 2: one user name with its password written in prose ("my gmail password is ..."), personal
  records (two or more lines that each hold an e-mail, phone, card or national id; five or more e-mail
  addresses; two or more named people each with a phone number, short local ones included, or a street
  address: "Ann Lee 555-0101, Raj Patel 555-0177"), a card number or a national id with its checksum
  (gate/sensitive.py), a home address with a
  phone number; in a URL, an e-mail with a phone number (named by their parameters) or an e-mail in a
  search query;
- severity 1: one e-mail with a phone number, or a long encoded value (base64 or hex) that decodes to
  text: the usual disguise of data on its way out;

and where to (`destination`): a raw public IP address, a paste site, a file-sharing drop, a URL shortener
or a request collector (`[destinations]` of resources/cues.toml, plus the policy's `web.collector_hosts`).
Every pattern is linear; decoded values are bounded in size and decoded once, never recursively.
"""

from __future__ import annotations

import base64
import binascii
import functools
import ipaddress
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import parse_qsl

from gate.cues import book_table
from gate.destinations import brand_name
from gate.hostile_hosts import hostile_host as named_hostile
from gate.sensitive import find_sensitive
from gate.urls import UrlParts, ip_of, is_loopback

if TYPE_CHECKING:
    from gate.cues import CueBook

__all__ = ["COLLECTING_HOST", "ENCODED", "SECRET_VALUE", "Payload", "birth_and_address", "carried", "collector_named",
           "destination", "hostile_host", "logging_path", "loot_named", "named_whereabouts", "people_listed",
           "security_answers", "sent_file_kind", "url_payload"]


class Payload(NamedTuple):
    kind: str  # "a credential list", "personal records", ... (for a person)
    severity: int  # 3 never leaves, 2 asks (blocks to a hiding place), 1 asks only towards a hiding place


# Formats of live secrets (cloud keys, tokens of code hosts and chat apps, JWTs, private keys)
# (a GitHub token from 12 characters on: a token cut in two to pass a full-length check is still one)
SECRET_VALUE = re.compile(
    r"(?:AKIA|ASIA)[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{12,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_\-]{20}"
    r"|xox[abposr]-[A-Za-z0-9\-]{10,}|sk-[A-Za-z0-9_\-]{20,}|AIza[0-9A-Za-z_\-]{35}"
    r"|eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]+|-----BEGIN [A-Z ]*PRIVATE KEY"
)
# what a credential file looks like, line by line
_FILE_CONTENTS = re.compile(
    r"^[a-z_][\w.-]{0,31}:[x*!]?:\d{1,10}:\d{1,10}:"  # /etc/passwd
    r"|^[a-z_][\w.-]{0,31}:\$(?:1|2[abxy]?|5|6|y)\$"  # /etc/shadow
    r"|-----BEGIN [A-Z ]*PRIVATE KEY|\baws_(?:secret_access_key|access_key_id)\s*="
    r"|\bclient-key-data:|\b(?:ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp256) AAAA[0-9A-Za-z+/]{40}",
    re.IGNORECASE | re.MULTILINE)
_ENV_SECRET_LINE = re.compile(
    r"(?m)^(?:export )?[A-Z][A-Z0-9_]{0,40}(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?)[A-Z0-9_]{0,20}"
    r"\s*=\s*\S{4,}")
# one line that is a user:password pair ("admin:Passw0rd!", "ana@example.com:hunter2", "root | t00r"); a
# "key: value" line with a space after the colon is a setting, not a pair
_PAIR_LINE = re.compile(r"(?m)^\s*[A-Za-z][\w.+-]{0,63}(?:@[\w-]+(?:\.[\w-]+)+)?(?::|\s?[|;]\s?)[^\s:]{4,64}\s*$")
# "password: X", "pwd=X", "password is X" (labelled values)
_LABELLED_PASSWORD = re.compile(
    r"(?i)\b(?:password|passwd|passcode|pass|pwd|pw|pin|kennwort|passwort|mot de passe|contraseña|senha|пароль|密码)"
    r"(?:\s*[:=]\s*|\s+(?:is|was|ist|est|es|é)\s+|\s+)([^\s,;]{4,64})")
_PASSWORD_WORDS = ("pass", "pw", "pin", "kennwort", "mot de passe", "contraseña", "senha", "пароль", "密码")
# a heading that announces a list of passwords written in prose: "my saved passwords:", "Logins -"
_LIST_HEADING = re.compile(
    r"(?i)\b(?:passwords|passwds|pwds|passcodes|logins|log-ins|credentials|sign-?in details|login details|"
    r"passwörter|kennwörter|zugangsdaten|mots de passe|identifiants|contraseñas|credenciales|senhas|credenciais|"
    r"пароли|логины|密码)\b(?: (?:are|sind|sont|son|são|for (?:my |the )?accounts?))?\s*[:\-–—]")
# one entry of such a list: a service named in one to three words, then its password ("gmail hunter2",
# "chase: Blue$ky88", "work laptop = x9!kq")
_LIST_ITEM = re.compile(r"^\s*(?:and |und |et |y |e |и )?(?:for |my |the |für |pour |para )?"
                        r"([^\W\d][\w.@+-]{1,40}(?: [\w.@+-]{1,40}){0,2}?)"
                        r"(?:\s*(?:[:=>|–—]|->)\s*|\s+-\s+|\s+)(\S{4,64})\s*$")
_LIST_SPLIT = re.compile(r"[,;\n]| and | und | et | y | и ")
# a password said to open a named account: "my gmail password is ...", "the bank PIN: ..."
_NAMED_ACCOUNT = re.compile(r"(?i)\b(?:my|our|his|her|their|the|mein|meine|mon|ma|mi|meu|minha)\s+[\w.@-]{2,40}\s*$")
_USER_NEAR = re.compile(r"(?i)\b(?:user ?name|username|user|login|e-?mail|account|benutzer(?:name)?|utilisateur|"
                        r"usuario|usuário|логин)\b")
# starts only where a word starts, so a long run of "x...x@" is not tried from every position
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,5}\b")
_PHONE = re.compile(r"(?<![\w.])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?![\w.])"
                    r"|(?<![\w.])\+\d{2,3}(?:[\s.-]?\d{2,4}){3,5}(?![\w.])")
_NINE_DIGITS = re.compile(r"(?:\d[ ./-]?){9}")
# what makes a card usable or an identity number a whole identity, written beside it: a card's security
# code or expiry date, a person's date of birth
_CARD_CODE = re.compile(r"(?i)\b(?:cvv2?|cvc2?|csc|cid|security code|card code|exp(?:iry|iration)?(?: date)?|"
                        r"valid (?:thru|until)|gültig bis|prüfnummer|cryptogramme|date d expiration|"
                        r"código de seguridad|caducidad|vencimiento|validade)\b[^\d\n]{0,12}\d{2,4}"
                        r"|\b(?:0[1-9]|1[0-2]) ?/ ?(?:\d{2}|20\d{2})\b")
_BIRTH = re.compile(r"(?i)\b(?:dob|d\.o\.b|date of birth|birth ?date|born(?: on)?|birthday|geburtsdatum|geboren|"
                    r"date de naissance|né(?:e)? le|fecha de nacimiento|data de nascimento|data di nascita)\b")
# a one-time code written out: a code word, then within a few words a run of 4-8 digits (a year is not one)
_OTP = re.compile(r"(?i)\b(?:one[ -]?time (?:code|pass(?:word|code)?|pin)|otp|2fa code|mfa code|two[ -]factor code|"
                  r"(?:security|verification|verify|login|log-in|sign[ -]?in|auth(?:entication)?|sms) "
                  r"(?:code|pin)|(?:backup|recovery|2fa|mfa) codes?|passcode|sicherheitscode|bestätigungscode|"
                  r"verifizierungscode|code de (?:vérification|sécurité)|"
                  r"código de (?:verificação|verificación|seguridad|segurança)|"
                  r"код (?:подтверждения|безопасности)|验证码|認証コード|確認コード|인증번호)\b\W{0,3}(?:\w+\W+){0,4}?"
                  r"(?<![\d-])(?!(?:19|20)\d\d(?![\d -]))(\d{3,4}[ -]?\d{3,4}|\d{4,8})(?!\d|-\d)"
                  # a card's or phone's PIN given out: "my PIN is 4821" (a postal "PIN code" is six digits)
                  r"|\b(?:my |the |card |bank |atm |sim |phone |debit card )?pin(?: number)?(?: is| was|:)? ?"
                  r"(?!(?:19|20)\d\d(?!\d))(\d{4})(?!\d)")
# a street address: a house number, one to three words, and a street word (or the reverse order of many
# European languages); with a phone number or a postcode it locates a person
_STREET = re.compile(r"(?i)\b\d{1,5}[a-z]? (?:[a-z][\w.'-]* ){1,3}(?:street|st|avenue|ave|road|rd|lane|ln|drive|dr|"
                     r"boulevard|blvd|court|ct|way|place|pl|terrace|close|crescent|square|sq)\b|\b[a-zäöüß]+(?:straße|"
                     r"strasse|weg|gasse|allee|platz) \d{1,4}[a-z]?\b|\b(?:rue|avenue|boulevard|calle|avenida|rua|via|"
                     r"piazza|corso) (?:de |del |da |do |des |du |la |le )?[\w'-]+(?: [\w'-]+)?,? \d{1,4}\b|"
                     r"\b\d{1,4},? (?:rue|avenue|boulevard|calle|avenida|rua|via) \w+")
# a phone number introduced as one ("phone 555-0142", "call me at 0171 234567"), local numbers included
_SAID_PHONE = re.compile(r"(?i)\b(?:phone|tel|telephone|mobile|cell|call me(?: at| on)?|whatsapp|handy|telefon|"
                         r"téléphone|teléfono|telefone|телефон)\b\W{0,3}(?:is |at |on |number )?"
                         r"\+?[\d(][\d ().-]{5,16}\d")


# a person's name written before their details: one to three capitalised words ("Ann", "Raj Patel",
# "Mary Ann Lee"), then a comma, colon or dash at most
_NAME_BEFORE = re.compile(r"(?:^|[\s,;:(\[])([A-Z][a-z'\u00e0-\u00ff]{1,20}(?: [A-Z][a-z'.\u00e0-\u00ff]{0,20}){0,2})"
                          r"\s?[,:\-\u2013]?\s?(?:\(|at |on |tel |phone |ph )?$")
_DIGIT_RUNS = re.compile(r"\d+")
# a phone number as lists write it, a short local one included ("555-0142", "555 0199")
_SHORT_PHONE = re.compile(r"(?<![\w.+-])\d{3}[-. ]\d{4}(?![\w.-]|-\d)")
# words that start sentences or name places, never a person a list is about
_NOT_A_NAME = frozenset({"Our", "The", "Call", "Phone", "Tel", "Address", "Addresses", "Office", "Store", "Shop",
                         "Room", "Suite", "Apt", "Unit", "Building", "Floor", "Contacts", "Contact", "Phones",
                         "Numbers", "Saved", "Ship", "Shipping", "Billing", "Deliver", "Delivery", "Meet", "Us",
                         "Open", "Hours", "Fax", "Support", "Sales", "Main", "Head", "Visit", "See", "Go", "At", "On",
                         "Please", "Hi", "Hello", "Dear", "Thanks", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"})


def _named_before(text: str, start: int) -> str | None:
    """The person's name written just before `start` (within 40 characters), or None."""
    m = _NAME_BEFORE.search(text[max(0, start - 40):start])
    if m is None:
        return None
    name = m.group(1)
    return None if name.split(" ", 1)[0] in _NOT_A_NAME else name


_ENTRY_SEP = re.compile(r"[;\n]")


def people_listed(text: str) -> int:
    """How many different named people the text gives a phone number or a street address for ("Ann Lee
    555-0101; Raj Patel 555-0177", "Jane Roe, 12 Oak Street, ...; Tom Poe, 99 Elm Avenue, ..."): two or more
    are records of several people, whoever they go to."""
    if len(text) > 8192 or len(_DIGIT_RUNS.findall(text, 0, 4096)) < 2:
        return 0  # two records need two numbers at least
    spots = [m.start() for rx in (_SHORT_PHONE, _PHONE, _STREET) for m in rx.finditer(text)]
    if len(spots) < 2:
        return 0
    names: set[str] = set()
    for start in spots:
        name = _named_before(text, start)
        if name is not None:
            names.add(name)
    if len(names) < 2:
        # the same name written twice ("John Doe, 742 ...; John Doe, 1600 ...") is two records of a list
        # when every entry is named
        entries = [part for part in _ENTRY_SEP.split(text) if part.strip()]
        named = [part for part in entries if any(rx.search(part) for rx in (_PHONE, _SHORT_PHONE, _STREET))
                 and (m := _NAME_START.match(part.strip())) is not None and m.group(1) not in _NOT_A_NAME]
        return max(len(names), len(named) if len(named) >= 2 else 0)
    return len(names)


_NAME_START = re.compile(r"^(?:[\w ]{0,24}: ?)?([A-Z][a-z']{1,20})(?: [A-Z][a-z'.]{0,20}){0,2},? ")
# one named person's whereabouts written out: "Jane Roe lives at ...", "Tom's home address is ...", "her
# phone number is ...": the words that say so, then (`_WHO_BEFORE`) whose they are just before them
_WHEREABOUTS = re.compile(
    r"\b(?:(?:home|house|private|personal|new|current|real|mobile|cell) )?(?:address|phone(?: number)?|number|cell|"
    r"mobile)(?: is| was|:)|\b(?:lives|is living) (?:at|on)\b")
# the words `_WHEREABOUTS` needs, looked for first (plain substring tests are cheap)
_WHEREABOUTS_WORDS = ("address", "phone", "number", "cell", "mobile", "lives", "living")
_ANY_DIGIT = re.compile(r"\d")
_WHO_BEFORE = re.compile(r"(?:\b[A-Z][a-z']{1,20}(?: [A-Z][a-z']{1,20})?(?:'s|\u2019s)?|\bhis|\bher|\btheir) $")


def named_whereabouts(text: str) -> str | None:
    """One named person's home address or phone number written out as theirs ("Jane Roe lives at 12 Oak
    Street", "Tom's number is 555-0101"): the words that say so, or None."""
    if len(text) > 8192 or _ANY_DIGIT.search(text) is None:
        return None
    low = text.lower()
    if not any(w in low for w in _WHEREABOUTS_WORDS):
        return None
    for m in _WHEREABOUTS.finditer(text):
        who = _WHO_BEFORE.search(text, max(0, m.start() - 44), m.start())
        if who is None or who.group(0).split(" ", 1)[0].rstrip("'s\u2019") in _NOT_A_NAME:
            continue
        rest = text[m.end():m.end() + 120]
        if _STREET.search(rest) or _PHONE.search(rest) or _SHORT_PHONE.search(rest) or _SAID_PHONE.search(rest):
            return who.group(0) + m.group(0)
    return None


def _password_like(value: str) -> bool:
    """A value that can be a password: not a plain word ("click", "reset"), not a sentence."""
    return any(ch.isdigit() for ch in value) or not value.isalnum() or (value[:1].isupper() and not value.istitle())


def _listed_passwords(text: str) -> int:
    """How many service/password entries follow a heading that announces passwords ("Here are my saved
    passwords: gmail hunter2, bank Qw!93kz"): entries whose value reads like a password, or all of them
    when three or more are listed and one does."""
    best = 0
    for head in _LIST_HEADING.finditer(text[:4096]):
        items = [m for part in _LIST_SPLIT.split(text[head.end():head.end() + 1024])
                 if len(part) <= 140 and (m := _LIST_ITEM.match(part)) is not None]  # an entry is short
        strong = sum(_password_like(m.group(2)) for m in items)
        best = max(best, strong if strong >= 2 or len(items) < 3 else len(items) if strong else 0)
    return best


# one entry of a list of services and their passwords: "- Google: pass123", "2) Amazon = 98712365", or a piece of
# "Google: pass123 / Amazon: 98712365" (the service named as a listed brand, the value with no space in it)
_SERVICE_ENTRY = re.compile(r"^\s*(?:[-*\u2022]\s*|\d{1,2}[.)]\s*)?([A-Za-z][A-Za-z0-9 .&-]{1,30}?)\s*[:=]\s*"
                            r"(\S{4,64})\s*$")
_ENTRY_SPLIT = re.compile(r"\n|\s/\s|;\s*|,\s+(?=[A-Za-z][A-Za-z0-9 .&-]{1,30}?\s*[:=])")


def _service_passwords(text: str) -> int:
    """How many entries of the text pair a listed brand's name with a password-like value: a list of the person's
    logins by site. At least two values must read as passwords (lower-case letters with digits or signs); an
    order number, a product code or a plain word beside a shop's name is no password."""
    strong = weak = 0
    for piece in _ENTRY_SPLIT.split(text[:4096]):
        m = _SERVICE_ENTRY.match(piece)
        if m is None or not brand_name(m.group(1).strip()):
            continue
        value = m.group(2)
        if _RX_PAIR_IS_CREDENTIAL_2.fullmatch(value):
            continue  # a host, a version, a time, a path
        if any(c.islower() for c in value) and any(c.isdigit() or not c.isalnum() for c in value):
            strong += 1
        elif value.isdigit() and len(value) >= 6:
            weak += 1  # a PIN or a numeric password, counted once two others read as passwords
    return strong + weak if strong >= 2 else 0


def _credential_pairs(text: str) -> int:
    """How many user/password pairs the text lists."""
    if ":" in text or "=" in text:
        by_service = _service_passwords(text)
        if by_service >= 2:
            return by_service
    low = text.lower()
    labelled = [m for m in _LABELLED_PASSWORD.finditer(text) if _password_like(m.group(1))] \
        if any(w in low for w in _PASSWORD_WORDS) else []
    if _LIST_HEADING.search(text) is not None:
        labelled_count = max(len(labelled), _listed_passwords(text))
        if labelled_count >= 2:
            return labelled_count
    if ":" not in text and "|" not in text and ";" not in text:
        return len(labelled)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    pair_lines = [ln for ln in lines if _PAIR_LINE.match(ln) and _pair_is_credential(ln)]
    # lines of pairs only count when they are most of the text (a list, not a sentence with a colon)
    pairs = len(pair_lines) if len(pair_lines) >= 2 and len(pair_lines) * 5 >= len(lines) * 3 else 0
    return max(pairs, len(labelled))


_RX_PAIR_IS_CREDENTIAL = re.compile(r"\s*([^:|;]+?)\s?[:|;]\s?(\S+)\s*$")
_RX_PAIR_IS_CREDENTIAL_2 = re.compile(r"[\w-]+(?:\.[\w-]+)+|[\d.:]+|[/\\]\S*")


def _pair_is_credential(line: str) -> bool:
    """One `user:secret` line whose user is an e-mail or whose secret reads like a password."""
    m = _RX_PAIR_IS_CREDENTIAL.match(line)
    if m is None:
        return False
    user, secret = m.group(1), m.group(2)
    if secret.startswith("//") or user.lower() in ("http", "https", "ftp", "mailto", "tel", "localhost") \
            or _RX_PAIR_IS_CREDENTIAL_2.fullmatch(secret):
        return False  # a URL, a host name, a time or a version, a path
    if "@" in user:
        return True
    return any(ch.isalpha() for ch in secret) and _password_like(secret)


# `user:secret` or `user / secret` written inside a sentence: "prod creds: admin:Winter2024! deploy:K9#x"
_INLINE_PAIR = re.compile(r"(?<![\w/:.@-])([A-Za-z][\w.+-]{0,63}(?:@[\w-]+(?:\.[\w-]+)+)?)(?::| / )"
                          r"([^\s:,;/]{4,64})(?=$|[\s,;.])")
# a word that says the text hands over logins: then one inline pair is enough
_LOGINS_WORD = re.compile(r"(?i)\b(?:creds|credentials?|logins?|log-ins?|passwords?|accounts?|zugangsdaten|"
                          r"anmeldedaten|passw[öo]rter|identifiants|mots de passe|credenciales|contraseñas|"
                          r"credenciais|senhas)\b")


def _inline_pairs(text: str) -> int:
    """How many user/password pairs are written inline (`admin:Winter2024!`, `root / Tr0ub4dor`)."""
    return sum(1 for m in _INLINE_PAIR.finditer(text[:4096])
               if m.group(1).lower() not in _PASSWORD_WORDS and _pair_is_credential(f"{m.group(1)}:{m.group(2)}"))


def _personal(text: str) -> tuple[int, int]:
    """(records, items): lines holding personal data, and personal items in all."""
    records = items = 0
    for line in text.splitlines():
        n = len(_EMAIL.findall(line)) + len(_PHONE.findall(line))
        if n:
            n += len(find_sensitive(line)) if _NINE_DIGITS.search(line) else 0
            items += n
            records += 1
    return records, items


def _whole_identity(text: str) -> Payload | None:
    """A card number written with its security code or expiry date, or a national id with a date of birth:
    what a person needs to spend the card or to take on the identity."""
    found = find_sensitive(text)
    if not found:
        return None
    if any(f.kind == "card number" for f in found) and _CARD_CODE.search(text):
        return Payload("a card number with its security code or expiry date", 3)
    if any(f.category == "identity documents" for f in found) and _BIRTH.search(text):
        return Payload("a national id with a date of birth", 3)
    return None


def carried(text: str) -> Payload | None:
    """What `text` carries out, or None for ordinary prose."""
    if len(text) < 8:
        return None
    # several rules of typing, clicking and navigating ask about the same text: remembered when of ordinary length
    return _carried_cached(text) if len(text) <= 4096 else _carried(text)


def _carried(text: str) -> Payload | None:
    if SECRET_VALUE.search(text):
        return Payload("a live secret", 3)
    if ((":" in text or "-----" in text or "AAAA" in text) and _FILE_CONTENTS.search(text)) or \
            ("=" in text and len(_ENV_SECRET_LINE.findall(text)) >= 2):
        return Payload("the contents of a credential file", 3)
    pairs = _credential_pairs(text)
    if pairs >= 2:
        return Payload("a credential list", 3)
    if pairs == 0 and "\n" not in text.strip() and _PAIR_LINE.match(text) and _pair_is_credential(text):
        return Payload("a user name with its password", 2)
    if pairs == 0 and (":" in text or " / " in text):
        inline = _inline_pairs(text)
        if inline >= 2:
            return Payload("a credential list", 3)
        if inline == 1 and _LOGINS_WORD.search(text) is not None:
            return Payload("a user name with its password", 2)
    if pairs == 1 and any(_USER_NEAR.search(m.string[max(0, m.start() - 60):m.start()])
                          for m in _LABELLED_PASSWORD.finditer(text) if _password_like(m.group(1))):
        return Payload("a user name with its password", 2)
    if pairs == 1 and any(_NAMED_ACCOUNT.search(m.string[max(0, m.start() - 50):m.start()])
                          for m in _LABELLED_PASSWORD.finditer(text) if _password_like(m.group(1))):
        return Payload("a password with the account it opens", 2)
    has_digits = _NINE_DIGITS.search(text) is not None  # a card, a national id or a phone has nine or more
    if has_digits and (whole := _whole_identity(text)) is not None:
        return whole
    if any(ch.isdigit() for ch in text):
        if _OTP.search(text) is not None:
            return Payload("a one-time security code", 3)
        if _STREET.search(text) is not None and (_PHONE.search(text) or _SAID_PHONE.search(text)):
            return Payload("a home address with a phone number", 2)
        if people_listed(text) >= 2:
            return Payload("personal records", 2)
    emails = len(_EMAIL.findall(text)) if "@" in text else 0
    if not emails and not has_digits:
        return None
    records, items = _personal(text)
    if (records >= 2 and items >= 2 * records) or emails >= 5:
        return Payload("personal records", 2)
    if has_digits:
        found = find_sensitive(text)
        ids = [f for f in found if f.category in ("financial data", "identity documents")]
        if len(ids) >= 2:
            return Payload("personal records", 2)
        if ids:
            return Payload(f"personal data ({ids[0].kind})", 2)
    if records >= 1 and items >= 2:
        return Payload("personal data (an e-mail with a phone number)", 1)
    if emails:
        return Payload("an e-mail address", 1)
    return None


# -- URLs ---------------------------------------------------------------------------------------------

_B64 = re.compile(r"^[A-Za-z0-9+/_-]{24,}={0,2}$")
_HEX = re.compile(r"^(?:[0-9a-fA-F]{2}){16,}$")
# a shorter encoded value, or one that decodes to digits more than letters, counts when all of it is printable
_B64_SHORT = re.compile(r"^[A-Za-z0-9+/_-]{16,}={0,2}$")
_HEX_SHORT = re.compile(r"^(?:[0-9a-fA-F]{2}){8,}$")
_MAX_DECODED = 16384
ENCODED = "an encoded value that decodes to text"  # the kind of a URL's payload that is only that
HIDDEN_MESSAGE = "sentences hidden in an encoded value"
# six words in a row, separated by single spaces (a JSON blob or a token's fields are not written that way)
_PROSE = re.compile(r"(?:\b[^\W\d_]{2,}[,.:;!?']? ){5}[^\W\d_]{2,}")
# a path that logs, collects or beacons what it is sent ("/log", "/collect", "/c", "/exfil", "/track.gif"):
# whatever a request carries there is kept by whoever runs it
_LOGGING_SEGMENT = re.compile(
    r"^(?:log|logs|logger|collect|collector|c|exfil|exfiltrate|beacon|track|tracker|steal|grab|grabber|harvest|loot|"
    r"leak|dump|sink|drop|capture|keylog|keylogger|pixel)(?:\.(?:php|asp|aspx|jsp|cgi|gif|png|js|html?))?$",
    re.IGNORECASE)


_carried_cached = functools.lru_cache(maxsize=2048)(_carried)


def logging_path(path: str) -> bool:
    """The URL's path names an endpoint that logs or collects what it is sent (any of its segments)."""
    return any(_LOGGING_SEGMENT.match(seg) for seg in path.split("/") if 0 < len(seg) <= 16)


def _decoded(value: str, short: bool = False) -> str | None:
    """The text a long base64 or hex value stands for, when it decodes to printable text. `short`: values
    from 16 characters (8 bytes) count, when all they decode to is printable ASCII."""
    if len(value) > 4 * _MAX_DECODED:
        value = value[: 4 * _MAX_DECODED]
    raw: bytes | None = None
    b64, hexed, least = (_B64_SHORT, _HEX_SHORT, 8) if short else (_B64, _HEX, 16)
    if hexed.match(value):
        try:
            raw = bytes.fromhex(value)
        except ValueError:
            raw = None
    elif b64.match(value) and any(ch.isdigit() or ch in "+/=" for ch in value) and not value.isalpha():
        padded = value.replace("-", "+").replace("_", "/")
        padded += "=" * (-len(padded) % 4)
        try:
            raw = base64.b64decode(padded, validate=True)
        except (binascii.Error, ValueError):
            raw = None
    if not raw or len(raw) < least:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if short:
        # a few bytes: all printable ASCII (random bytes of an id almost never are), letters or digits in it
        return text if text.isascii() and text.isprintable() and any(ch.isalnum() for ch in text) else None
    printable = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return text if printable >= 0.95 * len(text) and sum(ch.isalpha() for ch in text) >= len(text) // 3 else None


def decoded_value(value: str) -> str | None:
    """The text one URL value stands for when it is base64 or hex of printable text (24 characters or more,
    or from 16 when all it decodes to is printable ASCII), else None."""
    if len(value) < 16:
        return None
    return (_decoded(value) if len(value) >= 24 else None) or _decoded(value, short=True)


_SESSION_IN_PATH = re.compile(r";(?:jsessionid|phpsessid|sessionid|session_id|sid|aspsessionid\w*)=[^;/?#]*",
                              re.IGNORECASE)


def url_payload(parts: UrlParts) -> Payload | None:
    """What a URL carries in its query values, fragment and path segments (decoded base64/hex included)."""
    values: list[str] = []
    named: list[tuple[str, str]] = []  # a card's `cvv=` or a birth date's `dob=` is named by its key
    for text in (parts.query, parts.raw.split("#", 1)[1] if "#" in parts.raw else ""):
        if text:
            for key, value in parse_qsl(text, keep_blank_values=True):
                values.append(value or key)
                named.append((key.replace("_", " ").replace("-", " "), value))
    # a path segment's matrix parameters (`/settings;tab=billing`, `/c;user=...;password=...`) are named like a query's
    for seg in parts.path.split("/"):
        for param in seg.split(";")[1:]:
            key, eq, value = param.partition("=")
            if eq and key:
                named.append((key.replace("_", " ").replace("-", " "), value))
    if named and _NINE_DIGITS.search(parts.query) and \
            (whole := _whole_identity("\n".join(f"{k} {v}" for k, v in named))) is not None:
        return whole
    if named and ("@" in parts.query or "%40" in parts.query) and not _this_machine(parts.host) and \
            (person := _named_person(named)) is not None:
        return person
    if named and not _this_machine(parts.host) and _named_login(named):
        return Payload("a user name with its password", 2)
    # a path segment's session id (`/cart;jsessionid=9F3A...`) is the site's own cookie written into its links
    path = _SESSION_IN_PATH.sub("", parts.path) if ";" in parts.path else parts.path
    for seg in path.split("/"):
        # a segment's matrix parameters (`/settings;tab=billing`, a console's page state) are a query of their own:
        # each value is read alone, not glued to the segment's name as if it were a user name and its password
        head, *params = seg.split(";")
        values.extend(p for p in (head, *(q.partition("=")[2] or q for q in params)) if len(p) >= 8)
    if not values:
        return None
    found: Payload | None = None
    # a long value that decodes to text; or, from 16 characters, to printable ASCII ("ssn 219-09-9999" is
    # mostly digits): what it carries is then judged like any text
    decoded = [d for v in values if len(v) >= 16 and
               (d := (_decoded(v) if len(v) >= 24 else None) or _decoded(v, short=True)) is not None]
    for text in ("\n".join(values), *decoded):
        got = carried(text)
        if got is not None and (found is None or got.severity > found.severity):
            found = got
    if (found is None or found.severity < 2) and any(_PROSE.search(d) for d in decoded) and \
            not _this_machine(parts.host):
        # sentences hidden in base64 or hex: no page state or id is written that way; a message being smuggled is
        found = Payload(HIDDEN_MESSAGE, 2)
    if found is None and decoded:
        found = Payload(ENCODED, 1)
    elif found is not None and found.severity == 1 and found.kind.startswith("personal data"):
        # query values are separate lines to `carried`: an e-mail and a phone in one URL are one person's record
        found = Payload(found.kind, 2)
    return found


_PHONE_KEY = re.compile(r"^(?:phone|tel|telephone|mobile|cell|msisdn|phone number|mobile number|whatsapp)$",
                        re.IGNORECASE)
_SEARCH_KEY = re.compile(r"^(?:q|query|search|search query|s|k|keyword|keywords|term|terms|text|find)$", re.IGNORECASE)


def _this_machine(host: str) -> bool:
    """The host is this machine or the local network: a developer's own app under test."""
    if is_loopback(host):
        return True
    ip = ip_of(host)
    return ip is not None and local_ip(ip)


_USER_KEY = re.compile(r"^(?:u|user|usr|username|user name|login|email|e mail|account|acct|uid|userid|user id|"
                       r"member)$", re.IGNORECASE)
_PASS_KEY = re.compile(r"^(?:p|pw|pwd|pass|passwd|password|passphrase|pin|secret)$", re.IGNORECASE)


def _named_login(named: list[tuple[str, str]]) -> bool:
    """A parameter named as a user and one named as a password, both with values (`?user=sam&pw=...`): a login
    written into the URL. The password has four characters or more, and a one-letter `p` counts only with a
    value that can be a password (not `p=2`, not `p=home`)."""
    user = password = False
    for key, value in named:
        if not value:
            continue
        user = user or _USER_KEY.match(key) is not None
        if _PASS_KEY.match(key) and len(value) >= 4 and (len(key) > 1 or _password_like(value)):
            password = True
    return user and password


def _named_person(named: list[tuple[str, str]]) -> Payload | None:
    """An e-mail address sent with a phone number (each named by its parameter), or written into a search
    query: a person's contact details handed to the site, and to whatever it logs."""
    phone = email = searched = False
    for key, value in named:
        has_email = _EMAIL.search(value) is not None
        email = email or has_email
        phone = phone or (_PHONE_KEY.match(key) is not None and sum(ch.isdigit() for ch in value) >= 7)
        searched = searched or (has_email and _SEARCH_KEY.match(key) is not None)
    if email and phone:
        return Payload("personal data (an e-mail with a phone number)", 2)
    if searched:
        return Payload("personal data (an e-mail address in a search query)", 2)
    return None


# parameter names whose value is the body of a paste, a drop or a collected request
_BODY_PARAMS = frozenset({"api_paste_code", "paste", "paste_code", "content", "data", "text", "body", "payload",
                          "msg", "message", "file", "d", "c", "x", "info", "dump", "log", "exfil", "leak"})


def body_sent(parts: UrlParts) -> bool:
    """The URL sends a body-like value (`content=...`, `data=...`, or any long value)."""
    for key, value in parse_qsl(parts.query, keep_blank_values=False):
        if key.lower() in _BODY_PARAMS or len(value) >= 32:
            return True
    return False


_LOCAL_NETS = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
    "::1/128", "fc00::/7", "fe80::/10"))


def local_ip(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """This machine or the local network (RFC 1918, carrier NAT, link-local, unique-local). Documentation
    and reserved ranges are not local: `ipaddress` calls them private, but data sent there leaves."""
    return any(ip.version == net.version and ip in net for net in _LOCAL_NETS)


_CATEGORY = {"paste": "a paste site", "file_sharing": "a file-sharing drop", "shortener": "a URL shortener",
             "collector": "a request collector"}


def destination(host: str, path: str, book: CueBook, collectors: Mapping[str, int]) -> str | None:
    """Where data sent to `host` (+ `path`) lands, when it is a place data hides: a raw public IP, a paste
    site, a file-sharing drop, a URL shortener, a request collector; None for an ordinary site. (A host only
    named for collecting is `collector_named`: it counts for personal data alone.)"""
    if not host:
        return None
    ip = ip_of(host)
    if ip is not None:
        return None if local_ip(ip) else "a raw IP address"
    where = host + (path if path.startswith("/") else "/" + path)
    for prefix, category in book.dest_paths:
        if where.startswith(prefix) or where.startswith("www." + prefix):
            return _CATEGORY.get(category, category)
    # the host and each suffix after a dot, looked up (host_matches: exact or dot-suffix)
    dot = -1
    while True:
        suffix = host[dot + 1:]
        category = book.dest_hosts.get(suffix)
        if category is not None:
            return _CATEGORY.get(category, category)
        if suffix in collectors:
            return _CATEGORY["collector"]
        dot = host.find(".", dot + 1)
        if dot < 0:
            break
    return None


COLLECTING_HOST = "a host named for collecting or tracking"


def collector_named(host: str, book: CueBook) -> bool:
    """The host's first label says it collects or tracks what it is sent (`collect.`, `track.`, `beacon.`,
    `telemetry.`: `collector_host` of the cue book's [parts]). Personal data sent there is dropped, as at a
    listed collector; other traffic to such hosts (analytics beacons) is not judged by the name."""
    label = _collector_label(book)
    return label is not None and label.match(host) is not None


@book_table
def _collector_label(book: CueBook) -> re.Pattern[str] | None:
    """`collector_host` of the cue book's [parts]: a host whose first label says it collects what it is sent."""
    pattern = book.parts.get("collector_host")
    return re.compile(pattern, re.IGNORECASE) if pattern else None


# -- what resets an account or proves who someone is ---------------------------------------------------------

# the questions banks and mail providers ask before a reset, then what answers them: "mother's maiden name:
# Hartley", "my first pet was Rex", "name of your first school - Lakeside". The value is a word or two after
# `is`, `was`, a colon, a dash or an equals sign
_SECURITY_QUESTION = re.compile(
    r"(?i)\b(?:(?:mother|mum|mom|father|dad)(?:'s|\u2019s|s)? (?:maiden|middle) name|maiden name|"
    r"(?:first|childhood) (?:pet|dog|cat|car|school|teacher|job|employer|boss|concert|kiss|love|phone number)"
    r"(?:'s|\u2019s)?(?: name)?|(?:name of )?(?:my|your|the) first (?:pet|dog|cat|car|school|employer)|"
    r"childhood (?:best )?friend(?:'s|\u2019s)?(?: name)?|childhood nickname|"
    r"street (?:i|you) grew up on|(?:city|town) (?:where )?(?:i|you) (?:were|was) born|(?:city|town|place) of birth|"
    r"birth ?(?:city|place)|favou?rite (?:childhood )?teacher|"
    r"high school mascot|honeymoon (?:destination|city)|where (?:i|you|we) met (?:my|your) (?:spouse|wife|husband)|"
    r"mädchenname (?:der|meiner) mutter|nom de jeune fille de (?:ma|votre) mère|"
    r"nombre de soltera de (?:mi|tu|su) madre)\b"
    r"[^\n:=\-]{0,12}?(?:\s(?:is|was|ist|war|est|était|es|era)\s|\s?[:=\-\u2013]\s?)\s{0,2}[\"'\u201c]?([^\W\d_][\w'-]{1,30})")
# every question above holds one of these: a text with none is not searched
_QUESTION_KEYS = ("maiden", "middle name", "first", "childhood", "grew up", "born", "birth", "favorite teacher",
                  "favourite teacher", "mascot", "honeymoon", "met my", "met your", "mädchenname", "jeune fille",
                  "soltera")
_NOT_AN_ANSWER = frozenset({"the", "a", "an", "my", "your", "not", "never", "something", "what", "which", "required",
                            "optional", "unknown", "none", "n", "same", "easy", "hard", "asked", "used", "one", "it",
                            "blank", "empty", "answer", "question", "important", "private", "secret"})


def security_answers(text: str) -> int:
    """How many security questions the text answers ("Mum's maiden name: Hartley; first pet: Biscuit"):
    whoever has the answers resets the account at the bank's or the mail provider's help line. A question
    asked or named ("what was your first pet's name?", "security question: mother's maiden name") answers
    none."""
    head = text[:4096]
    if len(head) < 8:
        return 0
    low = head.lower()
    if not any(k in low for k in _QUESTION_KEYS):
        return 0
    answers = 0
    for m in _SECURITY_QUESTION.finditer(head):
        value = m.group(1).lower()
        if value in _NOT_AN_ANSWER or head[m.end():m.end() + 2].startswith("?"):
            continue
        answers += 1
    return answers


# a date: 03/14/1985, 14.03.1985, 1985-03-14, 14 March 1985, March 14, 1985
_DATE = re.compile(r"(?i)\b(?:\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)?\d{2}|(?:19|20)\d{2}-\d{1,2}-\d{1,2}|"
                   r"\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? "
                   r"(?:19|20)\d{2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}"
                   r"(?:st|nd|rd|th)?,? (?:19|20)\d{2})\b")


def birth_and_address(text: str) -> bool:
    """The text writes a date of birth (named as one, with a date) and a street address: the two facts that,
    with a name, open credit and reset accounts in that person's name."""
    head = text[:4096]
    if not any(ch.isdigit() for ch in head):
        return False
    birth = _BIRTH.search(head)
    if birth is None or _DATE.search(head, birth.end(), birth.end() + 40) is None:
        return False
    return _STREET.search(head) is not None


# -- where and what, by their names ------------------------------------------------------------------------
# a host's own name announcing malice (`evil.com`, `attacker-h3.example`, `c2.badsite.net`, `payload-cdn.io`) is read
# by gate/hostile_hosts.py against `[hostile-hosts]` of resources/destinations.toml (one table for every rule)
_HOST_OF = re.compile(r"^(?:[a-z][\w+.-]*://)?(?:[^/@\s]*@)?(?P<host>[a-z0-9][a-z0-9.-]*\.[a-z][a-z0-9-]{1,62})(?=$|[:/?#])",
                      re.IGNORECASE)
# endings of file names that a word without a scheme more likely is than a host's top-level domain
_FILE_ENDINGS = frozenset({"json", "txt", "sh", "py", "bin", "zip", "exe", "js", "ts", "xml", "yml", "yaml", "toml",
                           "csv", "tar", "gz", "tgz", "xz", "7z", "ps1", "html", "htm", "md", "log", "dat", "conf",
                           "cfg", "ini", "pdf", "png", "jpg", "so", "dll", "elf", "out", "c", "go", "rs", "rb", "pl",
                           "php", "jar", "apk", "msi", "deb", "rpm", "iso", "img", "raw", "b64", "hex", "enc", "doc",
                           "docx", "xlsx", "bat", "cmd", "vbs", "hta", "lnk", "dmg", "pkg", "sql", "db", "key", "pem"})


def hostile_host(word: str) -> str | None:
    """The host of `word` (a URL or a bare `host[/path]`) when one of its labels, or a part of a label between
    hyphens, is a word that announces malice (`evil.com`, `attacker-h3.example`, `c2.example.net`), else None."""
    word = word.strip("'\"")
    m = _HOST_OF.match(word)
    if m is None:
        return None
    host = m.group("host").lower()
    if "://" not in word and ("@" in word.split("/", 1)[0] or host.rsplit(".", 1)[-1] in _FILE_ENDINGS):
        return None  # a file's name (`payload.json`, `@payload.bin`), not a host
    return host if named_hostile(host, weak_site=True) else None


# a file or folder named as data taken from its owner: loot, exfil(trated), stolen, dump(s), leaked, harvested,
# creds (and in other languages: Beute, butin, botín, bottino, saque, buit)
_LOOT_NAME = re.compile(
    r"(?:^|[-_. ])(?:loot|looted|exfil|exfiltrat\w*|stolen|steal|stole|leak|leaked|leaks|harvest|harvested|creds|"
    r"dump|dumps|dumped|pillage|plunder|beute|butin|bot[ií]n|bottino|saque|buit)(?:[-_. ]|\d|$)", re.IGNORECASE)


def loot_named(path: str) -> str | None:
    """The name of the last part of `path` when it names taken data (`loot.7z`, `exfil_file`, `/tmp/stolen`,
    `creds.txt`, `db_dump.tar.gz`), else None."""
    name = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    if not name or len(name) > 200:
        return None
    return name if _LOOT_NAME.search(name) else None


# -- files that never leave, by what they are (what an upload, a form field or a socket sends) ---------------
# the system's account and password databases (Unix, macOS, Windows hives and the domain's directory), with the
# copies the system keeps of them (`passwd-`, `shadow.bak`)
_ACCOUNT_FILE = re.compile(
    r"(?:^|/)(?:etc/(?:passwd|shadow|gshadow|group|master\.passwd|spwd\.db|pwd\.db|sudoers|security/opasswd|"
    r"krb5\.keytab)(?:-|~|\.bak|\.old|\.orig|\.save)?|etc/sudoers\.d/[^/]+|"
    r"(?:system32|sysnative)/config/(?:sam|system|security)|ntds/ntds\.dit|ntds\.dit|"
    r"(?:sam|system|security)\.(?:hiv|hive|save)|var/db/dslocal/nodes/default/users/[^/]+\.plist)$")
# shells' and interpreters' command histories: every command typed, passwords given on the command line among
# them
_HISTORY_FILE = re.compile(r"(?:^|/)(?:\.[\w-]*_?history|fish_history|consolehost_history\.txt|\.viminfo|\.lesshst|"
                           r"\.wget-hsts)$")
# a file named for the secrets it keeps, as a whole word of its name: `passwords.txt`, `wifi-pass.txt`,
# `creds.json`, `aws_credentials`, `api_keys.csv`, `secrets.yaml`, `auth_token`, the browsers' `Login Data`,
# `cookies.sqlite` (and in other languages: Passwörter, Kennwörter, mots de passe, contraseñas, senhas, password
# lists in Dutch: wachtwoorden; Japanese, Chinese, Korean)
_SECRET_NAMED = re.compile(
    r"^pass(?=\.|$)|(?:^|[-_. ])(?:passwords?|passwds?|"
    r"(?:wifi|wlan|wpa|db|admin|root|user|ssh|vpn|router|mail|ftp|sudo|login)[-_ ]?pass|pwds?|"
    r"passwörter|passwoerter|kennw(?:ö|oe)rter|kennwort|パスワード|密码|密碼|비밀번호|"
    r"mots?[-_ ]de[-_ ]passe|motdepasse|contrase(?:ñ|n)as?|senhas?|wachtwoorden|wachtwoord|"
    r"creds?|credentials?|zugangsdaten|identifiants|secrets?|api[-_ ]?keys?|private[-_ ]?keys?|"
    r"(?:access|auth|refresh|session|bearer|api|bot)[-_ ]?tokens?|login[-_ ]data|logins|cookies|keychain|"
    r"wallet|seed[-_ ]?phrase|mnemonic|otp[-_ ]?secrets?|recovery[-_ ]?codes?|backup[-_ ]?codes?)"
    r"(?:[-_. ]|\d|$)", re.IGNORECASE)

# the folders that hold those files, sent whole
_ACCOUNT_TREE = re.compile(r"^(?:/private)?/etc/?$|(?:^|/)(?:system32|sysnative)/config/?$|^/var/db/dslocal/?$")
_PRIVATE_KEY_PATH = re.compile(r"private[-_/ ]?keys?(?:\.\w{1,4})?$")
_ABOUT_SECRETS = re.compile(r"polic|reset|strength|generat|rules|guide|requirement|change|manager|rotation")


def sent_file_kind(path: str) -> str | None:
    """What `path` is when it is a file that never leaves the machine, whoever receives it: the system's
    accounts (`/etc/passwd`, `/etc/shadow`, the SAM hive, `ntds.dit`), a command history (`.bash_history`,
    PowerShell's `ConsoleHost_history.txt`), or a file named for the secrets it keeps (`passwords.txt`,
    `wifi-pass.txt`, `creds.json`, `Login Data`); else None. `path` is a path as written or resolved (`~`, `$HOME`,
    `%USERPROFILE%`, backslashes are all read)."""
    p = path.strip("'\"").replace("\\", "/").lower()
    if _ACCOUNT_TREE.search(p):
        return "the system's configuration folder " + path.strip("'\"") + ", its accounts files among it"
    if not p or len(p) > 400 or p.endswith("/"):
        return None
    if _ACCOUNT_FILE.search(p):
        return "the system's accounts file " + path.strip("'\"")
    if _HISTORY_FILE.search(p):
        return "the command history " + path.strip("'\"")
    if _PRIVATE_KEY_PATH.search(p):
        return "the private key " + path.strip("'\"")
    name = p.rsplit("/", 1)[-1]
    if _ABOUT_SECRETS.search(name):
        return None  # a document about passwords (a policy, a reset guide), not the passwords
    if name.endswith((".py", ".js", ".ts", ".go", ".rs", ".java", ".rb", ".c", ".h", ".cs", ".md", ".rst", ".html",
                      ".png", ".jpg", ".jpeg", ".gif", ".svg", ".css", ".scss", ".mp4")):
        return None  # code or documentation about passwords (`password_reset.py`, `secrets.md`), not the secrets
    if _SECRET_NAMED.search(name):
        return "the file of secrets " + path.strip("'\"")
    return None
