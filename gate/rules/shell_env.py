"""Shell findings from the environment a command runs in.

The environment is part of the command: a variable can make every program that follows load a library,
run a start-up script, or hand a string to a shell. Variables come from three places and are judged the
same way: the action's `env` (gate/shell.py `shell_facts` adds them to the analysis), `NAME=value cmd`
prefixes, and `export`/`declare`/plain assignments inside the command.

- loader hooks (`LD_PRELOAD`, `LD_AUDIT`, `DYLD_INSERT_LIBRARIES`, ...) load the caller's library into
  every program that starts: they block (`block.shell.loader-hook`);
- interpreter and tool hooks ask (`confirm.shell.env-hook`): start-up files (`BASH_ENV`, `ENV`,
  `PYTHONSTARTUP`), module paths into writable directories (`PYTHONPATH=/tmp`), option variables that
  load code (`NODE_OPTIONS=--require`, `PERL5OPT=-M`, `RUBYOPT=-r`), variables whose value is a command
  line (`GIT_SSH_COMMAND`, `PROMPT_COMMAND`, `LESSOPEN`, `PAGER`/`EDITOR` with more than a program name),
  a search path for libraries in a writable directory, a `PATH` whose first entry is writable, and a
  folder of helper programs in one (`GROFF_BIN_PATH=.`); the programs autoconf runs (`AUTOM4TE`, `M4`) count
  as command lines;
- programs' own option variables whose options run a command ask the same way (`TAR_OPTIONS` with
  `--checkpoint-action=exec=`, `ZIPOPT=-TT`, `MANOPT=-P`, `GOFLAGS=-toolexec`, `MAKEFILES`), and so do a shell or
  an interpreter named as a PAGER, EDITOR or BROWSER, Python warning filters that import a module which opens the
  browser (`PYTHONWARNINGS=::antigravity.x::`) and git configuration handed over in `GIT_CONFIG_KEY_n`; a
  package index or registry variable (`PIP_INDEX_URL`, `NPM_CONFIG_REGISTRY`) on a host named as hostile blocks;
- a value that is a command line is also judged as a command (`GIT_SSH_COMMAND='curl ... | sh'` blocks
  as remote code execution does);
- a variable that tells a tool where its credentials are (`DOCKER_CONFIG`, `KUBECONFIG`,
  `AWS_SHARED_CREDENTIALS_FILE`, `GOOGLE_APPLICATION_CREDENTIALS`, ...) pointed away from the tool's own place
  at a secret the gate would ask to read (another tool's key folder, `/root`, `/etc`, a mounted secret, a
  folder named for tokens or credentials) asks as that read does (`confirm.shell.secret-read`): the tool then
  signs in with, and may print, a credential the agent was never handed. The tool's own place
  (`DOCKER_CONFIG=~/.docker`, any file under `~/.kube`), a path relative to the project, and an ordinary folder
  (`KUBECONFIG=~/clusters/dev.yaml`) keep their decision;
- pre-commit's `SKIP` naming a secret scanner (`SKIP=gitleaks git commit`) asks as defence evasion
  (`confirm.shell.defense-evasion`): the change is committed without its key-and-password check.

Ordinary settings (`NODE_ENV=production`, `RUST_LOG=debug`, `PATH=$PATH:./node_modules/.bin`,
`EDITOR=vim`, `LD_LIBRARY_PATH=./build/lib`) do not ask.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.model import Risk
from gate.shell import HOME, Finding, analyse, display_path, resolve_path

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["LOADER_HOOKS", "command_assignments", "judge"]

Add = Callable[[Finding], None]

# folded names (the analysis keeps variable names in lower case)
LOADER_HOOKS = frozenset({"ld_preload", "ld_audit", "dyld_insert_libraries", "dyld_force_flat_namespace",
                          "_rld_list", "ld_preload_32", "ld_preload_64"})
_LIBRARY_PATHS = frozenset({"ld_library_path", "dyld_library_path", "dyld_fallback_library_path",
                            "dyld_framework_path", "dyld_fallback_framework_path", "ld_library_path_64",
                            "gconv_path", "gio_module_dir", "gtk_path", "qt_plugin_path", "gst_plugin_path",
                            "openssl_engines", "openssl_modules", "sasl_path", "lua_cpath", "ld_run_path"})
_STARTUP_FILES = frozenset({"bash_env", "env", "pythonstartup", "zdotdir", "inputrc", "openssl_conf",
                            "node_repl_external_module", "perldb_opts", "rubylib_startup", "ipythondir",
                            "jupyter_config_dir", "tclsh_rc", "wgetrc", "curl_home", "npm_config_userconfig",
                            "git_config_global", "git_config_system", "git_config", "gitconfig",
                            # files a program reads first (make: the makefiles; helm: its plug-ins' folder)
                            "makefiles"})
_MODULE_PATHS = frozenset({"pythonpath", "perl5lib", "perllib", "rubylib", "node_path", "lua_path", "tcllibpath",
                           "classpath", "gem_path", "gem_home", "r_libs", "julia_load_path", "pythonhome",
                           "pythonuserbase"})
_COMMAND_VALUES = frozenset({"git_ssh_command", "git_ssh", "git_exec_path", "git_askpass", "ssh_askpass",
                             "sudo_askpass", "git_proxy_command", "git_external_diff", "git_pager", "git_editor",
                             "git_sequence_editor", "prompt_command", "precmd", "lessopen", "lessclose",
                             "rsync_rsh", "cvs_rsh", "rsh", "man_pager", "systemd_pager", "browser",
                             "pager", "manpager", "editor", "visual", "sudo_editor", "fcedit", "difftool",
                             "terminal", "xdg_terminal", "ssh_askpass_require", "ps1", "ps4", "prompt",
                             "restic_password_command", "borg_passcommand", "borg_rsh", "rclone_password_command",
                             "kopia_password_command", "gpg_agent_info", "pinentry_program", "svn_ssh",
                             "hg_ssh", "cargo_target_runner", "cc", "cxx", "ld", "make", "maven_opts",
                             "kubectl_external_diff", "diff_tool", "git_diff_opts_command",
                             # the programs autoconf and its kin run for their own steps
                             "autom4te", "m4", "autoconf", "autoheader", "aclocal", "automake"})
# the endings of a variable whose value a program runs as a command line, whatever the program (`SYSTEMD_EDITOR`,
# `KUBE_EDITOR`, `CRASHPAGER`, `DOCKER_ASKPASS`, `BORG_RSH`, `HG_SSH_COMMAND`)
_COMMAND_SUFFIXES = ("pager", "editor", "_askpass", "ssh_command", "_rsh", "_passcommand", "password_command")
# variables naming a folder of helper programs a tool runs by name (groff's preprocessors and drivers):
# judged like a PATH that puts that folder first
_PROGRAM_DIRS = frozenset({"groff_bin_path"})
_OPTION_VALUES = {  # variables holding a program's options: the options that load code
    "node_options": re.compile(r"(^|\s)(-r|--require|--import|--loader|--experimental-loader|"
                               r"--experimental-policy|--inspect\S*|-e|--eval)(\s|=|$)"),
    "perl5opt": re.compile(r"(^|\s)-[a-z]*[mde]", re.I),
    "rubyopt": re.compile(r"(^|\s)-[a-z]*[re]", re.I),
    "pythoninspect": re.compile(r"."),
    "java_tool_options": re.compile(r"-(javaagent|agentpath|agentlib|xbootclasspath)", re.I),
    "_java_options": re.compile(r"-(javaagent|agentpath|agentlib|xbootclasspath)", re.I),
    "jdk_java_options": re.compile(r"-(javaagent|agentpath|agentlib|xbootclasspath)", re.I),
    "dotnet_startup_hooks": re.compile(r"."),
    "cor_profiler_path": re.compile(r"."),
    "coreclr_profiler_path": re.compile(r"."),
    "cor_enable_profiling": re.compile(r"^1$"),
    # programs' own option variables whose options run a command: tar's checkpoint action, compress program and
    # volume scripts, zip's test command, man's pager and browser
    "tar_options": re.compile(r"--checkpoint-action|--to-command|--use-compress-program|--info-script|"
                              r"--new-volume-script|--rsh-command|--rmt-command|(^|\s)-[a-z]*[IF](\s|=|$)"),
    "zipopt": re.compile(r"-TT|--unzip-command"),
    "goflags": re.compile(r"(^|\s)-(toolexec|exec|overlay)(\s|=|$)"),
    "manopt": re.compile(r"(^|\s)(-[a-z]*[PH]|--pager|--html)"),
    # Python's warning filters import the module a category names (`::antigravity.x::` opens $BROWSER)
    "pythonwarnings": re.compile(r"^[^:,]*:[^:,]*:\s*(\.|antigravity|webbrowser|this|pty|os|subprocess|runpy|code|"
                                 r"pdb|idlelib|turtledemo|ctypes|importlib)\b[\w.]*\.", re.I),
}
# variables that send a package manager to another index or registry (judged like a settings file's source)
_REGISTRY_VARS = frozenset({"pip_index_url", "pip_extra_index_url", "pip_find_links", "pip_trusted_host",
                            "uv_index_url", "uv_extra_index_url", "uv_index", "uv_default_index", "uv_find_links",
                            "npm_config_registry", "yarn_npm_registry_server", "yarn_registry", "bun_config_registry",
                            "pnpm_config_registry", "poetry_repositories_pypi_url", "pdm_pypi_url", "goproxy",
                            "cargo_registry_index", "gem_source", "bundle_mirror__all", "conda_channels"})
# git's configuration handed over in the environment: the keys that run a command
_GIT_RUN_KEY = re.compile(r"core\.(fsmonitor|sshcommand|pager|editor|hookspath|askpass|gitproxy)|\.textconv|"
                          r"filter\.[^.=]+\.(clean|smudge|process)|credential\.helper|alias\.[^=]+=\s*'?!|"
                          r"gpg\.(\w+\.)?program|diff\.external|sequence\.editor|uploadpack|receivepack", re.I)
_SHELL_PROGRAM = re.compile(r"(^|/)(ba|z|da|k|c|tc|a|fi)?sh$|(^|/)(python[\d.]*|perl|ruby|node|php|lua|nc|ncat|"
                            r"netcat|socat|osascript|pwsh|powershell|cmd(\.exe)?)$", re.I)
# a program name alone (or with plain flags) is an ordinary PAGER/EDITOR/CC; anything with shell syntax is code
_PROGRAM_NAMED = frozenset({"pager", "manpager", "editor", "visual", "sudo_editor", "fcedit", "browser", "terminal",
                            "git_pager", "git_editor", "git_sequence_editor", "man_pager", "systemd_pager", "cc",
                            "cxx", "ld", "make", "kubectl_external_diff", "diff_tool", "autom4te", "m4", "autoconf",
                            "autoheader", "aclocal", "automake"})
_PLAIN_PROGRAM = re.compile(r"^[\w./~+-]+(\s+--?\w[\w-]*(=[\w./-]*)?)*$")
_WRITABLE = re.compile(r"^(/tmp|/var/tmp|/dev/shm|/private/tmp|/private/var/tmp|/run/user/\d+|/var/run/user/\d+|"
                       r"/run/shm|/var/crash|/var/spool|/home/[^/]+/downloads|~/downloads|\$home/downloads|"
                       r"/users/[^/]+/downloads|\$tmpdir|\$\{tmpdir\}|c:\\(windows\\)?temp|%temp%|%tmp%|\$env:te?mp|"
                       r"c:\\users\\public|c:\\programdata|%public%|%programdata%|\$env:public)(/|\\|$)",
                       re.I)


def _entries(value: str, sep: str = ":") -> list[str]:
    return [e.strip().strip("'\"") for e in value.split(sep)]


def _writable(entry: str, here: bool = False) -> bool:
    """A directory anyone (or any download) can put files in; with `here`, the current directory too (a
    PATH entry `.` or empty runs whatever file of that name the working directory holds)."""
    e = entry.strip().lower()
    return (here and e in ("", ".", "./")) or bool(_WRITABLE.match(e))


def _path_first_writable(value: str) -> str | None:
    """The first PATH entry, when it is writable by anyone (so it shadows every system program)."""
    entries = _entries(value, ";" if ";" in value or "\\" in value else ":")
    if len(entries) < 2 and not value.strip():
        return None
    first = entries[0]
    if first.lower() in ("$path", "${path}"):
        return None  # appended: the system programs still come first
    return first if _writable(first, here=True) else None


_PS_ENV = re.compile(r"^\$env:(?P<name>[a-z_][a-z0-9_]*)\s*=\s*(?P<value>.*)$", re.I | re.S)


def command_assignments(argv: tuple[str, ...], name: str) -> list[tuple[str, str]]:
    """Variables a command sets for what follows, in the forms the shell parse does not see as
    assignments: cmd's `set NAME=value`, `setx NAME value`, csh's `setenv NAME value`, PowerShell's
    `$env:NAME = value`, `launchctl setenv NAME value`, and bash's `hash -p FILE NAME` as the PATH it amounts to
    (folded names)."""
    out: list[tuple[str, str]] = []
    if name == "set" and len(argv) >= 2 and "=" in argv[1] and not argv[1].startswith(("-", "+")):
        key, _, value = " ".join(argv[1:]).partition("=")
        out.append((key.strip().strip('"').lower(), value))
    elif name in ("setx", "setenv") and len(argv) >= 3 and not argv[1].startswith(("/", "-")):
        out.append((argv[1].lower(), argv[2]))
    elif name == "launchctl" and len(argv) >= 4 and argv[1].lower() == "setenv":
        out.append((argv[2].lower(), argv[3]))
    elif name == "hash" and len(argv) >= 4 and argv[1] == "-p":
        # `hash -p FILE NAME`: the shell runs FILE for NAME from now on, as if FILE's folder came first on PATH
        folder = argv[2].rsplit("/", 1)[0] if "/" in argv[2] else "."
        out.append(("path", f"{folder or '/'}:$PATH"))
    elif argv and argv[0][:5].lower() == "$env:":
        m = _PS_ENV.match(" ".join(argv))
        if m:
            out.append((m.group("name").lower(), m.group("value").strip().strip("'\"")))
    return out


# variables that tell a tool where its credentials are kept (folded name -> the tool's own places, resolved;
# a value inside one of them is where the tool looks anyway)
_CREDENTIAL_PLACES: dict[str, tuple[str, ...]] = {
    "docker_config": ("~/.docker",), "docker_cert_path": ("~/.docker",), "registry_auth_file": (
        "~/.config/containers", "/run/user/"), "kubeconfig": ("~/.kube",), "helm_registry_config": ("~/.config/helm",),
    "aws_shared_credentials_file": ("~/.aws",), "aws_config_file": ("~/.aws",), "aws_web_identity_token_file": (),
    "google_application_credentials": ("~/.config/gcloud",), "cloudsdk_config": ("~/.config/gcloud",),
    "azure_config_dir": ("~/.azure",), "gh_config_dir": ("~/.config/gh",), "glab_config_dir": ("~/.config/glab-cli",),
    "netrc": ("~/.netrc",), "pgpassfile": ("~/.pgpass",), "gnupghome": ("~/.gnupg",),
    "password_store_dir": ("~/.password-store",), "tf_cli_config_file": ("~/.terraformrc", "~/.terraform.d"),
    "terraform_config": ("~/.terraformrc",), "boto_config": ("~/.boto",), "rclone_config": ("~/.config/rclone",),
    "sops_age_key_file": ("~/.config/sops",), "vault_config_path": ("~/.vault",), "oci_cli_config_file": ("~/.oci",),
    "digitalocean_config": ("~/.config/doctl",), "heroku_netrc": ("~/.netrc",), "cargo_home": ("~/.cargo",),
    "mc_config_dir": ("~/.mc",), "s3cmd_config": ("~/.s3cfg",), "kaggle_config_dir": ("~/.kaggle",),
    "hf_home": ("~/.cache/huggingface",), "hf_token_path": ("~/.cache/huggingface",),
}
_OWN_PLACES = {name: tuple(resolve_path(p) or p for p in places) for name, places in _CREDENTIAL_PLACES.items()}
# places a credential lives that the person's own session does not hand to a tool: root's and the system's
# secrets, a container's mounted secrets, another tool's key folder, a folder named for tokens or credentials
_FOREIGN_SECRET = re.compile(r"^/(root|etc|var/lib|var/run/secrets|run/secrets|run/keys|private/etc|var/db)(/|$)|"
                             r"(^|/)\.(ssh|gnupg|aws|azure|kube|docker|password-store|vault-token|netrc|pgpass|"
                             r"git-credentials|config/gcloud|config/gh)(/|$)|"
                             r"(^|/)[^/]*(token|secret|credential|creds|passw|apikey|api-key|auth)[^/]*(/|$)|"
                             r"(^|/)keys?(\.[a-z]+)?(/|$)", re.IGNORECASE)


def credential_place(name: str, value: str) -> str | None:
    """The secret place a credential-location variable points its tool at, when it is not the tool's own
    (display form); None for the tool's own place, a relative or unknown path, or an ordinary folder."""
    own = _OWN_PLACES.get(name)
    if own is None:
        return None
    v = value.strip().strip("'\"")
    if not v or v[0] not in "/~" or "$" in v:
        return None  # relative to the project, or a value the gate cannot read
    for entry in v.split(":") if name == "kubeconfig" else (v,):
        path = resolve_path(entry)
        if path is None:
            continue
        # a home written out (`/home/alice/.kube`) is the person's home for the tool's own place
        parts = path.split("/")
        homed = f"{HOME}/{'/'.join(parts[3:])}" if len(parts) > 3 and parts[1] in ("home", "users") else path
        if any(homed == p or homed.startswith(p.rstrip("/") + "/") for p in own):
            continue
        if _FOREIGN_SECRET.search(path):
            return display_path(path)
    return None


# pre-commit hooks that look for keys and passwords in a change (named in pre-commit's SKIP=a,b to skip them)
_SECRET_SCANNERS = re.compile(r"(?:^|,)\s*(?:gitleaks[\w-]*|detect-secrets[\w-]*|trufflehog[\w-]*|ggshield[\w-]*|"
                              r"git-secrets[\w-]*|talisman[\w-]*|secretlint[\w-]*|detect-private-key|"
                              r"detect-aws-credentials|ripsecrets|betterleaks|kingfisher)\s*(?:,|$)", re.I)


# a value that may be a command line wiring a shell to the network, and where such a line may start in it
_NET_SHELL_VALUE = re.compile(r"/dev/(tcp|udp)/|\b(nc|ncat|netcat)\b[^|;&]*\s-[a-z]*[ec]\s|\bsocat\b[^;&]*\bexec:",
                              re.I)
_SHELL_START = re.compile(r"\b(nc|ncat|netcat|socat|bash|sh|zsh|exec)\b")
# ... which names a shell and where to connect (an address, a host name, a /dev/tcp path)
_SHELL_NAMED = re.compile(r"\b(ba|z|da|k|c|tc|a)?sh\b|\bcmd(\.exe)?\b|powershell|pwsh", re.I)
_ADDRESS = re.compile(r"\b\d{1,3}(\.\d{1,3}){3}\b|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b|/dev/(tcp|udp)/|"
                      r"\blocalhost\b", re.I)


def _shell_starts(value: str) -> list[int]:
    """Where a command line may start in `value`: its beginning, then the first places a shell or a network tool is
    named (after a function's `() { :; };`, a cron time, a `|`)."""
    return list(dict.fromkeys([0, *(m.start() for m in _SHELL_START.finditer(value))]))[:4]


def judge(d: Detector, name: str, value: str, add: Add) -> None:
    """Findings for one variable `name` (folded) set to `value` for the commands that follow."""
    v = value.strip()
    if not v:
        return
    shown = f"{name.upper()}={value[:80]}"
    span = f"{name}={value}" if len(value) < 200 else ""
    if _NET_SHELL_VALUE.search(v) and _SHELL_NAMED.search(v) and _ADDRESS.search(v) and d.depth <= 2:
        # a value that is itself a command line connecting a shell to the network: a hook variable that runs it
        # (PROMPT_COMMAND), a function body bash imports from the environment (`X='() { :; }; nc -e ...'`)
        d.depth += 1
        try:
            hit = any(f.rule == "block.shell.reverse-shell" for at in _shell_starts(v) for f in d.run(analyse(v[at:])))
        finally:
            d.depth -= 1
        if hit:
            add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                        f"{shown}: the value is a command line that connects a shell to the network", span))
            return
    if name == "skip" and _SECRET_SCANNERS.search(v):
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                    f"{shown}: the commit's secret scanner is skipped (pre-commit's SKIP): a key or password in "
                    f"the change is committed unchecked", span))
        return
    if name in _CREDENTIAL_PLACES:
        place = credential_place(name, v)
        if place is not None:
            add(Finding("confirm.shell.secret-read", Risk.HIGH,
                        f"{name.upper()}={place}: the tool signs in with (and may print) the credentials kept there, "
                        f"a read that asks on its own", span))
        return
    if name in LOADER_HOOKS or (name.startswith("dyld_") and name not in _LIBRARY_PATHS):
        add(Finding("block.shell.loader-hook", Risk.CRITICAL,
                    f"{shown}: loads a library of the caller's choosing into every program that starts", span))
        return
    if name in _LIBRARY_PATHS:
        bad = [e for e in _entries(v) if _writable(e)]
        if bad:
            add(Finding("confirm.shell.env-hook", Risk.HIGH,
                        f"{shown}: programs load their libraries from {bad[0]}, "
                        f"where anyone can put files", span))
        return
    if name in _STARTUP_FILES:
        add(Finding("confirm.shell.env-hook", Risk.HIGH,
                    f"{shown}: a start-up file that runs before the program does", span))
        return
    if name in _MODULE_PATHS:
        bad = [e for e in _entries(v, ";" if ";" in v else ":") if _writable(e)]
        if bad:
            add(Finding("confirm.shell.env-hook", Risk.HIGH,
                        f"{shown}: the interpreter imports modules from {bad[0]}, "
                        f"where anyone can put files", span))
        return
    if name in _OPTION_VALUES:
        if _OPTION_VALUES[name].search(v):
            add(Finding("confirm.shell.env-hook", Risk.HIGH,
                        f"{shown}: options that make the interpreter load or run code", span))
            action = re.search(r"(?:--checkpoint-action=exec=|--to-command=|--use-compress-program=|--info-script=|"
                               r"--new-volume-script=|-TT\s*=?)(.*)", v)
            if action is not None and d.depth < 2:
                inner = action.group(1).strip().strip("'\"").replace("\\ ", " ")
                d.depth += 1
                try:
                    for f in d.run(analyse(inner)):
                        add(Finding(f.rule, f.risk, f"{f.reason} (run through {name.upper()})", span or f.span))
                finally:
                    d.depth -= 1
        return
    if name in _REGISTRY_VARS:
        _registry(name, v, shown, span, add)
        return
    if (name.startswith("git_config_key_") and _GIT_RUN_KEY.search(v)) or \
            (name == "git_config_parameters" and _GIT_RUN_KEY.search(v)):
        add(Finding("confirm.shell.env-hook", Risk.HIGH,
                    f"{shown}: git configuration, handed over in the environment, that runs a command", span))
        return
    if name in _PROGRAM_DIRS:
        bad = [e for e in _entries(v) if _writable(e, here=True)]
        if bad:
            add(Finding("confirm.shell.env-hook", Risk.HIGH,
                        f"{shown}: the program runs its helper programs from {bad[0] or 'the current directory'}, "
                        f"where anyone can put files", span))
        return
    if name == "path":
        first = _path_first_writable(v)
        if first is not None:
            add(Finding("confirm.shell.env-hook", Risk.HIGH,
                        f"{shown}: puts {first or 'the current directory'} first, so a file there shadows "
                        f"every program the command runs", span))
        return
    if name in _COMMAND_VALUES or name.endswith(_COMMAND_SUFFIXES):  # any program's own pager or editor
        # variable (CRASHPAGER, SYSTEMD_EDITOR, KUBE_EDITOR), password helper or ssh command
        if (name in _PROGRAM_NAMED or name.endswith(("pager", "editor"))) and _PLAIN_PROGRAM.match(v) and \
                not _WRITABLE.match(v) and not _SHELL_PROGRAM.search(v.split()[0]):
            return  # `EDITOR=vim`, `PAGER='less -R'`, `CC=clang`: a program, not a command line
        # the name only: a command line in a variable may carry a password (`sshpass -p ...`)
        add(Finding("confirm.shell.env-hook", Risk.HIGH,
                    f"{name.upper()} holds a command line that programs run for you (ssh, pager, editor, prompt "
                    f"hook)", span))
        if d.depth < 2:
            d.depth += 1
            try:
                for f in d.run(analyse(v.lstrip("|").strip())):
                    add(Finding(f.rule, f.risk, f"{f.reason} (run through {name.upper()})", span or f.span))
            finally:
                d.depth -= 1


def _registry(name: str, value: str, shown: str, span: str, add: Add) -> None:
    """A package manager sent to another index or registry for what follows: a host named as hostile blocks. Any
    other host passes here (a company mirror is how many teams install): the install itself is judged when it runs."""
    from gate.content import unofficial_sources
    from gate.hostile_hosts import hostile_host

    for _, host in unofficial_sources(value):
        if hostile_host(host) is not None:
            add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                        f"{shown}: the package manager takes its packages from {host}, a host named as hostile", span))
            return
