"""`deskgate mcp`: an MCP server over stdio whose tools act on the desktop only through deskgate.

Any MCP client (Claude Desktop, Claude Code, an IDE) gets the tools screenshot, click, type, key, scroll,
shell and open_url. Each call is one `act` (execute=true) in a single deskgate session opened at start
(`hello` with agent name `mcp`, or `--agent`): the gate decides, a person confirms where the policy says
so, the audit log records it, and only then does deskgate's executor run it.

The tool's answer is text the model can read: the verdict, the reason and the executor's result. A
refusal is an error result, "deskgate refused: <reason>". With no supervisor every call is an error
result (nothing runs) and the server keeps running, so calls work again once `deskgate run` is up.

Every tool takes an optional `intent` (why: recorded as the action's `note`, shown to the person who
confirms) and the input tools an optional `target` (the label of the element aimed at). deskgate judges
what it reads on screen itself; a `target` is a claim it checks against that. Each tool carries MCP
annotations (read-only / destructive / idempotent / open-world hints) for clients that ask less for
read-only tools, and the screenshot's answer states its scale against screen coordinates.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp_types import CallToolResult, ImageContent, TextContent, ToolAnnotations
from pydantic import Field

from app import __version__
from app.errors import DeskgateError
from app.wire import SCREENSHOT_MAX_WIDTH, Verdict

__all__ = ["ANNOTATIONS", "DEFAULT_AGENT", "TOOL_NAMES", "DeskgateBridge", "build_server", "format_reply", "run_mcp"]

log = logging.getLogger("deskgate.mcp")

DEFAULT_AGENT = "mcp"
TOOL_NAMES = ("screenshot", "click", "type", "key", "scroll", "shell", "open_url")


class DeskgateBridge:
    """One deskgate session shared by every tool call (calls run on worker threads, one at a time)."""

    def __init__(self, socket_path: Path | None, agent: str, timeout: float | None,
                 project: Path | None = None) -> None:
        from app.agent.client import Client

        self.agent = agent
        self.project = project  # the directory the agent works on: its work area (hello's `project`)
        self.client = Client(socket_path, timeout=timeout)
        self._lock = threading.Lock()
        self._open = False  # the client replays hello by itself after a reconnect once one succeeded

    @property
    def socket_path(self) -> Path:
        return self.client.socket_path

    def start(self) -> str | None:
        """Open the session now. Returns the problem (the server still starts; calls retry it)."""
        try:
            with self._lock:
                self._hello()
        except DeskgateError as err:
            return _describe_error(err, "no session yet")
        return None

    def _hello(self) -> None:
        if not self._open:
            self.client.hello(self.agent, project=self.project)
            self._open = True

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """The supervisor's reply to `act`. Raises DeskgateError (SupervisorUnavailable etc.)."""
        with self._lock:
            self._hello()
            return self.client.act(action, execute=True)

    def close(self) -> None:
        with self._lock:
            try:
                if self._open:
                    self.client.bye()
            except DeskgateError:
                pass  # the session ends with the connection anyway
            finally:
                self.client.close()
                self._open = False


def _describe_error(err: DeskgateError, outcome: str = "the call was not performed") -> str:
    from app.agent.client import SupervisorUnavailable

    if isinstance(err, SupervisorUnavailable):
        return f"deskgate unavailable: {err.message}; start `deskgate run` (or `deskgate serve`); {outcome}"
    return f"deskgate error ({err.code}): {err.message}; {outcome}"


def _reason(reply: dict[str, Any]) -> str:
    reason = str(reply.get("reason") or "no reason given")
    rules = [str(r) for r in reply.get("rules") or []]
    return reason + (f" (rules: {', '.join(rules)})" if rules else "")


def format_reply(reply: dict[str, Any]) -> tuple[bool, str, str | None]:
    """(is_error, text, png_base64) for one act reply. Pure."""
    verdict = reply.get("verdict")
    result = reply.get("result")
    png = None
    if isinstance(result, dict) and isinstance(result.get("png_base64"), str):
        png = result["png_base64"]
        result = {k: v for k, v in result.items() if k != "png_base64"}
    if verdict == Verdict.DENIED:
        return True, f"deskgate refused: {_reason(reply)}", None
    lines = [f"verdict: {verdict}", f"decision: {reply.get('decision')} (by {reply.get('decided_by')})",
             f"reason: {_reason(reply)}"]
    if result is not None:
        lines.append("result: " + json.dumps(result, ensure_ascii=False, sort_keys=True))
    scale = _screenshot_scale(result)
    if scale:
        lines.append(scale)
    if verdict == Verdict.EXECUTED:
        return False, "\n".join(lines), png
    if verdict == Verdict.ERROR:
        return True, "deskgate: the action failed\n" + "\n".join(lines), None
    return True, f"deskgate: unexpected verdict {verdict!r}; the call may not have run\n" + "\n".join(lines), None


def _screenshot_scale(result: Any) -> str | None:
    """The sentence that maps image pixels to the screen coordinates click/scroll take."""
    if not isinstance(result, dict) or not all(isinstance(result.get(k), int) and result[k] > 0
                                               for k in ("width", "height", "png_width", "png_height")):
        return None
    sx, sy = result["width"] / result["png_width"], result["height"] / result["png_height"]
    return (f"scale: the image is {result['png_width']}x{result['png_height']} of a {result['width']}x"
            f"{result['height']} screen; click and scroll take screen coordinates: multiply image x by {sx:.4g} "
            f"and image y by {sy:.4g}")


# MCP tool annotations (hints for clients, not guarantees): what each tool may do to the world
_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                             open_world_hint=False)
_INPUT = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=True)
_SCROLL = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                          open_world_hint=False)
_SHELL = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=True)
_OPEN_URL = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=True)
ANNOTATIONS = {"screenshot": _READ_ONLY, "click": _INPUT, "type": _INPUT, "key": _INPUT, "scroll": _SCROLL,
               "shell": _SHELL, "open_url": _OPEN_URL}

_INTENT = "why you take this step, in a few words (shown to the person if deskgate asks, and logged)"
_TARGET = "the visible label of the element you aim at, e.g. \"Save\" (deskgate checks it against the screen)"


Intent = Annotated[str | None, Field(description=_INTENT, max_length=4096)]
Target = Annotated[str | None, Field(description=_TARGET, max_length=4096)]


def _claims(action: dict[str, Any], intent: str | None, target: str | None = None) -> dict[str, Any]:
    if intent:
        action["note"] = intent
    if target:
        action["target"] = {"label": target}
    return action


def build_server(bridge: DeskgateBridge) -> Any:
    """The MCP server (mcp 2.x `MCPServer`) with deskgate's tools."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer(
        "deskgate",
        version=__version__,
        instructions="Desktop actions (screenshot, mouse, keyboard, shell, URLs) supervised by deskgate: "
                     "every call is checked against the local safety policy, may need a person's approval, "
                     "and is logged. A refused call returns 'deskgate refused: <reason>'; do not retry it "
                     "unchanged.",
        log_level="WARNING",
    )

    def call(action: dict[str, Any]) -> CallToolResult:
        try:
            reply = bridge.act(action)
        except DeskgateError as err:
            return CallToolResult(content=[TextContent(type="text", text=_describe_error(err))],
                                  is_error=True)
        is_error, text, png = format_reply(reply)
        content: list[Any] = [TextContent(type="text", text=text)]
        if png is not None:
            content.append(ImageContent(type="image", data=png, mime_type="image/png"))
        return CallToolResult(content=content, is_error=is_error)

    @server.tool(description=f"Take a screenshot of the whole screen (PNG, at most {SCREENSHOT_MAX_WIDTH} px wide: "
                             "the answer says how image pixels map to the screen coordinates click and scroll "
                             "take).", annotations=ANNOTATIONS["screenshot"])
    def screenshot(intent: Intent = None) -> CallToolResult:
        return call(_claims({"type": "screenshot"}, intent))

    @server.tool(description="Click at screen coordinates (x, y) with a mouse button (screen pixels, not "
                             "screenshot pixels).", annotations=ANNOTATIONS["click"])
    def click(x: int, y: int, button: Literal["left", "right", "middle"] = "left", intent: Intent = None,
              target: Target = None) -> CallToolResult:
        return call(_claims({"type": "click", "x": x, "y": y, "button": button}, intent, target))

    @server.tool(name="type", description="Type text into the focused window.", annotations=ANNOTATIONS["type"])
    def type_text(text: str, intent: Intent = None, target: Target = None) -> CallToolResult:
        return call(_claims({"type": "type", "text": text}, intent, target))

    @server.tool(description='Press a key or a key combination, e.g. ["ctrl", "s"] or ["enter"].',
                 annotations=ANNOTATIONS["key"])
    def key(keys: list[str], intent: Intent = None, target: Target = None) -> CallToolResult:
        return call(_claims({"type": "key", "keys": keys}, intent, target))

    @server.tool(description="Scroll at screen coordinates (x, y) by dx columns and dy rows (negative dy scrolls "
                             "up).", annotations=ANNOTATIONS["scroll"])
    def scroll(x: int, y: int, dx: int = 0, dy: int = 0, intent: Intent = None,
               target: Target = None) -> CallToolResult:
        return call(_claims({"type": "scroll", "x": x, "y": y, "dx": dx, "dy": dy}, intent, target))

    @server.tool(description="Run a shell command (inside deskgate's sandbox when it has one).",
                 annotations=ANNOTATIONS["shell"])
    def shell(command: str, intent: Intent = None) -> CallToolResult:
        return call(_claims({"type": "shell", "command": command}, intent))

    @server.tool(description="Open a URL in the browser.", annotations=ANNOTATIONS["open_url"])
    def open_url(url: str, intent: Intent = None) -> CallToolResult:
        return call(_claims({"type": "navigate", "url": url}, intent))

    return server


def run_mcp(*, socket_path: Path | None = None, agent: str = DEFAULT_AGENT, timeout: float | None = None,
            project: Path | None = None) -> int:
    """Serve MCP on stdin/stdout until the client closes it. Logs go to stderr (stdout is the protocol)."""
    bridge = DeskgateBridge(socket_path, agent, timeout, project)
    problem = bridge.start()
    if problem:
        log.warning("%s (tool calls fail until it is up)", problem)
    try:
        build_server(bridge).run("stdio")
    finally:
        bridge.close()
    return 0
