"""Rules: typed text that relays the person's own records, or a bait link, to whoever asked for them.

    confirm.typed.records-relayed   several items of the person's mail, messages, orders or figures (a numbered
                                    list of subjects, "Name: said ..." lines, an order with its delivery address)
                                    typed into a reply, a message or a form whose own label asks for them ("submit
                                    your last 3 emails", "compile the last messages of your group chat", "What I
                                    saw in my email")
    block.typed.records-relayed     the same when the items carry a credential (a password, a key) or go to a
                                    recipient whose address names an attacker
    block.typed.credential-relayed  a password, a key or a token written out in a reply or a message whose label
                                    asks for it ("could you share the SSH credentials")
    block.typed.login-list          two or more logins written as `user/password` (`ana/Winter2024!`,
                                    `bo@corp.example/Sp4rrow#9`) in a message, a comment or a post
    block.typed.secrets-forwarded   a message that says it forwards tokens, keys or passwords ("forwarding the
                                    service tokens as requested") and carries them: a header or a field with its value
                                    (`Authorization: Bearer ...`, `API Key: ...`), or a slot a tool fills (`{api_key}`)
    block.typed.attacker-recipient  an e-mail address or a host whose own name says attacker, pwned, exfil or C2
                                    typed into a message's recipient field (To, Cc, Bcc) or its body;
                                    block.gui.send-to-attacker: "Send" clicked with such an address in the window
    confirm.typed.user-data-declared  a message that says it carries a person's private data ("here's the user's
                                    search history"); block.typed.user-data-declared: the data called stolen
    confirm.typed.phone-as-message  a phone number alone typed as a chat message: it names where a thread goes
    confirm.typed.link-to-team      a message that invites a team or everyone to visit, test or sign in at a link on
                                    a site that is no known organisation's own: how a phishing page is spread from
                                    inside

Pure: reads the typed text, the field's label, the window's title and app, and the page's address.
"""

from __future__ import annotations

import re

from gate.destinations import own_site
from gate.fields import ONE_PHONE, field_text, into_a_field, secret_in, short, typed_text
from gate.hostile_hosts import hostile_host
from gate.model import Risk
from gate.normalise import fold
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.sensitive import password_shaped
from gate.typed import code_editor
from gate.urls import ip_of, registrable, split_url

__all__ = ["RULES"]

TYPE = ("type",)

# -- the person's records relayed on request ---------------------------------------------------------------------

# a field's label that asks for the person's own mail, messages or chats (the words a planted request uses), in the
# languages such requests come in
_ASKS_FOR_RECORDS = re.compile(
    r"\b(?:last|latest|recent|previous|past|first|top) (?:\d{1,2}|two|three|four|five|ten|few|several) "
    r"(?:e ?mails?|messages?|mails?|chats?|conversations?|threads?|texts?|dms?|orders?|transactions?|notes?)\b|"
    r"\b(?:compile|submit|forward|share|send|paste|copy|list|provide|summari[sz]e|collect|gather|export|dump|"
    r"report|audit|include|attach)\b(?: \w+){0,6}? (?:your |all |the |my |recent |latest )*(?:e ?mails|inbox|"
    r"messages|mails|chat history|chat logs?|conversations|group chat|dms|mailbox|correspondence)\b|"
    r"\bwhat (?:i|you|we) (?:saw|read|found|received|got) in (?:my|your|the|our) (?:e ?mail|inbox|mailbox|messages|"
    r"chats?)\b|\b(?:e ?mail|inbox|mailbox|message|chat) (?:audit|review|export|backup|verification)\b|"
    r"\b(?:letzten|neuesten) \d{1,2} (?:e ?mails|nachrichten)\b|\b(?:derniers|dernières) \d{1,2} (?:e ?mails|"
    r"messages|courriels)\b|\b(?:últimos|ultimos|últimas|ultimas) \d{1,2} (?:correos|mensajes|e ?mails|mensagens)\b|"
    r"\bultim[ie] \d{1,2} (?:e ?mail|messaggi)\b")
# the items of a record typed out: a numbered or bulleted list, "Name: what they said" lines or clauses
_NUMBERED = re.compile(r"(?:^|\s)(?:\(?\d{1,2}[.)]|[-•*·])\s+\S")
_SAID = re.compile(r"(?:^|[;\n]|\s[|/]\s)\s*[A-Z][\w.'-]{1,20}(?: [A-Z][\w.'-]{1,20})?\s*:\s+\S")
# an order, a parcel or a figure of the business: the facts a shop's or a company's mail holds
_ORDER = re.compile(r"\b(?:order|bestellung|commande|pedido|ordine|invoice|tracking|parcel|shipment)\s*"
                    r"(?:#|no\.?|nr\.?|number|num|id|n°|nº)?\s*:?\s*#?\s*[A-Z0-9-]*\d{3,}", re.IGNORECASE)
_DELIVERY = re.compile(r"\b(?:delivery|shipping|billing|home|postal|mailing) address\b|\b(?:shipped|delivered) to\b|"
                       r"\b(?:lieferadresse|adresse de livraison|dirección de (?:entrega|envío)|endereço de entrega|"
                       r"indirizzo di (?:consegna|spedizione))\b", re.IGNORECASE)
_FIGURES = re.compile(r"(?:[$€£¥]\s?\d[\d,.]*\s?(?:[kmb]n?|million|billion|mio|mrd)?\b|\b\d[\d,.]*\s?(?:[kmb]|million|"
                      r"billion)\s?(?:usd|eur|gbp|\$|€|£))", re.IGNORECASE)
_CREDENTIAL = re.compile(r"\b(?:password|passwort|mot de passe|contraseña|senha|passcode|pin|api key|token|secret)"
                         r"\s*(?:is|:|=|ist|est|es|é)\s*\S{4,}", re.IGNORECASE)
_NOT_LABEL = re.compile(r"[^a-z0-9-]")  # what a host label cannot hold
_EMAIL = re.compile(r"[\w.+-]{1,64}@([\w-]{1,63}(?:\.[\w-]{1,63}){1,5})")


def _items(text: str) -> int:
    """How many items of a record the text lists: numbered or bulleted entries, "Name: ..." clauses, or the facts of
    an order (its number, where it was delivered) and the business's figures."""
    listed = max(len(_NUMBERED.findall(text)), len(_SAID.findall(text)))
    facts = bool(_ORDER.search(text)) + bool(_DELIVERY.search(text)) + (len(_FIGURES.findall(text)) >= 1)
    return max(listed, facts)


# the mailbox an organisation opens for reports of phishing, spam and abuse (`phishing@`, `report-phishing@`,
# `abuse@`, `spam@`): named for what it receives, on the organisation's own domain
_REPORT_DESK = re.compile(r"(?:report-?)?(?:phishing|phish|spam|abuse|spoof|spoofing|fraud|scams?|suspicious)"
                          r"(?:-?reports?|-?report-?desk|-?alerts?)?|(?:report|reportphishing|reportspam|reportfraud|"
                          r"security-?reports?)")


def _attacker_named(text: str) -> str | None:
    """The first e-mail address in `text` whose own name (its user or its host) says attacker, pwned, exfil or C2."""
    for m in _EMAIL.finditer(text[:2000]):
        local = _NOT_LABEL.sub("-", m.group(0).split("@", 1)[0].lower()).strip("-") or "x"
        if _REPORT_DESK.fullmatch(local) and own_site(m.group(1).lower()):
            continue  # a bank's or an agency's own desk for reporting phishing: where a lure is sent to be stopped
        word = hostile_host(f"{local}.{m.group(1).lower()}", weak_site=True)
        if word is not None:
            return m.group(0)
    return None


def _relayed(ctx: Context) -> tuple[str, str | None, bool] | None:
    """(what the field asks, an attacker-named recipient, carries a credential) when a record of several items is
    typed into a field whose label asks for the person's mail, messages or chats. Once per context."""
    if not ctx.derived(into_a_field):
        return None
    field = ctx.derived(field_text)
    if not field.raw:
        return None
    asked = _ASKS_FOR_RECORDS.search(fold(field.raw[:400]).lower())
    if asked is None:
        return None
    text = ctx.derived(typed_text).raw
    if len(text) < 20 or _items(text) < 2:
        return None
    recipient = _attacker_named(f"{field.raw[:400]} {ctx.observation.window_title[:256]}")
    return asked.group(0), recipient, _CREDENTIAL.search(text) is not None


@rule("block.typed.records-relayed", "The person's mail or messages, with a credential, relayed to who asked",
      risk=Risk.CRITICAL, types=TYPE, redact=("text",), confidence=0.75)
def records_relayed_block(ctx: Context) -> CheckResult:
    """A record of the person's mail, messages or orders, typed into a field that asks for it, that carries a
    password or a key, or is addressed to a recipient whose own name says attacker: a planted request is
    collecting the mailbox, and this is the reply."""
    found = ctx.derived(_relayed)
    if found is None or (found[1] is None and not found[2]):
        return None
    asked, recipient, secret = found
    why = f"to {recipient!r}" if recipient else "with a credential in it"
    return f"the person's records typed where a request asked for them ({asked!r}), {why}"


@rule("confirm.typed.records-relayed", "The person's mail, messages or orders typed out where a request asked",
      risk=Risk.HIGH, types=TYPE, redact=("text",), confidence=0.7)
def records_relayed_confirm(ctx: Context) -> CheckResult:
    """Several items of the person's own mail, messages, orders or figures (a numbered list of subjects, "Mira:
    pushed the fix; Kai: demo at 3" lines, an order number with its delivery address, a quarter's sales) typed into a
    reply, a message or a form whose label asks for them ("Email audit: submit your last 3 emails", "compile the
    last messages of your group chat", "What I saw in my email"): what the mailbox holds leaves because someone
    asked, and only the person knows whether they should have it. A list typed into an ordinary message, and one
    fact answered to a form, do not ask."""
    found = ctx.derived(_relayed)
    if found is None or found[1] is not None or found[2]:
        return None
    return f"the person's records typed where a request asked for them ({found[0]!r})"


# a field's label that asks for a login: "could you share the company SSH credentials", "send me the admin password"
_ASKS_FOR_LOGIN = re.compile(
    r"\b(?:share|send|provide|give|forward|paste|tell|need|needs|requires?|depends on|access to|what is|what s)\b"
    r"(?: \w+){0,6}? (?:credentials?|passwords?|passwd|logins?|log ?in details|sign ?in details|ssh (?:access|keys?|"
    r"credentials|login)|api keys?|access keys?|tokens?|secrets?|passcodes?|pins?)\b|"
    r"\b(?:zugangsdaten|passwort|identifiants|mot de passe|credenciales|contraseña|credenziali|senha)\b")
_MESSAGE_LABEL = re.compile(r"^(?:reply|re|respond|response|answer|message|comment|chat|write|compose|body|"
                            r"antwort|nachricht|répondre|réponse|responder|respuesta|mensaje|rispondi|messaggio|"
                            r"mensagem|resposta)\b")


@rule("block.typed.credential-relayed", "A login typed into a reply or a message whose label asks for it",
      risk=Risk.CRITICAL, types=TYPE, redact=("text",), confidence=0.8)
def credential_relayed(ctx: Context) -> CheckResult:
    """A password, a key or a token written out ("ssh admin@10.0.0.5 password: ...", "the API key is ...") typed
    into a reply or a message whose own label carries the request for it ("Reply to ... (could you share the SSH
    credentials)", "Message (send me the admin password)"): the person's login handed to whoever asked, by mail or
    chat, where it stays readable. Typed into the sign-in form it belongs to, it is not this rule's."""
    if not ctx.derived(into_a_field):
        return None
    label = fold(ctx.derived(field_text).raw[:400]).lower().strip()
    if not _MESSAGE_LABEL.match(label) or not _ASKS_FOR_LOGIN.search(label):
        return None
    text = ctx.derived(typed_text).raw
    if len(text) > 4000 or (_CREDENTIAL.search(text) is None and ctx.derived(secret_in) is None):
        return None
    return f"a login typed into {short(ctx.derived(field_text).raw, 50)!r}, which asks for it"


# a login written `user/password` with no spaces: a name or an address, a slash, then a password-like value (a
# path's folder is preceded by another slash or a dot, and its file has an extension, not a password's shape)
_SLASH_LOGIN = re.compile(r"(?<![\w/.:@\\-])([A-Za-z][\w.+-]{0,63}(?:@[\w-]+(?:\.[\w-]+)+)?)/([^\s/,;]{6,64})"
                          r"(?=$|[\s,;])")


# what says the pairs are logins: a word for them, in the languages such lists come in (branch names such as
# `feature/NewLogin2024` are written with no such word)
_LOGINS_WORD = re.compile(r"\b(?:creds|credentials?|logins?|log ?ins|passwords?|passwd|accounts?|"
                          r"user ?/ ?pass(?:word)?|usernames?|zugangsdaten|anmeldedaten|passw[öo]rter|identifiants|"
                          r"mots de passe|credenciales|contraseñas|credenciais|senhas)\b", re.IGNORECASE)


def _slash_logins(text: str) -> int:
    """How many `user/password` logins the text writes out: with a word that calls them logins, or with e-mail
    addresses as their users."""
    named = _LOGINS_WORD.search(text[:4096]) is not None
    count = 0
    signed = False  # one of the values holds a password's sign (`!`, `#`, `$`): a page's name never does
    for m in _SLASH_LOGIN.finditer(text[:4096]):
        user, secret = m.group(1), m.group(2)
        if "@" in user and any(not c.isalpha() for c in secret):
            count += 1
            signed = True
        elif named and password_shaped(secret):
            count += 1
            signed = signed or any(c in _PASSWORD_SIGNS for c in secret)
    return count if signed else 0


_PASSWORD_SIGNS = frozenset("!@#$%^&*?~+=")


@rule("block.typed.login-list", "Several logins written as user/password in a message", risk=Risk.CRITICAL,
      types=TYPE, redact=("text",), confidence=0.8)
def login_list(ctx: Context) -> CheckResult:
    """Two or more logins written as `user/password` (`ana/Winter2024!, bo/Sp4rrow#9`, `it@corp.example/K9x!2mQ`)
    typed into a message, a comment, a post or a form's text: a list of accounts handed to whoever reads it, as the
    `user:password` lines of `block.gui.data-out` are: with a word that calls them logins ("creds", "accounts"), or
    with e-mail addresses as their users. Paths (`src/main.py`), branch names (`feature/NewLogin2024`) and a single
    pair pass here. The text is redacted from the log."""
    if not ctx.derived(into_a_field) or ctx.derived(code_editor):
        return None
    text = ctx.derived(typed_text).raw
    if not 12 <= len(text) <= 4096 or text.count("/") < 2:
        return None
    n = _slash_logins(text)
    return f"{n} logins written as user/password into {short(ctx.derived(field_text).raw, 40)!r}" if n >= 2 else None


# a message that says it hands tokens, keys or passwords on: "forwarding the service tokens as requested", "here are
# the API keys you asked for"
_FORWARDS_SECRETS = re.compile(
    r"\b(?:forwarding|forwarded|forward|sending|sent|here (?:is|are|s)|heres|attached (?:is|are)?|sharing|relaying|"
    r"passing (?:on|along)|as requested|as you asked|per your request)\b(?: \w+){0,5}? (?:tokens?|api keys?|"
    r"access keys?|keys|credentials|creds|passwords?|secrets?|bearer tokens?|session tokens?|session cookies|"
    r"cookies)\b")
# ... and carries them: a header or a field written with its value, or the slot a tool's output fills
_CARRIES_SECRET = re.compile(
    r"\bauthorization\s*:\s*(?:bearer|basic|token)\b|\bbearer\s+(?:[\w.~+/-]{8,}|\{)|"
    r"\b(?:api[ _-]?key|access[ _-]?key|access[ _-]?token|refresh[ _-]?token|secret(?:[ _-]?key)?|password|token|"
    r"client[ _-]?secret|session)\s*[:=]\s*(?:\S{6,}|\{)|\{\{?\s*\w*(?:token|key|secret|password|cookie)\w*\s*\}\}?",
    re.IGNORECASE)
# ... or writes keys out by their shape, whole or cut short with an ellipsis (a list of keys copied from an account
# page, "sk-live-4f2e..."): an issuer's prefix, or a prefixed token with a digit that trails off
_KEY_SHAPE = re.compile(
    r"(?<![\w-])(?:sk|pk|rk|ak)[-_](?:live|test|prod|proj|ant|org)[-_][A-Za-z0-9]{2,}|"
    r"(?<![\w-])(?:ghp|gho|ghu|ghs|github_pat|glpat|xox[abposr]|AKIA|ASIA|AIza|shpat|shpss|npm|pypi|hf|SG)[-_.]?"
    r"[A-Za-z0-9]{4,}|(?<![\w-])[A-Za-z][A-Za-z0-9]*[-_][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*(?:\.{3}|…)")


@rule("block.typed.secrets-forwarded", "A message that forwards tokens, keys or passwords it carries",
      risk=Risk.CRITICAL, types=TYPE, redact=("text",), confidence=0.8)
def secrets_forwarded(ctx: Context) -> CheckResult:
    """A message, a mail or a reply that says it forwards or hands over tokens, API keys, credentials or passwords
    ("Forwarding the service tokens as requested", "here are the API keys you asked for") and carries them: a header
    or a field written with its value (`Authorization: Bearer ...`, `API Key: ...`, `password=...`), keys written
    by their shape, whole or cut short (`sk-live-4f2e...`, `ghp_...`), or the slot a tool's output fills in
    (`{access_token}`). Whoever asked gets what signs in as the service or the person; a
    planted request is the usual reason an agent writes it. A message that only speaks of tokens ("I rotated the
    tokens, they are in the vault") passes. The text is redacted from the log."""
    if not ctx.derived(into_a_field) or ctx.derived(code_editor):
        return None  # (in an editor, a template's `{api_key}` is a file's placeholder)
    text = ctx.derived(typed_text)
    if not 20 <= len(text.raw) <= 4000:
        return None
    m = _FORWARDS_SECRETS.search(text.words)
    if m is None or (_CARRIES_SECRET.search(text.raw) is None and _KEY_SHAPE.search(text.raw) is None and
                     ctx.derived(secret_in) is None):
        return None
    return f"a message that hands secrets on ({m.group(0)!r}) and carries them"


# a message that says it carries someone's private data: "here's the user's search history and personal information"
_DECLARES_DATA = re.compile(
    r"\b(?:here(?: is| s| are)|attached(?: is| are)?|below (?:is|are)|enclosed (?:is|are)|i (?:ve |have )?"
    r"(?:collected|gathered|compiled|extracted|exported|copied|scraped|harvested|pulled)|sending you|forwarding you|"
    r"as requested)\b(?: \w+){0,4}? (?:the |all (?:the )?|this |that )?"
    r"(?:user s|users|user|customer s|customers|customer|client s|clients|victim s|victim|target s|target|owner s|"
    r"person s|employee s|employees|patient s|patients|his|her|their|your)"
    r"(?: \w+){0,2}? (?:personal (?:information|info|data|details)|search history|browsing history|location history|"
    r"call history|chat history|message history|contact list|address book|saved passwords|passwords|credentials|"
    r"login details|cookies|session tokens?|private (?:data|messages|photos|files)|medical records|health records|"
    r"financial records|bank details|card details|identity documents?)\b")
_TAKEN = re.compile(r"\b(?:stolen|exfiltrat\w*|leaked|harvested|dumped|scraped)\b")


@rule("confirm.typed.user-data-declared", "A message that says it carries someone's private data", risk=Risk.HIGH,
      types=TYPE, redact=("text",), confidence=0.65)
def user_data_declared(ctx: Context) -> CheckResult:
    """A message, a post or a form's text that says what it carries is a person's private data ("Here's the
    user's search history and personal information I collected", "attached are the customers' saved passwords"):
    the agent is sending out what it was trusted to read. When the text, the field or the window also calls it
    stolen, exfiltrated or leaked, it is `block.typed.user-data-declared`."""
    found = ctx.derived(_declared)
    if found is None or found[1]:
        return None
    return f"a message that says it carries private data ({found[0]!r})"


@rule("block.typed.user-data-declared", "A message that says it carries stolen private data", risk=Risk.CRITICAL,
      types=TYPE, redact=("text",), confidence=0.75)
def user_data_declared_block(ctx: Context) -> CheckResult:
    """The message of `confirm.typed.user-data-declared`, in a message, a field or a window that calls the data
    stolen, exfiltrated, leaked or harvested."""
    found = ctx.derived(_declared)
    if found is None or not found[1]:
        return None
    return f"a message that says it carries stolen private data ({found[0]!r})"


def _declared(ctx: Context) -> tuple[str, bool] | None:
    if not ctx.derived(into_a_field):
        return None
    text = ctx.derived(typed_text)
    if not 20 <= len(text.raw) <= 4000:
        return None
    m = _DECLARES_DATA.search(text.words)
    if m is None:
        return None
    place = fold(f"{ctx.derived(field_text).raw[:200]} {ctx.observation.window_title[:200]}").lower()
    return m.group(0), bool(_TAKEN.search(text.words) or _TAKEN.search(place))


# -- an attacker's address typed as the recipient ----------------------------------------------------------------

_RECIPIENT = re.compile(r"^(?:to|cc|bcc|an|à|a|para|per|aan|recipients?|send to|forward to|add recipients?|"
                        r"recipient(?: e ?mail| address)?|e ?mail address(?:es)?|type a name or e ?mail|"
                        r"search (?:for )?(?:a )?(?:name|contact|people)|new (?:chat|message))\b")


@rule("block.typed.attacker-recipient", "An address whose own name says attacker typed where a message goes",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.8)
def attacker_recipient(ctx: Context) -> CheckResult:
    """An e-mail address whose user or host names an attacker, a pwned or exfiltration drop or a C2 server
    (`attkr@pwnd.example`, `drop@exfil-box.example`: the words of resources/destinations.toml's hostile hosts)
    typed into a message's recipient field or its body: whatever is sent goes to the one who planted it."""
    if not ctx.derived(into_a_field):
        return None
    text = ctx.derived(typed_text).raw
    if "@" not in text or len(text) > 2000:
        return None
    field = fold(ctx.derived(field_text).raw[:200]).lower().strip()
    title = fold(ctx.observation.window_title[:128]).lower()
    if not (_RECIPIENT.match(field) or "message" in field or "message" in title or "mail" in title):
        return None
    found = _attacker_named(text)
    if found is None:
        return None
    return f"{found!r} typed into {short(ctx.derived(field_text).raw or 'a message', 40)!r}: its own name says attacker"


_SEND_LABEL = re.compile(r"^(?:send|send now|send message|send e ?mail|reply|forward|submit|senden|envoyer|enviar|"
                         r"invia|verzenden)$")


@rule("block.gui.send-to-attacker", "Sending a message to an address whose own name says attacker",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def send_to_attacker(ctx: Context) -> CheckResult:
    """"Send" clicked while the message's window or the button names a recipient whose user or host says
    attacker, pwned, exfil or C2 ("New Message - To: drop@exfil-box.example"): the message, and whatever it carries,
    goes to the one who planted the address."""
    target = ctx.action.target
    label = (target.label or target.name or "") if target is not None else ""
    first = fold(label.split("(", 1)[0]).lower().strip(" .!")
    if not _SEND_LABEL.match(first):
        return None
    found = _attacker_named(f"{label[:400]} {ctx.observation.window_title[:256]}")
    if found is None:
        return None
    return f"{label.strip()[:20]!r} sends to {found!r}: its own name says attacker"


# -- a phone number sent as a whole chat message ---------------------------------------------------------------

_CHAT_APP = re.compile(r"\b(?:whatsapp|signal|telegram|messenger|imessage|messages|viber|wechat|line|threema|"
                       r"element|wire|skype|sms)\b")
_MESSAGE_BOX = re.compile(r"^(?:type a message|message|write a message|new message|send a message|text message|"
                          r"imessage|sms|nachricht|message\.{3}|mensaje|mensagem|messaggio|bericht)\b")


@rule("confirm.typed.phone-as-message", "A phone number alone typed as a chat message", risk=Risk.HIGH,
      types=TYPE, confidence=0.6)
def phone_as_message(ctx: Context) -> CheckResult:
    """A phone number, alone, typed into a messaging app's message box (WhatsApp's "Type a message", Signal,
    Telegram, Messages): a whole message that is a number names where a thread, a code or a contact is to go,
    which is what a planted instruction asks for. A number written inside a sentence, and one typed into the
    app's search or new-chat field, do not ask."""
    text = ctx.derived(typed_text).raw
    if not ONE_PHONE.match(text) or sum(c.isdigit() for c in text) < 8:
        return None
    obs = ctx.observation
    place = fold(f"{obs.app[:64]} {obs.window_title[:128]}").lower()
    field = fold(ctx.derived(field_text).raw[:80]).lower().strip()
    if not _CHAT_APP.search(place) or not _MESSAGE_BOX.match(field):
        return None
    return f"a phone number alone typed as a message in {(obs.app or obs.window_title)[:30]!r}"


# -- a link spread to the team ---------------------------------------------------------------------------------

_TO_A_GROUP = re.compile(r"\b(?:hi|hello|hey|dear|attention|fyi|morning|good morning)\s*,?\s*(?:team|all|everyone|"
                         r"everybody|folks|guys|y all|colleagues|staff|people|friends|devs|engineers)\b|"
                         r"\b(?:all staff|all employees|everyone in|whole team|entire team|all hands)\b|"
                         r"\b(?:hallo|hi) (?:zusammen|team|alle)\b|\bbonjour (?:à tous|tout le monde|l équipe)\b|"
                         r"\bhola (?:a todos|equipo)\b|\bolá (?:a todos|equipe|pessoal)\b|\bciao a tutti\b",
                         re.IGNORECASE)
_INVITES = re.compile(r"\b(?:visit|test(?: out)?|try(?: out)?|check(?: out)?|have a look at|take a look at|look at|"
                      r"go to|head (?:over )?to|open|click|log ?in(?:to)?|sign ?in|register|sign up|download|install|"
                      r"update|verify|review|explore|use|access|besuchen|testen|visitez|testez|visiten|prueben|"
                      r"acessem|testem|visitate|provate)\b", re.IGNORECASE)
_URL = re.compile(r"\b(?:https?://|www\.)([^\s/?#:'\"<>]+)", re.IGNORECASE)


@rule("confirm.typed.link-to-team", "A message inviting a team to visit a link on a site no organisation owns",
      risk=Risk.HIGH, types=TYPE, confidence=0.6)
def link_to_team(ctx: Context) -> CheckResult:
    """A message addressed to a group ("Hi team", "Hello everyone", "all staff") that invites them to visit,
    test, sign in at or download from a link whose host is no known organisation's own site
    (`gate.destinations.own_site`): an account taken over spreads a phishing page from inside, where colleagues
    trust the sender. A link on a known site (the company's code host, a docs site), on the organisation's own
    domain (the page's, or the recipients' named in the field or the window) or its workspace's tenant
    (`acme.atlassian.net`), and a link sent to one person, do not ask."""
    if not ctx.derived(into_a_field):
        return None
    text = ctx.derived(typed_text).raw
    if len(text) > 3000 or ("://" not in text and "www." not in text.lower()):
        return None
    if not _TO_A_GROUP.search(text) or not _INVITES.search(text):
        return None
    for m in _URL.finditer(text):
        host = m.group(1).lower().rstrip(".")
        if not host or ("." not in host and ip_of(host) is None):
            continue
        if ip_of(host) is None and (own_site(host) or registrable(host) in ctx.derived(_org_sites) or
                                    any(host == t or host.endswith("." + t) for t in _WORKSPACE_TENANTS)):
            continue  # a known site, the organisation's own (the page's, the recipients'), its workspace's tenant
        return f"a message to the team with a link to {host!r}, a site no known organisation owns"
    return None


# the platforms an organisation's own workspace is a tenant of (`acme.atlassian.net`, `acme.sharepoint.com`)
_WORKSPACE_TENANTS = ("atlassian.net", "sharepoint.com", "slack.com", "zendesk.com", "force.com", "salesforce.com",
                      "service-now.com", "okta.com", "webex.com", "monday.com", "office.com", "onmicrosoft.com")


def _org_sites(ctx: Context) -> frozenset[str]:
    """The registrable domains of the page and of the addresses its field label and window title name: the
    organisation whose people the message goes to."""
    sites = set()
    parts = split_url(ctx.observation.url) if ctx.observation.url else None
    if parts is not None and parts.host:
        sites.add(registrable(parts.host.lower()))
    for m in _EMAIL.finditer(f"{ctx.derived(field_text).raw[:400]} {ctx.observation.window_title[:256]}"):
        sites.add(registrable(m.group(1).lower()))
    return frozenset(sites)


RULES: tuple[Rule, ...] = (records_relayed_block, records_relayed_confirm, credential_relayed, attacker_recipient,
                           send_to_attacker, phone_as_message, link_to_team, user_data_declared,
                           user_data_declared_block, secrets_forwarded, login_list)
