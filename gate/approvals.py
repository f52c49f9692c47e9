"""What a coding agent's approval prompt asks to run: the command shown beside its go-ahead button.

VS Code's "Run command in terminal: npm test" with "Continue", Cursor's "Run", Claude's "Allow once" under "Allow
Claude to run `git push`?", Cline's or Roo's "Approve" under "wants to execute this command:", Claude Code's "1. Yes"
under "Bash command". The command is judged by the shell rules (gate/rules/agent_prompts.py); a button that answers
such a prompt is no grant of access of its own (gate/rules/gui.py `consequential`). Pure.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gate.fields import label_text
from gate.normalise import fold

if TYPE_CHECKING:
    from gate.rules.base import Context

__all__ = ["approval_command", "approval_tool", "risky_tool"]

# the answer that lets the agent go ahead, as its approval prompts label it (VS Code, Cursor, Windsurf, Claude Code
# and Claude desktop, Cline, Roo, Continue, Zed, JetBrains AI, Codex), with a numbered choice's digit
_GO_AHEAD = re.compile(
    r"^(?:\d{1,2} )?(?:continue|allow|allow once|allow this time|allow for this (?:chat|session|conversation|task)|"
    r"allow in this (?:session|workspace)|allow and run|run|run it|run once|run command|run this command|run tool|"
    r"run anyway|execute|execute command|accept|accept and run|accept command|approve|approve and run|approve once|"
    r"yes|yes run it|yes allow|yes proceed|ok|okay|proceed|confirm|go|go ahead|do it|save|save and run|"
    r"zulassen|ausführen|fortfahren|autoriser|exécuter|continuer|permitir|ejecutar|continuar|consenti|esegui|"
    r"continua|executar|uitvoeren|doorgaan|実行|続行|許可|运行|继续|允许|執行|繼續)"
    r"(?: (?:enter|ctrl enter|cmd enter|alt enter|y))?$")
_PUNCTUATION = re.compile(r"[^\w\s]+")
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)\s*$")
# where an approval prompt says what it will run: "Run command in terminal: npm test", "Cline wants to execute this
# command:", "Allow Claude to run `git push`?", "Bash command: ...", "Do you want to run: ...", "Run `npm i`?"
_SHOWN_COMMAND = re.compile(
    r"(?:\brun (?:the )?(?:following )?(?:command|commands|shell command|terminal command)"
    r"(?: in (?:the |a )?(?:terminal|shell|console))?|"
    r"\b(?:wants|would like|is requesting|requests|needs|is asking) (?:permission )?to (?:run|execute)"
    r"(?: (?:this|the following|a) (?:command|shell command|terminal command))?(?: in (?:the )?terminal)?|"
    r"\b(?:allow|let) [\w .-]{1,40}? to (?:run|execute)(?: (?:this|the following|a) command)?|"
    r"\bdo you want to (?:run|execute|proceed with)(?: (?:this|the following) command)?|"
    r"\b(?:bash|shell|terminal|powershell|pwsh|zsh|cmd) (?:command|tool)|"
    r"\bexecute (?:this |the following )?command|"
    r"\bcommand to (?:run|execute)|"
    r"\b(?:run|execute)(?= *[`'\"\u2018\u201c]))"
    r"\s*[:?]?\s*(?P<cmd>.*)", re.IGNORECASE)
_QUOTES = "`'\"\u2018\u2019\u201c\u201d"
# a tool-call or assistant window the prompt lives in: a request shown there is the agent's own
_AGENT_PLACE = re.compile(
    r"\b(?:visual studio code|vs ?code|vscodium|code - oss|cursor|windsurf|zed|intellij|pycharm|webstorm|goland|"
    r"android studio|copilot|claude|cline|roo(?: code)?|kilo code|continue|codex|aider|gemini|amazon q|cody|"
    r"jetbrains|junie|warp|opencode|goose|augment|tabnine|chatgpt|openhands|devin|terminal|agent)\b")
_LINE_LIMIT = 400
_PAGE_LIMIT = 4000


def _command_in(text: str) -> str | None:
    """The command an approval prompt's text shows, from the first line that says it runs one (or the line after
    it, where the line ends with the saying: "Cline wants to execute this command:" then the command)."""
    lines = text[:_PAGE_LIMIT].splitlines()
    for i, line in enumerate(lines):
        m = _SHOWN_COMMAND.search(line[:_LINE_LIMIT])
        if m is None:
            continue
        command = m.group("cmd").strip()
        if not command or command in (":", "?"):
            command = next((n.strip() for n in lines[i + 1:i + 3] if n.strip()), "")
            command = command.lstrip("$>❯ ").strip()
        if command.endswith("?") and command.count("?") == 1:
            command = command[:-1].rstrip()
        if len(command) >= 2 and command[0] in _QUOTES and command[-1] in _QUOTES:
            command = command[1:-1].strip()
        elif command.startswith("```"):
            command = command.strip("`").strip()
        command = command.strip(_QUOTES + " ") if command[:1] in _QUOTES else command
        if command and not command.endswith(":"):
            return command
    return None


def _go_ahead(ctx: Context) -> str | None:
    """The label's first line, without its trailing note and punctuation, when it is a go-ahead ("Allow once",
    "Run", "Yes, proceed"); else None. Once per context: the command and the tool approved both start here."""
    label = ctx.derived(label_text)
    if not label.raw:
        return None
    first = _TRAILING_NOTE.sub("", fold(label.raw.strip().split("\n", 1)[0][:200]).lower())
    first = " ".join(_PUNCTUATION.sub(" ", first).split())
    return first if _GO_AHEAD.match(first) else None


def approval_command(ctx: Context) -> str | None:
    """The command the clicked go-ahead approves: shown after "Run command in terminal:", "wants to execute this
    command:" or the like in the window's title, beside the label ("Continue (Run command in terminal: ...)"), or in
    the prompt's text. None when the label is no go-ahead or no command is shown. Once per context."""
    first = ctx.derived(_go_ahead)
    if first is None or len(first) > 80:
        return None
    label = ctx.derived(label_text)
    obs = ctx.observation
    place = fold(f"{obs.app[:128]} {obs.window_title[:256]}").lower()
    page = obs.page_text if _AGENT_PLACE.search(place) else ""  # a web page's tutorial is no approval prompt
    for text in (obs.window_title, label.raw, ctx.claimed.label if ctx.claimed is not None else "", page):
        if text and (command := _command_in(text)) is not None:
            return command
    return None


# where a prompt names the tool it will call: "Claude wants to use delete_repository from github", "Run tool:
# send_email", "Allow tool 'drop_table'?", "Approve MCP tool call: github.merge_pull_request"
_SHOWN_TOOL = re.compile(
    r"(?:\b(?:wants|would like|is requesting|requests) (?:permission )?to (?:use|call|run)(?: the)?(?: tool)?|"
    r"\b(?:run|call|use|allow|approve)(?: mcp)? tool(?: call)?|\btool call|\bmcp tool|\ballow [\w .-]{1,30}? to use)"
    r"\s*[:?]?\s*[`'\"\u2018\u201c]?(?P<tool>[A-Za-z][\w.:/-]{1,80})", re.IGNORECASE)
_TOOL_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# a tool's name that says it destroys, sends, pays, publishes or runs what it is given
_RISKY_TOOL_WORDS = frozenset({
    "delete", "remove", "rm", "drop", "destroy", "wipe", "purge", "truncate", "erase", "kill", "terminate",
    "shutdown", "format", "send", "email", "mail", "sms", "post", "publish", "tweet", "transfer", "pay", "payment",
    "withdraw", "sell", "buy", "purchase", "order", "push", "merge", "deploy", "release", "exec", "execute",
    "shell", "bash", "terminal", "command", "cmd", "powershell", "eval", "upload", "share", "invite", "grant",
    "revoke", "unlink", "archive", "close", "cancel", "reset", "overwrite", "forward"})


def approval_tool(ctx: Context) -> str | None:
    """The tool the clicked go-ahead lets an agent call, as its prompt names it ("wants to use delete_file", "Run
    tool: send_email"), or None. Once per context."""
    if ctx.derived(_go_ahead) is None:
        return None
    label = ctx.derived(label_text)
    obs = ctx.observation
    place = fold(f"{obs.app[:128]} {obs.window_title[:256]}").lower()
    page = obs.page_text[:_PAGE_LIMIT] if _AGENT_PLACE.search(place) else ""
    for text in (obs.window_title[:256], label.raw[:400], page):
        m = _SHOWN_TOOL.search(text) if text else None
        if m is not None:
            return m.group("tool").strip(".:/-")
    return None


def risky_tool(name: str) -> str | None:
    """The word of a tool's name that says it destroys, sends, pays, publishes or runs commands, or None."""
    for part in _TOOL_PARTS.findall(name.split(":")[-1]):
        if part.lower() in _RISKY_TOOL_WORDS:
            return part.lower()
    return None
