"""Shell checks: a data store driven through its REST API, a ransom note written into a table, a dump sent away.

Part of the shell Detector (gate/rules/shell.py), called per simple command that `wanted` picks. What a store's
own client does by its verbs (object stores made public, shared, emptied; keys and users made; lifecycle rules,
replication) is data, in resources/programs.toml `# ---- data stores and object storage driven from a shell ----`;
here is what a verb cannot say:

- a search, document or analytic store's REST API (Elasticsearch, OpenSearch, CouchDB, Solr, Qdrant, Meilisearch,
  InfluxDB, ClickHouse: its port or its `_`-named endpoints) told to DELETE a whole index, collection, bucket or
  database asks (`confirm.shell.destructive`); every index (`_all`, a wildcard), a whole database of a machine
  reached by its bare address (what the bots that wipe open databases do), or a DROP or TRUNCATE statement sent
  over HTTP blocks, as `DROP TABLE` given to a client does (`block.shell.database-destruction`); documents,
  snapshots, users or settings deleted ask; a user or role made asks, and given the administrator's role blocks
  (`block.shell.credential-tamper`); a database replicated to another machine asks (`confirm.shell.network`);
- the same API told to switch a safety setting off (`action.destructive_requires_name: false`, security or
  `require_valid_user` off, Redis' `protected-mode no`) blocks (`block.shell.defense-evasion`): it is what is
  done before wiping or opening a store;
- a note demanding payment for a store's data (its data said to be taken, backed up or deleted, and a coin, a
  price or a deadline) written into it by a statement or a document blocks (`block.shell.ransom-note`): it is what
  the bots that wipe open databases leave behind;
- a statement that makes a database superuser (`ALTER ROLE app SUPERUSER`, MongoDB's `root` role), grants
  everything to everyone (`GRANT ALL ... TO PUBLIC`, MySQL's `*.*` to any host) or takes the owner's rights away
  blocks (`block.shell.credential-tamper`); any other user, role or grant made or changed asks;
- a database's whole dump (pg_dump, mysqldump, mongodump's archive, sqlite3's `.dump`) piped to a network client
  bound for a bare address or a paste, drop or file-sharing host blocks (`block.shell.exfiltration`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import unquote_plus, urlsplit

from gate.catalogue import risky_destination
from gate.model import Risk
from gate.rules.shell_ransom import _DEMAND
from gate.rules.shell_vocab import _DB_CLIENTS
from gate.shell import Command, Finding, ShellAnalysis

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["judge", "wanted"]

Add = Callable[[Finding], None]

_HTTP_CLIENTS = frozenset({"curl", "curlie", "wget", "wget2", "http", "https", "xh", "httpie"})
_NET_CLIENTS = _HTTP_CLIENTS | {"nc", "ncat", "netcat", "socat", "telnet"}
# programs that write a whole database to their standard output
_DUMPERS = frozenset({"pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mongodump", "sqlite3", "sqlite",
                      "duckdb", "redis-cli"})

# the ports of search, document, time-series and analytic stores' HTTP APIs (Elasticsearch/OpenSearch, CouchDB,
# Solr, ArangoDB, Neo4j, Qdrant, Meilisearch, Typesense, InfluxDB, ClickHouse, CrateDB), and their endpoints, which
# start with `_` (`_cluster`, `_doc`, `_all`)
_STORE_PORTS = frozenset({9200, 9201, 9243, 5984, 6984, 8983, 8529, 7474, 6333, 7700, 8108, 8086, 8123, 4200})
_STORE_ENDPOINT = re.compile(r"/_(?:cluster|doc|all|settings|snapshot|security|index_template|ilm|cat|nodes|"
                             r"config|node|bulk|update|mapping|aliases|users|replicator|api|solr)\b")
_STORE_HOST = re.compile(r"^(?:es|elastic|elasticsearch|opensearch|os|couch|couchdb|solr|search)"
                         r"(?:\d+|-[\w-]+)?(?:\.|$)")
_HOST_PORT = re.compile(r"^(?:[\w.-]+|\[[0-9a-f:]+\]):\d{2,5}(?:/|$)", re.I)
_BARE_IP = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$|^[0-9a-f:]*:[0-9a-f:]+$", re.I)
_LOOPBACK = re.compile(r"^(?:127\.|::1$|0\.0\.0\.0$)")
# what a store's API calls a whole container of records (`DELETE /collections/x`, `/api/v2/buckets/ID`)
_CONTAINERS = frozenset({"collections", "collection", "indexes", "indices", "databases", "database", "buckets",
                         "keyspaces", "cores"})
# a statement that drops or empties a database, table or series, in a URL's query or a request's body
_DROPS = re.compile(r"\b(?:drop\s+(?:database|table|schema|measurement|series|retention\s+policy|keyspace|"
                    r"dictionary)|truncate\s+(?:table\s+)?[\w.`\"]+|delete\s+from\s+[\w.`\"]+\s*(?:;|$|['\"&]))",
                    re.I)
# endpoints whose DELETE only frees a search's own context, not data
_CLEANUPS = frozenset({"_search", "scroll", "_pit", "_async_search", "_sql", "close"})
# a store's users and roles (Elasticsearch, OpenSearch's security plugin, CouchDB's users and admins), the roles that
# hold everything, and replication (CouchDB's `_replicate`, Elasticsearch's cross-cluster `_ccr`)
_USERS = re.compile(r"/_(?:security/(?:user|role_mapping|role|api_key)|(?:opendistro|plugins)/_security/api/"
                    r"(?:internalusers|rolesmapping|roles)|users/org\.couchdb\.user:|node/[^/]+/_config/admins|"
                    r"config/admins)")
_ADMIN_ROLE = re.compile(r"\b(?:superuser|all_access|_admin|admin|security_manager|manage_security)\b", re.I)
_ADMINS_PATH = re.compile(r"/_config/admins/")
_REPLICATE = re.compile(r"/_(?:replicate|replicator|ccr|reindex)\b")
_URL_IN_BODY = re.compile(r"https?://[^\s\"',}]+")
# a safety setting switched off: its name, then false/no/none/off (OpenSearch's: disabled, true)
_SAFETY_OFF = re.compile(
    r"(?:destructive_requires_name|require_valid_user|xpack\.security\.enabled|protected-mode|security\.enabled)"
    r"\W*\s*[:=]?\s*\W*(?:false|no|none|off)\b|plugins\.security\.disabled\W*\s*[:=]?\s*\W*true\b", re.I)
# a note that the store's data was taken or wiped, to be had back for a price
_HELD_DATA = re.compile(
    r"\b(?:your|all|the)\s+(?:\w+\s+){0,2}(?:data|database|databases|db|records|tables|collections|indices|"
    r"indexes|documents)\s+(?:is|are|has\s+been|have\s+been|was|were)\s+(?:\w+\s+){0,2}(?:backed\s+up|"
    r"downloaded|exported|stolen|copied|taken|encrypted|deleted|dumped|leaked|removed|wiped)|"
    r"\bto\s+(?:recover|restore|get\s+back|retrieve)\s+(?:your|the|all)\s+(?:\w+\s+)?(?:data|database|db|records|"
    r"tables)", re.I)
_WRITES = re.compile(r"\b(?:insert|create\s+table|update|set|hset|put|post|insertone|insertmany|save|upsert)\b|"
                     r"(?:^|\s)-(?:x|-request)\s*(?:put|post)\b|(?:^|\s)(?:put|post)(?:\s|$)", re.I)
# host names that say they take anonymous drops (`paste.`, `-drop.`, `transfer.`); known sites are in risky_destination
_SHARING_HOST = re.compile(r"(?:^|[.-])(?:paste|pastebin|drop|transfer|exfil|leak|loot)(?:[.-]|$)", re.I)
_LOCAL_HOST = re.compile(r"^(?:localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|"
                         r"172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+|[\w-]+|[\w.-]+\.(?:internal|local|lan|corp|home|svc|"
                         r"cluster\.local))$", re.I)


def wanted(cmd: Command) -> bool:
    """The first test of `judge`, without the call: a network client, or a database client."""
    return cmd.name in _NET_CLIENTS or cmd.name in _DB_CLIENTS


def _method(cmd: Command) -> str:
    args = cmd.argv[1:]
    method = ""
    for k, a in enumerate(args):
        if a in ("-X", "--request", "--method") and k + 1 < len(args):
            method = args[k + 1]
        elif a.startswith(("--request=", "--method=")):
            method = a.split("=", 1)[1]
        elif a.startswith("-X") and len(a) > 2:
            method = a[2:]
    if cmd.name in ("http", "https", "xh", "httpie", "curlie") and args and args[0].isalpha() and \
            args[0].upper() in ("DELETE", "PUT", "POST", "PATCH"):
        method = args[0]
    return method.upper()


def _store_urls(cmd: Command) -> list[tuple[str, str]]:
    """(host, path) of each URL of the command that reaches a search or document store's API."""
    out = []
    for a in cmd.argv[1:]:
        text = a if "://" in a else ("http://" + a if _HOST_PORT.match(a) else "")
        if not text:
            continue
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError:
            continue
        host = (parts.hostname or "").lower()
        path = parts.path or "/"
        if (port in _STORE_PORTS or _STORE_ENDPOINT.search(path) or
                (_STORE_HOST.match(host) and port is not None)):
            out.append((host, path))
    return out


# a snapshot repository in storage outside the cluster (its body's type), a snapshot restored, cluster settings
_OUTSIDE_REPO = re.compile(r"[\"']type[\"']\s*:\s*[\"'](?:s3|gcs|azure|url|hdfs|source)[\"']", re.I)
# cluster settings that move or stop shards, block writes, or join the cluster to another one
_CLUSTER_KEYS = re.compile(r"cluster\.routing\.|cluster\.blocks\.|cluster\.remote\.|\"routing\"|\"blocks\"|\"remote\"",
                           re.I)


def _cluster_change(cmd: Command, method: str, urls: list[tuple[str, str]], body: str, where: str, add: Add) -> bool:
    """A search store told to register a snapshot repository outside it (every index can then be copied there), to
    restore a snapshot over its indices, or to move or stop its shards, block writes or join another cluster through
    its cluster-wide settings: each asks. True when one was found."""
    for _, path in urls:
        segments = [s for s in path.lower().split("/") if s]
        if len(segments) == 2 and segments[0] == "_snapshot" and _OUTSIDE_REPO.search(body):
            add(Finding("confirm.shell.network", Risk.HIGH, f"{cmd.name} registers a snapshot repository in outside "
                        f"storage ({segments[1][:40]}){where}: every index can be copied there", cmd.span))
            return True
        if segments[:1] == ["_snapshot"] and segments[-1] == "_restore" and method == "POST":
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} restores a snapshot over the store's "
                        f"indices{where}", cmd.span))
            return True
        if segments == ["_cluster", "settings"] and method == "PUT" and _CLUSTER_KEYS.search(body):
            add(Finding("confirm.shell.remote-mutation", Risk.HIGH, f"{cmd.name} changes the cluster-wide settings "
                        f"of a search store{where}", cmd.span))
            return True
    return False


def _rest(cmd: Command, where: str, add: Add) -> None:
    urls = _store_urls(cmd)
    if not urls:
        return
    method = _method(cmd)
    body = " ".join(cmd.argv[1:])
    said = _DROPS.search(unquote_plus(body))
    if said is not None:
        # a statement sent over the store's HTTP interface (ClickHouse's `?query=`, InfluxDB's `q=`, CrateDB's
        # `_sql`): judged as the same statement given to its client
        add(Finding("block.shell.database-destruction", Risk.CRITICAL,
                    f"{cmd.name} sends {said.group(0)[:50]!r} to a data store's HTTP interface{where}", cmd.span))
        return
    off = _SAFETY_OFF.search(body) if method in ("PUT", "POST", "PATCH") else None
    if off is not None:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} switches a data store's safety setting off ({off.group(0)[:60]}){where}: what is "
                    "done before wiping or opening the store", cmd.span))
        return
    if method in ("PUT", "POST", "PATCH") and any(_USERS.search(path) for _, path in urls):
        # (the role asked for is in the request's body; a URL's own `admin:password@` is the caller's login)
        admin = _ADMIN_ROLE.search(" ".join(a for a in cmd.argv[1:] if "://" not in a and not _HOST_PORT.match(a)))
        if admin is None:
            admin = next((m for _, path in urls if (m := _ADMINS_PATH.search(path))), None)
        add(Finding("block.shell.credential-tamper" if admin else "confirm.shell.privilege-escalation",
                    Risk.CRITICAL if admin else Risk.HIGH,
                    f"{cmd.name} {method} adds or changes a data store's user or role"
                    f"{' with its administrator role (' + admin.group(0)[:40] + ')' if admin else ''}{where}",
                    cmd.span))
        return
    if method in ("PUT", "POST") and any(_REPLICATE.search(path) for _, path in urls):
        away = next((h for h in (_host(w) for w in _URL_IN_BODY.findall(body)) if h and not _LOCAL_HOST.match(h)),
                    None)
        if away:
            add(Finding("confirm.shell.network", Risk.HIGH,
                        f"{cmd.name} replicates a database to {away[:60]}{where}: its documents are copied there",
                        cmd.span))
        return
    if method in ("PUT", "POST") and _cluster_change(cmd, method, urls, body, where, add):
        return
    if method != "DELETE":
        return
    for host, path in urls:
        segments = [s for s in path.split("/") if s]
        if (len(segments) == 1 and (not segments[0].startswith("_") or segments[0] == "_all")) or \
                (len(segments) >= 2 and segments[-2].lower() in _CONTAINERS):
            if segments[-1] == "_all" or "*" in segments[-1] or (_BARE_IP.match(host) and not _LOOPBACK.match(host)):
                add(Finding("block.shell.database-destruction", Risk.CRITICAL,
                            f"{cmd.name} DELETE {host}{path[:60]}: drops every index, or a whole database of a store "
                            f"reached by its bare address{where}: what the bots that wipe open databases do",
                            cmd.span))
            else:
                add(Finding("confirm.shell.destructive", Risk.HIGH,
                            f"{cmd.name} DELETE {host}{path[:60]}: drops a whole index or database of a data store"
                            f"{where} (it keeps no bin to restore it from)", cmd.span))
            return
        if segments and segments[0] not in _CLEANUPS and segments[-1] not in _CLEANUPS:
            add(Finding("confirm.shell.destructive", Risk.HIGH,
                        f"{cmd.name} DELETE {host}{path[:60]}: deletes documents, snapshots, users or settings of a "
                        f"data store{where}", cmd.span))
            return


def _ransom(cmd: Command, where: str, add: Add) -> None:
    text = " ".join(cmd.argv[1:]) + (" " + cmd.stdin_text if cmd.stdin_text else "")
    if len(text) < 24 or not _WRITES.search(text):
        return
    held = _HELD_DATA.search(text)
    if held is None or not _DEMAND.search(text):
        return
    add(Finding("block.shell.ransom-note", Risk.CRITICAL,
                f"{cmd.name} writes a ransom note into a data store (\"{held.group(0)[:60]}\"){where}: what the bots "
                "that wipe open databases leave for their owners", cmd.span))


# a role or user made a superuser or given the administrators' role (Snowflake's ACCOUNTADMIN, SQL Server's
# sysadmin, Oracle's DBA, a managed PostgreSQL's rds_superuser), everything granted to everyone (PostgreSQL's PUBLIC,
# MySQL's any host `'%'`) or with the right to grant it on, the owner's own superuser taken away, a MongoDB user
# given the roles that hold every database
_SUPERUSER = re.compile(
    r"\b(?:create|alter)\s+(?:role|user)\s+[\w\"'`.@%-]+\s+(?:with\s+)?(?:[\w']+\s+)*?superuser\b"
    r"(?!\s*=\s*false)|"
    r"\bgrant\s+(?:role\s+)?\W?(?:accountadmin|securityadmin|sysadmin|dba|rds_superuser|cloudsqlsuperuser|"
    r"azure_pg_admin|db_owner)\W?\s+to\b|\balter\s+server\s+role\s+\W?sysadmin\W?\s+add\s+member\b|"
    r"\bsp_addsrvrolemember\b[^;]{0,80}sysadmin|"
    r"\bgrant\s+all(?:\s+privileges)?\s+on\s+\*\.\*\s+to\s+[^;]{1,80}?\bwith\s+grant\s+option\b|"
    r"\bgrant\s+all(?:\s+privileges)?\s+on\s+(?:\S+\s+){1,5}?to\s+public\b|"
    r"\bgrant\s+all(?:\s+privileges)?\s+on\s+\*\.\*\s+to\s+\S+@\W?%\W?|"
    r"\balter\s+(?:role|user)\s+\W?postgres\W?\s+(?:with\s+)?nosuperuser\b|"
    r"\b(?:(?:createuser|updateuser)\s*\(.*\broles?\b|grantrolestouser\s*\()"
    r".{0,200}?\W(?:root|__system|useradminanydatabase|dbowneranydatabase|readwriteanydatabase|clusteradmin)\W",
    re.I | re.S)
# any other change of who may do what: a user, role or login made, altered or dropped, a right granted or revoked
# (a statement's own words, not a quoted string's: `SELECT 'grant me to you'` changes nothing)
_ACCESS_CHANGE = re.compile(r"\b(?:createuser|grantrolestouser|updateuser|revokerolesfromuser|dropuser)\s*\(|"
                            r"(?:^|[;\s])(?:grant|revoke)\s+[^;'\"]{1,160}?\s+(?:to|from)\s+\S|"
                            r"(?:^|[;\s])(?:create|alter|drop)\s+(?:user|role|login)\s+\S", re.I)


def _privileges(cmd: Command, where: str, add: Add) -> None:
    text = " ".join(cmd.argv[1:]) + (" " + cmd.stdin_text if cmd.stdin_text else "")
    hit = _SUPERUSER.search(text)
    if hit is not None:
        add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                    f"{cmd.name}: {hit.group(0)[:70]}{where}: a database superuser made, everything granted to "
                    "everyone, or the owner's own rights taken away", cmd.span))
    elif (change := _ACCESS_CHANGE.search(text)) is not None:
        add(Finding("confirm.shell.privilege-escalation", Risk.HIGH,
                    f"{cmd.name} changes who may do what in the database ({change.group(0)[:50]}){where}", cmd.span))


def _dump_out(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if not cmd.upstream:
        return
    dumps = [c for i in cmd.upstream if (c := analysis.commands[i]).name in _DUMPERS and _whole_dump(c)]
    if not dumps:
        return
    hosts = [h for a in cmd.argv[1:] if (h := _host(a))]
    bad = risky_destination(tuple(cmd.words[1:])) or next(
        (h for h in hosts if _SHARING_HOST.search(h) and not _LOCAL_HOST.match(h)), None)
    if bad:
        add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                    f"{dumps[0].name} dumps a whole database into {cmd.name}, bound for {bad[:60]}{where}: the "
                    "database leaves the machine for a paste, drop or bare address", cmd.span))


def _whole_dump(cmd: Command) -> bool:
    if cmd.name in ("pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump"):
        # (one table's rows chosen: `-t orders`, `--where`: judged by where they go, as other data is)
        return not any(w in ("-t", "--table", "--tables", "-w", "--where") or w.startswith(("--table=", "--where="))
                       for w in cmd.words)
    if cmd.name == "mongodump":
        return any(w == "--archive" or w.startswith("--archive=-") for w in cmd.words)
    if cmd.name == "redis-cli":
        return "--rdb" in cmd.words
    return any(w.strip("'\"") in (".dump", ".backup") for w in cmd.words)


def _host(word: str) -> str:
    if "://" not in word:
        return ""
    try:
        return (urlsplit(word).hostname or "").lower()
    except ValueError:
        return ""


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if cmd.name in _HTTP_CLIENTS:
        _rest(cmd, where, add)
    if cmd.name in _DB_CLIENTS or (cmd.name in _HTTP_CLIENTS and _store_urls(cmd)):
        _ransom(cmd, where, add)  # (a page about ransom notes posted to a site is not one written into a store)
    if cmd.name in _DB_CLIENTS:
        _privileges(cmd, where, add)
    if cmd.name in _NET_CLIENTS:
        _dump_out(cmd, analysis, where, add)
