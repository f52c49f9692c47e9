"""Shell checks: services, schedules, start-up items, power and processes.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.content import later_commands
from gate.model import Risk
from gate.rules.shell_vocab import (
    _SERVICE_VERBS,
)
from gate.shell import (
    Command,
    Finding,
    ShellAnalysis,
    analyse,
    resolve_path,
)

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["PLANTING_NAMES", "PS_ITEM_NAMES", "TUNNEL_CLIENTS", "PersistenceChecks", "kernel_service", "kext_unload",
           "login_item", "mail_log_planted", "plist_program", "ps_timestomp", "schedule_opened", "system_detached",
           "timestomp", "tunnel_service", "win_run_key", "win_service", "win_task"]


_RX_SCHEDULED = re.compile(
    r"currentversion\\?(run|runonce|runservices)\b|\\?winlogon\b|image ?file ?execution ?options")
# registry places Windows runs or loads a value from later, beyond the Run keys: logon scripts, cmd.exe's
# AutoRun, Office's test DLL, AppInit/AppCert DLLs, silent-exit monitors, Active Setup, the screen saver,
# RDP start-up programs, LSA packages, print monitors, netsh helpers, COM servers and shell handlers (also
# the way past UAC), .NET profilers, time providers, BootExecute, the Startup folder's location, and the variables
# of the user's or the machine's environment key that make every program started load code (a .NET profiler or
# startup hook, a Java agent, NODE_OPTIONS, PYTHONSTARTUP)
_RX_RUNS_LATER = re.compile(
    r"userinitmprlogonscript|command processor\S*\s.*\bautorun\b|office test\\special\\perf|appinit_dlls|"
    r"appcertdlls|silentprocessexit|policies\\explorer\\run|active setup\\installed components|"
    r"control panel\\desktop\S*\s.*\bscrnsave\.exe\b|wds\\rdpwd\S*\s.*\bstartupprograms\b|"
    r"\\lsa\S*\s.*\b(security|authentication|notification) packages\b|\\print\\monitors|\\microsoft\\netsh\b|"
    r"\\(inprocserver32|localserver32)\b|\\shell\\open\\command\b|\bcor_profiler\b|\\timeproviders\\|"
    r"\\environment\S*\s.*\b(cor_enable_profiling|cor(eclr)?_profiler(_path(_32|_64)?)?|dotnet_startup_hooks|"
    r"pythonstartup)\b|\\environment\S*\s.*\b(java_tool_options|_java_options|jdk_java_options)\b.*"
    r"(javaagent|agentpath|agentlib|bootclasspath)|\\environment\S*\s.*\bnode_options\b.*(--require|-r\s|--import|"
    r"--(experimental-)?loader)|"
    r"session manager\S*\s.*\bbootexecute\b|user shell folders\S*\s.*\bstartup\b|"
    r"windows nt\\currentversion\\windows\S*\s.*\b(load|run)\b")


# a program or script in a folder any user or program can write to (Public, the temporary folders, ProgramData's
# root, the Recycle Bin): what a payload dropped there is named
_DROPPED_PROGRAM = re.compile(r"(?i)(?:users/public|windows/temp|appdata/local/temp|/temp/|%temp%|\$env:temp|%public%|"
                              r"programdata/[^/]+|\$recycle\.bin)/?\S*\.(?:exe|scr|dll|ps1|bat|cmd|vbs|js|hta|cpl)\b")


# desktop processes the system starts again at once (killed to make a `defaults write` take effect)
# Windows' shell: Explorer ended by name and started again on the same line, as after a setting change
_WINDOWS_RELAUNCHED = frozenset({"explorer"})
_RELAUNCHED = frozenset({"dock", "finder", "systemuiserver", "controlcenter", "notificationcenter", "cfprefsd",
                         "textinputmenuagent", "menubar", "plasmashell", "xfce4-panel", "nautilus"})

# the person's own chat, meeting, sync and media applications: quit by name to restart them or free a file they
# hold, as their support pages tell people to (OneDrive's reset, Teams' cache clear). They keep their state on
# their servers or sync it back; nothing of the system stops with them.
_USER_APPS = frozenset({"onedrive", "teams", "ms-teams", "msteams", "slack", "discord", "zoom", "zoom.us",
                        "spotify", "dropbox", "googledrivefs", "google drive", "skype", "steam", "signal",
                        "telegram", "whatsapp", "webex", "ciscowebexstart", "notion", "figma", "obs", "obs64",
                        "vlc", "itunes", "music", "box", "boxsync", "evernote", "postman", "docker desktop"})


def _started_again(analysis: ShellAnalysis, names: list[str]) -> bool:
    """Every program `names` is started again on the same line (`Start-Process explorer`, `start explorer.exe`)."""
    started = {w.strip("'\"").removesuffix(".exe") for c in analysis.commands
               if c.name in ("start-process", "start", "explorer")
               for w in (c.words if c.name == "explorer" else c.words[1:]) if not w.startswith(("-", "/"))}
    return all(n in started for n in names)


def _targets(words: list[str]) -> list[str]:
    return [w.strip("'\"").removesuffix(".exe") for w in words if not w.startswith(("-", "/"))]


def _user_apps_only(name: str, words: list[str]) -> bool:
    """Every process `name` (pkill, killall, taskkill /IM, Stop-Process -Name) is told to end is a user app."""
    if name == "kill":
        return False
    targets = _targets(words)
    return bool(targets) and all(t in _USER_APPS for t in targets)


# a signal that lets a process clean up (the default TERM, INT, HUP), not one that kills it where it stands
_HARD_SIGNALS = frozenset({"-9", "-kill", "-sigkill", "-s", "--signal", "-stop", "-sigstop", "-n", "-u", "-t",
                           "-1", "-11", "-segv", "-6", "-abrt"})
# development servers, watchers and workers, by the command line pkill -f matches
_DEV_PROCESS = re.compile(
    r"\b(?:node|nodemon|npm|npx|yarn|pnpm|bun|deno|next|vite|webpack|esbuild|tsc|ts-node|uvicorn|gunicorn|hypercorn|"
    r"daphne|flask|manage\.py|runserver|rails|puma|unicorn|http\.server|jupyter|streamlit|gradio|celery|rq|sidekiq|"
    r"hugo|jekyll|mkdocs|cargo run|go run|air|java -jar|gradle|mvn|pytest|watchman|livereload|browser-sync)\b")


def _settings_written(analysis: ShellAnalysis) -> frozenset[str]:
    """The apps whose preferences `defaults write` changes on this line (`com.apple.TextEdit` → textedit)."""
    return frozenset(c.words[2].rsplit(".", 1)[-1] for c in analysis.commands
                     if c.name == "defaults" and c.words[1:2] == ("write",) and len(c.words) > 3 and
                     "." in c.words[2])


def _by_number(words: list[str]) -> bool:
    """taskkill and Stop-Process given process numbers only (no image name, user or filter)."""
    flags = {w for w in words if w.startswith(("/", "-"))}
    numbers = [w for w in words if not w.startswith(("/", "-"))]
    return bool(numbers) and flags <= {"/pid", "/f", "/t", "-id", "-force", "-confirm:$false"} and \
        bool(flags & {"/pid", "-id"}) and all(n.strip(",").isdigit() and int(n.strip(",")) > 4 for n in numbers)


# the signals that ask a process to end or reload (TERM, INT, HUP, QUIT; CONT wakes it): any other one, by name or
# by number, stops, freezes or kills it where it stands (`kill -19` is SIGSTOP)
_GENTLE_SIGNALS = frozenset({"-15", "-term", "-sigterm", "-2", "-int", "-sigint", "-1", "-hup", "-sighup", "-3",
                             "-quit", "-sigquit", "-18", "-cont", "-sigcont", "-usr1", "-sigusr1", "-usr2", "-sigusr2"})
_SIGNAL_WORD = re.compile(r"^-(?:\d+|sig[a-z0-9+-]+|[a-z]{2,}[0-9]*|rtmin\S*|rtmax\S*)$")
# a runtime's bare name matches every program built on it (an editor's helpers, chat apps), not one server
_BARE_RUNTIMES = frozenset({"node", "nodejs", "npm", "npx", "yarn", "pnpm", "bun", "deno", "java", "python",
                            "python3", "ruby", "go", "air", "rq", "next", "tap"})
# a pkill -f pattern that matches more than it names: alternation, wildcards, classes
_PATTERN_META = re.compile(r"[|*+?\[\](){}^$\\]")


_JOB_SPEC = re.compile(r"%(?:\d+|[%+-])")  # this shell's own background job: `kill %1`, `kill %%`


def _graceful(words: list[str]) -> bool:
    return not any(w in _HARD_SIGNALS or w.startswith(("--signal=", "-s=")) or
                   (_SIGNAL_WORD.match(w) and w not in _GENTLE_SIGNALS and w not in ("-f", "--")) for w in words)


# the identifiers macOS and Linux endpoint-security, anti-malware and device-management agents run under (launchd
# labels, kernel and system extension bundle ids): the protections and the organisation's control of the machine
_ENDPOINT_AGENTS = re.compile(
    r"crowdstrike|\bfalcon|sentinelone|sentinel(d|agent|ctl)?\b|carbonblack|\bcbdefense|\bcbagent|sophos|"
    r"microsoft\.(wdav|dlp)|\bmdatp|\bwdav|\beset\b|symantec|norton|mcafee|trellix|fireeye|cylance|paloaltonetworks|"
    r"\btraps\b|cortex|elastic\.endpoint|elastic-agent|osquery|kandji|jamf|\bsanta(d)?\b|northpolesec|xprotect|"
    r"\bmrt\b|littlesnitch|objective-see|lulu|blockblock|malwarebytes|bitdefender|kaspersky|avast|\bavg\b|"
    r"trendmicro|webroot|huntress|rapid7|tanium|wazuh|qualys|netskope|zscaler|cisco\.amp|secureendpoint", re.I)


def _endpoint_agent(words: list[str]) -> str | None:
    """The first word naming an endpoint-security or management agent (its label, plist or bundle id)."""
    return next((w for w in words if _ENDPOINT_AGENTS.search(w)), None)


def kext_unload(cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """A security product's kernel or system extension unloaded or uninstalled (`kextunload -b com.crowdstrike.sensor`,
    `kmutil unload -b ...`, `systemextensionsctl uninstall TEAM com.sentinelone...`): the protection stops watching
    (`block.shell.defense-evasion`). Any other extension unloaded asks as a system change."""
    words = list(cmd.argv[1:])
    if cmd.name == "kmutil" and words[:1] != ["unload"]:
        return
    if cmd.name == "systemextensionsctl" and words[:1] != ["uninstall"]:
        return
    agent = _endpoint_agent(words)
    if agent is not None:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} unloads the security extension {agent}{where}", cmd.span))


class PersistenceChecks:
    """Services, schedules, start-up items, power and processes."""

    def services(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = [w for w in cmd.words[1:] if not w.startswith("-")]
        if cmd.name in ("service", "rc-service"):
            words = words[1:2] + words[:1]
        elif cmd.name in ("pm2", "forever"):
            if words[:1] == ["start"] and not any(w.startswith(("/", "~", "$", "%")) for w in words[1:]):
                return  # the user's own app (a project path) started under a process manager
            if words[:1] in (["delete"], ["stopall"], ["del"]):
                words = ["stop", *words[1:]]  # a process manager's delete stops the process and forgets it
        if not words:
            return
        verb, units = words[0], [u.removesuffix(".service") for u in words[1:]]
        if cmd.name in ("systemctl", "loginctl") and verb in ("poweroff", "reboot", "halt", "kexec", "suspend",
                                                             "hibernate", "rescue", "emergency", "soft-reboot",
                                                             "hybrid-sleep", "terminate-session", "kill-session"):
            add(Finding("confirm.shell.system-disruption", Risk.HIGH, f"{cmd.name} {verb}{where}", cmd.span))
            return
        if verb in ("enable", "link", "preset") and cmd.name == "systemctl" and \
                (staged := next((u for u in words[1:] if "/" in u and
                                 _STAGED_PROGRAM.search((resolve_path(u, cmd.cwd or None) or u).lower())), None)):
            # a unit file kept in a temporary or hidden folder made to start at every boot: nothing a package
            # installs lives there (ATT&CK T1543.002)
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"systemctl {verb} {staged}: a unit from a temporary or hidden folder starts at every "
                        f"boot{where}", cmd.span))
            return
        if verb in ("enable", "link", "preset") and cmd.name == "systemctl":
            add(Finding("confirm.shell.persistence", Risk.MEDIUM,
                        f"systemctl {verb} {' '.join(units)}: starts it at every boot{where}", cmd.span))
            return
        if verb == "daemon-reload" or verb not in _SERVICE_VERBS:
            return
        security = [u for u in units if u in self.security or u.startswith(("selinux", "apparmor", "firewall"))]
        if security and verb in ("stop", "disable", "mask", "kill"):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{verb}s the security service {', '.join(security)}{where}", cmd.span))
            return
        critical = [u for u in units if u in self.critical]
        add(Finding("confirm.shell.system-disruption", Risk.HIGH if critical else Risk.MEDIUM,
                    f"{cmd.name} {verb} {' '.join(units)}{where}", cmd.span))

    def launchctl(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        hidden = next((w for w in words[1:] if w.endswith(".plist") and w.rsplit("/", 1)[-1].startswith(".")), None)
        if words[:1] and words[0] in ("load", "bootstrap") and hidden is not None:
            # a launchd job whose file name starts with a dot: kept out of a listing of the agents folder
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"launchctl {words[0]} registers {hidden}, a job hidden by its name, to start at every "
                        f"login{where}", cmd.span))
        if words[:1] and words[0] in ("load", "bootstrap", "submit", "enable"):
            add(Finding("confirm.shell.persistence", Risk.MEDIUM, f"launchctl {words[0]}: registers a job{where}",
                        cmd.span))
        elif words[:1] and words[0] in ("unload", "bootout", "remove", "disable", "kill", "stop") and \
                (agent := _endpoint_agent(words[1:])) is not None:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"launchctl {words[0]} stops the endpoint-security or management agent {agent}{where}",
                        cmd.span))
        elif words[:1] and words[0] in ("unload", "bootout", "remove", "disable", "kill", "stop"):
            add(Finding("confirm.shell.system-disruption", Risk.MEDIUM, f"launchctl {words[0]}{where}", cmd.span))

    def crontab(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if "-l" in words and all(w in ("-l", "-u") or (not w.startswith("-") and "-u" in words) for w in words):
            return
        what = "removes every cron job" if "-r" in words else "changes scheduled jobs"
        add(Finding("confirm.shell.persistence", Risk.MEDIUM, f"crontab {' '.join(cmd.argv[1:3])}: {what}{where}",
                    cmd.span))
        if "-r" not in words and (text := _table_given(cmd, analysis)):
            _cron_payload(self, cmd, text, where, add)

    def scheduled(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "schtasks" and not any(w in ("/create", "/change", "/run") for w in words):
            return
        if cmd.name == "reg" and not (words[:1] == ["add"] and (
                any(_RX_SCHEDULED.search(w) for w in words) or _RX_RUNS_LATER.search(" ".join(words)))):
            return
        if cmd.name in ("set-itemproperty", "new-itemproperty", "sp") and not (
                any(_RX_SCHEDULED.search(w) for w in words) or _RX_RUNS_LATER.search(" ".join(words))):
            return  # PowerShell's registry writes: only a value Windows runs later is this check's
        if cmd.name in ("reg", "set-itemproperty", "new-itemproperty", "sp") and \
                (dropped := next((w for w in words if _DROPPED_PROGRAM.search(w.replace("\\", "/"))), None)):
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"{cmd.name} makes Windows start {dropped} later, a program kept in a folder anyone can write "
                        f"to{where}", cmd.span))
            return
        if cmd.name in ("at", "batch") and (not words or words[0] in ("-l", "-r", "-d", "-c")):
            return
        if cmd.name in ("update-rc.d", "chkconfig") and not any(w in ("enable", "defaults", "on") for w in words):
            return
        add(Finding("confirm.shell.persistence", Risk.MEDIUM, f"{cmd.name}: makes something run later{where}",
                    cmd.span))

    def power(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "shutdown" and any(w in ("-c", "/a") for w in words):
            return
        add(Finding("confirm.shell.system-disruption", Risk.HIGH, f"{cmd.name}: takes the machine down{where}",
                    cmd.span))

    def init(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        if cmd.words[1:2] and cmd.words[1] in ("0", "1", "6", "s", "single", "emergency"):
            add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                        f"{cmd.name} {cmd.words[1]}: changes the run level (halts or reboots){where}", cmd.span))

    def kill(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        fed = cmd.found and any(analysis.commands[i].name in ("pgrep", "pidof", "pgrep.exe") for i in cmd.upstream)
        if cmd.name == "kill" and not fed and (not words or words[0] in ("-l", "-0", "-L", "--list")):
            return
        # a security or logging daemon named, or found by pgrep/pidof in a substitution or fed by xargs (`pgrep x |
        # xargs kill`): a defence switched off
        named = [w for w in words if not w.startswith("-")] if cmd.name != "kill" else \
            [w for i in (*cmd.subst, *(cmd.upstream if cmd.found else ())) for w in analysis.commands[i].words[1:]
             if analysis.commands[i].name in ("pgrep", "pidof") and not w.startswith("-")]
        hit = next((w for w in named if w in self.security), None)
        if hit:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{cmd.name} kills the security or logging daemon {hit}{where}", cmd.span))
            return
        if cmd.name in ("killall", "pkill") and named and all(w in _RELAUNCHED for w in named):
            return  # the Dock, the Finder, the menu bar: killed to reload their settings, the system restarts them
        if cmd.name == "killall" and named and all(w in _settings_written(analysis) for w in named):
            return  # an app quit so that the preference just written for it applies (`defaults write ... && killall X`)
        if cmd.name in ("taskkill", "stop-process") and not cmd.subst and not cmd.found and \
                _targets(words) and all(t in _WINDOWS_RELAUNCHED for t in _targets(words)) and \
                _started_again(analysis, _targets(words)):
            return  # Explorer (the taskbar and desktop) restarted on the same line to reload its settings
        if not cmd.subst and not cmd.found and _user_apps_only(cmd.name, words):
            return  # a chat, sync or media app quit by name, as its own help pages say to restart it
        if cmd.name in ("taskkill", "stop-process") and not cmd.subst and _by_number(words):
            return  # one process ended by its number (taskkill /PID 4321 /F, Stop-Process -Id 4321)
        if _graceful(words) and not cmd.subst and not cmd.found:
            pids = [w for w in words if not w.startswith("-")]
            if cmd.name == "kill" and pids and all((w.isdigit() and int(w) > 1) or _JOB_SPEC.fullmatch(w)
                                                   for w in pids):
                return  # asked to end, by number or job (`%1`): what a developer does to the server they started
            if cmd.name == "pkill" and "-f" in words and "-u" not in words and pids and \
                    _DEV_PROCESS.search(" ".join(pids)) and not any(_PATTERN_META.search(p) for p in pids) and \
                    " ".join(pids) not in _BARE_RUNTIMES:
                return  # the development server or worker the agent itself started, asked to end
        everything = cmd.name == "killall5" or (cmd.name == "kill" and ("-1" in words[1:] or words[-1:] == ["-1"]) and \
            len(words) > 1) or (cmd.name == "kill" and "1" in [w for w in words if not w.startswith("-")])
        add(Finding("confirm.shell.system-disruption", Risk.HIGH if everything else Risk.MEDIUM,
                    f"{cmd.name} {' '.join(cmd.argv[1:4])}: "
                    f"{'kills every process' if everything else 'kills processes'}"
                    f"{where}", cmd.span))


# where a job's program hides: the temporary folders, macOS's world-writable /Users/Shared, a hidden folder or name
_STAGED_PROGRAM = re.compile(r"^(/tmp|/private/tmp|/var/tmp|/private/var/tmp|/dev/shm|/users/shared)(/|$)|"
                             r"/\.[^/.][^/]*(/|$)")
_PLIST_PROGRAM = re.compile(r":program(arguments)?\b", re.I)


def plist_program(d: Detector, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """PlistBuddy setting the program of a launchd job (`-c "Add :ProgramArguments:0 string /Users/Shared/.x"`,
    `Set :Program ...`) in a LaunchAgents or LaunchDaemons plist, to a program in a temporary, shared or hidden
    folder: it runs at every login from where payloads are dropped (`block.shell.malicious-persistence`). A job
    whose program is installed (/usr/local/bin, /Applications) asks as any launchd change does."""
    words = cmd.argv[1:]
    plist = next((w for w in reversed(words) if w.lower().endswith(".plist")), None)
    if plist is None:
        return
    path = resolve_path(plist, cmd.cwd or None) or plist.lower()
    if not d.persistence_path(path.lower()):
        return
    for k, w in enumerate(words[:-1]):
        if w != "-c" or not _PLIST_PROGRAM.search(words[k + 1]):
            continue
        value = words[k + 1].split()[-1]
        staged = resolve_path(value, cmd.cwd or None) or value
        if _STAGED_PROGRAM.search(staged.lower()):
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"PlistBuddy makes the launchd job {plist.rsplit('/', 1)[-1]} run {value}, a program in a "
                        f"temporary, shared or hidden folder, at every login{where}", cmd.span))
            return


# where dropped files wait on Windows: every user's public folder, shared program data, the temporary folders
_WIN_DROP = re.compile(r"^[a-z]:\\(users\\public|programdata|windows\\temp)\\|\\appdata\\|^%(te?mp|programdata|public|"
                       r"appdata|localappdata)%|^\$env:(te?mp|programdata|public|appdata|localappdata)\b", re.I)


def kernel_service(cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """`sc create NAME binPath= FILE type= kernel` (or New-Service of a .sys) whose driver sits in a public, shared or
    temporary folder: a kernel driver dropped and loaded, the way attackers bring a vulnerable signed driver to
    switch protections off (ATT&CK T1543.003, T1068; `block.shell.loader-hook`). A driver from the system's
    driver store or Program Files asks as any service does."""
    words = [w.lower() for w in cmd.argv[1:]]
    if cmd.name == "sc" and (not words or words[0] not in ("create", "config")):
        return
    joined = " ".join(words)
    if "kernel" not in joined and "filesys" not in joined and ".sys" not in joined:
        return
    binary = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in ("binpath=", "-binarypathname")), None) or \
        next((w.split("=", 1)[1] for w in words if w.startswith("binpath=") and len(w) > 8), None)
    if binary and _WIN_DROP.search(binary.strip("'\"")):
        add(Finding("block.shell.loader-hook", Risk.CRITICAL,
                    f"{cmd.name} makes a kernel driver service from {binary}, a public, shared or temporary "
                    f"folder{where}", cmd.span))


def _table_given(cmd: Command, analysis: ShellAnalysis) -> str:
    """The cron table `crontab` installs, when the same line wrote it: echo/printf lines piped in (`echo '* * * *
    * x' | crontab -`) or written into the file it is given (`echo '0 10 * * * x' >> t; crontab t`)."""
    from gate.rules.shell_destructive import _appended_text, piped_text  # (it imports this module's neighbours)

    ops = [w for w in cmd.argv[1:] if not w.startswith("-")]
    if cmd.upstream and (not ops or ops == ["-"]):
        return piped_text(cmd, analysis, partial=True) or cmd.stdin_text or ""
    if len(ops) != 1:
        return cmd.stdin_text or ""
    table = resolve_path(ops[0], cmd.cwd or None) or ops[0]
    texts = []
    for other in analysis.commands:
        if other is cmd:
            break
        if any(op in (">", ">>") and (resolve_path(t, other.cwd or None) or t) == table for op, t in other.redirects):
            texts.append(_appended_text(other))
    return "\n".join(t for t in texts if t)


def _cron_payload(d: Detector, cmd: Command, text: str, where: str, add: Callable[[Finding], None]) -> None:
    """A cron table installed on the same line that wrote it, whose job runs what the shell rules block (a fork
    bomb, a delete of home, a download run) or a program kept under a hidden name or in a temporary folder (`0 10
    * * * ~/.e2e.sh`): a payload made to run on schedule (`block.shell.malicious-persistence`)."""
    jobs = later_commands("cron table", "crontab", text.replace("\\n", "\n"))
    for job in jobs.splitlines():
        program = job.split()[0].strip("'\"") if job.split() else ""
        path = (resolve_path(program, cmd.cwd or None) or program).lower() if "/" in program else ""
        if path and (_STAGED_PROGRAM.match(path) or path.rsplit("/", 1)[-1].startswith(".")):
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"crontab installs a job that runs {program}, a program kept hidden or in a temporary "
                        f"folder, on schedule{where}", cmd.span))
            return
    if d.depth >= 2 or not jobs.strip():
        return
    d.depth += 1
    try:
        found = d.run(analyse(jobs, cmd.cwd or None))
    finally:
        d.depth -= 1
    blocking = next((f for f in found if f.rule.startswith("block.")), None)
    if blocking is not None:
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"crontab installs a job that runs on schedule what blocks now: {blocking.reason}{where}",
                    cmd.span))


# -- start-up and schedule files hidden or opened up ---------------------------------------------------------
# the files the system runs or reads at boot, at log-in or on a schedule: rc.local (ESXi's rc.local.d too), init
# scripts, cron tables and folders, systemd units, profile scripts, the preload list, launchd jobs, autostart
# entries, the shells' start-up files
_STARTUP_FILE = re.compile(
    r"^/etc/(?:rc\.local(?:\.d)?(?:/|$)|rc\d?\.d/|rc\.d/|init\.d/|init/|cron\.(?:d|daily|hourly|weekly|monthly|allow)"
    r"(?:/|$)|crontab$|anacrontab$|systemd/|profile(?:\.d/|$)|bash\.bashrc$|zsh/|ld\.so\.preload$|"
    r"update-motd\.d/|xdg/autostart/|sudoers(?:\.d/|$)|inittab$|apt/apt\.conf\.d/)|"
    r"^/var/spool/(?:cron|anacron)(?:/|$)|^/var/at/|^/usr/lib/cron/|^/(?:usr/)?lib/systemd/(?:system|user)/|"
    r"^/library/(?:launchagents|launchdaemons|startupitems)(?:/|$)|/library/launchagents/|"
    r"/\.config/(?:autostart|systemd/user)/|/\.(?:bashrc|bash_profile|profile|zshrc|zprofile|zshenv|zlogin|"
    r"bash_login)$|/start menu/programs/startup/")
# touch's options that set a time of one's choosing: another file's (`-r`), a date (`-d`, `-t`)
_TOUCH_TIME = re.compile(r"^(?:-[acfhm]*[rdt].*|--(?:reference|date)(?:=.*)?)$")


def _startup_targets(cmd: Command, skip_values: frozenset[str]) -> list[str]:
    """The operands of `cmd` that are start-up or schedule files (display form), the values of `skip_values`
    options left out."""
    out = []
    argv = list(cmd.argv[1:])
    k = 0
    while k < len(argv):
        a = argv[k]
        if a.startswith("-"):
            if (a in skip_values or (len(a) > 1 and a[-1] in "rdt" and not a.startswith("--") and
                                     cmd.name == "touch")) and "=" not in a:
                k += 1
            k += 1
            continue
        path = (resolve_path(a, cmd.cwd or None) or a).lower()
        if _STARTUP_FILE.search(path):
            out.append(a)
        k += 1
    return out


def timestomp(cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """`touch -r OTHER`, `-d DATE` or `-t STAMP` on a start-up or schedule file (rc.local, a cron table, a
    systemd unit, a launch agent, a shell's start-up file): its change is given an old date so that no one
    looking for what changed finds it (ATT&CK T1070.006). A project file given a date passes."""
    if not any(_TOUCH_TIME.match(a) for a in cmd.argv[1:]):
        return
    hit = _startup_targets(cmd, frozenset({"-r", "--reference", "-d", "--date", "-t"}))
    if hit:
        add(Finding("block.shell.anti-forensics", Risk.CRITICAL,
                    f"touch gives {hit[0]}, a file that runs at start-up or on a schedule, a date of its choosing: "
                    f"the change is hidden from whoever looks for recent ones{where}", cmd.span))


_ADDS_WRITE = re.compile(r"^(?:[ugoa]*[+=][rwxXst]*w[rwxXst]*)(?:,[ugoa]*[-+=][rwxXst]*)*$|"
                         r"^[ugoa]*[-+=][rwxXst]*(?:,[ugoa]*[+=][rwxXst]*w[rwxXst]*)+$")
_GROUP_OTHER_WRITE = re.compile(r"^[0-7]?[0-7][2367][0-7]$|^[0-7]?[0-7][0-7][2367]$")


def schedule_opened(cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """chmod that makes a system cron table, rc file, init script or unit writable (`chmod +w
    /var/spool/cron/crontabs/root`, `chmod 666 /etc/rc.local`, `chmod -R o+w /etc/cron.d`): the next writer's
    command runs as root at boot or on schedule. Owner-only modes (`644`, `u+x`) and the person's own start-up
    files are left to the other rules."""
    mode = next((a for a in cmd.argv[1:] if _ADDS_WRITE.match(a) or _GROUP_OTHER_WRITE.match(a)), None)
    if mode is None:
        return
    hit = [a for a in _startup_targets(cmd, frozenset({"--reference"})) if a != mode and
           not (resolve_path(a, cmd.cwd or None) or a).startswith(("/home/", "/users/", "~"))]
    if hit:
        add(Finding("block.shell.insecure-permissions-root", Risk.CRITICAL,
                    f"chmod {mode} makes {hit[0]}, a file the system runs at start-up or on a schedule, writable: "
                    f"whatever is written there next runs with the system's rights{where}", cmd.span))


# web roots: a file written there is served, and a .php, .jsp or .asp one is run by the server
_WEB_ROOT = re.compile(r"^/(?:var/www|srv/www|srv/http|usr/share/nginx|usr/local/apache2?/htdocs|opt/lampp/htdocs|"
                       r"inetpub/wwwroot|var/lib/tomcat\d*/webapps)(?:/|$)|/(?:htdocs|public_html|wwwroot|webapps)/|"
                       r"\.(?:php\d?|phtml|jsp|jspx|aspx?|ashx|asmx|cgi|pl)$")
# mail programs' options that log every message they pass (its text as written) into a file
_MAIL_LOGS = {"sendmail": ("-X",), "exim": ("-oX",), "msmtp": ("--logfile", "-X"), "ssmtp": (),
              "postfix": ()}


def mail_log_planted(cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """sendmail's `-X FILE` (msmtp's `--logfile`) writes every message it handles, as written, into FILE: aimed
    into a web root or at a page the server runs (`-X/var/www/html/x.php`), the message's text becomes a page
    that runs; aimed at a start-up file, a command that runs at log-in (a web shell or start-up hook planted)."""
    flags = _MAIL_LOGS.get(cmd.name, ())
    argv = list(cmd.argv[1:])
    for k, a in enumerate(argv):
        value = ""
        for f in flags:
            if a == f and k + 1 < len(argv):
                value = argv[k + 1]
            elif a.startswith(f + "=") or (a.startswith(f) and len(a) > len(f) and not f.startswith("--")):
                value = a[len(f):].lstrip("=")
        if not value:
            continue
        path = (resolve_path(value, cmd.cwd or None) or value).lower()
        if _WEB_ROOT.search(path) or _STARTUP_FILE.search(path):
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"{cmd.name} logs every message it passes into {value}, a page the web server runs or a file "
                        f"that runs at start-up: the message's text is planted there as code{where}", cmd.span))
            return


PLANTING_NAMES = frozenset({"touch", "chmod", *_MAIL_LOGS})


# -- remote tunnels registered to start with the machine ---------------------------------------------------
# tunnel clients with a verb that installs them as a service (or, for VS Code, accepts its terms unattended so
# that the tunnel comes up with no one at the screen)
TUNNEL_CLIENTS = frozenset({"code", "code-insiders", "code-tunnel", "cloudflared", "ngrok", "loclx", "localxpose",
                             "zrok", "frpc", "bore", "devtunnel", "pinggy", "tunnelto", "expose", "localtunnel"})


def tunnel_service(cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """A remote tunnel registered as a service (`code tunnel service install`, `cloudflared service install
    TOKEN`, `ngrok service install`, `loclx service install`) or opened unattended (`code tunnel
    --accept-server-license-terms`): a way into this machine from anywhere that comes back at every start
    (ATT&CK T1572 with T1543). A one-off tunnel the person watches asks through the other rules."""
    words = [w.lower() for w in cmd.argv[1:]]
    plain = [w for w in words if not w.startswith("-")]
    service = any(plain[k:k + 2] == ["service", "install"] for k in range(len(plain)))
    unattended = cmd.name.startswith("code") and "tunnel" in plain and "--accept-server-license-terms" in words
    if (service and (cmd.name not in ("code", "code-insiders") or "tunnel" in plain)) or unattended:
        how = "installs it as a service that starts with the machine" if service else \
            "accepts its terms unattended, so it opens with no one at the screen"
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{cmd.name} sets up a remote tunnel into this machine and {how}{where}", cmd.span))


# PowerShell's ways to set a file's times: the item's properties assigned, or set by name
_PS_TIME_SET = re.compile(r"\.(?:creationtime|lastwritetime|lastaccesstime)(?:utc)?\s*=(?!=)|"
                          r"-name\s+['\"]?(?:creationtime|lastwritetime|lastaccesstime)(?:utc)?\b", re.I)
_WIN_STARTUP_FILE = re.compile(r"/start menu/programs/startup/|/windows/system32/tasks/|/windows/tasks/|"
                               r"/windows/system32/grouppolicy/.*/scripts/")
PS_ITEM_NAMES = frozenset({"get-item", "gi", "get-childitem", "gci", "set-itemproperty", "sp", "dir", "ls"})


def ps_timestomp(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """PowerShell giving a file that runs at log-in or on a schedule (the Startup folder's, a scheduled task's
    file) a time of its choosing: `(Get-Item X).LastWriteTime = '...'`, `Set-ItemProperty X -Name CreationTime`
    (ATT&CK T1070.006), judged as `touch -r` on a start-up file is."""
    if not _PS_TIME_SET.search(analysis.source):
        return
    for a in cmd.argv[1:]:
        path = a.strip("'\"").replace("\\", "/").replace("`", "").lower()
        if _WIN_STARTUP_FILE.search(path) or _STARTUP_FILE.search(path):
            add(Finding("block.shell.anti-forensics", Risk.CRITICAL,
                        f"{cmd.name} gives {a}, a file that runs at log-in or on a schedule, a time of its choosing: "
                        f"the change is hidden from whoever looks for recent ones{where}", cmd.span))
            return


# -- Windows autostart set up the way attackers do (ATT&CK T1543.003, T1053.005, T1547.001) ---------------------
# what a service, task or Run key starts: judged by the program it names and the words around it
_INSTALLED = re.compile(r"^[\"']?(?:[a-z]:\\|%systemdrive%\\)?(?:program files(?: \(x86\))?|windows)\\|"
                        r"^[\"']?%(?:programfiles(?:\(x86\))?|programw6432|systemroot|windir)%\\", re.I)
_SCRIPT_FILE = re.compile(r"\.(?:cmd|bat|ps1|psm1|vbs|vbe|js|jse|wsf|wsh|hta|sct)(?=$|[\s\"'])", re.I)
# programs that run whatever text or script they are handed (shells, script hosts, signed proxies)
_LAUNCHERS = re.compile(r"^(?:cmd|powershell|powershell_ise|pwsh|wscript|cscript|mshta|rundll32|regsvr32|"
                        r"conhost|forfiles|bash|wsl|python[w3]?|pythonw|perl|ruby|node|java|javaw|msbuild|"
                        r"installutil|msiexec|bitsadmin|certutil|curl|wget)$")
_HIDDEN_RUN = re.compile(r"(?:^|\s)[-/](?:w|win|window|windowstyle)\s+(?:h|hid|hidden|1)\b|"
                         r"(?:^|\s)[-/]e(?:c|nc|ncodedcommand)?\s+[a-z0-9+/=]{8,}|\bbypass\b|\bunrestricted\b|"
                         r"\b(?:iex|invoke-expression|downloadstring|downloadfile|frombase64string)\b|"
                         r"https?://|\bvbscript:|\bjavascript:|-nop\b.*-(?:w|c|e)\b", re.I)
# a network command or another machine's share in a start-up command line
_NETWORK_RUN = re.compile(r"(?:^|[\s\"'=])\\\\(?:[\w.$-]+\\|\d{1,3}(?:\.\d{1,3}){3}\b|[\w.-]+\s)|"
                          r"\bnet1?(?:\.exe)?\s+(?:use|user|localgroup)\b|\b(?:psexec|paexec)(?:64)?(?:\.exe)?\b|"
                          r"https?://", re.I)
_SYSTEM_ACCOUNT = re.compile(r"^(?:nt authority\\)?(?:system|localsystem)$|^s-1-5-18$|^\.?\\?localsystem$", re.I)


def _single(line: str) -> str:
    """A path with its backslashes doubled, as in a script's string, read with single ones; a share's leading
    `\\\\host` kept."""
    return _DOUBLED.sub(r"\\", line)


_DOUBLED = re.compile(r"(?<=[^\s\"'=\\])\\{2,}")


def _first_program(line: str) -> tuple[str, str]:
    """The program a Windows command line starts (its base name, no .exe) and its path as written."""
    line = _single(line.strip())
    if line[:1] in "\"'":
        end = line.find(line[0], 1)
        path = line[1:end] if end > 0 else line[1:]
    elif (m := re.match(r"(?i)[^\s\"']*?[a-z]:\\.*?\.exe(?=$|\s)", line)) is not None:
        path = m.group(0)  # `C:\Program Files\Acme\a.exe -x` unquoted: the path runs to its .exe
    else:
        path = line.split()[0] if line.split() else ""
    base = path.replace("/", "\\").rsplit("\\", 1)[-1].lower().removesuffix(".exe")
    return base, path


def _refused_launch(line: str, *, task: bool = False) -> str | None:
    """Why a command line Windows starts by itself later (a Run key's value, a task's action, a service's binary)
    is one a careful person refuses, or None: another machine's share or a network command, a script, a shell or
    interpreter handed arguments (for a task: handed a hidden window, an encoded command, a policy bypass or a
    download)."""
    line = _single(line)
    text = line.strip().strip("\"'") if line.count('"') == 2 and line.strip().startswith('"') and \
        line.strip().endswith('"') else line.strip()
    if not text:
        return None
    base, path = _first_program(text)
    rest = text[len(path) + (2 if text[:1] in "\"'" else 0):].strip()
    if _NETWORK_RUN.search(text):
        return "reaches another machine (a share, a network command or a download)"
    if _SCRIPT_FILE.search(text):
        return "runs a script"
    if _LAUNCHERS.match(base) and rest and (not task or _HIDDEN_RUN.search(rest)):
        return f"starts {base} with a command of its own"
    return None


def _flag_value(words: list[str], *names: str) -> str | None:
    for k, w in enumerate(words[:-1]):
        if w.lower() in names:
            return words[k + 1]
    return None


def _service_binary(words: list[str]) -> str | None:
    for k, w in enumerate(words):
        lw = w.lower()
        if lw in ("binpath=", "-binarypathname", "-binpath", "-bin") and k + 1 < len(words):
            return words[k + 1]
        if lw.startswith("binpath=") and len(w) > 8:
            return w[8:]
        if lw.startswith("-binarypathname:"):
            return w.split(":", 1)[1]
    return None


def win_service(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """`sc create|config NAME binPath= ...` or New-Service that hosts a service library in svchost (`svchost.exe -k
    GROUP`: a DLL of its choosing run by the system's own service host), runs a shell or script, or starts at every
    boot (start= auto, New-Service's default) a program outside Program Files and Windows: a program made to run as
    SYSTEM before anyone logs in (ATT&CK T1543.003; `block.shell.malicious-persistence`). A service for a program
    under Program Files asks as any service does."""
    words = list(cmd.argv[1:])
    if cmd.name == "sc":
        if words[:1] and words[0].startswith("\\\\"):
            words = words[1:]
        if not words or words[0].lower() not in ("create", "config"):
            return
    binary = _service_binary(words)
    if not binary:
        return
    binary = _single(binary.strip())
    base, path = _first_program(binary)
    why = ""
    if base == "svchost" and re.search(r"(?:^|\s)[-/]k\s+\S", binary, re.I):
        why = "hosts a service library in svchost.exe, the system's own service host"
    elif (launch := _refused_launch(binary)) is not None and "network" not in launch:
        why = launch
    elif _NETWORK_RUN.search(binary):
        why = "reaches another machine (a share or a network command)"
    else:
        if cmd.name == "sc":
            start = (_flag_value(words, "start=") or "").lower()
            # (`type= own|share` spelled out, as service installers written by hand do; a plain `sc create NAME
            # binPath= X start= auto` for one's own server asks)
            boots = start in ("auto", "delayed-auto", "boot", "system") and \
                (_flag_value(words, "type=") or "").lower() in ("own", "share", "interact")
        else:
            named = {w.lower().lstrip("-").split(":", 1)[0]: (w.split(":", 1)[1] if ":" in w else
                                                              (words[k + 1] if k + 1 < len(words) else ""))
                     for k, w in enumerate(words) if w.startswith("-")}
            start = next((v for n, v in named.items() if len(n) >= 3 and "startuptype".startswith(n)), None)
            boots = start is None or start.lower().startswith(("auto", "boot", "system"))
        if boots and not _INSTALLED.search(path) and "\\" in path:
            why = f"starts {path} at every boot, a program outside Program Files and Windows"
    if why:
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} makes a service that {why}: it runs as SYSTEM by itself{where}", cmd.span))


def _frequent_schedule(kind: str, modifier: str | None) -> bool:
    kind = kind.lower()
    if kind in ("onlogon", "onstart", "onidle", "onevent"):
        return True
    if kind == "minute":
        return modifier is None or (modifier.isdigit() and int(modifier) <= 5)
    return False


def win_task(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """A scheduled task (`schtasks /create`, Register-ScheduledTask with New-ScheduledTaskAction) that runs as SYSTEM
    at every logon, at start-up, when idle or every few minutes, or whose action is a script or a shell or script
    host given a hidden window, an encoded command, a policy bypass or a download: a foothold that comes back by
    itself (ATT&CK T1053.005; `block.shell.malicious-persistence`). A daily task running an installed program
    asks."""
    why = ""
    if cmd.name == "schtasks":
        words = list(cmd.argv[1:])
        lowered = [w.lower() for w in words]
        if "/create" not in lowered:
            return
        action = _flag_value(words, "/tr") or ""
        account = _flag_value(words, "/ru") or ""
        kind = _flag_value(words, "/sc") or ""
        if _SYSTEM_ACCOUNT.match(account.strip()) and _frequent_schedule(kind, _flag_value(words, "/mo")):
            why = f"runs as SYSTEM {'every few minutes' if kind.lower() == 'minute' else 'at ' + kind.lower()[2:]}"
        elif action and (launch := _refused_launch(action, task=True)) is not None:
            why = launch
    elif cmd.name == "register-scheduledtask":
        text = analysis.source
        system = re.search(r"-user(?:id)?\s+['\"]?(?:nt authority\\)?(?:system|localsystem|s-1-5-18)\b", text, re.I)
        often = re.search(r"-at(?:logon|startup)\b|-repetitioninterval\s+\(?\s*(?:new-timespan\s+-minutes?\s+[1-5]\b|"
                          r"\[timespan\]::fromminutes\(\s*[1-5]\s*\))|-once\b.*-repetitioninterval", text, re.I)
        if system and often:
            why = "runs as SYSTEM at every logon or start-up"
        else:
            for m in re.finditer(r"-execute\s+(['\"]?)([^'\"\s)]+(?:\s[^'\"\s)-][^'\"\s)]*)*)\1"
                                 r"(?:\s+-argument\s+(['\"])(.*?)\3)?", text, re.I):
                line = m.group(2) + (" " + m.group(4) if m.group(4) else "")
                if (launch := _refused_launch(line, task=True)) is not None:
                    why = launch
                    break
    if why:
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} schedules a task that {why}{where}", cmd.span))


_RUN_KEY = re.compile(r"currentversion\\(?:run|runonce|runonceex|runservices|runservicesonce|"
                      r"policies\\explorer\\run)(?:\\|$)|\\winlogon$|command processor$", re.I)


def win_run_key(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """`reg add ...\\CurrentVersion\\Run(Once)` (HKLM or HKCU; Set-ItemProperty and New-ItemProperty too) whose value
    starts a shell or script host with a command of its own, a script, a program on another machine's share or a
    network command: it runs at every logon (ATT&CK T1547.001; `block.shell.malicious-persistence`). A plain
    program under Program Files asks."""
    words = list(cmd.argv[1:])
    if cmd.name == "reg":
        if not words or words[0].lower() != "add" or len(words) < 2:
            return
        key = words[1].strip("\"'").rstrip("\\")
        value = _flag_value(words, "/d") or ""
    else:
        key = next((w for w in words if "currentversion" in w.lower() or "command processor" in w.lower()),
                   "").strip("\"'").rstrip("\\")
        value = next((words[k + 1] for k, w in enumerate(words[:-1]) if len(w) > 2 and "-value".startswith(w.lower())),
                     "")
    if not key or not value or not _RUN_KEY.search(key):
        return
    why = _refused_launch(value)
    if why is not None:
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} makes Windows start at every logon a command line that {why}{where}", cmd.span))


_PSEXEC_NAMES = frozenset({"psexec", "psexec64", "paexec", "csexec", "remcom", "rexec"})


def system_detached(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """PsExec and its look-alikes run as SYSTEM (`-s`) detached (`-d`) or with the licence accepted unseen
    (`-accepteula`), by name or from a tools folder (`C:\\tools\\p.exe -accepteula -s cmd /c ...`): a SYSTEM
    process started with no window and no one watching (ATT&CK T1569.002, T1543.003)."""
    flags = {w.lower() for w in cmd.argv[1:] if w.startswith(("-", "/"))}
    if not ({"-s", "/s"} & flags and flags & {"-d", "/d", "-accepteula", "/accepteula"}):
        return
    if cmd.name not in _PSEXEC_NAMES and not ("-accepteula" in flags or "/accepteula" in flags):
        return
    add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                f"{cmd.argv[0]} runs a program as SYSTEM, detached or with its licence accepted unseen{where}",
                cmd.span))


_LOGIN_ITEM = re.compile(r"\bmake\s+(?:new\s+)?login\s+item\b", re.I)
_LOGIN_ITEM_PATH = re.compile(r"\bpath\s*:\s*\"([^\"]+)\"", re.I)
_HIDDEN_TRUE = re.compile(r"\bhidden\s*:\s*true\b", re.I)
_MAC_STAGED = re.compile(r"^(?:/tmp|/private/tmp|/var/tmp|/private/var/tmp|/users/shared)(?:/|$)|/\.[^/.][^/]*(?:/|$)",
                         re.I)


def login_item(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """osascript's `make login item ... with properties {..., hidden:true}` (the item starts with its window kept out
    of sight) or a login item whose program waits in /tmp, /Users/Shared or a hidden folder: a program made to start
    unseen at every login (ATT&CK T1547.015; `block.shell.malicious-persistence`). A plain login item asks."""
    text = " ".join(cmd.argv[1:])
    if not _LOGIN_ITEM.search(text):
        return
    path = (m.group(1) if (m := _LOGIN_ITEM_PATH.search(text)) else "")
    if _HIDDEN_TRUE.search(text):
        why = "hidden from view"
    elif path and _MAC_STAGED.search(path):
        why = f"from {path}, a temporary, shared or hidden folder"
    else:
        return
    add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                f"osascript adds a login item that starts at every login {why}{where}", cmd.span))
