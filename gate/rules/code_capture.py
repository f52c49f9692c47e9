"""Rules: program code that captures what the person sees, types or copies and sends it away, and code that locks
files with a key fetched from elsewhere.

Code an agent writes into a project, or runs inline (`python3 -c ...`, `node -e ...`), is how an injected
instruction turns into spyware without a single suspicious command: a "sync" module that posts the clipboard in a
loop, a "telemetry" helper that reports the user's name and the machine, an "error" hook that uploads a file. What
matters is the pair: a *capture* (clipboard, keystrokes, the screen, the user's or machine's name, the installed
packages and platform, a file's contents) and a *send* (an HTTP request, a raw socket, mail, FTP) to a host that is
not this machine.

- `block.files.code-sends-capture` / `block.shell.code-sends-capture`: the clipboard, keystrokes, the screen or the
  user's or machine's name sent (spyware, ATT&CK T1115, T1056.001, T1113, T1082 with exfiltration).
- `confirm.files.code-sends-capture` / `confirm.shell.code-sends-capture`: the platform and installed packages, or a
  file read and put into a request's body: crash reporters and uploaders do that too, so a person decides.
- `block.files.fetched-key-encrypt`: code that fetches a key over the network and encrypts a file with it, writing
  the result over the original: only whoever serves the key can read the file again (ransomware's core).

Requests to this machine (`localhost`, `127.0.0.1`) pass, as does code that reads the clipboard or the platform
without sending anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from gate.device_admin import public_ip
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.shell import Command, Finding
from gate.urls import is_loopback, split_url

__all__ = ["RULES", "RULE_DOCS", "SCREEN_NAMES", "captured_sent", "fetched_key_encrypt", "judge_inline", "judge_screen"]

# what a program reads that belongs to the person, by kind; the first two tiers block, the last asks
_CAPTURES: tuple[tuple[str, int, re.Pattern[str]], ...] = (
    ("the clipboard", 2, re.compile(
        r"\bpbpaste\b|\bxsel\b|\bxclip\b|\bwl-paste\b|get-clipboard|pyperclip\.paste|\bclipboard\.paste\b|"
        r"clipboard_get\s*\(|getclipboarddata|win32clipboard|clipboard\.readtext|"
        r"\[system\.windows\.forms\.clipboard\]|qapplication\.clipboard|gtk\.clipboard", re.I)),
    ("keystrokes", 2, re.compile(
        r"\bpynput\b|\bkeyboard\.(?:on_press|on_release|hook|read_key|read_event|record)\b|getasynckeystate|"
        r"setwindowshookex|\biohook\b|addEventListener\s*\(\s*['\"]key(?:down|up|press)['\"]|\bkeylog", re.I)),
    ("the screen", 2, re.compile(
        r"imagegrab\.grab|pyautogui\.screenshot|\bmss\s*\(\s*\)|\bscreencapture\b|gnome-screenshot|\bscrot\b|"
        r"import\s+-window\s+root|getdisplaymedia|copyfromscreen|\bgrim\b|spectacle\s+-b", re.I)),
    ("the user's or machine's name", 2, re.compile(
        r"getpass\.getuser|\bos\.getlogin\b|\bgetlogin\s*\(|socket\.gethostname|platform\.node\s*\(|os\.uname\s*\(|"
        r"os\.userinfo\s*\(|os\.hostname\s*\(|env:username|env:computername|environment\.username|"
        r"environment\.machinename|\bwhoami\b", re.I)),
    ("the platform and installed packages", 1, re.compile(
        r"platform\.(?:system|version|release|platform|machine|processor|uname|win32_ver|mac_ver|"
        r"freedesktop_os_release)\s*\(|pkg_resources\.working_set|importlib\.metadata\.distributions|"
        r"\bpip\s+(?:freeze|list)\b|os\.(?:platform|release|arch|cpus)\s*\(|\bpsutil\.", re.I)),
    ("a file's contents", 1, re.compile(
        r"(?:data|body|files|content|json)\s*=\s*(?:open\s*\([^)]*\)|\w+)\.read(?:_bytes|_text)?\s*\(|"
        r"\.send(?:all)?\s*\(\s*(?:open\s*\([^)]*\)|\w+)\.read\s*\(|readfilesync\s*\(", re.I)),
)
# what carries data off the machine from code
_SEND = re.compile(
    r"requests\.(?:post|put|patch|request)\s*\(|httpx\.(?:post|put|patch)\s*\(|urlopen\s*\(|urllib\.request\.|"
    r"http\.client\.|\.send(?:all|to)?\s*\(|\.connect\s*\(\s*\(|socket\.create_connection|smtplib\.|ftplib\.|"
    r"axios\.(?:post|put)|\bfetch\s*\([^)]*\bmethod\s*:\s*['\"](?:post|put)|sendbeacon|xmlhttprequest|"
    r"invoke-(?:restmethod|webrequest)|uploadstring|uploadfile|uploaddata|net::http\.post|\bcurl\b[^\n]*\s-(?:d|F|T)\b|"
    r"\bscp\b|\brsync\b[^\n]*:|\bnc\s", re.I)
_URL_HOST = re.compile(r"(?:https?|wss?|ftp)://(?:[^/\s'\"@]*@)?(\[[^\]]+\]|[^/\s'\":?#]+)", re.I)
_SOCKET_HOST = re.compile(r"\.connect\s*\(\s*\(\s*['\"]([^'\"]+)['\"]", re.I)


class Capture(NamedTuple):
    kind: str  # what is sent: "the clipboard", ...
    severity: int  # 2 blocks, 1 asks


def _remote(code: str) -> bool:
    """The code names somewhere other than this machine to send to, or names no host at all (an address built at
    run time is as remote as any)."""
    hosts = [m.group(1).strip("[]") for m in _URL_HOST.finditer(code)]
    hosts += [m.group(1) for m in _SOCKET_HOST.finditer(code)]
    return not hosts or any(not is_loopback(h.lower()) for h in hosts)


def captured_sent(code: str) -> Capture | None:
    """The strongest capture that code sends off the machine, or None: a capture and a send in the same code,
    towards a host that is not this machine."""
    if not code or not _SEND.search(code) or not _remote(code):
        return None
    best: Capture | None = None
    for kind, severity, pattern in _CAPTURES:
        if (best is None or severity > best.severity) and pattern.search(code):
            best = Capture(kind, severity)
    return best


_FETCH = re.compile(r"requests\.get\s*\(|httpx\.get\s*\(|urlopen\s*\(|urllib\.request\.|\bfetch\s*\(|"
                    r"invoke-(?:restmethod|webrequest)|downloadstring|downloaddata|\bcurl\b|\bwget\b", re.I)
_ENCRYPT = re.compile(r"\bfernet\s*\(|\baes\.new\s*\(|createcipheriv|\bcipher\s*\(|\.encrypt\s*\(|"
                      r"\[system\.security\.cryptography\.aes\]|\bchacha20", re.I)
# the result written back where it came from: a file opened for update, or the same name written after reading
_IN_PLACE = re.compile(r"['\"](?:r\+b?|rb\+|w\+b?|wb\+)['\"]|\.seek\s*\(\s*0|write_bytes\s*\(|writefilesync\s*\(|"
                       r"set-content|\[io\.file\]::writeallbytes", re.I)


def fetched_key_encrypt(code: str) -> bool:
    """Code that fetches something over the network, encrypts with a cipher and writes the result over a file."""
    return bool(code and _ENCRYPT.search(code) and _FETCH.search(code) and _IN_PLACE.search(code)
                and _remote(code))


# -- files written --------------------------------------------------------------------------------------

def _content(ctx: Context) -> str | None:
    if ctx.type != "file_write":
        return None
    content = getattr(ctx.action, "content", None)
    return content[:200_000] if content else None


def _capture_of(ctx: Context) -> Capture | None:
    content = ctx.derived(_content)
    return captured_sent(content) if content else None


@rule("block.files.code-sends-capture", "code written that sends the clipboard, keystrokes, the screen or the "
      "user's name away", risk=Risk.CRITICAL, types=("file_write",), confidence=0.85)
def code_sends_capture_block(ctx: Context) -> CheckResult:
    """A file written with code that reads the clipboard (`pbpaste`, `xclip`, `pyperclip.paste`,
    `Get-Clipboard`), keystrokes (`pynput`, `keyboard.on_press`, a `keydown` listener), the screen
    (`ImageGrab.grab`, `pyautogui.screenshot`, `screencapture`) or the user's or machine's name (`getpass.getuser`,
    `socket.gethostname`) and sends it to another host (`requests.post`, a socket, `fetch` with POST, mail, FTP):
    spyware planted in the project, however its module is named. Requests to this machine pass."""
    hit = ctx.derived(_capture_of)
    if hit is None or hit.severity < 2:
        return None
    return f"the code written sends {hit.kind} to another host"


@rule("confirm.files.code-sends-capture", "code written that sends the platform, the installed packages or a file "
      "away", risk=Risk.HIGH, types=("file_write",), confidence=0.7)
def code_sends_capture_confirm(ctx: Context) -> CheckResult:
    """A file written with code that reads the platform and the installed packages (`platform.system()`,
    `pkg_resources.working_set`, `pip freeze`) or a file's contents and puts them in a request to another host:
    the machine's fingerprint or a document leaves with every run. Crash reporters and uploaders do the same, so
    a person decides; the clipboard, keystrokes or the screen block (`block.files.code-sends-capture`)."""
    hit = ctx.derived(_capture_of)
    if hit is None or hit.severity >= 2:
        return None
    return f"the code written sends {hit.kind} to another host"


@rule("block.files.fetched-key-encrypt", "code written that encrypts a file in place with a key fetched from "
      "elsewhere", risk=Risk.CRITICAL, types=("file_write",), confidence=0.85)
def fetched_key_encrypt_rule(ctx: Context) -> CheckResult:
    """A file written with code that fetches a key over the network (`requests.get`, `urlopen`, `fetch`), encrypts
    with it (Fernet, AES, `createCipheriv`) and writes the result over the file it read (opened `r+b`, `seek(0)`,
    `write_bytes`): only whoever serves the key can open the file again. Encrypting with a key made and kept
    here, or writing the result to a new file, is not judged here."""
    content = ctx.derived(_content)
    if content is None or not fetched_key_encrypt(content):
        return None
    return "the code written encrypts a file over itself with a key fetched from another host"


# -- inline code run by an interpreter --------------------------------------------------------------------

RULE_DOCS: tuple[tuple[str, str, Risk, str], ...] = (
    ("block.shell.code-sends-capture", "inline code sends the clipboard, keystrokes, the screen or the user's name "
     "away", Risk.CRITICAL,
     "An interpreter's inline code (`python3 -c`, `node -e`, `ruby -e`, `perl -e`, `powershell -Command`) that reads "
     "the clipboard, keystrokes, the screen or the user's or machine's name and sends it to another host (an HTTP "
     "request, a raw socket, mail): what spyware does, run in one line; and a screenshot saved on the command line "
     "(screencapture, gnome-screenshot, scrot, maim, grim) that a later command of the line sends to a bare public "
     "address, or to any host again and again (a loop paced by sleep). Requests to this machine pass."),
    ("confirm.shell.code-sends-capture", "inline code sends the platform, the installed packages or a file away",
     Risk.HIGH,
     "An interpreter's inline code that sends the platform, the list of installed packages or a file's contents to "
     "another host: the machine's fingerprint or a document leaves; a person decides. Also a screenshot saved on the "
     "command line and sent to a named host (a bug tracker, a chat upload): whatever the screen shows leaves."),
)


def judge_inline(cmd: Command, code: str, where: str, add: Callable[[Finding], None]) -> None:
    """An interpreter's inline program judged as written code is (`captured_sent`)."""
    hit = captured_sent(code)
    if hit is None:
        return
    if hit.severity >= 2:
        add(Finding("block.shell.code-sends-capture", Risk.CRITICAL,
                    f"{cmd.name} code sends {hit.kind} to another host{where}", cmd.span))
    else:
        add(Finding("confirm.shell.code-sends-capture", Risk.HIGH,
                    f"{cmd.name} code sends {hit.kind} to another host{where}", cmd.span))


# -- a screenshot taken on the command line and sent ------------------------------------------------------------

# programs that save the screen (or a window of it) to a file
SCREEN_NAMES = frozenset({"screencapture", "gnome-screenshot", "scrot", "maim", "grim", "spectacle", "flameshot",
                          "xfce4-screenshooter", "import", "xwd", "nircmd", "ksnip", "shutter"})
# programs that carry a file to another host
_FILE_SENDERS = frozenset({"scp", "rsync", "sftp", "curl", "wget", "nc", "ncat", "netcat", "socat", "rclone",
                           "aws", "gsutil", "gcloud", "az", "azcopy", "smbclient", "ftp", "lftp", "tftp", "mail",
                           "mutt", "sendmail", "swaks", "s3cmd", "b2", "ssh", "transfer", "croc", "magic-wormhole",
                           "wormhole", "ffsend"})
_LAST_NAME = re.compile(r"[=@/\\:<]")
_IMAGE_NAME = re.compile(r"[^\s/]+\.(?:png|jpe?g|gif|bmp|webp|tiff?|xwd|pdf)$", re.I)


def judge_screen(cmd: Command, commands: tuple[Command, ...], where: str, add: Callable[[Finding], None]) -> None:
    """A screenshot saved to a file that a later command of the same line sends to another host (`scp`, `rsync`
    to a remote, `curl -F`, `nc`): the person's screen leaves the machine, the way screen-grabbing spyware reports
    (ATT&CK T1113). A screenshot kept here, or sent to this machine's own paths, passes."""
    shots = {m.group(0).lower() for a in cmd.argv[1:] if (m := _IMAGE_NAME.search(a))}
    if cmd.name == "import" and "root" not in cmd.words:
        return  # ImageMagick's import of one window the person picks is an everyday screenshot, not spying
    if not shots:
        return
    seen = False
    for other in commands:
        if other is cmd:
            seen = True
            continue
        if not seen or other.name not in _FILE_SENDERS:
            continue
        if other.name in ("scp", "rsync", "sftp") and \
                not any(":" in a and not a.startswith("-") for a in other.argv[1:]):
            continue  # a local copy
        # (the file's name as the operand ends: `shot.png`, `/tmp/shot.png`, curl's `file=@shot.png`)
        if any(_LAST_NAME.split(a.lower())[-1] in shots for a in other.argv[1:]):
            hosts = [h for a in other.argv[1:] if (h := _host_of(a))]
            if hosts and all(is_loopback(h) for h in hosts):
                return  # (to this machine's own server: nothing leaves)
            again = any(c.name == "sleep" for c in commands)  # (a capture paced by a sleep: a loop that watches)
            if again or any(public_ip(h) for h in hosts):
                add(Finding("block.shell.code-sends-capture", Risk.CRITICAL,
                            f"{cmd.name} saves the screen and {other.name} sends it "
                            f"{'again and again' if again else 'to a bare address'}{where}: what screen-grabbing "
                            f"spyware does", cmd.span))
            else:
                # (a screenshot attached to a bug report or a chat is everyday; the person sees where it goes)
                add(Finding("confirm.shell.code-sends-capture", Risk.HIGH,
                            f"{cmd.name} saves the screen and {other.name} sends it to another host{where}: whatever "
                            f"the screen shows leaves the machine", cmd.span))
            return


_SCP_HOST = re.compile(r"^(?:[^@/\s]+@)?([a-z0-9][a-z0-9.\-]*):", re.I)


def _host_of(arg: str) -> str | None:
    """The host an operand of a sender names: a URL's (`https://h/x`), scp's (`user@h:path`), or a bare address."""
    if "://" in arg:
        parts = split_url(arg)
        return parts.host if parts is not None else None
    if (m := _SCP_HOST.match(arg)) is not None:
        return m.group(1)
    return arg if public_ip(arg) else None


RULES: tuple[Rule, ...] = (code_sends_capture_block, code_sends_capture_confirm, fetched_key_encrypt_rule)
