"""Rules: a file put where Windows or macOS starts it by itself, in the shape attackers give it.

`confirm.files.runs-later` asks for every file written where it runs later. These refuse the members of that
class a careful person would not allow at all (ATT&CK T1547.001, T1546.013, T1543.001):

- a script or shortcut (.cmd, .bat, .vbs, .js, .wsf, .hta, .ps1, .lnk) written or moved into a Startup folder: it
  runs at every logon, a shell the person never sees (a document or a note there still asks);
- a PowerShell profile written with a hidden start, an encoded command, a policy bypass or a download: it runs in
  every PowerShell session the person opens (an alias or a module import asks);
- a launchd job (LaunchAgents, LaunchDaemons) whose file name starts with a dot (hidden from a listing), or whose
  ProgramArguments run a shell or interpreter given code (`sh -c`, `python -c`, `osascript -e`), a downloader, or
  a program in /tmp, /Users/Shared or a hidden folder (a job for an installed application asks);
- a launchd job outside /System/Library whose file name or Label wears Apple's name (`com.apple.*`): Apple's own
  jobs ship in /System/Library, sealed, so one written elsewhere under that name is a job dressed as the system.

The paths are read as written (`\\` or `/`, any case, `%APPDATA%`), so a Windows path is judged on any host.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES"]

_STARTUP_FOLDER = re.compile(r"/start menu/programs/startup/[^/]+$|/shell:(?:common )?startup/[^/]+$")
_STARTUP_SCRIPT = re.compile(r"\.(?:cmd|bat|vbs|vbe|js|jse|wsf|wsh|hta|ps1|lnk|url|scf|sct|pif|com)$")
_PS_PROFILE = re.compile(r"(?:^|/)(?:documents/(?:windows)?powershell|system32/windowspowershell/v1\.0|"
                         r"\.config/powershell|%pshome%|\$pshome)/(?:[\w.]+_)?profile\.ps1$")
# what a profile does that no one's own profile needs: start something hidden, run encoded or downloaded code,
# switch the script policy off
_PROFILE_HIDDEN = re.compile(
    r"-w(?:indowstyle)?\s+['\"]?(?:h(?:idden)?|1)\b|windowstyle\s*=\s*['\"]?hidden|createnowindow\s*=\s*\$true|"
    r"(?:^|\s)-e(?:nc|ncodedcommand)?\s+[a-z0-9+/=]{12,}|frombase64string|-executionpolicy\s+bypass|-ep\s+bypass|"
    r"\b(?:downloadstring|downloadfile|downloaddata|invoke-webrequest|iwr|invoke-restmethod|irm|start-bitstransfer|"
    r"wget|curl)\b[^\n]*https?://|net\.webclient|https?://[^\s'\"]+\s*\)?\s*\|\s*(?:iex|invoke-expression)|"
    r"\biex\s*\(|invoke-expression\s*\(", re.I)
_LAUNCHD = re.compile(r"/library/launch(?:agents|daemons)/([^/]+)$")
_PLIST_ARGS = re.compile(r"<key>\s*(?:ProgramArguments|Program)\s*</key>\s*(<array>.*?</array>|<string>.*?</string>)",
                         re.S | re.I)
_PLIST_STRING = re.compile(r"<string>(.*?)</string>", re.S)
_CODE_FLAG = {"sh": "-c", "bash": "-c", "zsh": "-c", "dash": "-c", "ksh": "-c", "csh": "-c", "tcsh": "-c",
              "python": "-c", "python3": "-c", "python2": "-c", "perl": "-e", "ruby": "-e", "osascript": "-e",
              "node": "-e", "php": "-r", "pwsh": "-c", "swift": "-e"}
_DOWNLOADERS = frozenset({"curl", "wget", "nscurl", "ftp", "nc", "ncat", "socat"})
# Apple's own reverse-DNS prefix, in a job's file name or its Label
_APPLE_LABEL = re.compile(r"^com\.apple\.", re.I)
_PLIST_LABEL = re.compile(r"<key>\s*Label\s*</key>\s*<string>\s*([^<]*?)\s*</string>", re.I)
_MAC_STAGED = re.compile(r"^(?:/tmp|/private/tmp|/var/tmp|/private/var/tmp|/users/shared)(?:/|$)|/\.[^/.][^/]*(?:/|$)")


def _as_written(path: str) -> str:
    return path.replace("\\", "/").lower()


def _launchd_reason(name: str, content: str) -> str | None:
    if name.startswith("."):
        return "its file name starts with a dot, hidden from a listing"
    if _APPLE_LABEL.match(name):
        return "its file name wears Apple's name (com.apple.), though Apple's own jobs live in /System/Library"
    label = _PLIST_LABEL.search(content)
    if label is not None and _APPLE_LABEL.match(label.group(1)):
        return f"its Label {label.group(1)[:60]!r} wears Apple's name, though Apple's own jobs live in /System/Library"
    for m in _PLIST_ARGS.finditer(content):
        words = [w.strip() for w in _PLIST_STRING.findall(m.group(1))]
        if not words:
            continue
        program = words[0].rsplit("/", 1)[-1].lower()
        flag = _CODE_FLAG.get(re.sub(r"[\d.]+$", "", program), _CODE_FLAG.get(program))
        if flag is not None and flag in words[1:]:
            return f"it runs {program} {flag} with code of its own"
        if program in _DOWNLOADERS or any(w.rsplit("/", 1)[-1].lower() in _DOWNLOADERS for w in words[1:3]):
            return "it runs a downloader"
        staged = next((w for w in words if w.startswith("/") and _MAC_STAGED.search(w.lower())), None)
        if staged is not None:
            return f"it runs {staged}, in a temporary, shared or hidden folder"
    return None


@rule("block.files.hidden-autostart", "A script or job put where it starts by itself, in an attacker's shape",
      risk=Risk.CRITICAL, types=("file_write", "file_move"))
def hidden_autostart(ctx: Context) -> CheckResult:
    """A script or shortcut written or moved into a Startup folder; a PowerShell profile written with a hidden
    start, an encoded command, a policy bypass or a download; a launchd job whose file name starts with a dot or
    wears Apple's name (a `com.apple.` file name or Label outside /System/Library), or whose program is a shell or
    interpreter given code, a downloader, or a program in /tmp, /Users/Shared or a hidden folder: each starts by
    itself at every logon, unseen (ATT&CK T1547.001, T1546.013, T1543.001)."""
    action = ctx.action
    target = getattr(action, "to", None) if ctx.type == "file_move" else getattr(action, "path", None)
    if not target:
        return None
    path = _as_written(target)
    content = getattr(action, "content", "") or ""
    if _STARTUP_FOLDER.search(path) and _STARTUP_SCRIPT.search(path):
        return f"puts {target.replace(chr(92), '/').rsplit('/', 1)[-1]}, a script or shortcut, in the Startup " \
            "folder: it runs at every logon"
    if _PS_PROFILE.search(path) and content and _PROFILE_HIDDEN.search(content[:20_000]):
        return "writes a PowerShell profile that starts something hidden, encoded or downloaded in every session"
    if (m := _LAUNCHD.search(path)) is not None and m.group(1).endswith(".plist") and \
            not path.startswith(("/system/library/", "/private/system/")):
        name = target.replace("\\", "/").rsplit("/", 1)[-1]
        reason = _launchd_reason(name, content[:50_000])
        if reason is not None:
            return f"writes the launchd job {name}, which starts at every login: {reason}"
    return None


# the same class judged by content (a script the agent writes, a CI pipeline, a start-up file, a system-looking name)
from gate.rules import autorun_files  # noqa: E402

RULES: tuple[Rule, ...] = (hidden_autostart, *autorun_files.RULES)
