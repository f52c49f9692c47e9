"""What typed into a database console runs a program: a statement that makes the server run one, or the client's
own escape to the shell of the machine it runs on.

    block.typed.database-runs-program     COPY ... TO/FROM PROGRAM, xp_cmdshell, sys_exec, an untrusted-language
                                          function and the like, typed into a database console (a client's
                                          window, a `psql` prompt, a query editor): the same statement given to
                                          a database client in a shell blocks (`block.shell.database-runs-program`)
    block.typed.database-client-shell     a client's own shell escape (psql's and mysql's `\\!`, mysql's
                                          `system`, sqlite3's `.shell`/`.system`) followed by a command the shell
                                          rules block
    confirm.typed.database-client-shell   ... followed by a command the shell rules ask about
"""

from __future__ import annotations

import re

from gate.lines import judged_text
from gate.model import Hit, Risk, Shell
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.shell_vocab import _SQL_RUNS_PROGRAM
from gate.typed import Destination, destination

TYPE = ("type",)
_LIMIT = 20_000  # a statement longer than this is judged by its start
# a database client's escape to the shell of the machine it runs on: what follows is a shell command
_CLIENT_SHELL = re.compile(r"^\s*(?:\\!|system\s|\.(?:shell|system)\s)\s*(.+)$", re.MULTILINE | re.IGNORECASE)


def _line(ctx: Context) -> str:
    """The console line this text is on, with what it ends (`COPY (SELECT 1) TO ` and `PROGRAM '...'` typed as
    two actions are one statement)."""
    return judged_text(ctx.observation.line, ctx.action.text[:_LIMIT])[:_LIMIT]  # type: ignore[attr-defined]


@rule("block.typed.database-runs-program", "A statement typed into a database console that runs a program",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.9)
def database_runs_program(ctx: Context) -> CheckResult:
    """The database server runs the command as its own account, on its own machine: a way from a query into
    the server's shell. COPY to or from a file, and a SELECT, do not."""
    if ctx.derived(destination) is not Destination.DATABASE_CONSOLE:
        return None
    text = " ".join(ctx.derived(_line).lower().split())
    m = _SQL_RUNS_PROGRAM.search(text)
    if m is None:
        return None
    return f"typed into {Destination.DATABASE_CONSOLE.value}, it runs a program on the server: {m.group(0)[:60]!r}"


def _client_shell(ctx: Context) -> tuple[Hit | None, Hit | None]:
    """(block hit, confirm hit) of the shell rules over the commands a client's shell escape runs."""
    if ctx.derived(destination) is not Destination.DATABASE_CONSOLE:
        return None, None
    commands = [m.group(1) for m in _CLIENT_SHELL.finditer(ctx.derived(_line))]
    if not commands:
        return None, None
    from gate.rules.typed import judge_as  # (the typed rules import this module's neighbours)

    return judge_as(Shell(command="\n".join(commands)), ctx)


@rule("block.typed.database-client-shell", "A database client's shell escape that runs a command the shell rules "
      "block", risk=Risk.CRITICAL, types=TYPE, confidence=0.9)
def database_client_shell_block(ctx: Context) -> CheckResult:
    """psql's `\\!`, mysql's `\\!`/`system` and sqlite3's `.shell`/`.system` run a command in the shell of the
    machine the client runs on: it is judged as that shell command."""
    block, _ = ctx.derived(_client_shell)
    return None if block is None else f"the database client's shell escape runs: {block.reason}"


@rule("confirm.typed.database-client-shell", "A database client's shell escape that runs a command the shell "
      "rules ask about", risk=Risk.HIGH, types=TYPE, confidence=0.8)
def database_client_shell_ask(ctx: Context) -> CheckResult:
    """The same escape with a command the shell rules ask about (a delete, a push, an install)."""
    block, ask = ctx.derived(_client_shell)
    return None if block is not None or ask is None else f"the database client's shell escape runs: {ask.reason}"


RULES: tuple[Rule, ...] = (database_runs_program, database_client_shell_block, database_client_shell_ask)
