"""Rules: an editor's port forwarding and remote tunnel, switched on by clicks.

VS Code (and its kin: Insiders, VSCodium, Cursor, Windsurf, a Codespace or github.dev in the browser) forwards a
local port through Microsoft's or GitHub's tunnel service from its Ports view, makes a forwarded port public (no
sign-in needed to reach it), and turns on Remote Tunnel Access (a remote editor runs commands on this machine).
The same effects asked from the shell (`code tunnel`, `devtunnel host`, `gh codespace ports visibility`) ask, so
these clicks ask too (`confirm.gui.port-forward`): "Forward a Port", a port typed into its field, "Public" in the
port's visibility menu, "Turn on Remote Tunnel Access". Other clicks in the editor ("Open in Browser", "Run and
Debug", "Stop Forwarding Port") pass.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES"]

_EDITOR = re.compile(r"visual studio code|\bvs ?code\b|\bcode - (?:oss|insiders)\b|\bvscodium\b|\bcursor\b|"
                     r"\bwindsurf\b|\bcodespaces?\b|github\.dev|\bcode-server\b", re.IGNORECASE)
_EDITOR_URL = re.compile(r"^https?://(?:[^/]+\.)?(?:github\.dev|app\.github\.dev|vscode\.dev|"
                         r"github\.com/codespaces)", re.IGNORECASE)
# in the editor's Ports view (title "Ports - ..."), or a command palette line naming ports or tunnels
_PORTS_VIEW = re.compile(r"^\s*(?:ports?|puertos?|portas?|porte|ポート|端口)\b|\bports?\b|\btunnel", re.IGNORECASE)
_FORWARD = re.compile(
    r"^\s*(?:>\s*)?(?:ports:\s*)?(?:forward (?:a )?port|port forward(?:ing)?|forward port(?: to)?|"
    r"make (?:port )?public|set port visibility to public|change port visibility|"
    r"(?:remote tunnels?: )?turn on remote tunnel access|remote tunnel access|"
    r"port weiterleiten|öffentlich machen|transférer (?:un )?port|rendre public|reenviar (?:un )?puerto|"
    r"hacer público|inoltra (?:una )?porta|rendi pubblico|encaminhar (?:uma )?porta|tornar público|"
    r"ポートの転送|ポートを転送|转发端口|轉送連接埠|remotetunnelzugriff aktivieren|"
    r"activer l.accès (?:au )?tunnel distant|activar el acceso (?:al )?túnel remoto)\b",
    re.IGNORECASE)
_PUBLIC = re.compile(r"^\s*(?:public|öffentlich|público|pubblico|パブリック|公共|公开|openbaar)\s*$", re.IGNORECASE)
_PORT_FIELD = re.compile(r"\bport (?:number|address)|\bport number or address|\bportnummer|\bnuméro de port|"
                         r"\bnúmero de puerto|\bnumero di porta|ポート番号|端口号", re.IGNORECASE)
_PORT_TEXT = re.compile(r"^\s*(?:[\w.-]+:)?\d{1,5}\s*$")


def _in_editor(ctx: Context) -> bool:
    obs = ctx.observation
    if obs is None or not (obs.app or obs.window_title):
        return False
    return bool(_EDITOR.search(obs.app or "") or _EDITOR.search(obs.window_title or "") or
                _EDITOR_URL.match(obs.url or ""))


def _label(ctx: Context) -> str:
    target = getattr(ctx.action, "target", None)
    return (target.label or target.name or "") if target is not None else ""


def _forward(ctx: Context) -> str | None:
    label = _label(ctx)[:200]
    if ctx.type == "type":
        if not _PORT_TEXT.match(getattr(ctx.action, "text", "") or ""):
            return None
    elif not label or not (_FORWARD.search(label) or _PUBLIC.match(label)):
        return None
    if not _in_editor(ctx):
        return None
    title = ctx.observation.window_title if ctx.observation is not None else ""
    if ctx.type == "click":
        if _FORWARD.search(label):
            return f"\"{label[:60]}\" forwards a port of this machine, or opens it to remote editing, through a " \
                   f"public tunnel service"
        if _PUBLIC.match(label) and _PORTS_VIEW.search(title or ""):
            return "makes a forwarded port public: anyone with its address reaches the service, without signing in"
        return None
    if ctx.type == "type":
        text = getattr(ctx.action, "text", "") or ""
        if _PORT_FIELD.search(label) and _PORT_TEXT.match(text):
            return f"forwards port {text.strip()} of this machine through the editor's public tunnel service"
        if not label and _PORT_TEXT.match(text) and _PORTS_VIEW.search(title or "") is not None and \
                (title or "").lower().lstrip().startswith(("ports", "port")):
            return f"forwards port {text.strip()} of this machine through the editor's public tunnel service"
    return None


@rule("confirm.gui.port-forward", "an editor's port forwarding or remote tunnel switched on", risk=Risk.HIGH,
      types=("click", "type"), needs="window")
def port_forward(ctx: Context) -> CheckResult:
    """In VS Code and its kin (Insiders, VSCodium, Cursor, Windsurf, Codespaces, github.dev): "Forward a Port", a
    port typed into its "Port number or address" field, "Public" in a port's visibility menu, "Turn on Remote
    Tunnel Access", in the languages the editor ships. Each opens this machine to the internet through a tunnel, as
    `code tunnel` or `devtunnel host` does. "Open in Browser" or "Stop Forwarding Port" pass."""
    return _forward(ctx)


RULES: tuple[Rule, ...] = (port_forward,)
