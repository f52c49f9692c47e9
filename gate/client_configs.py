"""A data client's own options file in the home, written with plain values (resources/client_configs.toml).

bq's `.bigqueryrc` holds its default flags, cqlsh's `cqlshrc` its host, port and display options: the
client reads them as values at start and runs nothing from them. Writing one is setting the tool up, not a change
outside the work area worth a question. Only files whose format cannot name a command, a pager, a library or a
script are listed (psql's, sqlite's and duckdb's start-up files run their own commands; mongosh's is JavaScript),
and only the question about where the file lives goes: a password or token in the content still asks
(`confirm.files.secret-content`), and the file may not lead anywhere else through a symlink.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import TYPE_CHECKING

from gate import regex_store
from gate.paths import file_facts, is_within

if TYPE_CHECKING:
    from gate.engine import Context

__all__ = ["PATHS", "plain_client_config"]

_BOOK = regex_store.toml(resources.files("resources").joinpath("client_configs.toml").read_text("utf-8"))
# home-relative paths, "/" separators
PATHS = re.compile("|".join(f"(?:{p})" for p in _BOOK["settings_files"]["paths"]), re.I)
# a line that would hand the client something to run or load, whatever the format promises
_RUNS = re.compile("|".join(f"(?:{p})" for p in _BOOK["settings_files"]["not_plain"]), re.I | re.M)


def plain_client_config(ctx: Context) -> bool:
    """A `file_write` of a listed client options file in the person's home, with no line that runs or loads
    anything."""
    if ctx.type != "file_write":
        return False
    facts = ctx.derived(file_facts)
    if facts is None or facts.symlink_escape:
        return False
    home = ctx.compiled.home
    for path in (facts.lexical, facts.real):
        if not is_within(path, home) or path == home:
            return False
        if not PATHS.fullmatch(path[len(home):].lstrip("/").replace("\\", "/")):
            return False
    content = ctx.action.content if isinstance(getattr(ctx.action, "content", None), str) else ""
    return not _RUNS.search(content)
