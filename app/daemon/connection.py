"""One client connection: routes its requests to the supervisor, one at a time, in order.

`control` requests are refused on a connection that opened an agent session (app/daemon/control.py): an
agent cannot resume or unpause itself through its own connection. On the person's control socket only
`control` requests are taken.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.daemon.sessions import Session
from app.errors import DeskgateError
from app.protocol import Act, Bye, Check, CommandReq, Control, Hello, Observe, Plan, Request

if TYPE_CHECKING:
    from app.daemon.supervisor import Supervisor

__all__ = ["Connection"]


class Connection:
    """One client connection. Requests on it are handled one at a time, in order (the server's contract)."""

    def __init__(self, supervisor: Supervisor, peer: Any, *, control_only: bool = False) -> None:
        self.supervisor = supervisor
        self.peer = peer
        self.session: Session | None = None
        self.agent_seen = False        # said hello as an agent once: never a person's connection again
        self.control_only = control_only  # on the control socket: control requests only

    def handle(self, request: Request) -> dict[str, Any]:
        sup = self.supervisor
        if isinstance(request, Control):
            return sup.control(self, request)
        if self.control_only:
            raise DeskgateError("unknown_op", "the control socket takes `control` requests only; agents use "
                                              "the agent socket")
        if isinstance(request, Hello):
            self.agent_seen = True
            return sup.hello(self, request)
        session = self.session
        if session is None:
            if isinstance(request, Check):  # assess only: nothing runs, no state, so no session is needed
                return sup.check_without_session(request, self.peer)
            raise DeskgateError("bad_request", "the first request must be `hello` (or a `check`)")
        if isinstance(request, Bye):
            sup.end_session(session, "bye")
            self.session = None
            return {"session": session.id, "closed": True}
        if session.ended is not None and not isinstance(request, Check | Observe):
            raise DeskgateError(session.ended_code, f"session {session.id} has ended: {session.ended}")
        if isinstance(request, Act):
            return sup.act(session, request)
        if isinstance(request, Plan):
            return sup.plan(session, request)
        if isinstance(request, Check):
            return sup.check(session, request)
        if isinstance(request, Observe):
            return sup.observe(session, request)
        if isinstance(request, CommandReq):
            return sup.command(session, request)
        raise DeskgateError("unknown_op", f"unknown request {type(request).__name__}")

    def close(self) -> None:
        if self.session is not None:
            self.supervisor.end_session(self.session, "disconnected")
            self.session = None
