"""Shell checks: network tools, data sources sent off the machine, downloads.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.catalogue import risky_destination
from gate.model import Risk
from gate.rules.shell_vocab import (
    _LISTENERS,
    _NET_TOOLS,
    _uploaded_files,
)
from gate.shell import (
    SHELLS,
    Command,
    Finding,
    ShellAnalysis,
    _reads_stdin_as_code,
)

__all__ = ["DataOutChecks"]

# a variable named for a secret (`$GITHUB_TOKEN`, `${DB_PASSWORD}`, `$AWS_SECRET_ACCESS_KEY`)
_SECRET_VAR = re.compile(r"\$\{?(?P<name>[a-z0-9_]*(?:secret|token|passw|api_?key|access_?key|private_?key|"
                         r"credential)[a-z0-9_]*)", re.I)
# options whose value is the request's body (what is sent), by client
_BODY_FLAGS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--data-ascii", "-F",
                         "--form", "--form-string", "--json", "--post-data", "--body-data", "--body", "-body",
                         "-postdata", "--raw"})
# options whose value authenticates the request to its own service (the secret used as it is meant to be)
_AUTH_FLAGS = frozenset({"-u", "--user", "--oauth2-bearer", "--auth", "-a", "--http-password", "--password",
                         "-credential"})


_RX_NETWORK_TOOL = re.compile(r"-[a-z]*e")
_RX_NETWORK_TOOL_2 = re.compile(r"(exec|system):")
_RX_NETWORK_TOOL_3 = re.compile(r"(tcp|udp|openssl|ssl)[46]?(-connect|-listen)?:")
_RX_NETWORK_TOOL_4 = re.compile(r"-[a-z]*l[a-z]*")
_RX_NETWORK_TOOL_5 = re.compile(r"(tcp|udp|openssl|ssl)[46]?-listen:")
# a Tor hidden service's address, and a SOCKS proxy on Tor's own ports
_ONION = re.compile(r"^([a-z][\w+.-]*://)?([\w-]+\.)+onion(:\d+)?(/|$)", re.I)
_TOR_PROXY = re.compile(r"^((--(socks5?(-hostname)?|proxy)=)|socks5h?://)?(localhost|127\.0\.0\.1):(9050|9150)$",
                        re.I)
_RX_EXFIL_SOURCE = re.compile(r"^([\w.-]+@)?[\w.-]+:")
_RX_EXFIL_SOURCE_2 = re.compile(r"^([\w.-]+@)?[\w.-]+:")


class DataOutChecks:
    """Network tools, data sources sent off the machine, downloads."""

    def secret_sent(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        """A secret-named variable put into what a request carries: in its body, its URL or a header other than
        its own authorization, it leaves for the host (asks; blocks towards a bare IP or a drop site). As the
        request's own credentials (`-u`, `Authorization:`) it is used as meant, unless the host is one of those."""
        argv = cmd.argv
        if "$" not in " ".join(argv[1:]):
            return
        carried: str | None = None
        authorizing: str | None = None
        for k, a in enumerate(argv[1:], 1):
            m = _SECRET_VAR.search(a)
            if m is None:
                continue
            flag = argv[k - 1].split("=", 1)[0].lower() if k > 1 else ""
            inline = a.split("=", 1)[0].lower() if a.startswith("-") else ""
            header = flag in ("-h", "--header", "-headers") and a.lower().lstrip("'\"").startswith(
                ("authorization:", "proxy-authorization:", "x-api-key:", "private-token:", "x-auth-token:"))
            if flag in _AUTH_FLAGS or inline in _AUTH_FLAGS or header:
                authorizing = authorizing or m.group("name")
            elif flag in _BODY_FLAGS or inline in _BODY_FLAGS or "://" in a or flag in ("-h", "--header"):
                carried = carried or m.group("name")
        if carried is None and authorizing is None:
            return
        drop = risky_destination(cmd.words)
        if drop is not None:
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"{cmd.name} sends ${carried or authorizing} to {drop}{where}", cmd.span))
        elif carried is not None:
            add(Finding("confirm.shell.network", Risk.HIGH,
                        f"{cmd.name} puts ${carried} into what the request carries: the host gets the secret{where}",
                        cmd.span))

    def network_tool(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        name = cmd.name
        words = list(cmd.words[1:])
        if name in ("nc", "ncat", "netcat", "cryptcat", "pwncat") and any(
                w in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or _RX_NETWORK_TOOL.fullmatch(w) for w in words):
            add(Finding("block.shell.reverse-shell", Risk.CRITICAL, f"{name} -e hands a shell to the network{where}",
                        cmd.span))
            return
        if name == "socat" and any(_RX_NETWORK_TOOL_2.match(w) for w in words) and \
                any(_RX_NETWORK_TOOL_3.match(w) for w in words):
            add(Finding("block.shell.reverse-shell", Risk.CRITICAL, f"socat connects a program to the network{where}",
                        cmd.span))
            return
        cmds = analysis.commands
        # a shell and a network tool in one pipeline: the shell's input or output is the network
        if name in _NET_TOOLS and any(cmds[i].name in SHELLS and ("-i" in cmds[i].argv or _reads_stdin_as_code(cmds[i]))
                                      for i in cmd.upstream):
            add(Finding("block.shell.reverse-shell", Risk.CRITICAL, f"pipes a shell through {name}{where}", cmd.span))
            return
        secret = self.exfil_source(cmd, analysis)
        if secret:
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"sends {secret} off the machine ({name}){where}", cmd.span))
            return
        hidden = next((w for w in words if _ONION.search(w)), None)
        if hidden is None and any(_TOR_PROXY.search(w) for w in words):
            hidden = "a Tor proxy"
        if hidden:
            add(Finding("confirm.shell.network", Risk.HIGH, f"{name} talks through Tor ({hidden[:60]}): who is at "
                        f"the other end is hidden by design{where}", cmd.span))
            return
        uploads = _uploaded_files(cmd)
        if uploads:
            add(Finding("confirm.shell.network", Risk.MEDIUM,
                        f"uploads the local file {uploads[0]} to a remote host ({name}){where}", cmd.span))
        if name in _LISTENERS and any(_RX_NETWORK_TOOL_4.fullmatch(w) or w == "--listen" for w in words):
            add(Finding("confirm.shell.network", Risk.MEDIUM,
                        f"{name} listens for connections from the network{where}", cmd.span))
        elif name == "socat" and any(_RX_NETWORK_TOOL_5.match(w) for w in words):
            add(Finding("confirm.shell.network", Risk.MEDIUM, f"socat listens for connections{where}", cmd.span))

    def exfil_source(self, cmd: Command, analysis: ShellAnalysis) -> str | None:
        """What secret a network-sending command carries out, if any."""
        name = cmd.name
        words = cmd.argv[1:]
        for op, target in cmd.redirects:
            if op == "<":
                hit = self.secret_path(cmd, target)
                if hit:
                    return hit
        for path in _uploaded_files(cmd):
            hit = self.secret_path(cmd, path)
            if hit:
                return hit
        for i in cmd.subst:
            hit = self.secret_read_at(analysis, i)
            if hit:
                return hit
        if name in _NET_TOOLS or name in ("curl", "curlie", "http", "https", "xh", "wget", "wget2", "ftp"):
            for i in cmd.upstream:
                hit = self.secret_read_at(analysis, i)
                if hit:
                    return hit
        if name in ("scp", "rsync", "sftp") and any(_RX_EXFIL_SOURCE.match(a) for a in words):
            for a in words:
                if not a.startswith("-") and not _RX_EXFIL_SOURCE_2.match(a):
                    hit = self.secret_path(cmd, a)
                    if hit:
                        return hit
        return None

    def download(self, cmd: Command, downloaded: dict[str, str]) -> None:
        words = cmd.argv[1:]
        for k, a in enumerate(words):
            if a in ("-o", "-O", "--output", "--output-document") and k + 1 < len(words) and words[k + 1] != "-":
                downloaded[words[k + 1]] = cmd.name
            elif a.startswith("--output-document=") or a.startswith("--output="):
                downloaded[a.split("=", 1)[1]] = cmd.name
        if cmd.name in ("wget", "wget2") and not any(a.startswith(("-O", "--output-document")) for a in words):
            for a in words:
                if "://" in a:
                    downloaded[a.rstrip("/").rsplit("/", 1)[-1]] = cmd.name
