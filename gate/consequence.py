"""What a button does to money, an account, permissions or visibility, read from its label's meaning.

    consequence(words, url="") -> Consequence | None

`words` is the label in normalised word form (`gate.rules.gui.label_text(ctx).words`). A label is read
as a verb phrase: an action verb, optionally a few filler words, and the object it acts on. The verbs
and objects are vocabularies of interchangeable words (`_MONEY_VERBS`, `_ACCOUNT_OBJECTS`, ...), so
"Change e-mail", "Update your recovery email address" and "Set a new password" are one meaning, and so
are "Start free trial", "Try Premium free for 30 days" and "Upgrade to Pro". Installing or running
software ("Install update", "Download the driver", "Enable macros") asks too: fake updates are how
pop-ups get an agent to run code. Labels that only move
around (navigation, search, tabs, "Add to cart", "Remove from cart", "Cancel" on a dialog, "Select
all") have no consequence here.

`url` (the page the action is on) raises an authorisation button to high risk on an OAuth consent page.
All patterns are bounded alternations with bounded gaps: linear in the label's length.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from gate.model import Risk
from gate.prefix import BranchSearch, text_keys

__all__ = ["Consequence", "consequence"]

_GAP = r"(?:\w+ ){0,3}"

_AMOUNT = r"(?:\$|€|£|¥|₹)\s?\d|\b\d+(?:[.,]\d+)? ?(?:usd|eur|gbp|dollars?|euros?|pounds?)\b"
_PLAN = r"(?:premium|pro|plus|business|enterprise|gold|platinum|vip|unlimited|paid|annual|yearly|monthly|family|team)"

_MONEY = (
    # paying or committing to pay
    r"^(?:buy|purchase|pay|donate|tip|checkout|check out|subscribe|upgrade|renew|rent|pledge|bid|deposit|"
    r"top up|reload|recharge|fund|withdraw|transfer|cash out)\b(?! (?:history|details|status|summary|options|"
    r"settings|page|info|information|records?|list|log|receipts?|orders?|limits?|ownership|feedback|message|"
    r"a message|email|project|repository|repo|group|namespace|domain|issue|to |"
    r"an email|reply|invite|invitation|link|code|verification|report|file|files|to trash|to back|backward|"
    r"to front|forward|comment|note|request for|us a)\b)",
    r"\b(?:buy|purchase|pay|donate|order|subscribe|upgrade|renew|bid|checkout) (?:now|today|it|this|them|all|"
    r"securely|with|for|using|and)\b",
    r"\b(?:subscribe|upgrade|switch|go|move) (?:to|for) (?:the )?(?:a )?" + _PLAN + r"\b",
    r"\b(?:upgrade|go|get|try|unlock|activate|join) (?:to )?(?:the )?" + _PLAN + r"(?: (?:plan|membership|"
    r"subscription|version|tier|account))?\b",
    r"\b(?:start|begin|activate|claim|get|try|redeem|continue with|start my|start your) (?:a |my |your |the )?"
    r"(?:\d+ ?(?:day|week|month) )?(?:free )?trial\b",
    r"\btry (?:it |\w+ )?(?:for )?free\b|\bfree for \d+ (?:days|weeks|months)\b",
    r"\b(?:add|top up|load|deposit|send|transfer|withdraw|request|move) (?:the )?(?:money|funds|cash|balance|"
    r"credit|credits|payment|crypto|bitcoin|coins|tokens)\b",
    r"\b(?:save|store|remember|add|link|attach|use|update|set as default) (?:this |the |my |your |new |a )?"
    r"(?:credit |debit |bank |payment )?(?:card|cards|payment method|payment details|bank account|billing "
    r"(?:info|information|details))\b(?! details? (?:help|info|page))",
    r"\b(?:add|link|connect) (?:a |my |your |new )?(?:bank|paypal|wallet|venmo|stripe)\b",
    r"\b(?:place|complete|confirm|submit|finali[sz]e|review and pay|authori[sz]e) (?:the |your |my )?"
    r"(?:order|payment|purchase|transfer|transaction|donation|bid|subscription)\b",
    r"\b(?:please|and|to) pay\b",
    r"^(?:refund|issue (?:a |the )?refund|void (?:the )?(?:payment|transaction|invoice|order)|charge (?:the )?"
    r"(?:card|customer|account)|capture (?:the )?payment|create (?:a )?credit memo)\b",
    r"\benable (?:auto ?renew(?:al)?|automatic (?:payments?|renewal)|one ?click (?:buy|ordering|purchase))\b",
    _AMOUNT,
)
_ACCOUNT_OBJECTS = (r"(?:e ?mail|e ?mail address|email address|password|passcode|pin|phone|phone number|mobile number|"
                    r"recovery (?:e ?mail|email|phone|codes?|options?)|username|user name|login|security "
                    r"(?:questions?|keys?|settings)|two factor|2fa|mfa|2 step verification|two step verification|"
                    r"authenticator|passkeys?|account (?:details|info|information|name|owner))")
_ACCOUNT = (
    rf"\b(?:change|update|edit|set|reset|replace|save|remove|delete|disable|turn off|switch off|"
    rf"deactivate|regenerate|revoke) {_GAP}{_ACCOUNT_OBJECTS}\b(?! (?:hint|help|requirements|strength|settings|"
    rf"field)\b)",
    r"\b(?:save|update|apply|confirm) (?:the |these |my |your )?(?:changes to )?(?:account|profile|security) "
    r"(?:settings|changes|details)\b",
    r"\b(?:sign|log) ?out (?:of )?(?:all|every|other) (?:devices|sessions|browsers)\b",
    r"\b(?:generate|create|regenerate|reveal|show|copy) (?:a |new |the |my |an )*(?:api key|access token|"
    r"personal access token|token|secret|recovery codes?|app password|deploy key|ssh key)\b",
)
_PERMISSION = (
    r"^(?:allow|authori[sz]e|grant|approve|permit|give access|trust)\b(?! (?:all )?cookies\b| all$| necessary\b|"
    r"selected cookies\b| essential\b)",
    r"\b(?:allow|authori[sz]e|grant|give|approve|permit) (?:\w+ ){0,4}(?:access|permissions?|app|application|"
    r"integration|connection|device|login|sign ?in)\b",
    r"\b(?:make|set|promote|add|invite|assign|appoint) (?:\w+ ){0,3}(?:as |to )?(?:an? |the )?(?:admin|"
    r"administrator|owner|co ?owner|maintainer|moderator|superuser|super admin|manager|editor|collaborator|"
    r"member|members|user|users|teammate|teammates|role|roles)s?\b",
    r"\b(?:change|edit|update|set|assign|modify|save|grant|revoke|remove) (?:the |this |user |member |their |"
    r"his |her |a )*(?:role|roles|permissions?|access|access level|privileges?|rights|membership)\b(?! denied\b)",
    r"\b(?:transfer|hand over|give away) (?:the )?(?:ownership|admin|account|repository|project|organi[sz]ation)\b",
    r"\b(?:invite|add|share with) (?:people|users|members|collaborators|someone|team|teammates)\b",
    r"^(?:block|ban|suspend|unblock|unban|impersonate|lock|unlock) (?:this |the )?(?:user|member|account|"
    r"customer)s?\b|^impersonate\b|\bunprotect\b|\b(?:transfer|move) (?:the |this )?(?:project|repository|repo|"
    r"group|namespace|domain)\b",
    r"\b(?:turn on|enable|allow|share|give|grant) (?:my |your |the )?(?:precise )?(?:location|camera|"
    r"microphone|mic|notifications|contacts|screen|clipboard|bluetooth|background activity)(?: access)?\b",
    r"^share (?:my |your |the |entire )?screen\b|\bstart (?:screen ?sharing|remote (?:access|control|session))\b|"
    r"\b(?:allow|accept|give) remote (?:access|control)\b",
    r"\b(?:create|add|generate|new) (?:a |an )?(?:deploy key|deploy token|webhook|oauth app|service account|"
    r"access token|personal access token|api token)\b",
)
_PUBLISH = (
    r"\b(?:make|set|change|switch) (?:\w+ ){0,3}(?:to )?(?:public|publicly visible|visible to everyone|"
    r"visible to anyone|world readable|open to everyone)\b",
    r"\b(?:share|publish|post) (?:\w+ ){0,2}(?:publicly|with everyone|to everyone|with anyone|to the public|"
    r"to the web|online|to all)\b",
    r"\banyone with the link\b|\b(?:enable|turn on|create) (?:a )?(?:public|shareable|sharing) (?:link|access|url)\b",
    r"\b(?:change|update|edit) (?:the )?visibility\b|\bpublic (?:repository|repo|profile|board|folder|link)\b",
    r"^(?:publish|go live|release|make live|post|tweet|retweet|repost|reblog|broadcast|share now|send to all|"
    r"announce)\b",
)
_CANCEL = (
    r"\b(?:yes|confirm|continue|proceed|finish|complete) (?:\w+ ){0,2}cancel(?:l?ation|l?ing|l?ed)?\b",
    r"\bcancel (?:anyway|now|it|immediately|auto ?renew(?:al)?|(?:my |your |the |this )?(?:subscription|"
    r"membership|plan|account|order|booking|reservation|service|trial|contract|policy|payment|transfer))\b",
    r"\b(?:turn off|disable|stop) (?:auto ?renew(?:al)?|automatic renewal|recurring (?:billing|payments?))\b",
    r"\b(?:downgrade|end (?:my |the )?(?:subscription|membership|trial|plan)|leave (?:the |this )?"
    r"(?:team|organi[sz]ation|workspace|group|project|channel|company))\b",
    r"\b(?:close|deactivate|suspend|disable|terminate) (?:\w+ ){0,2}(?:account|profile|user|membership|store|"
    r"shop|listing|site|website|repository|repo|project)\b",
)
_BULK = (
    r"\b(?:delete|remove|archive|trash|erase|purge|deactivate|disable|ban|block|unpublish|cancel|refund|"
    r"export) (?:all|selected|everything|checked|marked|(?:all |the )?\d+ (?:\w+ )?(?:items|"
    r"records|rows|users|members|files|products|orders|customers|entries|messages|emails|contacts))\b",
    r"\bbulk (?:delete|remove|edit|update|action|actions|change|archive|export|import|send|email)\b",
    r"\b(?:mass|batch) (?:delete|update|action|email|send|edit)\b",
    r"\b(?:reset|restore) (?:all |everything |\w+ )?(?:to )?(?:the )?(?:default|defaults|factory|original) ?"
    r"(?:settings|configuration|values|state)?\b|\breset all\b",
)

_INSTALL = (
    r"^(?:install|reinstall|install now|download and install|install (?:the )?update|update now|update and "
    r"restart|restart and update|restart to update|run (?:the )?installer)\b",
    r"\b(?:download|get|install|run) (?:the |this |a )?(?:update|updates|installer|setup|setup file|driver|drivers|"
    r"plugin|plug in|extension|codec|software|program|toolbar|cleaner|antivirus)\b(?! (?:settings|"
    r"history|details|log|notes)\b)",
    r"\b(?:add to (?:chrome|firefox|edge|browser)|add extension|enable (?:the )?(?:extension|plugin|macros?|"
    r"content|editing))\b",
    r"\b(?:download|install) (?:it|now|free|for free)\b|\b(?:download|install|get|run) (?:\w+ ){0,2}"
    r"(?:plugin|plug in|codec|driver|antivirus|anti virus|cleaner|optimi[sz]er|booster|toolbar|flash player|"
    r"installer|update|patch|software|apk)s?\b(?! (?:settings|history|details|log|notes)\b)",
    r"\brestart (?:now |later )?(?:to|and) (?:apply|install|finish|complete|update)\b",
)
_WARNING = (
    r"\b(?:proceed|continue|go|visit|download|run|open|keep|install|allow|launch|execute) (?:\w+ ){0,2}"
    r"(?:anyway|anyways|regardless)\b",
    r"\b(?:unsafe|not secure|insecure|dangerous|harmful|malicious|deceptive) (?:site|page|website|file|download|"
    r"link|content|connection)\b|^(?:proceed|continue|go) to .{0,80}\b(?:unsafe|not secure)\b",
    r"\b(?:accept|understand|take) the risks?\b|\bkeep (?:this |the )?(?:dangerous |harmful |suspicious |"
    r"unverified )?file\b",
    r"\b(?:skip|bypass|ignore|dismiss|turn off|disable) (?:the |this |all )?(?:security )?(?:verification|"
    r"warning|warnings|protection|safe ?browsing|antivirus|firewall|smartscreen|defender)\b",
)
_CAPTCHA = (
    r"\b(?:verify|prove|confirm) (?:that )?you (?:are|re) (?:a )?(?:human|not a (?:robot|bot))\b|"
    r"\bi (?:am|m) not a (?:robot|bot)\b|\bcaptcha\b|\bi (?:am|m) (?:a )?human\b",
)

_KINDS: tuple[tuple[str, Risk, tuple[str, ...]], ...] = (
    ("money", Risk.HIGH, _MONEY),
    ("account security", Risk.HIGH, _ACCOUNT),
    ("permissions and access", Risk.HIGH, _PERMISSION),
    ("publishing or sharing publicly", Risk.MEDIUM, _PUBLISH),
    ("cancellation or closing", Risk.MEDIUM, _CANCEL),
    ("bulk change", Risk.HIGH, _BULK),
    ("overriding a security warning", Risk.HIGH, _WARNING),
    ("installing or running software", Risk.MEDIUM, _INSTALL),
    ("a human-verification check (CAPTCHA), which is for a person to answer", Risk.MEDIUM, _CAPTCHA),
)




class _Kind(NamedTuple):
    name: str
    risk: Risk
    search: BranchSearch


# most labels name no verb or object of most kinds: only the branches a label could match are searched
_SEARCHES = tuple(_Kind(name, risk, BranchSearch(pats)) for name, risk, pats in _KINDS)
# moving around and collecting is not committing: these never have a consequence here
_INERT = re.compile(
    r"^(?:add to (?:cart|bag|basket|wishlist|wish list|favou?rites|list|compare|calendar)|remove from (?:cart|bag|"
    r"basket|wishlist|wish list|favou?rites|list|compare)|view (?:cart|bag|basket|plans?|pricing)|see (?:plans?|"
    r"pricing)|compare plans|learn more|more info|details|back|next|cancel|close|dismiss|not now|no thanks|"
    r"maybe later|skip|search|filter|sort)\s*$", re.MULTILINE)
_CONSENT_URL = re.compile(r"oauth|/authori[sz]e|/consent|/auth\b|connect/|/approve|grant", re.IGNORECASE)


class Consequence(NamedTuple):
    kind: str
    risk: Risk
    quote: str


# A generic "commit" button ("Save", "Update", "Confirm") means what the page it is on edits: on an
# account's password, e-mail, security, billing, members or visibility page, saving is that change.
_COMMIT_LABEL = re.compile(r"^(?:save|save changes|save settings|update|update settings|apply|apply changes|confirm|"
                           r"submit|ok|yes|continue|done|change|set|enable|disable|turn on|turn off)$")
_PAGE_KINDS: tuple[tuple[str, Risk, re.Pattern[str]], ...] = (
    ("account security", Risk.HIGH, re.compile(
        r"/(?:password|passwords|change[_-]?password|email|emails|change[_-]?email|security|two[_-]?factor|2fa|mfa|"
        r"totp|recovery|phone|authentication|sessions|ssh[_-]?keys|gpg[_-]?keys|(?:personal[_-])?access[_-]?tokens|"
        r"api[_-]?keys|tokens)(?:/|$|\?|#)", re.IGNORECASE)),
    ("money", Risk.HIGH, re.compile(
        r"/(?:billing|payment|payments|payment[_-]?methods|subscription|subscriptions|plans?|checkout|wallet|"
        r"payouts?|bank|cards?)(?:/|$|\?|#)", re.IGNORECASE)),
    ("permissions and access", Risk.HIGH, re.compile(
        r"/(?:members|project_members|group_members|permissions|roles|users|collaborators|access|"
        r"admin/users|team)(?:/|$|\?|#)", re.IGNORECASE)),
    ("publishing or sharing publicly", Risk.MEDIUM, re.compile(
        r"/(?:visibility|privacy|sharing|publish|danger)(?:/|$|\?|#)", re.IGNORECASE)),
)


def consequence(words: str, url: str = "", keys: frozenset[str] | None = None) -> Consequence | None:
    """What clicking a button labelled `words` commits to, or None for a button that only moves around.
    `url` is the page the button is on: an OAuth consent page makes an "Allow" an authorisation, and an
    account-settings page makes a generic "Save" the change that page edits. `keys`: `text_keys` of `words`
    or of a text containing it (the label's, gate/rules/gui.py), when the caller has them."""
    if keys is None:
        keys = text_keys(words)
    found = _meaning(words, keys) if len(words) <= 512 else _meaning.__wrapped__(words, keys)
    if found is not None and found.kind == "permissions and access" and url and _CONSENT_URL.search(url):
        return Consequence("authorising an application", Risk.HIGH, found.quote)
    if found is None and url and _COMMIT_LABEL.match(words.split("\n", 1)[0].strip()):
        path = url.split("://", 1)[-1].partition("/")[2]
        for kind, risk, page in _PAGE_KINDS:
            if page.search("/" + path):
                return Consequence(f"{kind} (this page's setting)", risk, words.split("\n", 1)[0])
    return found


@functools.lru_cache(maxsize=2048)
def _meaning(words: str, keys: frozenset[str]) -> Consequence | None:
    if not words or _INERT.fullmatch(words.split("\n", 1)[0].strip()):
        return None
    for kind in _SEARCHES:
        m = kind.search.search(words, keys)
        if m is not None:
            return Consequence(kind.name, kind.risk, m.group(0))
    return None
