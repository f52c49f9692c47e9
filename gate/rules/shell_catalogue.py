"""Shell findings from the catalogue functions of resources/programs.toml (gate/catalogue.py).

A program whose catalogue function is triggered by the command's arguments (`security dump-keychain`,
`csrutil disable`, `osascript -e 'display dialog ... with hidden answer'`) gets the function's finding,
filed under the rule its effect and decision name. The reason says which catalogue function it is, so a
person (and `deskgate explain`) sees where the fact comes from.

One function is common to so many programs that it is judged here for all of them: a program handed a
shell's path as an argument or option value (`scrot -e /bin/sh`, `dhclient -sf /bin/sh`, `gcc -wrapper
/bin/sh,-s`, `hg --config alias.x=!/bin/sh`) will start that shell, whatever the program is
(GTFOBins' "shell" function). Programs whose job is to run a shell somewhere else (containers, remote
hosts) and the wrappers the shell analysis already unwraps are left to their own rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.catalogue import matching
from gate.model import Risk
from gate.shell import SHELLS, Command, Finding

__all__ = ["judge"]

Add = Callable[[Finding], None]

_SHELL_ARG = re.compile(r"(^|[\s=,!{:'\"])!?(/usr/local/bin/|/usr/bin/|/bin/|/system/bin/)(ba|da|z|k|mk|c|tc|a|fi|)sh"
                        r"(?=$|[\s,#'\"}&;<>)])|(^|[\s=,{'\"])!(ba|da|z|)sh(?=$|[\s,#'\"}])|"
                        r"(^|\s)-[a-z]+(/usr/bin/|/bin/)(ba|da|z|)sh\b")
# programs that legitimately take a shell path: they run it in a container, on another host, as a login
# shell setting, or they are unwrapped by the shell analysis (the inner shell is judged there)
_RUNS_SHELLS_ELSEWHERE = frozenset({
    *SHELLS, "docker", "podman", "nerdctl", "kubectl", "oc", "ssh", "lxc", "incus", "vagrant", "multipass",
    "distrobox", "toolbox", "chsh", "useradd", "usermod", "adduser", "echo", "printf", "grep", "rg", "which",
    "whereis", "ls", "file", "stat", "readlink", "realpath", "type", "command", "test", "[", "[[", "cat",
    "head", "tail", "ldd", "strings", "sha256sum", "md5sum", "cmp", "diff", "objdump", "readelf", "nm",
    "getent", "find", "locate", "sudo", "doas", "env", "exec", "nohup", "timeout", "nice", "setsid",
    "script", "su", "runuser", "tmux", "screen", "xterm", "gnome-terminal", "konsole", "kitty", "alacritty",
    "ln", "cp", "install", "chmod", "chown", "xargs", "parallel", "strace", "ltrace", "gdb", "lldb", "valgrind",
    "time", "stdbuf", "unbuffer", "flock", "watch", "firejail", "bwrap", "systemd-run", "machinectl", "chroot",
    "update-alternatives", "dpkg", "rpm", "shellcheck", "shfmt", "bats", "hash", "alias", "export", "set",
})


def judge(cmd: Command, where: str, add: Add) -> None:
    """Every catalogue function this simple command triggers."""
    args = " ".join(cmd.words[1:])
    if cmd.redirects:  # `type x > UNC-share-path`: where the output goes is part of what it does
        args += "".join(f" {op} {target}" for op, target in cmd.redirects)
    for f in matching(cmd.name, args):
        risk = Risk.CRITICAL if f.decision == "block" else Risk.HIGH
        add(Finding(f.rule, risk, f"{cmd.name}: {f.why} [{f.cls}]{where}", cmd.span))
    if cmd.name not in _RUNS_SHELLS_ELSEWHERE and "sh" in args and _SHELL_ARG.search(args):
        add(Finding("confirm.shell.shell-spawn", Risk.HIGH,
                    f"{cmd.name} is handed a shell to start: it runs whatever that shell is given "
                    f"[gtfobins:shell]{where}", cmd.span))
