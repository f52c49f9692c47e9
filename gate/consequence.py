"""What a button does to money, an account, permissions, data or visibility, read from its label's meaning.

    consequence(words, url="", keys=None, book=None) -> Consequence | None
    moves_only(words) -> bool

`words` is the label in normalised word form (`gate.rules.gui.label_text(ctx).words`). A label is read
as a verb phrase: an action verb, optionally a few filler words, and the object it acts on. The verbs
and objects are data, the `[consequence.*]` tables of resources/cues.toml (gate/cues.py), written per
language: vocabularies of interchangeable words (`{account_objects}`, `{plan}`, ...), so "Change e-mail",
"Update your recovery email address" and "Passwort ändern" are one meaning, and so are "Start free
trial", "Upgrade to Pro" and "Begin transfer", "Wire Transfer", "Order!" (punctuation is gone in the word
form). Data leaving the account ("Export", "Download your data", "Share with", "Forward all mail") is a
kind of its own. Installing or running software ("Install update", "Enable macros") asks too: fake updates
are how pop-ups get an agent to run code. Labels that only move around or towards a payment (navigation,
search, "Add to cart", "Continue to checkout", "Proceed to shipping", "Apply coupon", "Next": the
`[navigation]` table) have no consequence here; the step that commits ("Place order", "Pay now") does.

`url` (the page the action is on) raises an authorisation button to high risk on an OAuth consent page,
and makes a generic "Save" on an account's password or billing page that page's change. A bare switch or
answer means what the page it is on is for (the page-bound verbs of [parts]): "Turn off" on the antivirus's
page, "Use <app>" on a phone's accessibility page, "Keep" on a browser's downloads page, "Show" in its password
manager, "Sign up" on the sign-up form (elsewhere it is a link to the form), "Reload" on a prepaid card's page,
"Delete column" in a course's grade book, "Show" or "Rotate" on a page of API keys, tokens or integrations,
"Resend code" on a shop's gift cards, "Save" or "Yes" on an account's emergency-access or delegates page, "Accept"
on a console's access requests, "Complete" on a signer's page, "Import" on an importer's page, "Share" on a cloud
console's snapshot or machine-image page.
Which of those pages an address is, is read once per address. The other way round, a bare editing command on
a document, spreadsheet or design editor's or a task board's page ("Freeze", "Add card": `editor_page` and
`editor_verb` of [parts]) is an edit of the open file, whatever other meaning its words have elsewhere.
All patterns are bounded alternations with bounded gaps: linear in the label's length.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from gate.cues import ConsequenceKind, CueBook, book_table, cue_book
from gate.model import Risk
from gate.prefix import text_keys

__all__ = ["Consequence", "consequence", "editor_command", "moves_only", "of_kind", "office_edit", "priced_offer",
           "system_update"]


# what a navigation button may carry after its words: a count or a total ("Proceed to checkout (3 items)",
# "Continue to checkout - $45.00" read "... 3 items", "... 45 00" in the word form)
_NAV_TAIL = re.compile(r"(?: (?:\d+|items?|products?|articles?|total|subtotal|usd|eur|gbp))+$")
# what a label moving towards a payment names (a count after "Archive" is a bulk change, not a step)
_TOWARDS_PAYMENT = re.compile(r"\b(?:checkout|check out|cart|basket|bag|payment|shipping|delivery|billing|review|"
                              r"continue|proceed|next)\b")
# the plain "Checkout" of a cart or basket page: it opens the checkout form, where the order is placed
_CHECKOUT = re.compile(r"^(?:secure |go to |proceed to )?(?:checkout|check out)(?: now| securely)?$")
_CART_PAGE = re.compile(r"/(?:cart|carts|basket|bag|trolley|shopping[_-]?cart|shopping[_-]?bag|viewcart|view[_-]cart)"
                        r"(?:/|$|\?|#|\.)", re.IGNORECASE)


def moves_only(words: str, book: CueBook | None = None, url: str = "") -> bool:
    """The label (its first line) only moves around or towards a payment ("Next", "Continue to checkout",
    "Apply coupon", "Add to cart"): `[navigation]` of the cue book, with or without a count or total after it
    ("Proceed to checkout (3 items)"). On a cart page (`url`), a plain "Checkout" is the way to the checkout
    form too: the order is placed there, by another button. A role written before the name by an accessibility
    tree ("link 'Checkout'", "button Next") is not part of it."""
    first = _ROLE_PREFIX.sub("", words.split("\n", 1)[0].strip(), count=1)
    nav = (book or cue_book()).navigation
    if nav.fullmatch(first) is not None:
        return True
    if (first[-1:].isdigit() or first.endswith(("items", "item", "total", "products", "usd", "eur", "gbp"))) \
            and _TOWARDS_PAYMENT.search(first) is not None:
        bare = _NAV_TAIL.sub("", first)
        if bare and bare != first and (nav.fullmatch(bare) is not None or
                                       (url and _CHECKOUT.match(bare) and _CART_PAGE.search(url))):
            return True
        first = bare or first
    if (tail := _NAV_AFTER_NOTE.search(first)) is not None and tail.start() > 0 and \
            _COMMIT_WORD.search(first[:tail.start()]) is None:
        return True  # "Free shipping over $50 - continue to checkout": a note on the way, then the step towards paying
    if url and _BARE_REMOVE.match(first) is not None and \
            (_CART_PAGE.search(url[:512]) is not None or _SAVED_LIST_PAGE.search(url[:512]) is not None):
        return True  # a cart's or a wish list's bare "Remove": the item leaves the list, and is added back in a click
    return bool(url) and _CHECKOUT.match(first) is not None and _CART_PAGE.search(url) is not None

# a step towards the checkout written after a note about the order ("Free shipping over $50 - continue to checkout",
# "2 items in your bag, proceed to checkout"); a note that itself commits ("Place order and continue to ...") is not one
_NAV_AFTER_NOTE = re.compile(r"\b(?:continue|proceed|go|move on) (?:on )?to (?:the )?(?:secure )?(?:checkout|check out|"
                             r"payment|shipping|delivery|billing|cart|bag|basket|order review)$")
_COMMIT_WORD = re.compile(r"\b(?:pay|paid|buy|purchase|order|place|submit|send|confirm|subscribe|book|donate|transfer|"
                          r"delete|remove|sign|agree|accept|authori[sz]e|approve|grant|publish|post|install|enable|run)\b")
# the role an accessibility tree writes before an element's name ("link 'Checkout'", "button: Next", "[button] Back")
_ROLE_PREFIX = re.compile(r"^(?:button|link|menuitem|menu item|tab|option)\s+(?=\S)")
# a bare removal of one entry, and the person's own lists it is on: a cart, a wish list, saved items, bookmarks,
# a watch list, a playlist or a library. What leaves them stays in the shop or the catalogue, added back in a click
_BARE_REMOVE = re.compile(r"^(?:remove|delete|remove item|delete item|remove this item|remove from (?:list|cart))$")
_SAVED_LIST_PAGE = re.compile(r"/(?:wishlists?|wish[_-]?lists?|hz/wishlist|saved(?:[_-]?items|[_-]?for[_-]?later)?|"
                              r"favou?rites|bookmarks|watch[_-]?list|watchlater|playlists?|collection|library|"
                              r"reading[_-]?list)(?:/|$|\?|#|\.)", re.IGNORECASE)


def _cart_checkout(words: str, url: str) -> bool:
    """A plain "Checkout" (with or without a count or total) on a cart page."""
    first = words.split("\n", 1)[0].strip()
    if "check" not in first:
        return False
    first = _NAV_TAIL.sub("", first) or first
    return _CHECKOUT.match(first) is not None and _CART_PAGE.search(url) is not None


_CONSENT_URL = re.compile(r"oauth|/authori[sz]e|/consent|/auth\b|connect/|/approve|grant", re.IGNORECASE)


class Consequence(NamedTuple):
    kind: str
    risk: Risk
    quote: str


# A generic "commit" button ("Save", "Update", "Confirm") means what the page it is on edits: on an
# account's password, e-mail, security, billing, members or visibility page, saving is that change.
_COMMIT_LABEL = re.compile(r"^(?:save|save changes|save settings|save config|save configuration|save all|"
                           r"save all changes|update|update settings|update changes|apply|apply changes|confirm|"
                           r"submit|ok|yes|continue|done|change|set|enable|disable|turn on|turn off|"
                           # what a keys, tokens or members page adds: "Add key", "Create", "Add new"
                           r"add|add key|add new|add new key|create|create key|create new key|generate|register|"
                           r"add variable|add secret|new variable|new secret|"
                           # what a payouts or transfers page adds: where the money goes next
                           r"add recipient|add new recipient|new recipient|add account|add bank account)$")
_PAGE_KINDS: tuple[tuple[str, Risk, re.Pattern[str]], ...] = (
    ("account security", Risk.HIGH, re.compile(
        r"/(?:password|passwords|change[_-]?password|email|emails|change[_-]?email|security|two[_-]?factor|2fa|mfa|"
        r"totp|recovery|phone|authentication|(?:auth|authentication|login|sign[_-]?in)[_-]?methods|sessions|ssh[_-]?keys|gpg[_-]?keys|(?:personal[_-])?access[_-]?tokens|"
        r"api[_-]?keys|tokens|ci[_-]?cd|secrets|variables|service[_-]?accounts?|serviceaccounts|access[_-]?keys|security[_-]?credentials|credentials)"
        r"(?:/|$|\?|#)", re.IGNORECASE)),
    ("money", Risk.HIGH, re.compile(
        r"/(?:billing|billing[_-]?(?:info|information|details|address)|payment[_-]?(?:info|information|details)|"
        r"payment|payments|payment[_-]?methods|credit[_-]?cards?|subscription|subscriptions|plans?|checkout|wallet|"
        r"payouts?|bank|cards?|transfers?|send[_-]?money|pay|donate|scheduled|payees?|beneficiar(?:y|ies)|recipients?)"
        r"(?:/|$|\?|#)", re.IGNORECASE)),
    ("permissions and access", Risk.HIGH, re.compile(
        r"/(?:members|project_members|group_members|permissions|roles|users|collaborators|access|"
        r"admin/users|team/members|team/settings|teams/[^/?#]+/members)(?:/|$|\?|#)", re.IGNORECASE)),
    # keys, hooks and applications that let another machine in or receive the account's events
    # (a repository's settings on GitHub, its `/-/` pages on GitLab; a deploy key's or a webhook's page anywhere)
    ("a key, hook or application given access", Risk.HIGH, re.compile(
        r"/(?:settings|-)/(?:keys|hooks|webhooks|deploy[_-]?keys|deploy[_-]?tokens|applications|oauth[_-]?apps|apps|"
        r"installations|integrations)(?:/|$|\?|#)|/(?:deploy[_-]?keys|webhooks)(?:/|$|\?|#)", re.IGNORECASE)),
    # a mailbox's forwarding: every later message goes to the address saved here
    ("forwarding mail", Risk.HIGH, re.compile(
        r"[/#](?:forwarding|fwdandpop|auto[_-]?forward(?:ing)?|mail[_-]?forwarding|forwarding[_-]?rules)"
        r"(?:/|$|\?|#)", re.IGNORECASE)),
    # a domain's records: where its site, its mail and its certificates' checks go
    ("where a domain's traffic and mail go", Risk.HIGH, re.compile(
        r"/(?:dns|dns[_-]?records|dns[_-]?zones?|zone[_-]?editor|nameservers)(?:/|$|\?|#)", re.IGNORECASE)),
    ("publishing or sharing publicly", Risk.MEDIUM, re.compile(
        r"/(?:visibility|privacy|sharing|publish|danger)(?:/|$|\?|#)", re.IGNORECASE)),
)


# pages that are read, not settings: an encyclopedia's article, a manual, a course's lesson, a blog post, a help
# article. A "Continue" or "Save" there ("Continue" under a lesson on two-factor authentication, "Save" on the
# manual page of a Credentials API) changes no account, whatever the words in the address. A wiki's own settings,
# admin or permissions pages ("/wiki/spaces/KEY/settings/permissions") are settings
_READING_PAGE = re.compile(r"^(?!.*/(?:settings|admin|administration|manage|permissions|config|configuration|"
                           r"billing|account)(?:/|$|\?|#))/(?:[a-z]{2}(?:-[a-z]{2,4})?/)?"
                           r"(?:wiki|w|docs?|documentation|manual|reference|learn|lessons?|lectures?|courses?|tutorials?|guides?|blog|articles?|news|help|kb|"
                           r"knowledge[_-]?base)/", re.IGNORECASE)


# words of an account's settings that an ordinary app also uses for its own things: a trip's or a training "plans",
# a deck's flash "cards", a blog's "scheduled" posts. They name
# the setting only as the address's first part ("/plans", "/cards") or under an account's settings, billing, admin
# or wallet pages; "/app/plans/12345" is a trip, "/decks/spanish/cards" a deck
_TOPIC_WORDS = frozenset({"plan", "plans", "card", "cards", "scheduled"})
_ACCOUNT_CONTEXT = re.compile(r"/(?:settings|account|accounts|my|my[_-]?account|billing|admin|[\w-]*admin|manage|"
                              r"management|console|dashboard|wallet|payments?|subscriptions?|profile|org|orgs|"
                              r"organi[sz]ations?|teams?|workspace|security|iam)(?:/|$|\?|#)", re.IGNORECASE)


def _topic_word(path: str, m: re.Match[str]) -> bool:
    """The page word `m` found in `path` is one an ordinary app uses for its own things (`_TOPIC_WORDS`), and it
    is neither the address's first part nor under an account's settings: the page is not that setting."""
    word = m.group(0).strip("/?#").lower()
    if word not in _TOPIC_WORDS or m.start() == 0:
        return False
    return _ACCOUNT_CONTEXT.search(path[:m.start() + 1]) is None and \
        _ACCOUNT_CONTEXT.search(path[m.end() - 1:]) is None


# the bare "Apply" beside a checkout's or a cart's promo-code field, and those pages
_APPLY = re.compile(r"^(?:apply|apply code|redeem)$")
# the generic labels of a shop's checkout that only step through it or reopen a step ("Continue", "Next", "Save
# and continue", "Change", "Edit"): the order is placed by a later button ("Place order", "Pay now"), and a bare
# "Confirm", "Submit" or "Done" there may be that button, so they still ask
_CHECKOUT_STEP = re.compile(r"^(?:continue|next|next step|save and continue|save (?:and|&) next|change|edit|back)$")
_CHECKOUT_PATH = re.compile(r"/(?:checkout|check[_-]out|cart|basket|bag|trolley)(?:/|$|\?|#|\.)", re.IGNORECASE)


_DIGIT = re.compile(r"\d")
# a tip picked among a checkout's choices ("Tip $5", "15%", "Add tip 18 %", "No tip")
_TIP = re.compile(r"^(?:add (?:a )?)?(?:tip|driver tip|courier tip|dasher tip|shopper tip)(?: of)? "
                  r"(?:\d{1,3}(?: \d\d)?|\d{1,2} ?(?:%|percent))$|^(?:no tip|custom tip|other tip)$")


class _Prices(NamedTuple):
    price: re.Pattern[str]
    offer: re.Pattern[str]
    refusal: re.Pattern[str]


@book_table
def _prices(book: CueBook) -> _Prices:
    """The cue book's price parts, compiled once per book."""
    return _Prices(re.compile(book.parts["price"]), re.compile(book.parts["price_offer"]),
                   re.compile(book.parts["price_refusal"]))


def priced_offer(norm: str, book: CueBook | None = None) -> str | None:
    """The price in a label that takes something at that price ("Yes, add gift wrap ($4.99)", "Get Plus for
    $9.99/mo"), read on `norm` (the form that keeps "$", "€"), or None. A price in a filter, a refusal or a
    discount ("Under $25", "No thanks, I'll pay $30", "Get $10 off") is not an offer."""
    first = norm.split("\n", 1)[0]
    if not first or len(first) > 200 or _DIGIT.search(first) is None:
        return None
    p = _prices(book or cue_book())
    m = p.price.search(first)
    if m is None or p.offer.match(first) is None or p.refusal.search(first) is not None:
        return None
    return m.group(0)


def consequence(words: str, url: str = "", keys: frozenset[str] | None = None,
                book: CueBook | None = None, norm: str = "") -> Consequence | None:
    """What clicking a button labelled `words` commits to, or None for a button that only moves around.
    `url` is the page the button is on: an OAuth consent page makes an "Allow" an authorisation, and an
    account-settings page makes a generic "Save" the change that page edits. `keys`: `text_keys` of `words`
    or of a text containing it (the label's, gate/rules/gui.py), when the caller has them. `book`: the cue
    book the policy was compiled with (the shipped one when None). `norm`: the label with its symbols kept,
    where a price is read (`priced_offer`)."""
    if keys is None:
        keys = text_keys(words)
    book = book or cue_book()
    if url and _cart_checkout(words, url):
        return None  # a cart's "Checkout" opens the checkout form; the order is placed there
    found = _meaning(words, keys, book) if len(words) <= 512 else _meaning.__wrapped__(words, keys, book)
    if found is not None and found.kind == "money" and url and _TIP.match(words.split("\n", 1)[0].strip()) and \
            _CHECKOUT_PATH.search("/" + url.split("://", 1)[-1].partition("/")[2][:512]):
        return None  # a tip chosen on the checkout page is added to the order that "Place order" pays
    if found is not None and url and editor_command(words, url, book):
        return None  # "Freeze" in a spreadsheet, "Add card" on a task board: an edit of the open file or board
    if found is not None and found.kind == _SOFTWARE and system_update(words, url, book):
        return None  # "Install now" in the system's own updater: the vendor's signed updates
    if found is not None and found.kind == "money" and url and _joins_a_community(words, url, book):
        return None  # "Subscribe" on a forum's or a channel's own page joins it; no money changes hands
    if found is not None and found.kind == "permissions and access" and url and _CONSENT_URL.search(url):
        return Consequence("authorising an application", Risk.HIGH, found.quote)
    if found is None and norm and (price := priced_offer(norm, book)) is not None and not moves_only(words, book):
        return Consequence("money", Risk.HIGH, price)
    if found is None and url and (device := _device_page(book)) is not None and \
            device[0].match(words.split("\n", 1)[0].strip()) and device[1].search(url.split("://", 1)[-1]):
        # a bare "Unlock", "Open" or "Disarm" on a lock's, a door's or an alarm's own page acts on it
        return Consequence(_PHYSICAL, Risk.HIGH, words.split("\n", 1)[0])
    if found is None and url and (pages := _pages_of(url if len(url) <= _PAGE_URL_LIMIT else url[:_PAGE_URL_LIMIT],
                                                      book)):
        first = words.split("\n", 1)[0].strip()
        for verb, kind, risk in pages:
            if verb.match(first):
                # a bare "Turn off" on the antivirus's page, "Use <app>" on the accessibility page, "Sign up" on
                # the sign-up form: the page says what the switch or the answer does
                return Consequence(kind, risk, first)
    if found is None and url and _COMMIT_LABEL.match(words.split("\n", 1)[0].strip()):
        path = url.split("://", 1)[-1].partition("/")[2]
        if _APPLY.match(words.split("\n", 1)[0].strip()) and _CHECKOUT_PATH.search("/" + path):
            return None  # a checkout's bare "Apply" applies the coupon or gift card code typed beside it
        if _CHECKOUT_STEP.match(words.split("\n", 1)[0].strip()) and _CHECKOUT_PATH.search("/" + path):
            return None  # a checkout's "Continue", "Next" or "Change": the next step or an edit; "Place order" pays
        if _READING_PAGE.search("/" + path):
            return None  # a wiki article, a manual or a course lesson about payments or security changes nothing
        for kind, risk, page in _PAGE_KINDS:
            if (m := page.search("/" + path)) and not _topic_word("/" + path, m):
                return Consequence(f"{kind} (this page's setting)", risk, words.split("\n", 1)[0])
    return found


@book_table
def _community(book: CueBook) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """The cue book's community pages and free join verbs (`community_page`, `community_join` of [parts]),
    compiled once per book; None when the book has none."""
    page, verb = book.parts.get("community_page"), book.parts.get("community_join")
    if not page or not verb:
        return None
    return re.compile(page, re.IGNORECASE), re.compile(verb)


def _joins_a_community(words: str, url: str, book: CueBook) -> bool:
    """A bare "Subscribe", "Join" or "Follow" on a community's own page (a forum, a subreddit, a channel,
    a group: `/r/python`, `/f/MachineLearning`, `/@name`). A paid plan's page (`/pricing`, `/plans`,
    `/billing`) is not a community page, and "Subscribe for $5/month" is not a bare label."""
    c = _community(book)
    if c is None or c[1].match(words.split("\n", 1)[0].strip()) is None:
        return False
    path = "/" + url.split("://", 1)[-1].partition("/")[2]
    return c[0].match(path) is not None and _PAID_PATH.search(path) is None


def _verb_and_page(book: CueBook, verb_key: str, page_key: str) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """A bare verb of the cue book's [parts] and the pages it acts on there, compiled; None when either is missing."""
    verb, page = book.parts.get(verb_key), book.parts.get(page_key)
    if not verb or not page:
        return None
    return re.compile(verb), re.compile(page, re.IGNORECASE)


@book_table
def _editor(book: CueBook) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """The cue book's bare editing commands and editor pages (`editor_verb`, `editor_page` of [parts]), compiled
    once per book; None when the book has none."""
    return _verb_and_page(book, "editor_verb", "editor_page")


def editor_command(words: str, url: str, book: CueBook | None = None) -> bool:
    """A bare editing command ("Freeze", "Freeze first row", "Add card", "Accept all suggestions", "Delete sheet")
    on a document, spreadsheet or design editor's or a task board's own page: it changes the open file or board,
    which the editor's undo restores. The same words elsewhere (an admin console's "Freeze", a wallet's "Add
    card") keep their meaning."""
    e = _editor(book or cue_book())
    if e is None or e[0].match(words.split("\n", 1)[0].strip()) is None:
        return False
    return e[1].search(url[:_PAGE_URL_LIMIT]) is not None


@book_table
def _office(book: CueBook) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """The cue book's desktop office commands and windows (`office_verb`, `office_window` of [parts]), compiled
    once per book; None when the book has none."""
    return _verb_and_page(book, "office_verb", "office_window")


def office_edit(words: str, window_title: str, book: CueBook | None = None) -> bool:
    """A review or editing command ("Accept", "Reject all changes", "Delete slide", "Delete rows") in a desktop
    office program's own window ("report.docx - Word"): an edit of the open file that the program's undo takes
    back. A desktop spreadsheet's "Delete Sheet" is not one (its undo cannot restore a sheet), and the same
    words in any other window keep their meaning."""
    o = _office(book or cue_book())
    if o is None or not window_title or o[0].match(words.split("\n", 1)[0].strip()) is None:
        return False
    return o[1].search(window_title[:256].strip()) is not None


_SOFTWARE = "installing or running software"


@book_table
def _updater(book: CueBook) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """The cue book's updater answers and updater pages (`updater_verb`, `updater_page` of [parts]), compiled once
    per book; None when the book has none."""
    return _verb_and_page(book, "updater_verb", "updater_page")


@book_table
def _store(book: CueBook) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """The cue book's store answers and store pages (`store_verb`, `store_page` of [parts]), compiled once per book."""
    return _verb_and_page(book, "store_verb", "store_page")


@book_table
def _os_update(book: CueBook) -> re.Pattern[str] | None:
    verb = book.parts.get("os_update_verb")
    return re.compile(verb) if verb else None


def system_update(words: str, url: str, book: CueBook | None = None) -> bool:
    """The label installs the operating system's own updates: "Install now" or "Restart and update" in Windows
    Update, a Mac's Software Update or a Linux desktop's Software Updater (its address, or a menu path through it),
    a bare "Install" or "Get" in the platform's own store or a game launcher's library (`store_page`), or an
    OS-only answer ("Update and restart", "Update and shut down") in a dialog on no web page. The same words
    on a web page are a fake update's pop-up and keep their meaning."""
    book = book or cue_book()
    first = words.split("\n", 1)[0].strip()
    if not url.startswith(("http:", "https:")) and (os_update := _os_update(book)) is not None \
            and os_update.match(first):
        return True
    if not url:
        return False
    for pair in (_updater(book), _store(book)):
        if pair is not None and pair[0].match(first) is not None and pair[1].search(url[:_PAGE_URL_LIMIT]) is not None:
            return True
    return False


_PAID_PATH = re.compile(r"/(?:pricing|plans?|billing|checkout|subscriptions?|membership|premium|upgrade|pay|"
                        r"payment|donate|support-us|join-us)(?:/|$|\?|#)", re.IGNORECASE)


_PHYSICAL = "unlocking, opening or disarming something in the physical world"

# (verb part, page part, the consequence it is, its risk): a bare switch or answer on a page that says what it does
_PAGE_VERB_PARTS: tuple[tuple[str, str, str, Risk], ...] = (
    ("protection_off_verb", "protection_page", "turning off a device's or browser's protection", Risk.HIGH),
    ("control_verb", "control_page", "administrator rights or a standing permission", Risk.HIGH),
    ("signup_verb", "signup_page", "opening an account or enrolling in the person's name", Risk.MEDIUM),
    ("downloads_verb", "downloads_page", "overriding a security warning", Risk.HIGH),
    ("passwords_verb", "passwords_page", "revealing or exporting saved passwords", Risk.HIGH),
    ("money_verb", "money_page", "money", Risk.HIGH),
    ("code_verb", "code_page", "installing or running software", Risk.MEDIUM),
    ("gradebook_verb", "gradebook_page", "deleting students' grades", Risk.MEDIUM),
    ("secret_verb", "secret_page", "revealing or copying a secret key or token", Risk.HIGH),
    ("secret_roll_verb", "secret_page", "account security (a key or token replaced: what uses the old one stops)",
     Risk.HIGH),
    ("secret_revoke_verb", "secret_page", "account security (a key or token revoked: what uses it stops)",
     Risk.HIGH),
    ("giftcard_verb", "giftcard_page", "money (a gift card's value issued or its code sent)", Risk.HIGH),
    ("giftcard_void_verb", "giftcard_page", "money (a gift card's or store credit's value voided)", Risk.HIGH),
    ("delegate_verb", "delegate_page", "permissions and access (the account handed to an emergency contact or a "
     "delegate)", Risk.HIGH),
    ("access_request_verb", "access_request_page", "permissions and access (a request for access or a device let in)",
     Risk.HIGH),
    ("signing_verb", "signing_page", "signing a document in the person's name", Risk.MEDIUM),
    ("import_verb", "import_page", "bulk change (records imported from a file)", Risk.MEDIUM),
    ("export_verb", "export_page", "data leaving (an organisation's whole export)", Risk.HIGH),
    ("visibility_verb", "visibility_page", "publishing or sharing publicly (shown to everyone)", Risk.MEDIUM),
    ("snapshot_share_verb", "snapshot_page", "data leaving (a snapshot, an image or a backup shared with another "
     "account)", Risk.HIGH),
)


_PAGE_URL_LIMIT = 512  # the start of an address says which page it is


@functools.lru_cache(maxsize=1024)
def _pages_of(url: str, book: CueBook) -> tuple[tuple[re.Pattern[str], str, Risk], ...]:
    """The page-bound verbs whose page `url` is, with what they mean there: read once per address (pages repeat
    across a session's clicks, and most addresses are none of these pages), so a click pays a lookup."""
    return tuple((verb, kind, risk) for verb, page, kind, risk in _page_verbs(book) if page.search(url))


@book_table
def _page_verbs(book: CueBook) -> tuple[tuple[re.Pattern[str], re.Pattern[str], str, Risk], ...]:
    """The cue book's page-bound verbs (`control_verb`/`control_page`, `protection_off_verb`/`protection_page`,
    `signup_verb`/`signup_page`, `downloads_verb`/`downloads_page`, `passwords_verb`/`passwords_page`,
    `money_verb`/`money_page`, `code_verb`/`code_page`, `gradebook_verb`/`gradebook_page`, `secret_verb` and
    `secret_roll_verb`, `secret_revoke_verb`/`secret_page`, `giftcard_verb`, `giftcard_void_verb`/`giftcard_page`,
    `delegate_*`, `access_request_*`, `signing_*`, `import_*`, `export_*`, `visibility_*`, `snapshot_*` of
    [parts]),
    compiled once per book; a pair the book lacks is left out."""
    out = []
    for verb, page, kind, risk in _PAGE_VERB_PARTS:
        if book.parts.get(verb) and book.parts.get(page):
            out.append((re.compile(book.parts[verb]), re.compile(book.parts[page], re.IGNORECASE), kind, risk))
    return tuple(out)


@book_table
def _device_page(book: CueBook) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """The cue book's bare device verbs and device pages (`device_verb`, `device_page` of [parts]), compiled
    once per book; None when the book has none."""
    return _verb_and_page(book, "device_verb", "device_page")


def of_kind(words: str, kind: str, keys: frozenset[str] | None = None, book: CueBook | None = None) -> str | None:
    """The part of the label `words` that reads as the consequence kind named `kind` (whatever other kind
    comes first in the cue book), or None."""
    found = _kinds(book or cue_book()).get(kind)
    if found is None:
        return None
    m = found.search.search(words, text_keys(words) if keys is None else keys)
    return m.group(0) if m is not None else None


@book_table
def _kinds(book: CueBook) -> dict[str, ConsequenceKind]:
    """The book's consequence kinds by name (the first of a name), once per book."""
    out: dict[str, ConsequenceKind] = {}
    for k in book.consequence:
        out.setdefault(k.name, k)
    return out


@functools.lru_cache(maxsize=2048)
def _meaning(words: str, keys: frozenset[str], book: CueBook) -> Consequence | None:
    if not words or moves_only(words, book):
        return None
    # the kinds the label's words could match, each with the branches they could (one pass over the words)
    for i, branches in book.consequence_index.branches(words, keys):
        kind = book.consequence[i]
        m = kind.search.search_among(words, branches)
        if m is not None:
            return Consequence(kind.name, kind.risk, m.group(0))
    return None
