"""Rules: what text the agent writes for people to read, and the pages it opens, do to people.

The kinds and their vocabulary are the harm book, resources/harm.toml, read by `gate.harm_content`: trade in
stolen identity or card data, malware and attack services, drugs and weapons; extortion; threats of
violence; encouragement of self-harm; dehumanising text and slurs; health and election misinformation written
to spread; fraud offers; sexual content involving minors; instructions for weapons. Phishing, harassment
campaigns, doxxing and false alarms are their own rules (gate/rules/gui.py, `gate.harm`).

Text typed into a message, post, comment, review, listing or search field (not a terminal, a Run box or a
password field) is read; so is the address bar, as a search. A search query looks something up and publishes
nothing: a blocking kind typed there asks instead, except the kinds the book marks `search = "block"` (a
threat or a slur typed into a chat's search box is still sent somewhere; sexual content involving minors is
never looked up on a person's behalf). A URL opened is read by its host, path and query words.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import unquote

from gate.harm_content import Harm, harm_words, judge, part_match
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.gui import _credential_field, _field_text, _short, _where
from gate.typed import Destination, destination
from gate.urls import split_url

__all__ = ["RULES"]

_MIN_TEXT = 4  # Chinese says a threat in four characters
_MAX_TEXT = 16384
# a field or a page that looks things up: what is typed there is a query, not a message
_SEARCH_FIELD = re.compile(r"\b(?:search|searchbox|search box|find|query|look up|lookup|suche|suchen|rechercher|"
                           r"recherche|buscar|búsqueda|busqueda|pesquisar|pesquisa|cerca|zoeken|szukaj|ara|поиск|найти)\b|搜索|查找|検索")
_SEARCH_PATH = re.compile(r"(?:^|/)(?:search|find|results|s)(?:/|$)", re.IGNORECASE)


def _typed_harm(ctx: Context) -> Harm | None:
    """The harm the typed text is read as, for a field people will read or a search; None otherwise."""
    text = getattr(ctx.action, "text", "") or ""
    if not _MIN_TEXT <= len(text) <= _MAX_TEXT:
        return None
    where = ctx.derived(destination)
    if where not in (Destination.FIELD, Destination.UNKNOWN, Destination.ADDRESS_BAR):
        return None
    if ctx.derived(_credential_field):
        return None
    return judge(harm_words(text), text, "text", ctx.compiled.harm)


def _search(ctx: Context) -> bool:
    """The text is a query: typed into a search field, the address bar, or on a search page."""
    if ctx.derived(destination) is Destination.ADDRESS_BAR:
        return True
    field = ctx.derived(_field_text).words
    if field and _SEARCH_FIELD.search(field):
        return True
    url = getattr(ctx.action, "url", None) or ctx.observation.url
    parts = split_url(url) if url else None
    return parts is not None and _SEARCH_PATH.search(parts.path) is not None


def _blocks(ctx: Context, harm: Harm) -> bool:
    return harm.blocks and (harm.kind.search_blocks or not _search(ctx))


@rule("block.gui.harmful-content", "Typing text that harms its readers: illicit trade, extortion, threats, hate, "
      "self-harm encouragement, misinformation to spread, fraud offers, weapon instructions",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def harmful_content_block(ctx: Context) -> str | None:
    """The text the agent types into a message, post, comment, review or listing is one of the harm book's
    blocking combinations (resources/harm.toml, `gate.harm_content`): an offer to sell stolen identity or card
    data ("selling fullz, DM me", an offer with a card number), malware or attacks for hire, drugs or weapons
    outside the law; a demand for
    money with a threat to expose or hurt; a threat of violence ("I will kill you", "I know where you live");
    encouragement of suicide; a group called vermin, or a slur; a false health or election claim with a call
    to spread it; paid fake reviews, a money-mule job, crypto doubling, donations by gift card. Each is a
    combination, never one word: "sell my old bike", "kill the process", "the vaccine schedule", a report of
    an arrest, a warning about a scam and a helpline's message pass. A search query of most kinds asks
    instead (`confirm.gui.harmful-content`); sexual content involving minors is
    `block.gui.child-sexual-content`."""
    harm = ctx.derived(_typed_harm)
    if harm is None or harm.kind.redact or not _blocks(ctx, harm):
        return None
    return f"{harm.kind.name}, typed into {_where(ctx)}: {_short(harm.quote, 60)!r}"


@rule("confirm.gui.harmful-content", "Typing text that may harm its readers, or searching for illicit goods",
      risk=Risk.HIGH, types=("type",), confidence=0.6)
def harmful_content_confirm(ctx: Context) -> str | None:
    """The typed text is one of the harm book's asking combinations: an ask to buy stolen data, drugs or
    weapons ("where can I buy heroin"), a method of suicide asked for, a health or election claim the public
    taxonomies list as misinformation without a call to spread it, a donation asked for by gift card. Or a
    blocking combination typed as a search query ("buy fentanyl no prescription" into a search box): looking
    something up publishes nothing, and a person decides. A debunking ("the myth that vaccines cause autism")
    and a harm-reduction question ("where to get fentanyl test strips") pass."""
    harm = ctx.derived(_typed_harm)
    if harm is None or harm.kind.redact or _blocks(ctx, harm):
        return None
    how = "searched for in" if harm.blocks else "typed into"
    return f"{harm.kind.name}, {how} {_where(ctx)}: {_short(harm.quote, 60)!r}"


@rule("block.gui.child-sexual-content", "Typing sexual content involving minors", risk=Risk.CRITICAL,
      types=("type",), redact=("text",), confidence=0.85)
def child_sexual_content(ctx: Context) -> str | None:
    """The typed text joins a word for a child or a minor with sexual material (the `child-sexual` kind of
    resources/harm.toml), in any field, a search included. The text is redacted from the log and the reason
    quotes none of it. Sex education, child protection, parental controls and reports of an arrest pass."""
    harm = ctx.derived(_typed_harm)
    if harm is None or not harm.kind.redact:
        return None
    return f"{harm.kind.name}, typed into {_where(ctx)} (text withheld)"


# -- tool calls that post, send or search ----------------------------------------------------------------------

# input keys that carry text people will read (or a query); a nested object is read one level down
_CONTENT_KEYS = frozenset({"text", "body", "content", "message", "msg", "comment", "post", "caption", "review",
                           "description", "title", "subject", "status", "tweet", "note", "reply", "bio", "prompt",
                           "html", "markdown", "query", "q", "search", "search_query", "keywords"})
_QUERY_KEYS = frozenset({"query", "q", "search", "search_query", "keywords"})
_MAX_TOOL_TEXTS = 8


def _tool_texts(ctx: Context) -> list[tuple[str, str]]:
    """(key, text) of the tool input's content fields, one level of nesting read."""
    data = getattr(ctx.action, "input", None) or {}
    out: list[tuple[str, str]] = []
    for key, value in list(data.items())[:64]:
        k = str(key).lower()
        if isinstance(value, dict):
            out.extend((str(k2).lower(), v2) for k2, v2 in list(value.items())[:64]
                       if str(k2).lower() in _CONTENT_KEYS and isinstance(v2, str))
        elif k in _CONTENT_KEYS and isinstance(value, str):
            out.append((k, value))
    return [(k, v) for k, v in out if _MIN_TEXT <= len(v) <= _MAX_TEXT][:_MAX_TOOL_TEXTS]


class _ToolHarm(NamedTuple):
    harm: Harm
    key: str
    search: bool  # a query: a search tool, or a query field


def _tool_harm(ctx: Context) -> _ToolHarm | None:
    """The harm the tool call's content fields are read as, blocking kinds first."""
    found: list[_ToolHarm] = []
    name = (getattr(ctx.action, "name", "") or "").lower()
    for key, text in ctx.derived(_tool_texts):
        harm = judge(harm_words(text), text, "text", ctx.compiled.harm)
        if harm is not None:
            found.append(_ToolHarm(harm, key, key in _QUERY_KEYS or "search" in name))
    if not found:
        return None
    # a redacted kind first (its text must not reach the log through another rule), then one that blocks
    return max(found, key=lambda t: (t.harm.kind.redact, t.harm.blocks))


def _tool_blocks(t: _ToolHarm) -> bool:
    return t.harm.blocks and (t.harm.kind.search_blocks or not t.search)


@rule("block.tool.harmful-content", "A tool call that posts, sends or publishes text that harms its readers",
      risk=Risk.CRITICAL, types=("tool",), confidence=0.8)
def tool_harmful_block(ctx: Context) -> str | None:
    """A tool call's text fields (`body`, `content`, `message`, `comment`, `caption`, `review`, ...; one level
    of nesting read) hold one of the harm book's blocking combinations: what `block.gui.harmful-content`
    blocks when typed, posted or sent through an API instead (`send_email`, `post_on_x`, `create_comment`). A
    search tool's query asks instead (`confirm.tool.harmful-content`); sexual content involving minors is
    `block.tool.child-sexual-content`."""
    t = ctx.derived(_tool_harm)
    if t is None or t.harm.kind.redact or not _tool_blocks(t):
        return None
    return f"{t.harm.kind.name}, in the {t.key!r} of tool {ctx.action.name!r}: {_short(t.harm.quote, 60)!r}"  # type: ignore[union-attr]


@rule("confirm.tool.harmful-content", "A tool call whose text may harm its readers, or a search for illicit goods",
      risk=Risk.HIGH, types=("tool",), confidence=0.6)
def tool_harmful_confirm(ctx: Context) -> str | None:
    """A tool call's text fields hold one of the harm book's asking combinations, or a blocking one as a
    search query (a search tool, or a `query` field): what `confirm.gui.harmful-content` asks about when
    typed."""
    t = ctx.derived(_tool_harm)
    if t is None or t.harm.kind.redact or _tool_blocks(t):
        return None
    return f"{t.harm.kind.name}, in the {t.key!r} of tool {ctx.action.name!r}: {_short(t.harm.quote, 60)!r}"  # type: ignore[union-attr]


@rule("block.tool.child-sexual-content", "A tool call carrying sexual content involving minors",
      risk=Risk.CRITICAL, types=("tool",), redact=("input",), confidence=0.85)
def tool_child_sexual_content(ctx: Context) -> str | None:
    """A tool call's text fields join a word for a child or a minor with sexual material (the `child-sexual`
    kind of resources/harm.toml), a search or an image prompt included. The input is redacted from the log
    and the reason quotes none of it."""
    t = ctx.derived(_tool_harm)
    if t is None or not t.harm.kind.redact:
        return None
    return f"{t.harm.kind.name}, in the {t.key!r} of tool {ctx.action.name!r} (text withheld)"  # type: ignore[union-attr]


# -- pages opened ---------------------------------------------------------------------------------------------

_URL_WORD = re.compile(r"[\W_]+")


_SEARCH_KEYS = frozenset({"q", "query", "search", "search_query", "p", "k", "keywords", "wd", "text", "term"})


def _url_search(ctx: Context) -> bool:
    """The URL opened is a search: a search path, or a query that names what is looked for."""
    parts = split_url(getattr(ctx.action, "url", "") or "")
    if parts is None:
        return False
    if _SEARCH_PATH.search(parts.path):
        return True
    return any(k.lower() in _SEARCH_KEYS for k, _, _ in (p.partition("=") for p in parts.query.split("&")))


_CONTRABAND = "contraband-shop"  # the harm book's kind of a page that sells contraband


def _about_page(ctx: Context) -> bool:
    """The URL opened is about contraband rather than a shop of it: a page-only word of `contraband-context` or
    `page-context` in its words ("help", "holders", "watch")."""
    parts = split_url(getattr(ctx.action, "url", "") or "")
    if parts is None:
        return False
    words = harm_words(_URL_WORD.sub(" ", unquote(f"{parts.host} {parts.path} {parts.query}")))
    return part_match(words, ("page-context",), ctx.compiled.harm) is not None


def _url_blocks(ctx: Context, harm: Harm) -> bool:
    return harm.blocks and (harm.kind.search_blocks or not ctx.derived(_url_search))


def _url_harm(ctx: Context) -> Harm | None:
    """The harm the words of the URL opened (its host, path and query) are read as."""
    url = getattr(ctx.action, "url", "") or ""
    parts = split_url(url) if url else None
    if parts is None or not parts.host or len(url) > _MAX_TEXT:
        return None
    raw = unquote(f"{parts.host} {parts.path} {parts.query}".replace("+", " "))
    words = harm_words(_URL_WORD.sub(" ", raw))
    return judge(words, raw, "url", ctx.compiled.harm)


@rule("block.nav.illicit-market", "Opening a page that sells stolen cards, identities, illegal drugs or weapons",
      risk=Risk.CRITICAL, types=("navigate",), confidence=0.8)
def illicit_market_block(ctx: Context) -> CheckResult:
    """The URL's words name a place of trade (market, shop, listing, vendor, onion) together with what is
    traded outside the law (resources/harm.toml `url_block`): stolen cards, dumps, fullz, bank logs; drugs
    sold without a prescription; untraceable guns and auto sears; or sexual material involving minors. A news
    report of a market's takedown and a page about protecting oneself from carding do not block."""
    harm = ctx.derived(_url_harm)
    if harm is None or not _url_blocks(ctx, harm):
        return None
    quote = "" if harm.kind.redact else f": {_short(harm.quote, 60)!r}"
    return f"opening a page of {harm.kind.name}{quote}"


@rule("confirm.nav.illicit-market",
      "Opening a shop page naming a drug with no ordinary sale, or a search for illicit goods",
      risk=Risk.HIGH, types=("navigate",), confidence=0.6)
def illicit_market_confirm(ctx: Context) -> CheckResult:
    """The URL's words name a place of trade and a drug with no ordinary sale (heroin, cocaine, fentanyl on a
    shop, market or listing page; resources/harm.toml `url_confirm`), without what makes the sale unlawful on
    its face: a person looks before the agent opens it. So does a search URL that a blocking combination's words
    would block ("?q=buy+fentanyl+no+prescription"): looking up publishes nothing. An encyclopedia's page and a
    pharmacy's naloxone pass."""
    harm = ctx.derived(_url_harm)
    if harm is None or _url_blocks(ctx, harm) or (harm.kind.key == _CONTRABAND and ctx.derived(_about_page)):
        return None
    what = "a search for" if harm.blocks else "a page of"
    return f"opening {what} {harm.kind.name}: {_short(harm.quote, 60)!r}"


# -- contraband bought on a page --------------------------------------------------------------------------------

# the book's parts that read a page as a place where contraband is bought (resources/harm.toml)
_GOODS = ("illicit-drug", "forged-goods", "passport-goods", "stolen-data", "malware-goods", "crime-service",
          "illicit-weapon")
_ABOUT = ("contraband-context", "page-context")  # news, reference, help, lawful goods: the page is no such shop
_PURCHASE = ("purchase-step",)
_ORDER = ("order-intent", "payment-promise")
_MAX_LABEL = 80
_MAX_PAGE_TEXT = 1500
# a field that takes a payment: a card, a wallet, a transfer
_PAY_FIELD = re.compile(r"\b(?:card|card number|cc|cvv|cvc|expiry|wallet|btc|bitcoin|monero|xmr|crypto|payment|billing|"
                        r"iban|transaction|tx|txid|karte|kartennummer|carte|tarjeta|cartão|carta|kaart|zahlung|paiement|"
                        r"pago|pagamento|betaling)\b")


def _url_words(url: str) -> tuple[str, str]:
    """(raw, words) of a URL's host, path and query: what a page's address says."""
    parts = split_url(url) if url and len(url) <= _MAX_TEXT else None
    if parts is None or not parts.host:
        return "", ""
    raw = unquote(f"{parts.host} {parts.path} {parts.query}".replace("+", " "))
    return raw, harm_words(_URL_WORD.sub(" ", raw))


def _contraband(raw: str, ctx: Context) -> Harm | None:
    """What `raw` (a page's address, title and a label, joined) is read as when it names contraband on sale: a
    kind of the harm book read as a page (`url_block`, `url_confirm`), and no word of a page about the goods
    (news, reference, help, a lawful holder or book: `contraband-context`) anywhere in it; None otherwise."""
    words = harm_words(_URL_WORD.sub(" ", raw))
    if not words:
        return None
    book = ctx.compiled.harm
    harm = judge(words, raw, "url", book)
    if harm is None or harm.kind.redact or part_match(words, _ABOUT, book) is not None:
        return None
    return harm


def _page_text(ctx: Context) -> str:
    """The page's address words and its window title, one text."""
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    raw, _ = _url_words(url)
    title = ctx.observation.window_title[:256]
    return f"{raw} \n {title}".strip()


def _page_contraband(ctx: Context) -> Harm | None:
    """The page the action happens on sells contraband: read from its address and title, or from the start of
    the text read on it (where only the strong, blocking combinations count)."""
    harm = _contraband(_page_text(ctx), ctx)
    if harm is not None:
        return harm
    body = ctx.observation.page_text[:_MAX_PAGE_TEXT]
    if not body:
        return None
    found = _contraband(body, ctx)
    return found if found is not None and found.blocks else None


def _label(ctx: Context) -> str:
    target = ctx.action.target
    label = (target.label or target.name or "") if target is not None else ""
    return label if len(label) <= _MAX_LABEL else ""


def _clicked_contraband(ctx: Context) -> Harm | None:
    """The page clicked on, with the clicked label, names contraband on sale."""
    label = ctx.derived(_label)
    if not label:
        return None
    found = _contraband(f"{label} \n {ctx.derived(_page_text)}", ctx)
    return found if found is not None else ctx.derived(_page_contraband)


@rule("block.gui.contraband-purchase", "Buying contraband: a buy, add-to-cart, checkout or pay button on a page "
      "that sells drugs, forged papers, stolen data, malware, weapons or crime for hire",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def contraband_purchase_click(ctx: Context) -> CheckResult:
    """The clicked label buys ("Buy now", "Add to cart", "Checkout", "Pay", "Complete purchase", "Order",
    "Hire now", "In den Warenkorb", "Acheter", "Comprar", "Acquista", "Afrekenen": `purchase-step` of
    resources/harm.toml) and the page's address, title and the label name contraband for sale: a shop's words
    (a shop, a mart, a product, an offer, "get") with a hard drug, forged papers or banknotes, passports as goods,
    stolen cards, malware, untraceable guns, or a hacker or a killer for hire (`contraband-order` and the trade
    kinds' page combinations). A pharmacy, a news or reference page, a security vendor's anti-malware product,
    a passport holder or a government's passport service pass (`contraband-context`)."""
    label = ctx.derived(_label)
    if not label or part_match(harm_words(label), _PURCHASE, ctx.compiled.harm) is None:
        return None
    harm = ctx.derived(_clicked_contraband)
    if harm is None:
        return None
    return f"{_short(label, 40)!r} on a page of {harm.kind.name}: {_short(harm.quote, 60)!r}"


@rule("confirm.gui.contraband-link", "Opening a listing of contraband from a shop's page",
      risk=Risk.HIGH, types=("click",), confidence=0.6)
def contraband_link_click(ctx: Context) -> CheckResult:
    """The clicked label names contraband (a hard drug, forged papers, passports, stolen data, malware, an
    untraceable gun, a crime for hire) and, read with the page's address and title, it is on sale there: a
    person looks before the agent opens the listing. A link on an encyclopedia's or a news page passes."""
    label = ctx.derived(_label)
    words = harm_words(label)
    if not words or part_match(words, _PURCHASE, ctx.compiled.harm) is not None:
        return None
    if part_match(words, _GOODS, ctx.compiled.harm) is None:
        return None
    harm = _contraband(f"{label} \n {ctx.derived(_page_text)}", ctx)
    if harm is None:
        return None
    return f"{_short(label, 40)!r}: a listing of {harm.kind.name}"


def _order_field(ctx: Context) -> bool:
    """Typed into a field people read or a payment is taken in (a card's field too): not a search or a terminal."""
    return ctx.derived(destination) in (Destination.FIELD, Destination.UNKNOWN) and not _search(ctx)


@rule("block.gui.contraband-order", "Ordering or paying for contraband in a message or a form on its seller's page",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def contraband_order_typed(ctx: Context) -> CheckResult:
    """On a page that sells contraband (its address and title, read as `block.gui.contraband-purchase` reads
    them: a mail offering drugs or a forged passport, a shop's listing), the typed text orders or pays: a yes
    to the offer, an order, an address to ship to ("I'll take two", "count me in", "ship it to"), or a payment
    made or promised ("sending the BTC tonight", "payment sent": `order-intent`, `payment-promise`), in several
    languages; or it goes into the page's card, wallet or payment field. Text that orders such goods by itself
    is `block.gui.harmful-content`."""
    text = getattr(ctx.action, "text", "") or ""
    if not _MIN_TEXT <= len(text) <= _MAX_TEXT or not ctx.derived(_order_field):
        return None
    harm = ctx.derived(_page_contraband)
    if harm is None:
        return None
    said = part_match(harm_words(text), _ORDER, ctx.compiled.harm)
    if said is None:
        field = ctx.derived(_field_text).words
        if not field or not _PAY_FIELD.search(field):
            return None
        said = f"into {_where(ctx)}"
    return f"an order or a payment on a page of {harm.kind.name}: {_short(said, 60)!r}"


@rule("confirm.gui.contraband-message", "Writing to a seller of contraband on its page",
      risk=Risk.HIGH, types=("type",), confidence=0.6)
def contraband_message_typed(ctx: Context) -> CheckResult:
    """Text typed into a message or a form field (not a search) on a page that sells contraband, which neither
    orders nor pays (`block.gui.contraband-order`): a reply to the seller, an address, a name. A person decides
    whether to correspond."""
    text = getattr(ctx.action, "text", "") or ""
    if not _MIN_TEXT <= len(text) <= _MAX_TEXT or not ctx.derived(_order_field):
        return None
    harm = ctx.derived(_page_contraband)
    if harm is None or contraband_order_typed.check(ctx) is not None:
        return None
    return f"writing on a page of {harm.kind.name}: {_short(harm.quote, 60)!r}"


def _nav_contraband(ctx: Context) -> Harm | None:
    """The page opened sells contraband: its address read alone, or with the title of the page the agent is on
    when that page is on the same site (or no address of it is known)."""
    url = getattr(ctx.action, "url", "") or ""
    raw, _ = _url_words(url)
    if not raw:
        return None
    harm = _contraband(raw, ctx)
    if harm is not None:
        return harm
    here = split_url(ctx.observation.url) if ctx.observation.url else None
    there = split_url(url)
    title = ctx.observation.window_title[:256]
    if not title or (here is not None and there is not None and here.host != there.host):
        return None
    return _contraband(f"{raw} \n {title}", ctx)


_PURCHASE_PATH = re.compile(r"(?:^|[/_.=-])(?:buy|purchase|purchased|checkout|check-out|pay|payment|order|orders|"
                            r"ordered|order[_-]?(?:complete|completed|confirm|confirmed|confirmation|placed|success|"
                            r"received)|purchase[_-]?(?:complete|completed|success|confirmation)|thank[_-]?you|"
                            r"success|place[_-]?order|kasse|bestellen|commande|pedido|pagamento|pago|ordine|acquisto|"
                            r"afrekenen|bestelling)(?:[/_.?=&#-]|$)", re.IGNORECASE)


@rule("block.nav.contraband-purchase", "Opening a checkout, payment or order-complete page of a shop that sells "
      "contraband", risk=Risk.CRITICAL, types=("navigate",), confidence=0.8)
def contraband_purchase_nav(ctx: Context) -> CheckResult:
    """The page opened is a step of buying (its path: `checkout`, `pay`, `order`, `purchase_complete`,
    `thank-you`, `success`, `kasse`, `commande`, `pedido`, ...) on a shop whose address, or the title of the
    page the agent is on, names contraband for sale (`block.gui.contraband-purchase` reads them). A
    pharmacy's checkout and a security vendor's anti-malware order page pass."""
    url = getattr(ctx.action, "url", "") or ""
    parts = split_url(url) if url else None
    if parts is None or not _PURCHASE_PATH.search(f"{parts.path}?{parts.query}"):
        return None
    harm = ctx.derived(_nav_contraband)
    if harm is None:
        return None
    return f"a purchase step on a page of {harm.kind.name}: {_short(harm.quote, 60)!r}"


@rule("confirm.nav.contraband-page", "Opening a shop's listing of contraband named by the page the agent is on",
      risk=Risk.HIGH, types=("navigate",), confidence=0.6)
def contraband_page_nav(ctx: Context) -> CheckResult:
    """The page opened, read with the title of the page the agent is on (same site), names contraband for sale
    where its address alone does not (`confirm.nav.illicit-market` reads the address): a person looks first."""
    if ctx.derived(_url_harm) is not None or contraband_purchase_nav.check(ctx) is not None:
        return None
    harm = ctx.derived(_nav_contraband)
    if harm is None:
        return None
    return f"opening a page of {harm.kind.name}: {_short(harm.quote, 60)!r}"


RULES: tuple[Rule, ...] = (harmful_content_block, harmful_content_confirm, child_sexual_content,
                           tool_harmful_block, tool_harmful_confirm, tool_child_sexual_content,
                           illicit_market_block, illicit_market_confirm, contraband_purchase_click,
                           contraband_link_click, contraband_order_typed, contraband_message_typed,
                           contraband_purchase_nav, contraband_page_nav)
