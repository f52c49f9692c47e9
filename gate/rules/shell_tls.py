"""Shell findings about the TLS certificate check switched off (read for each line; gate/rules/shell_harvest.py
calls `line`).

A certificate check is what tells a program that the server it talks to is the one it named. Off, anyone on the
way reads and changes what goes both ways: the answer a script acts on, the download it runs, the credentials it
sends (ATT&CK T1557, and the `--insecure` a lure asks for).

- Off for the whole process (`[Net.ServicePointManager]::ServerCertificateValidationCallback = { $true }`, a
  `TrustAllCertsPolicy`, Python's default context swapped for the unverified one): every later request of the
  session trusts any certificate; nothing asks again. It blocks (`block.shell.defense-evasion`).
- Off for one request (`curl -k`, `wget --no-check-certificate`, `Invoke-WebRequest -SkipCertificateCheck`,
  `git -c http.sslVerify=false`, `kubectl --insecure-skip-tls-verify`, ...): it asks
  (`confirm.shell.defense-evasion`). A request to this machine or to a device of the home or office network (a
  router's or a NAS's own self-signed certificate) passes, and so does a request for the headers alone
  (`curl -Ik`): nothing of what it fetches is used.
Choosing a newer protocol (`SecurityProtocol = Tls12`) or putting the check back (`... = $null`) is no switch-off.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.prefix import literals
from gate.shell import Command, Finding, ShellAnalysis

__all__ = ["line"]

Add = Callable[[Finding], None]

# a process-wide validation callback or policy that accepts every certificate
_PROCESS_OFF = re.compile(
    r"ServerCertificate(?:Custom)?ValidationCallback\s*=\s*(?:\[[\w.]+\]\s*)?\{\s*(?:param\s*\([^)]*\)\s*)?"
    r"(?:return\s+)?\$?true\s*;?\s*\}"
    r"|ServerCertificate(?:Custom)?ValidationCallback\s*=\s*\(?[\w\s,]*\)?\s*=>\s*true\b"
    r"|DangerousAcceptAnyServerCertificateValidator"
    r"|CertificatePolicy\s*=\s*New-Object\s+\S*TrustAll"
    r"|_create_default_https_context\s*=\s*(?:ssl\.)?_create_unverified_context"
    r"|rejectUnauthorized\s*[:=]\s*false.*globalAgent|globalAgent.*rejectUnauthorized\s*[:=]\s*false",
    re.I | re.S)

# per program: the flags (or `flag=value` forms) that skip the check for one request
_SKIP: dict[str, re.Pattern[str]] = {
    "curl": re.compile(r"-[a-zA-Z]*k[a-zA-Z]*|--insecure|--proxy-insecure"),
    "wget": re.compile(r"--no-check-certificate"),
    "wget2": re.compile(r"--no-check-certificate|--check-certificate=(?:no|off|false|0)"),
    "invoke-webrequest": re.compile(r"-skipcertificatecheck(?::\$true)?", re.I),
    "invoke-restmethod": re.compile(r"-skipcertificatecheck(?::\$true)?", re.I),
    "iwr": re.compile(r"-skipcertificatecheck(?::\$true)?", re.I),
    "irm": re.compile(r"-skipcertificatecheck(?::\$true)?", re.I),
    "http": re.compile(r"--verify[= ](?:no|false|0)"),
    "https": re.compile(r"--verify[= ](?:no|false|0)"),
    "xh": re.compile(r"--verify[= ](?:no|false|0)|--insecure|-k"),
    "aria2c": re.compile(r"--check-certificate=false"),
    "git": re.compile(r"http\.sslverify=(?:false|no|0|off)", re.I),
    "kubectl": re.compile(r"--insecure[-_]skip[-_]tls[-_]verify(?:=true)?"),
    "oc": re.compile(r"--insecure[-_]skip[-_]tls[-_]verify(?:=true)?"),
    "helm": re.compile(r"--insecure-skip-tls-verify(?:=true)?"),
    "yt-dlp": re.compile(r"--no-check-certificates?"),
    "youtube-dl": re.compile(r"--no-check-certificates?"),
    "rclone": re.compile(r"--no-check-certificate(?:=true)?"),
    "grpcurl": re.compile(r"-insecure"),
    "vault": re.compile(r"-tls-skip-verify(?:=true)?"),
    "mc": re.compile(r"--insecure"),
    "skopeo": re.compile(r"--(?:src-|dest-)?tls-verify=false"),
    "podman": re.compile(r"--tls-verify=false"),
    "buildah": re.compile(r"--tls-verify=false"),
    "lftp": re.compile(r"ssl:verify-certificate\s+(?:no|false|off)"),
}
CUES = ("insecure", "curl", "xh ", "check-certificate", "skipcertificatecheck", "sslverify", "verify", "tls",
         "certificate", "trustall", "unverified", "rejectunauthorized")
_ANY_CUE = literals(CUES)  # whether a line holds one of them, in one search (not a scan per cue)
# this machine, and the addresses and names of the home or office network (devices with their own certificates)
_NEAR = re.compile(r"^(?:localhost|[\w-]+\.localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0|10(?:\.\d{1,3}){3}|"
                   r"192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|"
                   r"[\w.-]+\.(?:local|lan|home\.arpa|internal)|[\w-]+)$", re.I)
_HOST = re.compile(r"^(?:[a-z][\w+.-]*://)?(?:[^/@\s]*@)?(\[[^\]]+\]|[^/:?#\s]+)", re.I)
_CURL_HEAD = re.compile(r"-[a-zA-Z]*I[a-zA-Z]*|--head")  # (case matters: curl's -i shows headers and body)


def _hosts(cmd: Command) -> list[str]:
    out = []
    for w in cmd.argv[1:]:
        w = w.strip("'\"")
        if "://" in w and not w.startswith("-"):
            m = _HOST.match(w)
            if m:
                out.append(m.group(1).lower())
    return out


def _head_only(cmd: Command) -> bool:
    if cmd.name == "curl" and any(_CURL_HEAD.fullmatch(w) for w in cmd.argv[1:]):
        return True
    words = [w.lower() for w in cmd.argv[1:]]
    return "-method:head" in words or any(
        w in ("-x", "--request", "-method") and k + 1 < len(words) and words[k + 1] == "head"
        for k, w in enumerate(words))


def line(analysis: ShellAnalysis, add: Add) -> None:
    """The findings of the module docstring, for a line that holds one of their words."""
    low = analysis.source.lower()
    if _ANY_CUE is None or _ANY_CUE.search(low) is None:
        return
    if (m := _PROCESS_OFF.search(analysis.source)) is not None:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{m.group(0)[:60]}: every certificate is accepted from now on, so anyone on the way reads and "
                    f"changes what this session sends and fetches", m.group(0)[:200]))
        return
    for cmd in analysis.commands:
        skip = _SKIP.get(cmd.name)
        if skip is None:
            continue
        flag = next((w for w in cmd.argv[1:] if skip.fullmatch(w.strip("'\""))), None)
        if cmd.name == "lftp" and flag is None:
            flag = (m2.group(0) if (m2 := skip.search(" ".join(cmd.argv[1:]))) else None)
        if flag is None or _head_only(cmd):
            continue
        hosts = _hosts(cmd)
        if hosts and all(_NEAR.match(h) for h in hosts):
            continue
        where = f" ({hosts[0]})" if hosts else ""
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                    f"{cmd.name} {flag}: the server's certificate is not checked{where}, so anyone on the way can "
                    f"read and change what is sent and fetched", cmd.span))
        return
