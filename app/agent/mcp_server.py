"""`deskgate mcp`: an MCP server over stdio whose tools act on the desktop only through deskgate.

Any MCP client (Claude Desktop, Claude Code, an IDE) gets the tools screenshot, click, type, key, scroll,
shell and open_url. Each call is one `act` (execute=true) in a single deskgate session opened at start
(`hello` with agent name `mcp`, or `--agent`): the gate decides, a person confirms where the policy says
so, the audit log records it, and only then does deskgate's executor run it.

The tool's answer is text the model can read: the verdict, the reason and the executor's result. A
refusal is an error result, "deskgate refused: <reason>". With no supervisor every call is an error
result (nothing runs) and the server keeps running, so calls work again once `deskgate run` is up.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any, Literal

from mcp_types import CallToolResult, ImageContent, TextContent

from app.errors import DeskgateError

__all__ = ["DEFAULT_AGENT", "TOOL_NAMES", "DeskgateBridge", "build_server", "format_reply", "run_mcp"]

log = logging.getLogger("deskgate.mcp")

DEFAULT_AGENT = "mcp"
TOOL_NAMES = ("screenshot", "click", "type", "key", "scroll", "shell", "open_url")


class DeskgateBridge:
    """One deskgate session shared by every tool call (calls run on worker threads, one at a time)."""

    def __init__(self, socket_path: Path | None, agent: str, timeout: float | None) -> None:
        from app.client import Client

        self.agent = agent
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
            self.client.hello(self.agent)
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
    from app.client import SupervisorUnavailable

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
    if verdict == "denied":
        return True, f"deskgate refused: {_reason(reply)}", None
    lines = [f"verdict: {verdict}", f"decision: {reply.get('decision')} (by {reply.get('decided_by')})",
             f"reason: {_reason(reply)}"]
    if result is not None:
        lines.append("result: " + json.dumps(result, ensure_ascii=False, sort_keys=True))
    if verdict == "executed":
        return False, "\n".join(lines), png
    if verdict == "error":
        return True, "deskgate: the action failed\n" + "\n".join(lines), None
    return True, f"deskgate: unexpected verdict {verdict!r}; the call may not have run\n" + "\n".join(lines), None


def build_server(bridge: DeskgateBridge) -> Any:
    """The MCP server (mcp 2.x `MCPServer`) with deskgate's tools."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer(
        "deskgate",
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

    @server.tool(description="Take a screenshot of the whole screen (PNG, downscaled).")
    def screenshot() -> CallToolResult:
        return call({"type": "screenshot"})

    @server.tool(description="Click at screen coordinates (x, y) with a mouse button.")
    def click(x: int, y: int, button: Literal["left", "right", "middle"] = "left") -> CallToolResult:
        return call({"type": "click", "x": x, "y": y, "button": button})

    @server.tool(name="type", description="Type text into the focused window.")
    def type_text(text: str) -> CallToolResult:
        return call({"type": "type", "text": text})

    @server.tool(description='Press a key or a key combination, e.g. ["ctrl", "s"] or ["enter"].')
    def key(keys: list[str]) -> CallToolResult:
        return call({"type": "key", "keys": keys})

    @server.tool(description="Scroll at (x, y) by dx columns and dy rows (negative dy scrolls up).")
    def scroll(x: int, y: int, dx: int = 0, dy: int = 0) -> CallToolResult:
        return call({"type": "scroll", "x": x, "y": y, "dx": dx, "dy": dy})

    @server.tool(description="Run a shell command (inside deskgate's sandbox when it has one).")
    def shell(command: str) -> CallToolResult:
        return call({"type": "shell", "command": command})

    @server.tool(description="Open a URL in the browser.")
    def open_url(url: str) -> CallToolResult:
        return call({"type": "navigate", "url": url})

    return server


def run_mcp(*, socket_path: Path | None = None, agent: str = DEFAULT_AGENT, timeout: float | None = None) -> int:
    """Serve MCP on stdin/stdout until the client closes it. Logs go to stderr (stdout is the protocol)."""
    bridge = DeskgateBridge(socket_path, agent, timeout)
    problem = bridge.start()
    if problem:
        log.warning("%s (tool calls fail until it is up)", problem)
    try:
        build_server(bridge).run("stdio")
    finally:
        bridge.close()
    return 0
