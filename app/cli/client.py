"""`deskgate act|kill|resume|pause|unpause|status|grants|revoke`: talking to a running deskgate.

    deskgate act '{"type":"key","keys":["ctrl","s"]}' --agent my-script
    deskgate kill --reason "it is typing into the wrong window"
    deskgate status

Each prints the supervisor's reply for people (app/cli/format.py), or with `--json` as one JSON object.
`act` exits 0 when the action was executed (or allowed, with --no-execute), 1 when it was denied, 2 on
any error (a failed execution included: its JSON then says `"ok": false`); the others exit 0 or 2.
With no deskgate running nothing happens and the exit status is 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from app.agent.client import Client, LimitExceeded, SupervisorUnavailable, UntrustedServer
from app.cli.format import add_json_flag, emit, emit_error, format_grants, format_reply, format_status
from app.config import control_socket_for, default_socket
from app.errors import DeskgateError
from app.wire import RESUME_COMMANDS, Verdict

TYPE_CHECKING = False  # typing is not imported at run time: the hook and `deskgate kill` start small
if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = ["register"]

_OK_VERDICTS = frozenset({Verdict.EXECUTED, Verdict.ALLOWED, Verdict.APPROVED})
_CONTROL_HELP = {
    "kill": "kill switch: deny everything in flight, execute nothing more until `resume`",
    "resume": "clear the kill switch (asks you to confirm on this terminal)",
    "pause": "refuse new actions (`paused`) until `unpause`; sessions stay open",
    "unpause": "accept actions again after `pause` (asks you to confirm on this terminal)",
    "status": "state, sessions and counters of the running deskgate",
    "grants": "list the active grants (standing approvals)",
    "revoke": "withdraw one grant by its id",
}


def fail(err: DeskgateError, args: argparse.Namespace) -> int:
    """An error: one line for a person on stderr; with --json the reply (or what stands for one) on stdout."""
    reply = err.reply if err.reply is not None else {"id": None, "ok": False, "error": err.to_dict()}
    emit_error(reply, args, f"{err.code}: {err.message}")
    return 2


def report_verdict(reply: dict[str, Any], args: argparse.Namespace) -> int:
    """An `act` / `command` reply, printed; the exit status: 0 done or allowed, 1 denied, 2 failed."""
    verdict = reply.get("verdict")
    if verdict not in _OK_VERDICTS and verdict != Verdict.DENIED:
        # the request was understood (the wire's ok) but the action failed: for a script, that is not ok
        reply = {**reply, "ok": False}
    emit(reply, args, format_reply(reply))
    if verdict in _OK_VERDICTS:
        return 0
    print(f"deskgate: {verdict}: {_why_not_done(reply)}", file=sys.stderr)
    return 1 if verdict == Verdict.DENIED else 2


def _why_not_done(reply: dict[str, Any]) -> str:
    """Denied: the gate's or the person's reason. Failed: what went wrong when it ran (the reason there is
    only why it was allowed, e.g. "no rule applies")."""
    error = (reply.get("result") or {}).get("error") if isinstance(reply.get("result"), dict) else None
    if reply.get("verdict") != Verdict.DENIED and error:
        return str(error.get("message") or error.get("code")) if isinstance(error, dict) else str(error)
    return str(reply.get("reason", ""))


def _format_control(command: str, reply: dict[str, Any]) -> str:
    if command == "grants":
        return format_grants(reply.get("grants") or [])
    if command == "revoke":
        return f"revoked grant {reply.get('revoked')}\n"
    return format_status(reply)


def _client(args: argparse.Namespace) -> Client:
    client = Client(args.socket, timeout=args.timeout)
    client.wait_on_limits = False  # a person at the command line reads the refusal (and its retry_after)
    return client


def _read_action(text: str) -> dict[str, Any]:
    raw = sys.stdin.read() if text == "-" else text
    try:
        action = json.loads(raw)
    except json.JSONDecodeError as err:
        raise DeskgateError("bad_request", f"the action is not valid JSON: {err.msg} (column {err.colno})") \
            from None
    if not isinstance(action, dict):
        raise DeskgateError("bad_request", "the action must be a JSON object, e.g. '{\"type\":\"wait\"}'")
    return action


def cmd_act(args: argparse.Namespace) -> int:
    try:
        action = _read_action(args.action)
        with _client(args) as dg:
            dg.hello(args.agent)
            reply = dg.act(action, execute=not args.no_execute)
    except DeskgateError as err:
        return fail(err, args)
    return report_verdict(reply, args)


def _control_sockets(args: argparse.Namespace) -> list[Path]:
    """The person's control socket first, then the agent socket (a deskgate without a control socket)."""
    agent = Path(args.socket) if args.socket else default_socket()
    return [control_socket_for(agent), agent]


def _send_control(args: argparse.Namespace, person: str | None) -> dict[str, Any]:
    fields = {"grant": getattr(args, "grant", None), "person": person}
    last: DeskgateError | None = None
    for path in _control_sockets(args):
        try:
            with Client(path, timeout=args.timeout) as dg:
                return dg.control(args.control, getattr(args, "reason", None), **fields)
        except UntrustedServer:
            raise  # never fall back past a socket we do not trust
        except (SupervisorUnavailable, LimitExceeded) as err:
            last = err
    assert last is not None
    raise last


def ask_on_terminal(prompt: str) -> None:
    """app.daemon.person.ask_on_terminal, loaded when a resume asks: kill and status never need it."""
    from app.daemon.person import ask_on_terminal as ask

    ask(prompt)


def cmd_control(args: argparse.Namespace) -> int:
    person = None
    if args.control in RESUME_COMMANDS:
        from app.daemon.person import TerminalError

        # Letting agents act again needs the person: a code typed on the controlling terminal, which an
        # agent's pipe or background loop cannot type (app/daemon/person.py, SECURITY.md).
        try:
            ask_on_terminal(f"{args.control} — let agents act again?")
        except TerminalError as err:
            print(f"deskgate: {args.control} needs you at a terminal: {err}. Run `deskgate {args.control}` "
                  "yourself in a terminal, or use the tray's menu.", file=sys.stderr)
            return 2
        person = "tty"
    try:
        reply = _send_control(args, person)
    except UntrustedServer as err:
        print("deskgate: what listens at the socket is not your deskgate; nothing was sent", file=sys.stderr)
        return fail(err, args)
    except SupervisorUnavailable as err:
        if args.control == "kill":
            # Nothing to stop: no deskgate means no agent can act through it. Still say so loudly.
            print("deskgate: no deskgate is running; nothing can act through it", file=sys.stderr)
        return fail(err, args)
    except DeskgateError as err:
        return fail(err, args)
    emit(reply, args, _format_control(args.control, reply))
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    add_json_flag(p)
    p.add_argument("--socket", metavar="PATH", help="the deskgate socket (default: the per-user runtime dir)")
    p.add_argument("--timeout", type=float, default=120.0, metavar="S",
                   help="seconds to wait for the reply (default: 120, longer than a confirmation)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("act", help="send one action to the running deskgate (hello, act, bye)",
                       description="Send one action to the running deskgate and print its reply. Exit status: "
                                   "0 executed/allowed, 1 denied, 2 error. Each call is a session of its own, so "
                                   "the policy's per-agent session limits (limits.sessions_per_hour) count every "
                                   "call; for many actions keep one session open with app.agent.client.Client.")
    p.add_argument("action", help="the action as a JSON object, or - to read it from stdin")
    p.add_argument("--agent", default="deskgate-cli", help="the agent name for the session (default: %(default)s)")
    p.add_argument("--no-execute", action="store_true",
                   help="ask for the decision only; the caller performs an allowed action itself")
    _common(p)
    p.set_defaults(func=cmd_act)

    for command, text in _CONTROL_HELP.items():
        c = sub.add_parser(command, help=text, description=text[:1].upper() + text[1:] + ".")
        if command == "revoke":
            c.add_argument("grant", metavar="ID", help="the grant id (see `deskgate grants`)")
        if command in ("kill", "pause", "resume", "unpause"):
            c.add_argument("--reason", help="recorded in the audit log")
        _common(c)
        c.set_defaults(func=cmd_control, control=command)
