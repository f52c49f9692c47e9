"""Shell checks: files held to ransom, keys and recovery material destroyed, the machine exhausted.

Three effects, whatever the program or the shell that spells them:
- files locked away: archived or encrypted under a password or key the person did not choose, with the
  originals removed (zip -m -P, 7z a -p -sdel, rar a -df -hp, ccrypt, gpg -c / openssl enc / age then rm or
  shred, interpreter code that encrypts and deletes, BitLocker switched on with a recovery password). Over the
  person's data (a home, a system tree, a whole folder, a glob) it blocks (`block.shell.ransom-encrypt`); one file
  in a temporary folder or the project asks (`confirm.shell.destructive`);
- keys and recovery material destroyed: SSH private keys, the GnuPG home, password-manager vaults, wallet files,
  cloud and cluster credentials, browsers' saved logins, 2FA recovery codes, the TPM cleared
  (`block.shell.key-destruction`). A test key in the project or in /tmp is not one;
- a ransom note shown, spoken or written: files said to be encrypted, with a price, a coin or a decrypter
  (`block.shell.ransom-note`; a note written as a file, `block.files.ransom-note`, is judged here too);
- the machine exhausted: a loop making thousands of files or endless ones, a file of tens of gigabytes, interpreter
  code that fills memory (`confirm.shell.system-disruption`); cmd.exe's `%0|%0` is a fork bomb.

Called from gate/rules/shell.py: `judge` per simple command whose name is in NAMES, `line` once per command line
when its text carries one of LINE_CUES.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gate.model import Risk
from gate.prefix import Guarded
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.shell_destructive import _DISK_FILL, _size
from gate.rules.shell_vocab import _DELETERS, _GLOB_CHARS
from gate.shell import HOME, INTERPRETERS, Command, Finding, ShellAnalysis, display_path

__all__ = ["FILE_RULES", "LINE_CUES", "NAMES", "RULE_DOCS", "judge", "line", "note_line", "overwrites", "ransom_note"]

RULE_DOCS: tuple[tuple[str, str, Risk, str], ...] = (
    ("block.shell.ransom-encrypt", "files encrypted and the originals removed", Risk.CRITICAL,
     "The person's files archived or encrypted under a password or key the person did not choose, with the "
     "originals removed: zip -m/--move with -P/-e, 7z a -p -sdel, rar a -df/-dr or rar m with -p/-hp, ccrypt "
     "(it replaces each file), gpg -c/--encrypt, gpgtar, openssl enc, age or scrypt followed on the line by rm, "
     "shred, del or Remove-Item of what they encrypted (also in a loop over a folder, or tar --remove-files piped "
     "into an encrypter), interpreter code that encrypts files and deletes or overwrites them (Python's "
     "cryptography/Fernet/AES, .NET's Aes in PowerShell, Node's createCipheriv), EFS encryption of a user's "
     "folders (cipher /e /s:) and BitLocker switched on with a password or recovery password the agent sets "
     "(manage-bde -on -rp/-pw, Enable-BitLocker -PasswordProtector). Over a home, a system tree, a whole folder "
     "or a glob it blocks; one file in a temporary folder or the project asks (confirm.shell.destructive)."),
    ("block.shell.key-destruction", "keys, vaults or recovery material destroyed", Risk.CRITICAL,
     "Deleting, shredding, emptying or overwriting what lets the person log in or recover: SSH private keys or "
     "the whole ~/.ssh, the GnuPG home or its private keys, password-manager vaults (KeePass .kdbx/.keyx, "
     "1Password, Bitwarden, pass, keychains), cryptocurrency wallets (wallet.dat, keystore folders, Electrum, "
     "Exodus), ~/.aws/credentials, ~/.kube/config, gcloud and Azure logins, browsers' saved logins (Login Data, "
     "logins.json, key4.db), 2FA recovery and backup codes and seed phrases; also in PowerShell and cmd.exe "
     "spellings. Clearing the TPM (tpm2_clear, Clear-Tpm), removing BitLocker's key protectors or forcing "
     "recovery, deleting GnuPG secret keys or a keychain, and putting a new passphrase on an SSH key "
     "(ssh-keygen -p -N) block too. A key in the project or in /tmp, a known_hosts line (ssh-keygen -R) and the "
     "agent's loaded keys (ssh-add -D) are not."),
)

# archivers that lock files under a password and can remove what they packed
_ZIPS = frozenset({"zip"})
_SEVENS = frozenset({"7z", "7za", "7zr", "7zz", "7-zip", "7zg"})
_RARS = frozenset({"rar", "winrar"})
# encrypters that replace each file by its encrypted copy
_IN_PLACE = frozenset({"ccrypt", "ccencrypt"})
_WIN_ENCRYPT = frozenset({"cipher", "manage-bde", "enable-bitlocker", "add-bitlockerkeyprotector",
                          "remove-bitlockerkeyprotector", "clear-tpm", "tpm2_clear", "tpm2-clear"})
_EMPTIERS = frozenset({"truncate", "dd", "cp"})
_PS_WRITERS = frozenset({"set-content", "sc", "clear-content", "clc", "out-file"})
_SECURE_DELETERS = frozenset({"sdelete", "sdelete64", "sdelete64a", "bleachbit"})
NAMES = _ZIPS | _SEVENS | _RARS | _IN_PLACE | _WIN_ENCRYPT | _DELETERS | _EMPTIERS | _PS_WRITERS | _SECURE_DELETERS | {
    "find", "%0", "ssh-keygen", "mkfile"}

# what a whole line must carry for `line` to look at it (cheap substring tests on the lowered source)
LINE_CUES = ("gpg", "openssl", "age ", "rage ", "scrypt", "crypt", "fernet", "aes", "cipher", "encrypt", "7z",
             "zip", "rar", "for", "while", "until", "seq ", "..", "bytearray", "range(", "%0", "remove-files",
             "loop", "**", "protect-cms", *(c for c in ("temp", "tmp", "public", "programdata", "perflogs", "/dev/shm",
                                                         "appdata")),
             "verschl", "chiffr", "cifra", "versleut", "зашифр", "暗号", "加密", "locked", "bloque", "gesperrt",
             "verrouill", "bloccat", "vergrendel")

# where a dropped program waits to be run (Windows' and Linux's temporary and shared folders)
_DROP_FOLDER = re.compile(r"^(?:\W?[a-z]:[\\/]+(?:windows[\\/]+temp|temp|tmp|users[\\/]+public|programdata|perflogs|"
                          r"users[\\/]+[^\\/]+[\\/]+appdata[\\/]+local[\\/]+temp)[\\/]|%(?:temp|tmp|public|programdata)%[\\/]|"
                          r"\$env:(?:temp|tmp|public|programdata)[\\/]|/(?:var/)?tmp/|/dev/shm/)", re.I)
# what a locker is told to cover: a whole drive, a network share, every mounted volume, the network
_WHOLE_TARGET = re.compile(r"^\W?(?:[a-z]:[\\/]?\W?|\\\\[^\\]+\\[^\\]+.*|/vmfs/volumes(?:/.*)?|/|/home/?|/mnt/?|/srv/?|"
                           r"/media/?|/volumes/?)$", re.I)
_LOCKER_FLAGS = frozenset({"-network", "--network", "-net", "--net", "-nomutex", "--nomutex", "-shares", "--shares",
                           "-lan", "--lan", "-spread", "--spread", "-nolan", "-allshares", "--all-drives", "-alldrives",
                           "--drives", "-drives", "-encrypt", "--encrypt", "-enc", "--enc", "-localdisk", "-netshare",
                           "--vmkill", "-vmkill", "--skip-vm", "-shadow", "-noshadow"})


def _staged_locker(analysis: ShellAnalysis, add: Callable[[Finding], None]) -> None:
    """A program run from a folder where dropped programs wait (Temp, Public, ProgramData, /tmp, /dev/shm) and told
    to cover whole drives, network shares or every volume (`--dir D:\\`, `-path \\\\host\\share`, `-network`,
    `-nomutex`): what ransomware is started with (`block.shell.ransom-encrypt`). The same program given a file of
    the project, and an installer run from Temp with its own flags, are left to the other checks."""
    for cmd in analysis.commands:
        argv = list(cmd.argv)
        if cmd.name == "start":  # cmd.exe's start: its own switches and a window title, then the program
            argv = argv[next((k for k, a in enumerate(argv) if k and not a.startswith("/") and a), len(argv)):]
        if len(argv) < 2 or not _DROP_FOLDER.match(argv[0]) or cmd.name in INTERPRETERS:
            continue
        words = [a.strip("'\"") for a in argv[1:]]
        flags = [w.lower() for w in words if w.startswith(("-", "/")) and not _WHOLE_TARGET.match(w)]
        # (a folder of people's files on Linux counts when an option names it: `-p /home`, `--path /mnt`)
        wide = [w for k, w in enumerate(words) if _WHOLE_TARGET.match(w) and (
            not w.startswith("/") or w.startswith("/vmfs") or (k and words[k - 1].startswith("-")))]
        marked = [f for f in flags if f.split("=", 1)[0] in _LOCKER_FLAGS]
        if wide or marked:
            add(Finding("block.shell.ransom-encrypt", Risk.CRITICAL,
                        f"runs {argv[0][:60]}, a program dropped in a temporary or shared folder, over "
                        f"{(wide or marked)[0][:40]}: what ransomware is started with", cmd.span))
            return


def _shares_packed(cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """7-Zip, WinRAR or rar packing a network share, a whole drive or a drive's shared folders into an archive:
    the data gathered to be taken away (`confirm.shell.secret-read`)."""
    words = [a.strip("'\"") for a in cmd.argv[1:]]
    if not words or words[0].lower() not in ("a", "u", "m"):
        return
    wide = [w for w in words[1:] if _WHOLE_TARGET.match(w) or
            re.match(r"^[a-z]:[\\/]+[^\\/]*shar(e|ed|es)[^\\/]*[\\/]?$", w, re.I)]
    if wide:
        add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{cmd.name} packs {wide[0][:60]}, a network share or a "
                    f"whole drive, into one archive: data gathered to be taken away{where}", cmd.span))

# where a path is a scratch copy (a temporary folder) or the person's own data (a home, the users' folders)
_SCRATCH = re.compile(r"^/(?:var/)?tmp/|^/dev/shm/|^/private/tmp/|^/[a-z]:/(?:windows/)?temp/|/appdata/local/temp/")
_PERSONAL = re.compile(r"^(?:/home/|/root(?:/|$)|/users/|/[a-z]:/users/|/[a-z]:/?$|/mnt/|/media/|/volumes/)")

# key material, by its resolved (folded) path
_KEY_MATERIAL = Guarded(re.compile(
    r"/\.ssh(?:/(?:id_[^/]*|identity|[^/]*_(?:rsa|dsa|ecdsa|ed25519)(?:_key)?|[^/]*\.(?:pem|key|ppk)))?$"
    r"|/\.gnupg(?:/(?:private-keys-v1\.d(?:/[^/]*)?|secring\.gpg|pubring\.(?:kbx|gpg)|trustdb\.gpg|"
    r"openpgp-revocs\.d(?:/[^/]*)?))?$"
    r"|\.(?:kdbx|kdb|keyx|psafe3|opvault|agilekeychain|1pux|1pif|walletx|keychain|keychain-db|wallet)$"
    r"|/(?:application support|appdata/(?:roaming|local)|\.config|\.local/share|library/group containers|"
    r"library/containers)/(?:[^/]*\.)?(?:1password[^/]*|bitwarden|keepassxc|keepass|enpass|dashlane|lastpass|exodus|"
    r"electrum|bitcoin|litecoin|ethereum|atomic|monero[^/]*|ledger live|authy desktop|keyrings)(?:/[^/]*)?$"
    r"|/\.password-store(?:/[^/]*)?$|/library/keychains(?:/[^/]*)?$"
    r"|/wallet\.dat$|/\.(?:bitcoin|litecoin|dogecoin|monero|bitmonero|electrum|electrum-ltc|zcash|dashcore)"
    r"(?:/wallets?(?:/[^/]*)?)?$|/\.?ethereum/keystore(?:/[^/]*)?$|/keystore/utc--[^/]*$|/exodus\.wallet$|"
    r"/\.config/solana/id\.json$|/nkbihfbeogaeaoehlefnkodbefgpgknn$"
    r"|/\.aws(?:/credentials)?$|/\.kube(?:/config)?$|/\.azure$|/\.config/gcloud(?:/(?:credentials\.db|"
    r"application_default_credentials\.json|legacy_credentials))?$"
    r"|/(?:login data|login data for account|logins\.json|key[34]\.db|signons\.sqlite)$"
    r"|/[^/]*(?:recovery|backup|rescue)[-_ .]?(?:codes?|keys?|phrase|seed|kit)[^/]*$"
    r"|/[^/]*(?:2fa|mfa|otp|totp|authenticator)[-_ .]?(?:backup|codes?|secrets?|recovery)[^/]*$"
    r"|/\.google_authenticator$|/[^/]*(?:seed[-_ ]?phrase|mnemonic)[^/]*$"))
_CODE_FILE = re.compile(r"\.(?:py|js|ts|go|rb|java|c|h|rs|kt|swift|php|sh|md|html|json|ya?ml|toml)$")


def _key_material(path: str) -> bool:
    if not _KEY_MATERIAL.search(path) or path.endswith(".pub"):
        return False  # (a public key is published anyway)
    tail = path.rsplit("/", 1)[-1]
    # (a program's source file named for recovery codes is code, not codes; keystore json keeps its name)
    return not (_CODE_FILE.search(tail) and not tail.startswith("utc--") and
                tail not in ("id.json", "logins.json", "application_default_credentials.json"))


def _where_key(d: Any, cmd: Command, word: str) -> str | None:
    """The key material `word` names, as shown to a person: an absolute or home path (not a temporary one) that
    is a key, a vault or a login store, or a glob in such a folder; None otherwise."""
    if word[:1] not in ("/", "~", "$", "%") and not (len(word) > 2 and word[1] == ":"):
        return None  # relative: the project's own files (a test key, a fixture vault)
    path = d.resolve(cmd, word)
    if not path or _SCRATCH.search(path):
        return None
    path = path.rstrip("/")
    if _key_material(path):
        return display_path(path)
    if _GLOB_CHARS.search(path):
        parent = _GLOB_CHARS.split(path, 1)[0].rsplit("/", 1)[0]
        if parent and _key_material(parent) and not path.rsplit("/", 1)[-1].startswith("s."):
            return display_path(path)
    return None


def _reach(d: Any, cmd: Command, word: str) -> str:
    """How much of the person's data `word` reaches: "personal" (a home, the users' folders, a protected or
    system path), "scratch" (a temporary folder), "project" (relative, the working directory), "other"."""
    if word[:1] not in ("/", "~", "$", "%") and not (len(word) > 2 and word[1] == ":"):
        return "project"
    path = d.resolve(cmd, word)
    if not path:
        return "other"
    if _SCRATCH.search(path):
        return "scratch"
    if path.startswith(HOME) or _PERSONAL.search(path) or d.protected_target(cmd, word) is not None:
        return "personal"
    return "other"


def _wide(word: str, recursive: bool) -> bool:
    """A glob, a folder named as one, or anything packed recursively: more than one file."""
    if word[:1] == "$" and "/" not in word and "\\" not in word:
        return recursive  # a variable: one file, unless a loop or a search hands it many
    base = word.rstrip("/\\").rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    return bool(_GLOB_CHARS.search(word)) or word.endswith(("/", "\\")) or recursive or "." not in base or \
        word in (".", "..", "~")


def _lock(d: Any, cmd: Command, sources: list[str], how: str, where: str, add: Callable[[Finding], None],
          recursive: bool = False) -> None:
    """Files locked under a password with the originals gone: block over the person's data, a whole folder or a
    glob, ask for a single file in a temporary folder or the project."""
    if not sources:
        return
    reaches = [(w, _reach(d, cmd, w)) for w in sources]
    hit = next((w for w, r in reaches if r == "personal"), None) or \
        next((w for w, r in reaches if _wide(w, recursive) and not d.regenerable_target(cmd, w)), None)
    if hit is not None:
        add(Finding("block.shell.ransom-encrypt", Risk.CRITICAL,
                    f"{how} {hit} under a password the person did not choose and removes the originals: what "
                    f"ransomware does{where}", cmd.span))
    else:
        add(Finding("confirm.shell.destructive", Risk.HIGH,
                    f"{how} {sources[0]} under a password and removes the original{where}", cmd.span))


def _zip(cmd: Command) -> tuple[bool, bool, bool, list[str]]:
    """(moves, encrypts, recursive, sources) of a zip command."""
    moves = enc = rec = False
    operands: list[str] = []
    args = cmd.argv[1:]
    k = 0
    while k < len(args):
        a = args[k]
        if a.startswith("--"):
            moves |= a in ("--move",)
            enc |= a in ("--encrypt", "--password") or a.startswith("--password=")
            rec |= a in ("--recurse-paths", "--recurse-patterns")
            if a in ("--password", "--temp-path", "--suffixes", "--exclude", "--include"):
                k += 1
        elif a.startswith("-") and len(a) > 1:
            letters = a[1:]
            if letters in ("x", "i") or (letters.startswith(("x", "i")) and len(letters) == 1):
                break  # the patterns that follow are not files
            if letters[:1] not in ("t", "b", "n", "s", "o", "z", "Z", "O", "M"):
                moves |= "m" in letters
                enc |= "e" in letters or "P" in letters
                rec |= "r" in letters or "R" in letters
            if letters[-1:] in ("P", "b", "n", "t", "O", "Z") or letters in ("tt", "s"):
                k += 1
        else:
            operands.append(a)
        k += 1
    return moves, enc, rec, operands[1:]


def _seven(cmd: Command) -> tuple[bool, bool, list[str]]:
    """(removes, encrypts, sources) of a 7-Zip or RAR command."""
    args = cmd.argv[1:]
    if not args:
        return False, False, []
    verb = args[0].lower()
    rar = cmd.name in _RARS
    if verb not in (("a", "m", "mf", "u", "f") if rar else ("a", "u")):
        return False, False, []
    flags = [a.lower() for a in args[1:] if a.startswith("-")]
    removes = (rar and verb in ("m", "mf")) or any(f in ("-sdel", "-df", "-dr") for f in flags)
    enc = any((f.startswith("-p") and f != "-p-") or f.startswith("-hp") for f in flags)
    operands = [a for a in args[1:] if not a.startswith(("-", "@"))]
    return removes, enc, operands[1:]


_CCRYPT_OFF = frozenset({"-d", "--decrypt", "-c", "--cat", "-x", "--keychange", "-h", "--help", "-V", "--version",
                         "-L", "--license", "-u", "--unixcrypt"})
_CCRYPT_VALUE = frozenset({"-K", "--key", "-k", "--keyfile", "-E", "--envvar", "-S", "--suffix", "-H",
                           "--key2", "-Q", "--prompt2", "-P", "--prompt"})
_BDE_LOCK = re.compile(r"(?:^|\s)-(?:rp|recoverypassword|pw|password|sk|startupkey|rk|recoverykey)\b")
_SIZE_WORD = re.compile(r"^[+-]?(\d+)([kmgtpe]?)(?:i?b)?$", re.I)


def judge(d: Any, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """One simple command: an archiver or encrypter that removes what it locks, a delete or an overwrite of key
    material, a tool that clears keys or locks a disk, a huge sparse file."""
    name = cmd.name
    if name in _ZIPS:
        moves, enc, rec, sources = _zip(cmd)
        if moves and enc:
            _lock(d, cmd, sources, "zip packs", where, add, rec)
    elif name in _SEVENS or name in _RARS:
        removes, enc, sources = _seven(cmd)
        if removes and enc:
            _lock(d, cmd, sources, f"{name} packs", where, add, True)
        else:
            _shares_packed(cmd, where, add)
    elif name in _IN_PLACE:
        if any(a in _CCRYPT_OFF for a in cmd.argv[1:]):
            return
        sources, skip = [], False
        for a in cmd.argv[1:]:
            if skip:
                skip = False
            elif a in _CCRYPT_VALUE:
                skip = True
            elif not a.startswith("-"):
                sources.append(a)
        rec = any(a in ("-r", "--recursive") for a in cmd.argv[1:])
        _lock(d, cmd, sources, f"{name} encrypts in place", where, add, rec)
    elif name in _WIN_ENCRYPT:
        _windows(d, cmd, where, add)
    elif name == "ssh-keygen":
        words = cmd.argv[1:]
        if "-p" in words and "-N" in words:
            k = words.index("-N")
            if k + 1 < len(words) and words[k + 1].strip("'\"") and \
                    (f := next((words[j + 1] for j, w in enumerate(words[:-1]) if w == "-f"), "~/.ssh/id_*")) and \
                    _where_key(d, cmd, f) is not None:
                add(Finding("block.shell.key-destruction", Risk.CRITICAL,
                            f"puts a new passphrase on the SSH key {f}: the person can no longer use it{where}",
                            cmd.span))
    elif name == "%0":
        add(Finding("block.shell.fork-bomb", Risk.CRITICAL, "a batch file that starts itself without end", cmd.span))
    else:
        _destroys_keys(d, cmd, where, add)
        if name == "mkfile":
            size = next((w for w in cmd.argv[1:] if _SIZE_WORD.match(w)), "")
            if _size(size.lower().rstrip("b")) >= _DISK_FILL:
                add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                            f"mkfile makes a {size} file: enough to fill the disk{where}", cmd.span))
        if name == "truncate":
            words = cmd.argv[1:]
            size = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-s", "--size")), None) or \
                next((w.split("=", 1)[1] for w in words if w.startswith("--size=")), None) or \
                next((w[2:] for w in words if w.startswith("-s") and len(w) > 2), "")
            if _size(size.lstrip("+").lower().rstrip("b").rstrip("i") if size else "") >= _DISK_FILL:
                add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                            f"truncate makes a {size} file: enough to fill the disk{where}", cmd.span))


def _windows(d: Any, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    name = cmd.name
    text = " ".join(cmd.words[1:])
    if name == "cipher":
        if any(w == "/e" for w in cmd.words[1:]):
            folders = [w[3:] for w in cmd.argv[1:] if w.lower().startswith("/s:")] or \
                [w for w in cmd.argv[1:] if not w.startswith("/")]
            hit = next((w for w in folders if _reach(d, cmd, w) == "personal"), None)
            if hit is not None:
                add(Finding("block.shell.ransom-encrypt", Risk.CRITICAL,
                            f"encrypts {hit} with a file-system key: locked to one account and one certificate"
                            f"{where}", cmd.span))
    elif name == "manage-bde":
        if "-on" in cmd.words and _BDE_LOCK.search(text):
            add(Finding("block.shell.ransom-encrypt", Risk.CRITICAL,
                        f"switches BitLocker on with a password or recovery key the agent sets: the disk is locked "
                        f"to whoever holds it{where}", cmd.span))
        elif "-forcerecovery" in cmd.words or "-fr" in cmd.words or \
                ("-protectors" in cmd.words and ("-delete" in cmd.words or "-disable" in cmd.words)):
            add(Finding("block.shell.key-destruction", Risk.CRITICAL,
                        f"removes BitLocker's key protectors or forces recovery: the disk opens only with a "
                        f"recovery key{where}", cmd.span))
    elif name == "enable-bitlocker":
        if re.search(r"-(?:passwordprotector|recoverypasswordprotector|startupkeyprotector|password\b)", text):
            add(Finding("block.shell.ransom-encrypt", Risk.CRITICAL,
                        f"switches BitLocker on with a password the agent sets{where}", cmd.span))
    elif name == "remove-bitlockerkeyprotector" or name in ("clear-tpm", "tpm2_clear", "tpm2-clear"):
        add(Finding("block.shell.key-destruction", Risk.CRITICAL,
                    f"{cmd.argv[0]} destroys the keys that unlock the disk or the machine's TPM{where}", cmd.span))


def overwrites(d: Any, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """A redirect that empties or replaces key material (`echo > ~/.aws/credentials`, `: > vault.kdbx`)."""
    for op, target in cmd.redirects:
        if op[:1] == ">" and op[:2] != ">>" and (hit := _where_key(d, cmd, target)) is not None:
            add(Finding("block.shell.key-destruction", Risk.CRITICAL,
                        f"writes over {hit}: keys, logins or recovery codes the person cannot get back{where}",
                        cmd.span))
            return


def _destroys_keys(d: Any, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """rm/shred/del/Remove-Item/truncate/dd/cp /dev/null of key material, or find -delete over it."""
    name = cmd.name
    if name in _PS_WRITERS:
        words = [cmd.argv[k + 1] for k, w in enumerate(cmd.words[:-1], 0)
                 if k and w in ("-path", "-literalpath", "-filepath", "-lp")] or \
            [a for k, a in enumerate(cmd.argv[1:2], 1) if not a.startswith("-") and k not in cmd.dynamic]
        how = "writes over"
    elif name in _DELETERS or name in _SECURE_DELETERS or name == "truncate":
        words = [a for k, a in enumerate(cmd.argv[1:], 1) if k not in cmd.dynamic and not a.startswith("-")]
        if name == "truncate":
            words = [w for w in words if not _SIZE_WORD.match(w)]
        how = "deletes" if name != "truncate" else "empties"
    elif name == "dd":
        words = [a[3:] for a in cmd.argv[1:] if a.lower().startswith("of=")]
        how = "writes over"
    elif name == "cp" and "/dev/null" in cmd.argv[1:-1]:
        words = cmd.argv[-1:]
        how = "empties"
    elif name == "find" and any(w in ("-delete", "shred", "rm") for w in cmd.words):
        words = []
        roots = []
        for a in cmd.argv[1:]:
            if a.startswith(("-", "(", "!")):
                break
            roots.append(a)
        names = [cmd.argv[k + 1].strip("'\"") for k, w in enumerate(cmd.words[:-1])
                 if w in ("-name", "-iname") and k + 1 < len(cmd.argv)]
        for r in roots:
            if _where_key(d, cmd, r) is not None:
                words.append(r)
            elif names and _reach(d, cmd, r) in ("personal", "other") and \
                    any(_key_material("/" + n.lower().replace("*", "x")) for n in names):
                words.append(f"{r} ({', '.join(names)})")
                add(Finding("block.shell.key-destruction", Risk.CRITICAL,
                            f"deletes every {', '.join(names)} under {r}: keys and vaults the person cannot get "
                            f"back{where}", cmd.span))
                return
        how = "deletes"
    else:
        return
    for w in words:
        hit = _where_key(d, cmd, w)
        if hit is not None:
            add(Finding("block.shell.key-destruction", Risk.CRITICAL,
                        f"{how} {hit}: keys, logins or recovery codes the person cannot get back{where}", cmd.span))
            return


# -- the whole line -----------------------------------------------------------------------------------------

_ENCRYPTERS = frozenset({"gpg", "gpg2", "gpgtar", "openssl", "age", "rage", "scrypt", "aescrypt", "mcrypt",
                         "zip", "7z", "7za", "7zr", "7zz", "rar", "winrar", "encfs", "cryptor", "protect-cmsmessage"})
_GPG_ENCRYPT = re.compile(r"^(?:-[a-z]*[ce][a-z]*|--symmetric|--encrypt|--encrypt-files|--sign-and-encrypt)$")
_OPENSSL_CIPHER = re.compile(r"^(?:enc|aes|des|bf|camellia|cast|chacha|rc[24]|seed|sm4|aria|idea)")
_REMOVERS = _DELETERS | {"unlink"}

# interpreter code that encrypts files and destroys the originals
_PS_LOOPS = frozenset({"foreach-object", "%", "foreach", "get-childitem", "gci", "powershell", "pwsh"})
_CODE_CRYPTO = re.compile(r"fernet|\baes\.new\(|\bcipher\(|pyaescrypt|chacha20poly1305|aesgcm|createcipheriv|"
                          r"security\.cryptography|createencryptor|\baes\]::create|aesmanaged|aescryptoserviceprovider|"
                          r"openssl::cipher|crypto\.cipher|\.encrypt\(|\bencrypt_file", re.I)
_CODE_REMOVE = re.compile(r"os\.remove\(|os\.unlink\(|\.unlink\(|shutil\.rmtree|remove-item|\bri\s|\bdel\s|"
                          r"unlinksync|rmsync|file\.delete|\[io\.file\]::delete|\.delete\(\)|\bfileutils\.rm|"
                          r"os\.replace\(|os\.rename\(|move-item", re.I)
_CODE_WALK = re.compile(r"os\.walk|listdir|scandir|\bglob\b|rglob|iterdir|get-childitem|\bgci\b|\bdir\b|\bls\b|"
                        r"readdirsync|dir\.glob|expanduser|\$home|userprofile|~/|/home/", re.I)
_CODE_OVERWRITE = re.compile(r"['\"](?:wb|r\+b|w)['\"]|writeallbytes|writefilesync|set-content|out-file|"
                             r"file\.write|\.write_bytes\(", re.I)
_CODE_BALLOON = re.compile(r"bytearray\(\s*(?:\d{10,}|\d+\s*\*\*\s*(?:9|[1-9]\d)|1024\s*\*\*\s*[3-9]|"
                           r"\d+\s*\*\s*1024\s*\*\*\s*[3-9])|"
                           r"['\"][^'\"\n]{1,8}['\"]\s*\*\s*(?:\d{10,}|10\s*\*\*\s*(?:9|[1-9]\d)|1024\s*\*\*\s*[3-9])|"
                           r"\[[^\]\n]{0,8}\]\s*\*\s*(?:\d{10,}|10\s*\*\*\s*(?:9|[1-9]\d))", re.I)
_CODE_ENDLESS = re.compile(r"\bwhile\s*\(?\s*(?:true|1)\s*\)?\s*:|\bwhile\s*\(\s*(?:true|1)\s*\)\s*\{|"
                           r"\bfor\s*\(\s*;\s*;\s*\)|itertools\.count\(\)|\bloop\s*(?:\{|do\b)", re.I)
_CODE_GROWS = re.compile(r"\.append\(|\+=|bytearray\(|\.push\(|\bpush\s*\(?\s*@|\*\s*10\s*\*\*|"
                         r"open\([^\n]{0,120}?,\s*['\"][wa]", re.I)

# loops of many passes, and what makes files or starts processes in a loop's body
_MANY = re.compile(r"for\s*\(\(\s*\w+\s*=\s*(\d+)\s*;\s*\w+\s*<=?\s*(\d+)|"
                   r"\bfor\s+\w+\s+in\s+[^;\n]{0,80}?\{(\d+)\.\.(\d+)\}|"
                   r"\bfor\s+\w+\s+in\s+[\$`]\(?\s*seq\s+(?:-\S+\s+)*(?:\d+\s+){0,2}(\d+)\b|"
                   r"\bseq\s+(?:-\S+\s+)*(?:\d+\s+){0,2}(\d+)\s*\|\s*(?:xargs|while|parallel)\b|"
                   r"\b(\d+)\.\.(\d+)\s*\|\s*(?:%|foreach)|"
                   r"\bfor\s+/l\s+%%?\w+\s+in\s*\(\s*-?\d+\s*,\s*-?\d+\s*,\s*(\d+)\s*\)|"
                   r"\bfor\s+\w+\s+in\s+range\(\s*(?:\d+\s*,\s*)?(\d+|10\s*\*\*\s*\d+)\s*\)|"
                   r"\b(?:touch|mkdir|fallocate|truncate|mktemp)\b[^;&|\n]{0,200}?\{(\d+)\.\.(\d+)\}", re.I)
_ENDLESS_LOOP = Guarded(re.compile(r"\bwhile\s+(?:true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))\s*;?\s*do\b|"
                                   r"\buntil\s+false\s*;?\s*do\b|"
                                   r"\bwhile\s*\(\s*\$true\s*\)|\bfor\s*\(\s*;\s*;\s*\)|:\w+\s*&\s*goto\b", re.I))
_MAKES_FILES = re.compile(r"\b(?:touch|truncate|fallocate|dd|mkdir|head\s+-c|cp|mktemp|new-item|ni|set-content|"
                          r"out-file|fsutil\s+file\s+createnew|add-content|copy)\b|"
                          r"[^<>&|]>{1,2}\s*[\"']?[^&\s;|\"']*[$%{]|open\([^\n]{0,120}?,\s*['\"][wa]", re.I)
_SPAWNS = re.compile(r"\b(?:start-process|saps|start)\s+[\"']?(?:powershell|pwsh|cmd|%0|\$0|\$pshome)", re.I)


def _count(m: re.Match[str]) -> int:
    g = m.groups()
    nums = [x for x in g if x]
    if not nums:
        return 0
    last = nums[-1].replace(" ", "")
    if "**" in last:
        base, exp = last.split("**", 1)
        top = int(base) ** min(int(exp), 30)
    else:
        top = int(last[:12])
    return top


def line(d: Any, analysis: ShellAnalysis, add: Callable[[Finding], None]) -> None:
    """What the commands of one line do together: encrypt then delete the same files, a loop that makes files
    thousands of times or forever, code that encrypts and deletes or fills memory."""
    src = analysis.source[:8192]
    low = src.lower()
    cmds = analysis.commands
    note_line(analysis, add)
    _encrypt_then_delete(d, analysis, add)
    _staged_locker(analysis, add)
    if any(c.name in INTERPRETERS or c.name in _PS_LOOPS for c in cmds) or "<<" in src:
        codes = [a for c in cmds if c.name in INTERPRETERS or c.name in ("powershell", "pwsh")
                 for a in c.argv[1:] if len(a) > 12]
        codes += [c.stdin_text for c in cmds if c.stdin_text]
        if any(c.name in _PS_LOOPS for c in cmds) and _CODE_CRYPTO.search(src):
            codes.append(src)  # a PowerShell pipeline's script blocks are code too
        for code in codes:
            if _CODE_CRYPTO.search(code) and (_CODE_REMOVE.search(code) or
                                              (_CODE_WALK.search(code) and _CODE_OVERWRITE.search(code))):
                wide = _CODE_WALK.search(code) is not None
                add(Finding("block.shell.ransom-encrypt" if wide else "confirm.shell.destructive",
                            Risk.CRITICAL if wide else Risk.HIGH,
                            "interpreter code encrypts files and deletes or overwrites the originals"
                            + (": what ransomware does to a folder" if wide else ""), code[:200]))
                break
            if _CODE_BALLOON.search(code) or (_CODE_ENDLESS.search(code) and _CODE_GROWS.search(code)):
                add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                            "interpreter code fills memory or the disk without a bound", code[:200]))
                break
    if "%0" in src and re.search(r"%0\s*\|\s*%0|start\s+[\"']?%0", src, re.I):
        add(Finding("block.shell.fork-bomb", Risk.CRITICAL, "a batch file that starts itself without end", src[:80]))
    endless = _ENDLESS_LOOP.search(low)
    if endless and "sleep" not in low and "timeout" not in low and \
            (_MAKES_FILES.search(low, endless.end()) or _SPAWNS.search(low, endless.end())):
        add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                    "a loop with no end makes files or starts programs: it fills the disk or the process table",
                    src[:200]))
        return
    for m in _MANY.finditer(low):
        if _count(m) >= 1000 and ((m.group(0)[:1] in "tmf" and m.group(0)[:3] != "for") or
                                  _MAKES_FILES.search(low, m.end())):
            add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                        f"a loop makes files {_count(m)} times: it fills the disk or its file table", src[:200]))
            return


# options of gpg and age that take the next word as their value (never a file to encrypt)
_GPG_VALUE_OPTIONS = frozenset({"-o", "--output", "-r", "--recipient", "--passphrase", "-u", "--local-user",
                                "--cipher-algo", "--passphrase-file", "--passphrase-fd", "--pinentry-mode",
                                "--compress-algo", "--homedir"})
_AGE_VALUE_OPTIONS = frozenset({"-o", "--output", "-r", "--recipient", "-R", "--recipients-file", "-i", "--identity"})


def _operands(args: list[str], value_options: frozenset[str]) -> list[str]:
    """The words of `args` that are files: neither an option nor the value an option takes."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in value_options:
            skip = True
        elif not a.startswith("-"):
            out.append(a)
    return out



def _encrypter_inputs(c: Command) -> list[str] | None:
    """The files an encrypting command reads (None when the command does not encrypt)."""
    name, args = c.name, c.argv[1:]
    words = c.words[1:]
    if name in ("gpg", "gpg2", "gpgtar"):
        if not any(_GPG_ENCRYPT.match(w) for w in words) or any(w in ("-d", "--decrypt") for w in words):
            return None
        return _operands(args, _GPG_VALUE_OPTIONS)
    if name == "openssl":
        if not words or not (_OPENSSL_CIPHER.match(words[0].lstrip("-")) or "-encrypt" in words) or "-d" in words:
            return None
        return [args[k + 1] for k, w in enumerate(words[:-1]) if w == "-in"]
    if name in ("age", "rage"):
        if any(w in ("-d", "--decrypt") for w in words):
            return None
        return _operands(args, _AGE_VALUE_OPTIONS)
    if name == "protect-cmsmessage":
        return [args[k + 1] for k, w in enumerate(words[:-1]) if w in ("-path", "-literalpath")]
    if name in ("scrypt", "aescrypt", "mcrypt", "encfs", "cryptor"):
        if any(w in ("dec", "-d", "--decrypt") for w in words):
            return None
        return [a for a in args if not a.startswith("-") and a != "enc"][:1]
    if name in _ZIPS:
        moves, enc, _, sources = _zip(c)
        return sources if enc else None
    if name in _SEVENS or name in _RARS:
        verb = words[0] if words else ""
        if verb in ("a", "u", "m", "mf") and any((w.startswith("-p") and w != "-p-") or w.startswith("-hp")
                                                 for w in words):
            return [a for a in args[1:] if not a.startswith(("-", "@"))][1:]
        return None
    return None


def _covers(target: str, source: str) -> bool:
    t, s = target.rstrip("/"), source.rstrip("/")
    if not t or not s:
        return False
    if t == s or s.startswith(t + "/") or s.startswith(t.rstrip("*").rstrip("/") + "/"):
        return True
    return bool(_GLOB_CHARS.search(t)) and re.fullmatch(re.escape(t).replace(r"\*", ".*").replace(r"\?", "."), s) \
        is not None


_LOOPS = re.compile(r"\b(?:for|while|foreach|xargs|parallel)\b|-exec")  # a command run over many files


def _encrypt_then_delete(d: Any, analysis: ShellAnalysis, add: Callable[[Finding], None]) -> None:
    cmds = analysis.commands
    if len(cmds) < 2:
        return
    many = bool(_LOOPS.search(analysis.source[:8192]))
    for k, c in enumerate(cmds):
        if c.name not in _ENCRYPTERS and c.name != "tar":
            continue
        if c.name == "tar":
            # tar --remove-files piped into an encrypter: the archive leaves encrypted, the originals go
            if "--remove-files" in c.words and any(cmds[j].name in _ENCRYPTERS and k in cmds[j].upstream
                                                   for j in range(k + 1, len(cmds))):
                sources = [a for a in c.argv[1:] if not a.startswith("-") and a != "-"]
                _lock(d, c, sources[1:] if "-f" in c.words or any(w.startswith("-") and "f" in w for w in c.words[1:2])
                      else sources, "tar packs and removes", "", add, True)
                return
            continue
        inputs = _encrypter_inputs(c)
        if not inputs:
            continue
        for later in cmds[k + 1:]:
            if later.name not in _REMOVERS and not (later.name == "find" and "-delete" in later.words):
                continue
            targets = [a for a in later.argv[1:] if not a.startswith("-") and not (later.name in ("del", "erase", "rd")
                                                                                 and a.startswith("/"))]
            for t in targets:
                for src in inputs:
                    same = t == src or _covers(d.resolve(later, t) or t, d.resolve(c, src) or src)
                    if same:
                        _lock(d, c, [src], f"{c.name} encrypts", "", add, many or c.found or
                              later.name == "find" or
                              any(w.startswith("-") and "r" in w.lower() for w in later.words[1:]))
                        return


# -- a ransom note: files said to be held, and a price or a way to pay for them ----------------------------------

# what is held: the person's files, documents, photos, databases, network (en, de, fr, es, it, pt, nl, ru)
_HELD = (r"(?:files?|documents?|data|photos?|pictures?|databases?|backups?|network|computers?|servers?|systems?|"
         r"dateien|daten|dokumente|fotos|fichiers|documents|données|donnees|archivos|ficheros|documentos|datos|"
         r"documenti|dati|arquivos|dados|bestanden|documenten|gegevens|файлы|документы|данные)")
# how it is held: encrypted, locked, enciphered
_LOCKED = (r"(?:encrypted|crypted|enciphered|locked|ciphered|verschlüsselt|verschluesselt|gesperrt|chiffrés?|"
           r"chiffrees?|chiffrées?|cryptés?|cryptes|verrouillés?|cifrados?|encriptados?|bloqueados?|crittografati|criptati|"
           r"cifrati|bloccati|criptografados?|versleuteld|vergrendeld|gecodeerd|зашифрованы|заблокированы)")
_CLAIM = Guarded(re.compile(
    rf"(?:\b{_HELD}\b(?:[\s,]+[\w'’-]+){{0,5}}?[\s,]+{_LOCKED}\b|\b{_LOCKED}(?:[\s,]+[\w'’-]+){{0,3}}?[\s,]+"
    rf"(?:your|all|ihre|deine|vos|tous|sus|tus|todos|i tuoi|tutti|seus|todos os|uw|je|ваши)\b(?:[\s,]+[\w'’-]+){{0,2}}?"
    rf"[\s,]+{_HELD}\b|ファイル.{{0,12}}暗号化|(?:文件|数据).{{0,10}}加密)", re.I))
# the price or the way back: pay, a ransom, a coin address, a decrypter, a deadline, a contact to write to
_DEMAND = re.compile(
    r"\b(?:pay|ransom|bitcoins?|btc|monero|xmr|usdt|wallet|decrypt(?:or|er)|"
    r"decrypt(?:ion)? (?:key|tool|software|program|service)|(?:to )?decrypt (?:your|them|all|the files)|"
    r"tor browser|\.onion|within \d+ (?:hours?|days?)|\d+ (?:hours?|days?) (?:left|remaining)|unique key|"
    r"zahlen|bezahlen|lösegeld|loesegeld|entschlüssel\w*|payer|paiement|rançon|rancon|déchiffr\w*|décrypt\w*|"
    r"pagar|pago|pague|rescate|descifr\w*|desencript\w*|pagare|pagamento|riscatto|decrittograf\w*|decifr\w*|"
    r"resgate|descriptograf\w*|betalen|betaling|losgeld|ontsleutel\w*|выкуп|оплат\w*|расшифр\w*)\b|"
    r"身代金|支払|復号|赎金|支付|解密|比特币", re.I)
# a text about ransom notes rather than one: advice, a report, a detection rule
_ABOUT = re.compile(r"\b(?:do not pay|don'?t pay|never pay|if your (?:files|data)|victims?|detect\w*|yara|sigma|"
                    r"signature|indicators?|ioc|(?<![@.])example(?![.\w])|sample|simulat\w*|training|"
                    r"awareness)\b", re.I)
# a notice that files are encrypted for the person's good (a backup, a vault, storage encrypted at rest)
_SAFE_LOCK = re.compile(r"\b(?:backed up|backup (?:complete|finished|done)|at rest|end.to.end|vault|synced|"
                        r"safely|securely|privacy|we never)\b", re.I)
# the claim's words that say encrypted (not merely locked: "the file is locked by another user")
_CRYPTO_WORD = re.compile(r"crypt|ciph|verschl|chiffr|cifra|versleut|gecodeerd|зашифр|暗号|加密", re.I)
# programs that speak or show a text to whoever sits at the machine
_ANNOUNCERS = frozenset({"say", "espeak", "espeak-ng", "spd-say", "festival", "osascript", "notify-send", "dunstify",
                         "zenity", "yad", "kdialog", "xmessage", "gxmessage", "msg", "wall", "terminal-notifier",
                         "alerter", "write-host", "new-burnttoastnotification", "mshta", "wscript", "cscript"})
# programs that only look for a text: a search for a note's words is not a note
_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ugrep", "findstr", "select-string", "sls", "yara",
                        "git", "sigma", "jq", "awk"})


def ransom_note(text: str, announced: bool = False) -> str | None:
    """The words of a ransom note in `text` (files said to be encrypted or locked, and a price, a coin, a decrypter,
    a deadline), or None. `announced`: the text is spoken or shown to the person, where the claim alone frightens."""
    text = text[:8192]
    claim = _CLAIM.search(text)
    if claim is None or _ABOUT.search(text):
        return None
    if _SAFE_LOCK.search(text):
        return None
    if _DEMAND.search(text) or (announced and _CRYPTO_WORD.search(claim.group(0))):
        return claim.group(0)[:80]
    return None


def note_line(analysis: ShellAnalysis, add: Callable[[Finding], None]) -> None:
    """A line that shows, speaks, echoes or writes a ransom note (`say`, `osascript -e 'display dialog ...'`,
    notify-send, msg *, echo > README.txt): the note a locker leaves, whatever locked the files."""
    names = {c.name for c in analysis.commands}
    if not names or names <= _SEARCHERS:
        return
    quote = ransom_note(analysis.source, announced=bool(names & _ANNOUNCERS))
    if quote is not None:
        add(Finding("block.shell.ransom-note", Risk.CRITICAL,
                    f"shows, speaks or writes a ransom note (\"{quote}\"): what a locker leaves for its victim",
                    analysis.source[:160]))


RULE_DOCS = (*RULE_DOCS, (
    "block.shell.ransom-note", "a ransom note shown, spoken or written", Risk.CRITICAL,
    "A line that speaks, shows, echoes or writes a text saying the person's files are encrypted or locked with a "
    "price, a coin address, a decrypter, a deadline or a contact (English, German, French, Spanish, Italian, "
    "Portuguese, Dutch, Russian, Japanese, Chinese): say, osascript say / display dialog, notify-send, zenity, "
    "msg *, wall, echo into a file. Spoken or shown, the claim alone blocks, unless it says the files are safe "
    "(backed up, encrypted at rest). Advice, reports and detection rules about ransom notes pass."))


_NOTE_NAME = re.compile(r"(?:decrypt|restore|recover|read_?me|readme|how_?to|instructions?|help|unlock|ransom|"
                        r"entschl|wiederherstell|déchiffr|dechiffr|récupér|recuper|descifr|ontsleutel)", re.I)


@rule("block.files.ransom-note", "A ransom note written as a file", risk=Risk.CRITICAL, types=("file_write",))
def ransom_note_file(ctx: Context) -> CheckResult:
    """A file written saying the person's files are encrypted or locked, with a price, a coin address, a decrypter,
    a deadline or a contact (in English, German, French, Spanish, Italian, Portuguese, Dutch, Russian, Japanese,
    Chinese); or a note named for decrypting or restoring files that says they are encrypted. It is the note a
    locker leaves beside what it locked. Advice, reports and detection rules about ransom notes pass."""
    content = getattr(ctx.action, "content", "") or ""
    if len(content) < 12:
        return None
    name = (getattr(ctx.action, "path", "") or "").replace("\\", "/").rsplit("/", 1)[-1]
    quote = ransom_note(content, announced=bool(_NOTE_NAME.search(name)))
    if quote is None:
        return None
    return f"writes {name[:60] or 'a file'}, a ransom note (\"{quote}\"): what a locker leaves for its victim"


FILE_RULES: tuple[Rule, ...] = (ransom_note_file,)
