"""Asking a person about one decided request, and what their answer leaves behind.

- `ask`: waits for the dialog's turn (app/daemon/runstate.py), shows the request with a preview around
  its target, and calls the approver, never longer than its timeout plus ASK_GRACE_S (an approver whose
  UI is stuck must not hold this request, and the dialog gate every other agent waits on, forever).
- `answer`: records the answer before anything runs (an unwritable log → `internal`, nothing runs) and
  turns a denial, a timeout or a kill into the request's outcome; "deny and stop" ends the session and
  bars the agent until a person resumes.
- `grant`: a person's "approve for N min / session" becomes a standing approval (app/daemon/grants.py).
- `always_allow`: a person's "Always allow this" writes the narrow rule the dialog showed into the
  policy file and reloads it; the approval of this one action stands either way.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from app.daemon.grants import GrantStore
from app.daemon.journal import Journal
from app.daemon.outcome import REPLY_BY, Outcome
from app.daemon.policy_runtime import PolicyRuntime
from app.daemon.runstate import RunState
from app.daemon.sessions import Session
from app.errors import DeskgateError
from app.ports import Answer, ApprovalRequest, Approver, AuditSink, DesktopView, Reply, Verdict
from app.user_policy import suggest_allow_rule, suggest_ask_rule, suggest_wider_rule
from gate.describe import describe_action
from gate.model import Action, Assessment, Observation
from gate.redact import find_secrets

__all__ = ["ASK_GRACE_S", "Asker"]

log = logging.getLogger("deskgate.supervisor")

# How long past approvals.timeout_s an approver may take before the supervisor stops waiting for it
ASK_GRACE_S = 2.0


class Asker:
    def __init__(self, *, approver: Approver, state: RunState, journal: Journal, audit: AuditSink,
                 desktop: DesktopView, grant_store: GrantStore, clock: Callable[[], float],
                 end_session: Callable[..., None], add_allow_rule: Callable[..., str],
                 add_ask_rule: Callable[..., str] | None = None) -> None:
        self.approver = approver
        self.state = state
        self.journal = journal
        self.audit = audit
        self.desktop = desktop
        self.grant_store = grant_store
        self.clock = clock
        self.end_session = end_session
        self.add_allow_rule = add_allow_rule
        self.add_ask_rule = add_ask_rule  # None: "Always ask for this host" is not offered

    def cancel_all(self, reason: str) -> None:
        """Deny everything pending (kill switch, quit); an approver that fails here is logged."""
        try:
            self.approver.cancel_all(reason)
        except Exception:
            log.exception("approver.cancel_all failed")

    # -- asking ------------------------------------------------------------------------------------

    def ask(self, rt: PolicyRuntime, session: Session, request_id: str, decision_id: int, shown: dict[str, Any],
            assessment: Assessment, observation: Observation, preview_action: Action | None, intent: str,
            plan: tuple[tuple[dict[str, Any], Assessment], ...] = (), grantable: bool = True,
            action: Action | None = None) -> Reply:
        """One confirmation, when it is this request's turn. Raises Stop (kill, turn timeout)."""
        limits, approvals = rt.limits, rt.approvals
        deadline = self.clock() + limits.step_timeout_s + approvals.timeout_s
        behind = self.state.take_asking_turn(deadline, limits.step_timeout_s)
        try:
            preview_png = preview_box = None
            if preview_action is not None:
                try:
                    # the element deskgate read there is outlined (its label stays readable), else the point marked
                    shot = self.desktop.preview(preview_action, outline=observation.target_box
                                                if not plan else None)
                except Exception:
                    log.exception("preview failed")  # a preview is an aid: the person is asked without one
                    shot = None
                if shot is not None:
                    preview_png, preview_box = shot
                    try:
                        self.audit.add_preview(decision_id, preview_png)
                    except Exception as err:
                        log.error("preview of decision %d not stored: %s", decision_id, err)
            timeout = approvals.timeout_s
            request = ApprovalRequest(
                request_id=request_id, agent=session.agent, session_id=session.id,
                action=with_readable_content(shown, action, assessment),
                assessment=assessment, observation=observation, intent=intent, preview_png=preview_png,
                preview_box=preview_box, plan=plan, queued=behind, timeout_s=timeout, grantable=grantable,
                allow_rule=None if plan else suggest_allow_rule(shown, observation, assessment, rt.policy),
                **({} if plan else _wider(shown, observation, assessment, rt.policy)),
                ask_rule=None if plan or self.add_ask_rule is None or _asked_by_rule(assessment)
                else suggest_ask_rule(shown),
                network=_network(action, rt) if not plan else "")
            self.journal.notify({"kind": "prompt", "open": True, "agent": session.agent, "audit_id": decision_id,
                                 "queued": behind})
            reply = self._ask_bounded(request, timeout)
        finally:
            self.state.end_asking_turn()
            self.journal.notify({"kind": "prompt", "open": False, "audit_id": decision_id})
        return reply

    def _ask_bounded(self, request: ApprovalRequest, timeout: float) -> Reply:
        """approver.ask, bounded by its timeout plus a grace. A late answer is dropped (fail closed)."""
        box: list[Reply | BaseException] = []
        done = threading.Event()

        def call() -> None:
            try:
                box.append(self.approver.ask(request, timeout))
            except BaseException as err:
                box.append(err)
            finally:
                done.set()

        threading.Thread(target=call, name=f"deskgate-ask-{request.request_id}", daemon=True).start()
        if not done.wait(timeout + ASK_GRACE_S):
            log.error("approver did not answer within %.1f s; denied", timeout + ASK_GRACE_S)
            return Reply(Answer.TIMEOUT, by="timeout", note=f"the approver did not answer within {timeout:g} s")
        reply = box[0]
        if isinstance(reply, Reply):
            return reply
        if isinstance(reply, BaseException):
            log.error("approver failed", exc_info=reply)
            return Reply(Answer.DENY, by="headless-rule", note=f"approver failed: {reply}")
        log.error("approver returned %s", type(reply).__name__)
        return Reply(Answer.DENY, by="headless-rule", note=f"approver failed: it returned {type(reply).__name__}")

    # -- the answer --------------------------------------------------------------------------------

    def answer(self, rt: PolicyRuntime, session: Session, decision_id: int, reply: Reply,
               assessment: Assessment) -> Outcome | None:
        """Record the answer; the denial outcome, or None when approved."""
        kill = self.state.killed
        by = reply.by if reply.by in REPLY_BY else "person"
        if kill is not None:
            by = "kill-switch"
        data = {"answer": reply.answer.value, "by": reply.by, "note": reply.note}
        try:
            self.audit.record_event("answer", session_id=session.id, decision_id=decision_id, data=data)
        except Exception as err:
            log.error("answer to decision %d not recorded: %s", decision_id, err)
            raise DeskgateError("internal", f"audit log unwritable: {err} — nothing was executed") from None
        if reply.by == "person" and reply.answer is not Answer.TIMEOUT:
            session.history.record_answer(reply.answer.approved)
        if kill is not None:
            return Outcome(Verdict.DENIED, "kill-switch", f"kill switch: {kill.reason}")
        if reply.answer is Answer.TIMEOUT:  # nobody decided: logged as a timeout, never as a person's no
            return Outcome(Verdict.DENIED, "timeout", f"{assessment.reason}; nobody answered within "
                                                      f"{rt.approvals.timeout_s:g} s (no answer denies)")
        if not reply.answer.approved:
            note = f": {reply.note}" if reply.note else ""
            reason = f"{assessment.reason}; denied by {by}{note}"
            if reply.answer is Answer.DENY_AND_STOP:
                self.state.stop_agent(session.agent)
                self.end_session(session, f"stopped by {by} (deny and stop)", code="killed")
                reason = f"{assessment.reason}; denied by {by}, and the agent was stopped"
            return Outcome(Verdict.DENIED, by, reason)
        return None

    def grant(self, rt: PolicyRuntime, session: Session, reply: Reply, decision_id: int, key: str,
              observation: Observation, what: str, action_type: str) -> None:
        if reply.by != "person":
            return  # only a person's answer creates a standing approval
        grant = self.grant_store.add(reply.answer, key=key, session_id=session.id, agent=session.agent,
                                     app=observation.app, window=observation.window_title, summary=what,
                                     minutes=rt.approvals.grant_minutes, scope=session.scope,
                                     action_type=action_type)
        if grant is not None:
            self.journal.event("grant", session_id=session.id, decision_id=decision_id,
                               data={"grant": grant.id, "answer": reply.answer.value, "app": grant.app,
                                     "window": grant.window,
                                     "expires_in_s": grant.to_dict(grant.created)["expires_in_s"]})
            self.journal.notify({"kind": "grants", "count": len(self.grant_store)})

    def always_allow(self, rt: PolicyRuntime, session: Session, decision_id: int, shown: dict[str, Any],
                     observation: Observation, assessment: Assessment, reply: Reply) -> None:
        """A person chose "Always allow this": the narrow rule the dialog showed goes into the policy
        file. A rule that cannot be written is logged and reported; the approval of this one action stands."""
        if reply.by != "person":
            return
        if reply.answer is Answer.ALLOW_WIDER:
            wider = suggest_wider_rule(shown, observation, assessment, rt.policy)
            rule = wider[0] if wider is not None else None
        else:
            rule = suggest_allow_rule(shown, observation, assessment, rt.policy)
        if rule is None:
            return
        try:
            rule_id = self.add_allow_rule(rule, reason=f"{session.agent}: {describe_action(shown, style='line')}")
        except Exception as err:
            log.error("allow rule not written: %s", err)
            self.journal.event("error", session_id=session.id, decision_id=decision_id,
                               data={"code": "internal", "message": f"allow rule not written: {err}"})
            self.journal.notify({"kind": "rule", "ok": False, "error": str(err)})
            return
        self.journal.notify({"kind": "rule", "ok": True, "rule": rule_id})


    def always_ask(self, session: Session, decision_id: int, shown: dict[str, Any], reply: Reply) -> None:
        """A person chose "Always ask for this host": the `[[ask]]` rule goes into the policy file (this
        one action stays approved once). A rule that cannot be written is logged and reported."""
        if reply.by != "person" or self.add_ask_rule is None:
            return
        rule = suggest_ask_rule(shown)
        if rule is None:
            return
        try:
            rule_id = self.add_ask_rule(rule, reason=f"{session.agent}: {describe_action(shown, style='line')}")
        except Exception as err:
            log.error("ask rule not written: %s", err)
            self.journal.event("error", session_id=session.id, decision_id=decision_id,
                               data={"code": "internal", "message": f"ask rule not written: {err}"})
            self.journal.notify({"kind": "rule", "ok": False, "error": str(err)})
            return
        self.journal.notify({"kind": "rule", "ok": True, "rule": rule_id})


def _asked_by_rule(assessment: Assessment) -> bool:
    """One of the person's `[[ask]]` rules already asks about this: "Always ask" would add nothing."""
    return any(r.startswith("confirm.policy.") and r != "confirm.policy.default-mode" for r in assessment.rules)


def _wider(shown: dict[str, Any], observation: Observation, assessment: Assessment, policy: Any) -> dict[str, Any]:
    """The ApprovalRequest fields of the wider rule this action could get, if any."""
    wider = suggest_wider_rule(shown, observation, assessment, policy)
    return {} if wider is None else {"wider_rule": wider[0], "wider_label": wider[1]}


def with_readable_content(shown: dict[str, Any], action: Action | None, assessment: Assessment) -> dict[str, Any]:
    """What a person is shown: the sanitised action, with a file write's content put back when it holds
    no secret (the log keeps only its digest, but a person deciding must read what will be written, or
    the diff). Content the gate marked for redaction, or that looks like a secret, stays hidden."""
    if action is None or action.type != "file_write" or "content" in assessment.redact:
        return shown
    content = getattr(action, "content", None)
    if not isinstance(content, str) or find_secrets(content):
        return shown
    return {**shown, "content": content}


def _network(action: Action | None, rt: PolicyRuntime) -> str:
    """The networked program the fence would cut off ("" when none, or when the fence has network)."""
    fence = rt.policy.fence
    if action is None or not fence.enabled or fence.network:
        return ""
    from gate.network import networked

    return networked(action, rt.policy) or ""
