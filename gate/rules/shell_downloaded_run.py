"""Rules: a program in the Downloads folder run from a command line.

    block.shell.downloaded-disguised-program  a screensaver, a PIF, an HTA or a shortcut file run from Downloads
                                              (or a mail client's attachment folder): the forms mail and chat
                                              attachments take to pass as photos and documents
    confirm.shell.downloaded-silent-install   an installer in Downloads run with a silent switch (`/S`,
                                              `/silent`, `/quiet`, `/qn`): it installs without showing what

Opening a PDF or a picture from Downloads, and running an installer there with its own windows, are left to the
other rules.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.shell import command_facts

__all__ = ["RULES"]

_FOLDER = r"(?:downloads|content\.outlook|inetcache|attachments?|telegram desktop)"
# a file under such a folder, quoted or not, with the program types no document or photo uses
_DISGUISED = re.compile(r"[\\/]" + _FOLDER + r"[\\/][^\"'\r\n|&;<>]{0,160}?\.(?:scr|pif|hta|cpl|lnk|jse|vbe|wsf)"
                        r"(?=[\"'\s]|$)", re.IGNORECASE)
_INSTALLER = re.compile(r"[\\/]downloads[\\/][^\"'\r\n|&;<>]{0,160}?\.(?:exe|msi)[\"']?\s+(?:[^\r\n|&;]{0,80}\s)?"
                        r"(?:/s|/silent|/verysilent|/quiet|/qn|/passive|--silent|-silent|/q)(?=\s|$)",
                        re.IGNORECASE)


def _command(ctx: Context) -> str:
    """The command line the action runs: a shell action's, or a line typed into a terminal."""
    analysis = ctx.derived(command_facts)
    return analysis.source[:4000] if analysis is not None else ""


@rule("block.shell.downloaded-disguised-program", "Runs a screensaver, PIF, HTA or shortcut file from Downloads",
      risk=Risk.CRITICAL, types=("shell", "type"), confidence=0.8)
def downloaded_disguised_program(ctx: Context) -> CheckResult:
    """The command runs a `.scr`, `.pif`, `.hta`, `.cpl`, `.lnk` or script file that sits in Downloads or a mail
    or chat app's attachment folder: these run as programs though they are sent as "photos" and "complaints", the
    form booking-site and marketplace phishing attachments take. A document opened from there is not here."""
    m = _DISGUISED.search(_command(ctx))
    if m is None:
        return None
    return f"runs {m.group(0).strip()[-60:]!r} from a download folder: a program dressed as an attachment"


@rule("confirm.shell.downloaded-silent-install", "Runs an installer from Downloads with a silent switch",
      risk=Risk.HIGH, types=("shell", "type"), confidence=0.65)
def downloaded_silent_install(ctx: Context) -> CheckResult:
    """The command runs an `.exe` or `.msi` from Downloads with a silent switch (`/S`, `/silent`, `/quiet`,
    `/qn`): it installs with no window saying what or where, the step "interview software" and "support tools"
    that a message sent ask for. The same installer run with its windows is left to the other rules."""
    m = _INSTALLER.search(_command(ctx))
    if m is None:
        return None
    return "installs a downloaded program silently: nothing shows what it puts on the machine"


RULES: tuple[Rule, ...] = (downloaded_disguised_program, downloaded_silent_install)
