"""Rules: agent-level (action-type lists, kiosk mode, loops, app/window mismatch, confidence, risk score)
and self-protection (the agent can never act on deskgate's own windows).

What deskgate observes (`ctx.observation`: the active window and app it read itself, the rectangles of
its own windows) is trusted; what the agent claims (`expect`, `confidence`, `target`) is only compared
against it. An observation field that is empty is unknown, and an unknown side never produces a
mismatch: the supervisor re-reads the window just before execution anyway.
"""

from __future__ import annotations

import fnmatch
import itertools
import re
from collections.abc import Sequence

from gate.history import state_hash
from gate.model import POINTER_TYPES, Decision, Hit, Rect, Risk
from gate.normalise import normalise
from gate.rules.base import Context, Rule, rule

__all__ = ["META_RULES", "RULES", "score_risk"]


def _kind_name(text: str) -> str:
    """`Install Software`, `install-software` and `install_software` name the same kind."""
    return re.sub(r"[\s-]+", "_", text.strip().lower())


def _kinds(ctx: Context) -> tuple[str, ...]:
    """The action's type, plus `system` action's name: the keys of always_block / always_confirm."""
    name = getattr(ctx.action, "name", None) if ctx.type == "system" else None
    return (ctx.type, _kind_name(name)) if name else (ctx.type,)


def kind_set(entries: list[str]) -> frozenset[str]:
    """`gate.always_block` / `always_confirm` as canonical names, once per policy (gate/compiled.py)."""
    return frozenset(_kind_name(e) for e in entries)


def _listed(ctx: Context, wanted: frozenset[str]) -> str | None:
    if not wanted:
        return None
    if ctx.type != "system":
        return ctx.type if ctx.type in wanted else None
    return next((k for k in _kinds(ctx) if k in wanted), None)


# -- action-type lists and kiosk mode ----------------------------------------------------------


@rule("block.agent.kiosk", "Kiosk mode: action type not whitelisted", risk=Risk.HIGH, confidence=1.0,
      live=lambda c, kind: c.policy.gate.kiosk and kind not in c.policy.gate.kiosk_types)
def kiosk(ctx: Context) -> str | None:
    """The policy is in kiosk mode (`gate.kiosk`) and this action type is not in `gate.kiosk_types`."""
    g = ctx.policy.gate
    if not g.kiosk or ctx.type in g.kiosk_types:
        return None
    return f"kiosk mode: '{ctx.type}' actions are not allowed (allowed: {', '.join(g.kiosk_types) or 'none'})"


@rule("block.agent.type-blocked", "Always-blocked action type or system action", risk=Risk.CRITICAL,
      confidence=1.0, live=lambda c, kind: kind in c.always_block or (kind == "system" and bool(c.always_block)))
def type_blocked(ctx: Context) -> str | None:
    """The action type, or a `system` action's name, is in `gate.always_block` (e.g. format_disk,
    delete_account, factory_reset)."""
    kind = _listed(ctx, ctx.compiled.always_block)
    return f"'{kind}' is always blocked by the policy" if kind else None


@rule("confirm.agent.type-confirm", "Always-confirmed action type or system action", risk=Risk.MEDIUM,
      confidence=1.0, live=lambda c, kind: kind in c.always_confirm or (kind == "system" and bool(c.always_confirm)))
def type_confirm(ctx: Context) -> str | None:
    """The action type, or a `system` action's name, is in `gate.always_confirm` (e.g. install_software,
    file_delete, shutdown, restart)."""
    kind = _listed(ctx, ctx.compiled.always_confirm)
    return f"'{kind}' always asks a person" if kind else None


# -- loops --------------------------------------------------------------------------------------


def loop_key(ctx: Context) -> str:
    """The state hash of the action as judged, once per assessment (the engine records it too)."""
    return state_hash(ctx.action, ctx.observation, ctx.policy.loop.use_screen_hash)


@rule("block.agent.loop", "The same action in the same desktop state, again", risk=Risk.HIGH, confidence=0.95,
      needs="history")
def loop(ctx: Context) -> str | None:
    """The same state hash (window title, app, URL, optionally the screen hash, and the action itself)
    was already recorded `loop.threshold - 1` times this session: this would be the threshold-th time,
    so the agent is stuck. Needs the session's History (none: does not apply); `History.reset()` between
    episodes clears it. Actions that are normal to repeat (`loop.repeatable_types`, navigation keys in
    `loop.repeatable_keys`) never count."""
    history = ctx.history
    if history is None:
        return None
    loop_policy = ctx.policy.loop
    if ctx.type in loop_policy.repeatable_types:
        return None
    if ctx.type == "key" and "+".join(k.lower() for k in ctx.action.keys) in loop_policy.repeatable_keys:
        return None
    key = ctx.derived(loop_key)
    before = history.seen(key)
    threshold = ctx.policy.loop.threshold
    if before + 1 < threshold:
        return None
    return (f"loop: the same {ctx.type} in the same window state, {before + 1} times this session "
            f"(limit {threshold - 1})")


# -- what the agent believes vs what deskgate sees ----------------------------------------------

_GLOB = re.compile(r"[*?\[]")


def _matches(pattern: str, observed: str) -> bool:
    """A glob over the normalised observed text; a pattern without wildcards matches as whole words
    anywhere ("firefox" matches "Mozilla Firefox", not "firefoxish")."""
    pat, obs = normalise(pattern), normalise(observed)
    if _GLOB.search(pat):
        return fnmatch.fnmatchcase(obs, pat)
    return re.search(rf"(?<!\w){re.escape(pat)}(?!\w)", obs) is not None


@rule("confirm.agent.app-mismatch", "Active app/window is not the one expected", risk=Risk.HIGH, confidence=0.85,
      needs="window")
def app_mismatch(ctx: Context) -> str | None:
    """The active app or window title deskgate read differs from what the action's `expect` names or
    from the policy's `gate.expected_app` / `gate.expected_window` glob. Only when both sides are known:
    an empty observation or an empty pattern never fires."""
    obs = ctx.observation
    if not obs.app and not obs.window_title:
        return None  # nothing observed: no pattern can mismatch
    expect = ctx.action.expect
    checks = (
        ("app", expect.app if expect else None, obs.app),
        ("window", expect.window if expect else None, obs.window_title),
        ("app", ctx.policy.gate.expected_app, obs.app),
        ("window", ctx.policy.gate.expected_window, obs.window_title),
    )
    for what, pattern, observed in checks:
        if pattern and observed and not _matches(pattern, observed):
            return f"active {what} is {observed[:60]!r}, expected {pattern[:60]!r}"
    return None


@rule("confirm.agent.low-confidence", "Agent's own confidence below the threshold", risk=Risk.MEDIUM,
      confidence=0.9, needs="confidence")
def low_confidence(ctx: Context) -> str | None:
    """The agent supplied a `confidence` below `gate.confidence_threshold` (default 0.7)."""
    conf = ctx.action.confidence
    threshold = ctx.policy.gate.confidence_threshold
    if conf is None or conf >= threshold:
        return None
    return f"the agent's confidence {conf:.2f} is below {threshold:.2f}"


# -- self-protection ------------------------------------------------------------------------------


def _segment_hits(rect: Rect, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """The straight move from a to b passes through rect (Liang–Barsky clipping)."""
    x0, y0 = a
    dx, dy = b[0] - x0, b[1] - y0
    lo, hi = 0.0, 1.0
    # the rect holds x in [x, x+width), y in [y, y+height)
    for p, q in ((-dx, x0 - rect.x), (dx, rect.x + rect.width - 1 - x0),
                 (-dy, y0 - rect.y), (dy, rect.y + rect.height - 1 - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def _points(ctx: Context) -> list[tuple[int, int]]:
    a = ctx.action
    if ctx.type == "drag":
        return list(a.path)  # type: ignore[attr-defined]
    x, y = getattr(a, "x", None), getattr(a, "y", None)
    return [] if x is None or y is None else [(x, y)]


@rule("block.self.pointer-on-deskgate", "Pointer action aimed at deskgate itself", risk=Risk.CRITICAL,
      types=POINTER_TYPES, confidence=1.0, needs="protected")
def pointer_on_deskgate(ctx: Context) -> str | None:
    """A click, move, scroll or any point (or straight stretch) of a drag lands inside one of deskgate's
    own windows, dialogs or its tray (`observation.protected`). A scroll with no point goes wherever the
    pointer is, which deskgate cannot vouch for while one of its windows is active: blocked then too."""
    obs = ctx.observation
    if not obs.protected:
        return None
    points = _points(ctx)
    if not points:
        return "scroll at an unknown point while a deskgate window is active" if obs.protected_active else None
    for rect in obs.protected:
        if any(rect.contains(x, y) for x, y in points):
            return "the action points at a deskgate window"
        if any(_segment_hits(rect, a, b) for a, b in itertools.pairwise(points)):
            return "the drag passes over a deskgate window"
    return None


@rule("block.self.input-into-deskgate", "Keys or typing while a deskgate window is active", risk=Risk.CRITICAL,
      types=("key", "type"), confidence=1.0, needs="protected-active")
def input_into_deskgate(ctx: Context) -> str | None:
    """A key press or typed text while one of deskgate's windows is the active one
    (`observation.protected_active`): it would land in deskgate (e.g. approve its own dialog)."""
    if ctx.observation.protected_active:
        return "keyboard input would go to a deskgate window"
    return None


def kill_keys(hotkey: str) -> frozenset[str] | None:
    """The keys of the kill-switch hotkey (`desktop.kill_hotkey`), as `canonical_keys` names them; None when
    there is none. Read once per policy (gate/compiled.py `kill_keys`)."""
    from gate.rules.gui import canonical_keys

    combo = hotkey.strip()
    if not combo or combo.lower() == "none":
        return None
    return frozenset(canonical_keys([combo]).split("+"))


@rule("block.self.kill-switch-keys", "Pressing deskgate's own kill-switch keys", risk=Risk.CRITICAL,
      types=("key",), confidence=1.0)
def kill_switch_keys(ctx: Context) -> str | None:
    """A key chord that holds every key of the kill-switch hotkey (`desktop.kill_hotkey`): the kill switch,
    like deskgate's windows, is the person's control, not the agent's, whatever the agent means by it.
    (deskgate's dialogs answer keys only while one is active, where `block.self.input-into-deskgate`
    refuses every key.) The same keys in another order, or with more keys, count; a part of it does not."""
    kill = ctx.compiled.kill_keys
    if kill is None:
        return None
    from gate.rules.gui import key_combo

    combo = ctx.derived(key_combo)
    if kill <= frozenset(combo.split("+")):
        return f"{combo} is deskgate's kill-switch hotkey: only the person presses it"
    return None


# -- the risk score ---------------------------------------------------------------------------------

# Points per part of the score. The levels: HIGH from 2.5, CRITICAL from 4. One rejection-free
# benign action without hits scores at most 1 (its type), so it never reaches a level.
_HIT_POINTS = {Risk.LOW: 0.5, Risk.MEDIUM: 1.0, Risk.HIGH: 2.0, Risk.CRITICAL: 3.0}
_TYPE_POINTS = {"shell": 1.0, "file_delete": 1.0, "file_write": 0.5, "file_move": 0.5, "system": 0.5,
                "tool": 0.5, "type": 0.5, "open_app": 0.5}
_CONFIDENCE_WEIGHT = 2.5  # (1 - confidence) * this: 0.7 → 0.75, 0.3 → 1.75
_REJECTION_POINTS, _REJECTION_CAP = 0.9, 4
_EXTRA_HIT_POINTS, _EXTRA_HIT_CAP = 0.5, 1.0
_HIGH_AT, _CRITICAL_AT = 2.5, 4.0
# actions that change nothing: the score never asks about them
_INERT = frozenset({"wait", "screenshot", "move"})
if max(_TYPE_POINTS.values()) >= _HIGH_AT:  # score_risk skips the score of a bare action on this
    raise RuntimeError("an action type's points alone must stay below the HIGH level")


_CONFIRM, _BLOCK = Decision.CONFIRM, Decision.BLOCK  # read once (enum member lookups are not free)


def _score(ctx: Context, hits: Sequence[Hit], explain: bool = False) -> tuple[float, list[str]]:
    """The combined score, and (`explain`) its parts in words: only worded when the score asks."""
    parts: list[str] = []
    confirms = [h for h in hits if h.decision is _CONFIRM]
    score = 0.0
    if confirms:
        top = max(h.risk for h in confirms)
        score += _HIT_POINTS[top]
        score += min(_EXTRA_HIT_CAP, _EXTRA_HIT_POINTS * (len({h.rule for h in confirms}) - 1))
        if explain:  # the strongest concern in its own words (effect and object), then how many more
            strongest = next(h for h in confirms if h.risk == top)
            others = len({h.rule for h in confirms}) - 1
            parts.append(strongest.reason + (f", and {others} more concern{'s' if others > 1 else ''}"
                                             if others else ""))
    conf = ctx.action.confidence
    if conf is not None:
        score += (1.0 - conf) * _CONFIDENCE_WEIGHT
        if explain and conf < 0.9 and not any(h.rule == "confirm.agent.low-confidence" for h in confirms):
            parts.append(f"the agent says it is only {round(conf * 100)}% sure of it")
    if ctx.history is not None:
        rejected = ctx.history.recent_rejections
        if rejected:
            score += _REJECTION_POINTS * min(rejected, _REJECTION_CAP)
            if explain:
                parts.append(f"you turned down {rejected} of this agent's recent actions")
    score += _TYPE_POINTS.get(ctx.type, 0.0)
    return score, parts


def score_risk(ctx: Context, hits: Sequence[Hit]) -> Hit | None:
    """Combine the hits' risk, the agent's confidence, the action type and the person's recent rejections
    (`ctx.history.recent_rejections`) into one score. HIGH asks (unless `gate.risk_score_confirm` is
    "critical"), CRITICAL always asks. Emits `confirm.agent.risk-score` only when that adds something: no
    confirm hit yet, or a level above the hits' own risk. A block hit already decides: None then."""
    if ctx.type in _INERT:
        return None
    if not hits and ctx.action.confidence is None and ctx.history is None:
        return None  # the type's points alone (at most 1.0) are the score: below every level
    for h in hits:
        if h.decision is _BLOCK:
            return None
    score, _ = _score(ctx, hits)
    if score >= _CRITICAL_AT:
        level = Risk.CRITICAL
    elif score >= _HIGH_AT and ctx.policy.gate.risk_score_confirm == "high":
        level = Risk.HIGH
    else:
        return None
    confirms = [h for h in hits if h.decision is _CONFIRM]
    if confirms and level <= max(h.risk for h in confirms):
        return None
    _, parts = _score(ctx, hits, explain=True)
    if not confirms:  # nothing named the action yet: say what it is
        from gate.describe import describe_action
        from gate.model import action_to_dict

        parts.insert(0, describe_action(action_to_dict(ctx.action)))
    # plain words: what the action does and what makes it worth a look, never the number behind it
    return Hit(risk_score.id, Decision.CONFIRM, level, "; ".join(parts))


@rule("confirm.agent.risk-score", "Combined risk score is high or critical", risk=Risk.HIGH, confidence=0.7)
def risk_score(ctx: Context) -> tuple[str, Risk] | None:
    """The score of `score_risk` over no other hits (the engine calls `score_risk` itself, after the
    catalogue, with what fired): confidence, action type and the person's recent rejections."""
    hit = score_risk(ctx, ())
    return (hit.reason, hit.risk) if hit is not None else None


RULES: tuple[Rule, ...] = (kiosk, type_blocked, type_confirm, pointer_on_deskgate, input_into_deskgate,
                           kill_switch_keys, loop,
                           app_mismatch, low_confidence)
# Rules the engine evaluates after the catalogue, over its hits (see `score_risk`).
META_RULES: tuple[Rule, ...] = (risk_score,)
