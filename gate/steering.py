"""Text that tries to steer the agent: orders, pressure and requests for credentials, by their parts.

    steering(words) -> Steering | None

`words` is the normalised word form of a label or of typed text (lower case, homoglyphs folded, every
run of punctuation one space: `gate.rules.gui.label_text(...).words`). The model reads six kinds of cue,
each a small grammar of interchangeable parts rather than a list of phrases:

- address: the text speaks to an AI ("AI assistant, please", "dear agent", "if you are an LLM", "note to
  the bot", "as an assistant you must");
- obligation: a second-person order to act on the screen ("you need to / have to / must / are required
  to ... click / press / type / download / allow ...", "please click OK now");
- override: an instruction that replaces the agent's own ("ignore / disregard / forget ... previous /
  above / prior ... instructions / rules / task", "your new task is", "do not tell the user");
- pressure: urgency and threat ("urgent", "immediately", "within 24 hours", "final notice", "your
  account will be suspended / has been locked", "unusual sign-in activity");
- credential: a request for identity or payment data ("confirm / verify / update ... your identity /
  account / password / card / billing details", "enter your password / social security number");
- secret request: asking someone for a password, one-time code, card number or seed phrase ("send me
  your password", "what is your PIN");
- scare: a fake system state ("your computer is infected", "virus detected", "critical update
  required", "your browser is out of date", "install the security patch now");
- lure: a prize or a too-good offer ("click here to claim", "you have won", "free iPhone",
  "congratulations, you are selected").

On a click target, one cue asks a person (confirm) and two different kinds together are a manipulation
(block). Typed text is the agent's own writing, where "you need to send the report" is ordinary: there
an address to an AI, an override, a secret request, a scare or a lure asks, and two kinds together block. Each part is
a bounded alternation of words with bounded gaps (`(?:\\w+ ){0,3}`), so matching stays linear.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

__all__ = ["CUES", "Steering", "steering"]

_GAP = r"(?:\w+ ){0,3}"  # up to three filler words ("the", "all of your", "any of the")
_GAP1 = r"(?:\w+ ){0,1}"

_AI = r"(?:ai|a i|agent|assistant|llm|language model|model|bot|chatbot|copilot|claude|gpt|chatgpt|gemini|autopilot)"
_ACT = (r"(?:click|press|tap|type|enter|select|choose|open|visit|go to|navigate|download|install|run|execute|"
        r"allow|accept|approve|confirm|verify|grant|enable|disable|call|contact|send|transfer|pay|update|"
        r"log ?in|sign ?in|submit|reply|forward|share|copy|paste|delete|remove|follow)")
_OVERRIDE = r"(?:ignore|disregard|forget|override|overrule|bypass|skip|abandon|drop|stop following|do not follow)"
_PRIOR = (r"(?:previous|prior|above|earlier|original|preceding|initial|old|all|any|your|the user s|system|safety|"
          r"the|these|those|that|this|my|current|given|assigned)")
_RULES = (r"(?:instructions?|prompts?|directives?|rules|guidelines|guardrails|restrictions|constraints|polic(?:y|ies)|"
          r"orders|commands|task|tasks|goal|objective|programming|training)")
_YOU = r"(?:you|u|agent|assistant)"
_MUST = (r"(?:need to|needs to|have to|has to|must|should|are required to|are instructed to|are supposed to|"
         r"are expected to|will need to|re required to|are to|shall)")
_OBJ = (r"(?:identity|account|accounts|password|passcode|pin|login|log in|credentials?|card|credit card|debit card|"
        r"card details|payment (?:details|method|information|info)|billing (?:details|information|info|address)?|"
        r"bank (?:details|account)|social security(?: number)?|ssn|personal (?:details|information|info)|"
        r"details|information|info|apple id|security questions?|(?:shipping|delivery) (?:address|details|"
        r"information|info))")

_PATTERNS: dict[str, tuple[str, ...]] = {
    "address": (
        rf"\b(?:hey|hi|hello|dear|attention|note|message|instructions?|important|notice|reminder|warning) "
        rf"(?:to |for )?(?:the |all |any |every |our |this )?{_AI}s?\b",
        rf"\b(?:if|when|since) you (?:are|re) (?:an? )?(?:ai|autonomous|automated|{_AI})\b",
        rf"\bas an? (?:ai|automated|autonomous) ?{_AI}?\b",
        rf"^(?:the |an? )?(?:ai |automated )?{_AI}s? (?:please|must|should|needs? to|has to|shall)\b",
        r"\b(?:ai|automated|autonomous) (?:assistant|agent|model|system)s? (?:please|must|should|needs? to|"
        r"has to|shall|reading this)\b",
        r"\bto (?:any|all|every) (?:ai|automated|autonomous) ",
    ),
    "obligation": (
        rf"\b{_YOU} {_MUST} (?:now |immediately |first |also |quickly |urgently )?{_GAP1}{_ACT}\b",
        rf"^(?:please |kindly )?(?:just )?(?:{_ACT}) (?:ok|yes|allow|continue|confirm|accept|here|below|the button)"
        rf"(?: now| immediately| right now| to continue| to proceed)\b",
        r"\b(?:please |kindly |must |now |and |then )(?:click|press|tap|select|hit) (?:on )?(?:ok|yes|allow|continue|"
        r"confirm|accept|the (?:\w+ )?(?:button|link|icon|box))\b",
        r"\b(?:click|press|tap) (?:on )?(?:ok|yes|allow|accept) (?:to|and|now|immediately|or)\b",
    ),
    "override": (
        rf"\b{_OVERRIDE} {_GAP}{_PRIOR} {_GAP1}{_RULES}\b",
        rf"\b{_OVERRIDE} (?:everything|all|anything) (?:you|that) (?:were|was|have been|ve been) "
        r"(?:told|given|asked)\b",
        r"\b(?:your|the) (?:new|real|actual|true|updated|next|only) (?:task|goal|objective|mission|job|"
        r"instructions?|priority) (?:is|are|now is|will be)\b",
        r"\b(?:do not|don t|never) (?:tell|inform|notify|alert|ask|warn|mention (?:this )?to) (?:the |your )?"
        r"(?:user|human|person|operator|owner)\b",
        r"\bwithout (?:asking|telling|informing|notifying|confirming with|consulting) (?:the |your )?"
        r"(?:user|human|person|operator)\b",
        r"\b(?:the |your )?(?:user|human|operator|owner) (?:has |already )*(?:authori[sz]ed|approved|permitted|"
        r"allowed|instructed|wants|asked) (?:you|the agent|the assistant)\b",
        r"\bfrom now on,? you (?:are|will|must|should)\b",
        r"\b(?:pretend|act as if|imagine) (?:you are|you re|to be)\b",
        r"\bthis is (?:a |an )?(?:system|admin|administrator|developer|official|security) "
        r"(?:message|instruction|command|directive|override|notice)\b",
    ),
    "pressure": (
        r"\b(?:urgent|urgently|immediately|right away|right now|act now|asap|as soon as possible|final (?:notice|"
        r"warning|reminder)|last (?:chance|warning|notice)|time sensitive|action required|respond now|"
        r"expires? (?:today|tonight|soon|in \d+)|limited time|do not (?:ignore|delay|close)|don t (?:ignore|delay))\b",
        r"\bwithin (?:the next )?\d+ (?:seconds?|minutes?|mins?|hours?|hrs?|days?)\b",
        r"\b(?:account|device|computer|pc|card|subscription|access|service|profile|mailbox|email|password|"
        r"membership|wallet|data|files)s? (?:will be|has been|have been|is being|are being|was|were|is|are|may be|"
        r"could be|gets?) (?:permanently |temporarily |now )?(?:suspended|locked|closed|deleted|disabled|terminated|"
        r"blocked|restricted|frozen|deactivated|compromised|hacked|expired|expiring|at risk|encrypted|lost|"
        r"limited|on hold|cancell?ed)\b",
        r"\b(?:unusual|suspicious|unauthori[sz]ed|strange|unknown) (?:sign ?in |log ?in |login )?(?:activity|"
        r"attempts?|access|charges?|transactions?|payments?|sign ?ins?|log ?ins?|logins?)\b",
        r"\bsecurity (?:alert|warning|breach|threat|notice|risk|issue|problem)\b",
        r"\b(?:to avoid|or (?:else )?(?:your|you will|face)|failure to (?:comply|respond|verify|act))\b",
    ),
    "credential": (
        rf"\b(?:confirm|verify|validate|update|re ?enter|reenter|re ?confirm|"
        rf"re ?activate|reactivate|restore|unlock|secure|authenticate) {_GAP1}(?:your|you r|the account s) "
        rf"{_GAP1}{_OBJ}\b",
        r"\b(?:sign|log) ?in (?:again )?to (?:verify|confirm|restore|unlock|secure|keep|avoid|continue using)\b",
        r"\b(?:identity|account|payment|billing) (?:verification|confirmation|validation) (?:is )?"
        r"(?:required|needed|pending)\b",
    ),
    "secret request": (
        r"\b(?:send|tell|email|e mail|text|message|give|share|dm|forward|read out|reply with|disclose|reveal) "
        r"(?:me |us |back |over |here |below )?(?:\w+ ){0,2}(?:your|the|their|his|her|his or her) (?:\w+ )?"
        r"(?:password|passcode|pin|login|credentials|otp|one time code|verification code|2fa code|security code|"
        r"card number|cvv|social security number|ssn|bank details|seed phrase|recovery phrase|private key)s?\b",
        r"\b(?:what is|what s) your (?:password|passcode|pin|otp|verification code|card number|cvv|ssn|"
        r"social security number|seed phrase)\b",
    ),
    "scare": (
        r"\b(?:device|computer|pc|system|phone|mac|laptop|browser|windows|files?) (?:is|are|has been|have been|"
        r"may be|might be|appears? to be|seems? to be|was|were) (?:infected|hacked|compromised|damaged|corrupted|"
        r"at risk|out of date|outdated|vulnerable|under attack|not protected|unprotected|blocked)\b",
        r"\b(?:virus|viruses|malware|trojans?|spyware|ransomware|adware|threats?|infections?) (?:detected|found|"
        r"alert|warning|removal)\b|\b(?:\d+|several|multiple) (?:viruses|threats|infections|trojans)\b",
        r"\b(?:critical|urgent|important|mandatory|required|emergency|security) (?:system |software |windows "
        r"|browser |driver |flash |java )?(?:update|upgrade|patch|fix)e?s? (?:is |are )?(?:required|needed|"
        r"available now|now|pending|must)\b",
        r"\b(?:update|upgrade|install|download) (?:your |the )?(?:flash|flash player|java|browser|chrome|firefox|"
        r"driver|drivers|codec|media player|video player|antivirus|security patch|cleaner)s? (?:now|immediately|"
        r"to (?:continue|view|play|watch|fix|protect|remove))\b",
        r"\b(?:scan|clean|fix|repair|remove|clear) (?:your |the )?(?:computer|device|pc|system|virus|viruses|"
        r"threats?|malware|infection)s? (?:now|immediately|for free|here)\b",
        r"\bcall (?:microsoft|apple|windows|tech(?:nical)? support|support|the help ?desk)\b.{0,40}\b"
        r"(?:now|immediately|toll free|\d{3})\b|\bcall (?:microsoft|apple|windows) (?:support|now)\b",
    ),
    "lure": (
        r"\b(?:click|tap|press) (?:here|below|now|this|the button|ok) (?:to )?(?:claim|collect|redeem|receive|get|"
        r"win|unlock)\b",
        r"\b(?:claim|collect) (?:your |the |a )?(?:\w+ ){0,3}(?:prize|reward|gift|bonus|refund|winnings|"
        r"voucher|gift card|iphone|cash|money|crypto|tokens|airdrop)s?\b",
        r"\byou (?:have |ve )?(?:won|been selected|been chosen|are (?:the |our )?(?:lucky )?winner)\b",
        r"\bcongratulations\b.{0,60}\b(?:won|winner|selected|chosen|prize|reward|gift|eligible)\b",
        r"\b(?:free|complimentary) (?:iphone|ipad|gift card|prize|money|cash|vacation|bitcoin|crypto)\b",
        r"\b(?:earn|make|making|earning) (?:up to )?\d[\d ]*(?:k )?(?:dollars |usd |eur )?(?:\w+ ){0,2}"
        r"(?:per|a|each|every) "
        r"(?:hour|day|week|month)\b|\b(?:double|triple|10x) your (?:bitcoin|crypto|money|investment|deposit)\b",
        r"\b(?:guaranteed|risk free|risk-free) (?:returns?|profits?|income|earnings)\b|\bget rich\b|"
        r"\bhot singles\b|\blose \d+ ?(?:kg|kilos?|lbs?|pounds) in (?:a|one|\d+) (?:week|day|month)s?\b|"
        r"\b(?:miracle|secret) (?:cure|pill|trick)\b",
    ),
}

CUES: tuple[str, ...] = tuple(_PATTERNS)
_COMPILED: dict[str, re.Pattern[str]] = {
    name: re.compile("|".join(f"(?:{p})" for p in pats), re.MULTILINE) for name, pats in _PATTERNS.items()
}
# A cheap prefilter: a text with none of these words cannot match any cue (most labels: "Save", "Next").
_TRIGGER_WORDS = """
hey hi hello dear attention note message instruction instructions important notice reminder warning if when since
as ai agent agents assistant assistants llm model bot chatbot copilot claude gpt chatgpt gemini autopilot automated
autonomous to ignore disregard forget override overrule bypass skip abandon drop stop do don never you u your the
without user human operator owner from pretend act imagine this urgent urgently immediately right asap final last
time action respond expire expires limited within account device computer pc card subscription access service
profile mailbox email password membership wallet data files unusual suspicious unauthorized unauthorised strange
unknown security or failure confirm verify validate update re reenter provide submit enter give share reactivate
restore unlock secure authenticate sign log identity payment billing phone mac laptop browser windows file virus
viruses malware trojan trojans spyware ransomware adware threat threats infection infections critical mandatory
required emergency upgrade install download scan clean fix repair remove clear call click tap press claim collect
redeem congratulations free complimentary several multiple an a tell text dm forward read type what s
earn make making earning double triple 10x guaranteed risk get hot lose miracle secret
"""
_TRIGGERS = frozenset(_TRIGGER_WORDS.split())


class Steering(NamedTuple):
    cues: tuple[str, ...]  # the kinds of cue found, in CUES order
    quote: str  # the first matching words, for a person

    @property
    def manipulative(self) -> bool:
        """Two different kinds of cue together (an order with pressure, a threat with a credential request)."""
        return len(self.cues) >= 2

    @property
    def aimed_at_agent(self) -> bool:
        """A cue that has no place in text a person writes to another person."""
        return not {"address", "override", "secret request", "scare", "lure"}.isdisjoint(self.cues)


# "Assistant, open the settings": an AI named first and set off by a comma or colon (read on the form
# that keeps punctuation, `norm`)
_VOCATIVE = re.compile(rf"^(?:(?:hey|hi|hello|ok|okay|dear|attention|yo) )?(?:the |my |an? )?(?:ai |automated )?"
                       rf"{_AI}s?\s*[,:;!]", re.MULTILINE)


def steering(words: str, norm: str = "") -> Steering | None:
    """The steering cues in `words` (normalised word form), or None when there are none. `norm` (the same
    text with its punctuation kept) lets an AI addressed by name ("Assistant, ...") count as an address."""
    if not words:
        return None
    vocative = _VOCATIVE.search(norm[:200]) if norm else None
    if vocative is not None and len(norm[vocative.end():].split()) >= 3:  # "AI: summary" is a heading
        found = steering(words)
        if found is None:
            return Steering(("address",), vocative.group(0))
        if "address" not in found.cues:
            return Steering(("address", *found.cues), found.quote)
        return found
    # labels repeat (agents click the same buttons): cache short texts; a long typed text is not worth a slot
    return _steering_cached(words) if len(words) <= 512 else _steering(words)


def _steering(words: str) -> Steering | None:
    # a pop-up's text wraps over lines: a phrase may run across a line break
    words = words.replace("\n", " ")
    if len(words) < 4096 and _TRIGGERS.isdisjoint(words.split()):
        return None
    found: list[str] = []
    quote = ""
    for name in CUES:
        m = _COMPILED[name].search(words)
        if m is not None:
            found.append(name)
            quote = quote or m.group(0)
    if found == ["pressure"] and words.count(" ") < 3:
        return None  # "Urgent", "Mark as urgent": a priority a ticket can have, not pressure on anyone
    return Steering(tuple(found), quote) if found else None


_steering_cached = functools.lru_cache(maxsize=2048)(_steering)
