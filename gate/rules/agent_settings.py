"""Rules: a coding agent's own settings screen used to widen what the agent may do without asking.

- `block.gui.agent-protection-off`: a click, in a coding agent's settings, on a protection those settings ship
  switched on (Cursor's Dotfile or External File Protection, a delete-file or MCP protection): the click switches it
  off, and from then on the agent edits its own rule files, files outside the project or deletes without a prompt.
- `confirm.gui.agent-wide-mode`: a click there on a mode that lets the agent run everything (Run Everything,
  Autopilot, YOLO, auto-run, auto-approve, unsandboxed): every later tool call and command runs unseen.
- `block.typed.agent-allowlist-open` / `confirm.typed.agent-allowlist`: command names typed into the agent's allow
  list: a program that sends data out, deletes, gains root or runs any code (curl, rm, sudo, git push, bash, python,
  `*`) refuses, a word that chains into other commands asks (an allowed `cd` chains into anything); a project's
  own checks and reads pass, and so does a deny list: that hardens.

The words are `resources/agent_settings.toml`. A settings screen of another program, a click on a label that names
no mode or protection, and text typed into the agent's chat are not judged here.
"""

from __future__ import annotations

import re
from importlib import resources

from gate import regex_store
from gate.fields import field_text, label_text, short, text_of
from gate.model import Risk
from gate.rules.base import Context, Rule, rule

__all__ = ["RULES"]

_BOOK = regex_store.toml(resources.files("resources").joinpath("agent_settings.toml").read_text("utf-8"))
_APPS = re.compile(_BOOK["agent_apps"])
_SETTINGS = re.compile(_BOOK["settings_title"])
_WIDE = re.compile(_BOOK["wide_mode"])
_GUARD = re.compile(_BOOK["guard"])
_ALLOW_FIELD = re.compile(_BOOK["allow_field"])
_DENY_FIELD = re.compile(_BOOK["deny_field"])
_OPEN = re.compile(_BOOK["open_commands"])
_CHAINING = re.compile(_BOOK["chaining_commands"])
_SPLIT = re.compile(r"[,;\n]+")


def _agent_settings(ctx: Context, title_needed: bool = True) -> bool:
    """The window is a coding agent's (by its app or title) and, when asked, one of its settings screens."""
    title = text_of(ctx.observation.window_title[:256]).words
    app = text_of(ctx.observation.app[:128]).words
    if not (_APPS.search(app) or _APPS.search(title)):
        return False
    return not title_needed or bool(_SETTINGS.search(title))


@rule("block.gui.agent-protection-off", "A coding agent's protection switched off in its settings",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def agent_protection_off(ctx: Context) -> str | None:
    """A click in a coding agent's settings on a protection those settings ship switched on (Dotfile Protection,
    External File Protection, delete-file protection, MCP protection): the switch turns off, and the agent then
    writes its own rule files, files outside the project, or deletes, without a prompt. A protection's help link
    outside the agent's settings, and other settings, are not this."""
    label = ctx.derived(label_text)
    if not label.words or (m := _GUARD.search(label.words)) is None or not _agent_settings(ctx):
        return None
    return f"switches off a coding agent's {m.group(0)!r} in its settings: {short(label.raw)!r}"


@rule("confirm.gui.agent-wide-mode", "A coding agent set to run everything without asking", risk=Risk.HIGH,
      types=("click",), confidence=0.8)
def agent_wide_mode(ctx: Context) -> str | None:
    """A click in a coding agent's settings or approval menu on a mode that lets it run every tool and command
    without asking (Run Everything, Autopilot, YOLO, auto-run, auto-approve, unsandboxed, bypass permissions): what
    it does next nobody sees first. An ask-every-time choice, and the same words outside an agent, pass."""
    label = ctx.derived(label_text)
    if not label.words or (m := _WIDE.search(label.words)) is None or not _agent_settings(ctx):
        return None
    return f"sets a coding agent to {m.group(0)!r}: it runs tools and commands without asking"


def _allowed(ctx: Context) -> tuple[list[str], list[str]] | None:
    """(the commands named that chain into others, those that open the machine) when typed into a coding agent's
    allow list."""
    text = (getattr(ctx.action, "text", "") or "").strip()
    field = ctx.derived(field_text).words
    if not text or len(text) > 512 or not field or not _ALLOW_FIELD.search(field) or _DENY_FIELD.search(field):
        return None
    if not _agent_settings(ctx, title_needed=False):
        return None
    names = [text_of(n).words or n.strip() for n in _SPLIT.split(text) if n.strip()]
    if not names or any(len(n.split()) > 4 for n in names):
        return None  # a sentence, not a list of commands
    return [n for n in names if _CHAINING.match(n)], [n for n in names if _OPEN.match(n) or n.strip() == "*"]


@rule("block.typed.agent-allowlist-open", "A command that opens the machine put on a coding agent's allow list",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def agent_allowlist_open(ctx: Context) -> str | None:
    """Command names typed into a coding agent's allow list that send data out, delete, gain root or run any code
    (curl, wget, ssh, rm, sudo, git push, bash, python, npx, `*`): each then runs without a prompt, whatever the
    agent is told by what it reads. A deny list, and read-only commands, are not this."""
    found = _allowed(ctx)
    if found is None or not found[1]:
        return None
    return f"puts {', '.join(found[1][:4])} on a coding agent's allow list: they run without asking"


@rule("confirm.typed.agent-allowlist", "A command put on a coding agent's allow list", risk=Risk.MEDIUM,
      types=("type",), confidence=0.75)
def agent_allowlist(ctx: Context) -> str | None:
    """Command words typed into a coding agent's allow list that take another command or change what the next one
    does (`cd`, `env`, `xargs`, `find`, `make`, `npx`): allowed, they chain (`cd x && ...`, arguments the agent
    chooses) into what was never approved. The person decides. A project's own checks and reads (`npm test`, `git
    status`) are what an allow list is for and pass."""
    found = _allowed(ctx)
    if found is None or found[1] or not found[0]:
        return None  # (a project's own checks and reads, `npm test, git status`, are what an allow list is for)
    return f"puts {', '.join(found[0][:4])} on a coding agent's allow list: what follows them runs without asking"


RULES: tuple[Rule, ...] = (agent_protection_off, agent_wide_mode, agent_allowlist_open, agent_allowlist)
