"""Shell findings about payloads staged to run: a program started from where droppers put it, and a file given
a command line that blocks.

- A program run from a world-writable temporary folder (/tmp, /var/tmp, /dev/shm) that also hides: a hidden
  folder or name on its path (`/dev/shm/.x`), a name borrowed from a kernel thread or a system daemon
  (`kworker`, `sshd`), or started detached with its output thrown away (`nohup ... >/dev/null 2>&1 &`).
  No build or install runs that way; a dropper does (`block.shell.defense-evasion`). Any other program run
  from there, from a removable drive (/media, /Volumes) or from where it was just copied from one, asks
  (`confirm.shell.unknown-program`) whatever its name (`/tmp/test10` is not `test`); given a bare address
  and a port it is told where to call back (`block.shell.reverse-shell`). An interpreter given a script in a
  system program folder (`cd /usr/local/bin && ruby start.rb`) asks. Windows has the same places, written
  with backslashes or a folder variable: the public profile (`C:\\Users\\Public`, `%PUBLIC%`), the temporary
  folders (`%TEMP%`, `$env:TMP`, `AppData\\Local\\Temp`, `C:\\Windows\\Temp`), the roaming application data
  (`%APPDATA%`), `C:\\ProgramData`, and the folders any user may write under the system one (`C:\\Windows\\Tasks`,
  `Tracing`, `C:\\PerfLogs`, the recycle bin). A program run from there is judged as one from /tmp is, a
  Windows system process name (`svchost.exe`, `lsass.exe`) borrowed there blocks, and a known program name
  (`git.exe`) asks too; a package's own folder there (Chocolatey's, Anaconda's, npm's) is where it is installed
  and passes.
- A line written (redirect or tee) into a secret scanner's allow-list (`.gitleaksignore`, `.talismanrc`,
  `.gitguardian.yaml`) asks as defence evasion (`confirm.shell.defense-evasion`).
- A download saved into a folder programs run from (system bin folders, /opt/*/bin, LaunchAgents, AppData
  Roaming, ProgramData, Startup) from a host that publishes no releases, and a download from a bare address
  or over plain HTTP made executable by chmod on the same line: code nobody has seen installed where it
  runs (`block.shell.remote-code-exec`). `curl -o data.json https://api...` passes.
- A request whose query or form body hands a shell command to a page (`?cmd=id`, `-d command=uname`): a web
  shell used (`block.shell.remote-code-exec`); a page named as a shell copied into a web root or to another
  machine: a web shell planted (`block.shell.malicious-persistence`).
- smbclient on another machine's administrative share (ADMIN$, C$) putting a program there or logging in
  with a password on the command line: lateral movement (`block.shell.remote-access`).
- A container image pushed by a build or copy verb (`docker buildx ... --push`, `buildah push`, `skopeo copy
  ... docker://`): published like `docker push` (`confirm.shell.publish`).
- A command line written into a file that runs (a shell script, a system file): `echo 'bash -i >&
  /dev/tcp/...' >> /etc/backup.sh`. What is written is judged as the command it is, and a line that blocks
  on its own blocks when it is put where it will run; a line that starts a program in the background from a
  web root, a temporary or a hidden folder, written into a script or a server's code file, is a persistence
  hook (`block.shell.malicious-persistence`). A README or notes file may hold any command line.
- An archive unpacked over the home folder itself or a system folder (`tar -C ~ -xf x.tar`, `unzip -o x.zip
  -d ~`): whatever names it holds land there, `.bashrc` and `.ssh/authorized_keys` included. It asks; into a
  project or a new folder it passes.
- A library (.dll, .so, .dylib, .ocx, .cpl) copied into another program's folder in the user's or the machine's
  application data (AppData, ProgramData, an .app bundle, ~/Library): the program loads it the next time it
  starts, in place of the one it expects, with its rights (`confirm.shell.persistence`). Copied into a folder
  that the same command line then runs a program from: a program made to load a library it was not built
  with, the way signed programs are abused to run a payload (`block.shell.loader-hook`). A library copied into
  the project or a build folder passes.
- An interpreter's one-liner (`python3 -c`, `node -e`, `ruby -e`, ...) that makes a request and reads a
  credential file, or carries a secret-named variable: judged as `curl -F f=@~/.aws/credentials` and `curl -d
  token=$TOKEN` are (`block.shell.credential-exfiltration`; a variable to an ordinary host asks as
  `confirm.shell.network`, and one used as the request's own Authorization passes).
- A file copied, moved or installed into a system program folder under a hidden name (`cp x
  /usr/local/bin/.svc`), or made executable there: a program placed where it runs and kept out of listings
  (`block.shell.defense-evasion`).
- A program, an installer or a Windows script downloaded to disk (`curl -o x.deb`, `wget .../x.AppImage`, `iwr
  -OutFile setup.msi`, an installer packed in `setup.zip`): the next step runs it, so it asks
  (`confirm.shell.install`); from a bare address or a paste or file-drop host it blocks
  (`block.shell.untrusted-source`). Data, archives and pages pass.
- A script whose own name says it takes secrets, sends data out, locks or wipes files, mines or keeps a way in
  (`python3 harvest_tokens.py`, `node cookie_stealer.js`, `bash wiper.sh`) asks when run: a named purpose is a
  stated effect. Tests, scanners and defences named for the same thing pass.
- Checks kept with their families and called from here: an archive written on another machine through a remote
  shell (shell_dataout `remote_archive`); an option that makes a program run a command line (shell_evasion
  `option_commands`); logs erased by a search of the system (shell_evasion `logs_wiped_by_search`); a start-up
  file given an old date, a system cron table made writable, a mail log aimed into a web root, a tunnel installed
  as a service (shell_persistence `timestomp`, `ps_timestomp`, `schedule_opened`, `mail_log_planted`,
  `tunnel_service`); a script run hidden from a drop folder (`_script_from_drop`, `_detached_wrapper`); a
  kubeconfig entry removed and packages removed through xargs (`_kube_config_removed`, `_fed_removal`).

Called once per simple command from `Detector._run` (gate/rules/shell.py), after the checks by effect.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.catalogue import DATA as _TABLE
from gate.catalogue import risky_destination
from gate.content import BLOCK_ONLY, later_commands, planted_instructions, runs_later
from gate.dataout import sent_file_kind
from gate.effects import DESCRIBED_PLAIN, LAST_OPERAND_WRITERS, program_effects
from gate.model import Risk
from gate.rules import code_capture
from gate.rules.shell_attack import NAMES as _ATTACK_NAMES
from gate.rules.shell_attack import judge as _attack_steps
from gate.rules.shell_context import MY_FOLDER, WHOLE_FOLDER
from gate.rules.shell_dataout import remote_archive
from gate.rules.shell_effects import download_targets
from gate.rules.shell_evasion import OPTION_RUNNERS, logs_wiped_by_search, option_commands
from gate.rules.shell_persistence import (
    PLANTING_NAMES,
    PS_ITEM_NAMES,
    TUNNEL_CLIENTS,
    mail_log_planted,
    ps_timestomp,
    schedule_opened,
    timestomp,
    tunnel_service,
)
from gate.shell import (
    CODE_SEND,
    DOWNLOADERS,
    HOME,
    Command,
    Finding,
    ShellAnalysis,
    analyse,
    display_path,
    resolve_path,
)
from gate.urls import RELEASE_HOST

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["judge"]

Add = Callable[[Finding], None]

# (and macOS's /Users/Shared: every account of the Mac may write there, as in C:\Users\Public)
_STAGING = re.compile(r"^(?:/private)?(?:/tmp|/var/tmp|/dev/shm|/run/shm)(?:/|$)|^/users/shared/", re.I)
# the same places on Windows, as resolve_path writes them (`C:\Users\Public\x.exe` → /c:/users/public/x.exe):
# folders every user may write to, and the per-user temporary and roaming folders droppers save into
_WIN_STAGING = re.compile(r"^(?:/c:/users/public|/c:/windows/(?:temp|tasks|tracing|debug|registration/crmlog)|"
                          r"/c:/programdata|/c:/perflogs|/c:/\$recycle\.bin|/c:/recycler|"
                          r"(?:/home/[^/]+|/c:/users/[^/]+)/appdata/(?:local/temp|roaming|locallow))/")
# the folders there that packages install programs into (where the program is at home, not staged)
_WIN_INSTALLED = re.compile(r"^/c:/programdata/(?:chocolatey|(?:ana|mini)conda\d*|miniforge\d*|mambaforge|scoop|"
                            r"microsoft/windows defender|docker|jetbrains|nvidia[^/]*|oracle/java|git)/|"
                            r"/appdata/roaming/(?:npm|pnpm|nvm|yarn|python/python\d+/scripts|"
                            r"jetbrains/toolbox)/")
# the temporary folder by its variable (winshell's known folders leave it out: it is set per session)
_WIN_TEMP_VAR = re.compile(r"^(?:%te?mp%|\$env:te?mp|\$\{env:te?mp\})(?=[\\/])", re.IGNORECASE)
# Windows system process names a payload takes to pass in Task Manager
_WIN_SYSTEM_NAMES = re.compile(r"^(?:svchost|lsass|csrss|winlogon|wininit|services|smss|explorer|dllhost|"
                               r"rundll32|conhost|taskhostw?|spoolsv|runtimebroker|searchindexer|msmpeng|"
                               r"sihost|ctfmon|dwm|lsm|taskmgr|wuauclt|audiodg)(?:\.exe)?$", re.IGNORECASE)
_HIDDEN_PART = re.compile(r"/\.[^/.][^/]*/|/\.[^/.][^/]*$")
# names of kernel threads and system daemons a payload takes to pass in a process list
_SYSTEM_NAMES = re.compile(r"^\[?(?:kworker|kthreadd|ksoftirqd|kswapd\d*|migration|rcu_\w+|watchdog|"
                           r"systemd(?:-\w+)?|sshd|crond?|dbus-daemon|rsyslogd|udevd|init|agetty|polkitd|"
                           r"networkmanager|accounts-daemon|gvfsd|pulseaudio|pipewire|snapd|containerd|dockerd)"
                           r"(?:[/:\]\d-]|$)", re.IGNORECASE)
_DETACHERS = frozenset({"nohup", "setsid", "disown", "daemonize", "start-stop-daemon"})
_DISCARDED = frozenset({"/dev/null"})
# files that run what they hold: scripts by their extension, and system folders programs are run from
_SCRIPT_FILE = re.compile(r"\.(?:sh|bash|zsh|ksh|command|ps1|psm1|bat|cmd|vbs)$|^/etc/|^/usr/(?:local/)?s?bin/|"
                          r"^/opt/|^/usr/lib/|^/var/spool/|^/bin/|^/sbin/|/\.local/bin/|^(?:/home/[^/]+|/root|~)/bin/")
_WRITE_OPS = (">", ">>", ">|", "&>", "&>>")
# code files a server or a hook runs: a web application's, a system folder's, a git hook's
_SERVED_SCRIPT = re.compile(r"^(?:/var/www/|/srv/|/etc/|/opt/|/var/spool/cron/).*\.(?:py|php\d?|rb|pl|js|cgi)$|"
                            r"/\.git/hooks/[^/]+$")
# a program started in the background (`X &`, nohup/setsid X) from a web root, a temporary or a hidden folder
_PLACE = r"(?:/var/www/|/srv/www/|/tmp/|/var/tmp/|/dev/shm/|(?:~|\$home|/home/[^/\s]+)?/\.[^/\s.][^/\s]*/)\S+"
_BACKGROUND_START = re.compile(rf"\b(?:nohup|setsid)\s+(?P<p1>{_PLACE})|(?:^|[;|\n(]\s*|&&\s*)(?P<p2>{_PLACE})"
                               rf"[^;&|\n]*&(?!&)", re.I)
# paste and file-drop hosts: the table's, and the chat and paste CDNs programs are passed around on
_SHARING_HOSTS = (*(h for h in _TABLE.get("data_out", {}).get("sharing_hosts", ()) if "/" not in h),
                  "cdn.discordapp.com", "media.discordapp.net", "controlc.com", "justpaste.it", "pastes.io",
                  "paste.c-net.org", "files.fm", "ufile.io", "filetransfer.io", "anonfile.com", "sendgb.com",
                  "pastebin.pl", "rentry.org", "qu.ax", "litterbox.catbox.moe")
_MAX_WRITTEN = 4000  # characters of a written line judged as a command


# the allow-lists of secret scanners (gitleaks, trufflehog, GitGuardian, Talisman, secretlint): a line added
# there makes the scanner pass a key it would stop. (detect-secrets' .secrets.baseline is rewritten by its own
# `scan`, and is left out.)
_SCANNER_IGNORES = frozenset({".gitleaksignore", ".gitleaks.toml", ".trufflehogignore", ".gitguardian.yaml",
                              ".gitguardian.yml", ".talismanrc", ".secretlintignore", ".git-secrets-allowed"})


def _scanner_told_to_ignore(cmd: Command, where: str, add: Add) -> None:
    """`echo 'AKIA*' >> .gitleaksignore`, `... | tee -a .talismanrc`: a secret scanner told to look away."""
    targets = [t for op, t in cmd.redirects if ">" in op]
    if cmd.name == "tee":
        targets += [w for w in cmd.words[1:] if not w.startswith("-")]
    hit = next((t for t in targets if t.replace("\\", "/").rsplit("/", 1)[-1] in _SCANNER_IGNORES), None)
    if hit:
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                    f"writes to {hit}, a secret scanner's allow-list: the keys it names pass the check{where}",
                    cmd.span))


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    argv0 = cmd.argv[0] if cmd.argv else ""
    by_path = "/" in argv0 or "\\" in argv0
    if by_path:
        _staged_run(cmd, analysis, argv0, where, add)
    elif cmd.name in _INTERPRETERS and cmd.cwd:
        _system_script(cmd, where, add)
    if cmd.redirects or cmd.name == "tee":
        _command_written(d, cmd, analysis, where, add)
        _scanner_told_to_ignore(cmd, where, add)
    # the checks of this program name, looked up once (`_NAMED_STEPS`, built by `_named_steps`), in their order
    steps = _NAMED_STEPS.get(cmd.name)
    if steps is not None:
        for step in steps:
            step(d, cmd, analysis, where, add)
    elif by_path:  # (a name the table does not hold, run by its path: its attack steps are those of a path)
        _attack_steps(d, cmd, analysis, where, add)
    # (a program named as itself, not an interpreter, whose own name says nothing: `_named_purpose` of its name
    # finds nothing, `_SILENT_NAMES`)
    if (cmd.name in _SCRIPT_RUNNERS or argv0 not in _SILENT_NAMES) and (script := _script_run(cmd)) is not None:
        _named_purpose(cmd, script, where, add)


Step = Callable[["Detector", Command, ShellAnalysis, str, Add], None]


def _named_steps(name: str) -> tuple[Step, ...]:
    """The checks of `judge` that a program named `name` meets, in the order `judge` makes them: each tests the
    name (these tests, made once per name here) and some a fact of the command as well (inside its step). The
    attack steps come last, for a name of `_ATTACK_NAMES` or for any name run by its path (`/`, `\\` in the
    program word: they are in every name's steps, and `judge` adds them for a name not in the table)."""
    steps: list[Step] = []
    if name in _EXTRACTORS:
        steps.append(lambda d, cmd, a, where, add: _extracted_over(cmd, where, add))
    if name in _LAST_OPERAND_WRITERS:
        steps.append(lambda d, cmd, a, where, add: _converted_into(d, cmd, where, add))
    if name in _LINKERS:
        steps.append(lambda d, cmd, a, where, add: _link_out_of_project(d, cmd, where, add))
    if name in _ARCHIVERS:
        steps.append(_documents_collected_fed)
    if name in _CODE_DELETERS:
        steps.append(_inline_code_steps)
    if name == "chmod":
        steps.append(lambda d, cmd, a, where, add: _hidden_made_executable(cmd, where, add))
    if name in _REMOTE_COPIERS:
        steps.append(lambda d, cmd, a, where, add: remote_archive(d, cmd, a, where, add))
    if name in OPTION_RUNNERS:
        steps.append(lambda d, cmd, a, where, add: option_commands(d, cmd, a, where, add))
    if name == "find":
        steps.append(lambda d, cmd, a, where, add: logs_wiped_by_search(cmd, a, where, add))
    if name in TUNNEL_CLIENTS:
        steps.append(lambda d, cmd, a, where, add: tunnel_service(cmd, where, add))
    if name in PS_ITEM_NAMES:
        steps.append(lambda d, cmd, a, where, add: ps_timestomp(cmd, a, where, add))
    if name == "kubectl":
        steps.append(lambda d, cmd, a, where, add: _kube_config_removed(cmd, where, add))
    elif name in _PACKAGE_REMOVERS:
        steps.append(_fed_removal_via)
    if name in _SCRIPT_HOSTS:
        steps.append(lambda d, cmd, a, where, add: _script_from_drop(cmd, a, where, add))
    elif name in _DETACHED_INTERPRETERS:
        steps.append(_script_from_drop_via)
    if name in PLANTING_NAMES:
        if name == "touch":
            steps.append(lambda d, cmd, a, where, add: timestomp(cmd, where, add))
        elif name == "chmod":
            steps.append(lambda d, cmd, a, where, add: schedule_opened(cmd, where, add))
        else:
            steps.append(lambda d, cmd, a, where, add: mail_log_planted(cmd, where, add))
    if name in DOWNLOADERS or name in _WIN_FETCHERS:
        steps.append(lambda d, cmd, a, where, add: _installer_fetched(cmd, where, add))
    if name in DOWNLOADERS:
        steps.append(lambda d, cmd, a, where, add: _download_placed(cmd, a, where, add))
        steps.append(lambda d, cmd, a, where, add: _web_shell_request(cmd, where, add))
    elif name in _COPIERS:
        steps.append(lambda d, cmd, a, where, add: _web_shell_copy(cmd, where, add))
        steps.append(lambda d, cmd, a, where, add: _hidden_program(cmd, where, add))
        steps.append(lambda d, cmd, a, where, add: _library_planted(cmd, a, where, add))
    elif name == "smbclient":
        steps.append(lambda d, cmd, a, where, add: _admin_share_put(cmd, where, add))
    elif name in _IMAGE_TOOLS:
        steps.append(lambda d, cmd, a, where, add: _image_push(cmd, where, add))
        steps.append(lambda d, cmd, a, where, add: _container_command(d, cmd, where, add))
    if name in _ATTACK_NAMES:
        steps.append(_attack_steps)
    else:
        steps.append(_attack_steps_by_path)
    return tuple(steps)


def _documents_collected_fed(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if cmd.upstream:
        _documents_collected(cmd, analysis, where, add)


def _inline_code_steps(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if (code := _inline_code(cmd)) is not None:
        _code_deletes(d, cmd, code, where, add)
        _code_writes(d, cmd, code, where, add)
        _code_sends_secret(d, cmd, code, where, add)
        code_capture.judge_inline(cmd, code, where, add)


def _fed_removal_via(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if cmd.via:
        _fed_removal(cmd, where, add)


def _script_from_drop_via(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if cmd.via:
        _script_from_drop(cmd, analysis, where, add)


def _attack_steps_by_path(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    argv0 = cmd.argv[0] if cmd.argv else ""
    if "/" in argv0 or "\\" in argv0:
        _attack_steps(d, cmd, analysis, where, add)


# ---- a script whose own name says what it does to secrets or to the machine ----
# the interpreters and shells that run a script file named as their first operand (`python3 x.py`, `pwsh ./x.ps1`)
_SCRIPT_RUNNERS = frozenset({"python", "python3", "python2", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "tsx",
                             "ts-node", "ruby", "perl", "php", "bash", "sh", "zsh", "dash", "ksh", "fish", "pwsh",
                             "powershell", "cscript", "wscript", "osascript", "lua", "tclsh", "rscript", "julia"})
_SCRIPT_FILE_NAME = re.compile(r"\.(?:py|pyw|js|mjs|cjs|ts|rb|pl|php|sh|bash|zsh|ps1|psm1|bat|cmd|vbs|vbe|jse?|"
                               r"wsf|hta|applescript|scpt|lua|r|jl|go|exe)$", re.I)
_RUNNER_VALUED = frozenset({"-m", "-W", "-X", "--require", "-r", "-I", "-ExecutionPolicy", "-executionpolicy",
                            "-ep", "-exec", "-File", "-file", "-f"})
# what the name says, by kind: a thing made to take secrets, to lock or wipe files, to mine, to spy or to keep a way
# in; and a verb of taking put to a secret's name (`harvest_tokens`, `cookie_stealer`, `dump-creds`) in English and
# a few other languages
_TAKE = (r"(?:harvest|steal|dump|grab|sniff|crack|hijack|siphon|loot|snatch|exfil|exfiltrat|stehlen|voler|robar|"
         r"rubare|roubar)")
_SECRET_OBJ = (r"(?:tokens?|cookies?|creds?|credentials?|passw(?:or)?ds?|passwd|pwds?|secrets?|sessions?|hash(?:es)?|"
               r"wallets?|logins?|lsass|sam|keychains?|ntlm|kerberos|mots?_?de_?passe|passwoerter|contrasenas?|"
               r"senhas?)")
_PURPOSE_KINDS = (
    ("confirm.shell.credential-search", "takes secrets", re.compile(
        rf"(?:^|_){_TAKE}[a-z]*_(?:[a-z]+_)?{_SECRET_OBJ}(?:_|$)|(?:^|_){_SECRET_OBJ}_(?:[a-z]+_)?{_TAKE}[a-z]*(?:_|$)|"
        r"(?:^|_)(?:infostealer|stealer|grabber|keylog(?:ger)?|keystroke_?log(?:ger)?|mimikatz|lazagne|"
        r"credential_?(?:dump(?:er)?|harvest(?:er)?|theft)|phish(?:er|ing_?kit)?)(?:_|$)")),
    ("confirm.shell.credential-search", "gathers secrets", re.compile(
        r"(?:^|_)(?:collect|gather|extract|export|copy|backup|sammeln|recolectar|raccogliere|coletar)[a-z]*_(?:[a-z]+_)?"
        r"(?:passw(?:or)?ds?|passwd|creds?|credentials?|cookies?|keychains?|wallets?|browser_?(?:data|passwords))"
        r"(?:_|$)")),
    ("confirm.shell.network", "sends data out", re.compile(r"(?:^|_)exfil(?:trat[a-z]*)?(?:_|$)")),
    ("confirm.shell.destructive", "locks or destroys files", re.compile(
        r"(?:^|_)(?:ransom(?:ware)?|cryptolocker|locker_?payload|wiper|disk_?wipe|wipe_?(?:disk|all|everything)|"
        r"file_?encryptor|encrypt_?(?:all|everything|files|home))(?:_|$)")),
    ("confirm.shell.system-disruption", "spends the machine on someone else", re.compile(
        r"(?:^|_)(?:crypto_?miner|coin_?miner|xmr_?miner|monero_?miner|cryptojack(?:er|ing)?|xmrig|botnet|ddos|"
        r"fork_?bomb)(?:_|$)")),
    ("confirm.shell.persistence", "keeps a way in", re.compile(
        r"(?:^|_)(?:backdoor|rootkit|spyware|stalkerware|trojan|rat_?(?:client|server|payload)|reverse_?shell|"
        r"rev_?shell|bind_?shell|c2_?(?:agent|implant|beacon)|dropper)(?:_|$)")),
)
# every kind's pattern in one search: most script names say none of them, and are then not searched kind by kind
_ANY_PURPOSE = re.compile("|".join(f"(?:{rx.pattern})" for _, _, rx in _PURPOSE_KINDS))
# names of tests, scanners and defences against the same things: a detector of keyloggers is no keylogger
_AGAINST = re.compile(r"(?:^|_)(?:tests?|spec|detect(?:or|ion|s)?|scan(?:ner)?|check(?:er)?|audit|protect(?:ion|or)?|"
                      r"prevent(?:ion)?|block(?:er)?|guard|remov(?:e|al|er)|clean(?:er|up)?|analy[sz](?:e|er|is)|"
                      r"simulat(?:e|ion|or)|honeypot|mock|fake|demo)(?:_|$)")


def _script_run(cmd: Command) -> str | None:
    """The script file a command runs: the program itself (`./steal.sh`, `x.ps1`, `keylogger`), or the
    first operand of an interpreter (`python3 -u tool.py`, `pwsh -File x.ps1`, `python -m pkg.tool`)."""
    argv0 = cmd.argv[0] if cmd.argv else ""
    if cmd.name not in _SCRIPT_RUNNERS:
        # a script or a program run by its own name (`./steal.sh`, `x.ps1`, a module run as `python -m name`)
        return argv0 or None
    k = 1
    while k < len(cmd.argv):
        a = cmd.argv[k]
        if a in ("-m",) and k + 1 < len(cmd.argv):
            return cmd.argv[k + 1].replace(".", "_")
        if a.lower() in ("-file", "-f") and cmd.name in ("pwsh", "powershell") and k + 1 < len(cmd.argv):
            return cmd.argv[k + 1]
        if a in ("-c", "-e", "--eval", "-command", "-Command", "-EncodedCommand", "-enc"):
            return None
        if not a.startswith("-"):
            return a if _SCRIPT_FILE_NAME.search(a) or "/" in a or "\\" in a else None
        k += 2 if a in _RUNNER_VALUED else 1
    return None


_PATH_SEP = re.compile(r"[\\/]")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_WORD = re.compile(r"[^a-z0-9]+")


def _purpose_words(script: str) -> str:
    """The words of a script's file name, lower case, joined by `_` (`HarvestTokens.py` → `harvest_tokens`)."""
    base = _PATH_SEP.split(script)[-1]
    stem = _CAMEL.sub("_", _SCRIPT_FILE_NAME.sub("", base))
    return "_".join(w for w in _NON_WORD.split(stem.lower()) if w)


def _named_purpose(cmd: Command, script: str, where: str, add: Add) -> None:
    """A script whose own name says it takes secrets, sends data out, locks or wipes files, mines or keeps a way
    in (`python3 harvest_tokens.py`, `node cookie_stealer.js`, `bash wiper.sh`): the name is what its author says
    it does, and running it asks. A test, scanner or defence named for the same thing passes."""
    purpose = _stated_purpose(script)
    if purpose is not None:
        rule_id, what = purpose
        add(Finding(rule_id, Risk.HIGH, f"runs {script[-80:]}, a script whose name says it {what}{where}", cmd.span))


def _stated_purpose(script: str) -> tuple[str, str] | None:
    """(rule id, what it does) that a script's file name says (`_named_purpose`), or None."""
    words = _purpose_words(script)
    if not words or _ANY_PURPOSE.search(words) is None or _AGAINST.search(words):
        return None
    for rule_id, what, rx in _PURPOSE_KINDS:
        if rx.search(words):
            return rule_id, what
    return None


# ---- a program, an installer or a script downloaded to disk ----
# downloaders of Windows that name the file they write (the others: gate.shell DOWNLOADERS)
_WIN_FETCHERS = frozenset({"certutil", "bitsadmin", "start-bitstransfer", "curl.exe", "wget.exe"})
# files that install or run when opened: programs, installers and packages of every platform, scripts of Windows
_INSTALLER_FILE = re.compile(r"\.(?:exe|msi|msix|msixbundle|msp|appx|appxbundle|appinstaller|pkg|mpkg|dmg|apk|xapk|"
                             r"apks|ipa|deb|rpm|appimage|snap|flatpakref|run|ps1|psm1|bat|cmd|hta|scr|vbs|vbe|wsf|"
                             r"jse|lnk|cpl|com|pif|reg|application)$", re.I)


# an installer packed in an archive, by its name (`setup.zip`, `agent-installer-x64.7z`)
_ARCHIVE_FILE = re.compile(r"\.(?:zip|7z|rar|cab|tar\.gz|tgz|tar\.xz|tar)$", re.I)
_INSTALLER_URL = re.compile(r"(?:^|[/_-])(?:installer|setup)s?(?:[/_.?&=-]|$)", re.I)
_PACKED_INSTALLER = re.compile(r"(?:^|[_.-])(?:setup|installer|install)(?:[_.-][^/]*)?\.(?:zip|7z|rar|cab)$", re.I)


# curl's flag that saves under the address's own file name, alone or in a cluster (`-O`, `-LO`, `-fsSLO`)
_REMOTE_NAME_FLAG = re.compile(r"-[a-zA-Z]*O[a-zA-Z]*")


def _url_file(url: str) -> str:
    path = url.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    return path.rsplit("/", 1)[-1] if "/" in path else ""


def _installer_fetched(cmd: Command, where: str, add: Add) -> None:
    """A program, an installer package or a Windows script saved to disk by a downloader (`curl -o x.msi`,
    `wget .../app.AppImage`, `iwr -OutFile setup.exe`, `certutil -urlcache -f URL x.exe`): the next step runs it,
    so the download asks (`confirm.shell.install`); from a bare address or a paste or file-drop host, which
    vouch for nobody, it blocks (`block.shell.untrusted-source`). Data, archives and pages pass."""
    urls = [w.strip("'\"") for w in cmd.argv[1:] if "://" in w]
    if not urls:
        return
    targets = download_targets(cmd) + [t for op, t in cmd.redirects if op in (">", ">|")]
    if not targets and (cmd.name in ("wget", "wget2", "aria2c", "fetch") or
                        any(a in ("-O", "--remote-name", "-OJ", "--remote-name-all") or
                            _REMOTE_NAME_FLAG.fullmatch(a) for a in cmd.argv[1:])):
        targets = [_url_file(u) for u in urls]
    saved = next((t for t in targets if _INSTALLER_FILE.search(t.strip("'\"")) or
                  _PACKED_INSTALLER.search(t.strip("'\"").replace("\\", "/").rsplit("/", 1)[-1])), None)
    if saved is None and any(_INSTALLER_URL.search(u.split("://", 1)[-1].partition("/")[2]) for u in urls):
        saved = next((t for t in targets if _ARCHIVE_FILE.search(t.strip("'\""))), None)
    if saved is None:
        return
    hosts = [m.group(1).lower() for u in urls if (m := _URL_HOST.match(u.lower()))]
    if any(h in ("localhost", "127.0.0.1", "[::1]") for h in hosts):
        return
    bare = next((h for h in hosts if _IP_HOST.match(h)), None)
    shared = next((h for h in hosts if any(h == s or h.endswith("." + s) for s in _SHARING_HOSTS)), None)
    if bare or shared:
        add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                    f"{cmd.name} saves {saved[-60:]}, a program or script, from {bare or shared}, "
                    f"{'a bare address' if bare else 'a paste or file-drop host'} that vouches for nobody: the next "
                    f"step runs it{where}", cmd.span))
        return
    add(Finding("confirm.shell.install", Risk.MEDIUM,
                f"{cmd.name} downloads {saved[-60:]}, a program, installer or script: the next step runs it{where}",
                cmd.span))


# converters that write their last operand (`convert in.png out.png`, `ffmpeg -i in.mp4 out.mp3`, `qpdf in out`)
_LAST_OPERAND_WRITERS = frozenset({"convert", "magick", "montage", "composite", "qpdf", "ffmpeg", "sox", "pdfunite",
                                   "heif-convert", "wkhtmltopdf", "vips", "weasyprint", "gm", "cjpeg", "djpeg",
                                   "pdftoppm", "pdftocairo", "ps2pdf", *LAST_OPERAND_WRITERS})
# their options that take a value (so the value is not taken for an operand)
_CONVERTER_VALUED = frozenset({"-i", "-f", "-c", "-c:v", "-c:a", "-b:v", "-b:a", "-r", "-s", "-t", "-ss", "-to",
                               "-vf", "-af", "-map", "-resize", "-quality", "-density", "-format", "-depth", "-type",
                               "--password", "--pages", "-o", "--output", "-filter_complex", "-crf", "-preset"})


def _converted_into(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """A converter's output file (its last operand) is judged as a write of that file: an image or a video
    written over `~/.bashrc` or into /etc/cron.d is a write there, whatever tool makes it."""
    words = cmd.argv[1:]
    operands: list[str] = []
    k = 0
    while k < len(words):
        w = words[k]
        if w.startswith("-") and len(w) > 1:
            k += 2 if w in _CONVERTER_VALUED else 1
            continue
        operands.append(w)
        k += 1
    if cmd.name in ("magick", "gm") and operands[:1] and operands[0] in ("identify", "compare", "stream", "display"):
        return  # they read, or show a window
    if len(operands) >= (1 if cmd.name == "ffmpeg" else 2) and not operands[-1].startswith(("|", "pipe:")):
        d.write_target(cmd, operands[-1], "overwrite", where, add, f"{cmd.name} writes")


_LINKERS = frozenset({"ln", "new-item", "ni", "mklink", "cmd"})


def _link_names(cmd: Command) -> tuple[str, str] | None:
    """(the link's name, what it points at) of `ln -s TARGET NAME`, `New-Item -ItemType SymbolicLink|Junction
    -Path NAME -Target TARGET` and `mklink /D|/J NAME TARGET`; None for anything else."""
    words, argv = cmd.words, cmd.argv
    if cmd.name == "ln":
        ops = [a for a in argv[1:] if not a.startswith("-")]
        return (ops[1], ops[0]) if len(ops) == 2 and any(w.startswith("-") and "s" in w for w in words[1:]) else None
    if cmd.name in ("new-item", "ni") and any(w in ("symboliclink", "junction") for w in words):
        named = {words[k].lstrip("-"): argv[k + 1] for k in range(1, len(argv) - 1) if words[k].startswith("-")}
        name = named.get("path") or named.get("name")
        target = named.get("target") or named.get("value")
        return (name, target) if name and target else None
    if cmd.name == "mklink":
        ops = [a for a in argv[1:] if not a.startswith("/")]
        return (ops[0], ops[1]) if len(ops) == 2 else None
    return None


def _link_out_of_project(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """A folder name the gate lets a clean step delete (`build`, `dist`, `obj`, `bin/Debug`) made a link to a
    folder outside the project: `rm -rf dist/*` then deletes what the link points at (a home, a system folder).
    The link asks; a link to somewhere inside the project passes."""
    names = _link_names(cmd)
    if names is None:
        return
    name, target = names
    name = name.replace("\\", "/").rstrip("/")
    clean = d.regenerable_target(cmd, name) or d.inside_regenerable(name + "/x")
    climbs = target.replace("\\", "/").split("/").count("..")
    # a relative target may reach a sibling of the project (a monorepo's package), not further up
    outside = target.startswith(("/", "~", "$", "\\")) or ":" in target[:3] or climbs > name.count("/") + 1
    if clean and outside:
        add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} makes {name}, a folder cleaning deletes, a "
                    f"link to {target[:60]}: deleting its contents would delete that{where}", cmd.span))


# a one-line program that deletes a tree: shutil.rmtree("~/x"), fs.rmSync("/x", {recursive: true}),
# FileUtils.rm_rf("/x"), File::Path rmtree, Remove-Item -Recurse inside -Command is the shell's own
_CODE_DELETERS = frozenset({"python", "python3", "python2", "pypy3", "node", "deno", "bun", "ruby", "perl", "php"})
_CODE_FLAGS = frozenset({"-c", "-e", "-r", "--eval", "-E", "-p", "--print"})
_TREE_DELETE = re.compile(
    r"(?:shutil\.rmtree|rmtree|rm_rf|rm_r|remove_tree|rmSync|rimraf|removeSync|remove_dir_all|rmdirSync|"
    r"deleteRecursive|\brm\b)\s*\(\s*(?:os\.path\.expanduser\s*\(\s*|path\.resolve\s*\(\s*|File\.expand_path\s*\(\s*)?"
    r"[rbuf]?(['\"])(?P<path>[^'\"]{1,300})\1")


def _inline_code(cmd: Command) -> str | None:
    """The program an interpreter is given on its command line (`python3 -c CODE`, `node -e CODE`), or None."""
    argv = cmd.argv
    code = next((argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] in _CODE_FLAGS), None)
    return code if code and len(code) <= _MAX_WRITTEN else None


def _code_deletes(d: Detector, cmd: Command, code: str, where: str, add: Add) -> None:
    """An interpreter's one-liner that deletes a tree named in it: judged as `rm -rf` of that path would be."""
    for m in _TREE_DELETE.finditer(code):
        path = m.group("path")
        hit = d.protected_target(cmd, path)
        full = resolve_path(path, cmd.cwd or None) or ""
        mine = MY_FOLDER.match(full)
        if not hit and mine and WHOLE_FOLDER.search(full.removeprefix(mine.group(0))):
            hit = display_path(full) + ", a folder of personal files"
        if hit:
            add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                        f"{cmd.name} deletes {hit} and everything in it{where}", cmd.span))
            return
        if path.startswith(("/", "~", "$home", "c:", "C:")):  # outside the project, as `rm -rf` of it asks
            add(Finding("confirm.shell.destructive", Risk.HIGH,
                        f"{cmd.name} deletes {path[:60]} and everything in it{where}", cmd.span))
            return


# a one-line program that writes a file named in it: open("x", "w"), Path("x").write_text, fs.writeFileSync
_FILE_WRITE = re.compile(
    r"(?:\bopen\s*\(\s*(?:os\.path\.expanduser\s*\(\s*)?[rbuf]?(['\"])(?P<p1>[^'\"]{1,300})\1\s*\)?\s*,\s*[rbuf]?['\"][wax]|"
    r"\bPath\s*\(\s*[rbuf]?(['\"])(?P<p2>[^'\"]{1,300})\3\s*\)(?:\.expanduser\(\))?\.write_(?:text|bytes)|"
    r"\b(?:writeFileSync|appendFileSync|writeFile|appendFile|File\.write|IO\.write)\s*\(\s*(['\"])(?P<p3>[^'\"]{1,300})\5)")


def _code_writes(d: Detector, cmd: Command, code: str, where: str, add: Add) -> None:
    """An interpreter's one-liner that writes a file named in it: judged as a redirect to that file would be."""
    for m in _FILE_WRITE.finditer(code):
        d.write_target(cmd, m.group("p1") or m.group("p2") or m.group("p3"), "overwrite", where, add,
                       f"{cmd.name} writes")


# a one-line program that makes a request (any verb: a GET carries data in its URL as a POST does in its body)
_CODE_REQUEST = re.compile(CODE_SEND.pattern + r"|requests\.(?:get|request)|httpx\.|aiohttp|https?\.get\s*\(|axios|"
                           r"\bget\s*\(\s*['\"]https?:|file_get_contents\s*\(\s*['\"]https?:|post_form|"
                           r"invoke-(?:restmethod|webrequest)|upload(?:string|file|data)|xmlhttprequest|sendbeacon|"
                           r"\bsocket\b|websocket", re.I)
# an environment variable read by name in code, whose name says it holds a secret
_CODE_ENV_SECRET = re.compile(
    r"(?:process\.env|environ|\bENV|getenv|\$env:)\s*(?:\.get\s*\(|[.\[{(])?\s*['\"]?"
    r"(?P<name>[A-Za-z0-9_]*(?:token|secret|passw(?:or)?d|api_?key|access_?key|private_?key|credential)[A-Za-z0-9_]*)",
    re.I)
# the secret used as the request's own credentials: a header or auth argument, not the data it carries
_CODE_AUTH_USE = re.compile(r"authorization|\bauth\s*=|bearer|x-api-key|private-token|api[-_]key['\"]?\s*:", re.I)
# the environment read whole by walking it, in the forms the plain `os.environ` test does not see (a copy
# handed to a child process, `os.environ.copy()`, `{...process.env}`, is how a program runs another, not sent)
_CODE_ENV_WHOLE = re.compile(
    r"os\.environ\s*\.\s*(?:items|keys|values)\s*\(|"
    r"object\.(?:entries|keys|values)\s*\(\s*process\.env\s*\)|"
    r"\bENV\.(?:each|each_pair|to_a|map|select|keys|values|inspect)\b|os\.Environ\s*\(\s*\)|"
    r"System\.getenv\s*\(\s*\)|getenv\s*\(\s*\)|\[environment\]::getenvironmentvariables\s*\(\s*\)|"
    r"gci\s+env:|get-childitem\s+env:|\bdir\s+env:", re.I)
# the machine's or the person's name, read in code
_CODE_HOST_ID = re.compile(r"gethostname|platform\.node|os\.uname|getpass\.getuser|getlogin|os\.hostname\s*\(|"
                           r"os\.userinfo\s*\(|env:computername|env:username|machinename", re.I)
# a request that carries data (a GET's own query is read by the secret tests above)
_CODE_SENDS = re.compile(CODE_SEND.pattern + r"|\bdata\s*=|\bjson\s*=|\bbody\s*:|\?[\w]+=['\"]?\s*\+", re.I)
_CODE_LITERAL = re.compile(r"(['\"])(?P<s>[^'\"\n]{0,300})\1")
_CODE_HOME = re.compile(r"\bhome\s*\(|homedir\s*\(|dir\.home|expanduser|\$home\b|\[['\"]home['\"]\]|env\.home\b|"
                        r"getenv\s*\(\s*['\"]home", re.I)
_CODE_URL = re.compile(r"(?:https?|wss?)://[^\s'\"`)+]+", re.I)


# a string in code that is a file's path (a folder in it, or an extension), not a variable's name or a word
_PATH_LIKE = re.compile(r"[/\\]|\.\w{1,6}$")


def _code_sends_secret(d: Detector, cmd: Command, code: str, where: str, add: Add) -> None:
    """An interpreter's one-liner that makes a request and names a secret: a credential file (`~/.ssh/id_rsa`,
    `.aws/credentials`, joined to the home folder in code or not) goes out wherever the request goes, as `curl
    -F f=@~/.aws/credentials` does; a secret-named environment variable in what the request carries goes to its
    host, which blocks towards a bare IP or a drop site and asks elsewhere (as `curl -d token=$TOKEN` does).
    The same variable used as the request's own credentials (an Authorization header) is used as meant."""
    if not _CODE_REQUEST.search(code):
        return
    urls = tuple(m.group(0).lower() for m in _CODE_URL.finditer(code))
    drop = risky_destination(urls)
    home = _CODE_HOME.search(code) is not None
    for m in _CODE_LITERAL.finditer(code):
        text = m.group("s")
        if "://" in text:
            continue
        candidates = [text]
        if home and text[:1] in "./" and not text.startswith("./"):
            candidates.append("~/" + text.lstrip("/"))
        hit = next((h for c in candidates if (h := d.secret_path(cmd, c) or (_PATH_LIKE.search(c) and
                                                                            sent_file_kind(c)))), None)
        if hit and _CODE_AUTH_USE.search(code) and hit.rsplit("/", 1)[-1].startswith(".env"):
            continue  # the project's settings file read for the request's own credentials
        if hit:
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"{cmd.name} code reads {hit} and makes a request{' to ' + drop if drop else ''}: the "
                        f"credential leaves the machine{where}", cmd.span))
            return
    whole = _CODE_ENV_WHOLE.search(code)
    if whole is not None:
        # every variable walked one by one (`os.environ.items()`, `Object.entries(process.env)`): the whole
        # environment, every token and key in it, goes wherever the request goes
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} code sends the whole environment (tokens and keys){' to ' + drop if drop else ''}"
                    f"{where}", cmd.span))
        return
    if drop is not None and _CODE_HOST_ID.search(code) and _CODE_SENDS.search(code):
        # the machine's name or user posted to a bare address: the first report of a beacon
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} code sends this machine's name or user to {drop}{where}", cmd.span))
        return
    m = _CODE_ENV_SECRET.search(code)
    if m is None:
        return
    if drop is not None:
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} code sends ${m.group('name')} to {drop}{where}", cmd.span))
    elif not _CODE_AUTH_USE.search(code):
        add(Finding("confirm.shell.network", Risk.HIGH,
                    f"{cmd.name} code puts ${m.group('name')} into what its request carries: the host gets the "
                    f"secret{where}", cmd.span))


_ARCHIVERS = frozenset({"compress-archive", "tar", "gtar", "bsdtar", "zip", "7z", "7za", "rar", "cpio", "gzip"})
_SEARCHERS = frozenset({"get-childitem", "gci", "dir", "ls", "find", "fd", "fdfind", "where"})
# the roots every person's files sit under: searched whole, they are everyone's documents
_PEOPLE_ROOT = re.compile(r"^(?:[a-z]:[\\/]users[\\/]?|/home/?|/users/?|~/?|\$home[\\/]?|\$env:userprofile[\\/]?|"
                          r"%userprofile%[\\/]?|/mnt/[a-z]/users/?)$", re.I)
_DOCUMENTS = re.compile(r"\*\.(?:docx?|xlsx?|pptx?|pdf|odt|ods|csv|txt|rtf|kdbx|pst|ost|msg|eml|key|pem|pfx|p12|"
                        r"jpg|jpeg|png)\b", re.I)


def _documents_collected(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """An archive made of what a search of every person's files finds (`Get-ChildItem C:\\Users -Recurse
    -Include *.docx,*.pdf | Compress-Archive`, `find /home -name '*.xlsx' | zip -@`): documents gathered into
    one file, the step before they are carried off. Archiving the project or one's own folder by name passes."""
    for i in cmd.upstream:
        search = analysis.commands[i]
        if search.name not in _SEARCHERS:
            continue
        roots = [w for w in search.words[1:] if _PEOPLE_ROOT.match(w.strip("'\""))]
        if roots and any(_DOCUMENTS.search(w) for w in search.words[1:]):
            add(Finding("confirm.shell.secret-read", Risk.HIGH,
                        f"{cmd.name} packs the documents a search of {roots[0]} finds into one archive: everyone's "
                        f"files gathered to be carried off{where}", cmd.span))
            return


_EXTRACTORS = frozenset({"tar", "gtar", "bsdtar", "unzip", "7z", "7za", "unrar", "ditto", "cpio"})
_SYSTEM_ROOTS = frozenset({"/", "/etc", "/usr", "/usr/local", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/root",
                           "/opt", "/var", "/usr/bin", "/usr/lib", "/usr/local/bin", "/system", "/library"})


def _extract_dir(cmd: Command) -> str | None:
    """Where an unpacking command puts what the archive holds ("" for its working folder; None: it does
    not unpack)."""
    argv, words = cmd.argv, cmd.words
    if cmd.name in ("tar", "gtar", "bsdtar"):
        first = words[1] if len(words) > 1 else ""
        if not (any(w in ("-x", "--extract", "--get") for w in words[1:]) or
                (first[:1] != "-" and "x" in first) or any(w[:1] == "-" and w[1:2] != "-" and "x" in w
                                                           for w in words[1:])):
            return None
        for k, a in enumerate(argv[1:-1], 1):
            if a in ("-C", "--directory"):
                return argv[k + 1]
        return next((a.split("=", 1)[1] for a in argv if a.startswith("--directory=")), "")
    if cmd.name == "unzip":
        return next((argv[k + 1] for k, a in enumerate(argv[1:-1], 1) if a == "-d"), "")
    if cmd.name in ("7z", "7za"):
        if len(words) < 2 or words[1] not in ("x", "e"):
            return None
        return next((a[2:] for a in argv if a.startswith("-o")), "")
    if cmd.name == "ditto" and ("-x" in words or "-xk" in words) and len(argv) >= 3:
        return argv[-1]
    return None


def _extracted_over(cmd: Command, where: str, add: Add) -> None:
    dest = _extract_dir(cmd)
    if dest is None:
        return
    path = resolve_path(dest, cmd.cwd) if dest else cmd.cwd
    if not path:
        return  # the working folder, not known: a project's, most likely
    path = path.rstrip("/") or "/"
    if path == HOME:
        add(Finding("confirm.shell.persistence", Risk.HIGH,
                    f"{cmd.name} unpacks an archive over the home folder: any file in it lands there, start-up files "
                    f"and ~/.ssh included{where}", cmd.span))
    elif path in _SYSTEM_ROOTS:
        add(Finding("confirm.shell.system-write", Risk.HIGH,
                    f"{cmd.name} unpacks an archive over the system folder {path}{where}", cmd.span))


def _windows_path(argv0: str, cwd: str | None) -> str | None:
    """A Windows program path as resolve_path writes it, the temporary folder's variable included."""
    m = _WIN_TEMP_VAR.match(argv0)
    if m:
        return "/home/~/appdata/local/temp/" + argv0[m.end():].replace("\\", "/").lstrip("/").lower()
    if argv0[1:2] != ":" and argv0[:1] not in ("%", "$"):
        argv0 = argv0.replace("\\", "/")  # `.\u.exe`: relative to the folder the line moved into
    return resolve_path(argv0, cwd)


def _win_staged(path: str) -> bool:
    return bool(_WIN_STAGING.match(path)) and not _WIN_INSTALLED.search(path)


def _staged_run(cmd: Command, analysis: ShellAnalysis, argv0: str, where: str, add: Add) -> None:
    windows = "\\" in argv0 or argv0[1:3] == ":/" or argv0[:1] in ("%", "$")
    path = _windows_path(argv0, cmd.cwd) if windows else resolve_path(argv0, cmd.cwd)
    if path is None:
        return
    staged = bool(_STAGING.match(path)) or (windows and _win_staged(path))
    # named by its own path, not one relative to a folder the command moved into (`cd /tmp/x && ./configure`
    # builds what was unpacked there: gate/rules/shell_effects.py judges that)
    named = argv0.startswith(("/", "~")) or (windows and path.startswith(("/c:/", "/home/")))
    origin = path if staged or _REMOVABLE.match(path) else _copied_from(analysis, cmd, path)
    if origin is None:
        return
    name = path.rsplit("/", 1)[-1]
    if staged:
        detached = any(v.split()[0] in _DETACHERS for v in cmd.via if v) or (
            "background" in analysis.features and any(t in _DISCARDED for op, t in cmd.redirects
                                                      if op in _WRITE_OPS)) or \
            (windows and _hidden_start(cmd, analysis)) or _detached_wrapper(cmd, analysis)
        why = ("from a hidden folder or under a hidden name" if _HIDDEN_PART.search(path) else
               f"under the name of a system process ({name})" if _SYSTEM_NAMES.match(name) or
               (windows and _WIN_SYSTEM_NAMES.match(name)) else
               "detached, its output thrown away" if detached else "")
        if why:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"runs {path} from a temporary folder {why}: how a dropped payload is started{where}",
                        cmd.span))
            return
    if origin == path and not named:
        return
    place = ("a temporary folder" if staged else "a removable drive" if origin == path else
             f"{origin.rsplit('/', 1)[0]}, where it was copied from")
    args = cmd.argv[1:]
    if any(_CALLBACK_ADDR.match(a) for a in args) and (any(_PORT.match(a) for a in args) or
                                                        any(":" in a for a in args if _CALLBACK_ADDR.match(a))):
        add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                    f"runs {path}, a program from {place}, given an address and a port: a payload told where to "
                    f"call back to{where}", cmd.span))
        return
    if staged and "/bin/" in path and program_effects(name) is not None:
        return  # a virtual environment or a build prefix made in /tmp: its python, pip or tool is that program
    add(Finding("confirm.shell.unknown-program", Risk.MEDIUM,
                f"runs {path}, a program from {place} that no package installed: what it does is unknown{where}",
                cmd.span))


# wrappers that start their command with no terminal or window: a detached screen or tmux session, a headless
# console host
_DETACHING_FLAGS = {"screen": re.compile(r"^-\w*d\w*m|^-\w*m\w*d|^-d$"), "tmux": re.compile(r"^-\w*d"),
                    "conhost": re.compile(r"^--headless$", re.I)}


def _detached_wrapper(cmd: Command, analysis: ShellAnalysis) -> bool:
    """Started by a wrapper that leaves it no terminal or window (`screen -dmS name X`, `tmux new -d X`,
    `conhost --headless X`)."""
    if not cmd.via:
        return False
    last = cmd.via[-1].split()[0]
    flags = _DETACHING_FLAGS.get(last)
    if flags is None:
        return False
    for c in analysis.commands:
        if c is cmd:
            return False
        if c.name == last and any(flags.match(w) for w in c.argv[1:]):
            return True
    return False


def _hidden_start(cmd: Command, analysis: ShellAnalysis) -> bool:
    """Started with no window, or its window minimised, by the command that wraps it (`Start-Process -WindowStyle
    Hidden X`, `-WindowStyle Minimized`, `start /b X`, `start /min X`)."""
    if not cmd.via or cmd.via[-1] not in ("start-process", "start", "saps"):
        return False
    for c in analysis.commands:
        if c is cmd:
            return False
        words = c.words[1:]
        if c.name in ("start-process", "saps") and ("hidden" in words or "minimized" in words) and \
                any(w in ("-windowstyle", "-w", "-win") for w in words):
            return True
        if c.name == "start" and ("/b" in words or "/min" in words):
            return True
    return False



# script hosts that run a script file given to them: PowerShell (`-File`), Windows Script Host, and the shells and
# interpreters a detaching launcher starts
_SCRIPT_HOSTS = frozenset({"powershell", "pwsh", "wscript", "cscript"})
_DETACHED_INTERPRETERS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "python", "python3", "perl", "ruby", "node",
                                    "php"})
_PS_VALUED = frozenset({"-ep", "-executionpolicy", "-exec", "-w", "-windowstyle", "-win", "-wi", "-version", "-v",
                        "-configurationname", "-workingdirectory", "-wd", "-inputformat", "-outputformat", "-of",
                        "-if", "-settingsfile"})


def _script_operand(cmd: Command) -> str | None:
    """The script file a script host or interpreter is given (`powershell -f X`, `wscript //B X`, `python3 X`)."""
    argv = list(cmd.argv[1:])
    k = 0
    while k < len(argv):
        a = argv[k]
        al = a.lower()
        if cmd.name in ("powershell", "pwsh"):
            if al in ("-f", "-file", "-fi", "-fil"):
                return argv[k + 1] if k + 1 < len(argv) else None
            if al in ("-c", "-command", "-e", "-ec", "-encodedcommand"):
                return None
            if al in _PS_VALUED:
                k += 2
                continue
        if a.startswith(("-", "//")) or (cmd.name in ("wscript", "cscript") and a.startswith("/")):
            if cmd.name not in ("wscript", "cscript") and a in ("-c", "-e", "-m"):
                return None  # code given inline, or a module: no script file
            k += 1
            continue
        return a
    return None


def _script_from_drop(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A script kept in a folder anyone or any download writes to (the public profile, the temporary folders,
    /tmp, /dev/shm) run by PowerShell's `-File`, Windows Script Host, or an interpreter a detaching launcher
    starts (`nohup`, `setsid`, `start`): with its window hidden or minimised (`-w hidden`, `-WindowStyle
    Minimized`, `start /min`, `wscript //B`), or detached with its output thrown away, it is how a dropped
    payload is started (`block.shell.defense-evasion`); in plain sight it asks (`confirm.shell.unknown-program`).
    A script of the project, or one run in the foreground by a Unix interpreter, is left to the other rules."""
    script = _script_operand(cmd)
    if not script:
        return
    windows = "\\" in script or script[1:3] in (":/", ":\\") or script[:1] in ("%", "$")
    path = _windows_path(script, cmd.cwd) if windows else resolve_path(script, cmd.cwd)
    if path is None or not (_STAGING.match(path) or _win_staged(path)):
        return
    words = [w.lower() for w in cmd.argv[1:]]
    launched = [v.split()[0] for v in cmd.via if v]
    if cmd.name in _DETACHED_INTERPRETERS and not any(v in _DETACHERS or v in ("start", "start-process", "saps")
                                                      for v in launched) and not _detached_wrapper(cmd, analysis):
        return
    hidden = (cmd.name in ("powershell", "pwsh") and any(w in ("hidden", "minimized") for w in words) and
              any(w in _PS_VALUED for w in words if w.startswith("-w"))) or \
        (cmd.name in ("wscript", "cscript") and "//b" in words) or _hidden_start(cmd, analysis) or \
        _detached_wrapper(cmd, analysis) or \
        _HIDDEN_PART.search(path) is not None or \
        (any(v in _DETACHERS for v in launched) and any(t in _DISCARDED for op, t in cmd.redirects if op in _WRITE_OPS))
    if hidden:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} runs the script {script} from a folder anyone writes to, out of sight: how a dropped "
                    f"payload is started{where}", cmd.span))
    else:
        add(Finding("confirm.shell.unknown-program", Risk.MEDIUM,
                    f"{cmd.name} runs the script {script} from a folder anyone writes to: no package put it "
                    f"there{where}", cmd.span))



# -- a cluster's access removed, packages removed by a list fed to them ----------------------------------
_KUBE_CONFIG_REMOVALS = frozenset({"delete-context", "delete-cluster", "delete-user", "unset"})
# package managers and the verbs that remove what they installed
_PACKAGE_REMOVERS = {
    "npm": {"rm", "r", "remove", "uninstall", "un", "unlink"}, "pnpm": {"rm", "remove", "uninstall", "un"},
    "yarn": {"remove"}, "bun": {"remove", "rm"}, "pip": {"uninstall"}, "pip3": {"uninstall"}, "pipx": {"uninstall"},
    "uv": {"remove"}, "poetry": {"remove"}, "conda": {"remove", "uninstall"}, "mamba": {"remove", "uninstall"},
    "gem": {"uninstall"}, "cargo": {"uninstall", "remove"}, "go": set(), "brew": {"uninstall", "remove", "rm"},
    "apt": {"remove", "purge", "autoremove"}, "apt-get": {"remove", "purge", "autoremove"},
    "dnf": {"remove", "erase"}, "yum": {"remove", "erase"}, "zypper": {"remove", "rm"},
    "pacman": {"-r", "-rs", "-rns"}, "apk": {"del"}, "snap": {"remove"}, "flatpak": {"uninstall", "remove"},
    "choco": {"uninstall"}, "winget": {"uninstall", "remove"}, "scoop": {"uninstall"}, "port": {"uninstall"},
    "composer": {"remove"}, "dotnet": {"remove"}, "helm": {"uninstall", "delete"},
}


def _kube_config_removed(cmd: Command, where: str, add: Add) -> None:
    """`kubectl config delete-context|delete-cluster|delete-user|unset`: a cluster's access taken out of the
    kubeconfig file, which nothing restores but its owner (`get-contexts`, `view`, `current-context` read)."""
    plain = [w for w in cmd.argv[1:] if not w.startswith("-")]
    if plain[:1] == ["config"] and len(plain) > 1 and plain[1] in _KUBE_CONFIG_REMOVALS:
        add(Finding("confirm.shell.destructive", Risk.MEDIUM,
                    f"kubectl config {plain[1]} takes {plain[2] if len(plain) > 2 else 'an entry'} out of the "
                    f"kubeconfig file: that cluster's access is gone until it is set up again{where}", cmd.span))


def _fed_removal(cmd: Command, where: str, add: Add) -> None:
    """A package manager's remove verb run by xargs (`... | xargs npm -g rm`, `xargs apt-get remove -y`, `xargs
    pip uninstall -y`): it removes every package the list before it names, which the gate cannot read; it asks
    as the removal does when the packages are named."""
    verbs = _PACKAGE_REMOVERS.get(cmd.name)
    if not verbs or "xargs" not in " ".join(cmd.via):
        return
    if any(w.lower() in verbs for w in cmd.argv[1:]):
        add(Finding("confirm.shell.install", Risk.MEDIUM,
                    f"{cmd.name} removes the packages the list before it names (through xargs): which ones the "
                    f"gate cannot see{where}", cmd.span))


# removable drives and mounted images: a program on them came from outside this machine
_REMOVABLE = re.compile(r"^(?:/media/|/run/media/|/volumes/)")
_CALLBACK_ADDR = re.compile(r"^(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?$")
_PORT = re.compile(r"^\d{2,5}$")
_COPY_PROGRAMS = frozenset({"cp", "mv", "install", "rsync", "ditto", "scp"})


def _copied_from(analysis: ShellAnalysis, cmd: Command, path: str) -> str | None:
    """The removable-drive or temporary file that `path` was copied from earlier on the same command line."""
    folder = path.rsplit("/", 1)[0]
    for c in analysis.commands:
        if c is cmd:
            break
        if c.name not in _COPY_PROGRAMS:
            continue
        ops = [a for a in c.argv[1:] if not a.startswith("-")]
        if len(ops) < 2:
            continue
        dest = resolve_path(ops[-1], c.cwd)
        if dest is None or (dest != path and dest.rstrip("/") != folder):
            continue
        for src in ops[:-1]:
            sp = resolve_path(src, c.cwd) or ""
            if _REMOVABLE.match(sp) or _STAGING.match(sp):
                return sp
    return None


_INTERPRETERS = frozenset({"ruby", "python", "python3", "python2", "perl", "node", "php", "bash", "sh", "zsh",
                           "lua", "tclsh"})
_SYSTEM_BIN = re.compile(r"^(?:/usr/(?:local/)?s?bin|/s?bin|/opt/[^/]+/bin)/[^/]+\.(?:rb|py|pl|js|php|sh|lua|tcl)$")


def _system_script(cmd: Command, where: str, add: Add) -> None:
    """An interpreter given a script that sits in a system program folder: no package puts its scripts there
    under a script's name; a download saved there does."""
    script = next((a for a in cmd.argv[1:] if not a.startswith("-")), None)
    path = resolve_path(script, cmd.cwd or None) if script else None
    if path and _SYSTEM_BIN.match(path):
        add(Finding("confirm.shell.unknown-program", Risk.MEDIUM,
                    f"{cmd.name} runs {path}, a script in a system program folder no package put there{where}",
                    cmd.span))


# folders whose programs run by themselves or by name: system program folders, start-up and agent folders
_RUN_FOLDER = re.compile(r"^(?:/usr/(?:local/)?s?bin/|/s?bin/|/opt/[^/]+/bin/|(?:/home/[^/]+)?/library/(?:launchagents|"
                         r"launchdaemons|startupitems)/|/etc/(?:cron\.\w+|init\.d|profile\.d|systemd/system|rc\.local)|"
                         r"/home/[^/]+/\.config/autostart/|/c:/programdata/|/c:/windows/|.*/appdata/roaming/|"
                         r".*/start menu/programs/startup/)")
_URL_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^/@\s]*@)?(\[[0-9a-f:]+\]|[^/:?#\s]+)")
_IP_HOST = re.compile(r"^(?:\[[0-9a-f:]+\]|\d{1,3}(?:\.\d{1,3}){3})$")
_EXEC_MODE = re.compile(r"^(?:[ugoa]*\+[rwst]*x[rwst]*|0?[0-7]?[1357][0-7]{2})$")


def _download_placed(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A download saved where programs run from, from a host that publishes no releases; and a download from a
    bare address or over plain HTTP from such a host, made executable on the same command line."""
    hosts = [m.group(1) for w in cmd.words[1:] if "://" in w and (m := _URL_HOST.match(w.strip("'\"")))]
    if not hosts:
        return
    unknown = [h for h in hosts if not RELEASE_HOST.match(h) and h not in ("localhost", "127.0.0.1", "[::1]")]
    if not unknown:
        return
    targets = download_targets(cmd) + [t for op, t in cmd.redirects if op in (">", ">|")]
    paths = [(t, resolve_path(t, cmd.cwd or None) or t) for t in targets]
    placed = next((t for t, p in paths if _RUN_FOLDER.match(p)), None)
    if placed:
        add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                    f"{cmd.name} saves a file from {unknown[0][:60]} into {placed[:80]}, a folder programs are run "
                    f"from: code nobody has seen installed where it will run{where}", cmd.span))
        return
    plain = any(w.startswith(("http://", "ftp://")) for w in cmd.words[1:])
    if not paths or not (_IP_HOST.match(unknown[0]) or plain):
        return
    saved = {p for _, p in paths} | {p.rsplit("/", 1)[-1] for _, p in paths}
    for c in analysis.commands:
        if c.name != "chmod" or not any(_EXEC_MODE.match(w) for w in c.words[1:]):
            continue
        made = [a for a in c.argv[1:] if not _EXEC_MODE.match(a.lower()) and not a.startswith("-")]
        if any((resolve_path(a, c.cwd or None) or a) in saved or a.lower() in saved for a in made):
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"{cmd.name} fetches a file from {unknown[0][:60]}, which no name or certificate vouches "
                        f"for, and chmod makes it executable: a download made ready to run{where}", cmd.span))
            return


# a request parameter that carries a shell command line to a web shell (`?cmd=cat+/etc/passwd`, `-d c=id`)
_SHELL_PARAM = re.compile(r"(?:^|[?&;'\"])(?:cmd|exec|execute|command|c|shell|run|system|code)=([^&\s'\"]+)", re.I)
_SHELL_WORD = re.compile(r"^(?:cat|id|whoami|uname|ls|dir|pwd|hostname|ifconfig|ipconfig|netstat|wget|curl|bash|sh|"
                         r"nc|ncat|powershell|cmd|cmd\.exe|net|type|ps|rm|chmod|python3?|perl|php|systeminfo|"
                         r"tasklist|head|tail|printenv|env|nslookup|ping|certutil|sudo|getent|groups)$")
_DATA_FLAGS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "-f", "--form",
                         "--post-data", "--body", "-body"})


# a hidden name (a leading dot) in a folder programs are run from by name: no package names a program so
_HIDDEN_IN_BIN = re.compile(r"^(?:/usr/(?:local/)?s?bin|/s?bin|/opt/[^/]+/bin|/usr/libexec)/\.[^/.][^/]*$")


def _hidden_program(cmd: Command, where: str, add: Add) -> None:
    """A file copied or installed into a system program folder under a hidden name: a program placed where it
    runs and kept out of listings (`ls` does not show it), which is how an implant stays."""
    ops = [a for a in cmd.argv[1:] if not a.startswith("-")]
    if cmd.name == "install":
        ops = [a for k, a in enumerate(cmd.argv[1:], 1) if not a.startswith("-") and
               cmd.argv[k - 1] not in ("-m", "--mode", "-o", "--owner", "-g", "--group")]
    if len(ops) < 2:
        return
    dest = resolve_path(ops[-1], cmd.cwd) or ""
    if not _HIDDEN_IN_BIN.match(dest):
        return
    add(Finding("block.shell.defense-evasion", Risk.HIGH,
                f"{cmd.name} puts a program under a hidden name in {dest.rsplit('/', 1)[0]}, a folder programs run "
                f"from: kept out of sight where it runs{where}", cmd.span))


_EXEC_MODE = re.compile(r"^[ugoa]*[+=][rwst]*x|^0?[0-7]?[0-7]*[1357][0-7]*$")


def _hidden_made_executable(cmd: Command, where: str, add: Add) -> None:
    """chmod +x on a hidden name in a system program folder (`touch /usr/local/bin/.x && chmod +x ...`)."""
    ops = [a for a in cmd.argv[1:] if not a.startswith("-") or _EXEC_MODE.match(a[1:])]
    if len(ops) < 2 or not _EXEC_MODE.match(ops[0]):
        return
    for op in ops[1:]:
        dest = resolve_path(op, cmd.cwd) or ""
        if _HIDDEN_IN_BIN.match(dest):
            add(Finding("block.shell.defense-evasion", Risk.HIGH,
                        f"chmod makes {dest}, a hidden name in a folder programs run from, executable: a program "
                        f"kept out of sight where it runs{where}", cmd.span))
            return


def _web_shell_request(cmd: Command, where: str, add: Add) -> None:
    """An HTTP request whose query or form body hands a shell command to a page that runs it: remote code
    execution through a web shell."""
    words = cmd.words[1:]
    carried = [w for w in words if "://" in w and "?" in w]
    carried += [words[k + 1] for k, w in enumerate(words[:-1]) if w in _DATA_FLAGS]
    for text in carried:
        for m in _SHELL_PARAM.finditer(text.split("?", 1)[-1] if "://" in text else text):
            value = m.group(1).replace("+", " ").replace("%20", " ").replace("%2f", "/")
            first = value.split()[0] if value.split() else ""
            if _SHELL_WORD.match(first):
                add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                            f"{cmd.name} sends the command `{value[:40]}` in a request parameter: a web shell run "
                            f"on another machine{where}", cmd.span))
                return


_COPIERS = frozenset({"cp", "mv", "scp", "rsync", "install", "pscp", "copy", "xcopy", "move", "copy-item",
                      "move-item", "robocopy"})
_LIBRARY = re.compile(r"\.(?:dll|ocx|cpl|dylib|so(?:\.\d+)*)$", re.I)
# folders programs load their libraries from that a user may write to: application data on Windows (variables
# written either way, or spelled out), application bundles and ~/Library on a Mac
_LOAD_FOLDER = re.compile(
    r"^(?:%(?:local)?appdata%|\$env:(?:local)?appdata|%programdata%|\$env:programdata|%allusersprofile%|"
    r"\$env:allusersprofile|[a-z]:/(?:programdata|users/[^/]+/appdata)(?:/|$)|(?:~|\$home|/users/[^/]+)/library/|"
    r"/applications/[^/]+\.app/)", re.I)
_STARTERS = frozenset({"start", "start-process", "saps", "invoke-item", "ii", "open", "call", "cmd", "rundll32"})


_BUNDLE = re.compile(r"^.*?\.app/", re.I)
_ABSOLUTE = re.compile(r"^(?:[a-z]:/|/|~|%\w+%|\$env:|\$home)", re.I)


def _paths(words: tuple[str, ...] | list[str]) -> list[str]:
    """The operands among `words`: not options (`-x`, and `/y` of Windows programs; `/a/b` is a path)."""
    return [a for a in words if not a.startswith(("-", "/")) or (a.startswith("/") and "/" in a[1:])]


def _folder(path: str) -> str:
    """The folder a copy lands in, with `/` for separators and lower case: the operand itself when it names a
    folder (ends with a separator or has no library name), else its parent."""
    p = path.strip("'\"").replace("\\", "/").lower()
    if p.endswith("/") or not _LIBRARY.search(p):
        return p.rstrip("/") + "/"
    return p.rsplit("/", 1)[0] + "/" if "/" in p else "./"


def _library_planted(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A library copied into a folder a program loads it from (see the module's docstring)."""
    ops = _paths(cmd.argv[1:])
    if len(ops) < 2 or not any(_LIBRARY.search(a.strip("'\"")) for a in ops):
        return
    dest = _folder(ops[-1])
    # a folder of the project's own (relative) is where builds put their libraries next to their programs
    if not _ABSOLUTE.match(dest) or dest == "/":
        return
    # a Mac application loads from anywhere in its bundle
    if bundle := _BUNDLE.match(dest):
        dest = bundle.group(0)
    for other in analysis.commands:
        if other is cmd:
            continue
        run = _paths(other.argv[(1 if other.name in _STARTERS else 0):])[:1]
        if run and (run[0].strip("'\"").replace("\\", "/").lower() + "/").startswith(dest):
            add(Finding("block.shell.loader-hook", Risk.CRITICAL,
                        f"{cmd.name} puts a library into {ops[-1]} and {other.name} then runs a program from there: "
                        f"it loads that library in place of its own{where}", cmd.span))
            return
    if _LOAD_FOLDER.match(dest):
        add(Finding("confirm.shell.persistence", Risk.HIGH,
                    f"{cmd.name} puts a library into {ops[-1]}, another program's folder: it loads it the next time "
                    f"it starts{where}", cmd.span))


_WEB_SHELL_FILE = re.compile(r"(?:^|[\\/])[^\\/]*(?:shell|cmd|c99|r57|b374k|wso|backdoor)[^\\/]*\."
                             r"(?:php\d?|phtml|jspx?|aspx?|ashx|war)$")
_WEB_ROOT = re.compile(r"(?:^|[\\/])(?:var[\\/]www|srv[\\/]www|srv[\\/]http|htdocs|wwwroot|inetpub|public_html|"
                       r"webapps)(?:[\\/]|$)")
_REMOTE_DEST = re.compile(r"^(?:[\w.-]+@)?[\w.-]+:(?!\\|//)")


def _web_shell_copy(cmd: Command, where: str, add: Add) -> None:
    """A page named as a web shell copied into a web server's folder or to another machine: a door left open
    for commands over HTTP."""
    ops = [w for w in cmd.words[1:] if not w.startswith("-")]
    if len(ops) < 2 or not any(_WEB_SHELL_FILE.search(w.strip("'\"")) for w in ops[:-1]):
        return
    dest = ops[-1].strip("'\"")
    if _WEB_ROOT.search(dest) or (cmd.name in ("scp", "rsync", "pscp") and _REMOTE_DEST.match(dest)):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} puts a web shell page on {dest[:60]}: anyone who requests it runs commands there"
                    f"{where}", cmd.span))


# (a POSIX reading drops the `$` that ends a word: `//HOST/ADMIN$` arrives as `//host/admin`)
_ADMIN_SHARE = re.compile(r"^(?://|\\\\)[^/\\]+[/\\](?:admin\$?|[a-z]\$?|ipc\$)(?:[/\\]|$)", re.I)
_EXECUTABLE = re.compile(r"\.(?:exe|dll|bat|cmd|ps1|vbs|scr|msi|sys|hta|js)\b", re.I)


_FTP_PUT = re.compile(r"\b(?:put|mput)\s+\S*")


def _admin_share_put(cmd: Command, where: str, add: Add) -> None:
    """smbclient on another machine's administrative share: a program put there, or a password on the command
    line, is how a tool is spread to run as a service on that machine."""
    share = next((w for w in cmd.words[1:] if _ADMIN_SHARE.match(w)), None)
    if share is None:
        return
    words = cmd.words[1:]
    script = " ".join(words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-c", "--command"))
    put = _FTP_PUT.search(script)
    password = any("%" in words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-u", "--user")) or \
        any(w.startswith("--password") for w in words)
    if (put and _EXECUTABLE.search(script)) or password:
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"smbclient {'copies a program to' if put else 'logs in with a password to'} {share[:40]}, an "
                    f"administrative share of another machine: lateral movement{where}", cmd.span))


_IMAGE_TOOLS = frozenset({"docker", "podman", "nerdctl", "buildah", "skopeo"})


# what a command run in a container does that matters wherever it runs: code from the network, a shell handed
# to the network, a miner, secrets sent out (a `rm -rf /` in a throwaway container harms nothing else)
_ANYWHERE = frozenset({"block.shell.remote-code-exec", "block.shell.reverse-shell", "block.shell.miner",
                       "block.shell.credential-exfiltration", "block.shell.exfiltration"})
_CONTAINER_RUN = frozenset({"run", "exec", "create"})


def _container_command(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """`docker run ... IMAGE sh -c '...'`, `docker exec CT bash -c '...'`: the command line given to a shell
    in the container is read like any other, and what would block anywhere blocks here too."""
    argv = cmd.argv
    if not any(w in _CONTAINER_RUN for w in cmd.words[1:3]):
        return
    for k in range(2, len(argv) - 2):
        if argv[k].rsplit("/", 1)[-1] in ("sh", "bash", "ash", "dash", "zsh") and argv[k + 1] == "-c":
            inner = argv[k + 2]
            if len(inner) > _MAX_WRITTEN:
                return
            for f in d.run(analyse(inner)):
                if f.rule in _ANYWHERE:
                    add(Finding(f.rule, f.risk, f"{f.reason} (in a container {cmd.name} starts){where}", cmd.span))
                    return
            return


def _image_push(cmd: Command, where: str, add: Add) -> None:
    """A container image sent to a registry by the build or copy verbs (docker buildx ... --push, skopeo copy
    to docker://): published like `docker push`."""
    words = [w for w in cmd.words[1:]]
    verbs = [w for w in words if not w.startswith("-")][:2]
    pushes = (("buildx" in verbs[:1] or verbs[:1] == ["build"]) and
              any(w == "--push" or ("type=registry" in w) or ("push=true" in w) for w in words)) or \
        (cmd.name in ("buildah", "nerdctl") and verbs[:1] == ["push"]) or \
        (cmd.name == "skopeo" and verbs[:1] in (["copy"], ["sync"]) and
         any(w.startswith("docker://") for w in [w for w in words if not w.startswith("-")][2:]))
    if pushes:
        add(Finding("confirm.shell.publish", Risk.MEDIUM,
                    f"{cmd.name} {' '.join(verbs)}: sends an image to a registry, publishing it beyond this machine"
                    f"{where}", cmd.span))


def _literal(cmd: Command) -> str | None:
    """The text a command writes when it only passes literal text on (echo/printf words, `cat` of a here-doc)."""
    if cmd.dynamic:
        return None
    if cmd.name in ("echo", "printf"):
        return " ".join(a for a in cmd.argv[1:] if not (a.startswith("-") and len(a) <= 3))
    if cmd.name in ("cat", "tee") and cmd.stdin_text and all(a.startswith("-") for a in cmd.argv[1:]):
        return cmd.stdin_text
    return None


def _command_written(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A literal command line (echo/printf words, a here-doc) written into a file that runs it."""
    text = _literal(cmd) if cmd.name != "tee" or cmd.stdin_text else None
    if text is None and cmd.name == "tee" and cmd.upstream:  # `cat <<EOF | sudo tee /usr/local/bin/x`
        text = _literal(analysis.commands[cmd.upstream[-1]])
    if text is None:
        return
    if not text.strip() or len(text) > _MAX_WRITTEN:
        return
    targets = [t for op, t in cmd.redirects if op in _WRITE_OPS]
    if cmd.name == "tee":
        targets += [a for a in cmd.argv[1:] if not a.startswith("-")]
    ran = [p for t in targets if _SCRIPT_FILE.search(p := resolve_path(t, cmd.cwd) or t) or _SERVED_SCRIPT.search(p)]
    if not ran:
        _tool_code_written(d, cmd, text, targets, where, add)
        return
    if m := _BACKGROUND_START.search(text):
        started = (m.group("p1") or m.group("p2"))[:60]
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"writes a line into {ran[0]} that starts {started} in the background each time the "
                    f"script runs: a persistence hook{where}", cmd.span))
        return
    if d.depth >= 2:
        return  # a line that writes a line that writes ...: judged two levels deep
    d.depth += 1
    try:
        found = d.run(analyse(text.replace("\\n", "\n")))
    finally:
        d.depth -= 1
    blocking = next((f for f in found if f.rule.startswith("block.")), None)
    if blocking is not None:
        add(Finding(blocking.rule, Risk.CRITICAL,
                    f"writes a command into {ran[0]}, which runs it: {blocking.reason}{where}", cmd.span))


# kinds the persistence checks judge a written line in already (start-up files, hooks, schedules, units, jobs)
_PERSISTENCE_KINDS = frozenset({"git hook", "shell startup file", "cron table", "systemd unit", "launchd job",
                                "desktop entry"})


def _tool_code_written(d: Detector, cmd: Command, text: str, targets: list[str], where: str, add: Add) -> None:
    """Text written into a file whose content runs later, read as gate/content.py reads such a file for a
    `file_write` and judged by the shell rules. A file an ordinary tool run executes (`conftest.py`, `setup.py`, a
    `.pth` file, a bundler's config, a Makefile's recipes: the kinds that only block) blocks for what blocks there
    (a download run, a reverse shell); what would only ask is the project's own business, as for a `file_write`.
    Any other such file (a package's install hooks, an editor's tasks, a CI workflow, a coding agent's MCP
    servers and hooks) blocks for what blocks and asks for what asks. A coding agent's settings written with its
    approvals off (`"defaultMode": "bypassPermissions"`, `"chat.tools.autoApprove": true`) block as the agent taking
    its own guard down (gate/rules/shell_agent_config.py); any other change to them asks through
    `shell.persistence_paths`."""
    for t in targets:
        path = resolve_path(t, cmd.cwd) or t
        content = text.replace("\\n", "\n").replace("\\t", "\t") if cmd.name in ("echo", "printf") else text
        kind = runs_later(path)
        if kind == "agent instructions" and (planted := planted_instructions(content)) is not None:
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"writes {planted[:50]!r} into {path}, a coding agent's standing instructions: every later "
                        f"session follows it{where}", cmd.span))
            return
        if kind is None or kind in _PERSISTENCE_KINDS or d.depth >= 2:
            continue
        commands = later_commands(kind, path, content)
        if not commands.strip():
            continue
        d.depth += 1
        try:
            found = d.run(analyse(commands))
        finally:
            d.depth -= 1
        only_block = kind in BLOCK_ONLY
        blocking = next((f for f in found if f.rule in _ANYWHERE or (not only_block and f.rule.startswith("block."))),
                        None)
        if blocking is not None:
            add(Finding(blocking.rule, Risk.CRITICAL,
                        f"writes into {path}, a {kind}, which runs later: {blocking.reason}{where}",
                        cmd.span))
            return
        asking = next((f for f in found if f.rule.startswith("confirm.")), None)
        if not only_block and asking is not None:
            add(Finding("confirm.shell.persistence", Risk.HIGH,
                        f"writes into {path}, a {kind}, which runs later: {asking.reason}{where}", cmd.span))
            return


# Every program name `judge` looks at (`cmd.name` tested against a set or a name): a command of any other name,
# with no redirect and no `/` in its program word, meets none of its checks, and the shell Detector leaves the
# call out. A check added to `judge` for a new name puts the name here too (tests/gate/test_shell_dispatch.py).
# archivers that write an archive on another machine, and remote shells fed a file (gate/rules/shell_dataout.py)
_REMOTE_COPIERS = frozenset({"tar", "gtar", "cpio", "pax", "ssh", "rsh", "dbclient", "plink", "autossh"})
NAMES = frozenset({*_REMOTE_COPIERS, *OPTION_RUNNERS, *PLANTING_NAMES, "find", *_SCRIPT_HOSTS, *TUNNEL_CLIENTS,
                   *_DETACHED_INTERPRETERS, "kubectl", *_PACKAGE_REMOVERS, *PS_ITEM_NAMES,
                   *_INTERPRETERS, "tee", *_EXTRACTORS, *_LAST_OPERAND_WRITERS, *_LINKERS, *_ARCHIVERS,
                   *_CODE_DELETERS, "chmod", *DOWNLOADERS, *_COPIERS, "smbclient", *_IMAGE_TOOLS,
                   *_ATTACK_NAMES, *_SCRIPT_RUNNERS, *_WIN_FETCHERS})
# the checks `judge` makes for each of those names, in its order: one look-up per command instead of a test per family
_NAMED_STEPS: dict[str, tuple[Step, ...]] = {n: _named_steps(n) for n in NAMES}
# program names whose own name states no purpose (`_stated_purpose` finds none): most commands name their program
# as itself, and `judge` leaves the reading of that name out
_SILENT_NAMES = frozenset(n for n in (*NAMES, *DESCRIBED_PLAIN) if _stated_purpose(n) is None)
