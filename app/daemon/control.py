"""Control: the person's commands (kill, pause, resume, status, grants, revoke, policy reloads) and who
may send them.

- kill: new requests get a `killed` error; once `kill()` returns no executor step starts (the flag is
  checked under the lock every execution takes to start); pending confirmations are cancelled, running
  commands end and every grant is revoked. A kill is persisted until a person resumes.
- pause (by a person, from the tray or `deskgate pause`): new `act`/`plan`/`command` requests get a
  `paused` error at once (they do not wait); `check`, `observe` and `hello` still work. Requests
  already past the pause check finish. Pause is not persisted.
- who may send what (SECURITY.md "uid model"): `kill` and `pause` are open to every connection (stopping
  is always allowed). Everything else only to the person's uid (the server's own), never on a connection
  that said `hello` as an agent; `resume`/`unpause` also need the person's proof (`person: "tty"`, checked
  against the requesting process by `app.daemon.person.person_refusal`). Refusals are logged
  (`control_refused`).
- policy: a reload builds the new runtime whole (a bad policy raises and changes nothing), swaps it in
  with one assignment and revokes every grant (they were given under the old policy). "Always allow
  this" writes an allow rule to `policy_file` and reloads.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.daemon.asking import Asker
from app.daemon.grants import GrantStore
from app.daemon.journal import Journal
from app.daemon.killstate import KillRecord
from app.daemon.policy_runtime import PolicyRef, PolicyRuntime
from app.daemon.runstate import RunState
from app.daemon.sessions import SessionRegistry
from app.errors import DeskgateError
from app.ports import ActionExecutor, AuditSink
from app.protocol import RESUME_COMMANDS, STOP_COMMANDS, Control
from gate.policy import Policy

if TYPE_CHECKING:
    from app.daemon.connection import Connection

__all__ = ["Controls"]

log = logging.getLogger("deskgate.supervisor")


class Controls:
    def __init__(self, *, ref: PolicyRef, state: RunState, journal: Journal, audit: AuditSink, asker: Asker,
                 executor: ActionExecutor, grant_store: GrantStore, sessions: SessionRegistry,
                 clock: Callable[[], float], policy_file: Path, person_uid: int | None,
                 person_check: Callable[[int | None, list[int]], str | None]) -> None:
        self.ref = ref
        self.state = state
        self.journal = journal
        self.audit = audit
        self.asker = asker
        self.executor = executor
        self.grant_store = grant_store
        self.sessions = sessions
        self.clock = clock
        # The person's policy file ("Always allow this" writes allow rules into it) and the preset given on
        # the command line, if any: what a reload reads (app/root/runtime.build_runtime sets both).
        self.policy_file = policy_file
        self.preset_override: str | None = None
        # the kill-switch hotkey given on the command line (`--kill-hotkey`), if any: the listener keeps it
        # for the whole run, so every reload puts it back into the policy (the gate refuses an agent's
        # press of the hotkey that is really in use, not the one the file names)
        self.kill_hotkey_override: str | None = None
        self.person_uid = os.geteuid() if person_uid is None else int(person_uid)
        self.person_check = person_check  # (pid, agent pids) -> why it is not the person, or None

    # -- kill and pause ----------------------------------------------------------------------------

    def kill(self, reason: str, by: str) -> None:
        """Stop everything now: nothing further executes, pending confirmations are denied, grants end."""
        record = KillRecord(reason or "kill switch", by, time.time())
        already = self.state.set_killed(record)
        # Everything below is after the flag: the flag alone is what stops execution.
        self.asker.cancel_all(f"kill switch: {record.reason}")
        try:  # commands already running: their process groups end now
            self.executor.cancel_all()
        except Exception:
            log.exception("executor.cancel_all failed")
        revoked = self.grant_store.revoke_all()
        if already:
            return
        try:
            self.state.kill_file.save(record)
        except OSError as err:
            log.error("kill state could not be persisted to %s: %s (killed until this process ends)",
                      self.state.kill_file.path, err)
        # queued for the next group commit, not waited for: the kill file above is its durable record, and
        # the person hears back at once however much agent work the log is committing
        self.journal.event("kill", data={"reason": record.reason, "by": by, "grants_revoked": len(revoked)},
                           durable=False)
        log.warning("KILLED by %s: %s", by, record.reason)
        self.journal.notify({"kind": "state", "state": "killed", "reason": record.reason, "by": by})

    def resume(self, by: str) -> None:
        """Lift a kill. Raises OSError when the persisted kill cannot be removed (then it stays killed)."""
        if not self.state.clear_killed():
            return
        self.journal.event("resume", data={"by": by})
        log.warning("resumed by %s", by)
        self.journal.notify({"kind": "state", "state": self.state.state, "by": by})

    def pause(self, by: str) -> None:
        if not self.state.set_paused(by):
            return
        self.journal.event("pause", data={"by": by})
        self.journal.notify({"kind": "state", "state": self.state.state, "by": by})

    def unpause(self, by: str) -> None:
        if not self.state.clear_paused():
            return
        self.journal.event("unpause", data={"by": by})
        self.journal.notify({"kind": "state", "state": self.state.state, "by": by})

    # -- grants and policy -------------------------------------------------------------------------

    def revoke(self, grant_id: str, by: str = "person") -> bool:
        grant = self.grant_store.revoke(grant_id)
        if grant is None:
            return False
        self.journal.event("revoke", session_id=grant.session_id, data={"grant": grant.id, "by": by})
        self.journal.notify({"kind": "grants", "count": len(self.grant_store)})
        return True

    def set_policy(self, policy: Policy, source: str) -> None:
        """Swap the policy (the tray's "Reload policy"): requests from now on are judged by it, whole.

        Grants were given under the old policy, so they end with it."""
        runtime = PolicyRuntime.build(policy)  # built before anything changes: a bad policy changes nothing
        self.ref.swap(runtime)
        self.audit.store_outputs = policy.audit.store_outputs
        revoked = self.grant_store.revoke_all()
        self.grant_store.idle_s = policy.limits.session_timeout_s
        self.journal.event("policy", data={"preset": policy.preset, "source": source,
                                           "grants_revoked": len(revoked)})
        log.info("policy reloaded from %s (preset %s)", source, policy.preset)
        self.journal.notify({"kind": "policy", "preset": policy.preset, "source": source})
        if revoked:
            self.journal.notify({"kind": "grants", "count": len(self.grant_store)})

    def reload_policy(self, source: str = "") -> Policy:
        """Read the person's policy file again (with the command line's preset and kill hotkey) and apply it.
        Raises PolicyError (then nothing changes)."""
        from gate import load_policy

        path = self.policy_file
        policy = load_policy(path if path.exists() else None, self.preset_override)
        if self.kill_hotkey_override:
            import msgspec

            policy = msgspec.structs.replace(policy, desktop=msgspec.structs.replace(
                policy.desktop, kill_hotkey=self.kill_hotkey_override))
        self.set_policy(policy, source or (str(path) if path.exists() else "defaults"))
        return policy

    def add_allow_rule(self, rule: dict[str, Any], *, reason: str, by: str = "person") -> str:
        """Write a person's "always allow" rule into the policy file and reload. Returns the rule id.
        Raises OSError/PolicyError/ValueError when it could not be written or applied (the file is then
        unchanged: the write is atomic and checked before it replaces the old file)."""
        from app.user_policy import add_allow_rule

        rule_id = add_allow_rule(self.policy_file, rule, reason=reason)
        self.reload_policy(f"{self.policy_file} (allow rule {rule_id} added by {by})")
        self.journal.event("rule", data={"op": "add", "rule": rule_id, "by": by})
        return rule_id

    def add_ask_rule(self, rule: dict[str, Any], *, reason: str, by: str = "person") -> str:
        """Write a person's "always ask" rule (`[[ask]]`) into the policy file and reload, like
        `add_allow_rule`. Returns the rule id."""
        from app.user_policy import add_ask_rule

        rule_id = add_ask_rule(self.policy_file, rule, reason=reason)
        self.reload_policy(f"{self.policy_file} (ask rule {rule_id} added by {by})")
        self.journal.event("rule", data={"op": "add", "table": "ask", "rule": rule_id, "by": by})
        return rule_id

    # -- status and control requests -----------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        now = self.clock()
        state = self.state
        kill, pause = state.killed, state.paused
        out: dict[str, Any] = {"state": state.state, "policy": self.ref.now.policy.preset}
        if kill is not None:
            out.update(reason=kill.reason, by=kill.by, since=kill.at)
        elif pause is not None:
            out.update(by=pause[0], since=pause[1])
        out["sessions"] = [s.to_dict(now) for s in self.sessions.active()]
        out["grants"] = [g.to_dict(now) for g in self.grant_store.list()]
        out["asking"] = state.asking
        out["queued"] = state.queued
        alarm = self.audit.out_of_service
        if alarm is not None:
            out["audit_alarm"] = alarm  # nothing runs until deskgate restarts on a sound log
        broken = self.audit.verify_problem
        if broken is not None:
            out["audit_verify_failed"] = broken  # started on a log that fails verification: continued, loudly
        return out

    def control(self, conn: Connection, req: Control) -> dict[str, Any]:
        peer = conn.peer
        by = f"command line (pid {getattr(peer, 'pid', '?')})"
        if conn.agent_seen:
            name = f"agent {conn.session.agent!r}" if conn.session is not None else "an agent connection"
            by = f"{name} (pid {getattr(peer, 'pid', '?')})"
        refusal = self.refusal(conn, req)
        if refusal is not None:
            self.journal.event("control_refused", durable=False, data={
                "command": req.command, "pid": getattr(peer, "pid", None), "uid": getattr(peer, "uid", None),
                "agent": conn.session.agent if conn.session is not None else None, "reason": refusal})
            log.warning("refused control %r from pid %s uid %s: %s", req.command, getattr(peer, "pid", None),
                        getattr(peer, "uid", None), refusal)
            raise DeskgateError("unauthorized", refusal)
        command = req.command
        if command == "kill":
            self.kill(req.reason or "kill from the command line", by)
        elif command == "resume":
            try:
                self.resume(by)
            except OSError as err:
                raise DeskgateError("internal", f"cannot clear the persisted kill state: {err}; still killed") \
                    from None
        elif command == "pause":
            self.pause(by)
        elif command == "unpause":
            self.unpause(by)
        elif command == "grants":
            now = self.clock()
            return {"grants": [g.to_dict(now) for g in self.grant_store.list()]}
        elif command == "revoke":
            if not self.revoke(req.grant or "", by):
                raise DeskgateError("bad_request", f"no active grant {req.grant!r}")
            return {"revoked": req.grant}
        elif command != "status":  # the protocol admits only known commands; never answer "ok" to another
            raise DeskgateError("bad_request", f"unknown control command {command!r}")
        return self.status()

    def refusal(self, conn: Connection, req: Control) -> str | None:
        """Why this connection may not send this control command (None: it may)."""
        command = req.command
        if command in STOP_COMMANDS:
            return None  # stopping is always allowed, to anyone connected
        uid = getattr(conn.peer, "uid", None)
        if uid != self.person_uid:
            return (f"only the person's uid ({self.person_uid}) may send {command!r}; uid {uid} may only "
                    "`kill` or `pause`")
        if conn.agent_seen:
            return (f"{command!r} is refused on a connection that opened an agent session; agents may only "
                    "`kill` or `pause`. A person resumes from the tray or with `deskgate resume` in a terminal")
        if command not in RESUME_COMMANDS:
            return None
        if req.person != "tty":
            return (f"{command!r} needs the person: use the tray, or run `deskgate {command}` in a terminal and "
                    "answer its prompt")
        agent_pids = [s.pid for s in self.sessions.active() if s.pid] + self.state.remembered_agents()
        why = self.person_check(getattr(conn.peer, "pid", None), agent_pids)
        if why is not None:
            return (f"{command!r} needs the person at a terminal no agent holds ({why}); use the tray or run "
                    f"`deskgate {command}` yourself in a terminal")
        return None
