"""Shell checks: a machine's service taken from its people, or the machine turned on others.

Part of the shell Detector (gate/rules/shell.py), entered only for the programs of `NAMES`; the words are the
programs' own (`resources/sabotage.toml`):

- a process named as a miner given more of the machine (`renice -n -5`, `chrt -f`, `taskset`, `ionice -c 1`)
  → block (`block.shell.miner`): nobody tunes a miner they did not mean to run; lowering one's priority passes;
- a packet capture written to a hidden file (`tcpdump -w /var/tmp/.x.pcap`, `tshark -w ~/.cache/.t`) → block
  (`block.shell.covert-capture`): a capture someone means to keep out of sight is a wiretap; a capture to a
  plain file is judged as before (it asks);
- a flood: a packet sender's flood option (`hping3 --flood`, `ping -f`), a tool made only to take a site down
  (slowloris, hulk, LOIC), or an endless loop of requests with nothing pacing it (`while true; do curl URL;
  done`) against a host that is not this machine → block (`block.shell.denial-of-service`); a loop with a
  `sleep`, one that stops on success, and a flood of localhost are judged as before;
- the mail, remote-login or network service masked (`systemctl mask postfix`, `systemctl mask --now sshd`): it
  cannot be started again until someone unmasks it → block (`block.shell.denial-of-service`); stopping,
  disabling or masking any other unit is judged as before;
- a container engine's or hypervisor's socket made writable by everyone (`chmod 666 /var/run/docker.sock`):
  every local account becomes root → block (`block.shell.insecure-permissions-root`); `chmod 660` passes;
- a database dumped and published in one line as a public repository, gist or snippet (`pg_dump ... > db.sql
  && gh repo create x --public --source=. --push`) → block (`block.shell.public-exposure`); a private
  repository, or a public one without a dump, is judged as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources
from urllib.parse import urlsplit

from gate import regex_store
from gate.model import Risk
from gate.shell import Command, Finding, ShellAnalysis
from gate.urls import is_loopback

__all__ = ["NAMES", "RULE_DOCS", "judge"]

Add = Callable[[Finding], None]

RULE_DOCS: tuple[tuple[str, str, Risk, str], ...] = (
    ("block.shell.covert-capture", "network traffic captured to a hidden file", Risk.CRITICAL,
     "A packet capture (tcpdump, tshark, dumpcap, tcpflow, ngrep, ettercap, netsniff-ng) written to a file whose "
     "name or folder starts with a dot (`-w /tmp/.cache.pcap`): a wiretap meant to stay out of sight. A capture to "
     "a plain file asks as before."),
    ("block.shell.denial-of-service", "takes a service away from its users", Risk.CRITICAL,
     "A flood (hping3 --flood, ping -f, t50 --flood), a tool made to take sites down (slowloris, slowhttptest, "
     "hulk, LOIC, GoldenEye), an endless loop of requests with nothing pacing it against another host (`while "
     "true; do curl URL; done`), or the mail, remote-login or network service masked so it cannot start again "
     "(systemctl mask postfix / sshd / NetworkManager). A paced loop, a flood of localhost and any other unit "
     "stopped or masked are judged as before."),
)

_BOOK = regex_store.toml(resources.files("resources").joinpath("sabotage.toml").read_text("utf-8"))
_MINING = regex_store.toml(resources.files("resources").joinpath("destinations.toml").read_text("utf-8"))["mining"]

_SCHEDULERS = frozenset(_BOOK["priority"]["programs"])
_MINER = re.compile(_BOOK["priority"]["miner_words"] + "|(?<![a-z])(?:" + "|".join(
    re.escape(m) for m in _MINING["miners"] if m not in _MINING["ambiguous"]) + ")(?![a-z])")
_CAPTURES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _BOOK["capture"]["writes"].items()}
_FLOOD_TOOLS = frozenset(_BOOK["flood"]["tools"])
_SENDERS: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _BOOK["flood"]["senders"].items()}
_REQUESTERS = frozenset(_BOOK["flood"]["requesters"])
_PACING = frozenset(_BOOK["flood"]["pacing"])
_KEPT = frozenset(_BOOK["services"]["kept"])
_ROOT_SOCKETS = tuple(_BOOK["sockets"]["root"])
_DUMPS = frozenset(_BOOK["publish"]["dumps"])
_DUMP_VERBS: dict[str, str] = dict(_BOOK["publish"]["verbs"])
_PUBLIC = tuple(_BOOK["publish"]["public"])
_PUBLISHERS = frozenset(_BOOK["publish"]["publishers"])

NAMES = frozenset({*_SCHEDULERS, *_CAPTURES, *_FLOOD_TOOLS, *_SENDERS, *_REQUESTERS, *_PUBLISHERS, "systemctl",
                   "chmod", "setfacl"})

# the head of a loop that never ends by itself (bash, zsh, PowerShell, C-style)
_ENDLESS = re.compile(r"\bwhile\s+(?:true|:|1|\[\s*1\s*\]|\[\[\s*1\s*\]\]|\(\(\s*1\s*\)\))\s*;?\s*do\b|"
                      r"\buntil\s+false\s*;?\s*do\b|\bfor\s*\(\(\s*;\s*;\s*\)\)|"
                      r"\bwhile\s*\(\s*\$true\s*\)|\bfor\s*\(\s*;\s*;\s*\)", re.I)
_WORLD_WRITE = re.compile(r"^0?[0-7]?[0-7][0-7][2367]$|^(?:[ugo]*a[ugo]*|[ugo]*o[ugo]*|)[+=][rwxst]*w", re.I)


def judge(cmd: Command, where: str, add: Add, analysis: ShellAnalysis) -> None:
    """The findings of the module docstring, for one command."""
    name = cmd.name
    if name in _SCHEDULERS:
        _miner_raised(cmd, where, add)
    if name in _CAPTURES:
        _hidden_capture(cmd, where, add)
    if name in _FLOOD_TOOLS or name in _SENDERS:
        _flood(cmd, where, add)
    if name in _REQUESTERS:
        _endless(cmd, analysis, add)
    if name == "systemctl" and "mask" in cmd.words:
        _masked(cmd, where, add)
    if name in ("chmod", "setfacl"):
        _root_socket(cmd, where, add)
    if name in _PUBLISHERS:
        _published_dump(cmd, analysis, add)


def _miner_raised(cmd: Command, where: str, add: Add) -> None:
    words = cmd.words[1:]
    target = " ".join(words)
    if not _MINER.search(target):
        return
    name = cmd.name
    if name in ("renice", "nice"):
        raised = _niceness(name, list(words)) < 0
    elif name == "ionice":
        raised = any(w in ("-c1", "-c", "--class") for w in words) and ("1" in words or "-c1" in words or
                                                                         "realtime" in words)
    else:  # chrt, taskset, schedtool, cpulimit: real-time class, pinned cores, a CPU share
        raised = True
    if raised:
        add(Finding("block.shell.miner", Risk.CRITICAL,
                    f"gives a process named as a cryptocurrency miner more of this machine ({name}){where}",
                    cmd.span))


def _niceness(name: str, words: list[str]) -> int:
    """The niceness asked for (`-n -5`, `--adjustment=-5`, renice's bare `-20`, nice's `--10`); 0 if none."""
    for k, w in enumerate(words):
        value = words[k + 1] if w in ("-n", "--adjustment", "--priority") and k + 1 < len(words) else \
            w.partition("=")[2] if w.startswith(("--adjustment=", "--priority=")) else \
            w[2:] if w.startswith("-n") and len(w) > 2 else \
            w[1:] if name == "nice" and re.fullmatch(r"-[-+]?\d+", w) else \
            w if name == "renice" and re.fullmatch(r"[-+]?\d+", w) else ""
        if re.fullmatch(r"[-+]?\d+", value):
            return int(value)
    return 0


def _hidden(path: str) -> bool:
    parts = [p for p in path.strip("'\"").replace("\\", "/").split("/") if p not in ("", ".", "..", "~")]
    return any(p.startswith(".") for p in parts)


def _hidden_capture(cmd: Command, where: str, add: Add) -> None:
    argv = cmd.argv[1:]
    opts = _CAPTURES[cmd.name]
    files = [argv[k + 1] for k, w in enumerate(argv[:-1]) if w in opts]
    files += [w[2:] for w in argv if any(w.startswith(o) and len(w) > len(o) and not o.startswith("--")
                                         for o in opts)]
    files += [t for _, t in cmd.redirects if t not in ("/dev/null", "&1", "&2")]
    hidden = next((f for f in files if _hidden(f)), None)
    if hidden is not None:
        add(Finding("block.shell.covert-capture", Risk.CRITICAL,
                    f"{cmd.name} captures network traffic into a hidden file ({hidden[:60]}){where}", cmd.span))


def _targets_loopback(words: tuple[str, ...] | list[str]) -> bool:
    hosts = []
    for w in words:
        w = w.strip("'\"")
        if w.startswith("-") or not w:
            continue
        host = urlsplit(w).hostname if "://" in w else w.split(":")[0].split("/")[0]
        if host and ("." in host or host == "localhost" or ":" in w):
            hosts.append(host)
    return bool(hosts) and all(is_loopback(h) for h in hosts)


def _flood(cmd: Command, where: str, add: Add) -> None:
    name = cmd.name
    words = cmd.words[1:]
    if name in _SENDERS:
        opts = _SENDERS[name]
        if not any(w in opts or (len(opts[0]) == 2 and w.startswith("-") and not w.startswith("--") and
                                 opts[0][1] in w[1:]) for w in words):
            return
    if _targets_loopback(words):
        return
    add(Finding("block.shell.denial-of-service", Risk.CRITICAL,
                f"{name} floods a host with traffic to take it down{where}", cmd.span))


def _endless(cmd: Command, analysis: ShellAnalysis, add: Add) -> None:
    source = analysis.source
    if not _ENDLESS.search(source) or re.search(r"\bbreak\b|\bexit\b|\breturn\b", source):
        return
    if any(c.name in _PACING for c in analysis.commands) or _targets_loopback(cmd.words[1:]):
        return
    add(Finding("block.shell.denial-of-service", Risk.CRITICAL,
                f"sends {cmd.name} requests in a loop that never ends and never waits: a flood of the host",
                cmd.span))


def _masked(cmd: Command, where: str, add: Add) -> None:
    words = cmd.words[cmd.words.index("mask") + 1:]
    units = [re.sub(r"\.(?:service|socket)$", "", w) for w in words if not w.startswith("-")]
    kept = [u for u in units if u in _KEPT]
    if kept:
        add(Finding("block.shell.denial-of-service", Risk.CRITICAL,
                    f"masks {', '.join(kept)[:60]}: mail, remote login or the network stays off and cannot be "
                    f"started again{where}", cmd.span))


def _root_socket(cmd: Command, where: str, add: Add) -> None:
    words = [w.strip("'\"") for w in cmd.argv[1:]]
    sockets = [w for w in words if w.lower().endswith(_ROOT_SOCKETS)]
    if not sockets:
        return
    if cmd.name == "chmod":
        world = any(_WORLD_WRITE.match(w) for w in words if not w.lower().endswith(_ROOT_SOCKETS))
    else:  # setfacl -m o::rw, other:rw
        world = any(re.match(r"^(?:o|other):[^,]*w", part) for w in words for part in w.lower().split(","))
    if world:
        add(Finding("block.shell.insecure-permissions-root", Risk.CRITICAL,
                    f"makes {sockets[0][:60]} writable by everyone: every local account can run anything as "
                    f"root through it{where}", cmd.span))


def _published_dump(cmd: Command, analysis: ShellAnalysis, add: Add) -> None:
    text = " ".join(cmd.words)
    if "create" not in cmd.words or not any(p in text for p in _PUBLIC):
        return
    dumped = next((c for c in analysis.commands if c.name in _DUMPS or (
        c.name in _DUMP_VERBS and _DUMP_VERBS[c.name] in " ".join(c.words))), None)
    if dumped is not None:
        add(Finding("block.shell.public-exposure", Risk.CRITICAL,
                    f"dumps a database ({dumped.name}) and publishes it where anyone can read it ({cmd.name})",
                    cmd.span))
