"""Rules: files read for the secrets or money details their names promise, and what a phishing kit captured.

- `confirm.files.secret-named`: reading a note, document or sheet whose name says it keeps passwords, keys,
  logins, bank or card details, a wallet or recovery codes (`API_info.txt`, `ssh-logins.txt`, `bank_account.pdf`,
  `passwörter.txt`, `mots-de-passe.docx`, `密码.txt`), or a person's tax, pay, identity or health papers
  (`tax-return-2024.pdf`, `payslip_march.pdf`, `passport_scan.jpg`): the person decides whether the agent sees
  them. A program's source (`passwords.py`), a word list, a template or documentation passes.
- `confirm.files.agent-tokens`: reading a coding agent's or editor's MCP settings (`~/.cursor/mcp.json`,
  `claude_desktop_config.json`, `~/.gemini/settings.json`, `.vscode/mcp.json`): every server's API token is kept
  there in the clear, which is why poisoned tool descriptions ask agents to read them.
- `block.files.captured-credentials`: reading what a phishing kit captured in its own folder (zphisher's
  `.server/www/usernames.txt`, evilginx's `data.db`, SET's reports); a capture file only named so (`auth/ip.txt`)
  asks.

The names are resources/secrets.toml `[file-names]`, read by gate/sensitive.py; `cat` and the other readers of
the shell follow the same names (gate/rules/shell_harvest.py).
"""

from __future__ import annotations

from gate.model import Risk
from gate.paths import file_facts
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.sensitive import agent_token_file, captured_credentials, secret_file_name

__all__ = ["RULES"]


def _paths(ctx: Context) -> tuple[str, ...]:
    f = ctx.derived(file_facts)
    if f is None:
        return ()
    return (f.lexical, f.real) if f.real != f.lexical else (f.lexical,)


@rule("confirm.files.secret-named", "reading a file named for passwords, keys or bank details", risk=Risk.HIGH,
      types=("file_read",))
def secret_named(ctx: Context) -> CheckResult:
    """A note, document or sheet whose name says it keeps passwords, keys, logins, bank or card details, a wallet
    or recovery codes, or a person's tax, pay, identity or health papers, in any of several languages: the person
    decides whether the agent reads it."""
    for path in _paths(ctx):
        if what := secret_file_name(path):
            return f"reading {path.rsplit('/', 1)[-1][:80]}, {what}"
    return None


@rule("confirm.files.agent-tokens", "reading a coding agent's MCP settings with their tokens", risk=Risk.HIGH,
      types=("file_read",))
def agent_tokens(ctx: Context) -> CheckResult:
    """A coding agent's or editor's MCP server settings (Cursor, Windsurf, Claude Desktop, Gemini CLI, VS Code,
    Cline, Continue, Goose): each server's API token sits in them in the clear."""
    for path in _paths(ctx):
        if what := agent_token_file(path):
            return f"reading {path[-80:]}, {what}"
    return None


@rule("block.files.captured-credentials", "reading what a phishing kit captured", risk=Risk.CRITICAL,
      types=("file_read", "file_move"))
def captured(ctx: Context) -> CheckResult:
    """The passwords, addresses and session cookies a phishing kit saved in its own folder (zphisher's and
    blackeye's capture files, evilginx's database, SET's reports): other people's logins, taken by fraud."""
    for path in _paths(ctx):
        if captured_credentials(path) == "block":
            return f"reading {path[-80:]}: what a phishing kit captured from the people it fooled"
    return None


@rule("confirm.files.captured-credentials", "reading a file named as a phishing kit's capture", risk=Risk.HIGH,
      types=("file_read",))
def captured_named(ctx: Context) -> CheckResult:
    """A file whose folder and name are a phishing kit's capture files (`auth/usernames.dat`, `auth/ip.txt`)
    outside a kit's own folder: it asks."""
    for path in _paths(ctx):
        if captured_credentials(path) == "confirm":
            return f"reading {path[-80:]}: by its folder and name, what a phishing kit captured"
    return None


RULES: tuple[Rule, ...] = (secret_named, agent_tokens, captured, captured_named)
