"""Headless approvers: deny-all, rule file, terminal prompt. All fail closed and never raise."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from app.daemon.approvers import DenyAllApprover, RuleFileApprover, TerminalApprover, describe_request, parse_rules
from app.ports import Answer, ApprovalRequest
from gate.model import Assessment, Decision, Observation, Risk

OBS = Observation(window_title="report.odt - Writer", app="soffice")


def assessment(*rules: str, decision: Decision = Decision.CONFIRM) -> Assessment:
    return Assessment(decision=decision, reason="asks: " + ", ".join(rules), rules=rules, risk=Risk.MEDIUM,
                      confidence=0.9)


def request(action: dict, *rules: str, plan: tuple = (), obs: Observation = OBS) -> ApprovalRequest:
    return ApprovalRequest(request_id="7", agent="writer-bot", session_id=3, action=action,
                           assessment=assessment(*rules), observation=obs, plan=plan, intent="save the report")


SAVE = {"type": "key", "keys": ["ctrl", "s"]}
PUSH = {"type": "shell", "command": "git push origin main"}
STATUS = {"type": "shell", "command": "git status --short"}


def test_deny_all_is_instant_and_explains_itself() -> None:
    reply = DenyAllApprover().ask(request(SAVE, "confirm.x"), timeout=30)
    assert reply.answer is Answer.DENY and reply.by == "headless-rule" and "--ask-in-terminal" in reply.note


RULES = """
[[rule]]
id = "no-push"
decision = "deny"
command = "git push*"

[[rule]]
id = "git-read"
decision = "approve"
types = ["shell"]
command = "git status*"

[[rule]]
id = "save-in-writer"
decision = "approve"
types = ["key"]
rules = ["confirm.gui.*"]
app = "soffice"
window = "*.odt*"
"""


@pytest.fixture
def rules_file(tmp_path: Path) -> Path:
    p = tmp_path / "approve.toml"
    p.write_text(RULES)
    return p


def test_rule_file_first_match_and_default_deny(rules_file: Path) -> None:
    approver = RuleFileApprover.from_file(rules_file)
    ok = approver.ask(request(STATUS, "confirm.policy.default-mode"), 30)
    assert ok.answer is Answer.APPROVE_ONCE and ok.by == "headless-rule" and "git-read" in ok.note
    no = approver.ask(request(PUSH, "confirm.policy.default-mode"), 30)
    assert no.answer is Answer.DENY and "no-push" in no.note
    other = approver.ask(request({"type": "shell", "command": "make"}, "confirm.x"), 30)
    assert other.answer is Answer.DENY and "default deny" in other.note


def test_rule_file_rule_ids_app_and_window_all_must_match(rules_file: Path) -> None:
    approver = RuleFileApprover.from_file(rules_file)
    assert approver.ask(request(SAVE, "confirm.gui.irreversible"), 30).answer is Answer.APPROVE_ONCE
    # one fired rule outside the globs: not covered
    assert approver.ask(request(SAVE, "confirm.gui.irreversible", "confirm.agent.app-mismatch"), 30).answer \
        is Answer.DENY
    elsewhere = Observation(window_title="Inbox - Mail", app="thunderbird")
    assert approver.ask(request(SAVE, "confirm.gui.irreversible", obs=elsewhere), 30).answer is Answer.DENY


def test_rule_file_plan_needs_every_step_approved(rules_file: Path) -> None:
    approver = RuleFileApprover.from_file(rules_file)
    good = ((STATUS, assessment("confirm.x")), (SAVE, assessment("confirm.gui.irreversible")))
    assert approver.ask(request({"type": "plan"}, "confirm.x", plan=good), 30).answer is Answer.APPROVE_ONCE
    bad = (*good, (PUSH, assessment("confirm.x")))
    assert approver.ask(request({"type": "plan"}, "confirm.x", plan=bad), 30).answer is Answer.DENY


def test_rule_file_redacted_command_never_matches() -> None:
    approver = RuleFileApprover(parse_rules({"rule": [{"decision": "approve", "command": "*"}]}))
    hidden = {"type": "shell", "command": {"redacted": True, "sha256": "ab", "len": 3}}
    assert approver.ask(request(hidden, "confirm.x"), 30).answer is Answer.DENY


@pytest.mark.parametrize("doc, message", [
    ({"rule": [{"decision": "approve"}]}, "at least one"),
    ({"rule": [{"decision": "maybe", "types": ["key"]}]}, "decision"),
    ({"rule": [{"decision": "approve", "types": ["teleport"]}]}, "types"),
    ({"rule": [{"decision": "approve", "types": ["key"], "colour": "red"}]}, "unknown key"),
    ({"default": "approve"}, "default"),
    ({"rules": []}, "unknown key"),
])
def test_rule_file_errors_are_refused_at_load(doc: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_rules(doc, "approve.toml")


def test_rule_file_unreadable_or_not_toml(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        RuleFileApprover.from_file(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[rule]\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        RuleFileApprover.from_file(bad)


def test_describe_request_is_readable() -> None:
    text = describe_request(request(PUSH, "confirm.policy.default-mode"))
    assert "writer-bot" in text and "git push origin main" in text and "confirm.policy.default-mode" in text
    assert "report.odt - Writer" in text and "save the report" in text


def test_describe_request_hides_secrets_and_shows_the_working_directory() -> None:
    hidden = Assessment(decision=Decision.CONFIRM, reason="asks", rules=(), risk=Risk.HIGH, confidence=0.9,
                        redact=frozenset({"text"}))
    typed = ApprovalRequest(request_id="8", agent="writer-bot", session_id=3, assessment=hidden, observation=OBS,
                            action={"type": "type", "text": "pa55-w0rd-kept", "target": {"label": "Password"}})
    text = describe_request(typed)
    assert "pa55-w0rd-kept" not in text and "«redacted len:14»" in text and '"Password"' in text
    shell = describe_request(request({"type": "shell", "command": "make clean", "cwd": "/srv/app"}))
    assert "shell make clean" in shell and "in: /srv/app" in shell


# -- terminal ---------------------------------------------------------------------------------------


@pytest.fixture
def tty():
    master, slave = os.openpty()
    path = os.ttyname(slave)
    yield master, path
    os.close(master)
    os.close(slave)


def _answer_when_prompted(master: int, text: bytes) -> threading.Thread:
    def run() -> None:
        out = b""
        while b"approve?" not in out:
            out += os.read(master, 4096)
        time.sleep(0.05)  # after the prompt has flushed earlier input
        os.write(master, text)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("typed, answer", [
    (b"y\n", Answer.APPROVE_ONCE), (b"s\n", Answer.APPROVE_SESSION), (b"n\n", Answer.DENY),
    (b"\n", Answer.DENY), (b"whatever\n", Answer.DENY), (b"x\n", Answer.DENY_AND_STOP),
])
def test_terminal_answers(tty, typed: bytes, answer: Answer) -> None:
    master, path = tty
    t = _answer_when_prompted(master, typed)
    reply = TerminalApprover(path).ask(request(PUSH, "confirm.x"), timeout=5)
    t.join(5)
    assert reply.answer is answer


def test_terminal_times_out_and_input_typed_before_the_prompt_cannot_approve(tty) -> None:
    master, path = tty
    os.write(master, b"y\n")  # typed before anything was asked
    reply = TerminalApprover(path).ask(request(PUSH, "confirm.x"), timeout=0.3)
    assert reply.answer is Answer.TIMEOUT


def test_terminal_cancel_all_denies_at_once(tty) -> None:
    master, path = tty
    approver = TerminalApprover(path)
    replies = []
    t = threading.Thread(target=lambda: replies.append(approver.ask(request(PUSH, "confirm.x"), timeout=10)))
    t.start()
    out = b""
    while b"approve?" not in out:
        out += os.read(master, 4096)
    started = time.monotonic()
    approver.cancel_all("kill switch")
    t.join(5)
    assert time.monotonic() - started < 0.5
    assert replies[0].answer is Answer.DENY and replies[0].by == "kill-switch"


def test_no_terminal_denies(tmp_path: Path) -> None:
    reply = TerminalApprover(str(tmp_path / "no-tty")).ask(request(PUSH, "confirm.x"), timeout=5)
    assert reply.answer is Answer.DENY and "no terminal" in reply.note


def test_command_glob_is_the_allow_rule_matcher() -> None:
    from app.daemon.approvers import ApproverRule
    from gate.model import Assessment, Decision, Observation, Risk

    rule = ApproverRule(id="gs", approve=True, command="git status*")
    assessment = Assessment(decision=Decision.CONFIRM, reason="", rules=(), risk=Risk.LOW, confidence=1.0)
    seen = Observation(window_title="", app="")
    assert rule.matches({"type": "shell", "command": "git status -s"}, assessment, seen)
    assert rule.matches({"type": "shell", "argv": ["git", "status", "-s"]}, assessment, seen)
    for complex_command in ("git status; rm -rf ~/projects", "git status || reboot", "git status >~/.bashrc",
                            "git status $(id)", "git status <(id)"):
        assert not rule.matches({"type": "shell", "command": complex_command}, assessment, seen), complex_command
    assert not rule.matches({"type": "shell", "argv": ["git", {"redacted": True}]}, assessment, seen)
