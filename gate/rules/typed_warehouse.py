"""What a statement typed into a database console does beyond rows: data copied out, protections switched off,
access handed out, the server's own settings and sessions changed.

Warehouses and analytic engines (Snowflake, BigQuery, Redshift, Trino, Athena, Hive, Spark SQL) move whole
tables with one statement, and their accounts hold the switches that keep that data in: the same effect in
any console's dialect is judged alike.

    block.typed.database-data-out         a table unloaded to storage named by its address with the keys typed
                                          inline (`COPY INTO 's3://...' ... CREDENTIALS = (...)`), or to a bucket
                                          named for taken data: the copy lands where the account's controls
                                          do not reach
    block.typed.database-security-off     the account's or server's protections switched off: a network policy
                                          removed, unloads to inline addresses allowed again, a user let past
                                          its second sign-in factor, the query log pointed at a web page
    block.typed.database-open-grant       rights given to everyone (`TO PUBLIC`, a database's ownership to
                                          PUBLIC) or every right on every database to an account any host may
                                          log in as (`'x'@'%'` with `*.*`)
    confirm.typed.database-data-out       a table unloaded or exported to a stage, a bucket, a share or a file
                                          (`COPY INTO @stage`, `UNLOAD`, `EXPORT DATA`, `COPY t TO '/tmp/x.csv'`,
                                          `CREATE TABLE ... external_location`, `GET @stage file://`)
    confirm.typed.database-admin          roles, shares, account settings, server settings, running queries and
                                          password hashes: `GRANT ROLE`, `GRANT OWNERSHIP`, `ALTER ACCOUNT`,
                                          `SET GLOBAL`, `ALTER SYSTEM`, MongoDB's `createUser`, a query killed,
                                          a file bulk-loaded into a table, `authentication_string` read
    block.typed.database-ransom-note      a note demanding payment for the store's data written into it
    confirm.typed.search-console-delete   a search store's console (Kibana's or OpenSearch's Dev Tools) told to
                                          DELETE an index; every index (`_all`, a wildcard) blocks as
                                          `block.typed.search-console-wipe`

A SELECT, a SHOW, a DESCRIBE and an ordinary INSERT pass.
"""

from __future__ import annotations

import re

from gate.dataout import hostile_host, loot_named
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.shell_datastores import _HELD_DATA, _WRITES
from gate.rules.shell_ransom import _DEMAND
from gate.rules.shell_vocab import _SQL_PLANTS
from gate.typed import Destination, destination

TYPE = ("type",)
_LIMIT = 20_000  # a statement longer than this is judged by its start

# storage named by its address: an object store, a data lake, a web address
_OUTSIDE = re.compile(r"(?:s3a?|s3n|gs|gcs|azure|wasbs?|abfss?|adl|oss|cos|r2|https?|hdfs)://")
# a bucket or folder named for dropped or taken data
_DROP_NAMED = re.compile(r"(?:^|[/.-])(?:drop|loot|exfil|dump|stolen|leak)(?:[/.-]|\d|$)")
# a bare file name: written in the client's working folder
_LOCAL_FILE = re.compile(r"[\w.-]+")
# a statement that copies a table's rows out to a place: the unload verbs of each dialect, with where they write
_UNLOAD = re.compile(
    r"\bcopy\s+into\s+(?P<to>'[^']*'|\"[^\"]*\"|@[\w.$/%~-]+)|"          # Snowflake, Databricks: COPY INTO <location>
    r"\bunload\s*\(.{0,2000}?\)\s*to\s+(?P<to2>'[^']*')|"                  # Redshift: UNLOAD ('select') TO 's3://'
    r"\bexport\s+data\b.{0,300}?\buri\s*=\s*(?P<to3>'[^']*'|\"[^\"]*\")|"  # BigQuery: EXPORT DATA OPTIONS(uri=...)
    r"\bexternal_location\s*=\s*(?P<to4>'[^']*')|"                       # Trino, Athena: a table written to a bucket
    r"\binsert\s+overwrite\s+(?:local\s+)?directory\s+(?P<to5>'[^']*')|"  # Hive, Spark SQL
    r"\binto\s+outfile\s+(?:s3\s+)?(?P<to6>'[^']*'|\"[^\"]*\")|"           # MySQL, Aurora
    r"(?<!\\)\bcopy\s+(?:\([^;]{0,2000}?\)|[\w.\"]+(?:\s*\([^)]*\))?)\s+to\s+(?P<to7>'[^']*'|stdout\b)|"  # PostgreSQL
    r"\bget\s+(?P<to8>@[\w.$/%~-]+)\s+'?file://",                          # a stage's files fetched to this machine
    re.S)
_INLINE_KEYS = re.compile(r"\b(?:credentials\s*=|aws_key_id|aws_secret_key|aws_token|azure_sas_token|"
                          r"access_key_id|secret_access_key|aws_access_key_id|iam_role\s+'arn:aws:iam::\d+)", re.S)
# data handed to another account: a share made or filled, accounts added to it, a listing published
_SHARE = re.compile(r"\bcreate\s+(?:or\s+replace\s+)?share\b|\bto\s+share\b|\balter\s+share\b[^;]*\badd\s+accounts?\b|"
                    r"\bcreate\s+(?:or\s+replace\s+)?(?:data\s+exchange\s+)?listing\b", re.S)

# an account's or a server's protection switched off
_SECURITY_OFF = re.compile(
    r"\balter\s+(?:account|user\s+\S+)\s+unset\s+[^;]*\bnetwork_policy\b|"
    r"\bprevent_unload_to_(?:inline_url|internal_stages)\s*=\s*false\b|"
    r"\brequire_storage_integration_for_stage_(?:creation|operation)\s*=\s*false\b|"
    r"\bmins_to_bypass_mfa\s*=\s*[1-9]|\bdisable_mfa\s*=\s*true\b|"
    r"\bset\s+global\s+(?:general_log_file|slow_query_log_file)\s*=\s*'[^']*(?:/var/www/|/srv/|htdocs|wwwroot|"
    r"/cron|authorized_keys|\.(?:php\d?|phtml|jsp|aspx?|cgi|sh))|"
    r"\bset\s+global\s+require_secure_transport\s*=\s*(?:off|0|false)\b|"
    r"\balter\s+system\s+set\s+ssl\s*=\s*'?off\b|"
    r"\bset\s+global\s+(?:validate_password\w*|default_password_lifetime)\s*=\s*(?:off|0)\b",
    re.S)
# rights to everyone, or every right on every database to an account any host may log in as
_OPEN_GRANT = re.compile(
    r"\bgrant\s+[^;]*\bto\s+(?:role\s+)?public\b|"
    r"\bgrant\s+(?:all(?:\s+privileges)?)\s+on\s+\*\.\*\s+to\s+[^;]*@\s*['\"`]%['\"`]", re.S)
# the rest of what changes access, settings or sessions
_ADMIN = re.compile(
    r"\bgrant\s+(?:role|database\s+role|application\s+role|ownership|imported\s+privileges|[\w ,]+?\s+on\s+"
    r"(?:account|warehouse|integration))\b|"
    r"\balter\s+(?:account|integration|network\s+policy|security\s+integration|storage\s+integration)\b|"
    r"\bcreate\s+(?:or\s+replace\s+)?(?:network\s+policy|security\s+integration|storage\s+integration|stage)\b|"
    r"\bset\s+(?:global|persist)\s+\w|\balter\s+system\b|"
    r"\b(?:createuser|updateuser|grantrolestouser|dropuser|dropallusersfromdatabase|createrole|"
    r"grantprivilegestorole)\s*\(|"
    r"\bkill_query\b|\bkill\s+(?:query\s+)?(?:connection\s+)?['\d]|\bpg_terminate_backend\s*\(|"
    r"(?<!\\)\bcopy\s+[\w.\"]+(?:\s*\([^)]*\))?\s+from\s+'|\bload\s+data\s+(?:local\s+)?infile\b|"
    r"\bauthentication_string\b|\bpg_shadow\b|\bpg_authid\b|\bsql_logins\b|\bpassword_hash\b.{0,80}\bfrom\b", re.S)
# a search store's console request: method, then the path
_SEARCH_CONSOLE = re.compile(r"\b(?:dev ?tools|console)\b")
_SEARCH_APP = re.compile(r"\b(?:kibana|opensearch|elastic(?:search)?)\b")
_DEVTOOLS_URL = re.compile(r"/app/(?:dev_tools|kibana#/dev_tools)", re.IGNORECASE)
_REST_DELETE = re.compile(r"^\s*delete\s+/?(?P<path>[^\s?]+)", re.IGNORECASE | re.MULTILINE)


def _statement(ctx: Context) -> str:
    """The typed text as a database console reads it (lower case, one space), or '' elsewhere. Once per context."""
    if ctx.derived(destination) is not Destination.DATABASE_CONSOLE:
        return ""
    return " ".join(ctx.action.text[:_LIMIT].lower().split())  # type: ignore[attr-defined]


def _unload(text: str) -> tuple[str, str] | None:
    """(the statement's start, where it writes) of the first unload in `text`, or None."""
    m = _UNLOAD.search(text)
    if m is None:
        return None
    to = next(g for g in m.groups() if g is not None).strip("'\"")
    if m.group("to6") is None and _LOCAL_FILE.fullmatch(to) and m.group("to") is None:
        return None  # a file of the working folder (cqlsh's COPY TO writes it beside the client): a local copy
    return m.group(0)[:60], to


def _unload_out(text: str) -> str | None:
    """Where an unload writes when that place is outside every control of the account: an address given
    with its keys typed inline, or a bucket named for taken data or for an attacker."""
    found = _unload(text)
    if found is None:
        return None
    to = found[1]
    if not _OUTSIDE.match(to):
        return None
    if _INLINE_KEYS.search(text) or loot_named(to) or hostile_host(to) or \
            _DROP_NAMED.search(to.split("://", 1)[1][:120]):
        return to
    return None


@rule("block.typed.database-data-out", "A statement typed into a database console that copies a table out of reach",
      risk=Risk.CRITICAL, types=TYPE, redact=("text",), confidence=0.85)
def database_data_out(ctx: Context) -> CheckResult:
    """An unload (`COPY INTO`, `UNLOAD`, `EXPORT DATA`, a table created at an `external_location`, `INSERT
    OVERWRITE DIRECTORY`) to storage named by its address, with the storage's keys typed into the statement or
    to a bucket named for dropped or taken data: the copy goes where none of the account's integrations, network
    rules or audit reach, which is how warehouses are emptied with stolen logins. Unloading to a stage of the
    account asks (`confirm.typed.database-data-out`)."""
    text = ctx.derived(_statement)
    if not text:
        return None
    to = _unload_out(text)
    if to is None:
        return None
    return f"typed into {Destination.DATABASE_CONSOLE.value}, it copies data out to {to[:80]!r}"


@rule("confirm.typed.database-data-out", "A statement typed into a database console that exports a table",
      risk=Risk.HIGH, types=TYPE, redact=("text",), confidence=0.8)
def database_export(ctx: Context) -> CheckResult:
    """A table unloaded or exported in bulk (to a stage, a bucket, a file of the server or of this machine), a
    stage's files fetched here, or data handed to another account through a share: a person decides where a
    whole table goes. A SELECT shown in the console passes."""
    text = ctx.derived(_statement)
    if not text or _unload_out(text) is not None:
        return None
    if _SQL_PLANTS.search(text):
        return None  # block.typed.database-security-off says why
    found = _unload(text)
    if found is not None:
        return f"typed into {Destination.DATABASE_CONSOLE.value}, it exports data to {found[1][:80]!r}"
    if m := _SHARE.search(text):
        return f"typed into {Destination.DATABASE_CONSOLE.value}, it shares data with another account: {m.group(0)!r}"
    return None


@rule("block.typed.database-security-off", "A statement typed into a database console that turns a protection off",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def database_security_off(ctx: Context) -> CheckResult:
    """An account's network policy removed, unloads to any address allowed again, a user let past two-step
    verification, TLS no longer required, or the server made to write a page into a web root (the query log or
    `INTO OUTFILE` pointed at a `.php` file): what is done to open a database up before taking its data or the
    machine. Setting a network policy asks (`confirm.typed.database-admin`)."""
    text = ctx.derived(_statement)
    if not text:
        return None
    m = _SECURITY_OFF.search(text) or _SQL_PLANTS.search(text)
    if m is None:
        return None
    return f"typed into {Destination.DATABASE_CONSOLE.value}, it switches a protection off: {m.group(0)[:80]!r}"


@rule("block.typed.database-open-grant", "A statement typed into a database console that gives rights to everyone",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def database_open_grant(ctx: Context) -> CheckResult:
    """Rights given to PUBLIC (every user and role of the account), or every right on every database to an
    account that may log in from any host (`'name'@'%'` on `*.*`): a way in for anyone, or a back door. A grant
    to one role asks (`confirm.typed.database-change`)."""
    text = ctx.derived(_statement)
    if not text:
        return None
    m = _OPEN_GRANT.search(text)
    if m is None:
        return None
    return f"typed into {Destination.DATABASE_CONSOLE.value}, it gives rights to anyone: {m.group(0)[:80]!r}"


@rule("confirm.typed.database-admin", "A statement typed into a database console that changes roles, settings or "
      "sessions", risk=Risk.HIGH, types=TYPE, confidence=0.8)
def database_admin(ctx: Context) -> CheckResult:
    """A role or ownership granted, an account's, warehouse's or server's settings changed (`ALTER ACCOUNT`, `SET
    GLOBAL`, `ALTER SYSTEM`), a document store's user made or changed (`createUser`, `grantRolesToUser`), a
    running query or session killed, a file bulk-loaded into a table, or the stored password hashes read
    (`authentication_string`, `pg_shadow`): a person decides. `SHOW GRANTS` and `SELECT CURRENT_ROLE()` pass."""
    text = ctx.derived(_statement)
    if not text or _SECURITY_OFF.search(text) or _OPEN_GRANT.search(text) or _SQL_PLANTS.search(text):
        return None
    m = _ADMIN.search(text)
    if m is None:
        return None
    return (f"typed into {Destination.DATABASE_CONSOLE.value}, it changes access, settings or sessions: "
            f"{m.group(0)[:60]!r}")


@rule("block.typed.database-ransom-note", "A ransom note typed into a database console",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def database_ransom_note(ctx: Context) -> CheckResult:
    """A note written into a store (an insert, a document, a key) that says its data was taken, backed up or
    deleted and asks for a coin, a price or a deadline: what the bots that wipe open databases leave, as
    `block.shell.ransom-note` for the same note given to a client in a shell."""
    text = ctx.derived(_statement)
    if len(text) < 24 or not _WRITES.search(text):
        return None
    held = _HELD_DATA.search(text)
    if held is None or not _DEMAND.search(text):
        return None
    return f"typed into {Destination.DATABASE_CONSOLE.value}, it writes a ransom note: {held.group(0)[:60]!r}"


def _search_delete(ctx: Context) -> str | None:
    """The index path a DELETE typed into a search store's console names, or None elsewhere."""
    text = ctx.action.text[:_LIMIT]  # type: ignore[attr-defined]
    m = _REST_DELETE.search(text)
    if m is None:
        return None
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    target = ctx.action.target
    places = " ".join(p for p in (obs.app, obs.window_title, target.label if target else None,
                                  target.name if target else None) if p).lower()
    if _DEVTOOLS_URL.search(url) or (_SEARCH_APP.search(places) and _SEARCH_CONSOLE.search(places)):
        return m.group("path")
    return None


def _whole(path: str) -> bool:
    """The path names every index (`_all`, `*`, a wildcard) or a whole index, not a document or a setting."""
    segments = [s for s in path.split("/") if s]
    return (len(segments) == 1 and not segments[0].startswith("_")) or path.strip("/") in ("_all", "*")


@rule("block.typed.search-console-wipe", "Every index deleted from a search store's console",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def search_console_wipe(ctx: Context) -> CheckResult:
    """`DELETE /_all`, `DELETE /*` or `DELETE /logs-*` typed into Kibana's or OpenSearch's request console
    drops every index the pattern names, as the same request sent by curl does (`block.shell.database-destruction`)."""
    path = _search_delete(ctx)
    if path is None or not (path.strip("/") in ("_all", "*") or ("*" in path and _whole(path))):
        return None
    return f"typed into a search store's console, it deletes every index {path[:60]!r} names"


@rule("confirm.typed.search-console-delete", "An index or documents deleted from a search store's console",
      risk=Risk.HIGH, types=TYPE, confidence=0.8)
def search_console_delete(ctx: Context) -> CheckResult:
    """`DELETE /orders` (an index) or `DELETE /orders/_doc/1` typed into Kibana's or OpenSearch's Dev Tools
    console: the store keeps no bin to restore it from; a person decides. `GET /_cat/indices` passes."""
    path = _search_delete(ctx)
    if path is None or path.strip("/") in ("_all", "*") or ("*" in path and _whole(path)):
        return None
    return f"typed into a search store's console, it deletes {path[:60]!r}"


RULES: tuple[Rule, ...] = (database_data_out, database_export, database_security_off, database_open_grant,
                           database_admin, database_ransom_note, search_console_wipe, search_console_delete)
