"""Shell checks: lines whose steps together attack, where each step alone is ordinary or only asks.

Part of the staging family (gate/rules/shell_staging.py calls `judge` for the names in `NAMES`); the facts about
programs written to attack (dumpers, phishing kits, wireless attacks, AV-evasion checkers, reverse proxies) are
catalogue functions in resources/programs.toml under `# ---- tools of attack ----`.

- A script of an interpreter named like one of those programs (`python3 mimipenguin.py`, `ruby lazagne.rb`) is
  judged by the script's name, as the program run by its path would be.
- Traffic captured live (tcpdump, tshark, dumpcap, tcpflow, ngrep, mitmdump) and piped to a program that sends it
  to another machine (`tcpdump -w - | nc host port`) blocks as data sent out (`block.shell.exfiltration`); a
  capture filtered for logins, either by its own display filter (`tshark -Y http.authorization`, `ngrep
  'pass'`) or by the filter it is piped into (`| grep -i pass`), blocks as credential theft
  (`block.shell.credential-dump`). A plain capture keeps its own judgement (it asks); a saved capture read back
  (`-r file`) is not live traffic.
- A private key or credential file added to a dotfile manager or a git repository (yadm, vcsh, chezmoi,
  homeshick, git) on a line that then pushes it: the secret is published to a remote
  (`block.shell.credential-exfiltration`). Added encrypted (`chezmoi add --encrypt`, `yadm encrypt`) it passes to
  the push's own judgement. A secret copied into the work tree (cp, mv, rsync) before `git add -A` counts the
  same. A sync tool told to mirror a key folder or credential file to another machine or an
  account (unison's remote root, a Syncthing folder shared with a device, the OneDrive client's one folder)
  blocks the same way.
- A check for a virtual machine or sandbox (the DMI product name, systemd-detect-virt, virt-what, sysctl
  hw.model, ioreg, Win32_ComputerSystem's model) that makes the line stop (`&& exit`) or decides whether a
  program runs (`|| ./x`) before a program is started: malware hiding from analysis (`block.shell.defense-evasion`,
  ATT&CK T1497).
- A file whose name wears a document's extension before a program's (`invoice.pdf.desktop`, `photo.jpg.scr`,
  `report.doc.exe`, `scan.pdf.app`) opened or run: a disguised program (`block.shell.remote-code-exec`).
- macOS's quarantine mark stripped from a file that the line then opens or runs (`xattr -dr
  com.apple.quarantine X.app && open X.app`): Gatekeeper's check of a download skipped to run it
  (`block.shell.defense-evasion`); a disk image or ISO downloaded, mounted and a program on it run on one line
  (`curl -o s.dmg ... && hdiutil attach s.dmg && /Volumes/S/Installer.app/...`, `Mount-DiskImage` then `E:\\setup.exe`):
  download and run (`block.shell.remote-code-exec`).
- A program run by its path (`./kcdump`, `/tmp/x`), or a copier or viewer the shared reader list leaves out
  (ditto, hexyl, plutil, robocopy), handed a credential store as an operand (a keychain file, a
  private key, a browser's login database) reads a secret (`confirm.shell.secret-read`), whatever its name; when
  the line then uploads, it blocks (`block.shell.credential-exfiltration`).
- A collector (osxcollector and kin) whose archive the same line uploads: the machine's records sent out
  (`block.shell.exfiltration`).
- A container image of an attack framework or tool pulled, run or created (`docker run bcsecurity/empire`,
  `podman pull` of a Kali image, `nerdctl run` of a Sliver or Metasploit image): fetching and starting the tool
  the same as downloading it, so it asks as that does (`confirm.shell.attack-tool-download`, whose list of
  tools and kits it reads).
- A launchd job written into a LaunchAgents or LaunchDaemons folder outside /System/Library (copied, moved,
  teed, redirected or edited there) under Apple's name (a `com.apple.` file name, or a Label of that name in the
  text written): a job dressed as the system's own, which Apple ships only in /System/Library
  (`block.shell.malicious-persistence`).
- A credential stealer or other attack program built from its source or frozen into one executable (`go build`,
  `cargo build`, `dotnet publish`, `msbuild`, `make`, PyInstaller, Nuitka, cx_Freeze, garble) when what is
  built is named as one of those programs (its package, folder, project or script): making the tool asks as
  fetching it does (`confirm.shell.attack-tool-download`). So does a line that enters a folder named for such a
  tool or kit (`cd setoolkit`, `cd evilginx2`) and installs its dependencies, builds it or runs its setup there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.catalogue import functions_for, windows
from gate.model import Risk
from gate.rules.shell_context import _COMMON_WORDS, _KITS_FETCHED, _TOOLS
from gate.shell import DOWNLOADERS, NET_SENDERS, Command, Finding, ShellAnalysis

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["NAMES", "judge"]

Add = Callable[[Finding], None]

# -- scripts named like attack programs --------------------------------------------------------------------------
# interpreters that take a script file (shells are judged by gate/rules/shell_catalogue.py's own script step)
_SCRIPT_RUNNERS = frozenset({"python", "python2", "python3", "pypy", "pypy3", "ruby", "perl", "node", "php", "pwsh",
                             "powershell", "osascript", "lua", "tclsh"})
_SCRIPT = re.compile(r"\.(py|pyw|rb|pl|js|mjs|php|ps1|psm1|lua|tcl|scpt|applescript)$")

# -- traffic capture ---------------------------------------------------------------------------------------------
_CAPTURE = frozenset({"tcpdump", "tshark", "dumpcap", "tcpflow", "ngrep", "windump", "mitmdump", "mitmproxy",
                      "termshark", "sniffglue", "justniffer", "pktmon", "netsh"})
# the file a capture writes: its -w / -o value, netsh's tracefile=, pktmon's default log
_CAPTURE_FILE_FLAGS = frozenset({"-w", "--write", "-o", "--output", "--outdir", "-outfile", "--file", "--save-stream"})
_READ_BACK = frozenset({"-r", "--read-file", "-I", "-D", "--list-interfaces", "-h", "--help", "--version"})
# what a filter looks for when it hunts logins in traffic: passwords, authorization headers, cookies, tokens,
# the FTP/POP/IMAP login verbs, form posts
_LOGIN_WORDS = re.compile(r"pass(wd|word)?\b|\bpwd\b|authori[sz]ation|cookie|\btoken|\blogin\b|\buser\b(?!-agent)|"
                          r"username|credential|secret|bearer|ntlmssp|urlencoded-form|\bpass\b|request\.arg\b",
                          re.I)
_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ugrep", "awk", "gawk", "mawk", "sed", "perl", "strings",
                      "select-string", "sls", "findstr", "ngrep"})
_SENDS = frozenset({*NET_SENDERS, "ssh", "plink", "pwncat", "cryptcat", "sbd", "curl", "aws", "gsutil", "rclone"})
# an intercepting proxy's add-on that harvests what passes through it
_HARVEST_SCRIPT = re.compile(r"harvest|steal|grab|cookie|creds?\b|credential|passw|token|sniff|logins?\b", re.I)

# -- dotfiles and repositories -----------------------------------------------------------------------------------
_DOTFILE_TOOLS = frozenset({"yadm", "vcsh", "chezmoi", "homeshick", "homesick", "dotdrop", "git", "config",
                            "dotfiles", "dots"})
_ADD_VERBS = frozenset({"add", "re-add", "track", "import", "stage"})
_ENCRYPTED = frozenset({"--encrypt", "encrypt", "-e"})
_COPIES = frozenset({"cp", "mv", "rsync", "install", "ditto", "copy", "copy-item", "move", "move-item", "robocopy"})
# sync tools that mirror a folder to another machine or an account: unison's second root, a Syncthing folder
# shared with a device, the OneDrive client's one folder
_SYNCERS = frozenset({"unison", "syncthing", "onedrive"})
_REMOTE_ROOT = re.compile(r"^(ssh|socket|rsync)://|^[\w.-]+@[\w.-]+:|^[\w-]+(\.[\w-]+)+:/")

# -- virtual-machine and sandbox checks --------------------------------------------------------------------------
_VM_PROBES = frozenset({"systemd-detect-virt", "virt-what", "imvirt", "dmidecode", "ioreg", "system_profiler",
                        "sysctl", "get-wmiobject", "gwmi", "get-ciminstance", "gcim", "wmic", "lscpu", "hostnamectl",
                        "cat", "grep", "egrep", "fgrep", "rg", "test", "[", "[["})
_VM_PLACES = re.compile(r"/sys/class/dmi/|/sys/devices/virtual/dmi|/proc/scsi/scsi|/sys/hypervisor|/proc/cpuinfo|"
                        r"hw\.model|kern\.hv_vmm_present|machdep\.cpu\.features|ioplatformexpertdevice|"
                        r"sphardwaredatatype|win32_computersystem|win32_bios|win32_baseboard|win32_diskdrive|"
                        r"computersystem|\bbios\b|system-product-name|system-manufacturer|detect-virt|virt-what|"
                        r"imvirt|hypervisor", re.I)
_VM_BRANDS = re.compile(r"virtualbox|vbox|vmware|qemu|\bkvm\b|\bxen|hyper-?v|parallels|bochs|innotek|bhyve|"
                        r"sandbox|virtual|\bvm\b|hypervisor|none", re.I)
# a step that stops the line, or the rest of it decided by the check's result
_GATED = re.compile(r"&&\s*(exit|return|kill|shutdown|halt|break)\b|\|\|\s*(\.{0,2}/|[a-z]:\\|\w+\s+\S+\.(sh|py|exe))|"
                    r"\{\s*exit\b|\bthen\s+exit\b|\bexit\s*(\d+\s*)?\}?\s*;?\s*fi\b", re.I)
# what a line that checks for a virtual machine names somewhere (one look at the line before anything else)
_VM_CUE = re.compile(r"virt|dmi|hw\.model|hv_vmm|ioreg|computersystem|win32_bios|scsi|hypervisor|cpuinfo|"
                     r"system_profiler|machdep", re.I)
# programs whose only job is to tell the machine's hardware or hypervisor
_VM_TELLERS = frozenset({"systemd-detect-virt", "virt-what", "imvirt", "ioreg", "dmidecode", "system_profiler"})
# the check's result as a condition that runs the rest only outside a virtual machine
_NOT_VM = re.compile(r"(=\s*[\"']?none\b|!=)[^&|;]*\]\s*&&\s*\S", re.I)
_QUIET = frozenset({"echo", "printf", "exit", "return", "true", "false", ":", "logger", "write-host", "write-output",
                    "break", "continue", "sleep", "test", "[", "[["})

# -- disguised programs ------------------------------------------------------------------------------------------
_OPENERS = frozenset({"xdg-open", "open", "gio", "start", "explorer", "invoke-item", "ii", "start-process", "saps",
                      "kde-open", "kde-open5", "gnome-open", "exo-open", "wine", "wine64", "mimeopen", "see",
                      "run-mailcap", "handlr", "cmd", "rundll32", "wscript", "cscript", "mshta", "sh", "bash", "dex",
                      "gtk-launch", "kioclient", "kioclient5", "kioclient6"})
_DOUBLE_EXTENSION = re.compile(
    r"\.(pdf|docx?|docm|xlsx?|xlsm|pptx?|odt|ods|rtf|txt|csv|jpe?g|png|gif|bmp|heic|webp|tiff?|mp[34]|mov|avi|"
    r"wav|zip|rar|7z|html?|eml|msg|invoice)\s*\.(desktop|lnk|exe|scr|com|pif|bat|cmd|vbs|vbe|jse?|wsf|wsh|hta|app|"
    r"command|tool|sh|ps1|msi|jar|cpl|url|appimage|run|bin|elf|apk)$", re.I)

# -- quarantine and disk images ----------------------------------------------------------------------------------
_IMAGE_MOUNTERS = frozenset({"hdiutil", "mount-diskimage", "mount", "udisksctl", "guestmount", "fuseiso", "7z"})
_RUNS_FROM = frozenset({"open", "installer", "start-process", "saps", "start", "msiexec", "invoke-item", "ii",
                        "sh", "bash", "zsh", "cp", "ditto", "xdg-open", "wine"})
_PROGRAM_FILE = re.compile(r"\.(app|pkg|mpkg|exe|msi|bat|cmd|sh|command|run|bin|appimage|ps1)(/|$)|/contents/macos/",
                           re.I)
_DRIVE_PROGRAM = re.compile(r"^[d-z]:\\\S*\.(exe|msi|bat|cmd|ps1|lnk|vbs|hta)$", re.I)

# programs that copy or print a file the shared reader list does not name
_STORE_READERS = frozenset({"ditto", "hexyl", "plutil", "xcopy", "robocopy", "copy-item", "cpi", "mcopy",
                            # interpreters given a script and a store: the script reads it, whatever it is named
                            "node", "nodejs", "deno", "bun", "ruby", "perl", "php", "lua", "osascript", "rscript",
                            "python", "python3", "pypy3", "java"})

# -- collectors --------------------------------------------------------------------------------------------------
_COLLECTORS = frozenset({"osxcollector", "osxcollector.py", "aftermath", "unix_collector", "uac", "catscale"})
_UPLOAD_FLAG = re.compile(r"(^|\s)(-t|--upload-file|-f|--form|--data-binary|-d|--data|-infile|-body)(\s|$)|^@", re.I)


# -- container images of attack frameworks -------------------------------------------------------------------------
_CONTAINER_ENGINES = frozenset({"docker", "podman", "nerdctl", "finch", "lima-nerdctl", "ctr", "crictl"})
_IMAGE_VERBS = frozenset({"run", "pull", "create"})
# the engines' options that take no value (the image is the first word after the verb and these)
_BARE_FLAGS = frozenset({"-i", "-t", "-d", "-it", "-ti", "-itd", "-dit", "-td", "-dt", "-id", "-di", "-q",
                         "--rm", "--privileged", "--init", "--detach", "--interactive", "--tty", "--read-only",
                         "--quiet", "--all-tags", "--publish-all", "--sig-proxy", "--no-healthcheck",
                         "--oom-kill-disable", "--disable-content-trust", "--replace", "--tls-verify"})
# publishers and images whose whole purpose is attack: the framework's own account, or a distribution of attack
# tools (Kali, Parrot Security, BlackArch)
_ATTACK_PUBLISHERS = frozenset({"bcsecurity", "bishopfox", "metasploitframework", "rapid7", "kalilinux",
                                "parrotsec", "blackarchlinux", "cobaltstrike", "itsafeature", "its-a-feature",
                                "cobbr", "havocframework", "porchetta-industries", "byt3bl33d3r", "beefproject"})
_ATTACK_IMAGE_WORDS = frozenset({"kali-rolling", "kali-linux", "kali-last-release", "kali-bleeding-edge", "kali",
                                 "parrot", "parrot-security", "parrotsec", "blackarch", "metasploit", "msf",
                                 "metasploit-framework", "cobaltstrike", "cobalt-strike", "starkiller", "beef",
                                 "beef-xss", "brute-ratel", "bruteratel", "nighthawk", "mythic-server",
                                 "sliver-server", "havoc-framework", "covenant", "empire", "powershell-empire",
                                 "crackmapexec", "netexec", "evilginx", "evilginx2", "responder", "poshc2"})
_ATTACK_NAMES = frozenset({*_KITS_FETCHED, *_TOOLS, *_ATTACK_IMAGE_WORDS})


def _image_of(words: list[str]) -> str | None:
    """The image a `run`/`pull`/`create` names: the first word after the verb that is no option or its value."""
    k = 0
    while k < len(words):
        w = words[k]
        if w == "--":
            return words[k + 1] if k + 1 < len(words) else None
        if w.startswith("-"):
            k += 1 if ("=" in w or w in _BARE_FLAGS) else 2
            continue
        return w
    return None


_IMAGE_SUFFIX = re.compile(r"[-_.](?:server|client|teamserver|c2|docker|latest|dev)$")  # an image's variant


def _attack_image(image: str) -> str | None:
    """The attack tool or kit a container image is of (by its publisher or its repository's name), or None."""
    ref = image.split("@", 1)[0]
    parts = [p for p in ref.split("/") if p]
    if not parts:
        return None
    if "." in parts[0] or ":" in parts[0] or parts[0] == "localhost":
        parts = parts[1:]  # a registry's host (ghcr.io, docker.io, quay.io, registry:5000)
    if not parts:
        return None
    parts[-1] = parts[-1].split(":", 1)[0]  # its tag
    publisher = parts[0] if len(parts) > 1 else ""
    name = parts[-1]
    stem = _IMAGE_SUFFIX.sub("", name)
    if publisher.replace("_", "-") in _ATTACK_PUBLISHERS:
        return f"{publisher}/{name}"
    for candidate in (name, stem):
        if candidate in _ATTACK_NAMES and (candidate not in _COMMON_WORDS or
                                           candidate in ("sliver-server", "mythic-server")):
            return "/".join(parts)
    if name.startswith("kali-") or (stem in _COMMON_WORDS and publisher in (stem, f"{stem}-framework", f"{stem}c2")):
        return "/".join(parts)
    return None


def _container_image(cmd: Command, where: str, add: Add) -> None:
    """`docker run|pull|create IMAGE` (podman, nerdctl alike) of an attack framework's or tool's image."""
    words = list(cmd.words[1:])
    verbs = [w for w in words if not w.startswith("-")]
    if not verbs:
        return
    at = words.index(verbs[0])
    if verbs[0] in ("container", "image") and len(verbs) > 1:
        at = words.index(verbs[1], at + 1)
    if words[at] not in _IMAGE_VERBS:
        return
    image = _image_of(words[at + 1:])
    if not image or image.startswith(("/", ".", "~", "$")):
        return
    kit = _attack_image(image)
    if kit is not None:
        add(Finding("confirm.shell.attack-tool-download", Risk.HIGH,
                    f"{cmd.name} {words[at]} fetches and starts {kit}, the image of a tool made for attacks (a "
                    f"command-and-control framework or an attack distribution){where}", cmd.span))


# -- launchd jobs dressed as Apple's -------------------------------------------------------------------------------
_LAUNCHD_PLACE = re.compile(r"(?:^|/|~)library/launch(?:agents|daemons)(?:/([^/]*))?$")
_SYSTEM_PLACE = re.compile(r"^(?:/private)?/system/")
_APPLE_NAME = re.compile(r"^com\.apple\.")
_APPLE_LABEL = re.compile(r"<key>\s*label\s*</key>\s*<string>\s*com\.apple\.", re.I)
_COPY_INTO = frozenset({"cp", "mv", "ditto", "install", "ln", "rsync", "copy-item", "move-item", "copy", "move",
                        "cpi", "mi"})
_EDIT_IN_PLACE = frozenset({"defaults", "plutil", "plistbuddy", "tee"})
# plutil's verbs that only print or check a plist (`-p`, `-lint`, `-extract` without `-o`): they write nothing
_PLUTIL_READS = frozenset({"-p", "-lint", "-help", "-h", "-type", "-extract"})


def _written_targets(cmd: Command) -> list[str]:
    """Where a command writes a file: a redirect's target, a copy's destination, tee's and the plist editors'
    operands."""
    found = [t for op, t in cmd.redirects if op in (">", ">>", ">|", "&>", "&>>")]
    ops = [w for w in cmd.words[1:] if not w.startswith("-")]
    if cmd.name in _COPY_INTO and len(ops) >= 2:
        found.append(ops[-1])
    elif cmd.name == "plutil" and cmd.words[1:2] and cmd.words[1] in _PLUTIL_READS and "-o" not in cmd.words:
        pass
    elif cmd.name in _EDIT_IN_PLACE and ops and (cmd.name != "defaults" or ops[0] in ("write", "import")):
        found.extend(ops)
    return found


def _apple_dressed_job(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A launchd job put outside /System/Library under Apple's name: by its file name or the Label written."""
    for target in _written_targets(cmd):
        target = target.strip("'\"")
        m = _LAUNCHD_PLACE.search(target)
        if m is None or _SYSTEM_PLACE.match(target):
            continue
        name = m.group(1) or ""
        text = " ".join(filter(None, (cmd.stdin_text, *(analysis.commands[i].stdin_text for i in cmd.upstream))))
        if cmd.name in ("echo", "printf"):
            text += " " + " ".join(cmd.argv[1:])
        if _APPLE_NAME.match(name) or (text and _APPLE_LABEL.search(text)):
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"{cmd.name} puts a launchd job under Apple's name ({(name or 'com.apple. Label')[:60]}) in "
                        f"{target[:60]}: Apple's own jobs live only in /System/Library, so this one is dressed as the "
                        f"system{where}", cmd.span))
            return


def _index(cmd: Command, analysis: ShellAnalysis) -> int:
    return next((i for i, c in enumerate(analysis.commands) if c is cmd), -1)


def _scripted_tool(cmd: Command, where: str, add: Add) -> None:
    """`python3 mimipenguin.py`: the script judged by its name, as if run by its path."""
    for k, w in enumerate(cmd.words[1:], start=1):
        if w.startswith("-"):
            if w in ("-c", "-e", "-m", "-command", "-encodedcommand", "-enc"):
                return
            continue
        base = w.replace("\\", "/").rsplit("/", 1)[-1]
        if not _SCRIPT.search(base) and "." in base:
            return
        stem = _SCRIPT.sub("", base)
        fns = functions_for(stem)
        if not fns:
            return
        args = " ".join(cmd.words[k + 1:])
        for f in fns:
            if f.decision == "block" and any(f.hit(a) for a in windows(args)):
                add(Finding(f.rule, Risk.CRITICAL, f"{base}: {f.why} [{f.cls}]{where}", cmd.span))
        return


def _capture_file(cmd: Command) -> str:
    """The base name of the file a capture writes, or ""."""
    words = cmd.words[1:]
    if cmd.name == "netsh":
        out = next((w.split("=", 1)[1] for w in words if w.startswith("tracefile=")), "" if "trace" not in words
                   else "nettrace.etl")
    elif cmd.name == "pktmon":
        out = "pktmon.etl" if "start" in words else ""
        out = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in ("--file-name", "-f")), out)
    else:
        out = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in _CAPTURE_FILE_FLAGS), "")
    out = out.replace("\\", "/").rsplit("/", 1)[-1]
    return "" if out in ("-", "") else out


def _capture(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Live traffic piped out to another machine, or filtered for logins (see the module docstring)."""
    words = cmd.words[1:]
    if any(w in _READ_BACK for w in words) or (cmd.name in ("mitmdump", "mitmproxy") and "-r" in words):
        return
    name = cmd.name
    if name == "netsh" and ("trace" not in words or "capture=yes" not in words):
        return
    at = _index(cmd, analysis)
    down = [c for c in analysis.commands if at >= 0 and at in c.upstream]
    sink = next((c for c in down if c.name in _SENDS), None)
    saved = _capture_file(cmd)
    if sink is None and saved:
        stem = saved.split(".", 1)[0]
        sink = next((c for c in analysis.commands[at + 1:] if c.name in _SENDS and
                     any(stem and stem in w for w in c.words[1:])), None)
    if sink is not None:
        add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                    f"{name} captures this machine's network traffic and {sink.name} sends it to another "
                    f"machine{where}", cmd.span))
        return
    own = " ".join(words)
    if name in ("mitmdump", "mitmproxy", "mitmweb"):
        script = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-s", "--scripts")), "")
        if script and _HARVEST_SCRIPT.search(script.rsplit("/", 1)[-1]):
            add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                        f"{name} intercepts other programs' web traffic with {script[:60]}, an add-on that "
                        f"harvests logins or cookies{where}", cmd.span))
        return
    hunt = _LOGIN_WORDS.search(own)
    if hunt is None:
        hunt = next((m for c in down if c.name in _FILTERS
                     for m in [_LOGIN_WORDS.search(" ".join(c.words[1:]))] if m), None)
    if hunt is not None:
        add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                    f"{name} captures live network traffic filtered for logins ({hunt.group(0)}): other "
                    f"people's passwords and session tokens{where}", cmd.span))


def _pushes(analysis: ShellAnalysis) -> bool:
    for c in analysis.commands:
        if c.name in _DOTFILE_TOOLS and "push" in c.words[1:]:
            return True
        if c.name == "chezmoi" and any(w in ("--autopush", "--auto-push") for w in c.words):
            return True
    return False


def _dotfile_add(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A private key or credential file added to a repository that the line pushes."""
    words = cmd.words[1:]
    if not any(w in _ADD_VERBS for w in words[:3]) or any(w in _ENCRYPTED for w in words):
        return
    if not _pushes(analysis):
        return
    for k, a in enumerate(cmd.argv[1:], start=1):
        if a.startswith("-") or cmd.words[k] in _ADD_VERBS:
            continue
        path = d.resolve(cmd, a) or a.lower()
        if d.credential_files.search(path) and not path.endswith(".pub"):
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"{cmd.name} adds {a[:60]}, a private key or credential file, and the line pushes it to a "
                        f"remote repository{where}", cmd.span))
            return
    # `cp ~/.ssh/id_ed25519 ~/dotfiles/ssh/ && git add -A && git push`: the secret copied into the work tree first
    at = _index(cmd, analysis)
    for c in analysis.commands[:at]:
        if c.name not in _COPIES:
            continue
        sources = [a for a in c.argv[1:] if not a.startswith("-")][:-1]
        secret = next((a for a in sources if _secret_place(d, c, a)), "")
        if secret:
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"{c.name} puts {secret[:60]}, a private key or credential file, into the work tree that "
                        f"{cmd.name} adds and the line pushes to a remote repository{where}", cmd.span))
            return


def _secret_place(d: Detector, cmd: Command, word: str) -> bool:
    path = (d.resolve(cmd, word) or word.lower()).rstrip("/")
    return bool(d.credential_files.search(path) or d.key_dirs.search(path)) and not path.endswith(".pub")


def _synced_secret(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A key folder or credential file given to a tool that mirrors it to another machine or an account."""
    words = cmd.words[1:]
    argv = cmd.argv[1:]
    secret = ""
    if cmd.name == "unison":
        roots = [a for a in argv if not a.startswith("-")]
        if any(_REMOTE_ROOT.match(r) for r in roots):
            secret = next((r for r in roots if not _REMOTE_ROOT.match(r) and _secret_place(d, cmd, r)), "")
    elif cmd.name == "onedrive":
        secret = next((argv[k + 1] for k, w in enumerate(words[:-1]) if w in ("--single-directory", "--syncdir")
                       and _secret_place(d, cmd, argv[k + 1] if argv[k + 1].startswith(("/", "~"))
                                         else "~/" + argv[k + 1])), "")
    elif "folders" in words and "add" in words:
        path = next((argv[k + 1] for k, w in enumerate(words[:-1]) if w == "--path"), "")
        shared = any("devices" in c.words and "add" in c.words for c in analysis.commands if c.name == "syncthing")
        if path and shared and _secret_place(d, cmd, path):
            secret = path
    if secret:
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} mirrors {secret[:60]}, a key folder or credential file, to another machine or "
                    f"account{where}", cmd.span))


def _store_handed(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A program run by its path handed a credential store (a keychain, a key file, a browser's login database):
    it reads a secret, whatever the program is; the line uploading what came of it blocks."""
    store = next((a for k, a in enumerate(cmd.argv[1:], start=1) if not a.startswith("-") and
                  ("." in a or "/" in a) and _secret_place(d, cmd, a)), "")
    if not store:
        return
    at = _index(cmd, analysis)
    sent = next((c for c in analysis.commands[at + 1:] if c.name in _SENDS and
                 (c.name not in ("curl", "wget", "http", "xh") or any(_UPLOAD_FLAG.search(w) for w in c.words[1:]))),
                None)
    if sent is not None:
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.argv[0][:40]} is handed {store[:60]}, a credential store, and {sent.name} sends what the "
                    f"line made of it to another machine{where}", cmd.span))
        return
    add(Finding("confirm.shell.secret-read", Risk.HIGH,
                f"{cmd.argv[0][:40]} is handed {store[:60]}, a credential store: it reads a secret{where}", cmd.span))


def _vm_probe(c: Command) -> bool:
    if c.name not in _VM_PROBES:
        return False
    text = " ".join(c.words[1:])
    if c.name in _VM_TELLERS:
        return True
    return bool(_VM_PLACES.search(text)) or (c.name in ("grep", "egrep", "fgrep", "rg") and c.upstream != ())


def _vm_gate(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A check for a virtual machine or sandbox that decides whether the rest of the line runs."""
    cmds = analysis.commands
    probes = [i for i, c in enumerate(cmds) if _vm_probe(c)]
    if not probes or (cmds[probes[0]] is not cmd and cmd.name != "exit"):
        return
    source = analysis.source
    if not _VM_BRANDS.search(source) and not any(cmds[i].name in _VM_TELLERS for i in probes):
        return
    if not (_GATED.search(source) or _NOT_VM.search(source) or any(c.name == "exit" for c in cmds)):
        return
    first = probes[0]
    if not any(cmds[i].name in _VM_TELLERS or _VM_PLACES.search(cmds[i].span)
               or any(_VM_PLACES.search(cmds[j].span) for j in cmds[i].upstream) for i in probes):
        return
    runs = next((c for c in cmds[first + 1:] if c.name not in _QUIET and not _vm_probe(c) and
                 ("/" in c.argv[0] or "\\" in c.argv[0] or c.name in ("start-process", "saps", "open", "xdg-open",
                                                                        "nohup", "setsid", "invoke-item"))), None)
    if runs is None:
        return
    add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                f"checks whether it runs in a virtual machine or sandbox and only then starts {runs.argv[0][:60]}: "
                f"a program hiding from analysis{where}", cmd.span))


# characters that reverse or isolate the direction of the text after them: `invoice_<RLO>fdp.exe` shows as
# `invoice_exe.pdf`
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _disguised(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A document's extension before a program's, opened or run."""
    if not analysis.source.isascii() and _BIDI.search(analysis.source):
        add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                    f"opens or runs a file whose name reverses its own text direction: a program dressed as another "
                    f"kind of file{where}", cmd.span))
        return
    candidates = [cmd.argv[0]] if ("/" in cmd.argv[0] or "\\" in cmd.argv[0]) else []
    if cmd.name in _OPENERS:
        candidates += [a for a in cmd.argv[1:] if not a.startswith("-")]
    for a in candidates:
        base = a.rstrip("/\\'\"").replace("\\", "/").rsplit("/", 1)[-1]
        if _DOUBLE_EXTENSION.search(base):
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"opens {base[:60]}: a program dressed as a document (a document's extension before a "
                        f"program's){where}", cmd.span))
            return


def _targets(c: Command) -> list[str]:
    return [w.rstrip("/") for w in c.words[1:] if not w.startswith("-") and len(w) > 1]


def _unquarantined(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`xattr -dr com.apple.quarantine X && open X`: Gatekeeper's check skipped, then the file run."""
    words = cmd.words[1:]
    if not ("com.apple.quarantine" in words and any(w.startswith("-") and "d" in w for w in words)) and \
            not any(w.startswith("-") and "c" in w and not w.startswith("--") for w in words):
        return
    freed = [t for t in _targets(cmd) if t != "com.apple.quarantine"]
    if not freed:
        return
    at = _index(cmd, analysis)
    for c in analysis.commands[at + 1:]:
        used = [c.words[0], *(_targets(c) if c.name in _RUNS_FROM or c.name in _OPENERS else ())]
        for u in used:
            if any(u == f or u.startswith(f + "/") for f in freed):
                add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                            f"strips macOS's quarantine mark from {freed[0][:60]} and then runs it: Gatekeeper's "
                            f"check of a download skipped{where}", cmd.span))
                return


def _mount_point(c: Command) -> str:
    if c.name in ("mount", "guestmount", "fuseiso"):
        ops = _targets(c)
        return ops[-1] if len(ops) >= 2 else ""
    return ""


def _image_run(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A disk image downloaded, mounted and a program on it run, on one line."""
    words = cmd.words[1:]
    if cmd.name == "hdiutil" and not any(w in ("attach", "mount") for w in words[:2]):
        return
    if cmd.name == "mount" and not any("loop" in w for w in words) and \
            not any(w.endswith((".iso", ".img", ".dmg")) for w in words):
        return
    if cmd.name == "udisksctl" and "loop-setup" not in words:
        return
    if cmd.name in ("7z", "open") and not any(w.endswith((".dmg", ".iso", ".img")) for w in words):
        return  # (`open x.dmg` mounts the image, as hdiutil attach does)
    cmds = analysis.commands
    at = _index(cmd, analysis)
    if not any(c.name in DOWNLOADERS or c.name in ("start-bitstransfer", "certutil", "bitsadmin") for c in cmds[:at]):
        return
    mount = _mount_point(cmd)
    for c in cmds[at + 1:]:
        places = [c.words[0], *(_targets(c) if c.name in _RUNS_FROM else ())]
        for p in places:
            on_image = p.startswith("/volumes/") or (mount and p.startswith(mount.rstrip("/") + "/")) or \
                (cmd.name == "mount-diskimage" and _DRIVE_PROGRAM.match(p))
            if on_image and (_PROGRAM_FILE.search(p) or p == c.words[0] or _DRIVE_PROGRAM.match(p)) and \
                    c.name not in ("ls", "cat", "hdiutil", "diskutil", "umount", "eject"):
                add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                            f"downloads a disk image, mounts it and runs {p[:60]} from it: download and run"
                            f"{where}", cmd.span))
                return


def _collected_out(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A collector whose archive the same line uploads."""
    at = _index(cmd, analysis)
    for c in analysis.commands[at + 1:]:
        if c.name in _SENDS and (c.name not in ("curl", "wget", "http", "xh") or
                                 any(_UPLOAD_FLAG.search(w) for w in c.words[1:])):
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"{cmd.name} gathers the machine's records and {c.name} sends them to another machine"
                        f"{where}", cmd.span))
            return


# -- attack programs built from source ---------------------------------------------------------------------------
# compilers and freezers: the program name, then the verb that builds (None: any use builds)
_BUILDERS: dict[str, frozenset[str] | None] = {
    "go": frozenset({"build", "install"}), "garble": frozenset({"build"}), "cargo": frozenset({"build", "install"}),
    "dotnet": frozenset({"build", "publish"}), "msbuild": None, "msbuild.exe": None, "csc": None, "csc.exe": None,
    "make": None, "cmake": None, "pyinstaller": None, "nuitka": None, "nuitka3": None, "cxfreeze": None,
    "mingw32-make": None, "x86_64-w64-mingw32-gcc": None, "i686-w64-mingw32-gcc": None,
}
# what `python -m` runs to freeze a script into an executable
_FREEZERS = frozenset({"nuitka", "pyinstaller", "cx_freeze", "py2exe"})
_PART = re.compile(r"[\\/=,:@]")
_EXT = re.compile(r"\.(py|pyw|go|rs|cs|csproj|sln|spec|c|cpp|exe)$")


# a builder's own verbs and make's usual targets: `go install X`, `make -n install` build X or the project
_BUILD_WORDS = frozenset({"install", "uninstall", "build", "publish", "all", "clean", "test", "check", "dist",
                          "release", "run"})


def _tool_named(word: str) -> str | None:
    """The attack program a build operand names (`./cmd/hack-browser-data/`, `--include-package=lazagne`,
    `laZagne.py`, `SharpChrome.csproj`), or None."""
    for part in _PART.split(word.lower()):
        stem = _EXT.sub("", part.strip("'\".")) if part else ""
        if len(stem) < 5 or stem in _COMMON_WORDS:
            continue
        for name in (stem, stem.replace("-", "").replace("_", "")):
            if name in _TOOLS or (name not in _BUILD_WORDS and any(f.decision == "block" for f in functions_for(name))):
                return name
    return None


def _built_tool(cmd: Command, where: str, add: Add) -> None:
    """A build of an attack program from its source: asks as fetching it does."""
    name, words = cmd.name, cmd.words[1:]
    if name in _SCRIPT_RUNNERS:
        if "-m" not in words or words.index("-m") + 1 >= len(words) or \
                words[words.index("-m") + 1].lower() not in _FREEZERS:
            return
        words = words[words.index("-m") + 2:]
    else:
        verbs = _BUILDERS[name]
        if verbs is not None and not (words and words[0] in verbs):
            return
    if any(w in ("-h", "--help", "--version") for w in words):
        return
    tool = next((t for w in words if (t := _tool_named(w))), None)
    if tool is not None:
        add(Finding("confirm.shell.attack-tool-download", Risk.HIGH,
                    f"{name} builds {tool}, a program made to steal credentials or attack, from its source{where}",
                    cmd.span))


# what sets up a project in the folder a line has just entered: its dependencies, its installer, its build
_SETUP = {"pip": "install", "pip3": "install", "pipx": "install", "poetry": "install", "pipenv": "install",
          "uv": "pip", "npm": "install", "yarn": None, "pnpm": "install", "bundle": "install", "gem": "install",
          "go": "build", "cargo": "build", "make": None, "cmake": None, "composer": "install"}
_SETUP_SCRIPT = re.compile(r"^(?:setup|install|installer|build|configure|bootstrap)(?:\.(?:py|sh|rb))?$")


def _entered_kit(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`cd setoolkit && pip3 install -r requirements.txt && python setup.py`: a line that enters a folder named for
    an attack tool or kit and installs, builds or runs its setup there sets the tool up, as fetching it does."""
    folder = cmd.words[-1].strip("'\"").rstrip("/\\")
    stem = folder.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if stem not in _KITS_FETCHED and stem not in _TOOLS and _tool_named(stem) is None:
        return
    for c in analysis.commands[_index(cmd, analysis) + 1:]:
        words = c.words[1:]
        verb = _SETUP.get(c.name, "")
        runs_setup = (c.name in _SCRIPT_RUNNERS or c.name in ("sh", "bash")) and bool(words) and \
            bool(_SETUP_SCRIPT.match(words[0].lower().rsplit("/", 1)[-1]))
        if runs_setup or _SETUP_SCRIPT.match(c.words[0].lower().rsplit("/", 1)[-1]) or verb is None or \
                (verb and verb in words[:2]):
            add(Finding("confirm.shell.attack-tool-download", Risk.HIGH,
                        f"sets up {stem}, a tool made for attacks, in its folder ({c.name}){where}", c.span))
            return


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """The steps of an attack this command takes part in (see the module docstring)."""
    name = cmd.name
    if name in _SCRIPT_RUNNERS and len(cmd.words) > 1:
        _scripted_tool(cmd, where, add)
    if name in _CAPTURE:
        _capture(cmd, analysis, where, add)
    if name in _DOTFILE_TOOLS and len(cmd.words) > 2:
        _dotfile_add(d, cmd, analysis, where, add)
    if name in _SYNCERS and len(cmd.words) > 2:
        _synced_secret(d, cmd, analysis, where, add)
    if (name in _VM_PROBES or name == "exit") and len(analysis.commands) > 1 and _VM_CUE.search(analysis.source):
        _vm_gate(cmd, analysis, where, add)
    if name in _OPENERS or "/" in cmd.argv[0] or "\\" in cmd.argv[0]:
        _disguised(cmd, analysis, where, add)
        if ("/" in cmd.argv[0] or "\\" in cmd.argv[0]) and len(cmd.argv) > 1:
            _store_handed(d, cmd, analysis, where, add)
    elif name in _STORE_READERS and len(cmd.argv) > 1:
        _store_handed(d, cmd, analysis, where, add)
    if name == "xattr" and len(analysis.commands) > 1:
        _unquarantined(cmd, analysis, where, add)
    if (name in _IMAGE_MOUNTERS or name == "open") and len(analysis.commands) > 2:
        _image_run(cmd, analysis, where, add)
    if name in _COLLECTORS and len(analysis.commands) > 1:
        _collected_out(cmd, analysis, where, add)
    if name in _CONTAINER_ENGINES and len(cmd.words) > 2:
        _container_image(cmd, where, add)
    if (name in _BUILDERS or name in _SCRIPT_RUNNERS) and len(cmd.words) > 1:
        _built_tool(cmd, where, add)
    if name in ("cd", "pushd", "set-location", "sl", "chdir") and len(cmd.words) == 2 and len(analysis.commands) > 1:
        _entered_kit(cmd, analysis, where, add)
    if (cmd.redirects or name in _COPY_INTO or name in _EDIT_IN_PLACE) and \
            any("launch" in w for w in (*cmd.words, *(t for _, t in cmd.redirects))):
        _apple_dressed_job(cmd, analysis, where, add)


NAMES = frozenset({*_SCRIPT_RUNNERS, *_CAPTURE, *_DOTFILE_TOOLS, *_SYNCERS, *_VM_PROBES, *_STORE_READERS, "exit",
                   *_OPENERS, "xattr", *_IMAGE_MOUNTERS, *_COLLECTORS, *_CONTAINER_ENGINES, *_COPY_INTO,
                   *_EDIT_IN_PLACE, "cat", "echo", "printf", *_BUILDERS, "cd", "pushd", "set-location", "sl", "chdir"})
