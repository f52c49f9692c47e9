"""Shell checks: relays, covert channels and listeners that wait for shells.

Three kinds of program put this machine at the end of another's line:
- relay clients and servers (rathole, frp, bore, inlets, pgrok, zrok, localtunnel, ...): they put a port of this
  machine on a server on the internet. Asked; blocked when the server is a bare public address, on the command
  line or in a config the same line writes, or when the config is kept in a temporary folder;
- covert channels (dnscat2, iodine, icmpsh, ptunnel, dns2tcp, dnstt): IP traffic or a shell carried inside DNS
  lookups or pings, past a firewall (ATT&CK T1572, T1071.004, T1095). Blocked when every place they name is
  another machine, asked at this machine or with no place named;
- post-exploitation listeners and command-and-control consoles (pwncat-cs, penelope, Villain, hoaxshell, Sliver,
  Havoc, Empire, Merlin, Mythic): they wait for shells from machines broken into (ATT&CK T1219, T1571).
  Blocked.

The same programs are often started as scripts of an interpreter (`ruby ./dnscat2.rb`, `python3 penelope.py`,
`python3 icmpsh_m.py`): the script's name is read as the program's. Asked only for their version or help, they
touch nothing. The `ssh -R` / chisel / ligolo family is `gate/rules/shell_context.py` (`tunnel`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.shell import INTERPRETERS, Command, Finding, ShellAnalysis

__all__ = ["NAMES", "judge", "program_of"]

# put a port of this machine on a relay server (reverse proxies, "expose localhost" services)
RELAYS = frozenset({"rathole", "frpc", "frps", "bore", "inlets", "inlets-pro", "pgrok", "pgrokd", "zrok",
                    "localtunnel", "lt", "tunnelmole", "loclx", "localxpose", "playit", "playit-cli",
                    "boringproxy", "sish", "telebit", "jprq", "tunwg", "expose", "portr", "tunnelto"})
# carry traffic or a shell inside DNS lookups or ICMP echo
COVERT_DNS = frozenset({"dnscat", "dnscat2", "dnscat2-client", "dnscat2-server", "iodine", "iodined", "dns2tcp",
                        "dns2tcpc", "dns2tcpd", "dnstt-client", "dnstt-server", "dnsexfiltrator", "dnslivery",
                        "dnsteal", "godoh", "dnspot"})
COVERT_ICMP = frozenset({"icmpsh", "icmpsh_m", "icmpsh-m", "icmpsh-s", "ptunnel", "ptunnel-ng", "icmptunnel",
                         "hans", "icmpdoor", "pingtunnel"})
# wait for shells from machines broken into, or drive implants on them
LISTENERS = frozenset({"pwncat-cs", "pwncat-vl", "penelope", "villain", "hoaxshell", "sliver-server",
                       "sliver-client", "sliver", "havoc", "havoc-client", "empire", "powershell-empire",
                       "ps-empire", "starkiller", "merlinserver", "merlin-server", "mythic-cli", "covenant",
                       "platypus", "shad0w", "pupysh", "pupy", "koadic", "silenttrinity", "evil-ssdp",
                       "msfrpcd", "armitage"})
NAMES = RELAYS | COVERT_DNS | COVERT_ICMP | LISTENERS | {"pwncat"}

# names that are ordinary words too: a script called so (`node expose.js`, `python3 empire.py`) is anyone's
_COMMON_WORDS = frozenset({"lt", "expose", "bore", "sish", "empire", "platypus", "havoc", "hans", "sliver", "realm",
                           "playit", "portr", "sensor"})
_INFO_ONLY = frozenset({"--version", "-version", "-v", "-V", "version", "-h", "--help", "-help", "help"})
# script names carry a role or a platform after the program's name: icmpsh_m.py, icmpsh-s.exe, dnscat2-server.rb
_ROLE_SUFFIX = re.compile(r"([._-](m|s|master|slave|server|client|cli|main|linux|windows|darwin|amd64|x64|x86|"
                          r"arm64|386|exe|py|rb|pl|js|ps1|sh|v?\d+(\.\d+)*))+$")
_SCRIPT = re.compile(r"\.(py|rb|pl|js|mjs|php|ps1|lua|sh)$")
_IPV4 = re.compile(r"(?<![\w.])((?:\d{1,3}\.){3}\d{1,3})(?![\w.]|\.\d)")
_PRIVATE = re.compile(r"^(10\.|127\.|0\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)")
_LOCAL = re.compile(r"^(localhost|127\.[\d.]+|0\.0\.0\.0|::1|\[::1\])$")
_HOST_WORD = re.compile(r"^(?:[a-z0-9-]+\.)+[a-z]{2,}$|^(?:\d{1,3}\.){3}\d{1,3}$")
# words of a relay's config that name its server (rathole's remote_addr, frp's server_addr, inlets' --url)
_SERVER_KEY = re.compile(r"(remote_addr|server_addr|serveraddr|server_address|server|remote|url|upstream|addr)"
                         r"\s*[=:]", re.I)

# a relay's config kept where payloads hide: memory-backed and temporary folders (a reboot empties them)
_CONFIG = re.compile(r"\.(toml|ini|ya?ml|json|conf|cfg)$")
_OUT_OF_SIGHT = re.compile(r"^(/dev/shm|/run/shm|/var/tmp|/tmp|/private/tmp)/")

Add = Callable[[Finding], None]


def _known(stem: str) -> str:
    """The program a script or binary name is (`icmpsh_m` -> icmpsh, `dnscat2-server` -> dnscat2), or ""."""
    if stem in NAMES:
        return stem
    bare = _ROLE_SUFFIX.sub("", stem)
    return bare if bare in NAMES else ""


def program_of(cmd: Command) -> tuple[str, tuple[str, ...]]:
    """The relay, channel or listener `cmd` runs and the words it is given: the program by its own name, or a
    script of an interpreter by the script's name (`ruby ./dnscat2.rb --dns x` -> dnscat2, [--dns, x])."""
    name = cmd.name
    if name in NAMES:
        return name, cmd.words[1:]
    if name in INTERPRETERS:
        inline = INTERPRETERS[name]
        for k, w in enumerate(cmd.words[1:], start=1):
            if w in inline or w in ("-c", "-e", "-m"):
                return "", ()
            if not w.startswith("-"):
                base = w.replace("\\", "/").rsplit("/", 1)[-1]
                if not _SCRIPT.search(base):
                    return "", ()
                known = _known(_SCRIPT.sub("", base))
                return (known, cmd.words[k + 1:]) if known not in _COMMON_WORDS else ("", ())
        return "", ()
    known = _known(name) if "/" in cmd.argv[0] or "\\" in cmd.argv[0] else ""  # (a release build run by its path)
    return (known, cmd.words[1:]) if known else ("", ())


def _far(address: str) -> bool:
    return not _PRIVATE.match(address) and all(int(p) < 256 for p in address.split("."))


# the switches whose value is not the far end: ptunnel's destination as the proxy reaches it and its ports
_NOT_FAR_END = frozenset({"-r", "-lp", "-rp", "-l", "-R", "-da", "-dp"})


def _places(words: tuple[str, ...]) -> list[str]:
    """Host names and addresses among the words (`domain=t.example.org`, `198.51.100.2:443`, wss://x)."""
    out = []
    for k, w in enumerate(words):
        if k and words[k - 1] in _NOT_FAR_END:
            continue
        for part in w.split(","):
            value = part.split("=", 1)[-1].split("://", 1)[-1].split("/", 1)[0].split("@")[-1]
            host = value.rsplit(":", 1)[0] if value.count(":") == 1 else value
            if _HOST_WORD.match(host) and not _SCRIPT.search(host) and not host.endswith((".toml", ".ini", ".yaml",
                                                                                          ".yml", ".json", ".conf")):
                out.append(host)
    return out


def _written_server(analysis: ShellAnalysis, cmd: Command) -> str:
    """A bare public address the line writes into a config beside the relay (`printf 'remote_addr="IP:port"'
    > c.toml && ./rathole c.toml`), or ""."""
    for other in analysis.commands:
        if other is cmd or not (other.redirects or other.stdin_text):
            continue
        text = " ".join([*other.argv[1:], other.stdin_text or ""])
        if not _SERVER_KEY.search(text):
            continue
        far = next((a for a in _IPV4.findall(text) if _far(a)), "")
        if far:
            return far
    return ""


def judge(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A relay, covert channel or listener started (see the module docstring)."""
    name, words = program_of(cmd)
    if not name or (words and all(w in _INFO_ONLY for w in words)) or \
            (not words and name in RELAYS | COVERT_DNS | COVERT_ICMP and cmd.name not in INTERPRETERS):
        return
    if name == "pwncat":  # the netcat-like pwncat: a listener when told to listen
        if not any(w in ("-l", "-lp", "-lvp", "-lvnp", "-lnvp", "--listen") for w in words):
            return
        name = "pwncat-cs"
    if name in LISTENERS:
        add(Finding("block.shell.attack-tool", Risk.CRITICAL,
                    f"{name} waits for shells from other machines or drives implants on them: a post-exploitation "
                    f"listener{where}", cmd.span))
        return
    places = _places(words)
    if name in COVERT_DNS or name in COVERT_ICMP:
        road = "DNS lookups" if name in COVERT_DNS else "ICMP echo (ping) packets"
        if places and not any(_LOCAL.match(p) for p in places):
            add(Finding("block.shell.remote-access", Risk.CRITICAL,
                        f"{name} carries traffic or a shell inside {road} to {places[-1][:40]}: a covert channel "
                        f"past the firewall{where}", cmd.span))
        else:  # (at this machine, or with no place named: a test of the tool, or its server waiting)
            add(Finding("confirm.shell.network", Risk.HIGH, f"{name} opens a channel inside {road}{where}",
                        cmd.span))
        return
    far = next((p for p in places if _IPV4.fullmatch(p) and _far(p)), "") or _written_server(analysis, cmd)
    hidden = next((w for w in words if _CONFIG.search(w) and _OUT_OF_SIGHT.search(w)), "")
    if hidden and not far:
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{name} runs a relay from {hidden[:60]}, a config kept in a temporary folder: what it "
                    f"puts on the server is hidden{where}", cmd.span))
        return
    if far:
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{name} puts a port of this machine on the relay at the bare address {far}{where}", cmd.span))
        return
    add(Finding("confirm.shell.network", Risk.HIGH,
                f"{name} puts a port of this machine on a relay server on the internet{where}", cmd.span))
