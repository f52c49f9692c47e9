"""Rules: cloud and app-platform CLIs used in bulk, and package runners handed a pasted script.

- `block.shell.mass-cloud-destroy`: a platform CLI's deleting verb (`fly apps destroy`, `doctl compute droplet
  delete`, `aws ec2 terminate-instances`, `heroku apps:destroy`) run once for every item a listing of the account
  prints, through xargs, a loop or a substitution (`... list | xargs ... destroy`, `for a in $(... list); do ...
  delete $a`, `... delete $(... list)`): every app, machine or bucket the account holds goes, with nothing picked
  out by a filter.
- `block.shell.runner-pasted-script`: a package runner or an interpreter (`npx`, `pnpm dlx`, `bunx`, `yarn dlx`,
  `uvx --from`, `deno run`) handed a script's address on a paste site, a gist, a raw repository file or a bare IP
  address: code fetched and run at once, that no registry published.
- `block.shell.held-token-sent`: a token or secret a CLI prints (`fly auth token`, `gh auth token`, `heroku
  auth:token`, `vault kv get`) kept in a shell variable, then sent as the content of a request (`curl -d`,
  `wget --post-data`, `nc`) to a host that is not the service the token is for.
- `block.shell.fetched-script-run`: a command that fetches an address naming a script (`helm plugin install
  https://.../install.sh`), then a shell or an interpreter that runs a file of that name in the same command:
  code from the network run unseen (the downloaders' own case is judged in gate/rules/shell_effects.py).
- `confirm.shell.mcp-server-install`: an MCP server installer run through a package runner (`npx @smithery/cli
  install`, `npx install-mcp`, `uvx mcp-get add`): a server written into a coding agent's or a desktop assistant's
  settings, whose tools then run with that agent's access in every later session.

Each command of a line (the agent's own, or typed into a terminal) is read through `command_facts`. The tables
are `[cloudcli]` of resources/programs.toml, section `# ---- cloudcli ----`, where the platform CLIs' single
verbs (create, scale, secrets, shells, logins, tokens, keys, deletes) are catalogue functions.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from gate.catalogue import DATA as _CATALOGUE
from gate.catalogue import functions_for
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.shell_context import _INTERNAL_HOST, _ISSUERS
from gate.rules.shell_platforms import printed_secret
from gate.rules.shell_vocab import SHELL_TYPES
from gate.shell import DOWNLOADERS, INTERPRETERS, NET_SENDERS, SHELLS, Command, ShellAnalysis, command_facts

__all__ = ["RULES", "pasted_script_host"]

_TABLE: dict = _CATALOGUE.get("cloudcli", {})
_PLATFORMS = frozenset(_TABLE.get("platforms", ()))
_DESTROY = re.compile(_TABLE.get("destroy", r"(^|[-:_.])(delete|destroy)([-:_.]|$)"))
_LISTING = re.compile(_TABLE.get("listing", r"^(list|ls)$"))
_SCRIPT_HOSTS = re.compile(_TABLE.get("script_hosts", r"(^|\.)pastebin\.com$"))
_RAW_PATH = re.compile(_TABLE.get("raw_path", r"/raw/"))
_RUNNERS = frozenset(_TABLE.get("runners", ()))
_MCP_INSTALLERS = frozenset(_TABLE.get("mcp_installers", ()))
_INSTALL_VERBS = frozenset({"install", "add", "i"})
# hosts whose every file is served as pasted; on the others only a raw file, a snippet or a script's path counts
_WHOLE_HOSTS = re.compile(r"(^|\.)(gist\.githubusercontent\.com|raw\.githubusercontent\.com|raw\.github\.com|"
                          r"gist\.github\.com)$|paste|bin\b|^(ix\.io|sprunge\.us|0x0\.st|bpa\.st|hst\.sh|rentry\.\w+|"
                          r"transfer\.sh|justpaste\.it|controlc\.com|files\.catbox\.moe|litter\.catbox\.moe)$")
_IP_HOST = re.compile(r"^\d{1,3}(\.\d{1,3}){3}$")
# a filter that picks some items out of a listing: the line then deletes what was chosen, not everything
_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "head", "tail", "findstr", "select-string"})
# an awk program that picks lines (`/pr-/ {print $1}`, `$2 == "staging"`), not only one that prints a column
_AWK_PICKS = re.compile(r"^\s*(/|\$\d+\s*(==|~|!=)|nr\s*[<>=])")
_SELECT = re.compile(r"select\(|\btest\(|contains\(|startswith\(|endswith\(|==|--filter|--query|--selector|-l\b|"
                     r"--label")
_SCRIPT_NAME = re.compile(r"[^/?#\s]+\.(sh|bash|zsh|py|pl|rb|js|mjs|cjs|ts|ps1|php)$", re.IGNORECASE)
_URL = re.compile(r"^(?:git\+)?https?://", re.IGNORECASE)


def _plain(cmd: Command, n: int) -> list[str]:
    """The first `n` words of `cmd` after its name that are not switches."""
    return [w for w in cmd.words[1:] if not w.startswith("-")][:n]


def _destroys(cmd: Command) -> str | None:
    if cmd.name not in _PLATFORMS:
        return None
    return next((w for w in _plain(cmd, 4) if _DESTROY.search(w)), None)


def _lists(cmd: Command) -> bool:
    return cmd.name in _PLATFORMS and any(_LISTING.match(w) for w in _plain(cmd, 4))


def _narrows(cmd: Command) -> bool:
    """A filter that picks some items out of a listing (grep, head, jq's select(), awk with a pattern)."""
    script = " ".join(w for w in cmd.words[1:] if not w.startswith("-"))
    return cmd.name in _FILTERS or (cmd.name in ("jq", "yq", "jp", "gojq") and bool(_SELECT.search(script))) or \
        (cmd.name in ("awk", "gawk", "mawk") and bool(_AWK_PICKS.search(script)))


def _mass_destroy(analysis: ShellAnalysis) -> str | None:
    commands = analysis.commands
    looped = any(w in ("for", "while", "foreach", "foreach-object", "%") for w in analysis.source.lower().split())
    for cmd in commands:
        verb = _destroys(cmd)
        if verb is None:
            continue
        by_xargs = cmd.found and "xargs" in cmd.via
        if by_xargs or cmd.subst:  # what xargs hands it, or a `$(... list)` among its operands
            feeding = set(cmd.upstream) | set(cmd.subst)
        elif looped and cmd.dynamic:  # a loop's item
            feeding = set(range(len(commands)))
        else:
            continue
        listing = next((commands[i] for i in sorted(feeding) if commands[i] is not cmd and _lists(commands[i])), None)
        if listing is None:
            continue
        narrowed = any(_narrows(commands[i]) for i in feeding if commands[i] is not cmd) or \
            _SELECT.search(" ".join(listing.words[1:]))
        if narrowed:
            continue
        return (f"{cmd.name} {verb} runs once for every item `{listing.name} {' '.join(_plain(listing, 3))}` lists: "
                f"every one of the account's resources is deleted")
    return None


@rule("block.shell.mass-cloud-destroy", "every resource a cloud account lists, deleted one by one",
      risk=Risk.CRITICAL, types=SHELL_TYPES, needs="commands")
def mass_cloud_destroy(ctx: Context) -> CheckResult:
    """A platform CLI's deleting verb (`fly apps destroy`, `doctl compute droplet delete`, `aws ec2
    terminate-instances`, `helm uninstall`) run through xargs, a loop or a substitution over what a listing of the
    same account prints, with no filter that picks some out: every app, machine or bucket of the account is
    deleted."""
    analysis = command_facts(ctx)
    if analysis is None or len(analysis.commands) < 2:
        return None
    return _mass_destroy(analysis)


def pasted_script_host(url: str) -> str | None:
    """The host of `url` when it serves a pasted or raw script (a paste site, a gist, a raw repository file, a
    bare IP address), else None."""
    try:
        parts = urlsplit(url.removeprefix("git+").strip("'\""))
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    if not host:
        return None
    if _IP_HOST.match(host) and not host.startswith(("127.", "10.", "192.168.")):
        return host
    if not _SCRIPT_HOSTS.search(host):
        return None
    if _WHOLE_HOSTS.search(host) or _RAW_PATH.search(parts.path.lower()):
        return host
    return None


def _runner_url(cmd: Command) -> tuple[str, str] | None:
    runner = next((v.split()[0] for v in cmd.via if v.split() and v.split()[0] in _RUNNERS), None)
    if runner is not None and cmd.argv and _URL.match(cmd.argv[0]) and (host := pasted_script_host(cmd.argv[0])):
        return runner, host
    if cmd.name in _RUNNERS:
        for a in cmd.argv[1:6]:
            if _URL.match(a.strip("'\"")) and (host := pasted_script_host(a)):
                return cmd.name, host
    return None


@rule("block.shell.runner-pasted-script", "a package runner handed a script from a paste site or a gist",
      risk=Risk.CRITICAL, types=SHELL_TYPES, needs="address")
def runner_pasted_script(ctx: Context) -> CheckResult:
    """A package runner or an interpreter (`npx`, `pnpm dlx`, `bunx`, `yarn dlx`, `uvx --from`, `deno run`) given
    the address of a script on a paste site, a gist, a raw repository file or a bare IP address: code fetched and
    run at once, published by no registry."""
    analysis = command_facts(ctx)
    if analysis is None or "://" not in analysis.source:
        return None
    for cmd in analysis.commands:
        found = _runner_url(cmd)
        if found is not None:
            return f"{found[0]} runs a script fetched from {found[1]}: code from the network, run at once and unseen"
    return None


def _fetched_script_run(analysis: ShellAnalysis) -> str | None:
    fetched: dict[str, str] = {}
    for cmd in analysis.commands:
        runs = cmd.name in SHELLS or cmd.name in INTERPRETERS or cmd.name in ("source", ".")
        if runs and fetched:
            target = next((a for a in cmd.argv[1:] if not a.startswith("-")), "")
            base = target.rsplit("/", 1)[-1].lower()
            if base in fetched and "://" not in target:
                return f"{cmd.name} runs {target}, the script {fetched[base]} fetched from the network in the same " \
                       f"command: code run unseen"
        elif cmd.name in DOWNLOADERS:
            continue  # (what a downloader saves and a shell runs is judged in gate/rules/shell_effects.py)
        elif not cmd.argv or not cmd.argv[0].startswith("./"):
            for a in cmd.argv[1:]:
                a = a.strip("'\"")
                if _URL.match(a) and (m := _SCRIPT_NAME.search(urlsplit(a).path if "://" in a else a)):
                    fetched.setdefault(m.group(0).lower(), cmd.name)
        elif fetched and cmd.argv[0][2:].lower() in fetched:
            return f"runs {cmd.argv[0]}, the script {fetched[cmd.argv[0][2:].lower()]} fetched from the network " \
                   f"in the same command: code run unseen"
    return None


@rule("block.shell.fetched-script-run", "a script fetched by a tool and run in the same command",
      risk=Risk.CRITICAL, types=SHELL_TYPES, needs="commands")
def fetched_script_run(ctx: Context) -> CheckResult:
    """A command given the address of a script (`helm plugin install https://.../install.sh`) followed by a shell
    or an interpreter that runs a file of that name (`&& sh install.sh`): the fetched code runs unseen."""
    analysis = command_facts(ctx)
    if analysis is None or len(analysis.commands) < 2 or "://" not in analysis.source:
        return None
    return _fetched_script_run(analysis)


# the switches whose value a request carries as its content
_BODY_FLAGS = frozenset({"-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "-F",
                         "--form", "--form-string", "--post-data", "--body-data", "--json", "--body", "-b"})
_URL_HOST = re.compile(r"^(?:https?|ftps?|wss?)://(?:[^/@\s]*@)?(\[[^\]]+\]|[^/:?#\s]+)", re.IGNORECASE)


def _prints_token(cmd: Command) -> bool:
    if printed_secret(cmd) is not None:
        return True
    args = " ".join(cmd.words[1:])
    return any(f.effect == "credentials" and f.hit(args) for f in functions_for(cmd.name))


def _carries(cmd: Command, names: set[str]) -> bool:
    """Whether `cmd` sends one of the variables `names` as a request's content (not as a header or a login)."""
    refs = [re.compile(r"\$\{?" + re.escape(n) + r"\b", re.IGNORECASE) for n in names]
    argv = cmd.argv
    for k in range(1, len(argv)):
        if not any(r.search(argv[k]) for r in refs):
            continue
        if cmd.name not in ("curl", "wget", "wget2", "http", "https", "xh", "curlie"):
            return True  # nc, socat, telnet: what they are given is what they send
        flag = argv[k].split("=", 1)[0] if argv[k].startswith("--") else argv[k - 1]
        if flag in _BODY_FLAGS or (cmd.name in ("http", "https", "xh") and "=" in argv[k] and ":" not in
                                   argv[k].split("=", 1)[0]):
            return True
    return False


def _fed(sender: Command, names: set[str], analysis: ShellAnalysis) -> bool:
    """Whether `sender` reads one of the variables `names` on its input (`echo $T | nc host 9000`, `printf %s
    "$T" | curl --data-binary @- URL`) and sends what it reads."""
    if sender.name in ("curl", "wget", "wget2") and not any(a.endswith("@-") or a in ("-", "--post-file=-")
                                                             for a in sender.argv[1:]):
        return False
    return any(_carries(analysis.commands[i], names) for i in sender.upstream
               if analysis.commands[i].name in ("echo", "printf", "print", "cat"))


def _held_token_sent(analysis: ShellAnalysis) -> str | None:
    if not analysis.assignments:
        return None
    for cmd in analysis.commands:
        if not cmd.span or cmd.name in NET_SENDERS or not _prints_token(cmd):
            continue
        held = {n for n, v in analysis.assignments if cmd.span in v}
        if not held:
            continue
        own = _ISSUERS.get(cmd.name, ())
        for sender in analysis.commands:
            if sender.name not in NET_SENDERS or not (_carries(sender, held) or _fed(sender, held, analysis)):
                continue
            hosts = [m.group(1).lower() for a in sender.argv[1:] if (m := _URL_HOST.match(a.strip("'\"")))]
            hosts += [a.lower() for a in sender.argv[1:2] if sender.name in ("nc", "ncat", "netcat", "telnet")]
            for host in hosts:
                if _INTERNAL_HOST.match(host) or any(host == d or host.endswith("." + d) for d in own):
                    continue
                return f"{sender.name} sends the token `{' '.join(cmd.argv[:3])}` prints, held in " \
                       f"${sorted(held)[0]}, to {host}, which is not the service it is for"
    return None


@rule("block.shell.held-token-sent", "a CLI's token kept in a variable and sent to another host",
      risk=Risk.CRITICAL, types=SHELL_TYPES, needs="commands")
def held_token_sent(ctx: Context) -> CheckResult:
    """A token or secret a CLI prints (`fly auth token`, `gh auth token`, `heroku auth:token`, `vault kv get`)
    kept in a shell variable and sent as the content of a request (`curl -d "t=$TOKEN"`, `wget --post-data`,
    `nc`) to a host that is not the service the token is for: the account's key handed to someone else."""
    analysis = command_facts(ctx)
    if analysis is None or len(analysis.commands) < 2:
        return None
    return _held_token_sent(analysis)


def _package(word: str) -> str:
    """A runner's package operand without its version (`@smithery/cli@latest` is `@smithery/cli`)."""
    word = word.lower()
    at = word.rfind("@")
    return word[:at] if at > 0 else word


def _mcp_install(analysis: ShellAnalysis) -> str | None:
    for cmd in analysis.commands:
        if not cmd.argv or not (cmd.via or cmd.name in _MCP_INSTALLERS):
            continue
        package = _package(cmd.argv[0])
        if package not in _MCP_INSTALLERS:
            continue
        verb = next((w for w in cmd.argv[1:4] if not w.startswith("-")), "")
        if verb.lower() in _INSTALL_VERBS:
            return f"{package} {verb.lower()} writes an MCP server into an agent's settings: its tools run with " \
                   f"that agent's access in every later session"
    return None


@rule("confirm.shell.mcp-server-install", "an MCP server installed into an agent's settings", risk=Risk.HIGH,
      types=SHELL_TYPES, needs="line")
def mcp_server_install(ctx: Context) -> CheckResult:
    """An MCP server installer run through a package runner (`npx @smithery/cli install`, `npx install-mcp`,
    `uvx mcp-get add`): the server is written into a coding agent's or a desktop assistant's settings, and its
    tools then run with that agent's access in every later session."""
    analysis = command_facts(ctx)
    if analysis is None:
        return None
    return _mcp_install(analysis)


RULES: tuple[Rule, ...] = (mass_cloud_destroy, runner_pasted_script, held_token_sent, fetched_script_run,
                           mcp_server_install)
