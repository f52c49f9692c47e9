"""Shell checks: personal libraries exported, then sent away in the same line.

The photo library, messages, contacts, calendars and call history are a person's records of their own life and of
the people in it. Exporters made for them (osxphotos, imessage-exporter, icloudpd, gphotos-sync, Signal's and
WhatsApp's chat exporters) write them into a folder of the caller's choosing; a copy or a database dump of the
library does the same. When a later command of the line sends that folder, an archive of it, or a file in it
to another machine (rclone to a remote, scp or rsync to a host, an upload by an HTTP client or a cloud CLI), the
records leave the machine: `block.shell.exfiltration`. Exported to a local disk or a folder of the project and
kept there, nothing leaves; that asks or passes as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.rules.shell_vocab import _uploaded_files
from gate.shell import Command, Finding, ShellAnalysis, resolve_path

__all__ = ["CUES", "judge"]

# exporter -> how its output folder is named: "-o"-like flags, or its first operand after the verb
_EXPORTERS: dict[str, tuple[frozenset[str], tuple[str, ...], int]] = {
    # name: (flags whose value is the output, verbs before the operands, which operand is the output)
    "osxphotos": (frozenset(), ("export",), 0),
    "imessage-exporter": (frozenset({"-o", "--export-path"}), (), -1),
    "icloudpd": (frozenset({"-d", "--directory"}), (), -1),
    "icloud_photos_downloader": (frozenset({"-d", "--directory"}), (), -1),
    "gphotos-sync": (frozenset(), (), 0),
    "gphotos-cdp": (frozenset({"-dldir"}), (), -1),
    "sigexport": (frozenset(), (), 0),
    "signal-export": (frozenset(), (), 0),
    "whatsapp-chat-exporter": (frozenset({"-o", "--output"}), (), -1),
    "wtsexporter": (frozenset({"-o", "--output"}), (), -1),
    "photos-export": (frozenset({"-o", "--output"}), (), 0),
    "vcard-export": (frozenset({"-o", "--output"}), (), 0),
    "khard": (frozenset(), ("export",), -1),
}
# personal libraries by their paths (macOS, Linux, Windows), lower case
_LIBRARY = re.compile(r"/library/(messages|photos|mail|calendars|application support/(addressbook|callhistorydb|"
                      r"knowledgec|com\.apple\.sharedfilelist)|containers/com\.apple\.(photos|ical|addressbook|"
                      r"mail|notes)|group containers/group\.com\.apple\.notes)(/|$)|\.photoslibrary(/|$)|"
                      r"/pictures/photos library|(^|/)(chat\.db|addressbook-v22\.abcddb|photos\.sqlite|"
                      r"callhistory\.storedata|notestore\.sqlite)$|/\.local/share/(evolution|gnome-contacts)|"
                      r"/appdata/local/packages/microsoft\.windowscommunicationsapps|/\.thunderbird/")
_COPIERS = frozenset({"cp", "rsync", "ditto", "copy-item", "cpi", "robocopy", "xcopy"})
_PACKERS = frozenset({"zip", "tar", "gtar", "bsdtar", "7z", "7za", "7zz", "rar", "ditto", "compress-archive"})
_DUMPERS = frozenset({"sqlite3"})
# what sends files to another machine, and how its destination is named
_REMOTE_COPIERS = frozenset({"scp", "rsync", "sftp", "pscp"})
_CLOUD = frozenset({"rclone", "aws", "gsutil", "az", "azcopy", "s3cmd", "mc", "gdrive", "mega-put", "croc",
                    "wormhole", "ffsend", "transfer", "dropbox_uploader.sh", "onedrive"})
# what only ever sends what it is given away (no local destination)
_SENDS_ALWAYS = frozenset({"croc", "wormhole", "ffsend", "transfer", "mega-put", "gdrive"})
_HTTP = frozenset({"curl", "curlie", "wget", "http", "https", "xh", "invoke-restmethod", "irm", "invoke-webrequest",
                   "iwr"})
# cues in the line's text that one of these is present (one substring test per line first)
CUES = ("photos", "message", "icloud", "export", "library", "chat.db", "addressbook", "sigexport", "whatsapp",
        "calendars", "callhistory", "thunderbird")
_REMOTE_SPEC = re.compile(r"^(?:[\w.-]+@)?(?P<host>[\w.-]{2,}):(?!\\)")  # host:path, remote:path (not C:\)
# this machine and the home network (a NAS on the LAN, mDNS names): a backup kept at home
_HOME_NETWORK = re.compile(r"^(localhost|127\.[\d.]+|10\.[\d.]+|192\.168\.[\d.]+|172\.(1[6-9]|2\d|3[01])\.[\d.]+|"
                           r"[\w-]+\.(local|lan|home\.arpa|internal))$")

Add = Callable[[Finding], None]


def _path(cmd: Command, word: str) -> str:
    return (resolve_path(word, cmd.cwd or None) or word).lower().rstrip("/")


def _operands(words: tuple[str, ...], valued: frozenset[str]) -> list[str]:
    out, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w.startswith("-"):
            skip = w in valued
        else:
            out.append(w)
    return out


def _exported(cmd: Command) -> str:
    """The folder an exporter of a personal library writes, or ""."""
    flags, verbs, index = _EXPORTERS[cmd.name]
    words = cmd.words[1:]
    for k, w in enumerate(words):
        if w in flags and k + 1 < len(words):
            return _path(cmd, cmd.argv[k + 2])
        if "=" in w and w.split("=", 1)[0] in flags:
            return _path(cmd, w.split("=", 1)[1])
    if index < 0:
        return ""
    ops = _operands(words, flags)
    if verbs:
        if not ops or ops[0] not in verbs:
            return ""
        ops = ops[1:]
    pathlike = [o for o in ops if o.startswith(("/", "~", ".")) or "/" in o or "\\" in o]
    if pathlike:  # (a folder among the operands: the destination, wherever the options put it)
        return _path(cmd, pathlike[0])
    return _path(cmd, ops[index]) if len(ops) > index else ""


def _within(path: str, staged: dict[str, str]) -> str:
    """What was staged at `path`, inside it, or in a folder holding it: its description, or ""."""
    for place, what in staged.items():
        if path == place or path.startswith(place + "/") or place.startswith(path + "/"):
            return what
    return ""


def _sends(cmd: Command, staged: dict[str, str]) -> tuple[str, str]:
    """(what, to where) when `cmd` sends a staged path to another machine, else ("", "")."""
    name = cmd.name
    words = [w for w in cmd.argv[1:] if not w.startswith("-")]
    if name in _HTTP:
        for f in _uploaded_files(cmd):
            if what := _within(_path(cmd, f), staged):
                return what, name
        return "", ""
    if name in _REMOTE_COPIERS or name == "rclone":
        far = [w for w in words if (m := _REMOTE_SPEC.match(w)) and not w.startswith(("/", "~", ".")) and
               not _HOME_NETWORK.match(m.group("host"))]
        if not far:
            return "", ""
        for w in words:
            if w not in far and (what := _within(_path(cmd, w), staged)):
                return what, far[-1].split(":", 1)[0]
        return "", ""
    if name in _CLOUD:
        for w in words:
            what = _within(_path(cmd, w), staged)
            if what and (name in _SENDS_ALWAYS or any("://" in x or _REMOTE_SPEC.match(x) for x in words if x != w)):
                return what, name
    return "", ""


def judge(analysis: ShellAnalysis, add: Add) -> None:
    """A personal library exported or copied in this line, then sent to another machine (module docstring)."""
    staged: dict[str, str] = {}
    for cmd in analysis.commands:
        name = cmd.name
        if name in _EXPORTERS:
            if out := _exported(cmd):
                staged[out] = f"what {name} exported"
            continue
        if name in _COPIERS or name in _PACKERS or name in _DUMPERS:
            paths = [(w, _path(cmd, w)) for k, w in enumerate(cmd.argv[1:], 1)
                     if not w.startswith("-") and k not in cmd.dynamic]
            source = next((w for w, p in paths if _LIBRARY.search(p)), "") or \
                next((staged_what for _, p in paths if (staged_what := _within(p, staged))), "")
            if source:
                what = source if " " in source else f"the personal library {source[:60]}"
                targets = [p for w, p in paths if not _LIBRARY.search(p) and not _within(p, staged)]
                targets += [t for op, t in cmd.redirects if op in (">", ">>")]
                for t in targets:
                    staged[t.lower().rstrip("/")] = what
                if name in _PACKERS and paths:
                    staged[paths[0][1]] = what
        if staged and (name in _HTTP or name in _REMOTE_COPIERS or name in _CLOUD or name == "rclone"):
            what, where = _sends(cmd, staged)
            if what:
                add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                            f"sends {what} (personal photos, messages or contacts) to {where} with {name}: the "
                            f"records leave the machine", cmd.span))
                return
