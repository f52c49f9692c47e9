"""Shell checks for payloads fetched, unpacked or decoded and then loaded: what a malicious install hook or a
script run after a break-in does, judged by its effect.

- A library (`.dll`, `.so`, `.dylib`, `.node`, `.ocx`) or a file that runs when opened and that vendors do not ship
  as a download (`.scr`, `.hta`, `.cpl`, `.lnk`, `.wsf`) saved to disk by a downloader from a host that publishes
  no releases, and a program with no extension or a script saved from a bare public address: a payload waiting for
  the next step to load or run it (`block.shell.untrusted-source`; a library from a release host asks as an install,
  `confirm.shell.install`; a file from a machine on the local network is left to the other checks).
- A file saved by a downloader and then, on the same line, loaded or run by a program that loads libraries or
  packages (`regsvr32`, `rundll32`, `msiexec`, `node -e "require(...)"`, `Add-Type`, `java -jar`, `LD_PRELOAD`):
  code from the network run unseen (`block.shell.remote-code-exec`).
- A pipeline that decodes or unscrambles text into a shell or an interpreter (`base64 -d | bash`, `xxd -r -p | sh`,
  `openssl enc -d ... | bash`, `tr "A-Za-z" "N-ZA-Mn-za-m" | sh`, `printf '\\x63\\x75...' | sh`, a slice of a
  compressed test file (`head -c`, `tail -c`, `dd skip=`) decompressed into `bash`), the same decoded into the code
  argument of a runner (`eval "$(... | base64 -d)"`, `sh -c "$(...)"`, `bash <(...)`) or into a file the line then
  runs (`base64 -d > x.sh; bash x.sh`, `certutil -decode a.txt a.exe && a.exe`): what runs was written so nobody
  reading the line could tell (`block.shell.defense-evasion`). A script only decompressed into a shell (`zcat
  setup.sh.gz | sh`) or only given Unix line ends (`tr -d '\\r' < x.sh | bash`) is left to the other checks.
- A survey of the machine that ends by printing every environment variable (`hostname && whoami && id && env`):
  the first report of a stealer, whose last step hands over each token and key the environment holds
  (`confirm.shell.recon`). One command alone (`env`, `env | grep PATH`) passes.
- A bare DLL name handed to regsvr32 with its dialogs silenced, or to rundll32, that is no library of Windows:
  what loads is the file of that name in the working folder, inside a signed system program
  (`block.shell.loader-hook`; `regsvr32 /?` passes, `regsvr32 x.dll` with its dialog shown asks as before).
- .NET's `[Environment]::SetEnvironmentVariable` keeping a variable that makes programs load code (a .NET profiler,
  a Java agent, `NODE_OPTIONS`) in the user's or the machine's environment (`confirm.shell.persistence`), as the
  registry's environment key is judged (gate/rules/shell_persistence.py).
- A tool's whole configuration listed and searched for its tokens (`git config -l | grep -i extraheader`, `pip config
  list | grep password`), as reading the token by its name asks (`confirm.shell.secret-read`).
- A one-liner that loads a native module (`node -e "require('./x.node')"`, `process.dlopen`): a library's code
  runs in the interpreter (`confirm.shell.indirect-exec`); node-gyp's own build output passes.

Called per line from gate/rules/shell_harvest.py (`line`), and per command for the Windows loaders from
gate/rules/shell_windows.py (`silent_library`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.catalogue import DATA as _TABLE
from gate.model import Risk
from gate.rules.shell_effects import download_targets
from gate.shell import DOWNLOADERS, INTERPRETERS, SHELLS, Command, Finding, ShellAnalysis
from gate.urls import RELEASE_HOST

__all__ = ["line", "silent_library"]

Add = Callable[[Finding], None]

_PAYLOAD = _TABLE.get("payload", {})
# Windows' own libraries that rundll32 and regsvr32 are documented to be given by name (`rundll32 shell32.dll,...`,
# `regsvr32 /s msxml3.dll` in a repair script): these load from the system folder, not the working one
_SYSTEM_LIBRARIES = frozenset(n.lower() for n in _PAYLOAD.get("windows_system_libraries", ()))

_LIBRARY = re.compile(r"\.(?:dll|so(?:\.\d+)*|dylib|node|ocx)$", re.I)
# kinds that run when opened and that vendors do not ship as a bare download: screen savers, old program forms, HTML
# and script host files, shortcuts
_OPENS_AS_PROGRAM = re.compile(r"\.(?:scr|pif|cpl|hta|jse|vbe|wsf|wsh|lnk|url|scf|xll|iqy|settingcontent-ms)$", re.I)
_SCRIPT = re.compile(r"\.(?:sh|bash|py|pl|rb|js|mjs|php|ps1|vbs|bat|cmd|elf|x86|x64|arm\d*|mips\w*)$", re.I)
_URL_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^/@\s]*@)?(\[[0-9a-f:]+\]|[^/:?#\s]+)", re.I)
_IP = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")
# addresses of this machine and of the local network: a router's, a printer's, a build box's file
_PRIVATE_IP = re.compile(r"^(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.|0\.)")
_REMOTE_NAME = re.compile(r"^-[a-zA-Z]*O[a-zA-Z]*$")


def _base(path: str) -> str:
    return path.strip("'\"").replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower()


def _urls(cmd: Command) -> list[str]:
    return [w.strip("'\"") for w in cmd.argv[1:] if "://" in w]


def _saved(cmd: Command, urls: list[str]) -> list[str]:
    """The files a downloader writes: named by an option or a redirect, or the address's own name (`-O`, wget)."""
    targets = download_targets(cmd) + [t for op, t in cmd.redirects if op in (">", ">|")]
    if not targets and (cmd.name in ("wget", "wget2", "aria2c", "fetch") or
                        any(a in ("--remote-name", "--remote-name-all") or _REMOTE_NAME.match(a)
                            for a in cmd.argv[1:])):
        targets = [u.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1] for u in urls]
    return [t for t in targets if t and t not in ("-", "/dev/null")]


def _host(url: str) -> str:
    m = _URL_HOST.match(url)
    return m.group(1).lower() if m else ""


def _fetched(cmd: Command, where: str, add: Add) -> dict[str, str]:
    """A downloader's saved files (base name → host); files that are payloads by their kind are judged here."""
    urls = _urls(cmd)
    if not urls:
        return {}
    hosts = [h for u in urls if (h := _host(u))]
    if not hosts or all(h in ("localhost", "[::1]") or _PRIVATE_IP.match(h) for h in hosts):
        return {}
    host = hosts[0]
    saved = _saved(cmd, urls)
    for target in saved:
        name = _base(target)
        if _LIBRARY.search(name):
            if RELEASE_HOST.match(host):
                add(Finding("confirm.shell.install", Risk.MEDIUM,
                            f"{cmd.name} downloads {name[:60]}, a library: the next step loads it into a program"
                            f"{where}", cmd.span))
            else:
                add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                            f"{cmd.name} saves {name[:60]}, a library, from {host[:60]}, which publishes no releases: "
                            f"a payload waiting to be loaded into a program{where}", cmd.span))
            break
        if _OPENS_AS_PROGRAM.search(name) and not RELEASE_HOST.match(host):
            add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                        f"{cmd.name} saves {name[:60]}, a file that runs as a program when opened, from {host[:60]}: "
                        f"a kind no vendor ships as a download, a payload's{where}", cmd.span))
            break
        if _IP.match(host) and ("." not in name or _SCRIPT.search(name)):
            add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                        f"{cmd.name} saves {name[:60]}, a program or script, from the bare address {host}: no name or "
                        f"certificate vouches for what the next step runs{where}", cmd.span))
            break
    return {_base(t): host for t in saved}


# programs that load a library or a package they are given, and how the file is named to them
_LOADERS = frozenset({"regsvr32", "rundll32", "msiexec", "java", "add-type", "odbcconf", "installutil", "regasm",
                      "regsvcs", "mavinject", "cmstp", "control"})
_LOAD_CODE = re.compile(r"\brequire\s*\(|\bdlopen\b|\bimport\s*\(|ctypes|cdll|loadlibrary|assembly\]::load|"
                        r"\bload(?:file|from)?\s*\(|add-type", re.I)
_PRELOAD_VARS = ("ld_preload", "ld_audit", "dyld_insert_libraries", "dyld_library_path", "ld_library_path")


# data a program reads, not code it loads (`json.load(open('data.json'))`)
_DATA_FILE = re.compile(r"\.(?:json|ya?ml|toml|txt|csv|tsv|xml|md|html?|ini|cfg|conf|log)$", re.I)


def _loaded(cmd: Command, files: dict[str, str]) -> str | None:
    """The downloaded file `cmd` loads, or None."""
    words = [_base(w.split(",", 1)[0]) for w in cmd.argv[1:]]
    if cmd.name in _LOADERS:
        return next((w for w in words if w in files and not _DATA_FILE.search(w)), None)
    if cmd.name in INTERPRETERS or cmd.name in ("powershell", "pwsh"):
        for w in cmd.argv[1:]:
            if _LOAD_CODE.search(w):
                hit = next((f for f in files if f and f in w.lower() and not _DATA_FILE.search(f)), None)
                if hit:
                    return hit
    return None


def _downloaded_then_loaded(analysis: ShellAnalysis, add: Add) -> None:
    files: dict[str, str] = {}
    for cmd in analysis.commands:
        if cmd.name in DOWNLOADERS:
            files.update(_fetched(cmd, "", add))
            continue
        if not files:
            continue
        hit = _loaded(cmd, files)
        if hit is None:
            continue
        add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                    f"{cmd.name} loads {hit[:60]}, which this line downloaded from {files[hit][:60]}: code from the "
                    f"network run inside a program, unseen", cmd.span))
        return
    if files:
        low = analysis.source.lower()
        for var in _PRELOAD_VARS:
            at = low.find(var + "=")
            if at >= 0 and any(f and f in low[at:at + 200].split()[0] for f in files):
                add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                            f"{var.upper()} makes a program load a library this line downloaded: code from the "
                            f"network run inside it, unseen", analysis.source[:80]))
                return


# -- decoded into a shell -----------------------------------------------------------------------------------------

_STDIN_RUNNERS = frozenset({*SHELLS, "python", "python2", "python3", "perl", "ruby", "node", "php", "pwsh",
                            "powershell", "iex", "invoke-expression", "lua", "tclsh", "osascript"})
_DECOMPRESSORS = frozenset({"xz", "unxz", "xzcat", "lzma", "unlzma", "lzcat", "gzip", "gunzip", "zcat", "bzip2",
                            "bunzip2", "bzcat", "zstd", "unzstd", "zstdcat", "lz4", "unlz4", "brotli", "lzip"})
_SLICERS = frozenset({"head", "tail", "dd", "cut"})
_DECODE_FLAG = re.compile(r"^(?:-d|-D|--decode|-r|-revert|-dc|-cd|-[a-z]*d[a-z]*)$")


def _decoder(cmd: Command) -> str | None:
    """What `cmd` does to the text it passes on, when that is decoding or unscrambling it."""
    words = list(cmd.words[1:])
    if cmd.name in ("base64", "base32", "basenc", "b64decode", "gbase64") and \
            any(_DECODE_FLAG.match(w) for w in words):
        return f"{cmd.name} decoding"
    if cmd.name == "xxd" and any(w in ("-r", "-revert") or (w.startswith("-r") and len(w) <= 4) for w in words):
        return "xxd reversing a hex dump"
    if cmd.name == "openssl" and (words[:1] in (["base64"], ["enc"]) or any(w.startswith("-aes") or
                                                                           w.startswith("-des") for w in words)) \
            and "-d" in words:
        return "openssl decrypting or decoding"
    if cmd.name in ("uudecode", "rev"):
        return f"{cmd.name} decoding"
    if cmd.name in ("printf", "echo") and len(_BYTE_ESCAPE.findall(" ".join(cmd.argv[1:]))) >= 4:
        return f"{cmd.name} spelling out bytes"
    if cmd.name == "certutil" and any(w in ("-decode", "-decodehex", "/decode", "/decodehex") for w in words):
        return "certutil decoding"
    if cmd.name == "tr":
        sets = [w for w in words if not w.startswith("-")]
        if len(sets) >= 2 and not any(w.startswith("-") and "d" in w for w in words) and sets[0] != sets[1]:
            return "tr swapping characters"
    return None


_BYTE_ESCAPE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|[0-7]{3}|u[0-9a-fA-F]{4})")
_RUNS_ARGUMENT = frozenset({"eval", "source", ".", "iex", "invoke-expression"})


def _written(cmd: Command) -> list[str]:
    """The files a decoding command writes what it decodes into (a redirect, `-o`, `-out`, a last operand)."""
    out = [t for op, t in cmd.redirects if op in (">", ">|", ">>")]
    argv = cmd.argv
    out += [argv[k + 1] for k, a in enumerate(argv[:-1]) if a in ("-o", "--output", "-out")]
    ops = [a for a in argv[1:] if not a.startswith(("-", "/"))]
    if (cmd.name in ("xxd", "certutil") or (cmd.name == "openssl" and "-in" not in argv)) and len(ops) >= 2:
        out.append(ops[-1])
    return [_base(t) for t in out if t and t != "/dev/null"]


def _runs_file(cmd: Command, files: dict[str, str]) -> str | None:
    """The decoded file `cmd` runs: as its program, or as the script or library it hands a runner."""
    if _base(cmd.argv[0]) in files:
        return _base(cmd.argv[0])
    if cmd.name in _STDIN_RUNNERS or cmd.name in _LOADERS or cmd.name in ("start", "start-process", "cscript",
                                                                          "wscript", "mshta", "chmod"):
        return next((b for a in cmd.argv[1:] if (b := _base(a.split(",", 1)[0])) in files), None)
    return None


def _takes_stdin(cmd: Command) -> bool:
    """A shell or interpreter that reads its program from what the pipe hands it (no script operand, or `-`)."""
    if cmd.name in ("iex", "invoke-expression"):
        return True
    ops = [a for a in cmd.argv[1:] if not a.startswith("-") or a == "-"]
    flags = set(cmd.argv[1:])
    return not ops or ops[:1] == ["-"] or "-s" in flags or "-" in flags


def _code_argument(cmd: Command) -> bool:
    """A runner whose code is an argument: `eval "$(...)"`, `sh -c "$(...)"`, `bash <(...)`, `python3 -c "$(...)"`."""
    return cmd.name in _RUNS_ARGUMENT or any(a in ("-c", "-e", "-r", "--eval", "-command", "-Command") or
                                             a.startswith("/dev/fd/") for a in cmd.argv[1:])


def _decoded_into_shell(analysis: ShellAnalysis, add: Add) -> None:
    cmds = analysis.commands
    decoded_files: dict[str, str] = {}
    for cmd in cmds:
        if decoded_files and (ran := _runs_file(cmd, decoded_files)) is not None:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{cmd.name} runs {ran[:60]}, which {decoded_files[ran]} wrote on this line: code hidden so "
                        f"that nobody reading the line can tell what runs", cmd.span))
            return
        if (how := _decoder(cmd)) is not None:
            decoded_files.update(dict.fromkeys(_written(cmd), how))
        if cmd.name not in _STDIN_RUNNERS and cmd.name not in _RUNS_ARGUMENT:
            continue
        if cmd.upstream and _takes_stdin(cmd):
            feeding = [cmds[i] for i in cmd.upstream]
        elif cmd.subst and _code_argument(cmd):
            feeding = [cmds[i] for i in cmd.subst]
        else:
            continue
        decoded = next((d for c in feeding if (d := _decoder(c))), None)
        unpacked = any(c.name in _DECOMPRESSORS or (c.name == "tar" and "-O" in c.argv) for c in feeding)
        sliced = any(c.name in _SLICERS and any(w.startswith(("-c", "--bytes", "skip=", "bs=", "-b")) for w in
                                                c.words[1:]) for c in feeding)
        if decoded is None and not (unpacked and sliced):
            continue
        how = decoded or "a slice of a compressed file, decompressed"
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} runs what {how} produces: code hidden so that nobody reading the line can tell what "
                    f"runs", cmd.span))
        return


# -- a survey of the machine that ends with the whole environment ---------------------------------------------------

# who and where the machine is (its user, its name, its addresses, its accounts and neighbours): a system check of disk,
# memory and load is left out (`uname -a && df -h && env` is a build log's header)
_SURVEY = frozenset(_PAYLOAD.get("survey", ()))
_ENV_DUMPS = frozenset({"env", "printenv", "export", "declare", "set", "get-childitem", "gci", "dir", "ls"})
# what may read the dump and still show all of it
_SHOWS_ALL = frozenset({"sort", "less", "more", "cat", "tee", "column", "base64", "out-string", "format-table",
                        "ft", "format-list", "fl", "sort-object"})


def _whole_environment(cmd: Command, analysis: ShellAnalysis) -> bool:
    """`env`, `printenv`, `export -p`, `declare -x`, `set`, `Get-ChildItem env:` with nothing narrowing it."""
    words = list(cmd.words[1:])
    name = cmd.name
    if name in ("env", "printenv"):
        dump = not words or words in (["-0"], ["--null"])
    elif name == "export":
        dump = words in ([], ["-p"])
    elif name == "declare":
        dump = words in (["-x"], ["-p"], ["-px"], ["-xp"])
    elif name == "set":
        dump = not words
    elif name in ("get-childitem", "gci", "dir", "ls"):
        dump = len(words) == 1 and words[0].rstrip("\\/") in ("env:", "env:*")
    else:
        return False
    if not dump:
        return False
    me = next((i for i, c in enumerate(analysis.commands) if c is cmd), -1)
    readers = [c for c in analysis.commands if me in c.upstream]
    return all(c.name in _SHOWS_ALL for c in readers)


def _survey_name(cmd: Command) -> str | None:
    first = next((w for w in cmd.words[1:] if not w.startswith("-")), "")
    for key in (f"{cmd.name} {first}".strip(), cmd.name):
        if key in _SURVEY:
            return key
    return None


def _survey_then_environment(analysis: ShellAnalysis, add: Add) -> None:
    cmds = analysis.commands
    if len(cmds) < 3:
        return
    dump = next((c for c in cmds if c.name in _ENV_DUMPS and _whole_environment(c, analysis)), None)
    if dump is None:
        return
    seen = {n for c in cmds if c is not dump and (n := _survey_name(c)) is not None and
            not (c.name in _ENV_DUMPS and _whole_environment(c, analysis))}
    if len(seen) >= 2:
        add(Finding("confirm.shell.recon", Risk.HIGH,
                    f"surveys the machine ({', '.join(sorted(seen)[:4])}) and then prints every environment variable: "
                    f"the report a stealer sends first, with each token and key the environment holds", dump.span))


# -- a native module loaded by a one-liner --------------------------------------------------------------------------

_NATIVE_LOAD = re.compile(r"(?:require|dlopen)\s*\(\s*(?:[^)]*,\s*)?(['\"`])"
                          r"(?P<path>[^'\"`]+\.(?:node|so|dylib|dll))\1", re.I)
# node-gyp's and cmake-js's own build output: the project's addon tested after it is built
_OWN_BUILD = re.compile(r"^(?:\./)?build/(?:Release|Debug)/", re.I)


def _native_module(cmd: Command, add: Add) -> None:
    code_flags = INTERPRETERS.get(cmd.name, ())
    argv = cmd.argv
    for k, a in enumerate(argv[1:-1], 1):
        if a not in code_flags:
            continue
        m = _NATIVE_LOAD.search(argv[k + 1])
        if m and not _OWN_BUILD.match(m.group("path")):
            add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                        f"{cmd.name} loads {m.group('path')[:60]}, a native library: its code runs inside the "
                        f"interpreter", cmd.span))
            return


# -- regsvr32 and rundll32 given a library of the working folder ---------------------------------------------------

_SILENT = frozenset({"/s", "-s"})


def silent_library(cmd: Command, where: str, add: Add) -> None:
    """regsvr32 / rundll32 given a bare library name that no Windows library has (module docstring)."""
    args = list(cmd.argv[1:])
    words = [a for a in args if not a.startswith(("/", "-"))]
    if not words:
        return
    lib = words[0].split(",", 1)[0].strip("'\"")
    if not lib or any(ch in lib for ch in "\\/:%$") or (not _LIBRARY.search(lib) and not lib.lower().endswith(".cpl")):
        return
    if lib.lower() in _SYSTEM_LIBRARIES or lib.lower().rsplit(".", 1)[0] in _SYSTEM_LIBRARIES:
        return
    silent = cmd.name == "rundll32" or any(a.lower() in _SILENT for a in args)
    if silent:
        add(Finding("block.shell.loader-hook", Risk.CRITICAL,
                    f"{cmd.name} loads {lib[:60]} from the working folder, no library of Windows"
                    f"{', its dialogs silenced' if cmd.name == 'regsvr32' else ''}: a payload's code run inside a "
                    f"signed system program{where}", cmd.span))


# -- a loader variable kept in the user's or the machine's environment by .NET ---------------------------------------

_SET_ENV = re.compile(r"\[(?:system\.)?environment\]::setenvironmentvariable\s*\(\s*['\"](?P<name>[\w.]+)['\"]\s*,"
                      r"\s*(?P<value>['\"][^'\"]*['\"]|\$\w+)\s*(?:,\s*(?P<scope>[^)]*))?\)", re.I)
_HOOK_VARIABLES = frozenset({"cor_enable_profiling", "cor_profiler", "cor_profiler_path", "cor_profiler_path_32",
                             "cor_profiler_path_64", "coreclr_enable_profiling", "coreclr_profiler",
                             "coreclr_profiler_path", "dotnet_startup_hooks", "pythonstartup", "ld_preload",
                             "dyld_insert_libraries", "bash_env"})
# variables of options, by the options among them that load code (a memory limit passes)
_HOOK_OPTIONS = {"node_options": re.compile(r"--require|(^|\s)-r\s|--import|--(experimental-)?loader", re.I),
                 "java_tool_options": re.compile(r"javaagent|agentpath|agentlib|bootclasspath", re.I),
                 "_java_options": re.compile(r"javaagent|agentpath|agentlib|bootclasspath", re.I),
                 "jdk_java_options": re.compile(r"javaagent|agentpath|agentlib|bootclasspath", re.I),
                 "perl5opt": re.compile(r"(^|\s)-[a-z]*[mde]", re.I), "rubyopt": re.compile(r"(^|\s)-[a-z]*[re]", re.I)}


def _environment_kept(analysis: ShellAnalysis, add: Add) -> None:
    """`[Environment]::SetEnvironmentVariable('COR_PROFILER_PATH', 'C:\\x\\p.dll', 'User')`: a variable that makes
    programs load code, kept for every program the person (or, with 'Machine', everyone) starts from now on, as
    `reg add HKCU\\Environment` and `setx` of it are judged (`confirm.shell.persistence`)."""
    for m in _SET_ENV.finditer(analysis.source):
        scope = (m.group("scope") or "").lower()
        name = m.group("name").lower()
        options = _HOOK_OPTIONS.get(name)
        hook = name in _HOOK_VARIABLES or (options is not None and options.search(m.group("value")) is not None)
        if hook and ("user" in scope or "machine" in scope):
            add(Finding("confirm.shell.persistence", Risk.HIGH,
                        f"keeps {m.group('name')} in the {'machine' if 'machine' in scope else 'user'}'s environment: "
                        f"every program started from now on loads the code it names", m.group(0)[:120]))
            return


# -- a tool's whole configuration searched for its tokens ----------------------------------------------------------

_FILTERS = frozenset({"grep", "egrep", "rg", "findstr", "select-string", "sls", "awk", "sed", "ag"})
_CONFIG_TOOLS = frozenset({"git", "npm", "pnpm", "yarn", "pip", "pip3", "poetry", "composer", "conda", "gh", "glab",
                           "cargo", "bundle", "gem", "helm", "docker"})
_LISTING = frozenset({"-l", "--list", "list", "ls", "show", "--show", "get", "--get-regexp", "view"})
_SECRET_WORD = re.compile(r"extraheader|credential|token|auth|passw|secret|bearer|api.?key", re.I)


def _config_searched(analysis: ShellAnalysis, add: Add) -> None:
    """`git config -l | grep -i extraheader`, `pip config list | grep password`: a tool's settings listed whole and
    searched for the token it keeps, as `git config --get http.*.extraheader` reads it by name
    (`confirm.shell.secret-read`)."""
    cmds = analysis.commands
    for cmd in cmds:
        if cmd.name not in _FILTERS or not cmd.upstream:
            continue
        if not any(_SECRET_WORD.search(w) for w in cmd.argv[1:] if not w.startswith("/") or cmd.name == "findstr"):
            continue
        lister = next((cmds[i] for i in cmd.upstream if cmds[i].name in _CONFIG_TOOLS and
                       "config" in cmds[i].words[1:3] and any(w in _LISTING for w in cmds[i].words[2:])), None)
        if lister is not None:
            add(Finding("confirm.shell.secret-read", Risk.HIGH,
                        f"{cmd.name} picks the tokens or credentials out of {lister.name}'s whole configuration",
                        cmd.span))
            return


def line(analysis: ShellAnalysis, add: Add) -> None:
    """The checks above, for a line (module docstring)."""
    low = analysis.source.lower()
    if "://" in low:
        _downloaded_then_loaded(analysis, add)
    if "|" in low or "$(" in low or "<(" in low or ">" in low or "decode" in low:
        _decoded_into_shell(analysis, add)
    if len(analysis.commands) >= 3:
        _survey_then_environment(analysis, add)
    if "setenvironmentvariable" in low:
        _environment_kept(analysis, add)
    if "config" in low and "|" in low:
        _config_searched(analysis, add)
    for cmd in analysis.commands:
        if cmd.name in ("node", "nodejs", "bun", "deno") and len(cmd.argv) > 2:
            _native_module(cmd, add)
