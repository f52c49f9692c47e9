"""Rules: a key that is a command in a terminal program, and text typed into such a program's prompts.

    confirm.gui.tui-key       a key pressed in a full-screen terminal program whose key there pushes, deletes,
                              discards, resets, kills or forces (lazygit shift+P, k9s ctrl+D, htop F9, mc F8, tmux
                              prefix + &): resources/tui.toml `[tui-keys]`
    confirm.typed.tui-key     the same command typed as a short run of keys (`dD` in ranger, `:q!` in vim)
    confirm.typed.tui-remote  an address typed into a git program's prompt for a remote or a mirror: pushes go there
    confirm.typed.tui-shell-line  a line the shell rules block, typed into such a program: its prompt may run it
    confirm.gui.devtool-publish  "Push Image", "Publish", "Login" in a desktop developer tool (Podman Desktop, Docker
                              Desktop, Rancher Desktop): the image goes to a registry, or an account signs in to one

Navigation and view keys (arrows, j/k, enter, tab, q, ?, /), staging, the commit prompt and a search pass. Pure.
"""

from __future__ import annotations

import re

from gate import tui
from gate.model import Risk, Shell
from gate.normalise import fold, normalise
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.typed import _judge
from gate.shell import is_terminal
from gate.typed import Destination, as_command, destination

__all__ = ["RULES"]


def _program(ctx: Context) -> str | None:
    """The terminal program the active window runs, when the window is a terminal or the program's own."""
    obs = ctx.observation
    name = tui.program(obs.app, obs.window_title)
    if name is None:
        return None
    if normalise(obs.app) and tui.program(obs.app, "") == name:
        return name
    return name if is_terminal(ctx.compiled, obs.app, obs.window_title) else None


def _labels(ctx: Context) -> tuple[str, ...]:
    target = ctx.action.target
    if target is None:
        return ()
    return tuple(normalise(p) for p in (target.label, target.name, target.role) if p)


@rule("confirm.gui.tui-key", "A key that pushes, deletes, discards, resets or kills in a terminal program",
      risk=Risk.HIGH, types=("key",), confidence=0.8)
def tui_key(ctx: Context) -> CheckResult:
    """In a full-screen terminal program a key is a command: lazygit's shift+P pushes and d discards, gitui's
    shift+P force-pushes, k9s's ctrl+D deletes and ctrl+K kills, htop's F9 and btop's k kill, mc's F8 and
    yazi's D delete, mutt's d deletes, tmux's prefix + & kills the window. Such a key asks, as the command it
    stands for asks in a shell. Moving, viewing, staging and opening a prompt pass (resources/tui.toml)."""
    name = ctx.derived(_program)
    if name is None:
        return None
    keys = ctx.action.keys  # type: ignore[attr-defined]
    effect = tui.key_effect(name, keys)
    if effect is None or effect not in tui.RISKY:
        return None
    return f"in {name}, {'+'.join(keys)[:30]!r} is its {effect} command"


@rule("confirm.typed.tui-key", "Keys typed as text that push, delete, discard or kill in a terminal program",
      risk=Risk.HIGH, types=("type",), confidence=0.75)
def tui_typed_keys(ctx: Context) -> CheckResult:
    """A short run of keys typed as text into a full-screen terminal program is its command as a key press is:
    `dD` in ranger deletes, `:q!` in vim quits without saving, `:wq!` writes over a read-only file. A prompt's
    text (a commit message, a search term) is longer than a key run and passes."""
    name = ctx.derived(_program)
    if name is None:
        return None
    effect = tui.typed_effect(name, ctx.action.text)  # type: ignore[attr-defined]
    if effect is None or effect not in tui.RISKY:
        return None
    return f"typed into {name}, {ctx.action.text.strip()[:12]!r} is its {effect} command"  # type: ignore[attr-defined]


_ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*://\S+|[\w.-]+@[\w.-]+:\S+|(?:[\w-]+\.)+[a-z]{2,}/\S+)$", re.IGNORECASE)


@rule("confirm.typed.tui-remote", "An address typed into a git program's prompt for a remote", risk=Risk.MEDIUM,
      types=("type",), confidence=0.7)
def tui_remote(ctx: Context) -> CheckResult:
    """An address typed into a terminal git program's prompt for a remote, a push URL or a mirror (lazygit's
    "New remote url"): the repository's commits go wherever it points, as `git remote add` asks in a shell."""
    if ctx.derived(destination) is not Destination.PROGRAM or not tui.remote_prompt(_labels(ctx)):
        return None
    text = ctx.action.text.strip()  # type: ignore[attr-defined]
    if not _ADDRESS.match(text):
        return None
    return f"typed as a remote's address, {text[:60]!r} is where the repository's commits would be pushed"


# desktop developer tools whose buttons publish an image or sign in to a registry
_DEVTOOL = re.compile(r"\b(?:podman desktop|docker desktop|rancher desktop|orbstack|openlens|lens desktop|"
                      r"kitematic|container desktop|podman ai lab)\b|^(?:lens|docker|podman)(?: - |$)")
_DEVTOOL_PUBLISH = re.compile(
    r"^\W*(?:push|publish|log ?in|sign ?in|authenticate|login to|add registry)\b.{0,30}$|"
    r"^\W*(?:(?:bild|image) (?:pushen|hochladen)|pousser|publier|publicar|enviar imagen|anmelden|se connecter|"
    r"iniciar sesi[oó]n|accedi|inloggen|ログイン|登录|プッシュ|推送)\W*$")


@rule("confirm.gui.devtool-publish", "Pushing an image or signing in to a registry in a desktop developer tool",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def devtool_publish(ctx: Context) -> CheckResult:
    """"Push Image", "Publish" or "Login" in a desktop developer tool (Podman Desktop, Docker Desktop, Rancher
    Desktop, OrbStack, Lens): the image is published to a registry where others pull it, or the tool signs in
    to an account with a stored secret, as `docker push` and `docker login` ask in a shell. Pulling, starting,
    listing and inspecting pass."""
    target = ctx.action.target
    label = (target.label or target.name or "") if target else ""
    if not label or len(label) > 40 or not _DEVTOOL_PUBLISH.match(fold(label)):
        return None
    obs = ctx.observation
    place = " ".join(normalise(p) for p in (obs.app, obs.window_title) if p)
    if not _DEVTOOL.search(place):
        return None
    return f"clicking {label.strip()[:30]!r} in {(obs.app or obs.window_title)[:30]!r} publishes to or signs in to " \
           f"a registry"


@rule("confirm.typed.tui-shell-line", "A command the shell rules block, typed into a terminal program's prompt",
      risk=Risk.HIGH, types=("type",), confidence=0.7)
def tui_shell_line(ctx: Context) -> CheckResult:
    """Text typed into a terminal program (lazygit, tig, k9s) is its own input, but the program may hand it to a
    shell (a custom-command prompt, `!`, a plugin). A line the shell rules would block there (`rm -rf ~`, a
    download piped into a shell) asks: which prompt it reaches is not known."""
    if ctx.derived(destination) is not Destination.PROGRAM or ctx.derived(_program) is None:
        return None
    command = as_command(ctx.action.text)  # type: ignore[attr-defined]
    if command is None:
        return None
    block, _ = _judge(Shell(command=command), ctx)
    if block is None:
        return None
    return f"typed into a terminal program, {command[:50]!r} runs if the prompt hands it to a shell: {block.reason}"


RULES: tuple[Rule, ...] = (tui_key, tui_typed_keys, tui_remote, devtool_publish, tui_shell_line)
