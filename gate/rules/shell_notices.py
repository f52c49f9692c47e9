"""Shell checks: desktop notifications and message boxes that phish.

A notification or a dialog comes from the system, or so a person reads it: a line that raises one saying an
account's password expires, a session ended or an identity must be verified, with a link or a button to act on,
is a phishing lure planted on the person's own screen (ATT&CK T1566 delivered locally, as LOOBins records for
`osascript display dialog`). The programs: terminal-notifier and alerter (macOS), `osascript -e 'display
notification|dialog|alert'`, notify-send, dunstify, zenity, yad, kdialog, xmessage, gxmessage (Linux),
BurntToast's `New-BurntToastNotification` / `Submit-BTNotification` and `msg` (Windows).

Judged by what the text says and where it leads, with the lure book's words (`gate/lures.py`) and the
destination book's lookalike names (`gate/destinations.py`): a link to a lookalike of a brand or a bare public
address blocks; an account lure ("password expires", "session expired", "verify your account") with a call to
act (a link, a button, "click", "update now") blocks, and so does a threat to the machine ("virus detected")
with a number to call. "Backup finished" and a link to the build's own page pass.
A dialog that asks for the password itself is `block.shell.credential-dump` (gate/rules/shell_credentials.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate import lures
from gate.destinations import judge as destination
from gate.model import Risk
from gate.shell import Command, Finding, ShellAnalysis

__all__ = ["NAMES", "WHOLE_CUES", "judge", "whole"]

NAMES = frozenset({"terminal-notifier", "alerter", "osascript", "notify-send", "dunstify", "zenity", "yad",
                   "kdialog", "xmessage", "gxmessage", "new-burnttoastnotification", "submit-btnotification",
                   "msg", "growlnotify", "hs", "herbe", "toast", "wintoast", "snoretoast",
                   # the admins' dialog tools on macOS (swiftDialog, jamfHelper, IBM Notifier, cocoaDialog) and the
                   # terminal's `dialog`: the same message box, with a title and buttons a person trusts
                   "dialog", "jamfhelper", "ibmnotifier", "cocoadialog", "pashua"})
# osascript only raises a notice through these
_OSA_NOTICE = re.compile(r"display\s+(notification|dialog|alert)", re.I)
# account lures a notice says beyond the lure book's claims: the session or account stopped, a verification owed
_ACCOUNT_LURE = re.compile(
    r"\b(session (has )?(expired|ended|timed out)|(verify|confirm|validate|re ?enter|re ?confirm|update|restore|"
    r"unlock|reactivate) (your )?(identity|account|password|credentials|login|sign in|apple id|billing|"
    r"payment (details|method|info))|account (is |has been |will be )?(locked|suspended|disabled|on hold|"
    r"restricted|deactivated)|sign in (again|to keep|to continue|to restore)|password (expires|expired|will "
    r"expire|is expiring)|unusual sign ?in|(apple id|icloud|microsoft account|google account|office 365|"
    r"microsoft 365|outlook|paypal|bank) (alert|security|verification|locked|suspended))\b")
# the companies whose accounts such notices pretend to speak for: a lure signed with one needs no link to work
# (the person goes to "verify" where the notice says)
_ACCOUNT_BRAND = re.compile(r"\b(apple|apple id|icloud|microsoft|office 365|microsoft 365|outlook|windows security|"
                            r"google|gmail|paypal|amazon|netflix|facebook|instagram|whatsapp|dropbox|docusign|"
                            r"coinbase|binance|it (help ?desk|support|department)|helpdesk|your bank)\b")
# a fake security alert: a threat to the machine, and a number to call (tech-support scams, FTC)
_THREAT = re.compile(r"\b(virus(es)?|infected|infection|malware|trojan|spyware|ransomware|hacked|compromised|"
                     r"(computer|pc|mac|device|system) (is |has been )?(locked|blocked|at risk))\b")
_CALL = re.compile(r"\b(call|phone|ring|dial|contact|helpline|hotline)\b")
_PHONE = re.compile(r"(?<![\w+])\+?\d[\d ().-]{8,16}\d(?!\w)")
# the arguments that put a link or a button on the notice
_ACT_FLAGS = frozenset({"-open", "-execute", "-actions", "-closelabel", "-reply", "--action", "-a", "-button",
                        "-buttons", "-activationtype", "-launch"})
_IPV4 = re.compile(r"^(\d{1,3}\.){3}\d{1,3}$")
_PRIVATE = re.compile(r"^(10\.|127\.|0\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)")

Add = Callable[[Finding], None]


def _bad_link(text: str) -> str:
    """A link of the text to a lookalike of a brand or a lure-named host, or to a bare public address, or ""."""
    for host in lures.links(text):
        if _IPV4.match(host):
            if not _PRIVATE.match(host):
                return f"a bare address ({host})"
            continue
        after = text.lower().partition(host)[2]
        path = after.split(None, 1)[0].rstrip("'\")") if after[:1] == "/" else ""
        verdict = destination(host, path)
        if verdict is not None and verdict.level == "block":
            return f"{host} ({verdict.why[:80]})"
    return ""


def _lure(text: str, words: tuple[str, ...]) -> str:
    """Why a notice's text phishes (module docstring), or ""."""
    link = _bad_link(text)
    if link:
        return f"links to {link}"
    said = lures.words(text)
    if (threat := _THREAT.search(said)) and (lures.call_back(text) or (_CALL.search(said) and _PHONE.search(text))):
        return f"says \"{threat.group(0)}\" and gives a number to call: a fake security alert"
    lure = lures.phishing_claim(text) or lures.asks_secret(text) or \
        ((m := _ACCOUNT_LURE.search(said)) and m.group(0))
    if not lure:
        return ""
    if lures.links(text) or lures.told_to_follow(text) or any(w in _ACT_FLAGS for w in words) or "btbutton" in said:
        return f"says \"{lure}\" and asks to act on it"
    brand = _ACCOUNT_BRAND.search(said)
    return f"says \"{lure}\" in the name of {brand.group(0)}" if brand else ""


def judge(cmd: Command, where: str, add: Add) -> None:
    """A notice or message box raised with a credential lure or a link to a lookalike (module docstring)."""
    name = cmd.name
    text = cmd.span
    if name == "osascript" and not _OSA_NOTICE.search(text):
        return
    if name == "hs" and "hs.notify" not in text and "hs.dialog" not in text:
        return
    if len(cmd.argv) < 2:
        return
    if what := _lure(text, cmd.words[1:]):
        add(Finding("block.shell.phishing-notice", Risk.CRITICAL,
                    f"{name} raises a notice that {what}: a phishing lure on the person's own screen{where}",
                    cmd.span))


# message boxes raised by a .NET or COM call, or by VBScript: their text is inside the call, not in words
_BOX_CALL = re.compile(r"messagebox\]::show\s*\(|\.popup\s*\(|\bmsgbox\b|toastnotificationmanager", re.I)
WHOLE_CUES = ("essagebox", "opup", "sgbox", "oast")


def whole(analysis: ShellAnalysis, add: Add) -> None:
    """A message box raised by a method call (`[System.Windows.MessageBox]::Show(...)`, WScript.Shell's Popup,
    VBScript's MsgBox) whose text phishes."""
    source = analysis.source[:4096]
    m = _BOX_CALL.search(source)
    if m is None:
        return
    if what := _lure(source[m.start():], ()):
        add(Finding("block.shell.phishing-notice", Risk.CRITICAL,
                    f"raises a message box that {what}: a phishing lure on the person's own screen",
                    source[m.start():m.start() + 200]))
