"""Rules: a build's or a CI run's own files written to leak its secrets, its scanners switched off, and a
package's install-time code that hides a process or plants itself in the shell's start-up.

A CI workflow, a Jenkinsfile, a Makefile, a build script or a package's manifest runs on a machine that holds the
project's secrets (deploy keys, registry tokens, cloud keys, the variables a CI run is given). Written so that a
run sends them elsewhere, every build hands them over (the poisoned-pipeline attack, ATT&CK T1195.002, T1552.001):

- `block.files.build-secret-leak`: the file sends a secret to another host: a secret variable (`$NPM_TOKEN`,
  `${{ secrets.X }}`, a `withCredentials` variable, `process.env.X`, `os.environ["X"]`), the whole environment
  (`env`, `printenv`, `toJSON(secrets)`, `JSON.stringify(process.env)`) or a credentials file (`~/.aws/credentials`,
  `~/.ssh/id_*`, `.npmrc`) put in a request's body, address or upload (curl, wget, nc, `Invoke-WebRequest`,
  `requests.post`, `fetch`), or written to a file the same script uploads. A token sent as a request's
  authorisation header is its ordinary use and is left to the other rules.
- `confirm.files.build-secret-print`: the file prints the environment or a secret encoded past the log's masking
  (`echo $TOKEN | base64`): whoever reads the build's log reads the secret.
- `confirm.files.scanner-off`: a security scanner's settings that turn its findings off wholesale (Checkov's
  `soft-fail` or a skip of every check, a `.trivyignore`, `.semgrepignore` or `.gitleaksignore` of everything,
  Snyk's ignore of every issue, SonarQube's exclusion of every file, a gitleaks allow-list of every path, Bandit
  skipping its checks by the dozen, tfsec, KICS or Grype excluding all): the next change passes unseen.
- `confirm.files.detached-process` / `block.files.hidden-payload`: a module or install script that starts a process
  detached from its parent with its output thrown away (`spawn(..., {detached: true, stdio: "ignore"}).unref()`,
  `Popen(..., start_new_session=True)`, `nohup ... &`) asks; with a download in the same file, or a program run from
  a temporary or hidden folder, it blocks.
- `block.files.build-decode-exec`: a build system's own file (an autotools macro, `configure.ac`, `Makefile.am`, a
  CMake or Meson file) written with a pipeline that decodes or unpacks data and runs it with `eval` or a shell (the
  xz-utils backdoor's stage one).
- `block.files.startup-implant`: a shell start-up file written with a line that starts a hidden or temporary
  program in the background, or a download; or code that appends to a shell start-up file (`~/.bashrc`,
  `~/.zshrc`, `~/.profile`).
"""

from __future__ import annotations

import re

from gate.content import MAX_CONTENT, runs_later
from gate.model import Risk
from gate.prefix import Guarded
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES", "build_leak", "decoded_into_shell", "detached_start", "scanner_off", "startup_implant"]

# files a build or a CI run executes, beside the kinds gate/content.py already knows
_BUILD_KINDS = frozenset({"CI workflow", "build file", "package manifest", "script a tool runs", "git hook",
                          "tool settings"})
_BUILD_FILES = Guarded(re.compile(
    r"(^|/)jenkinsfile[\w.-]*$|\.jenkinsfile$|\.groovy$|(^|/)\.gitlab/[^/]+\.ya?ml$|(^|/)\.github/actions/[^/]+/"
    r"action\.ya?ml$|(^|/)action\.ya?ml$|(^|/)(cloudbuild|buildspec|appveyor|codemagic|bitrise|taskfile|"
    r"\.?woodpecker|\.?gitea/workflows/[^/]+|\.forgejo/workflows/[^/]+|\.tekton/[^/]+|wercker|\.semaphore/[^/]+|"
    r"\.cirrus|\.harness/[^/]+)\.ya?ml$|(^|/)[\w.-]*\.gradle(\.kts)?$|(^|/)(pom|build)\.xml$|(^|/)dockerfile[\w.-]*$|"
    r"(^|/)(build|deploy|release|ci|cd|install|bootstrap|publish|package|pre-?build|post-?build|"
    r"entrypoint|report[\w-]*|coverage)[\w-]*\.(sh|bash|ps1|bat|cmd|py|js|mjs|cjs|rb|pl)$|"
    r"(^|/)(scripts?|ci|\.ci|tools|bin|hooks?)/[^/]+\.(sh|bash|ps1|bat|cmd)$|(^|/)(tox|setup)\.(ini|cfg)$|"
    r"(^|/)build\.rs$|(^|/)(rakefile|vagrantfile|procfile)$|(^|/)\.(travis|drone)\.ya?ml$", re.IGNORECASE))

# a variable whose name says it holds a secret: one of its parts is a secret's word
_SECRET_PARTS = frozenset({
    "token", "tokens", "secret", "secrets", "password", "passwd", "pass", "pwd", "passphrase", "apikey", "key", "keys",
    "credential", "credentials", "creds", "cred", "auth", "flag", "pat", "private", "privatekey", "accesskey",
    "signing", "cert", "npmrc", "pypirc", "kubeconfig", "jwt", "bearer", "session", "cookie"})
# a variable that holds where to send, not what: a webhook's or a server's address kept among the secrets
_ADDRESS_PARTS = frozenset({"url", "uri", "host", "hostname", "endpoint", "webhook", "server", "domain", "address",
                            "addr", "dsn", "channel", "region", "bucket", "username", "user", "email", "name"})
_NOT_SECRET = frozenset({"pwd", "oldpwd", "path", "home", "user", "shell", "term", "lang", "ci", "keyboard"})
_VAR = re.compile(
    r"\$\{\{\s*secrets\.([\w-]+)|\$\{\{\s*(?:env|vars)\.([\w-]+)|\$\{?env:([\w]+)\}?|\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?|"
    r"%([A-Za-z_][A-Za-z0-9_]*)%|process\.env\.([A-Za-z_]\w*)|process\.env\[\s*['\"](\w+)['\"]\s*\]|"
    r"os\.environ\[\s*['\"](\w+)['\"]\s*\]|os\.(?:environ\.get|getenv)\(\s*['\"](\w+)['\"]|"
    r"ENV\[\s*['\"](\w+)['\"]\s*\]|System\.getenv\(\s*\"(\w+)\"|env\.([A-Za-z_]\w*)|\$\(([A-Za-z_][\w.]*)\)")
_CRED_VARS = re.compile(r"\b(?:variable|usernameVariable|passwordVariable|keyFileVariable|passphraseVariable|"
                        r"tokenVariable)\s*:\s*['\"](\w+)['\"]")
_WHOLE_ENV = re.compile(
    r"(?:^|[\s;&|(`'\"]|\$\()(?:env|printenv|export\s+-p|declare\s+-x|set)\s*(?:$|[|>;&)`'\"])|"
    r"/proc/(?:self|\$\$|\d+|\*)/environ|toJSON\(\s*(?:secrets|env|vars)\s*\)|JSON\.stringify\(\s*process\.env\s*\)|"
    r"\bdict\(\s*os\.environ\s*\)|os\.environ\.(?:items|copy)\(\)|json\.dumps\(\s*os\.environ|"
    r"get-childitem\s+env:|\bgci\s+env:|\bls\s+env:|\[environment\]::getenvironmentvariables|"
    r"\bObject\.(?:entries|keys)\(\s*process\.env\s*\)|\$\{\{\s*toJSON", re.IGNORECASE | re.MULTILINE)
_CRED_FILE = re.compile(
    r"\.aws/credentials|\.ssh/id_\w+|\.ssh/\*|\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials|\.docker/config\.json|"
    r"\.kube/config|/var/run/secrets/|application_default_credentials\.json|\.config/gh/hosts\.yml|"
    r"\.gnupg/|\.config/gcloud/|credentials\.json|\.vault-token|id_rsa\b|id_ed25519\b", re.IGNORECASE)
_SENDER = re.compile(
    r"(?:^|[\s;&|(`'\"=]|\$\()(?:curl|wget|nc|ncat|netcat|socat|scp|sftp|ftp|tftp|telnet|rsync|nslookup|dig|"
    r"invoke-webrequest|invoke-restmethod|iwr|irm|http|https|xh|openssl\s+s_client)(?:\.exe)?(?=\s|$|['\"])|"
    r"\brequests\.(?:post|put|get|patch|request)\(|\burllib\.request\.|\burlopen\(|\bhttp\.client\.|"
    r"\bhttpx\.(?:post|put|get)\(|\b(?:https?)\.(?:request|get)\(|\bfetch\(|\baxios(?:\.\w+)?\(|XMLHttpRequest|"
    r"sendBeacon|\bNet::HTTP\b|\bWebClient\b|\.Upload(?:String|File|Data)\(|/dev/(?:tcp|udp)/|"
    r"\bsocket\.(?:create_connection|socket)\(|\bURL\(\s*\"https?:", re.IGNORECASE | re.MULTILINE)
_REMOTE = re.compile(r"\b(?:https?|ftp|wss?)://(?!(?:localhost|127\.0\.0\.1|\[::1\])(?:[:/]|$))[\w.-]+|"
                     r"@[\w.-]+\.[a-z]{2,}:|/dev/(?:tcp|udp)/(?!127\.|localhost)|\b(?:\d{1,3}\.){3}\d{1,3}\b",
                     re.IGNORECASE)
# how a secret is used rather than sent: an authorisation header or a login's password
_AUTH_USE = re.compile(
    r"(?:-H|--header)\s*(?:=\s*)?(['\"])[^'\"\n]*\1|['\"]?authorization['\"]?\s*[:=]\s*['\"`][^'\"`\n]*['\"`]|"
    r"(?:-u|--user)\s+\S+|\bheaders\s*=\s*\{[^}\n]*\}|--password(?:-stdin)?\s+\S+|\blogin\b[^\n]*",
    re.IGNORECASE)
_UPLOAD_FILE = re.compile(
    r"(?:-F|--form)\s+['\"]?[\w.-]*=@|(?:-d|--data(?:-binary|-raw|-urlencode)?)\s*['\"]?@|--post-file[= ]|"
    r"--body-file[= ]|(?:-T|--upload-file)\s|\bfiles\s*=|\bopen\([^)]*\)\.read\(\)|readFileSync\(|scp\s",
    re.IGNORECASE)
_ENCODE = re.compile(r"\|\s*(?:base64|base32|xxd|od|hexdump|rev|openssl\s+(?:enc|base64)|gzip|sed\s+['\"]?s/\.)\b|"
                     r"\bbase64\s+<<<|\|\s*tr\s+['\"]?a-z", re.IGNORECASE)
_LINE_SPLIT = re.compile(r"\n|(?<!\\)&&|;")
_NAME_PARTS = re.compile(r"[_\-.]+")
_SECRETISH = re.compile(r"(token|secret|passw|apikey|api_key|credential)")
_TO_FILE = re.compile(r">>?\s*[\w./$~-]+")
_ENV_STEP = re.compile(r"(?:sh|bat|pwsh|powershell|run|script)?\s*[:(]?\s*['\"]?\s*(?:env|printenv|set|export -p|"
                       r"get-childitem env:|gci env:)\s*['\"]?\s*\)?", re.IGNORECASE)
_SHARED_SETTINGS = re.compile(r"(^|/)(pyproject\.toml|setup\.cfg|tox\.ini)$")
_STARTUP_NAME = re.compile(r"(^|/)\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv|kshrc)$")
_LAUNCHER = re.compile(r"\b(?:curl|wget|nohup|setsid|nc|ncat|socat)\b")


def _secret_name(name: str) -> bool:
    low = name.lower()
    if low in _NOT_SECRET:
        return False
    parts = [p for p in _NAME_PARTS.split(low) if p]
    if any(p in _ADDRESS_PARTS for p in parts):
        return False
    if any(p in _SECRET_PARTS for p in parts):
        return True
    return bool(_SECRETISH.search(low))


def _secret_refs(text: str, declared: frozenset[str]) -> list[str]:
    out = []
    for m in _VAR.finditer(text):
        name = next((g for g in m.groups() if g), "")
        if name in declared or _secret_name(name) or (m.group(1) and not any(
                p in _ADDRESS_PARTS for p in _NAME_PARTS.split(name.lower()))):
            out.append(m.group(0))
    return out


def _is_build_file(path: str) -> bool:
    low = path.replace("\\", "/")
    return runs_later(low) in _BUILD_KINDS or bool(_BUILD_FILES.search(low))


def _leaks(line: str, declared: frozenset[str]) -> str | None:
    """What `line` sends off the machine: a secret, the environment or a credentials file, or None."""
    if not _SENDER.search(line) or not _REMOTE.search(line):
        return None
    rest = _AUTH_USE.sub(" ", line)
    if _WHOLE_ENV.search(rest):
        return "the whole environment"
    if (m := _CRED_FILE.search(rest)) is not None:
        return f"the credentials file {m.group(0)}"
    refs = _secret_refs(rest, declared)
    if refs:
        return f"the secret {refs[0]}"
    return None


def build_leak(path: str, content: str) -> tuple[str | None, str | None]:
    """(block reason, confirm reason) for a build's or CI run's file at `path` written with `content`."""
    if not _is_build_file(path):
        return None, None
    text = content[:MAX_CONTENT]
    declared = frozenset(_CRED_VARS.findall(text))
    pieces = [p for p in _LINE_SPLIT.split(text) if p.strip()]
    for piece in pieces:
        if (what := _leaks(piece, declared)) is not None:
            return f"{path} runs at every build and sends {what} to another host: {' '.join(piece.split())[:80]}", None
    # staged: the environment, a secret or a credentials file written to a file that the script uploads
    staged = any(_TO_FILE.search(p) and (_WHOLE_ENV.search(p) or _CRED_FILE.search(p)
                                                        or _secret_refs(p, declared)) for p in pieces)
    if staged and any(_SENDER.search(p) and _REMOTE.search(p) and _UPLOAD_FILE.search(p) for p in pieces):
        return f"{path} runs at every build, saves its secrets or environment to a file and uploads it to another " \
               f"host", None
    for piece in pieces:
        line = " ".join(piece.split())
        if _ENCODE.search(piece) and (_secret_refs(piece.split("|", 1)[0], declared) or _WHOLE_ENV.search(piece)):
            return None, f"{path} runs at every build and prints a secret encoded past the log's masking: {line[:80]}"
        if _ENV_STEP.fullmatch(line.strip("- \t")):
            return None, f"{path} runs at every build and prints the whole environment, secrets included, to its log"
    return None, None


def _written(ctx: Context) -> tuple[str, str] | None:
    if ctx.type != "file_write":
        return None
    path = getattr(ctx.action, "path", None)
    content = getattr(ctx.action, "content", None)
    if not path or not content:
        return None
    return path.replace("\\", "/"), content


@rule("block.files.build-secret-leak", "a build's or CI run's file written to send its secrets to another host",
      risk=Risk.CRITICAL, types=("file_write",))
def build_secret_leak(ctx: Context) -> CheckResult:
    """A CI workflow, Jenkinsfile, Makefile, build script, Gradle or Maven file, Dockerfile or package manifest
    written so that it sends a secret variable (`$DEPLOY_TOKEN`, `${{ secrets.X }}`, a `withCredentials`
    variable, `process.env.X`), the whole environment (`env`, `printenv`, `toJSON(secrets)`) or a credentials file
    to another host in a request's body, address or upload, or saves them to a file it uploads: every build hands
    the project's secrets over (poisoned pipeline, ATT&CK T1195.002). A token in an authorisation header is its
    ordinary use and is not judged here."""
    written = _written(ctx)
    if written is None:
        return None
    block, _ = build_leak(*written)
    return block


@rule("confirm.files.build-secret-print", "a build's or CI run's file written to print its secrets to the log",
      risk=Risk.HIGH, types=("file_write",))
def build_secret_print(ctx: Context) -> CheckResult:
    """A CI workflow, Jenkinsfile, Makefile or build script written to print the whole environment (`env`,
    `printenv`) or a secret variable encoded past the log's masking (`echo $TOKEN | base64`): whoever reads the
    build's log reads the secrets."""
    written = _written(ctx)
    if written is None:
        return None
    block, confirm = build_leak(*written)
    return None if block is not None else confirm


# -- security scanners switched off ------------------------------------------------------------------------------

_ALL = r"['\"]?(?:\*|\*\*|\*\*/\*|\*\*/\*\.\*|\*\.\*|\.|/|\.\*|\^?\.\*\$?|\.\+|all|ALL)['\"]?"
_SCANNERS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (name, re.compile(path, re.IGNORECASE), re.compile(body, re.IGNORECASE | re.MULTILINE)) for name, path, body in (
        ("Checkov", r"(^|/)\.checkov\.ya?ml$|(^|/)\.checkov/config\.ya?ml$",
         r"^\s*soft[-_]fail\s*:\s*['\"]?true|^\s*skip[-_]check\s*:\s*(?:\[\s*)?(?:-\s*)?['\"]?(?:CKV\w*_?\*|\*|all)\b|"
         r"^\s*-\s*['\"]?(?:CKV\w*_?\*|\*)['\"]?\s*$|^\s*skip[-_]framework\s*:\s*(?:\[\s*)?(?:-\s*)?['\"]?all\b"),
        ("Trivy", r"(^|/)\.trivyignore(\.ya?ml)?$",
         r"^\s*(?:-\s*id\s*:\s*)?['\"]?(?:\*|CVE-\*|AVD-\*|[A-Z]+-\*|\.\*)['\"]?\s*$"),
        ("Trivy", r"(^|/)trivy\.ya?ml$",
         r"^\s*exit[-_]code\s*:\s*0\b|^\s*-\s*['\"]?(?:\*\*|\.|/|\*)['\"]?\s*$"),
        ("Semgrep", r"(^|/)\.semgrepignore$", rf"^\s*{_ALL}\s*$"),
        ("gitleaks", r"(^|/)\.gitleaksignore$", rf"^\s*{_ALL}\s*$"),
        ("gitleaks", r"(^|/)\.?gitleaks\.toml$",
         r"^\s*(?:paths|regexes|commits)\s*=\s*\[[^\]]*?(?:'''|\"|')\s*(?:\.\*|\.\+|\^\.\*\$?|\*)\s*(?:'''|\"|')"),
        ("Snyk", r"(^|/)\.snyk$", r"^\s*['\"]?\*['\"]?\s*:\s*$|^\s*-\s*['\"]?(?:\*\*|\*\*/\*|\*)['\"]?\s*$"),
        ("SonarQube", r"(^|/)sonar-project\.properties$|(^|/)\.sonarcloud\.properties$",
         r"^\s*sonar\.(?:exclusions|inclusions\.skip|issue\.ignore\.multicriteria\.\w+\.(?:ruleKey|resourceKey))"
         r"\s*=\s*(?:\*\*/\*|\*\*|\*|\*\*/\*\.\*)\s*$|^\s*sonar\.(?:scanner\.skip|skip)\s*=\s*true"),
        ("Bandit", r"(^|/)\.bandit$|(^|/)\.?bandit(rc)?\.ya?ml$",
         r"^\s*skips\s*[:=]\s*(?:\[\s*)?['\"]?(?:\*|all)\b|^\s*skips\s*[:=]\s*\[?(?:\s*['\"]?B\d{3}['\"]?\s*,?){8,}|"
         r"^\s*exclude_dirs\s*[:=]\s*\[?\s*['\"]?(?:\.|/|\*)['\"]?\s*[,\]]"),
        ("tfsec", r"(^|/)\.tfsec/config\.(ya?ml|json)$|(^|/)tfsec\.ya?ml$",
         r"^\s*-\s*['\"]?\*['\"]?\s*$|\"exclude\"\s*:\s*\[\s*\"\*\"|^\s*exclude\s*:\s*\[\s*['\"]?\*"),
        ("KICS", r"(^|/)kics\.config$|(^|/)\.?kics\.ya?ml$", r"^\s*exclude-severities\s*:.*high.*medium|"
         r"^\s*fail-on\s*:\s*['\"]?\s*['\"]?\s*$"),
        ("Grype", r"(^|/)\.?grype\.ya?ml$", r"^\s*-?\s*vulnerability\s*:\s*['\"]?\*['\"]?\s*$"),
        ("CodeQL", r"(^|/)\.github/codeql/[^/]+\.ya?ml$", r"^\s*-\s*['\"]?(?:\*\*|\*\*/\*|\*)['\"]?\s*$"),
    ))
_BANDIT_SECTION = re.compile(r"^\s*\[(?:tool\.)?bandit\]\s*$(?P<body>(?:\n(?!\s*\[).*)*)", re.IGNORECASE | re.MULTILINE)


def scanner_off(path: str, content: str) -> str | None:
    """The scanner whose findings the settings at `path` switch off wholesale, with the line, or None."""
    low = path.replace("\\", "/").lower()
    text = content[:MAX_CONTENT]
    for name, path_rx, body_rx in _SCANNERS:
        if path_rx.search(low) and (m := body_rx.search(text)) is not None:
            return f"{name}: {' '.join(m.group(0).split())[:60]}"
    if _SHARED_SETTINGS.search(low):
        for sec in _BANDIT_SECTION.finditer(text):
            if (m := _SCANNERS[8][2].search(sec.group("body"))) is not None:
                return f"Bandit: {' '.join(m.group(0).split())[:60]}"
    return None


@rule("confirm.files.scanner-off", "a security scanner's settings written to ignore everything", risk=Risk.HIGH,
      types=("file_write",))
def scanner_settings_off(ctx: Context) -> CheckResult:
    """A security scanner's settings written so its findings no longer stop anything: Checkov's `soft-fail` or a
    skip of every check, a `.trivyignore`, `.semgrepignore` or `.gitleaksignore` of everything, a gitleaks allow-list
    of every path, Snyk's ignore of every issue, SonarQube's exclusion of every file, Bandit skipping its checks by
    the dozen, tfsec, KICS, Grype or CodeQL excluding all. The next change with a flaw or a secret passes unseen.
    Ignores of named findings and folders pass."""
    written = _written(ctx)
    if written is None:
        return None
    found = scanner_off(*written)
    if found is None:
        return None
    return f"{written[0]} turns the security scan off ({found}): what it would have caught now passes"


# -- install-time code that hides a process or plants itself in the shell's start-up -----------------------------

_CODE_FILE = re.compile(r"\.(?:c|m)?(?:js|ts)$|\.py$|\.rb$|\.pl$|\.php$|\.sh$|\.ps1$|(^|/)package\.json$",
                        re.IGNORECASE)
_DETACHED = re.compile(
    r"detached\s*:\s*true[\s\S]{0,200}?stdio\s*:\s*['\"]ignore['\"]|stdio\s*:\s*['\"]ignore['\"][\s\S]{0,200}?"
    r"detached\s*:\s*true|"
    r"start_new_session\s*=\s*True|preexec_fn\s*=\s*os\.setsid|creationflags\s*=[^)\n]*(?:DETACHED_PROCESS|"
    r"CREATE_NO_WINDOW|CREATE_NEW_PROCESS_GROUP|0x0*8\b|0x0*8000000)|\bos\.setsid\(\)|\bdaemon\s*=\s*True[^\n]*"
    r"Process\(|\bnohup\s+[^\n]*&|\bsetsid\s+[^\n]*&|\bdisown\b|Process\.detach\(|"
    r"-window(?:style)?\s+hidden|WindowStyle\s*=\s*['\"]?Hidden", re.IGNORECASE)
_DOWNLOAD = re.compile(
    r"\b(?:https?|ftp)\.get\(|\bfetch\(|\baxios|\burlretrieve\(|\burlopen\(|\brequests\.get\(|\bcurl\b|\bwget\b|"
    r"DownloadFile|DownloadString|Invoke-WebRequest|\biwr\b|createWriteStream[\s\S]{0,300}https?://|"
    r"Net::HTTP|open-uri|file_get_contents\(\s*['\"]https?://", re.IGNORECASE)
_HIDDEN_PATH = re.compile(r"(?:^|[\s'\"(=,])(?:/tmp|/var/tmp|/dev/shm|\$TMPDIR|%te?mp%|\$env:te?mp|"
                          r"\$env:appdata|%appdata%|os\.tmpdir\(\)|tempfile\.|gettempdir)|/\.[A-Za-z][\w-]*"
                          r"(?:['\"/]|$)|~/\.[A-Za-z][\w.-]*(?=['\"\s]|$)", re.IGNORECASE | re.MULTILINE)


def detached_start(path: str, content: str) -> tuple[str | None, str | None]:
    """(block reason, confirm reason) for code at `path` that starts a process cut off from its parent, unseen."""
    low = path.replace("\\", "/").lower()
    if not _CODE_FILE.search(low):
        return None, None
    text = content[:MAX_CONTENT]
    m = _DETACHED.search(text)
    if m is None:
        return None, None
    what = " ".join(m.group(0).split())[:60]
    if _DOWNLOAD.search(text) or _HIDDEN_PATH.search(text):
        return f"{path} downloads or stages a program and starts it detached and hidden ({what}): it keeps " \
               f"running after the install, out of sight", None
    return None, f"{path} starts a process detached from its parent with its output thrown away ({what}): it keeps " \
                 f"running unseen after the command that started it ends"


@rule("block.files.hidden-payload", "code written that downloads a program and starts it hidden and detached",
      risk=Risk.CRITICAL, types=("file_write",))
def hidden_payload(ctx: Context) -> CheckResult:
    """A module or install script (`index.js`, `setup.py`, a postinstall script) written that starts a process
    detached from its parent with its output discarded (`spawn(..., {detached: true, stdio: "ignore"}).unref()`,
    `Popen(..., start_new_session=True)`, `nohup ... &`, a hidden PowerShell window) and in the same file downloads
    a program or runs one from a temporary or hidden folder: a dropper that outlives the install."""
    written = _written(ctx)
    if written is None:
        return None
    block, _ = detached_start(*written)
    return block


@rule("confirm.files.detached-process", "code written that starts a process detached and unseen", risk=Risk.HIGH,
      types=("file_write",))
def detached_process(ctx: Context) -> CheckResult:
    """A module or script written that starts a process detached from its parent with its output thrown away
    (`spawn(..., {detached: true, stdio: "ignore"}).unref()`, `Popen(..., start_new_session=True)`): it keeps
    running after whatever started it, unseen. A child process run in the open (`stdio: "inherit"`) passes."""
    written = _written(ctx)
    if written is None:
        return None
    block, confirm = detached_start(*written)
    return None if block is not None else confirm


_STARTUP_FILE = re.compile(r"\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|"
                           r"cshrc|tcshrc)\b|config/fish/config\.fish|/etc/profile\.d/|/etc/(?:bash\.bashrc|profile|"
                           r"zsh/zshrc)\b", re.IGNORECASE)
_APPEND = re.compile(r"open\([^)]*['\"]a\+?['\"]|appendFile(?:Sync)?\(|\bwriteFile(?:Sync)?\(|>>\s*|"
                     r"open\([^)]*['\"]w\+?['\"]|File\.(?:write|open)\(|Add-Content|Out-File\s+-Append|"
                     r"\.write_text\(|\btee\s+-a\b", re.IGNORECASE)
_BACKGROUND_LINE = re.compile(r"^[^#\n]*?(?<![&|])&\s*\)?\s*(?:;?\s*disown)?\s*$|^\s*(?:nohup|setsid)\s+[^#\n]+$",
                              re.MULTILINE)


def startup_implant(path: str, content: str) -> str | None:
    """Why `content` written at `path` plants something in the shell's start-up, or None."""
    low = path.replace("\\", "/").lower()
    text = content[:MAX_CONTENT]
    if runs_later(low) == "shell startup file" or _STARTUP_NAME.search(low):
        for m in _BACKGROUND_LINE.finditer(text):
            line = m.group(0).strip()
            if _HIDDEN_PATH.search(line) or _LAUNCHER.search(line):
                return f"a line that starts a hidden or temporary program in the background at every shell: {line[:60]}"
        return None
    if _CODE_FILE.search(low) and not low.endswith("package.json"):
        m = _STARTUP_FILE.search(text)
        if m is not None and _APPEND.search(text):
            return f"code that writes the shell's start-up file {m.group(0)}: what it adds runs in every new shell"
    return None


@rule("block.files.startup-implant", "a shell start-up file planted with a hidden program, or code that writes one",
      risk=Risk.CRITICAL, types=("file_write",))
def startup_file_implant(ctx: Context) -> CheckResult:
    """A shell start-up file (`~/.bashrc`, `~/.zshrc`, `~/.profile`) written with a line that starts a program from
    a hidden or temporary folder in the background (`~/.cache/.x &`), or a download; or a module or install script
    written that appends to a shell start-up file: what it plants runs in every new shell, unseen
    (ATT&CK T1546.004)."""
    written = _written(ctx)
    if written is None:
        return None
    why = startup_implant(*written)
    return None if why is None else f"{written[0]}: {why}"


# the build system's own macro and input files (autotools, CMake, Meson, make includes): what they hold runs at
# configure or build time on every machine that builds the release
_BUILD_SYSTEM = re.compile(r"(^|/)(?:[^/]+\.m4|configure(?:\.ac|\.in)?|(?:gnu)?makefile(?:\.am|\.in)?|[^/]+\.mk|"
                           r"cmakelists\.txt|[^/]+\.cmake|meson\.build)$", re.IGNORECASE)
# a pipeline stage that decodes or unpacks: a decoder, or a program held in a variable, told to decode (`-d`)
_DECODERS = frozenset({"base64", "base32", "basenc", "xxd", "uudecode", "openssl", "xz", "lzma", "unxz", "unlzma",
                       "xzcat", "lzcat", "gzip", "gunzip", "zcat", "bzip2", "bunzip2", "bzcat", "zstd", "unzstd",
                       "zstdcat", "lz4", "brotli"})
_DECODE_FLAG = re.compile(r"(?:^|\s)(?:-d[a-z]*|--decode|--decompress|-r|enc)\b")
# a stage that runs what reaches it, or a command held in a variable, as shell code
_RUNS_CODE = re.compile(r"^(?:eval|(?:/usr)?(?:/bin/)?(?:ba|da|k|z)?sh|\$[({]?(?:shell|config_shell)[)}]?|source|\.)"
                        r"(?:[\s'\")\];]|$)", re.IGNORECASE)
_CONTINUED = re.compile(r"\\\n")


def _decodes(stage: str) -> bool:
    words = stage.strip().lstrip("'\"(").split()
    if not words:
        return False
    program = words[0].rsplit("/", 1)[-1].lower()
    if program in ("xzcat", "lzcat", "zcat", "bzcat", "zstdcat", "unxz", "unlzma", "gunzip", "bunzip2", "unzstd",
                   "uudecode"):
        return True
    return (program in _DECODERS or program.startswith("$")) and bool(_DECODE_FLAG.search(stage))


def decoded_into_shell(path: str, content: str) -> str | None:
    """The line of a build system's file at `path` that decodes or unpacks data and hands it to `eval` or a shell in
    one pipeline, or None."""
    if not _BUILD_SYSTEM.search(path.replace("\\", "/").lower()):
        return None
    for line in _CONTINUED.sub(" ", content[:MAX_CONTENT]).splitlines():
        if "|" not in line or line.lstrip().startswith(("#", "dnl ")):
            continue
        stages = [p for p in re.split(r"(?<!\|)\|(?!\|)", line)]
        runs = [k for k, st in enumerate(stages) if _RUNS_CODE.match(st.strip().lstrip("'\"("))]
        if runs and any(_decodes(st) for k, st in enumerate(stages) if k not in runs):
            return " ".join(line.split())[:80]
    return None


@rule("block.files.build-decode-exec", "a build system's file written to decode hidden data and run it as code",
      risk=Risk.CRITICAL, types=("file_write",))
def build_decode_exec(ctx: Context) -> CheckResult:
    """An autotools macro or input (`m4/*.m4`, `configure.ac`, `Makefile.am`), a CMake, Meson or make include file
    written with a pipeline that decodes or unpacks data (`xz -d`, `base64 -d`, a decoder held in a variable) and
    hands it to `eval` or a shell: the shape of the xz-utils backdoor (CVE-2024-3094), a payload hidden in test files
    and run at every configure. Unpacking to a file (`gzip -dc x.gz | tar -x`) and `eval` of the build's own
    variables pass."""
    written = _written(ctx)
    if written is None:
        return None
    line = decoded_into_shell(*written)
    return None if line is None else f"{written[0]} decodes data and runs it as shell code at every build: {line}"


RULES: tuple[Rule, ...] = (build_secret_leak, build_secret_print, scanner_settings_off, hidden_payload,
                           detached_process, startup_file_implant, build_decode_exec)
