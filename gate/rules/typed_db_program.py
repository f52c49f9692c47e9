"""A statement typed into a database console that makes the server run a program of its machine.

    block.typed.database-runs-program   COPY ... TO/FROM PROGRAM, xp_cmdshell, sys_exec, an untrusted-language
                                        function and the like, typed into a database console (a client's
                                        window, a `psql` prompt, a query editor): the same statement given to a
                                        database client in a shell blocks (`block.shell.database-runs-program`)
"""

from __future__ import annotations

from gate.lines import judged_text
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.shell_vocab import _SQL_RUNS_PROGRAM
from gate.typed import Destination, destination

TYPE = ("type",)
_LIMIT = 20_000  # a statement longer than this is judged by its start


@rule("block.typed.database-runs-program", "A statement typed into a database console that runs a program",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.9)
def database_runs_program(ctx: Context) -> CheckResult:
    """The database server runs the command as its own account, on its own machine: a way from a query into
    the server's shell. COPY to or from a file, and a SELECT, do not."""
    if ctx.derived(destination) is not Destination.DATABASE_CONSOLE:
        return None
    # (the line so far too: `COPY (SELECT 1) TO ` and `PROGRAM '...'` typed as two actions are one statement)
    line = judged_text(ctx.observation.line, ctx.action.text[:_LIMIT])  # type: ignore[attr-defined]
    text = " ".join(line[:_LIMIT].lower().split())
    m = _SQL_RUNS_PROGRAM.search(text)
    if m is None:
        return None
    return f"typed into {Destination.DATABASE_CONSOLE.value}, it runs a program on the server: {m.group(0)[:60]!r}"


RULES: tuple[Rule, ...] = (database_runs_program,)
