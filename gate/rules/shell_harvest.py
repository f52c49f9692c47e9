"""Shell checks: secrets harvested across a machine, and a phishing kit operated.

Secret harvesting (ATT&CK T1552.001, T1005, with T1567 when it leaves):

- a coding assistant started unattended (approvals off: `--dangerously-skip-permissions`, `--yolo`,
  `--trust-all-tools`, `--full-auto`, or a one-shot prompt: `-p`, `exec`, `run`, `--no-interactive`) whose prompt
  asks it to find, list or collect credentials, keys, wallets, tokens or environment files across the file
  system or the home folder: the prompt is the payload, the assistant its hands (`block.shell.credential-dump`);
- a recursive search (grep -r, rg, ag, ack, ugrep, findstr /s, Select-String -Recurse, mdfind, or grep run on
  what a find of the tree hands it) for a token's issuer prefix or a secret's name (`github_pat_`, `ghp_`,
  `AKIA`, `sk-`, `xox`, `BEGIN ... PRIVATE KEY`, `password=`, `API_KEY`) over a home folder, every user's homes
  or the root (`block.shell.credential-read`); the same over a project is left to the search rule, which asks;
- a file named for passwords, keys or bank details, or an agent's MCP settings, uploaded by a web client
  (`curl -F f=@~/.cursor/mcp.json`) (`block.shell.exfiltration`);
- a secret scanner (trufflehog, gitleaks, noseyparker, detect-secrets, ggshield, kingfisher) pointed at a home,
  every user's homes or the root with its findings saved to a file, printed as JSON for a program to collect, or
  tried live against their services (`--only-verified`): the secrets it finds gathered in one place
  (`block.shell.credential-read`; printed for a person it asks, over the project it passes as before);
- a repository made on the same line and a file's content pushed into it through the contents API
  (`gh repo create X --public && gh api -X PUT repos/.../contents/...`), or content encoded twice over:
  harvested data published (`block.shell.exfiltration`);
- a package runner (npx, npm exec, pnpm dlx, yarn dlx, bunx) told to run a package straight from a git commit
  (`github:owner/repo#<sha>`) without asking (`-y`, `--yes`): code no registry reviewed, from a commit that may
  belong to no branch (`block.shell.remote-code-exec`; without the commit pin or the yes it asks as an
  install does).

A phishing kit operated (zphisher, blackeye, shellphish, evilginx, gophish, SET, modlishka):

- its pages served: a local web server (`php -S`, `python -m http.server`, `http-server`, `ruby -run -e httpd`)
  in a kit's folder (`.server/www`, `.sites/`, a folder named for a kit) (`block.shell.attack-tool`);
- the tunnel's address shortened through a shortener's API (`is.gd/create.php?url=https://x.trycloudflare.com`):
  the link the kit sends to its victims (`block.shell.attack-tool`);
- its captured credentials read, copied or appended (`usernames.txt`, `ip.txt` in a kit's folder, evilginx's
  `data.db`, SET's reports, a harvester's log) (`block.shell.credential-read`; a capture file's name in an `auth/`
  folder only asks);
- a reverse proxy run with a phishing domain and the target's login parameters (`./proxy -target
  https://login.example -phishingDomain example.test -credParams ...`) (`block.shell.attack-tool`);
- the kit built from its source (`go build -o evilginx`, `docker build -t gophish`) (`confirm.shell.attack-tool-
  download`, as fetching it asks).

Files whose name says they hold secrets or money data (`bank_account.txt`, `ssh_info.txt`, `passwörter.txt`,
`密码.txt`) and coding agents' MCP settings that keep tokens (`~/.cursor/mcp.json`, `claude_desktop_config.json`)
shown by a reader (`cat`, `less`, `head`) ask as a secret read does (`confirm.shell.secret-read`); the names are
resources/secrets.toml `[file-names]`, read by gate/sensitive.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote

from gate.model import Risk
from gate.prefix import Guarded, literals
from gate.rules import shell_backup_wipe, shell_engine_host, shell_hiding, shell_payload, shell_spawns, shell_tls
from gate.sensitive import agent_token_file, captured_credentials, secret_file_name
from gate.shell import Command, Finding, ShellAnalysis, resolve_path

__all__ = ["CUES", "line"]

Add = Callable[[Finding], None]

# -- coding assistants run unattended with a harvesting prompt -------------------------------------------------------

_ASSISTANTS = frozenset({"claude", "codex", "gemini", "qwen", "q", "kiro-cli", "cursor-agent", "opencode", "amp",
                         "crush", "aider", "goose", "copilot", "auggie", "droid", "cline", "plandex", "openhands",
                         "cn", "kimi", "iflow", "trae", "warp", "qodo", "letta", "continue"})
# switches that turn every approval off, and the one-shot modes that run a prompt with no one at the keyboard
_UNATTENDED_FLAGS = re.compile(
    r"^(--dangerously-skip-permissions|--allow-dangerously-skip-permissions|--dangerously-bypass-approvals-and-"
    r"sandbox|--yolo|-y|--full-auto|--trust-all-tools|--allow-all-tools|--allow-all|--yes|--yes-always|--force|-f|"
    r"--dangerously-allow-all|--skip-permissions-unsafe|--auto-approve|--no-confirm|-p|--print|--prompt|-x|"
    r"--execute|--no-interactive|--non-interactive|--headless|-m|--message|--instructions|-t|--text|"
    r"--approval-mode(=yolo)?|--permission-mode(=bypasspermissions)?)$", re.I)
_ONE_SHOT_VERBS = frozenset({"exec", "run", "e"})
# what the prompt asks for: finding, listing or gathering
_HARVEST_VERB = re.compile(
    r"\b(find|search|scan|locate|look(ing)? (for|through|in|into|at)|go(ing)? through|hunt|collect|gather|harvest|"
    r"inventor(y|ies)|enumerate|list|extract|dump|grab|exfiltrate|upload|send|copy|crawl|walk|sweep|catalog(ue)?|"
    r"identify|discover|check|read|print|show|record|report|save|write)\w*|"
    r"\b(finde|suche|durchsuche|sammle|liste)\w*|\b(trouve|cherche|recherche|collecte|rassemble|r[ée]cup[èée]re)\w*|"
    r"\b(busca|encuentra|recopila|re[úu]ne|localiza|rastrea)\w*|\b(procur[ae]|encontr[ae]|colet[ae]|localiz[ae])\w*|"
    r"\b(trova|cerca|raccogli|individua)\w*|\b(zoek|vind|verzamel)\w*|"
    r"查找|搜索|收集|找到|扫描|找出|探して|検索|収集|見つけ|スキャン", re.I)
# what it is to find: secrets by their names, key and wallet files, environment files
_SECRET_OBJECT = re.compile(
    r"\b(credentials?|secrets?|tokens?|api[ _-]?keys?|access[ _-]?keys?|passwords?|passphrases?|private[ _-]?keys?|"
    r"ssh[ _-]?keys?|id_rsa|id_ed25519|keystores?|keychains?|wallets?|seed[ _-]?phrases?|recovery[ _-]?phrases?|"
    r"mnemonics?|cookies|session[ _-]?tokens?|auth[ _-]?tokens?|npmrc|netrc|kubeconfig|"
    r"environment(-definition|-variable)?[ _-]?files?|env[ _-]?files?|dotenv)\b|\*?\.env\b|\.aws\b|\.ssh\b|"
    r"\b(passw[oö]rt(er)?|zugangsdaten|schl[üu]ssel|mots? de passe|identifiants|cl[ée]s|contrase[ñn]as?|"
    r"credenciales|claves|senhas?|credenciais|chaves|credenziali|chiavi|wachtwoorden|inloggegevens|sleutels|"
    r"portefeuilles?|carteiras?|billeteras?)\b|密码|密钥|凭证|凭据|令牌|钱包|助记词|私钥|パスワード|認証情報|秘密鍵|"
    r"トークン|ウォレット", re.I)
# what no coding task needs: the keys to money and logins by themselves
_STRONG_OBJECT = re.compile(r"\b(wallets?|seed[ _-]?phrases?|recovery[ _-]?phrases?|mnemonics?|private[ _-]?keys?|"
                            r"ssh[ _-]?keys?|id_rsa|keystores?|keychains?)\b|钱包|助记词|私钥|秘密鍵|ウォレット", re.I)
# where: the whole machine, a home, every folder
_WIDE_SCOPE = re.compile(
    r"\b(file ?system|entire (disk|drive|system|machine|computer|home)|whole (disk|drive|system|machine|computer|"
    r"home)|(this|the|my|user'?s?|victim'?s?) (machine|computer|laptop|host|disk|drive|hard drive)|home (directory|"
    r"folder|dir)|(all|every) (users?|drives?|disks?|volumes?|home (directories|folders))|root directory|"
    r"system[- ]wide|across the (system|machine|computer|disk))\b|"
    r"(^|[\s'\"(])(/|~/?|\$home|/home|/users|/root|c:\\?)(?=[\s'\",.)]|$)|"
    r"\b(dateisystem|festplatte|gesamte[ns]? system|syst[èe]me de fichiers|disque|sistema de arquivos|"
    r"sistema de archivos|disco|bestandssysteem)\b|文件系统|整个|磁盘|ファイルシステム|ディスク全体",
    re.I)
# where the findings go: a file in a temporary folder, or a request out
_TAKEN = re.compile(r"/tmp/|/dev/shm/|\b(upload|send|post|exfiltrate)\w* (them|it|all|everything|the (list|results?|"
                    r"paths|files|findings))\b|\b(webhook|pastebin|exfiltrat\w*)\b", re.I)


def _prompt(cmd: Command) -> tuple[bool, str]:
    """(started unattended, the prompt's text) of a coding assistant's command line."""
    words = list(cmd.argv[1:])
    unattended = any(_UNATTENDED_FLAGS.match(w.split("=", 1)[0] if w.startswith("--") and "=" in w and
                                             not w.lower().startswith(("--approval-mode", "--permission-mode"))
                                             else w) for w in words)
    unattended = unattended or bool(words and words[0] in _ONE_SHOT_VERBS) or \
        (cmd.name == "q" and "chat" in words[:1] and "--no-interactive" in words)
    text = " ".join(w for w in words if not w.startswith("-") or " " in w)
    return unattended, text


def _assistant_harvest(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    unattended, text = _prompt(cmd)
    # a prompt handed over on standard input: a here-document, or what echo, printf or cat of a literal pipes in
    piped = [cmd.stdin_text or ""] + [" ".join(analysis.commands[i].argv[1:]) for i in cmd.upstream
                                      if analysis.commands[i].name in ("echo", "printf", "cat")]
    text = " ".join([text, *(p for p in piped if p)])
    if len(text) < 12 or not _HARVEST_VERB.search(text):
        return
    thing = _SECRET_OBJECT.search(text)
    if thing is None:
        return
    wide = _WIDE_SCOPE.search(text)
    if not (wide or _STRONG_OBJECT.search(text) or _TAKEN.search(text)):
        return
    if unattended:
        add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                    f"starts {cmd.name} unattended with a prompt that asks it to find {thing.group(0)[:40]}"
                    f"{' across ' + wide.group(0).strip()[:30] if wide else ''}: a secret harvest run by a coding "
                    f"assistant{where}", cmd.span))
    else:
        add(Finding("confirm.shell.credential-search", Risk.HIGH,
                    f"asks {cmd.name} to find {thing.group(0)[:40]} across the machine{where}", cmd.span))


# -- a recursive search for tokens and secrets over a home or the root ---------------------------------------------

_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "rga", "ag", "ack", "ugrep", "findstr",
                        "select-string", "sls", "mdfind", "ggrep"})
_ALWAYS_RECURSIVE = frozenset({"rg", "rga", "ag", "ack", "ugrep", "mdfind"})
# what is searched for: a token issuer's prefix, a PEM key's armour, a secret's name (with `=` or `:` after it)
_SECRET_PATTERN = re.compile(
    r"github_pat_|gh[pousr]_|glpat-|\bakia|\basia|(^|[^a-z])sk-|sk_live|rk_live|xox[abposr]|xapp-|\baiza|\bnpm_|"
    r"pypi-|\bhf_|hvs\.|dop_v1|\bsg\.|shpat_|begin.{0,20}private|private[ _-]?key|passw|passwd|\bpwd\b|pass\s*[=:]|"
    r"secret|token|api[_-]?key|apikey|access[_-]?key|credential|bearer|mnemonic|seed[ _-]?phrase|wallet|"
    r"passwort|kennwort|contrase|senha|mot de passe|wachtwoord|密码|パスワード", re.I)
# the trees that are the whole machine or someone's whole home (not a project inside one)
_HARVEST_SCOPE = re.compile(r"^(/+|/home/?|/home/[^/]+/?|/home/\*/?|/users/?|/users/[^/]+/?|/root/?|~[^/]*/?|"
                            r"~/\.config/?|/mnt/?|/media/?|/volumes/?|[a-z]:[\\/]?|[a-z]:[\\/]users([\\/][^\\/]+)?"
                            r"[\\/]?|%userprofile%[\\/]?|\$env:userprofile[\\/]?|\$home[\\/]?)$", re.I)
_VALUED = frozenset({"-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B", "-C", "--context", "-g",
                     "--glob", "-t", "--type", "-T", "--type-not", "--include", "--exclude", "--exclude-dir", "-d",
                     "-D", "--color", "--colour", "-j", "--threads", "--max-depth", "-M", "--max-columns",
                     "-onlyin", "-name", "-path", "--pattern", "-pattern"})


_GLOB_TAIL = re.compile(r"[\\/][^\\/]*[*?][^\\/]*$")


def _scope_word(word: str, cmd: Command) -> bool:
    if not word or word.startswith("-"):
        return False
    word = _GLOB_TAIL.sub("", word) or "/"  # `C:\Users\*.txt`, `/home/*/…`: the tree the glob is in
    path = resolve_path(word, cmd.cwd or None) or word
    return bool(_HARVEST_SCOPE.match(word) or _HARVEST_SCOPE.match(path))


def _search_terms(cmd: Command) -> tuple[list[str], list[str]]:
    """(patterns, paths) of a search command: the first operand (or each -e) is a pattern, the rest are paths."""
    argv = cmd.argv[1:]
    patterns: list[str] = []
    operands: list[str] = []
    skip = False
    for k, a in enumerate(argv):
        if skip:
            skip = False
            continue
        if a in _VALUED or a.lower() in _VALUED:
            if a.lower() in ("-e", "--regexp", "--pattern", "-pattern") and k + 1 < len(argv):
                patterns.append(argv[k + 1])
            if cmd.name == "mdfind" and a == "-onlyin" and k + 1 < len(argv):
                operands.append(argv[k + 1])
            skip = True
            continue
        if a.startswith("--regexp=") or (a.startswith("-e") and len(a) > 2 and cmd.name != "findstr"):
            patterns.append(a.split("=", 1)[-1] if a.startswith("--") else a[2:])
            continue
        if a.startswith("-") or (cmd.name == "findstr" and a.startswith("/")):
            if cmd.name == "findstr" and a.lower().startswith("/c:"):
                patterns.append(a[3:])
            continue
        operands.append(a)
    if cmd.name in ("select-string", "sls"):
        return patterns or operands[1:2], operands[:1]
    if cmd.name == "mdfind":
        return operands[-1:], operands[:-1]
    if not patterns and operands:
        patterns, operands = operands[:1], operands[1:]
    return patterns, operands


def _recursive(cmd: Command) -> bool:
    if cmd.name in _ALWAYS_RECURSIVE:
        return True
    for w in cmd.argv[1:]:
        if w in ("-r", "-R", "--recursive", "--dereference-recursive", "-recurse", "/s", "/S") or \
                (w.startswith("-") and not w.startswith("--") and ("r" in w[1:] or "R" in w[1:]) and
                 cmd.name not in ("select-string", "sls")):
            return True
        if cmd.name == "findstr" and w.startswith("/") and "s" in w[1:].lower() and len(w) <= 6:
            return True
    return False


def _searched_roots(cmd: Command, analysis: ShellAnalysis) -> list[str]:
    """The folders a find hands this command its files from (find -exec, find | xargs, Get-ChildItem -Recurse |)."""
    cmds = analysis.commands
    if "find -exec" in cmd.via or "find -execdir" in cmd.via:
        at = next((i for i, c in enumerate(cmds) if c is cmd), 0)
        finder = next((cmds[i] for i in range(at - 1, -1, -1) if cmds[i].name == "find"), None)
    else:
        finder = next((cmds[i] for i in cmd.upstream if cmds[i].name in ("find", "get-childitem", "gci", "dir", "ls",
                                                                           "fd", "fdfind", "locate")), None)
    if finder is None:
        return []
    roots = []
    for a in finder.argv[1:]:
        if a.startswith(("-", "(", "!", ")", "\\(")):
            if finder.name == "find":
                break
            continue
        roots.append(a)
    return roots or ["."]


def _secret_hunt(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    patterns, paths = _search_terms(cmd)
    hit = next((p for p in patterns if _SECRET_PATTERN.search(p)), None)
    if hit is None:
        return
    fed = cmd.found or bool(cmd.upstream)
    scope = next((p for p in paths if _scope_word(p, cmd)), None)
    if scope is not None and not (_recursive(cmd) or cmd.name == "mdfind" or "*" in scope):
        scope = None
    if scope is None and fed:
        scope = next((r for r in _searched_roots(cmd, analysis) if _scope_word(r, cmd)), None)
    if scope is None and cmd.name == "mdfind" and not paths:
        scope = "every indexed volume"  # Spotlight's whole index: every file of every disk
    if scope is None:
        return
    add(Finding("block.shell.credential-read", Risk.CRITICAL,
                f"{cmd.name} searches every file under {scope} for {hit[:40]!r}: the tokens and passwords kept "
                f"anywhere in a home or the machine, harvested{where}", cmd.span))


# -- secret scanners over a home or the root, their findings kept --------------------------------------------------

_SCANNERS = frozenset({"trufflehog", "gitleaks", "noseyparker", "noseyparker-cli", "detect-secrets", "ggshield",
                       "kingfisher", "whispers", "secretlint", "titus", "betterleaks"})
_REPORT_FLAGS = frozenset({"-o", "--output", "-r", "--report-path", "--report", "--json-file", "--datastore", "-d",
                           "--baseline", "--outfile", "--output-file", "--report-format"})


# findings printed for a program to collect (JSON lines) or tried against their services to keep only the live ones:
# output made to be gathered, not read by a person checking for leaks
_COLLECTED = frozenset({"--json", "-j", "--jsonl", "--json-legacy", "--only-verified", "--results=verified"})
_FORMAT_FLAGS = frozenset({"--format", "-f", "--report-format", "--output-format"})


def _machine_read(words: list[str]) -> bool:
    if any(w.lower() in _COLLECTED for w in words):
        return True
    return any((w in _FORMAT_FLAGS and k + 1 < len(words) and words[k + 1].lower() in ("json", "jsonl", "sarif")) or
               (w.lower().split("=", 1)[0] in _FORMAT_FLAGS and w.lower().endswith(("=json", "=jsonl", "=sarif")))
               for k, w in enumerate(words))


def _scanner_harvest(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    words = list(cmd.argv[1:])
    targets = []
    for k, w in enumerate(words):
        value = w.split("=", 1)[1] if w.startswith("--") and "=" in w else None
        if value is not None:
            flag = w.split("=", 1)[0]
            if flag in ("--directory", "--source", "--path", "-s", "--dir") or "://" in value:
                targets.append(value.split("://", 1)[-1])
            continue
        if w.startswith("-"):
            continue
        prev = words[k - 1] if k else ""
        if prev in _REPORT_FLAGS and prev not in ("-d",):
            continue
        targets.append(w.split("://", 1)[-1])
    scope = next((t for t in targets if _scope_word(t, cmd)), None)
    if scope is None:
        return
    me = next((i for i, c in enumerate(analysis.commands) if c is cmd), -1)
    report = any(op in (">", ">>", "&>", ">|", "&>>") and target != "/dev/null" for op, target in cmd.redirects) or \
        any(w.split("=", 1)[0] in _REPORT_FLAGS - {"-d", "--baseline"} for w in words) or \
        any(me in c.upstream for c in analysis.commands) or _machine_read(words)
    if report:
        add(Finding("block.shell.credential-read", Risk.CRITICAL,
                    f"{cmd.name} scans {scope} for secrets and keeps every one it finds in its report: a home's or "
                    f"the machine's tokens and keys gathered in one place{where}", cmd.span))
    else:
        add(Finding("confirm.shell.secret-read", Risk.HIGH,
                    f"{cmd.name} scans {scope} for secrets and prints each one it finds{where}", cmd.span))


# -- a repository made and harvested data pushed into it -----------------------------------------------------------

_CONTENTS_API = re.compile(r"(^|/)repos/[^\s/]+/[^\s/]+/contents/", re.I)
_DOUBLE_ENCODED = re.compile(r"base64[^|)]*\|\s*base64|base64[^|)]*\|\s*base64|b64encode\(.*b64encode", re.I)


def _repo_upload(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    words = cmd.argv[1:]
    if words[:1] != ("api",) or not any(_CONTENTS_API.search(w) for w in words):
        return
    if not any(w.upper() in ("PUT", "POST") for w in words) and not any(w.upper().endswith(("=PUT", "=POST"))
                                                                        for w in words):
        return
    made = any((c.name == "gh" and c.argv[1:3] == ("repo", "create")) or
               (c.name == "gh" and c.argv[1:2] == ("api",) and any(w.rstrip("/").endswith(("user/repos", "/repos"))
                                                                   for w in c.argv[2:]) and c is not cmd)
               for c in analysis.commands)
    body = " ".join(w for w in words if w.startswith(("content=", "content@")) or "$(" in w)
    encoded_twice = bool(_DOUBLE_ENCODED.search(body) or _DOUBLE_ENCODED.search(analysis.source))
    from_output = "$(" in body or "`" in body or any(w.startswith("@") or w == "--input" for w in words)
    if (made and from_output) or encoded_twice:
        why = "a repository made on the same line" if made else "content encoded twice over"
        add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                    f"gh api pushes a local file's content into a repository ({why}): data gathered on the machine "
                    f"published where its author can take it{where}", cmd.span))


# -- a package run straight from a git commit ---------------------------------------------------------------------

_RUNNERS = {"npx": (), "bunx": (), "pnpx": (), "npm": ("exec", "x"), "pnpm": ("dlx", "exec"), "yarn": ("dlx",),
            "bun": ("x",)}
_GIT_SPEC = re.compile(r"^(github:|gitlab:|bitbucket:|gist:|git\+(https?|ssh|file)://|git://|https?://(www\.)?"
                       r"(github|gitlab|bitbucket)\.(com|org)/|[\w.-]+/[\w.-]+#)", re.I)
_COMMIT = re.compile(r"#([0-9a-f]{7,40})$", re.I)


def _git_package_run(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`npx -y github:owner/repo#<commit>`: the runner hands the package's own program over (`cmd.via`), so the
    spec is the program word and the runner's `-y` is read from the line."""
    spec = cmd.argv[0]
    if not _GIT_SPEC.match(spec) or not cmd.via or cmd.via[-1].split()[0] not in _RUNNERS:
        return
    runner = cmd.via[-1]
    at = analysis.source.find(spec)
    before = analysis.source[:at] if at >= 0 else analysis.source
    segment = re.split(r"[;&|\n]", before)[-1]
    unasked = bool(re.search(r"(^|\s)(-y|--yes)(\s|$)", segment)) or runner.split()[0] in ("pnpm", "yarn", "bun",
                                                                                           "bunx", "pnpx")
    commit = _COMMIT.search(spec)
    if unasked and commit:
        add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                    f"{runner} runs {spec[:80]} without asking: a package's code straight from one git commit "
                    f"({commit.group(1)[:12]}), which no registry reviewed and which may be on no branch{where}",
                    cmd.span))


# -- a phishing kit: served, linked, its captures read, built --------------------------------------------------------

_KITS = frozenset({"zphisher", "blackeye", "shellphish", "hiddeneye", "socialfish", "nexphisher", "pyphisher",
                   "maskphish", "weeman", "camphish", "seeker", "advphishing", "evilginx", "evilginx2", "evilginx3",
                   "modlishka", "muraena", "gophish", "evilgophish", "king-phisher", "setoolkit", "credsniper",
                   "evilnovnc", "cuddlephish", "necrobrowser", "phishery", "lockphish", "sayhello", "grabcam",
                   "hiddeneye-legacy", "phishmailer", "socialphish", "thanos", "wifiphisher", "fluxion"})
_KIT_DIR = re.compile(r"(^|/)\.server/(www|auth)(/|$)|(^|/)\.sites/|(^|/)(" +
                      "|".join(re.escape(k) for k in sorted(_KITS)) + r")([-_.][\w.-]*)?(/|$)", re.I)
_SERVERS = Guarded(re.compile(r"(^|\s)(php\d*(\.\d+)?\s+(-\S+\s+)*-S\b|"
                              r"python[\d.]*\s+-m\s+(http\.server|SimpleHTTPServer)\b|"
                              r"(npx\s+)?http-server\b|(npx\s+)?serve\b|ruby\s+-run\s+-e\s*httpd\b|busybox\s+httpd\b|"
                              r"php\s+artisan\s+serve\b)", re.I))
_DOCROOT_FLAGS = frozenset({"-t", "-d", "--directory", "-h", "--dir"})


def _served_folder(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """The folder a local web server serves: its -t/-d option, its operand, or the folder `cd` moved to first."""
    words = cmd.argv[1:]
    for k, w in enumerate(words[:-1]):
        if w in _DOCROOT_FLAGS:
            return words[k + 1]
        if w.startswith("--directory="):
            return w.split("=", 1)[1]
    operands = [w for w in words if not w.startswith("-") and "/" in w and ":" not in w]
    if operands:
        return operands[0]
    at = next((i for i, c in enumerate(analysis.commands) if c is cmd), 0)
    return next((c.argv[1] for c in reversed(analysis.commands[:at]) if c.name in ("cd", "pushd", "set-location",
                                                                                   "sl") and len(c.argv) > 1), None)


_TUNNEL_HOSTS = re.compile(r"\b[\w-]+\.(trycloudflare\.com|ngrok(-free)?\.(app|dev|io)|ngrok\.io|loclx\.io|"
                           r"loca\.lt|serveo\.net|serveousercontent\.com|lhr\.(life|rocks)|localhost\.run|"
                           r"pinggy\.(link|io|online)|a\.pinggy\.io|tunnelmole\.net|telebit\.io|ply\.gg|zrok\.io|"
                           r"devtunnels\.ms|localto\.net|bore\.pub|localtunnel\.me|duckdns\.org|ddns\.net|"
                           r"hopto\.org|no-ip\.org)\b", re.I)
_SHORTENER_API = re.compile(r"(?:https?://)?(?:[\w-]+\.)?(is\.gd|v\.gd|tinyurl\.com|bit\.ly|bitly\.com|cutt\.ly|"
                            r"shorturl\.at|da\.gd|clck\.ru|ulvis\.net|shrtco\.de|t\.ly|tiny\.cc|kutt\.it|rebrandly\."
                            r"com|short\.io|rb\.gy|s\.id|x\.gd|1pt\.co|shorturl\.asia|urlz\.fr|cleanuri\.com|"
                            r"is\.gd|0x0\.st)(?=[/:?\s'\"]|$)", re.I)


def _short_tunnel_link(cmd: Command, where: str, add: Add) -> None:
    text = " ".join(cmd.argv[1:])
    m = _SHORTENER_API.search(text)
    if m is None:
        return
    tunnel = _TUNNEL_HOSTS.search(unquote(text))
    if tunnel is None:
        return
    add(Finding("block.shell.attack-tool", Risk.CRITICAL,
                f"{cmd.name} asks {m.group(1)} for a short link to {tunnel.group(0)[:60]}, a tunnel to this "
                f"machine: the disguised link a phishing kit sends to the people it targets{where}", cmd.span))


_CAPTURE_READERS = frozenset({"cat", "tac", "head", "tail", "less", "more", "bat", "batcat", "sqlite3", "sqlite",
                              "strings", "grep", "egrep", "rg", "awk", "sed", "cut", "sort", "uniq", "cp", "mv",
                              "rsync", "scp", "base64", "xxd", "od", "nl", "column", "jq", "type", "get-content",
                              "gc", "curl", "nc", "python", "python3", "wc", "vim", "vi", "nano", "view"})
_SECRET_READERS = frozenset({"cat", "tac", "head", "tail", "less", "more", "bat", "batcat", "strings", "base64",
                             "xxd", "od", "nl", "type", "get-content", "gc", "view", "pr", "fold", "iconv", "jq",
                             "yq", "cp", "scp", "rsync"})


def _captures(cmd: Command, where: str, add: Add) -> None:
    words = [w for w in cmd.argv[1:] if not w.startswith("-")]
    words += [t for op, t in cmd.redirects if op in ("<", ">>")]
    for w in words:
        path = resolve_path(w, cmd.cwd or None) or w
        kind = captured_credentials(path)
        if kind == "block":
            add(Finding("block.shell.credential-read", Risk.CRITICAL,
                        f"{cmd.name} reads {w[:80]}: the passwords, addresses and session cookies a phishing kit "
                        f"captured from the people it fooled{where}", cmd.span))
            return
        if kind == "confirm":
            add(Finding("confirm.shell.secret-read", Risk.HIGH,
                        f"{cmd.name} reads {w[:80]}: by its name and folder, what a phishing kit captured{where}",
                        cmd.span))
            return


_UPLOAD_FLAGS = frozenset({"-T", "--upload-file", "--post-file", "--body-file", "-InFile", "-infile"})
_SENDERS = frozenset({"curl", "wget", "http", "https", "xh", "curlie", "invoke-webrequest", "invoke-restmethod",
                      "iwr", "irm"})


def _named_secrets_sent(cmd: Command, where: str, add: Add) -> None:
    """A file named for passwords, keys or bank details, or an agent's MCP settings, uploaded by a web client
    (`curl -F f=@~/.cursor/mcp.json https://...`, `--data-binary @bank.txt`, `-T`)."""
    argv = cmd.argv
    for k, a in enumerate(argv[1:], 1):
        path = None
        if ("@" in a and not a.startswith(("http", "-"))) or a.startswith("@"):
            path = a.rsplit("@", 1)[1].split(";", 1)[0]
        elif argv[k - 1] in _UPLOAD_FLAGS:
            path = a
        if not path or "://" in path or "$" in path:
            continue
        resolved = resolve_path(path, cmd.cwd or None) or path
        what = secret_file_name(resolved) or agent_token_file(resolved)
        if what:
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"{cmd.name} uploads {path[:80]}, {what}{where}", cmd.span))
            return


def _named_secrets(cmd: Command, where: str, add: Add) -> None:
    """A reader shown a file named for passwords, keys or bank details, or an agent's MCP settings with tokens."""
    for w in cmd.argv[1:]:
        if w.startswith("-") or ("/" not in w and "." not in w) or "://" in w or "$" in w:
            continue
        path = resolve_path(w, cmd.cwd or None) or w
        what = secret_file_name(path) or agent_token_file(path)
        if what:
            add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{cmd.name} reads {w[:80]}: {what}{where}",
                        cmd.span))
            return


_BUILDERS = frozenset({"go", "make", "docker", "podman", "buildah", "gcc", "cargo", "dotnet", "msbuild", "nerdctl"})


_KIT_SUFFIX = re.compile(r"(\.exe|[:@].*)$")


def _kit_build(cmd: Command, where: str, add: Add) -> None:
    words = cmd.argv[1:]
    if cmd.name == "go" and words[:1] != ("build",) and words[:1] != ("install",):
        return
    if cmd.name in ("docker", "podman", "nerdctl") and "build" not in words[:2] and "buildx" not in words[:1]:
        return
    for w in words:
        base = _KIT_SUFFIX.sub("", w.rstrip("/").rsplit("/", 1)[-1].rsplit("\\", 1)[-1].lower())
        if base in _KITS or (cmd.name == "go" and any(f"/{k}" in w.lower() for k in ("evilginx", "modlishka",
                                                                                      "muraena", "gophish"))):
            add(Finding("confirm.shell.attack-tool-download", Risk.HIGH,
                        f"{cmd.name} builds {base or w[:40]}, a phishing kit: the step before it serves look-alike "
                        f"sign-in pages{where}", cmd.span))
            return


# the words of a line that let one of the checks above apply (a line without any is not read further)
CUES = ("claude", "codex", "gemini", "qwen", "q ", "kiro", "cursor-agent", "opencode", "amp", "crush", "aider",
        "goose", "copilot", "auggie", "droid", "cline", "plandex", "openhands", "grep", "rg", "ag ", "ack", "findstr",
        "select-string", "sls", "mdfind", "trufflehog", "gitleaks", "noseyparker", "detect-secrets", "ggshield",
        "kingfisher", "whispers", "secretlint", "gh ", "npx", "npm", "pnpm", "yarn", "bun", "php", "http", "serve",
        "ruby", "busybox", ".server", ".sites", "evilginx", "gophish", ".set/", "harvester", "auth/", "phishingdomain",
        "cat", "head", "tail", "less", "more", "sqlite", "strings", "base64", "go ", "make", "docker", "podman", "jq",
        "type", "get-content", "gc ", "cp ", "curl", "wget", "ip.txt", "usernames", "mcp", "settings.json")
_ANY_CUE = literals(CUES)  # whether a line holds one of them, in one search
# the cues of this module's line checks, by name: a caller that looks for every line family's cues at once
# (gate/rules/shell.py) hands `line` the names found
LINE_CUES = {"harvest": CUES, "tls": shell_tls.CUES, "backup-wipe": shell_backup_wipe.CUES}


def line(analysis: ShellAnalysis, add: Add, cued: frozenset[str] | None = None) -> None:
    """The checks above, for each command of a line that holds one of their words (module docstring); and the
    payload checks of gate/rules/shell_payload.py, which read the line as a whole. `cued`: the names of
    `LINE_CUES` whose cues the lowered line holds, when the caller found them (None: each check looks itself)."""
    shell_payload.line(analysis, add)
    shell_spawns.line(analysis, add)
    shell_hiding.line(analysis, add)
    if cued is None or "tls" in cued:
        shell_tls.line(analysis, add)
    shell_engine_host.line(analysis, add)
    if cued is None or "backup-wipe" in cued:
        shell_backup_wipe.line(analysis, add)
    if cued is not None and "harvest" not in cued:
        return
    low = analysis.source.lower()
    if cued is None and (_ANY_CUE is None or _ANY_CUE.search(low) is None):
        return
    for cmd in analysis.commands:
        name = cmd.name
        where = ""
        if name in _ASSISTANTS:
            _assistant_harvest(cmd, analysis, where, add)
        if name in _SEARCHERS:
            _secret_hunt(cmd, analysis, where, add)
        if name in _SCANNERS:
            _scanner_harvest(cmd, analysis, where, add)
        if name == "gh":
            _repo_upload(cmd, analysis, where, add)
        if cmd.via and "#" in cmd.argv[0]:
            _git_package_run(cmd, analysis, where, add)
        if name in ("curl", "wget", "http", "https", "xh", "curlie", "invoke-webrequest", "invoke-restmethod", "iwr",
                    "irm", "python", "python3", "node", "php"):
            _short_tunnel_link(cmd, where, add)
        if _SERVERS.search(cmd.span) or name in ("http-server", "serve"):
            folder = _served_folder(cmd, analysis)
            if folder and _KIT_DIR.search(resolve_path(folder, cmd.cwd or None) or folder):
                add(Finding("block.shell.attack-tool", Risk.CRITICAL,
                            f"serves {folder[:60]}, a phishing kit's pages, on a local web server: the look-alike "
                            f"sign-in site people are lured to", cmd.span))
        if name in _CAPTURE_READERS or any(op == ">>" for op, _ in cmd.redirects):
            _captures(cmd, where, add)
        if name in _SECRET_READERS:
            _named_secrets(cmd, where, add)
        if name in _SENDERS:
            _named_secrets_sent(cmd, where, add)
        if name in _BUILDERS:
            _kit_build(cmd, where, add)
        if "phishingdomain" in low and any(w.lower().lstrip("-") in ("phishingdomain", "credparams") or
                                           w.lower().startswith(("-phishingdomain=", "--phishingdomain="))
                                           for w in cmd.argv[1:]):
            # a reverse proxy told which domain to phish under and which of the target's parameters are logins
            add(Finding("block.shell.attack-tool", Risk.CRITICAL,
                        f"{name} runs as a phishing reverse proxy (-phishingDomain): it serves a real sign-in page "
                        f"under a look-alike name and keeps the logins and cookies that pass through", cmd.span))

