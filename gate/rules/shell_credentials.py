"""Shell checks: reading secrets: keys, credential files, history, keychains.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

from collections.abc import Callable

from gate.model import Risk
from gate.rules.shell_vocab import (
    _DUMPERS,
    _OPENSSL_KEEPS_KEYS,
    _OUTPUT_FLAGS,
    _READERS,
    _SECRET_READERS,
    _SECRET_VAR,
    _last_operand,
)
from gate.shell import (
    Command,
    Finding,
    ShellAnalysis,
)

__all__ = ["CredentialChecks"]


class CredentialChecks:
    """Reading secrets: keys, credential files, history, keychains."""

    def reads_secret(self, cmd: Command) -> str | None:
        """The secret `cmd` reads (display form), if any: a reader over a secret path, `< secret`, env dumps,
        `printenv` of a secret-named variable."""
        for op, target in cmd.redirects:
            if op == "<":
                hit = self.secret_path(cmd, target)
                if hit:
                    return hit
        if (cmd.name in _READERS or cmd.name in ("curl", "wget", "scp", "rsync", "sftp")) and not (
                cmd.name == "openssl" and cmd.words[1:2] and cmd.words[1] in _OPENSSL_KEEPS_KEYS):
            # a copy's destination is written, not read (`cp .env.example .env`)
            dest = (_last_operand(cmd) if cmd.name in ("cp", "install", "rsync", "scp") else None)
            for i, a in enumerate(cmd.argv[1:], 1):
                if i in cmd.dynamic or cmd.argv[i - 1] in _OUTPUT_FLAGS or i == dest:
                    continue  # a file it creates (openssl genrsa -out key.pem) is not one it reads
                hit = self.secret_path(cmd, a.lstrip("@"))
                if hit:
                    return hit
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
        if not cmd.redirects and cmd.name not in _SECRET_READERS:
            return  # reads_secret names a secret read through `<`, or by one of these programs only
        secret = self.reads_secret(cmd)
        if secret is None or secret == "the environment (tokens and keys)":
            return
        if cmd.name in _DUMPERS and self.credential_files.search(secret):
            add(Finding("block.shell.credential-read", Risk.CRITICAL, f"prints {secret}: a private key or "
                        f"credential file (as a file_read of it){where}", cmd.span))
            return
        add(Finding("confirm.shell.secret-read", Risk.HIGH if "/" in secret or "key" in secret else Risk.MEDIUM,
                    f"reads {secret}{where}", cmd.span))
