"""Rules: files that make Windows fetch from another machine when they are opened, shown or listed.

A web page, an SVG, an e-mail, an Office part, a shortcut (`.url`, `.lnk`), a folder's `desktop.ini`, a theme, a
library (`.library-ms`), a search connector (`.searchConnector-ms`) or a shell command file (`.scf`) that points at
a share on another host (`\\\\host\\share`, `file://host/x`, `file:////host/x`, `smb://host/x`) makes Windows open
that share as soon as the file is shown: Explorer draws the icon, Outlook or a browser loads the image. Opening a
share signs in with the person's Windows account, so the other host receives a hash of their password (NTLM) it
can crack or relay. Such a file, written directly or by a shell line (`echo`, `printf`, `Set-Content`, a
here-document, a PowerShell shortcut's `IconLocation`), blocks; an `.scf` file blocks whatever it holds (it does
nothing else today).

Kept out: pages with relative or `https://` images, `file:///` paths on this machine, `file://localhost/`, a share
named in a page's text rather than loaded by it, and notes or scripts that mention a share.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules import devconfig_batch
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.files import _targets, _text_of
from gate.shell import command_facts

__all__ = ["RULES", "remote_fetch"]

# files whose references are loaded when the file is shown: markup loads what its attributes and styles name
_MARKUP = frozenset({"html", "htm", "xhtml", "shtml", "mht", "mhtml", "svg", "eml", "rels", "xml", "xsl", "xslt",
                     "vml", "emlx", "oft"})
# ... and files the Windows shell reads for an icon, a wallpaper or a location wherever the reference stands
_SHELL_READ = frozenset({"url", "website", "lnk", "library-ms", "searchconnector-ms", "theme", "themepack",
                         "deskthemepack", "scf", "rtf", "ini", "contact", "group", "search-ms", "appref-ms"})
_SHELL_NAMES = frozenset({"desktop.ini"})

# a reference to a share or a file on a host: file:// (two slashes: a host; four or more: a share), smb://,
# a UNC path (`\\host\share`, also JSON-escaped `\\\\host\\share`) or `//host/share`
_REF = re.compile(r"(?:\bfile:(?P<fs>[/\\]{2,5})|\b(?:smb|cifs)://|(?<![\\/\w:.%$])(?P<unc>\\\\(?:\\\\)?|//))"
                  r"(?P<host>\[[0-9a-fA-F:.]{2,45}\]|[A-Za-z0-9][A-Za-z0-9_.-]{0,252})(?P<sep>[\\/@:])?")
# what loads a markup reference: an attribute that fetches, a style's url(), an import, a refresh (`=3D`: quoted-
# printable e-mail); searched on the few characters before the reference
_LOADS = re.compile(r"(?:\b(?:src|href|srcset|background|poster|data|action|lowsrc|dynsrc|longdesc|codebase|target|"
                    r"xlink:href|formaction|icon|content|url)\s*(?:=|=3d)\s*[\"']?[^\"'<>\s]{0,12}|url\(\s*[\"']?|"
                    r"@import\s+[\"']?|<url>\s*)$", re.IGNORECASE)
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0", "localhost.localdomain"})
# a PowerShell or VBScript shortcut whose icon or target is set: the value is where Explorer will look
_SHORTCUT_FIELD = re.compile(r"\.(?:iconlocation|targetpath|workingdirectory)\s*=\s*[\"']?", re.IGNORECASE)
_KIND_WORDS = (".url", ".lnk", ".scf", ".library-ms", ".searchconnector-ms", ".theme", ".website", ".htm", ".svg",
               ".eml", ".rels", ".rtf", ".xml", ".mht", "desktop.ini", "iconlocation")


def _kind(path: str) -> str | None:
    """"markup", "shell" or None, by the file's name."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].strip().strip("'\"").lower()
    if name in _SHELL_NAMES:
        return "shell"
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    if ext in _SHELL_READ:
        return "shell" if ext != "ini" else None
    return "markup" if ext in _MARKUP else None


def _remote(m: re.Match[str]) -> str | None:
    """The other host a reference points at, or None when it is this machine or a path here."""
    host = m.group("host")
    low = host.lower()
    fs, unc, sep = m.group("fs"), m.group("unc"), m.group("sep")
    if fs is not None:
        if len(fs) == 3 or (len(host) == 1 and sep == ":"):
            return None  # file:///path, file://C:/path: a file on this machine
    elif unc is not None:
        if sep is None or (unc == "//" and sep != "/"):
            return None
        if unc != "//" and sep not in ("\\", "@"):
            return None
    if low in _LOCAL_HOSTS or low.startswith("127."):
        return None
    return host


def remote_fetch(text: str, kind: str) -> str | None:
    """The first other host `text`, written to a file of `kind`, makes Windows open a share on, or None."""
    if "//" not in text and "\\\\" not in text:
        return None
    for m in _REF.finditer(text):
        if m.group("unc") == "//" and kind != "shell":
            continue  # `//cdn.example/x.js` in a page is the page's own scheme
        if kind == "markup" and not _LOADS.search(text, max(0, m.start() - 40), m.start()):
            continue
        host = _remote(m)
        if host is not None:
            return host
    return None


def _why(path: str, host: str) -> str:
    return (f"{path} points at a share on {host}: opening or showing it makes Windows sign in there, handing that "
            f"host a hash of the person's password")


def _file_verdict(ctx: Context) -> str | None:
    if ctx.type != "file_write":
        return None
    path = getattr(ctx.action, "path", "") or ""
    kind = _kind(path)
    if kind is None:
        return None
    if path.lower().endswith(".scf"):
        return f"{path} is a shell command file: Explorer runs it when its folder is shown, and its icon fetches " \
               f"from wherever it points (a way to collect password hashes)"
    content = getattr(ctx.action, "content", None) or ""
    host = remote_fetch(content[:200_000], kind)
    return _why(path, host) if host is not None else None


@rule("block.files.remote-share-fetch", "a file written that makes Windows sign in to another host when shown",
      risk=Risk.CRITICAL, types=("file_write",))
def remote_share_file(ctx: Context) -> CheckResult:
    """A page, SVG, e-mail or Office part whose images, links or styles load from a share on another host, or a
    shortcut (`.url`, `.lnk`), `desktop.ini`, theme, library or search connector whose icon, wallpaper or location
    is one (`\\\\host\\share`, `file://host/`, `smb://host/`): showing the file hands that host a hash of the
    person's Windows password. An `.scf` file blocks whatever it holds. Relative and `https://` images and local
    `file:///` paths pass."""
    return _file_verdict(ctx)


def _shell_verdict(ctx: Context) -> str | None:
    action = ctx.action
    source = getattr(action, "command", None) or getattr(action, "text", None) or ""
    if not isinstance(source, str) or ("\\\\" not in source and "//" not in source and ".scf" not in source):
        return None
    low = source.lower()
    if not any(k in low for k in _KIND_WORDS):
        return _markup(source) if ctx.type == "type" or "src" in low or "href" in low else None
    m = _SHORTCUT_FIELD.search(source)
    if m is not None and (r := _REF.match(source, m.end())) is not None and (host := _remote(r)) is not None:
        return f"a shortcut's icon or target set to a share on {host}: Explorer signs in there whenever it shows the " \
               f"shortcut, handing that host a hash of the person's password"
    analysis = ctx.derived(command_facts)
    if analysis is None:
        return None
    for cmd in analysis.commands:
        for target in _targets(cmd):
            path = target.strip("'\"")
            kind = _kind(path)
            if kind is None:
                continue
            if path.lower().endswith(".scf"):
                return f"writes {path}, a shell command file: Explorer runs it when its folder is shown"
            text = _text_of(cmd, analysis)
            host = remote_fetch(text, kind) if text else None
            if host is not None:
                return "writes " + _why(path, host)
    return _markup(source)


def _markup(text: str) -> str | None:
    """Markup anywhere in a line or typed text (a mail's HTML body, a post, a page's source) that loads from a share
    on another host: whoever's mail client or browser shows it signs in there."""
    if "src" not in text.lower() and "href" not in text.lower() and "url(" not in text.lower():
        return None
    host = remote_fetch(text[:100_000], "markup")
    if host is None:
        return None
    return f"markup that loads from a share on {host}: whoever's mail client or browser shows it signs in there, " \
           f"handing that host a hash of their Windows password"


@rule("block.shell.remote-share-fetch", "a shell line writing a file that makes Windows sign in to another host",
      risk=Risk.CRITICAL, types=("shell", "type"), batch=devconfig_batch.batch)
def remote_share_shell(ctx: Context) -> CheckResult:
    """The same files written from the shell (`echo`, `printf`, `tee`, `Set-Content`, a here-document), a
    PowerShell or script shortcut whose `IconLocation` or `TargetPath` is a share on another host, and markup that
    loads from one typed or sent anywhere (a mail's HTML body, a post): whoever's client shows it signs in there."""
    return _shell_verdict(ctx)


RULES: tuple[Rule, ...] = (remote_share_file, remote_share_shell)
devconfig_batch.register(RULES)
devconfig_batch.member(remote_share_shell.id, lambda text, low: ("\\\\" in text or "//" in text or ".scf" in low) and
                       (any(k in low for k in _KIND_WORDS) or "src" in low or "href" in low or "url(" in low))
