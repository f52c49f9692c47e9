"""Shell checks: code run unseen: shells and interpreters fed from pipes, downloads, substitutions and run-time values.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.packages import official_install_script
from gate.rules.shell_startup import tool_hook
from gate.rules.shell_vocab import (
    _with_nested,
)
from gate.shell import (
    DOWNLOADERS,
    INTERPRETERS,
    SHELLS,
    Command,
    Finding,
    ShellAnalysis,
    _reads_stdin_as_code,
    resolve_path,
)

__all__ = ["CodeLoadingChecks"]

# PowerShell's ways to spell a command at run time: character codes, joins and reversals, XOR, format strings,
# decoding a blob
_SPELLED_OUT = re.compile(r"\[char\[?\]?\]?\s*\(?\s*\d|-join\b|\[array\]::reverse|\[-1\s*\.\.|-bxor\b|"
                          r"frombase64string|\bgetstring\s*\(|-replace\s+['\"][^'\"]*['\"]\s*,\s*['\"]['\"]|"
                          r"\[string\]::join|\.reverse\(|-f\s+['\"]", re.I)
# the temporary folders, and a hidden file or folder on a path
_TEMPORARY = re.compile(r"^(/tmp|/private/tmp|/var/tmp|/private/var/tmp|/dev/shm|/run/shm)/")
# (a tool's or a build's own hidden folder is not hiding: .next, .venv, .cache, .git, ...)
_HIDDEN_PART = re.compile(r"/\.(?!(next|nuxt|venv|cache|git|github|npm|yarn|pnpm|cargo|local|config|m2|gradle|tox|nox|"
                          r"pytest_cache|mypy_cache|ruff_cache|svelte-kit|astro|vercel|netlify|output|angular|"
                          r"parcel-cache|turbo|expo|docusaurus|serverless|terraform|build|vscode|idea|devcontainer)"
                          r"(/|$))[^/.][^/]*(/|$)")


# the options a project's own install line uses (`curl --proto '=https' --tlsv1.2 -sSf`, `curl -fsSL`, `wget -qO-`,
# `irm`/`iwr -useb`): any other may fetch from elsewhere or stop checking the certificate (`-k`, `--resolve`,
# `--connect-to`, `-x`, `-K` config files, `wget -i` lists), so the download is no longer the project's script
_INSTALLER_OPTION = re.compile(r"-[fsSL#]+|--(?:fail|silent|show-error|location|tlsv1\.[23]|proto(?:=\S*)?|"
                               r"compressed|retry|https-only|quiet)|-q|-qO-?|-O-?|-o-?|-useb(?:asicparsing)?|"
                               r"-usebasicparsing|-uri|-method|get", re.IGNORECASE)
_INSTALLER_VALUE = re.compile(r"=?https|-|\d{1,2}")  # `--proto '=https'`, `-o -`, `--retry 3`
# variables that make a download trust another certificate or read another configuration
_TRUST_VARIABLES = frozenset({"curl_ca_bundle", "ssl_cert_file", "ssl_cert_dir", "curl_home", "wgetrc",
                              "requests_ca_bundle", "https_proxy", "all_proxy"})


def _official_installer(fetch: Command, analysis: ShellAnalysis | None = None) -> str | None:
    """The one URL a download fetches when it is a project's published install script (packages.toml
    `[install_scripts]`) fetched with the options such lines use, or None: another URL, another option, or a
    variable on the line that changes whom the download trusts makes it not one."""
    urls = [a for a in fetch.argv[1:] if "://" in a]
    if len(urls) != 1 or fetch.dynamic or not official_install_script(urls[0]):
        return None
    if any("://" not in a and not _INSTALLER_OPTION.fullmatch(a) and not _INSTALLER_VALUE.fullmatch(a)
           for a in fetch.argv[1:]):
        return None
    if analysis is not None and any(name.lower() in _TRUST_VARIABLES for name, _ in analysis.assignments):
        return None
    return urls[0]


def _installer_finding(fetch: Command, name: str, where: str, span: str) -> Finding:
    url = _official_installer(fetch) or ""
    return Finding("confirm.shell.install-script", Risk.HIGH,
                   f"{name} runs the install script {url[:70]} publishes, as {fetch.name} downloads it: it installs "
                   f"software the person chose or not{where}", span)


_DNS_LOOKUPS = frozenset({"dig", "kdig", "drill", "nslookup", "host", "resolve-dnsname", "delv", "doggo", "dog", "q"})


def _txt_lookup(cmd: Command) -> bool:
    """A DNS lookup of a TXT record (`dig x TXT +short`, `nslookup -q=txt`, `host -t txt`): the record's text is
    whatever the domain's owner wrote there, a download by another road when a shell runs it."""
    return cmd.name in _DNS_LOOKUPS and any(w == "txt" or w.endswith(("=txt", "-txt")) for w in cmd.words[1:])


class CodeLoadingChecks:
    """Code run unseen: shells and interpreters fed from pipes, downloads, substitutions and run-time values."""

    def executor(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None],
                 downloaded: dict[str, str]) -> None:
        """A shell / interpreter / eval: what code does it get, and from where?"""
        cmds = analysis.commands
        name = cmd.name
        fetchers = [cmds[i] for i in cmd.subst if cmds[i].name in DOWNLOADERS or _txt_lookup(cmds[i])]
        if fetchers and (cmd.dynamic - {0}):
            if _official_installer(fetchers[0], analysis):
                add(_installer_finding(fetchers[0], name, where, cmd.span))
                return
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"{name} runs code fetched by {fetchers[0].name}{where}", cmd.span))
            return
        if _reads_stdin_as_code(cmd) and cmd.upstream:
            ups = [cmds[i] for i in _with_nested(cmds, cmd.upstream)]
            fetch = next((c for c in ups if c.name in DOWNLOADERS or c.name in ("nc", "ncat", "netcat") or
                          _txt_lookup(c)), None)
            if fetch is not None:
                # (nothing between the download and the shell: no decoder, no copy kept to change)
                if _official_installer(fetch, analysis) and all(c.argv in (fetch.argv, cmd.argv) for c in ups):
                    add(_installer_finding(fetch, name, where, cmd.span))
                    return
                add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                            f"pipes what {fetch.name} downloads straight into {name}{where}", cmd.span))
                return
            decoder = next((c for c in ups if _decodes(c)), None)
            if decoder is not None and not any(c.name in ("echo", "printf") or c.stdin_text is not None
                                               for c in ups):
                add(Finding("confirm.shell.obfuscated", Risk.HIGH,
                            f"decodes a file ({decoder.span[:60]}) straight into {name}: the code it runs is "
                            f"hidden from review{where}", cmd.span))
                # an encoded payload decoded and run (ATT&CK T1140 with T1059): the code is hidden from every
                # review, the gate's included; a decode into a file or a literal decoded in the line asks or passes
                add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                            f"decodes a file ({decoder.span[:60]}) straight into {name}: an encoded payload run "
                            f"unseen{where}", cmd.span))
                return
            printers = [c for c in ups if c.name != "out-string"]
            if len(printers) == 1 and tool_hook(f'eval "$({printers[0].span.strip()})"'):
                return  # a tool manager's shell set-up run in this shell: `starship init powershell | iex`
            literal = all(c.name in ("echo", "printf", "base64", "base32", "rev", "xxd", "gunzip", "zcat", "gzip",
                                     "openssl", "cat", "tee") and not c.dynamic for c in ups)
            from_file = len(ups) == 1 and ups[0].name == "cat" and len(ups[0].argv) > 1
            if not literal and not from_file:
                add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                            f"pipes the output of {ups[-1].name} into {name}: the gate cannot see that code{where}",
                            cmd.span))
            return
        if name in ("iex", "invoke-expression") and (
                any(k == "obfuscated" for k, _ in analysis.notes) or
                _SPELLED_OUT.search(" ".join(cmd.argv[1:])) or _SPELLED_OUT.search(analysis.source)):
            # PowerShell made to run a string it builds at run time from character codes, a reversed or joined
            # text, XOR or a base64 blob: the command is hidden from review (ATT&CK T1027.010, T1140)
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{name} runs a command spelled out at run time (character codes, reversed, joined or "
                        f"decoded text): hidden from review{where}", cmd.span))
            return
        inline = (*INTERPRETERS.get(name, ()), "-c", "-e")
        script = None if any(a in inline for a in cmd.argv[1:]) else \
            next((a for a in cmd.argv[1:] if not a.startswith("-")), None)
        if script is not None and (name in SHELLS or name in INTERPRETERS):
            path = resolve_path(script, cmd.cwd or None) or script
            if _TEMPORARY.match(path) and _HIDDEN_PART.search(path):
                # a script kept in a temporary folder under a hidden name, run by a shell or an interpreter: the
                # same dropped payload as `/dev/shm/.x` run by its path (ATT&CK T1564.001 with T1059)
                add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                            f"{name} runs {path}, a script in a temporary folder under a hidden name: how a dropped "
                            f"payload is started{where}", cmd.span))
                return
        for a in cmd.argv[1:]:
            if a in downloaded and not a.startswith("-"):
                add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                            f"runs {a} right after downloading it ({downloaded[a]}){where}", cmd.span))
                return
        if name in ("source", ".") and len(cmd.argv) > 1 and 1 in cmd.dynamic:
            add(Finding("confirm.shell.indirect-exec", Risk.HIGH, f"sources {cmd.argv[1]}: known only at run "
                        f"time{where}", cmd.span))


def _decodes(cmd: Command) -> bool:
    """base64/base32/basenc -d, xxd -r, openssl enc|base64 -d: turns encoded text back into what it hides."""
    words = cmd.words[1:]
    if cmd.name in ("base64", "base32", "basenc", "gbase64"):
        return any(w in ("-d", "--decode", "-D", "-di", "-id") for w in words)
    if cmd.name == "xxd":
        return any(w.startswith("-r") or w == "-revert" for w in words)
    if cmd.name == "openssl":
        return "-d" in words and any(w in ("enc", "base64") or w.startswith("-aes") or w.startswith("aes")
                                     for w in words)
    return False
