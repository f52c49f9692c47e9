"""Shell findings judged by effect, for platform and service families: system state (kernel, mounts,
recovery, clocks), remote changes and synthetic desktop input, secrets read through their CLIs,
macOS/Windows protections, tunnels and attack tooling, data files emptied.

Called from gate/rules/shell_effects.py (`judge`) only for the programs each family concerns.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.effects import VM_SHELL_LABELS
from gate.model import Risk
from gate.rules.shell_admin_api import admin_call
from gate.shell import NET_SENDERS, Command, Finding, ShellAnalysis, display_path, resolve_path

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = [
    "WEB_SCANNERS",
    "WINDOWS_DEFENCE_PROGRAMS",
    "cloud_defences",
    "data_remote_pushed",
    "guest_system_install",
    "printed_secret",
    "remote_and_desktop",
    "scans_own_machine",
    "secrets_and_platforms",
    "system_state",
    "windows_defences",
]

Add = Callable[[Finding], None]

# where a command runs inside a guest: a local VM's or system container's shell, or a container's exec
_GUEST_SHELLS = VM_SHELL_LABELS | frozenset({"docker exec", "podman exec", "nerdctl exec"})
# the distribution's own package managers: inside a guest they change the guest's system, not this machine's
_GUEST_PACKAGERS = frozenset({"apt", "apt-get", "aptitude", "dnf", "microdnf", "yum", "zypper", "pacman", "apk",
                              "xbps-install", "emerge", "eopkg", "swupd"})


# a data remote whose name or address says its contents are for anyone
_PUBLIC_REMOTE = re.compile(r"public|share|anon|open-?data|world", re.I)


def data_remote_pushed(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`dvc remote add NAME URL && dvc push`: the datasets go to the remote just set up. Asks; blocks when the
    remote's name or address says it is public or shared, where every file pushed is readable by anyone."""
    if cmd.name != "dvc" or list(cmd.words[1:2]) != ["push"]:
        return
    for other in analysis.commands:
        if other is cmd:
            return
        words = [w for w in other.words[1:] if not w.startswith("-")]
        if other.name != "dvc" or words[:1] != ["remote"] or words[1:2] not in (["add"], ["modify"]):
            continue
        target = " ".join(words[2:4])
        if _PUBLIC_REMOTE.search(target):
            add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"dvc push: sends the datasets to a remote just "
                        f"set up as public or shared ({target}), readable by anyone{where}", cmd.span))
        else:
            add(Finding("confirm.shell.publish", Risk.MEDIUM, f"dvc push: sends the datasets to a remote just "
                        f"set up ({target}){where}", cmd.span))
        return


def guest_system_install(cmd: Command) -> bool:
    """A distribution's package manager run inside a VM or container (`incus exec dev -- apt-get install ...`):
    root there is the guest's root, and what it installs from the distribution's archive stays in the guest."""
    return cmd.name in _GUEST_PACKAGERS and any(v in _GUEST_SHELLS for v in cmd.via)


def _operands(cmd: Command) -> list[tuple[int, str]]:
    return [(i, a) for i, a in enumerate(cmd.argv[1:], 1) if a != "--" and (not a.startswith("-") or a == "-")]


_RECOVERY = re.compile(r"recoveryenabled\s*no|bootstatuspolicy\s*ignoreallfailures|delete\s+(shadows|catalog|"
                       r"systemstatebackup|backup)|shadowcopy\s+(?:where\s+\S+\s+)?delete|resize\s+shadowstorage")
# files that make every program or every login run something: a lock on one keeps a planted hook in place
_LOCKED_HOOK = re.compile(r"^/etc/(?:ld\.so\.preload|crontab|cron\.d/|profile|bash\.bashrc|rc\.local|systemd/system/|"
                          r"init\.d/|pam\.d/)|/\.ssh/authorized_keys2?$|/\.(?:bashrc|profile|bash_profile|zshrc)$")
_HARDENING = re.compile(r"kernel\.(randomize_va_space|yama\.ptrace_scope|kptr_restrict|dmesg_restrict|"
                        r"modules_disabled|unprivileged_bpf_disabled)|fs\.protected_|"
                        r"/proc/sys/kernel/(randomize_va_space|yama/ptrace_scope|kptr_restrict|dmesg_restrict)")
_SECURITY_TOOLS = frozenset({"aa-teardown", "aa-disable", "aa-complain", "apparmor_parser"})


_SELINUX_OFF = re.compile(r"\bselinux\s*=\s*(disabled|permissive)")


_RX_SYSTEM_STATE = re.compile(r"(apparmor|selinux|lockdown|yama|tomoyo|smack|landlock)")
_RX_SYSTEM_STATE_2 = re.compile(r"=\s*0\b|\s0$")
_RX_SYSTEM_STATE_3 = re.compile(r"lockdown|screensaver|lock-enabled|disable-lock|privacy|automount|notifications")


def _xattr_unquarantines(words: list[str]) -> bool:
    """xattr deletes (`-d`, `-c`, in any cluster of its one-letter flags) or overwrites (`-w`) attributes, and the
    download quarantine among them: listing or printing them (`-l`, `-p`) changes nothing."""
    flags = "".join(w[1:] for w in words if w.startswith("-") and not w.startswith("--"))
    return "c" in flags or (("d" in flags or "w" in flags) and any("quarantine" in w for w in words))


def system_state(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Kernel, mounts, recovery and protections: asks, and blocks when it switches a protection off."""
    name = cmd.name
    words = list(cmd.words[1:])
    joined = " ".join(words)
    if name in ("vssadmin", "wbadmin", "bcdedit", "wmic") and _RECOVERY.search(joined):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{name} {' '.join(words[:2])}: removes the system's backups or recovery{where}", cmd.span))
        return
    if name in ("modprobe", "rmmod") and (name == "rmmod" or any(w in ("-r", "--remove") for w in words)) and \
            any(_RX_SYSTEM_STATE.match(w) for w in words):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} unloads a kernel security module{where}",
                    cmd.span))
        return
    fed = " ".join(w for i in cmd.upstream for w in analysis.commands[i].words[1:]) if cmd.upstream else ""
    if _SELINUX_OFF.search(joined + " " + fed) and (
            any("/etc/selinux/config" in (resolve_path(t, cmd.cwd or None) or t) for _, t in cmd.redirects) or
            any("/etc/selinux/config" in w for w in words)):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} switches SELinux off in its "
                    f"configuration{where}", cmd.span))
        return
    if name in _SECURITY_TOOLS and (name != "apparmor_parser" or any(w in ("-r", "-R", "--remove") for w in words)):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name}: switches AppArmor off{where}", cmd.span))
        return
    written = [t for op, t in cmd.redirects if op in (">", ">>")]
    if name == "tee":
        written += [w for w in cmd.argv[1:] if not w.startswith("-")]
    if (name == "sysctl" and _HARDENING.search(joined) and _RX_SYSTEM_STATE_2.search(joined)) or any(
            _HARDENING.search(resolve_path(t, cmd.cwd or None) or t) for t in written):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{name}: switches a kernel protection off (ASLR, ptrace or pointer restrictions){where}",
                    cmd.span))
        return
    if name == "sysctl" and ("-w" in words or any("=" in w for w in words)) and not _SYSRQ_WORD.search(joined):
        add(Finding("confirm.shell.system-state", Risk.HIGH, f"sysctl changes a kernel parameter{where}", cmd.span))
    elif any((resolve_path(t, cmd.cwd or None) or t).startswith(("/proc/sys/", "/sys/")) for t in written):
        add(Finding("confirm.shell.system-state", Risk.HIGH, f"{name} writes a kernel setting{where}", cmd.span))
    elif name in ("insmod", "modprobe", "rmmod", "kldload", "kextload") and words and \
            not any(w in ("-n", "--dry-run", "-c", "--showconfig", "--show-depends") for w in words):
        add(Finding("confirm.shell.system-state", Risk.HIGH, f"{name} {words[-1]}: changes the running kernel{where}",
                    cmd.span))
    elif name in ("mount", "umount") and (any("remount" in w or w in ("--bind", "--rbind", "bind") for w in words)
                                          or any(d.protected_target(cmd, w) for w in cmd.argv[1:]
                                                 if w.startswith("/") and not w.startswith("/dev/"))):
        add(Finding("confirm.shell.system-state", Risk.MEDIUM, f"{name} {' '.join(words[:3])}: changes the mounted "
                    f"file systems{where}", cmd.span))
    elif name in ("swapoff", "swapon") and words and not all(w in ("--show", "-s", "--summary", "--bytes", "-b",
                                                                   "--noheadings", "--raw") or
                                                              w.startswith("--show=") for w in words):
        # (`swapon --show` lists the swap areas)
        add(Finding("confirm.shell.system-state", Risk.MEDIUM, f"{name} {' '.join(words[:2])}{where}", cmd.span))
    elif name == "chattr" and any(w.startswith("+") and "i" in w for w in words) and (locked := next((
            p for w in cmd.argv[1:] if not w.startswith(("-", "+")) and (p := resolve_path(w, cmd.cwd or None) or "")
            and (_LOCKED_HOOK.search(p) or (d.credential is not None and d.credential.search(p)))), None)):
        # made immutable: not even root can take the hook or the key out until the flag is cleared
        add(Finding("block.shell.credential-tamper", Risk.CRITICAL, f"chattr +i locks {display_path(locked)} so "
                    f"that a planted key or hook cannot be removed{where}", cmd.span))
    elif name in ("chattr", "setfacl", "chcon", "setfattr") and any(
            d.in_tree(p) or p.startswith("/etc/") for w in cmd.argv[1:] if not w.startswith(("-", "+")) and
            (p := resolve_path(w, cmd.cwd or None) or "")):
        add(Finding("confirm.shell.system-state", Risk.HIGH, f"{name} changes attributes of a system file{where}",
                    cmd.span))
    if (name in ("timedatectl", "hostnamectl", "localectl") and words and words[0].startswith("set-")) or \
            (name == "hwclock" and any(w in ("--set", "-w", "--systohc", "--adjust") for w in words)) or \
            (name == "date" and any(w in ("-s", "--set") or w.startswith("--set=") for w in words)):
        add(Finding("confirm.shell.system-state", Risk.MEDIUM, f"{name} {' '.join(words[:2])}: changes the "
                    f"system's clock, name or locale{where}", cmd.span))
    elif name == "loginctl" and words[:1] and words[0] in ("terminate-user", "kill-user", "lock-sessions",
                                                           "terminate-seat"):
        add(Finding("confirm.shell.system-disruption", Risk.HIGH, f"loginctl {words[0]}{where}", cmd.span))
    elif name in ("gsettings", "dconf") and words[:1] in (["set"], ["write"], ["reset"]) and any(
            _RX_SYSTEM_STATE_3.search(w)
            for w in words[1:3]):
        add(Finding("confirm.shell.defense-evasion", Risk.MEDIUM, f"{name} {' '.join(words[:3])}: changes a "
                    f"screen-lock or privacy setting{where}", cmd.span))
    # emptying a data file: `> app.db`, `cp /dev/null app.db`, `: > dump.sql`
    if (name in ("", ":", "true") and len(cmd.argv) <= 1) or \
            (name in ("echo", "printf") and all(a in ("", "-n", "-e") for a in cmd.argv[1:])) or \
            (name == "cat" and cmd.argv[1:] == ("/dev/null",)):
        targets = [t for op, t in cmd.redirects if op in (">", ">|")]
    elif name == "cp" and cmd.argv[1:2] == ("/dev/null",):
        targets = [a for _, a in _operands(cmd)[1:]]
    else:
        targets = []
    for t in targets:
        if _DATA_FILE.search(t):
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"empties the data file {t}{where}", cmd.span))
            break
    if name in ("terraform", "tofu") and words[:1] == ["state"] and len(words) > 1 and \
            words[1] in ("rm", "mv", "push", "replace-provider"):
        add(Finding("confirm.shell.destructive", Risk.HIGH, f"{name} state {words[1]}: changes what the "
                    f"infrastructure state records{where}", cmd.span))
    # a delete/truncate run by find -exec over the system logs
    if cmd.found and name in ("truncate", "rm", "shred", "unlink", "tee", "cp") and d.logs is not None:
        for c in analysis.commands:
            if c.name == "find" and any(d.logs.search(resolve_path(a, c.cwd or None) or "") for a in c.argv[1:3]):
                add(Finding("block.shell.anti-forensics", Risk.CRITICAL,
                            f"find -exec {name} over {c.argv[1]}: erases system logs{where}", cmd.span))
                return


_DATA_FILE = re.compile(r"\.(db|sqlite3?|sql|mdb|accdb|dump|ldb|frm|ibd|kdbx|parquet)$", re.I)
_SYSRQ_WORD = re.compile(r"kernel\.sysrq")
_HTTP_MUTATE = re.compile(r"^(delete|put|patch)$", re.I)
_LOCAL_URL = re.compile(r"^(https?://)?(localhost|127\.|0\.0\.0\.0|\[::1\])", re.I)
_DESKTOP_INPUT = {"xdotool": {"key", "keydown", "keyup", "type", "click", "mousedown", "mouseup", "mousemove",
                              "windowactivate", "windowfocus", "exec", "windowkill", "windowclose"},
                  "ydotool": {"key", "type", "click", "mousemove"}, "wtype": set(), "xte": set(),
                  "dotool": set()}


_RX_REMOTE_AND_DESKTOP = re.compile(r"^[\w.-]+\.[a-z]{2,}(/|$)")
_RX_REMOTE_AND_DESKTOP_2 = re.compile(
    r"/(hooks|keys|members|collaborators|permissions|tokens|users|admin|repos/[^/]+/[^/]+/"
    r"(hooks|keys|collaborators)|deploy|webhooks?)(/|$|\?)")


# a data store's API path that deletes in bulk: a wildcard or `_all` index, a delete-by-query, an admin delete
_DATA_API_WIPE = re.compile(r"(?:://|^)[^/\s]+/(?:[^\s?#]*\*|_all\b|[^\s?#]*/_delete_by_query\b|"
                            r"[^\s?#]*/admin/[^\s?#]*(?:delete|drop|wipe|purge|clean)[\w]*)", re.I)


# a search store's every index (`DELETE /_all`, `DELETE /*`), and a query that matches every document
_EVERY_INDEX = re.compile(r"://[^/\s]+/(?:_all|\*)/?(?:[?#]|$)", re.I)
_MATCH_ALL = re.compile(r"[\"']match_all[\"']\s*:\s*\{\s*\}|^\s*q=\*(?::\*)?\s*$", re.I)


def remote_and_desktop(d: Detector, cmd: Command, where: str, add: Add) -> None:
    name = cmd.name
    args = list(cmd.argv[1:])
    if name in ("curl", "curlie", "http", "https", "xh", "wget"):
        method = ""
        for k, a in enumerate(args):
            if a in ("-X", "--request", "--method") and k + 1 < len(args):
                method = args[k + 1]
            elif a.startswith(("--request=", "--method=")):
                method = a.split("=", 1)[1]
            elif a.startswith("-X") and len(a) > 2:
                method = a[2:]
        if name in ("http", "https", "xh") and args and _HTTP_MUTATE.match(args[0]):
            method = args[0]
        urls = [a for a in args if "://" in a or _RX_REMOTE_AND_DESKTOP.match(a)]
        posts = method.upper() == "POST" or (not method and any(a in ("-d", "--data", "--data-raw", "--json", "-F",
                                                                          "--form", "--data-binary") for a in args))
        # every index of a search store (`DELETE /_all`, `DELETE /*`), or every document (`_delete_by_query` of
        # `match_all`), on this machine or another
        wipe = next((u for u in urls if (method.upper() == "DELETE" and _EVERY_INDEX.search(u)) or
                     ("_delete_by_query" in u and any(_MATCH_ALL.search(a) for a in args))), None)
        if wipe:
            add(Finding("block.shell.database-destruction", Risk.CRITICAL, f"{name} {method.upper() or 'POST'} "
                        f"{wipe[:60]}: deletes every index or every document of a data store{where}", cmd.span))
            return
        if admin_call(name, args, cmd, where, add):
            return  # an administration API's method and path say what it changes (gate/rules/shell_admin_api.py)
        if (posts and urls and not all(_LOCAL_URL.match(u) for u in urls) and
                any(_RX_REMOTE_AND_DESKTOP_2.search(u) for u in urls)):
            add(Finding("confirm.shell.remote-mutation", Risk.MEDIUM,
                        f"{name} POSTs to {urls[0][:60]}: adds access, keys or hooks on a server{where}", cmd.span))
        elif _HTTP_MUTATE.match(method) and urls and not all(_LOCAL_URL.match(u) for u in urls):
            add(Finding("confirm.shell.remote-mutation", Risk.MEDIUM,
                        f"{name} {method.upper()} {urls[0][:60]}: changes or deletes something on a server{where}",
                        cmd.span))
        elif (hit := next((u for u in [*urls, *(a for a in args if "_delete_by_query" in a)]
                           if _DATA_API_WIPE.search(u) and
                           (method.upper() == "DELETE" or "/admin/" in u or "_delete_by_query" in u)), None)):
            # a local data store's own API told to delete many things: every index matching a wildcard, all
            # series, a query's matches (`curl -X DELETE localhost:9200/logs-*`, Prometheus' delete_series);
            # every index (`/_all`, `/*`) or every document (`_delete_by_query` of `match_all`) refuses
            add(Finding("confirm.shell.destructive", Risk.HIGH,
                        f"{name} {method.upper() or 'POST'} {hit[:60]}: deletes data through a data store's API{where}",
                        cmd.span))
    elif name == "gh":
        words = [w.lower() for w in args if not w.startswith("-")]
        if words[:2] in (["pr", "merge"], ["repo", "edit"], ["repo", "archive"], ["repo", "rename"],
                         ["secret", "set"], ["secret", "delete"], ["release", "create"], ["issue", "delete"],
                         ["repo", "create"], ["workflow", "run"], ["run", "rerun"], ["variable", "set"]) or \
                (words[:1] == ["api"] and any(_HTTP_MUTATE.match(a) or a.upper() == "POST"
                                              for a in args if not a.startswith("-"))):
            add(Finding("confirm.shell.remote-mutation", Risk.MEDIUM, f"gh {' '.join(words[:2])}: changes the "
                        f"remote repository{where}", cmd.span))
        elif words[:2] in (["gist", "create"], ["gist", "new"], ["gist", "edit"]):
            # a gist is on the web: listed with --public, and readable by anyone with its link without it
            seen = "anyone" if "--public" in args or "-p" in args else "anyone with its link"
            secret = next((hit for w in args[2:] if not w.startswith("-") and (hit := d.secret_path(cmd, w))), None)
            if secret:
                add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                            f"gh {' '.join(words[:2])} puts {secret} on the web where {seen} can read it{where}",
                            cmd.span))
                return
            add(Finding("confirm.shell.publish", Risk.HIGH if seen == "anyone" else Risk.MEDIUM,
                        f"gh {' '.join(words[:2])}: puts files on the web where {seen} can read them{where}",
                        cmd.span))
    elif name in _DESKTOP_INPUT:
        verbs = _DESKTOP_INPUT[name]
        words = [w.lower() for w in args if not w.startswith("-")]
        if not verbs or any(w in verbs for w in words):
            add(Finding("confirm.shell.desktop-input", Risk.HIGH,
                        f"{name} sends keystrokes or clicks that bypass deskgate's GUI rules{where}", cmd.span))


# programs that bring code from the network (running ./x right after one of them runs unseen code)
_FETCHERS = frozenset({"curl", "wget", "wget2", "aria2c", "fetch", "axel", "scp", "rsync", "ftp", "lftp", "gsutil",
                       "s3cmd"})
# git's credential helpers (git-credential-NAME)
_GIT_HELPERS = ("manager", "manager-core", "osxkeychain", "store", "cache", "libsecret", "wincred",
                "gnome-keyring", "oauth")
# the security token service's verbs that make new short-lived keys for the caller, another role or a federated
# user (Hacking the Cloud, Stratus Red Team aws.persistence.sts-federation-token): what an agent gets them for is
# to use them elsewhere
_AWS_MINTS = (("sts", "get-session-token"), ("sts", "get-federation-token"), ("sts", "assume-role"),
              ("sts", "assume-role-with-saml"), ("sts", "assume-role-with-web-identity"), ("sts", "assume-root"),
              ("sso", "get-role-credentials"), ("sso-oidc", "create-token"),
              ("cognito-identity", "get-credentials-for-identity"), ("cognito-identity", "get-open-id-token"),
              ("cognito-identity", "get-open-id-token-for-developer-identity"))
# CLI verbs that print a stored secret
_SECRET_VERBS = {
    "gh": (("auth", "token"),), "aws": (("secretsmanager", "get-secret-value"), ("ssm", "get-parameter"),
                                         ("ssm", "get-parameters"), ("configure", "export-credentials"),
                                         ("ecr", "get-login-password"), ("rds", "generate-db-auth-token"),
                                         ("ecr", "get-authorization-token"),
                                         ("secretsmanager", "batch-get-secret-value"),
                                         ("ssm", "get-parameters-by-path"), ("ssm", "get-parameter-history"),
                                         ("ecr-public", "get-login-password"), ("ec2", "get-password-data"),
                                         ("codeartifact", "get-authorization-token"), ("eks", "get-token"),
                                         ("lightsail", "get-instance-access-details"),
                                         ("redshift", "get-cluster-credentials"),
                                         ("redshift", "get-cluster-credentials-with-iam"),
                                         ("redshift-serverless", "get-credentials"), *_AWS_MINTS),
    "gcloud": (("auth", "print-access-token"), ("auth", "print-identity-token"), ("secrets", "versions"),
               ("auth", "application-default", "print-access-token"), ("config", "config-helper"),
               # a token or signature made in a service account's name (what impersonating it needs)
               ("iam", "service-accounts", "sign-jwt"), ("iam", "service-accounts", "sign-blob"),
               ("compute", "reset-windows-password")),
    "az": (("account", "get-access-token"), ("keyvault", "secret"),
           # a shared-access signature made for storage or a disk: a link that lets whoever holds it in
           ("storage", "account", "generate-sas"), ("storage", "container", "generate-sas"),
           ("storage", "blob", "generate-sas"), ("storage", "share", "generate-sas"),
           ("storage", "queue", "generate-sas"), ("storage", "fs", "generate-sas"), ("disk", "grant-access"),
           ("snapshot", "grant-access"),
           # the access keys and connection strings of storage, registries, databases, caches and apps
           ("storage", "account", "keys"), ("storage", "account", "show-connection-string"), ("acr", "credential"),
           ("cosmosdb", "keys"), ("redis", "list-keys"), ("functionapp", "keys"),
           ("webapp", "deployment", "list-publishing-profiles"),
           ("webapp", "deployment", "list-publishing-credentials"),
           ("servicebus", "namespace", "authorization-rule", "keys"),
           ("eventhubs", "namespace", "authorization-rule", "keys")),
    "vault": (("kv", "get"), ("read",)),  # (`kv list` prints the names of secrets, not their values)
    "op": (("item", "get"), ("read",), ("document", "get")), "bw": (("get",), ("export",)),
    "lpass": (("show",), ("export",)), "pass": (("show",),), "gopass": (("show",),), "kubectl": (),
    "heroku": (("config",), ("config:get",), ("auth:token",), ("pg:credentials:url",), ("pg:backups:url",)),
    "doctl": (("auth",), ("databases", "connection"), ("kubernetes", "cluster", "kubeconfig", "show")),
    "docker": (("secret", "inspect"),),
    "keepassxc-cli": (("show",), ("export",)), "rclone": (("config", "show"), ("config", "dump")),
    "sops": (("decrypt",),), "ansible-vault": (("view",), ("decrypt",)), "age": (), "gpg": (), "gpg2": (),
    "pulumi": (), "terraform": (), "tofu": (), "terragrunt": (),
    # git's credential helpers answer `get` (and `git credential fill`) with the stored password or token
    "git": (("credential", "fill"), *((f"credential-{h}", "get") for h in _GIT_HELPERS)),
    **{f"git-credential-{h}": (("get",),) for h in _GIT_HELPERS},
    "secret-tool": (("lookup",),), "keyring": (("get",),), "chamber": (("read",), ("export",), ("env",)),
    "doppler": (("secrets", "get"), ("secrets", "download")), "infisical": (("secrets", "get"), ("export",)),
    "akeyless": (("get-secret-value",),), "conjur": (("variable", "get"),), "ksm": (("secret", "get"),),
    "get-secret": (), "k9s": (),
}
# git settings that name the program git shows text in or edits with, and the programs made for them (pagers,
# diff highlighters, editors, signing programs): `core.pager delta`, `core.editor 'code --wait'`
_VIEWER_KEYS = re.compile(r"^(core\.pager|pager\.[\w.-]+|core\.editor|sequence\.editor|interactive\.difffilter|"
                          r"gpg\.program|gpg\.[\w]+\.program)$")
_VIEWERS = frozenset({"delta", "less", "more", "most", "bat", "batcat", "cat", "diff-so-fancy", "difft", "difftastic",
                      "riff", "diffr", "ydiff", "diff-highlight", "moar", "ov", "vim", "nvim", "vi", "nano", "emacs",
                      "emacsclient", "code", "code-insiders", "codium", "subl", "mate", "micro", "hx", "helix", "kak",
                      "gedit", "kate", "zed", "gvim", "mvim", "nvim-qt", "notepad", "notepad++", "atom", "idea",
                      "gpg", "gpg2", "gpgsm", "ssh-keygen", "cursor", "windsurf", "pico", "joe", "ne", "mcedit"})
# what may follow such a program: its switches (no command-running ones) and plain words
_VIEWER_WORD = re.compile(r"^(-{1,2}[\w-]+(=[\w.,:%-]*)?|[\w.,:%-]+)$")
_VIEWER_RUNS = frozenset({"-c", "--cmd", "-e", "--eval", "-s", "-u", "--init-file", "-l", "--load", "--exec"})


def _known_viewer(value: str) -> bool:
    """`delta`, `less -R`, `code --wait`, `diff-so-fancy | less --tabs=4 -RFX`: each piece a known pager, editor
    or highlighter by its bare name, with nothing but its own switches."""
    for piece in value.split("|"):
        words = piece.split()
        if not words or words[0] not in _VIEWERS or \
                any(not _VIEWER_WORD.match(w) or w.split("=", 1)[0] in _VIEWER_RUNS for w in words[1:]):
            return False
    return True


# k9s opened on its secrets view (`-c secrets`): it shows and decodes every secret of the cluster
_K9S_SECRETS = re.compile(r"^(sec|secret|secrets|v1/secrets)$")
# ... and the switches that make a CLI print the secrets it keeps, in the clear (Pulumi's --show-secrets on
# `stack export`, `config`, `stack output`)
_SHOW_SECRETS = {"pulumi": frozenset({"--show-secrets"})}
# ... and the verbs whose output holds every secret of an infrastructure's state once it is kept in a file or
# sent (`terraform output -json > o.json`): read on the screen, they are how a project uses its own outputs;
# `-raw NAME` of an output named for a secret prints that secret
_SECRET_WHEN_KEPT = {name: (("output",), frozenset({"-json", "--json", "-raw", "--raw"}))
                     for name in ("terraform", "tofu", "terragrunt")}
_SECRET_NAMED = re.compile(r"(secret|token|passw|api_?key|access_?key|private_?key|credential|connection_?string)",
                           re.I)
# ... and the decrypting switches of encryption tools: they print the plaintext of a secret file
_DECRYPT_FLAGS = {"sops": frozenset({"-d", "--decrypt"}), "age": frozenset({"-d", "--decrypt"}),
                  "gpg": frozenset({"-d", "--decrypt"}), "gpg2": frozenset({"-d", "--decrypt"})}
_SECRET_VAR_REF = re.compile(r"\$\{?[a-z0-9_]*(secret|token|passw|api_?key|access_?key|private|credential)[a-z0-9_]*",
                             re.I)
_SECURITY_SERVICES_WIN = frozenset({"windefend", "sense", "wdnissvc", "wdboot", "wdfilter", "mpssvc", "bfe",
                                    "eventlog", "wscsvc", "sysmon", "sysmon64"})
_TUNNELS = frozenset({"ngrok", "cloudflared", "chisel", "frpc", "frps", "bore", "localtunnel", "lt", "sshuttle",
                      "iodine", "dnscat2", "ptunnel", "devtunnel", "pinggy", "zrok", "tunnelmole", "localxpose",
                      "loclx"})
_INFO_ONLY_WORDS = frozenset({"--version", "-version", "-v", "version", "-h", "--help", "-help", "help",
                             "-update-templates", "-ut", "--update-templates", "--list-tags"})
_SCANNERS = frozenset({"nmap", "masscan", "zmap", "rustscan", "naabu", "unicornscan", "hping3", "nikto",
                       "sqlmap", "hydra", "medusa", "john", "hashcat", "crackmapexec", "nxc", "responder",
                       "arpspoof", "ettercap", "bettercap", "aircrack-ng", "airmon-ng", "wpscan", "gobuster",
                       "dirb", "ffuf", "wfuzz", "msfconsole", "msfvenom", "searchsploit", "enum4linux",
                       "impacket-secretsdump", "evil-winrm", "kerbrute", "bloodhound-python"})
# the reading forms of the macOS settings tools: `pmset -g batt`, `systemsetup -getsleep`, `scutil --get X`,
# `scutil --dns`, `nvram -p` print a setting and change nothing
_SETTINGS_QUERY = re.compile(r"^(-g|--get|-get\w+|--dns|--proxy|--nwi|-r|-p|-x|-print)$")
_LOCAL_TARGET = re.compile(r"^(localhost|127\.[\d.]+|::1|0\.0\.0\.0)(:\d+)?$")


# web application scanners and fuzzers: pointed at this machine only, they test the person's own application
WEB_SCANNERS = frozenset({"sqlmap", "nikto", "wfuzz", "ffuf", "gobuster", "dirb", "dirsearch", "feroxbuster", "nuclei",
                          "wpscan", "xsstrike", "commix", "dalfox", "arjun", "joomscan", "whatweb", "wapiti",
                          "skipfish", "zap-baseline.py", "zap-cli", "httpx", "katana"})
_URL_HOST = re.compile(r"^[a-z][\w+.-]*://(?:[^/@\s]*@)?(\[[^\]]+\]|[^/:?#\s]+)")
_HOST_PORT = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){3}|localhost|[\w-]+(?:\.[\w-]+)+)(?::\d+)?(?:/\S*)?$")
_LOOPBACK = re.compile(r"^(localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[?::1\]?|[\w-]+\.localhost)$")
_FILE_WORD = re.compile(r"\.(txt|lst|list|json|ya?ml|xml|csv|log|conf|req|har|burp)$")


def scans_own_machine(cmd: Command) -> bool:
    """A web scanner or fuzzer whose every target (a URL, or a host or address with a port) is this machine
    (localhost, 127.0.0.0/8, ::1): the person's own application, under development."""
    targets = []
    for w in cmd.words[1:]:
        w = w.split("=", 1)[1] if w.startswith("-") and "=" in w else w
        if w.startswith("-") or _FILE_WORD.search(w):
            continue
        if (m := _URL_HOST.match(w)) or ((m := _HOST_PORT.match(w)) and ("." in w or ":" in w or w == "localhost")):
            targets.append(m.group(1))
    return bool(targets) and all(_LOOPBACK.match(t) for t in targets)


# kubectl's global flags that take a value as the next word (`kubectl -n kube-system get secret`)
_KUBE_VALUED = frozenset({"-n", "--namespace", "--context", "--cluster", "--kubeconfig", "--user", "-s", "--server",
                          "--as", "--token", "-l", "--selector", "-o", "--output", "-c", "--container"})


def _kube_operands(words: list[str]) -> list[str]:
    """kubectl's words that are not flags nor the values of its flags."""
    out: list[str] = []
    skip = False
    for w in words:
        if skip:
            skip = False
        elif w.startswith("-"):
            skip = w in _KUBE_VALUED
        else:
            out.append(w)
    return out


# (and the cloud CLIs' variables by their prefixes: `env | grep AWS` prints AWS_SECRET_ACCESS_KEY)
_RX_SECRETS_AND_PLATFORMS = re.compile(r"secret|token|passw|key|credential|auth|^\^?aws|^\^?azure|^\^?arm_|"
                                       r"^\^?google|^\^?gcp|^\^?cloudsdk", re.I)
_RX_SECRETS_AND_PLATFORMS_2 = re.compile(r"\b(keystroke|key code|click (button|menu|at))\b")
_RX_SECRETS_AND_PLATFORMS_3 = re.compile(r"(sam|security|system)$")
_RX_SECRETS_AND_PLATFORMS_4 = re.compile(r"everyone|users|authenticated users|\*s-1-1-0")
_RX_SECRETS_AND_PLATFORMS_5 = re.compile(r"opmode\s+(mode=)?disable|state\s+off")
_RX_SECRETS_AND_PLATFORMS_6 = re.compile(r"-[a-y]*z[a-z]*")
_RX_SECRETS_AND_PLATFORMS_7 = re.compile(r"\d+(-\d+|(,\d+)+)")
_RX_SECRETS_AND_PLATFORMS_8 = re.compile(r"\d+(\.\d+)?[gtp]i?b?")
_RX_SECRETS_AND_PLATFORMS_9 = re.compile(r"[\d.]+")


# the clouds' own registry hosts (never any host under the cloud's domain: an API gateway, load balancer or
# instance name there is anyone's server, which would be handed the token)
_REGISTRY_OF = {"aws": re.compile(r"^(https://)?(\d{12}\.dkr\.ecr(-fips)?\.[a-z0-9-]+\.amazonaws\.com(\.cn)?|"
                                  r"public\.ecr\.aws)(/|$)"),
                "gcloud": re.compile(r"^(https://)?([\w-]+\.)?(gcr\.io|pkg\.dev)(/|$)"),
                "az": re.compile(r"^(https://)?[\w-]+\.azurecr\.io(/|$)")}
_LOGINS = frozenset({"docker", "podman", "helm", "oras", "buildah", "skopeo", "crane", "nerdctl", "regctl"})


def _sets_host(analysis: ShellAnalysis) -> bool:
    """The line names another server for a CLI through the environment (GH_HOST, DOCKER_HOST, DOCKER_CONFIG)."""
    return any(name in ("gh_host", "gh_enterprise_token", "docker_host", "docker_config", "docker_context")
               for name, _ in analysis.assignments)


# local runners of CI workflows that take a secret for the run by a flag (`act -s NAME=value`, nektos/act docs)
_LOCAL_SECRET_FLAGS = {"act": frozenset({"-s", "--secret"})}
_SECRET_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\$\(")


def _into_a_local_runner(cmd: Command, analysis: ShellAnalysis) -> bool:
    """The secret is substituted into a local workflow runner's secret flag and nowhere else (`act -s
    GITHUB_TOKEN="$(gh auth token)"`): the runner hands it to the workflow it runs on this machine."""
    if cmd.redirects or cmd.upstream:
        return False
    me = next((i for i, c in enumerate(analysis.commands) if c is cmd), None)
    users = [c for c in analysis.commands if me is not None and me in c.subst]
    if len(users) != 1 or users[0].name not in _LOCAL_SECRET_FLAGS or users[0].redirects or users[0].remote:
        return False
    argv, flags = users[0].argv, _LOCAL_SECRET_FLAGS[users[0].name]
    carrying = [k for k, w in enumerate(argv) if "$(" in w or "`" in w]  # every word a substitution is in
    return bool(carrying) and all(
        (k > 1 and argv[k - 1] in flags and _SECRET_ASSIGNMENT.match(argv[k]))
        or (argv[k].startswith("--secret=") and _SECRET_ASSIGNMENT.match(argv[k][9:])) for k in carrying)


def _into_a_login(cmd: Command, analysis: ShellAnalysis) -> bool:
    """The secret is piped straight into the login that reads it from its input and nothing else reads it
    (`aws ecr get-login-password | docker login --password-stdin ...`): it goes where it is meant to go."""
    if cmd.redirects or cmd.subst:
        return False
    me = next((i for i, c in enumerate(analysis.commands) if c is cmd), None)
    readers = [c for c in analysis.commands if me is not None and me in c.upstream]
    if len(readers) != 1 or readers[0].redirects:
        return False
    login = readers[0]
    if cmd.name == "gh":
        # only github.com's own login: `--hostname other` (or GH_HOST) sends the token to that host to check it
        return login.name == "gh" and login.words[1:3] == ("auth", "login") and "--with-token" in login.words and \
            set(login.words[3:]) <= {"--with-token", "--git-protocol", "-p", "https", "ssh", "--insecure-storage",
                                     "--skip-ssh-key"} and not _sets_host(analysis)
    if login.words[1:2] != ("login",) and login.words[1:3] != ("registry", "login"):
        return False  # options before the verb (`docker --config /tmp/x login`, `-H tcp://...`) change where it goes
    registry = _REGISTRY_OF.get(cmd.name)
    hosts = [w for w in login.words[1:] if not w.startswith("-") and "." in w]
    # the registry must be the same cloud's: the token handed to another host would leave with the login
    return registry is not None and login.name in _LOGINS and "login" in login.words and \
        "--password-stdin" in login.words and bool(hosts) and all(registry.search(h) for h in hosts)


# Windows' own folders and the ones programs are installed in; a grant that lets someone change files there
_WINDOWS_SYSTEM_TREE = re.compile(r"^(?:[a-z]:\\(?:windows|program files(?: \(x86\))?|programdata)(?:\\|$)|"
                                  r"%(?:windir|systemroot|programfiles(?:\(x86\))?|programdata)%|"
                                  r"\$env:(?:windir|systemroot|programfiles|programdata))", re.I)
_WRITE_GRANT = re.compile(r":(?:\([a-z,]+\))*\(?(?:f|m|w|full|modify|write)\)?$", re.I)


# git's credential helpers that keep a login in the system's keychain or in memory (git-scm.com gitcredentials,
# Git Credential Manager): named bare, or by their installed path in a system folder. `store` (a plain-text
# file) is a catalogue function of its own; any other helper is a program git would run, and asks.
_KNOWN_GIT_HELPER = re.compile(
    r"^(?:(?:manager|manager-core|osxkeychain|libsecret|wincred|gnome-keyring)|cache(?:\s+--timeout[= ]\d+)?|"
    r"(?:/usr/(?:lib|libexec|share|local/share|local/bin|bin)|/opt/homebrew/(?:bin|share))/[\w./-]*?"
    r"git-credential-(?:manager(?:-core)?|libsecret|osxkeychain|gnome-keyring))$")


# pmset settings of when the display, the disks and the machine sleep or hibernate (pmset(1)): comfort settings,
# undone the same way, like the `system` action's sleep and brightness; the ones that keep the machine from
# sleeping, wake it, or drop the disk key are catalogue functions (programs.toml)
_PMSET_TIMINGS = frozenset({"sleep", "displaysleep", "disksleep", "hibernatemode", "standby", "standbydelay",
                            "standbydelayhigh", "standbydelaylow", "highstandbythreshold", "autopoweroff",
                            "autopoweroffdelay", "powernap", "lowpowermode", "halfdim", "lessbright"})

# a timing of 0 is "never": the machine (or its screen or disks) stays awake unattended, as `disablesleep` does
_NEVER_SLEEP = frozenset({"sleep", "displaysleep", "disksleep", "standbydelay", "standbydelayhigh", "standbydelaylow",
                          "autopoweroffdelay"})


def _power_timings_only(plain: list[str]) -> bool:
    """`pmset [-a|-b|-c|-u] KEY VALUE ...` where every key is a sleep timing and every value a number (never 0
    for a sleep delay: "never sleep")."""
    pairs = list(zip(plain[0::2], plain[1::2], strict=False))
    return len(plain) >= 2 and len(plain) % 2 == 0 and all(k in _PMSET_TIMINGS and v.isdigit() for k, v in pairs) \
        and not any(v == "0" and k in _NEVER_SLEEP for k, v in pairs)


def printed_secret(cmd: Command) -> str | None:
    """The secret `cmd` prints, as `sops -d` or `vault kv get` (a secret store's verb or a decrypting switch),
    or None."""
    words = cmd.words[1:]
    if cmd.name in _DECRYPT_FLAGS and any(w in _DECRYPT_FLAGS[cmd.name] for w in words):
        return f"{cmd.name} {next(w for w in words if w in _DECRYPT_FLAGS[cmd.name])}"
    plain = [w for w in words if not w.startswith("-")]
    verb = next((v for v in _SECRET_VERBS.get(cmd.name, ()) if v and tuple(plain[:len(v)]) == v), None)
    if verb:
        return f"{cmd.name} {' '.join(verb)}"
    if (held := cloud_credential(cmd)) is not None:
        return held
    if cmd.name == "get-secret" and "-asplaintext" in words:
        return "Get-Secret -AsPlainText"
    if cmd.name == "k9s" and any((w in ("-c", "--command") and k + 1 < len(words) and _K9S_SECRETS.match(words[k + 1]))
                                 or w.startswith("--command=sec") for k, w in enumerate(words)):
        return "k9s --command secrets"
    if cmd.name in _SHOW_SECRETS and (shown := next((w for w in words if w in _SHOW_SECRETS[cmd.name]), None)):
        return f"{cmd.name} {' '.join(plain[:2])} {shown}"
    if cmd.name in _SECRET_WHEN_KEPT and kept_secret(cmd):
        return f"{cmd.name} {' '.join(plain[:2])}"
    return None


# what `aws configure get NAME` prints that is a key (`aws_secret_access_key`, `profile.dev.aws_session_token`);
# a region, an output format or a profile's role name is only a setting
_AWS_SECRET_SETTING = re.compile(r"(^|\.)aws_(secret_access_key|access_key_id|session_token|security_token)$")
# the cloud and cluster CLIs' verbs that hand out their credentials (printed or minted), by program
_CREDENTIAL_CLIS = frozenset({"aws", "gcloud", "az", "kubectl", "oc"})


def cloud_credential(cmd: Command) -> str | None:
    """The credentials a cloud or cluster CLI prints beyond its `_SECRET_VERBS`, by their options: a key of
    `aws configure get`, the kubeconfig with its keys and tokens (`kubectl config view --raw`), a service
    account's token made (`kubectl create token`), `oc whoami --show-token`, `az acr login --expose-token`."""
    name = cmd.name
    words = list(cmd.words[1:])
    if name == "aws":
        plain = [w for w in words if not w.startswith("-")]
        if plain[:2] == ["configure", "get"] and len(plain) > 2 and _AWS_SECRET_SETTING.search(plain[2]):
            return f"aws configure get {plain[2]}"
    elif name in ("kubectl", "oc"):
        plain = _kube_operands(words)
        if plain[:2] == ["config", "view"] and "--raw" in words:
            return f"{name} config view --raw (the cluster keys and tokens)"
        if plain[:2] == ["create", "token"]:
            return f"{name} create token (a new service-account token)"
        if name == "oc" and plain[:1] == ["whoami"] and any(w in ("-t", "--show-token") for w in words):
            return "oc whoami --show-token"
    elif name == "az" and words[:2] == ["acr", "login"] and "--expose-token" in words:
        return "az acr login --expose-token"
    return None


def dumped_to_file(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """Where `cmd`'s output is written as a file: a redirect (not to /dev/), or a `tee FILE` it is piped to. None
    for a line the shell could not parse (a documentation line's `<region>` placeholders read as redirects)."""
    if "unparsable" in analysis.features:
        return None
    for op, target in cmd.redirects:
        if op in (">", ">>", ">|", "&>", "&>>") and not target.startswith("/dev/") and target != "-":
            return target
    me = next((i for i, c in enumerate(analysis.commands) if c is cmd), None)
    for c in analysis.commands:
        if me is not None and me in c.upstream and c.name in ("tee", "tee-object", "out-file", "set-content",
                                                              "add-content"):
            target = next((w for w in c.words[1:] if not w.startswith("-") and not w.startswith("/dev/")), None)
            if target:
                return target
    return None


# the hosts a cloud's own tokens are meant for: its APIs, and the services it runs for its customers (a Cloud Run
# service takes `gcloud auth print-identity-token`), and this machine
_PROVIDER_HOSTS = {
    "aws": re.compile(r"(^|\.)(amazonaws\.com(\.cn)?|aws\.amazon\.com|api\.aws|on\.aws)$"),
    "gcloud": re.compile(r"(^|\.)(googleapis\.com|google\.com|run\.app|cloudfunctions\.net|appspot\.com|pkg\.dev|"
                         r"gcr\.io|goog)$"),
    "az": re.compile(r"(^|\.)(azure\.com|azure\.net|windows\.net|microsoft\.com|microsoftonline\.com|azurecr\.io|"
                     r"azurewebsites\.net|azure-api\.net|visualstudio\.com|dev\.azure\.com|azmk8s\.io)$"),
}
_SENT_URL = re.compile(r"^(?:[a-z][\w+.-]*://)?(?:[^/@\s]*@)?(\[[^\]]+\]|[^/:?#\s\\$]+)", re.I)
_LOCAL_HOST = re.compile(r"^(localhost|127(\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0|[\w-]+\.localhost)$")


def _token_sent_elsewhere(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """The host a network command of the line sends the token `cmd` prints to, when that host is not the cloud's
    own (`curl -H "Authorization: Bearer $(gcloud auth print-access-token)" https://collector.example`), the
    token taken through a substitution or a variable set from one; None when it goes to the cloud's own hosts."""
    me = next((i for i, c in enumerate(analysis.commands) if c is cmd), None)
    if me is None:
        return None
    held = {n for n, v in analysis.assignments if cmd.span and cmd.span in v}
    own = _PROVIDER_HOSTS[cmd.name]
    for c in analysis.commands:
        if c.name not in NET_SENDERS or c is cmd:
            continue
        carries = me in c.subst or any(re.search(r"\$\{?" + re.escape(n) + r"\b", a, re.I)
                                       for n in held for a in c.argv[1:])
        if not carries:
            continue
        for w in c.words[1:]:
            if w.startswith("-") or ("://" not in w and "." not in w):
                continue
            m = _SENT_URL.match(w)
            host = (m.group(1) if m else "").lower().strip("'\"")
            if ("://" in w or re.match(r"^[\w-]+(\.[\w-]+)+(:\d+)?(/|$)", w)) and host and \
                    not own.search(host) and not _LOCAL_HOST.match(host):
                return host
    return None


def _token_used_at_home(cmd: Command, analysis: ShellAnalysis) -> bool:
    """The token `cmd` prints goes only into a request's argument to its issuer's own API (`curl -H
    "Authorization: Bearer $(gcloud auth print-access-token)" https://admin.googleapis.com/...`): it is the
    documented way to call that API, the token never shows and leaves for nowhere else (a write the request
    makes is judged as a remote change by its own check)."""
    me = next((i for i, c in enumerate(analysis.commands) if c is cmd), None)
    own = _PROVIDER_HOSTS.get(cmd.name)
    if me is None or own is None or cmd.redirects or any(me in c.upstream for c in analysis.commands):
        return False
    users = [c for c in analysis.commands if me in c.subst and c is not cmd]
    if not users or any(c.name not in NET_SENDERS for c in users):
        return False
    for c in users:
        hosts = []
        for w in c.words[1:]:
            if w.startswith("-") or "://" not in w:
                continue
            m = _SENT_URL.match(w)
            hosts.append((m.group(1) if m else "").lower().strip("'\""))
        if not hosts or not all(h and own.search(h) for h in hosts):
            return False
    return True


def kept_secret(cmd: Command, sent: bool = False) -> bool:
    """`terraform output -json` (`_SECRET_WHEN_KEPT`) written to a file, `sent` on to another program, or a
    `-raw` output named for a secret."""
    verbs, switches = _SECRET_WHEN_KEPT[cmd.name]
    words = cmd.words[1:]
    plain = [w for w in words if not w.startswith("-")]
    if tuple(plain[:len(verbs)]) != verbs or not any(w.split("=", 1)[0] in switches for w in words):
        return False
    if any(w.split("=", 1)[0] in ("-raw", "--raw") for w in words) and any(_SECRET_NAMED.search(p)
                                                                            for p in plain[len(verbs):]):
        return True
    return sent or any(op in (">", ">>", ">|") and not t.startswith("/dev/") for op, t in cmd.redirects)


def _fed_to_a_sender(cmd: Command, analysis: ShellAnalysis) -> bool:
    """A later command of the line that sends over the network reads `cmd`'s output."""
    index = next((k for k, c in enumerate(analysis.commands) if c is cmd), None)
    return index is not None and any(index in c.upstream and c.name in NET_SENDERS for c in analysis.commands)


def _bounded_downstream(cmd: Command, analysis: ShellAnalysis) -> bool:
    """A later stage of `cmd`'s pipeline stops the stream at a size (`| head -c 100`, `| dd count=1`): what reaches
    the file is bounded."""
    at = next((k for k, c in enumerate(analysis.commands) if c is cmd), None)
    if at is None:
        return False
    return any(at in c.upstream and (c.name == "head" or (c.name == "dd" and any(w.startswith("count=")
                                                                                for w in c.words[1:])))
               for c in analysis.commands)


def secrets_and_platforms(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Secret stores read through their CLIs, platform protections (macOS, Windows), tunnels and scanners."""
    name = cmd.name
    words = [w for w in cmd.words[1:]]
    plain = [w for w in words if not w.startswith("-")]
    # secrets printed by a CLI, or a secret-named variable echoed (a secret file decrypted into another file is
    # judged where that file goes: gate/rules/shell_effects.py `_staged_secrets`)
    shown = printed_secret(cmd)
    if shown is None and name in _SECRET_WHEN_KEPT and _fed_to_a_sender(cmd, analysis) and \
            kept_secret(cmd, sent=True):
        shown = f"{name} {' '.join(w for w in cmd.words[1:3] if not w.startswith('-'))}"
    into_a_file = name in _DECRYPT_FLAGS and (any(op in (">", ">>") for op, _ in cmd.redirects) or
                                              "-o" in words or "--output" in words)
    if shown and name in _PROVIDER_HOSTS and (host := _token_sent_elsewhere(cmd, analysis)):
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL, f"{shown}: the token is sent to {host}, "
                    f"a host that is not the cloud's own{where}", cmd.span))
    elif shown and name in _CREDENTIAL_CLIS and (kept := dumped_to_file(cmd, analysis)):
        # the cloud keys or token written where they outlive the command, to be picked up and used elsewhere
        add(Finding("block.shell.credential-read", Risk.CRITICAL, f"{shown} writes the cloud credentials it hands "
                    f"out into {kept[:60]}{where}", cmd.span))
    elif shown and not into_a_file and not _into_a_login(cmd, analysis) and \
            not (cmd.subst == () and _into_a_local_runner(cmd, analysis)) and not _token_used_at_home(cmd, analysis):
        what = "makes new cloud credentials and prints them" if name == "aws" and any(
            shown == f"aws {' '.join(v)}" for v in _AWS_MINTS) else "prints a stored secret"
        add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{shown} {what}{where}", cmd.span))
    if name == "git":  # every check below this one is for another program
        # git configuration that makes git run a program later, or keeps credentials in plain text
        if plain[:1] == ["config"] and not any(w in ("--get", "--list", "-l", "--get-all", "--get-regexp", "--unset")
                                               for w in words):
            key = plain[1] if len(plain) > 1 else ""
            from gate.effects import _GIT_CODE_KEYS  # the same keys as `git -c`

            if key == "credential.helper" and len(plain) > 2 and _KNOWN_GIT_HELPER.match(plain[2].strip()):
                return  # git's own helpers and the system keychains: git asks them, nothing else runs
            if _VIEWER_KEYS.match(key) and len(plain) > 2 and _known_viewer(plain[2]):
                return  # a pager, editor or diff viewer named as the documentation shows: that program runs
            if _GIT_CODE_KEYS.match(key + "=" + " ".join(plain[2:3])) or key == "credential.helper":
                add(Finding("confirm.shell.persistence", Risk.MEDIUM, f"git config {key}: makes git run a program "
                            f"or store credentials later{where}", cmd.span))
        return
    if name in ("kubectl", "oc"):
        plain = _kube_operands(words)
    if name in ("kubectl", "oc") and plain[:1] in (["get"], ["describe"]) and len(plain) > 1 and \
            plain[1].split("/")[0] in ("secret", "secrets") and \
            (plain[0] == "describe" or any(w.startswith(("-o", "--output")) for w in words)):
        add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{name} {plain[0]} secret prints a secret{where}",
                    cmd.span))
    if name in ("echo", "printf", "print", "printenv", "write-output") and any(
            _SECRET_VAR_REF.search(a) for a in cmd.argv[1:]):
        add(Finding("confirm.shell.secret-read", Risk.MEDIUM, f"{name} prints a secret-named variable{where}",
                    cmd.span))
    if name in ("grep", "egrep", "rg", "findstr", "select-string") and any(
            analysis.commands[i].name in ("env", "printenv", "set", "export") for i in cmd.upstream) and any(
            _RX_SECRETS_AND_PLATFORMS.search(w) for w in plain):
        add(Finding("confirm.shell.secret-read", Risk.HIGH, f"picks secrets out of the environment{where}", cmd.span))
    # macOS protections and accounts
    if name == "xattr" and _xattr_unquarantines(words):
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH, f"xattr removes the download quarantine{where}",
                    cmd.span))
    elif name == "defaults" and plain[:1] == ["write"] and any("quarantine" in w or "gatekeeper" in w for w in words):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"defaults write switches Gatekeeper's quarantine "
                    f"off{where}", cmd.span))
    elif name == "defaults" and plain[:1] == ["write"] and any(w in ("loginhook", "logouthook") for w in words):
        add(Finding("confirm.shell.persistence", Risk.HIGH, f"defaults write sets a login hook: a script run as "
                    f"root at every login{where}", cmd.span))
    elif name == "dscl" and any(w in ("-create", "-append", "-passwd", "-delete", "-merge") for w in words):
        if ("uniqueid" in words and "0" in words) or (any(w == "admin" or w.endswith("/admin") for w in words) and
                                                      "-append" in words):
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL, f"dscl grants administrator rights "
                        f"(uid 0 or the admin group){where}", cmd.span))
        else:
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH, f"dscl changes accounts or passwords{where}",
                        cmd.span))
    elif name in ("tccutil", "pmset", "systemsetup", "scutil", "nvram") and plain and \
            plain[0] not in ("-g", "--get", "list", "show") and not _SETTINGS_QUERY.match(words[0]) and \
            not (name == "pmset" and _power_timings_only(plain)):
        add(Finding("confirm.shell.system-state", Risk.MEDIUM, f"{name} {' '.join(plain[:2])}: changes system "
                    f"settings{where}", cmd.span))
    elif name == "networksetup" and any(w.startswith(("-set", "-remove", "-create", "-delete")) for w in words):
        add(Finding("confirm.shell.network", Risk.MEDIUM, f"networksetup changes network or proxy settings{where}",
                    cmd.span))
    elif name == "osascript" and _RX_SECRETS_AND_PLATFORMS_2.search(" ".join(words)):
        add(Finding("confirm.shell.desktop-input", Risk.HIGH, f"osascript types or clicks through System "
                    f"Events{where}", cmd.span))
    # Windows services, registry hives, permissions, hiding
    if name == "sc" and plain[:1] and plain[0] in ("create", "config", "failure"):
        add(Finding("confirm.shell.persistence", Risk.MEDIUM, f"sc {plain[0]}: registers a service{where}", cmd.span))
    elif name in ("sc", "net") and plain[:1] and plain[0] in ("stop", "delete", "pause") and len(plain) > 1:
        target = plain[1].strip('"').lower()
        if target in _SECURITY_SERVICES_WIN or "defender" in " ".join(plain[1:]) or target in d.security:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} {plain[0]} {plain[1]}: stops a "
                        f"security service{where}", cmd.span))
        else:
            add(Finding("confirm.shell.system-disruption", Risk.MEDIUM, f"{name} {plain[0]} {plain[1]}{where}",
                        cmd.span))
    elif name == "reg" and plain[:1] and plain[0] in ("save", "export") and any(
            _RX_SECRETS_AND_PLATFORMS_3.search(w.replace("\\", "")) for w in plain[1:2]):
        add(Finding("block.shell.credential-dump", Risk.CRITICAL, f"reg {plain[0]} copies a registry hive with "
                    f"password hashes{where}", cmd.span))
    elif name == "icacls" and any("/grant" in w for w in words) and any(
            _RX_SECRETS_AND_PLATFORMS_4.search(w) for w in words):
        system = next((a for a in cmd.argv[1:2] if _WINDOWS_SYSTEM_TREE.match(a.strip("'\"").replace("/", "\\"))),
                      None)
        if system and any(_WRITE_GRANT.search(w) for w in words):
            add(Finding("block.shell.insecure-permissions-root", Risk.CRITICAL, f"icacls lets everyone change "
                        f"{system}, a folder Windows or its programs run from{where}", cmd.span))
        else:
            add(Finding("confirm.shell.insecure-permissions", Risk.HIGH, f"icacls grants everyone access{where}",
                        cmd.span))
    elif name == "takeown":
        add(Finding("confirm.shell.system-write", Risk.HIGH, f"takeown takes ownership of files{where}", cmd.span))
    elif name == "attrib" and any(w in ("+h", "+s") for w in words):
        add(Finding("confirm.shell.defense-evasion", Risk.MEDIUM, f"attrib hides a file{where}", cmd.span))
    elif name == "netsh" and "firewall" in words and _RX_SECRETS_AND_PLATFORMS_5.search(" ".join(words)):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"netsh switches the firewall off{where}", cmd.span))
    # tunnels, scans and attack tools (asked only for their version, help or fresh templates, they touch nothing)
    if (name in _TUNNELS or name in _SCANNERS) and words and all(w in _INFO_ONLY_WORDS or
                                                                 w.startswith(("--list=", "--test")) for w in words):
        pass
    elif name in _TUNNELS or (name in ("ssh", "autossh") and any(w in ("-R", "-D", "-w") or w.startswith(("-R", "-D"))
                                                             for w in cmd.argv[1:])):
        add(Finding("confirm.shell.network", Risk.HIGH, f"{name} opens a tunnel between this machine and the "
                    f"network{where}", cmd.span))
    elif name in _SCANNERS:
        targets = [w for w in plain if not _LOCAL_TARGET.match(w)]
        if name in ("nmap", "hping3") and plain and not targets:
            return
        add(Finding("confirm.shell.network", Risk.HIGH, f"{name}: scanning, cracking or attack tooling{where}",
                    cmd.span))
    elif name in ("nc", "ncat", "netcat") and any(_RX_SECRETS_AND_PLATFORMS_6.fullmatch(w) for w in words) and \
            any(_RX_SECRETS_AND_PLATFORMS_7.fullmatch(w) for w in plain):  # a port range: a scan, not a check
        add(Finding("confirm.shell.network", Risk.MEDIUM, f"{name} -z scans ports{where}", cmd.span))
    # filling the disk
    if any(op == ">" for op, _ in cmd.redirects) and name == "cat" and any(
            a in ("/dev/zero", "/dev/urandom", "/dev/random") for a in cmd.argv[1:]) and \
            not _bounded_downstream(cmd, analysis):
        add(Finding("confirm.shell.system-disruption", Risk.MEDIUM, f"{name} fills a file from {cmd.argv[1]} with no "
                    f"end: fills the disk{where}", cmd.span))
    elif name == "fallocate" and any(_RX_SECRETS_AND_PLATFORMS_8.fullmatch(w) and
                                     (w[-1] in "tp" or float(_RX_SECRETS_AND_PLATFORMS_9.match(w).group()) >= 10)
                                     for w in words):
        add(Finding("confirm.shell.system-disruption", Risk.MEDIUM, f"fallocate reserves a huge file{where}", cmd.span))


# -- Windows defences, logs, backups and disks switched off or wiped through PowerShell and admin tools ------

WINDOWS_DEFENCE_PROGRAMS = frozenset({
    "set-mppreference", "add-mppreference", "set-netfirewallprofile", "uninstall-windowsfeature",
    "remove-windowsfeature", "disable-windowsoptionalfeature", "stop-service", "spsv", "set-service",
    "reg", "auditpol", "fsutil", "get-wmiobject", "gwmi", "get-ciminstance", "gcim", "remove-wmiobject",
    "remove-ciminstance", "clear-disk", "format-volume", "remove-partition", "initialize-disk",
    "set-executionpolicy", "new-itemproperty", "set-itemproperty", "sp", "net", "wevtutil", "netsh",
})
_DEFENDER_VALUE = re.compile(r"^disable(antispyware|antivirus|realtimemonitoring|behaviou?rmonitoring|ioavprotection|"
                             r"onaccessprotection|scanonrealtimeenable|scriptscanning|routinelytakingaction|"
                             r"intrusionpreventionsystem|blockatfirstseen|archivescanning)$|^(enablelua|enablefirewall|"
                             r"enablesmartscreen|tamperprotection|consentpromptbehavioradmin)$", re.I)
_SECURITY_SERVICE_WORDS = re.compile(r"windefend|sense\b|wdnissvc|mpssvc|eventlog|sysmon|wscsvc|securityhealth|"
                                     r"defender|firewall|crowdstrike|csagent|sentinel|carbonblack|cylance|sophos|"
                                     r"mcafee|symantec|bitdefender|kaspersky|eset", re.I)


def _value_after(words: list[str], *flags: str) -> str:
    for k, w in enumerate(words[:-1]):
        if w.lower() in flags:
            return words[k + 1]
    return ""


_RX_WINDOWS_DEFENCES = re.compile(r"-enabled:\$?false")
_RX_WINDOWS_DEFENCES_2 = re.compile(r"disabled|stopped")
_RX_WINDOWS_DEFENCES_3 = re.compile(r"\.delete\(\)|remove-(wmiobject|ciminstance)")
_RX_WINDOWS_DEFENCES_4 = re.compile(r"^(unrestricted|bypass)$")
_RX_WINDOWS_DEFENCES_5 = re.compile(r"/grant:\s*everyone")
_OFF_VALUE = re.compile(r"^(\$?false|0|disabled?|off)$")
# Defender settings (Set-MpPreference) and the values that lower protection: cloud lookups and sample
# submission off, a protection in audit mode or off, threats left alone, scheduled scans never, updates skipped
_AUDIT_OR_OFF = frozenset({"0", "disabled", "2", "auditmode"})
_LEAVE_THREAT = frozenset({"6", "allow", "9", "noaction"})
_DEFENDER_LOWERING = {
    "-mapsreporting": frozenset({"0", "disabled"}),
    "-submitsamplesconsent": frozenset({"2", "neversend"}),
    "-puaprotection": _AUDIT_OR_OFF,
    "-enablecontrolledfolderaccess": _AUDIT_OR_OFF,
    "-enablenetworkprotection": _AUDIT_OR_OFF,
    "-attacksurfacereductionrules_actions": _AUDIT_OR_OFF,
    "-lowthreatdefaultaction": _LEAVE_THREAT, "-moderatethreatdefaultaction": _LEAVE_THREAT,
    "-highthreatdefaultaction": _LEAVE_THREAT, "-severethreatdefaultaction": _LEAVE_THREAT,
    "-unknownthreatdefaultaction": _LEAVE_THREAT, "-threatiddefaultaction_actions": _LEAVE_THREAT,
    "-scanscheduleday": frozenset({"8", "never"}),
    "-signaturedisableupdateonstartupwithoutengine": frozenset({"$true", "1", "true"}),
    # the short aliases of the Disable* switches (real-time, behaviour, script, block-at-first-sight, download,
    # archive, intrusion-prevention, removable-drive and e-mail scanning, privacy mode)
    **dict.fromkeys(("-drtm", "-dbm", "-dscrptsc", "-dbaf", "-dioavp", "-darchsc", "-dintr", "-drdsc", "-demsc",
                     "-dpm"), frozenset({"$true", "1", "true"})),
}


def _defender_lowered(words: list[str]) -> str | None:
    """The first Set-MpPreference setting given a value that lowers protection (`-Name Value` or `-Name:Value`,
    several values separated by commas), as written."""
    for k, w in enumerate(words):
        flag, _, inline = w.partition(":")
        off = _DEFENDER_LOWERING.get(flag)
        if off is None:
            continue
        value = inline or (words[k + 1] if k + 1 < len(words) else "")
        if any(v.strip("'\" ") in off for v in value.split(",")):
            return f"{flag} {value}"
    return None


# what a Defender exclusion may name without blinding the scanner: not a drive, a profile, a temp, download or shared
# folder where anything lands (`C:\`, `$env:TEMP`, `C:\Users\bob`, `...\Downloads`, `C:\ProgramData`), not
# a wildcard, not a shell or script host, and no program or script file type
_BROAD_FOLDER = re.compile(
    r"^(?:[a-z]:|[a-z]:\\|\*.*|~|\$home|\$env:(?:te?mp|tmp|userprofile|homepath|appdata|localappdata|public|"
    r"programdata|allusersprofile|systemroot|windir|systemdrive)|%(?:te?mp|userprofile|homepath|appdata|"
    r"localappdata|public|programdata|allusersprofile|systemroot|windir|systemdrive)%|"
    r"\$env:(?:userprofile|homepath)\\(?:downloads|desktop|documents|appdata(?:\\[^\\]+)?)|"
    r"%(?:userprofile|homepath)%\\(?:downloads|desktop|documents|appdata(?:\\[^\\]+)?)|"
    r"[a-z]:\\(?:users|users\\[^\\]+|users\\[^\\]+\\(?:downloads|desktop|documents|appdata(?:\\[^\\]+)?)|"
    r"programdata(?:\\[^\\]+)?|users\\public\\.*|users\\[^\\]+\\appdata\\.*|windows|windows\\[^\\]+|"
    r"program files(?: \(x86\))?|te?mp|tmp|perflogs|\$recycle\.bin)|"
    r".*\\(?:downloads|temp|tmp|appdata\\local\\temp|inetcache|startup))\\?$", re.I)
_SHELL_HOSTS = re.compile(r"(?:^|\\)(?:powershell|pwsh|cmd|wscript|cscript|mshta|rundll32|regsvr32|msbuild|"
                          r"installutil|regasm|regsvcs|wmic|certutil|bitsadmin|explorer|svchost|lsass|"
                          r"conhost|python[\d.]*|pythonw|node|java|javaw|\*)(?:\.exe)?$", re.I)
_PROGRAM_TYPES = frozenset({"exe", "dll", "ps1", "psm1", "bat", "cmd", "vbs", "vbe", "js", "jse", "hta", "scr",
                            "com", "msi", "lnk", "wsf", "jar", "sys", "cpl", "zip", "7z", "rar", "iso", "docm",
                            "xlsm", "*"})


def _broad_exclusion(words: list[str]) -> str | None:
    """What a Defender exclusion names that blinds the scanner (see `_BROAD_FOLDER`), or None for a single
    project folder, build program or harmless file type."""
    for k, w in enumerate(words[:-1]):
        kind = w.lower().lstrip("-").partition(":")[0]
        if not kind.startswith("exclusion"):
            continue
        values = [v.strip("'\" ").rstrip("\\/") or v.strip("'\" ")
                  for v in (w.partition(":")[2] or words[k + 1]).split(",")]
        for v in values:
            low = v.lower().replace("/", "\\")
            if kind.startswith("exclusionpath") and (_BROAD_FOLDER.match(low) or _BROAD_FOLDER.match(low + "\\")):
                return f"{v or 'a drive'}, a whole drive, profile or drop folder"
            if kind.startswith("exclusionprocess") and _SHELL_HOSTS.search(low):
                return f"{v}, a shell or script host that runs anything"
            if kind.startswith("exclusionextension") and low.lstrip("*.") in _PROGRAM_TYPES:
                return f"every .{low.lstrip('*.')} file"
            if kind.startswith("exclusionipaddress"):
                return f"traffic with {v}"
    return None


def windows_defences(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Defender exclusions, firewall profiles, security services, protection registry values, auditing,
    the USN journal, shadow copies and disks: switching a defence off or wiping evidence blocks."""
    name = cmd.name
    words = list(cmd.argv[1:])
    low = [w.lower() for w in words]
    joined = " ".join(low)
    off = _OFF_VALUE
    if name in ("set-mppreference", "add-mppreference") and any(w.startswith("-exclusion") for w in low):
        broad = _broad_exclusion(words)
        if broad is None:  # (one project's folder or build program, as performance guides exclude them)
            add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                        f"{name} exempts a folder or program from Defender scanning: what lands there is never "
                        f"scanned{where}", cmd.span))
        else:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{name} exempts {broad} from Defender scanning: where downloads and payloads land goes "
                        f"unscanned{where}", cmd.span))
    elif name == "set-mppreference" and (lowered := _defender_lowered(low)):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{name} {lowered}: lowers Defender's protection{where}", cmd.span))
    elif name == "set-mppreference" and any(w.startswith("-") and len(w) > 2 for w in low):
        # a protection switched on, a scan scheduled, a signature source set: the machine's anti-virus settings
        add(Finding("confirm.shell.system-state", Risk.MEDIUM,
                    f"{name} changes Defender's settings for the whole machine{where}", cmd.span))
    elif name == "set-netfirewallprofile" and (off.match(_value_after(low, "-enabled")) or
                                                _RX_WINDOWS_DEFENCES.search(joined)):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} switches the firewall off{where}",
                    cmd.span))
    elif name in ("uninstall-windowsfeature", "remove-windowsfeature", "disable-windowsoptionalfeature") and \
            "defender" in joined:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} removes Windows Defender{where}",
                    cmd.span))
    elif name in ("stop-service", "spsv", "set-service") and _SECURITY_SERVICE_WORDS.search(joined) and \
            (name != "set-service" or _RX_WINDOWS_DEFENCES_2.search(joined)):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} stops or disables a security "
                    f"service{where}", cmd.span))
    elif (name == "reg" and low[:1] == ["add"]) or name in ("new-itemproperty", "set-itemproperty", "sp"):
        value = _value_after(low, "/v", "-v", "-name")
        data = _value_after(low, "/d", "-d", "-value")
        if _DEFENDER_VALUE.match(value) and (value.startswith("disable") != (data in ("0", "0x0"))):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} sets {value} = {data}: switches a "
                        f"Windows protection off{where}", cmd.span))
        elif value in ("fdenytsconnections", "userauthentication") and data in ("0", "0x0"):
            add(Finding("confirm.shell.network", Risk.HIGH, f"{name} sets {value} = 0: opens Remote Desktop to "
                        f"the network{where}", cmd.span))
    elif name == "auditpol" and (low[:1] in (["/clear"], ["/remove"]) or
                                 (low[:1] == ["/set"] and "disable" in joined and "enable" not in joined)):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"auditpol {low[0]}: switches auditing off{where}",
                    cmd.span))
    elif name == "fsutil" and low[:2] == ["usn", "deletejournal"]:
        add(Finding("block.shell.anti-forensics", Risk.CRITICAL, f"fsutil usn deletejournal: erases the file "
                    f"change journal{where}", cmd.span))
    elif name in ("get-wmiobject", "gwmi", "get-ciminstance", "gcim", "remove-wmiobject", "remove-ciminstance") \
            and "win32_shadowcopy" in joined and (name.startswith("remove") or
                                                   _RX_WINDOWS_DEFENCES_3.search(analysis.source.lower())):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} deletes the volume shadow copies "
                    f"(backups){where}", cmd.span))
    elif name in ("clear-disk", "format-volume", "remove-partition") or \
            (name == "initialize-disk" and "-partitionstyle" in low and "-confirm:$false" in low):
        add(Finding("block.shell.disk-destruction", Risk.CRITICAL, f"{name} wipes a disk or volume{where}",
                    cmd.span))
    elif name == "set-executionpolicy" and low:
        # any policy, any scope (-Scope Process too: install guides write it so, and what it lets run is what
        # the person should see first): the machine's script safeguard changed asks
        policy = _value_after(["-executionpolicy", *low], "-executionpolicy") or low[0]
        if _RX_WINDOWS_DEFENCES_4.match(policy.strip("'\"")):
            add(Finding("confirm.shell.defense-evasion", Risk.MEDIUM, f"{name} lets unsigned scripts run{where}",
                        cmd.span))
        else:
            add(Finding("confirm.shell.system-state", Risk.MEDIUM, f"{name} {policy}: changes which scripts "
                        f"PowerShell lets run{where}", cmd.span))
    elif name == "netsh" and (("portproxy" in low and "add" in low) or (
            "firewall" in low and "add" in low and "action=allow" in low and "dir=in" in low)):
        add(Finding("confirm.shell.network", Risk.HIGH, f"netsh opens an inbound port or forwards one to another "
                    f"host{where}", cmd.span))
    elif name == "net" and low[:1] == ["share"] and _RX_WINDOWS_DEFENCES_5.search(joined):
        add(Finding("confirm.shell.insecure-permissions", Risk.HIGH, f"net share grants everyone access{where}",
                    cmd.span))


# -- cloud audit trails and security services switched off ------------------------------------------------

_CLOUD_DEFENCE_OFF = re.compile(
    r"^(cloudtrail (stop-logging|delete-trail|put-event-selectors)|guardduty (delete-detector|"
    r"disassociate-from-master-account|update-detector .*--no-enable)|config (stop-configuration-recorder|"
    r"delete-configuration-recorder|delete-delivery-channel)|securityhub (disable-security-hub|"
    r"batch-disable-standards)|logs delete-log-group|macie2 disable-macie|inspector2 disable|"
    r"detective delete-graph|access-analyzer delete-analyzer)\b|"
    r"^(logging (sinks|buckets|logs) delete|scc .*(mute|delete)|"
    r"services disable (logging|monitoring|securitycenter|cloudasset)\S*)\b|"
    r"^(monitor (diagnostic-settings|log-profiles|activity-log) delete|security (pricing create .*--tier free|"
    r"auto-provisioning-setting update .*off)|sentinel .*delete)\b")


# ... and the same read over the whole line, options and their values included (a detector's data source switched
# off by a value, a sink disabled by a switch, a Defender setting set to false), by service
_CLOUD_DEFENCE_LOWERED = re.compile(
    r"^guardduty update-detector\b.*(enable=false|\"enable\"\s*:\s*false|status=disabled|"
    r"\"status\"\s*:\s*\"disabled\")|"
    r"^guardduty (create-filter\b.*--action[= ]archive|create-ip-set|update-ip-set|delete-publishing-destination|"
    r"delete-members|disassociate-members|stop-monitoring-members|disassociate-from-administrator-account|"
    r"update-organization-configuration\b.*(--no-auto-enable|auto-enable-organization-members[= ]none))\b|"
    r"^configservice (stop-configuration-recorder|delete-configuration-recorder|delete-delivery-channel|"
    r"delete-config-rule|delete-conformance-pack|delete-organization-config-rule)\b|"
    r"^cloudtrail (update-trail\b.*--no-enable-log-file-validation|delete-event-data-store|"
    r"stop-event-data-store-ingestion)\b|"
    r"^securityhub (disable-import-findings-for-product|disassociate-from-administrator-account|"
    r"disable-organization-admin-account)\b|^securityhub (update-standards-control|"
    r"batch-update-standards-control-associations)\b.*disabled|"
    r"^route53resolver (delete|disassociate)-resolver-query-log-config\b|"
    r"^organizations (leave-organization|disable-policy-type)\b|"
    r"^cloudwatch disable-alarm-actions\b|^macie2 update-macie-session\b.*paused|"
    r"^logs (delete-log-stream|delete-subscription-filter|delete-metric-filter|delete-destination)\b|"
    r"^s3api put-bucket-logging\b.*--bucket-logging-status[= ]'?\{\s*\}|"
    r"^logging sinks update\b.*(--disabled(?!=false)\b|--add-exclusion)|^logging exclusions create\b|"
    r"^logging settings update\b.*--disable-default-sink(?!=false)\b|"
    r"^(resource-manager org-policies|org-policies) (disable-enforce|delete|reset)\b|"
    r"^compute networks subnets update\b.*--no-enable-flow-logs|"
    r"^compute firewall-rules update\b.*--no-enable-logging|"
    r"^container clusters update\b.*(--logging[= ]none|--no-enable-cloud-logging|--monitoring[= ]none)|"
    r"^scc\b.*(enablement-state[= ]disabled)|"
    r"^security (setting update\b.*--enabled[= ]false|atp \S+ update\b.*--is-enabled[= ]false|"
    r"workspace-setting delete)\b|"
    r"^monitor (log-analytics workspace delete|(activity-log alert|alert|metrics alert|"
    r"scheduled-query) update\b.*--enabled[= ]false)\b|"
    r"^network watcher (flow-log (delete|update\b.*--enabled[= ]false)|configure\b.*--enabled[= ]false)|"
    r"^security alerts-suppression-rule (upsert|create)\b|^security\b.*--state[= ](off|disabled)\b|"
    r"^monitor diagnostic-settings subscription delete\b|^ec2 disable-ebs-encryption-by-default\b")
_SERVICE_START = re.compile(r"(?:^|\s)(ec2|guardduty|configservice|cloudtrail|securityhub|route53resolver|"
                            r"organizations|cloudwatch|macie2|logs|s3api|logging|resource-manager|org-policies|compute|container|"
                            r"scc|security|monitor|network)\s")


_RX_CLOUD_DEFENCES = re.compile(r"\ballusers\b|allauthenticatedusers|public-read(-write)?\b|^--acl=?public")


def cloud_defences(cmd: Command, where: str, add: Add) -> None:
    """aws/gcloud/az commands that stop audit trails or security monitoring: block like auditctl -e 0."""
    words = cmd.words[2:] if cmd.name == "gcloud" and cmd.words[1:2] in (("alpha",), ("beta",), ("preview",)) \
        else cmd.words[1:]  # (gcloud's release tracks: `gcloud beta logging sinks delete` is the same command)
    plain = " ".join(w for w in words if not w.startswith("-") or w.startswith("--no-") or w in ("--tier",))
    text = " ".join(words)
    start = _SERVICE_START.search(text)
    if _CLOUD_DEFENCE_OFF.search(plain) or (start and _CLOUD_DEFENCE_LOWERED.search(text[start.start(1):])):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} {' '.join(plain.split()[:2])}: switches off the cloud audit trail or security "
                    f"monitoring{where}", cmd.span))
    elif any(_RX_CLOUD_DEFENCES.search(w)
             for w in cmd.words[1:]) and not (cmd.words[1:2] and cmd.words[1] in ("ls", "list", "describe")):
        add(Finding("confirm.shell.insecure-permissions", Risk.HIGH,
                    f"{cmd.name} makes cloud data readable by anyone on the internet{where}", cmd.span))
