"""Rules: clicks that answer a prompt about running something: a coding agent's own request to run a command, the
system's warning about a program from the internet, and a tweak utility's button that rewrites system settings.

    block.gui.agent-approval    "Continue", "Allow", "Run", "Accept", "Approve", "Yes" on a coding agent's approval
    confirm.gui.agent-approval  prompt (VS Code's "Run command in terminal: ...", Cursor, Claude, Cline or Roo's
                                "wants to execute this command") is judged as the command it shows, by the shell
                                rules: what they block is blocked, what they ask about asks, a harmless command passes
    confirm.gui.agent-tool-approval  the same go-ahead for a tool whose name deletes, sends, pays or runs commands
                                ("wants to use delete_repository", "Run tool: send_email")
    confirm.gui.security-prompt-bypass  "Open", "Open Anyway", "Run anyway", "Allow" in Gatekeeper's "unidentified
                                developer" or "cannot be opened" alert, SmartScreen's "Windows protected your PC",
                                the "downloaded from the internet" question, an "Unknown publisher" security
                                warning, Play Protect's "Install anyway", the firewall's "Allow access" for a new
                                program
    confirm.typed.agent-allow-all  `/allow-all`, `/yolo`, `/tools trust-all` typed into a coding agent's prompt
    confirm.gui.system-tweaks   "Run Tweaks", "Apply tweaks", "Debloat", "Optimize now", "Apply all" in a tweak,
                                debloat or optimiser utility: many system settings and services changed at once

A "Send" in a coding assistant's own chat panel gives the person's assistant a prompt and no mail leaves
(`gate.fields.assistant_chat`, read by `confirm.gui.irreversible`). Pure: reads the target's label, the window's
title and app, and the page's text.
"""

from __future__ import annotations

import re

from gate.approvals import approval_command, approval_tool, risky_tool
from gate.fields import label_text, short
from gate.model import Risk, Shell
from gate.normalise import fold
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.typed import judge_as

__all__ = ["RULES"]

_PAGE_LIMIT = 4000  # an alert says what it warns of at its top

# -- a coding agent's request to run a command ------------------------------------------------------------------

def _approval_verdict(ctx: Context) -> tuple[str, object, object] | None:
    command = ctx.derived(approval_command)
    if command is None:
        return None
    block, confirm = judge_as(Shell(command=command), ctx)
    return command, block, confirm


@rule("block.gui.agent-approval", "Approving an agent's request to run a command the shell rules block",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def agent_approval_block(ctx: Context) -> CheckResult:
    """A click on the go-ahead of a coding agent's approval prompt ("Continue" under VS Code's "Run command in
    terminal: ...", "Run" or "Allow" in Cursor or Claude, "Approve" in Cline or Roo, "Yes" to "Do you want to run
    this command?") runs the command the prompt shows: when the shell rules block that command (`rm -rf ~`, a
    download piped to a shell), approving it is blocked, as typing it would be."""
    found = ctx.derived(_approval_verdict)
    if found is None or found[1] is None:
        return None
    command, block, _ = found
    return f"approves running {short(command)!r}: {block.reason}", block.risk  # type: ignore[attr-defined]


@rule("confirm.gui.agent-approval", "Approving an agent's request to run a command the shell rules ask about",
      risk=Risk.HIGH, types=("click",), confidence=0.85)
def agent_approval_confirm(ctx: Context) -> CheckResult:
    """The same go-ahead when the shell rules would ask about the command shown (a recursive delete in the
    project, a push, an install): the person decides, as they would for the command typed. A harmless command
    (`npm test`, `git status`) is approved without asking."""
    found = ctx.derived(_approval_verdict)
    if found is None or found[1] is not None or found[2] is None:
        return None
    command, _, confirm = found
    return f"approves running {short(command)!r}: {confirm.reason}", confirm.risk  # type: ignore[attr-defined]


@rule("confirm.gui.agent-tool-approval",
      "Approving an agent's call of a tool that deletes, sends, pays or runs commands",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def agent_tool_approval(ctx: Context) -> CheckResult:
    """A go-ahead on an agent's prompt to call a tool whose name says it deletes, sends, pays, publishes, pushes or
    runs commands ("Claude wants to use delete_repository", "Run tool: send_email", "Allow tool execute_command"):
    the call acts on the person's accounts or machine with whatever arguments the agent chose. Where the prompt
    shows a command, the command is judged instead (`confirm.gui.agent-approval`). A tool that reads, lists or
    searches passes."""
    if ctx.derived(approval_command) is not None:
        return None
    tool = ctx.derived(approval_tool)
    if tool is None or (word := risky_tool(tool)) is None:
        return None
    return f"approves the agent's call of {tool[:40]!r}: a tool that would {word}"


# -- the system's own warning about a program from the internet -------------------------------------------------

# the alert's title or text: Gatekeeper, SmartScreen, the attachment manager's "Open File - Security Warning", the
# "downloaded from the internet" question, a Linux desktop's untrusted launcher
_SECURITY_PROMPT = re.compile(
    r"\b(?:(?:is|comes) from an unidentified developer|unidentified developer|"
    r"(?:can ?not|can t|cannot|couldn t|could not) be opened because (?:it is from an unidentified developer|apple "
    r"(?:can ?not|cannot) check it|the developer cannot be verified|it was not downloaded from the (?:mac )?app store)|"
    r"apple (?:could not|cannot|can ?not) (?:verify|check)|"
    r"(?:was )?not opened because it (?:contains malware|could not be verified)|developer cannot be verified|"
    r"windows protected your pc|microsoft defender smartscreen|windows defender smartscreen|smartscreen (?:prevented|"
    r"can t be reached)|prevented an unrecognized app from starting|unrecognized app|"
    r"open file security warning|the publisher (?:could not|couldn t|cannot) be verified|"
    r"unknown publisher|publisher unknown|"
    r"(?:is an (?:app|application)|it) (?:was )?downloaded from the internet|downloaded from the internet\b.{0,40}\b"
    r"(?:open|sure)|"
    r"untrusted (?:application )?launcher|allow launching|"
    r"blocked by play protect|play protect (?:blocked|warning|doesn t recognize|does not recognize)|unsafe app blocked|"
    r"harmful app blocked|this app (?:was built for an older version of android|may be harmful)|"
    r"firewall has blocked some features of this app|"
    r"windows hat ihren pc geschützt|unbekannter entwickler|nicht verifizierter entwickler|"
    r"windows a protégé votre ordinateur|développeur non identifié|"
    r"windows protegió su pc|desarrollador no identificado|"
    r"windows protegeu o computador|desenvolvedor não identificado|"
    r"windows ha protetto il pc|sviluppatore non identificato|"
    r"windows heeft uw pc beschermd|onbekende ontwikkelaar|"
    r"pc を保護しました|開発元が未確認|開発元を検証できません|已保护你的电脑|无法验证开发者|身份不明的开发者)")
# the answer that runs the program anyway
_BYPASS = re.compile(
    r"^(?:open|open anyway|open it anyway|run|run anyway|run it anyway|allow|allow anyway|yes|continue|ok|launch|"
    r"launch anyway|trust and launch|allow launching|mark as trusted|trust|keep anyway|execute|install anyway|"
    r"install without scanning|more details install anyway|allow access|"
    r"trotzdem öffnen|öffnen|trotzdem ausführen|ausführen|ouvrir quand même|ouvrir|exécuter quand même|exécuter|"
    r"abrir de todos modos|abrir igualmente|abrir|ejecutar de todas formas|ejecutar de todos modos|ejecutar|"
    r"abrir mesmo assim|executar mesmo assim|executar|apri comunque|apri|esegui comunque|esegui|"
    r"toch openen|openen|toch uitvoeren|uitvoeren|"
    r"このまま開く|開く|実行|仍要运行|仍然打开|打开|运行)$")
_NOTE = re.compile(r"\s*\([^)]*\)$")  # "Open (recommended)": the note beside the answer


def _security_prompt(ctx: Context) -> str | None:
    obs = ctx.observation
    for text in (obs.window_title[:256], ctx.derived(label_text).raw, obs.page_text[:_PAGE_LIMIT]):
        if text:
            m = _SECURITY_PROMPT.search(" ".join(fold(text).lower().replace("’", " ").replace("'", " ").split()))
            if m is not None:
                return m.group(0)
    return None


@rule("confirm.gui.security-prompt-bypass", "Opening a program past the system's warning that it is unverified",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def security_prompt_bypass(ctx: Context) -> CheckResult:
    """"Open", "Open Anyway", "Run anyway", "Allow" or "Yes" answered to the system's own warning about a program
    from the internet: Gatekeeper's "is from an unidentified developer" or "cannot be opened because Apple cannot
    check it for malicious software", SmartScreen's "Windows protected your PC", the "downloaded from the Internet.
    Are you sure you want to open it?" question, the "Open File - Security Warning" of an unknown publisher, a Linux
    desktop's untrusted launcher, Play Protect's "Install anyway" for an app it blocked, the firewall's "Allow
    access" for a program it stopped listening. The check exists for programs nobody vouched for: going past it
    asks, in any of the languages the prompts are shown in. "Cancel", "Move to Bin", "Don't run" pass."""
    label = ctx.derived(label_text)
    if not label.raw:
        return None
    first = " ".join(fold(label.raw.splitlines()[0]).lower().replace("’", " ").split()).strip(" .!")
    first = _NOTE.sub("", first)
    if len(first) > 40 or not _BYPASS.match(first):
        return None
    found = ctx.derived(_security_prompt)
    if found is None:
        return None
    return f"{label.raw.splitlines()[0][:30]!r} goes past the system's warning ({found!r}): the program is unverified"


# -- a tweak or debloat utility applying its changes -------------------------------------------------------------

# the button that applies a batch of system changes, whatever window it is in
_TWEAK_LABEL = re.compile(
    r"^(?:run|apply|install|execute|start|do|enable|undo|revert)(?: (?:all|the|selected|recommended|chosen|checked))*"
    r" (?:tweaks?|privacy tweaks|debloat(?:ing)?|system (?:tweaks|optimi[sz]ations?))$|"
    r"^(?:debloat|debloat now|debloat windows|run debloat|start debloat|remove bloatware|uninstall bloatware|"
    r"optimi[sz]e(?: now| all| system| windows| pc| my pc)?|boost now|tune ?up now|fix all|fix (?:all|selected) "
    r"issues|repair all|clean registry|fix registry|disable telemetry|apply (?:all )?recommended(?: settings)?|"
    r"tweaks anwenden|optimieren|appliquer les (?:réglages|optimisations)|optimiser|aplicar (?:ajustes|optimizaciones)|"
    r"optimizar|otimizar|ottimizza)$")
# a bare apply in a utility whose name says it tweaks, debloats or optimises the system
_BARE_APPLY = re.compile(r"^(?:apply|apply all|apply changes|apply selected|run|run all|run selected|start|go|"
                         r"execute|ok|yes|install|install selected|run script|run now)$")
_TWEAK_APP = re.compile(
    r"\b(?:winutil|windows utility|chris titus|shutup10|shut up 10|o&o shutup|w10privacy|win10debloater|"
    r"windows10debloater|debloater|debloat|bloatynosy|thisiswin11|winaero tweaker|ultimate windows tweaker|"
    r"tweaker|tweaks?|optimi[sz]er|optimi[sz]ation tool|privacy\.sexy|sophia script|sophiapp|winslap|debotnet|"
    r"hellzerg|atlas ?os|revi ?os|ame wizard|tron script|ccleaner|advanced systemcare|glary utilities|wise care|"
    r"iobit|tune ?up utilities|system mechanic|razer cortex|onyx|tinkertool|stacer|bleachbit|win ?toys|"
    r"windows ?11 ?(?:debloat|tweak)|privatezilla|spydish|tinywall|blackbird)\b")


@rule("confirm.gui.system-tweaks", "Applying a tweak, debloat or optimiser utility's batch of system changes",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def system_tweaks(ctx: Context) -> CheckResult:
    """"Run Tweaks", "Apply tweaks", "Debloat", "Remove bloatware", "Optimize now", "Disable telemetry", or a bare
    "Apply all" or "Run" in a tweak, debloat or optimiser utility's window (WinUtil, O&O ShutUp10, Winaero Tweaker,
    privacy.sexy, Sophia Script, CCleaner's registry fix, OnyX, Stacer): many services, scheduled tasks, apps and
    registry values changed in one go, some of them protections (updates, Defender, SmartScreen, telemetry the
    person's organisation relies on). It asks; opening the utility's tabs does not."""
    label = ctx.derived(label_text)
    if not label.raw:
        return None
    first = label.words.split("\n", 1)[0].strip()
    if len(first) > 60:
        return None
    if _TWEAK_LABEL.match(first):
        return f"{label.raw.splitlines()[0][:40]!r} changes system settings in a batch"
    if not _BARE_APPLY.match(first):
        return None
    obs = ctx.observation
    place = " ".join(fold(p).lower().replace("'", " ") for p in (obs.app[:128], obs.window_title[:256]) if p)
    if not _TWEAK_APP.search(place):
        return None
    return f"{label.raw.splitlines()[0][:40]!r} in {(obs.window_title or obs.app)[:40]!r} applies system tweaks"


# -- an agent's approvals switched off from its own prompt -----------------------------------------------------

# the slash commands that let a coding agent run every tool unasked: Copilot CLI's /allow-all (/yolo), Amazon Q's
# /tools trust-all, Qwen's and Gemini's approval modes, Codex's /approvals full access, Goose's /mode auto
_ALLOW_ALL = re.compile(
    r"^\s*/(?:allow[-_ ]?all(?:[-_ ]?tools)?|yolo(?: on| mode)?|approve[-_ ]?all|auto[-_ ]?approve(?: on| all| true)?|"
    r"trust[-_ ]?all|tools trust[-_ ]?all|approval[-_ ]?mode (?:yolo|auto|auto[-_ ]?edit|full)|"
    r"approvals? (?:full(?:[-_ ]?access)?|never|auto|yolo|danger\w*)|"
    r"mode (?:auto|full[-_ ]?auto|yolo|bypass\w*|dangerous\w*)|permissions? (?:bypass\w*|allow[-_ ]?all|dangerous\w*)|"
    r"dangerously[-_ ]skip[-_ ]permissions|full[-_ ]?auto|bypass[-_ ]?permissions|skip[-_ ]?permissions)\s*$",
    re.IGNORECASE)
_PROMPT_PLACE = re.compile(r"\b(?:copilot|claude|codex|gemini|qwen|aider|amazon q|q chat|goose|cline|cursor|"
                           r"opencode|crush|amp|warp|agent|prompt|terminal|console|shell|bash|zsh|powershell)\b")


@rule("confirm.typed.agent-allow-all", "A coding agent's approvals switched off by a command typed into its prompt",
      risk=Risk.HIGH, types=("type",), confidence=0.75)
def agent_allow_all(ctx: Context) -> CheckResult:
    """A slash command typed into a coding agent's prompt that lets every tool run from then on without asking
    (Copilot CLI's `/allow-all` or `/yolo`, Amazon Q's `/tools trust-all`, an approval mode set to yolo, Codex's
    approvals set to full access): every later command runs unseen, the step planted instructions ask for. The
    person decides; `/help`, `/model` and a prompt about permissions pass."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) > 80 or not _ALLOW_ALL.match(text):
        return None
    obs = ctx.observation
    target = ctx.action.target
    place = fold(" ".join(p for p in (obs.app[:64], obs.window_title[:128],
                                       (target.label or "") if target is not None else "") if p)).lower()
    if not _PROMPT_PLACE.search(place):
        return None
    return f"{text.strip()!r} typed into an agent's prompt lets every tool run unasked"


RULES: tuple[Rule, ...] = (agent_approval_block, agent_approval_confirm, agent_tool_approval, security_prompt_bypass,
                           system_tweaks, agent_allow_all)
