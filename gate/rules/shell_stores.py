"""Shell findings judged by what a command does to a data store or an artefact store, whatever program carries it.

- Statements in any program's argument: an argument that IS a statement (it starts with a statement's verb
  and reads as one to its end: `DROP TABLE users`, `DELETE FROM t WHERE 1=1`, `db.users.deleteMany({})`,
  `FLUSHALL`) is judged as the database clients' own `-c` is (`DestructiveChecks.statements_judged`), whether
  the program is a serverless database's CLI (`wrangler d1 execute --command`), an analytic database's client
  or a universal one. Programs that read statements on their standard input (`[stores] statement_stdin`) are
  judged on their here-document or the echo piped into them. Text that is only shown, searched or stored (a
  commit message, a grep pattern: `[stores] text_only`, `message_flags`) is not a statement.
- Personal data out of a store: a SELECT of personal columns (`[stores] personal_columns`, or `*` from a
  table about people) written to a file asks; written to another machine, or piped to a program that sends
  it, blocks. An exporter of records (`[stores.exporters]`: mongoexport, `bq extract`) given such fields or
  such a table is judged the same way.
- An ORM's bulk deletes run through a framework's console (`rails runner`, `manage.py shell -c`, `artisan
  tinker --execute`): every row of a model blocks, as a DELETE with no WHERE does; a filter's rows ask.
- Images copied out of a private registry (`[stores] image_copiers`): to a host that is neither internal nor
  of the same organisation asks as data out; to a bare address, a drop-named host or without credentials
  blocks.
- The settings of a cloud's functions and apps, where their secrets are kept, read out and kept or sent
  (gate/rules/cloud_secrets.py).
- Credentials harvested from logs: a log reader (`[stores] log_readers`, `log_files`) piped to a filter for
  tokens and passwords (`log_secrets`), kept in a file, asks; sent on, blocks.

The facts live in resources/programs.toml, section `# ---- data-store and registry facts ----`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.catalogue import DATA, risky_destination
from gate.model import Risk
from gate.rules import cloud_secrets
from gate.rules.shell_vocab import _DB_CODE_FLAGS
from gate.shell import NET_SENDERS, Command, Finding, ShellAnalysis

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["judge", "may_carry"]

Add = Callable[[Finding], None]

_TABLE: dict = DATA.get("stores", {})
_STDIN_CARRIERS = frozenset(_TABLE.get("statement_stdin", ()))
# database shells whose every word is read as a statement by the clients' own check (`redis-cli FLUSHALL`)
_WORD_CLIENTS = frozenset({"sqlite3", "duckdb", "litecli", "redis-cli", "mongo", "mongosh"})
_TEXT_ONLY = frozenset(_TABLE.get("text_only", ()))
_MESSAGE_FLAGS = frozenset(_TABLE.get("message_flags", ()))
_PERSONAL_COLUMNS = frozenset(_TABLE.get("personal_columns", ()))
_PERSONAL_TABLES = frozenset(_TABLE.get("personal_tables", ()))
_LOG_READERS: dict[str, tuple[tuple[str, ...], ...]] = {
    name: tuple(tuple(v.split()) for v in verbs) for name, verbs in _TABLE.get("log_readers", {}).items()}
_LOG_FILES = tuple(_TABLE.get("log_files", ()))
_LOG_SECRET = re.compile("|".join(re.escape(w) for w in _TABLE.get("log_secrets", ("token",))), re.I)
_IMAGE_COPIERS: dict[str, tuple[tuple[str, ...], ...]] = {
    name: tuple(tuple(v.split()) for v in verbs) for name, verbs in _TABLE.get("image_copiers", {}).items()}
_NO_CREDS = tuple(_TABLE.get("image_no_creds", ()))
_PUBLIC_REGISTRIES = frozenset(_TABLE.get("public_registries", ()))
_EXPORTERS: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in _TABLE.get("exporters", {}).items()}
_EXPORTER_NAMES = frozenset(k.split()[0] for k in _EXPORTERS)

# -- statements ------------------------------------------------------------------------------------------------

_ID = r"(?:[\w$.\-]+|`[^`]+`|\"[^\"]+\"|\[[^\]]+\])(?:\.(?:[\w$\-]+|`[^`]+`|\"[^\"]+\"|\[[^\]]+\]))*"
_END = r"\s*(?:;|$)"
# one statement, read to its end (or to its `;`): a sentence that starts with the same verb does not read as one
# (`drop table users in the next release` is prose; `drop table users;` is a statement)
_STATEMENT = re.compile(
    r"\s*(?:"
    r"drop\s+(?:temporary\s+)?(?:table|database|schema|keyspace|view|materialized\s+view|index|measurement|series|"
    r"retention\s+policy|sequence|dictionary|stream|stage|warehouse|collection|graph)\s+(?:if\s+exists\s+)?"
    + _ID + r"(?:\s*,\s*" + _ID + r")*(?:\s+(?:on\s+cluster\s+\S+|cascade|restrict|purge|sync|force))*" + _END + "|"
    r"truncate\s+(?:table\s+)?(?:if\s+exists\s+)?(?:only\s+)?" + _ID + r"(?:\s*,\s*" + _ID +
    r")*(?:\s+(?:on\s+cluster\s+\S+|cascade|restrict|restart\s+identity|continue\s+identity))*" + _END + "|"
    r"delete\s+from\s+" + _ID + r"(?:\s+(?!where\b)(?:as\s+)?\w+)?(?:\s+where\s+[^;]+)?" + _END + "|"
    r"update\s+" + _ID + r"(?:\s+(?!set\b)(?:as\s+)?\w+)?\s+set\s+" + _ID + r"\s*=\s*[^;]+" + _END + "|"
    r"alter\s+table\s+" + _ID + r"(?:\s+on\s+cluster\s+\S+)?\s+(?:delete|update|drop|truncate)\b[^;]*" + _END + "|"
    r"(?:with\s+[^;]+?\)\s*)?select\s+[^;]+?\s+from\s+" + _ID + r"[^;]*" + _END + "|"
    r"\\?copy\s+[^;]+?\s+(?:to|into)\s+[^;]+" + _END + "|"
    r"export\s+data\s+[^;]+" + _END + "|"
    r"insert\s+into\s+(?:table\s+)?(?:function\s+)?" + _ID + r"[^;]*" + _END + "|"
    r"(?:use\s+\w+\s*;\s*)?db\.(?:getsiblingdb\([^)]*\)\.)?(?:[\w$]+\.)?\w+\s*\([^;]*\)\s*;?\s*$|"
    r"(?:flushall|flushdb)(?:\s+(?:async|sync))?\s*$|"
    r"match\s*\([^)]*\)[^;]*?\b(?:detach\s+)?delete\b[^;]*" + _END + r")", re.S)
# the first letters of those verbs: any other argument is not looked at further
_VERB_START = re.compile(r"\s*\\?(?:drop|truncate|delete|update|alter|with|select|copy|export|insert|use|db\.|"
                         r"flush|match|begin|start)", re.S)
_PREAMBLE = re.compile(r"\s*(?:begin(?:\s+transaction)?|start\s+transaction|use\s+\S+|set\s+[^;]+)\s*;", re.S)


def _statement(text: str) -> bool:
    """Whether `text` (folded) is a statement, or begins a script of statements (`BEGIN; DELETE ...; COMMIT`)."""
    rest = text
    for _ in range(3):
        m = _PREAMBLE.match(rest)
        if m is None:
            break
        rest = rest[m.end():]
    return bool(_STATEMENT.match(rest))


# flags whose value is a script of statements the program runs (`psql -f x.sql`, `wrangler d1 execute --file x.sql`)
_SCRIPT_FLAGS = frozenset({"-f", "--file", "-i", "--input-file", "--sql-file", "--queries-file", "-input", "source",
                           "--queries", "--query-file"})


def _scripts_named(cmd: Command) -> list[str]:
    """The files `cmd` reads statements from: a script flag's value, `< file`."""
    words = cmd.words
    named = [words[k + 1] for k, w in enumerate(words[:-1]) if k and w in _SCRIPT_FLAGS]
    named += [w.split("=", 1)[1] for w in words[1:] if "=" in w and w.split("=", 1)[0] in _SCRIPT_FLAGS]
    named += [t for op, t in cmd.redirects if op == "<"]
    return named


def written_scripts(cmd: Command, analysis: ShellAnalysis) -> list[str]:
    """Statements an earlier command of the same line wrote into the script `cmd` runs (`cat > x.sql <<EOF ...`,
    `echo 'DROP ...' > x.sql`, then `psql -f x.sql`): the gate has read them as they were written."""
    named = _scripts_named(cmd)
    if not named:
        return []
    out = []
    for c in analysis.commands:
        if c is cmd:
            break
        if not any(op in (">", ">>", ">|") and t in named for op, t in c.redirects):
            continue
        if c.stdin_text:
            text = c.stdin_text.lower()
        elif c.name in ("echo", "printf", "print", "write-output"):
            text = " ".join(w for k, w in enumerate(c.words[1:], 1) if k not in c.dynamic and not w.startswith("-"))
        else:
            continue
        if _statement(text):
            out.append(text)
    return out


# framework consoles that run the code they are given (`rails runner CODE`, `manage.py shell -c CODE`, `artisan
# tinker --execute=CODE`): program → the word that says so
_ORM_CONSOLES = {"rails": "runner", "python": "shell", "python3": "shell", "django-admin": "shell", "php": "tinker",
                 "artisan": "tinker"}
# the first characters of an argument `_VERB_START` can match, and the programs always looked at
_VERB_INITIALS = frozenset("dtuawscemfbi\\ \t\n")
_FIRST_LOOK = frozenset({*_IMAGE_COPIERS, *_EXPORTER_NAMES, *_ORM_CONSOLES})


def may_carry(cmd: Command) -> bool:
    """Whether a statement, an image copy or a log harvest could be in `cmd` (a cheap first test, for every
    command: most have no argument that starts with a statement's verb)."""
    name = cmd.name
    if name in cloud_secrets.PROGRAMS:
        return True
    if cmd.upstream or name in _FIRST_LOOK or (cmd.redirects and any(op == "<" for op, _ in cmd.redirects)):
        return True
    if cmd.stdin_text and name in _STDIN_CARRIERS:
        return True
    if name in _TEXT_ONLY:
        return False
    for w in cmd.words[1:]:
        first = w[:1]
        if first == "-":
            if w in _SCRIPT_FLAGS or w.startswith("--file=") or \
                    ("=" in w and _VERB_START.match(w, w.find("=") + 1)):
                return True
        elif first in _VERB_INITIALS and len(w) > 6 and _VERB_START.match(w):
            return True
    return False


def statements(cmd: Command, analysis: ShellAnalysis, client: bool = False) -> tuple[list[str], list[str]]:
    """The statements `cmd` carries (folded): its arguments that are statements (a flag's `=value` too), and what
    a statement-reading program is fed on its input. Values of message flags and text programs' words are text.
    Returned as (all of them, those a database client's own check has not read: `client` says it is one; that
    check reads its code flags' values, its input, and every word of the shells that take statements as words)."""
    out: list[str] = []
    unread: list[str] = []
    words = cmd.words
    if cmd.name not in _TEXT_ONLY:
        every_word = client and cmd.name in _WORD_CLIENTS
        for k, w in enumerate(words[1:], 1):
            if k in cmd.dynamic or words[k - 1] in _MESSAGE_FLAGS:
                continue
            flagged = w[:1] == "-" and "=" in w
            text = w.split("=", 1)[1] if flagged else w
            if len(text) > 6 and _VERB_START.match(text) and _statement(text):
                out.append(text)
                if not client or not (every_word or words[k - 1] in _DB_CODE_FLAGS or
                                      (flagged and w.split("=", 1)[0] in _DB_CODE_FLAGS)):
                    unread.append(text)
    if client:
        return out, unread
    if cmd.name in _STDIN_CARRIERS:
        if cmd.stdin_text and _statement(cmd.stdin_text.lower()):
            out.append(cmd.stdin_text.lower())
        for i in cmd.upstream:
            up = analysis.commands[i]
            if up.name in ("echo", "printf", "print", "write-output"):
                text = " ".join(w for k, w in enumerate(up.words[1:], 1) if not w.startswith("-") and
                                k not in up.dynamic)
                if _statement(text):
                    out.append(text)
    return out, out


# -- an ORM's bulk deletes run through a framework's console ------------------------------------------------------

# every row of a model deleted: Rails' Model.delete_all / destroy_all, Django's Model.objects.all().delete(),
# Laravel's Model::truncate() and DB::table(...)->delete(), Prisma's deleteMany() with no filter (case kept: a
# model is a class, `user.posts.delete_all` is one user's)
_ORM_EVERY_ROW = re.compile(
    r"\b[A-Z]\w*(?:::[A-Z]\w*)*\.(?:delete_all|destroy_all|in_batches\.delete_all)\b|"
    r"\b[A-Z]\w*\.objects\.(?:all\(\)\.)?delete\(\)|"
    r"\b[A-Z]\w*::(?:truncate\(\)|query\(\)->delete\(\)|whereNotNull\('id'\)->delete\(\))|"
    r"\bDB::table\([^)]*\)->(?:truncate|delete)\(\)|"
    r"\.\w+\.deleteMany\(\s*(?:\{\s*\})?\s*\)|\.destroy\(\s*\{[^}]*\btruncate\s*:\s*true")
# a filtered bulk delete or update: the rows the filter picks
_ORM_SOME_ROWS = re.compile(
    r"\.where\([^)]*\)\.(?:delete_all|destroy_all|update_all)\b|(?:\b[a-z_]\w*|\))\.\w+\.(?:delete_all|destroy_all)\b|\.filter\([^)]*\)\.(?:delete|update)\(|"
    r"(?:->|::)where\([^)]*\)->(?:delete|update)\(|\.(?:deleteMany|updateMany)\(\s*\{\s*where\b|\b[A-Z]\w*\.update_all\b")


def orm_deletes(cmd: Command, where: str, add: Add) -> None:
    """A framework console given code that deletes every row of a model (blocks, as DELETE with no WHERE does) or
    the rows a filter picks (asks)."""
    word = _ORM_CONSOLES.get(cmd.name)
    words = cmd.words
    if word is None or word not in words[1:4]:
        return
    if cmd.name.startswith("python") and not (words[1:2] and words[1].endswith("manage.py")):
        return
    code = " ".join(cmd.argv[k] for k in range(2, len(cmd.argv)) if k not in cmd.dynamic)
    m = _ORM_EVERY_ROW.search(code)
    if m:
        add(Finding("block.shell.database-destruction", Risk.CRITICAL, f"{cmd.name} {word} runs code that deletes "
                    f"every row of a model ({m.group(0)[:50]}){where}", cmd.span))
        return
    m = _ORM_SOME_ROWS.search(code)
    if m:
        add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} {word} runs code that deletes or changes "
                    f"rows in bulk ({m.group(0)[:50]}){where}", cmd.span))


# -- personal data out of a store ------------------------------------------------------------------------------

_SELECT_LIST = re.compile(r"\bselect\s+(?P<cols>.+?)\s+from\s+(?P<table>" + _ID + r"|'[^']+')", re.S)
_NAME_PART = re.compile(r"[a-z]+")
_OUT_FLAGS = frozenset({"-o", "--output", "--out", "--output-file", "-output", "--outfile", "--file-output"})
_INTO_FILE = re.compile(r"\binto\s+(?:outfile|dumpfile)\s+['\"](?P<path>[^'\"]+)|\\copy\s.+?\bto\s+['\"]?(?P<path2>"
                        r"[^'\"\s;]+)|\bcopy\s.+?\bto\s+['\"](?P<path3>/[^'\"]+)", re.S)


def _personal_columns(text: str) -> list[str]:
    """The personal columns a SELECT in `text` picks (`email`, `customers.phone`; `*` from a table about people)."""
    found: list[str] = []
    for m in _SELECT_LIST.finditer(text):
        cols, table = m.group("cols"), m.group("table").strip('`"[]\'').rsplit("/", 1)[-1]
        table = table.split(".", 1)[0] if "'" in m.group("table") else table.rsplit(".", 1)[-1]
        if re.fullmatch(r"\s*(?:distinct\s+)?\*\s*", cols) and table in _PERSONAL_TABLES:
            found.append(f"every column of {table}")
            continue
        for col in re.split(r"\s*,\s*", cols):
            name = col.split()[0].strip('`"[]').rsplit(".", 1)[-1] if col.split() else ""
            if name in _PERSONAL_COLUMNS or any(p in _PERSONAL_COLUMNS and p not in ("tel", "pan", "sin", "tin", "mail",
                                                                                       "card", "cell", "zip")
                                                 for p in name.split("_") if len(name.split("_")) > 1):
                found.append(name)
    return found


def _written_to(cmd: Command, analysis: ShellAnalysis, texts: list[str]) -> str | None:
    """Where the rows a command prints are kept: its output flag's file, a redirect, a tee downstream, or the
    file its SQL writes (INTO OUTFILE, \\copy ... to)."""
    words = cmd.words
    for k, w in enumerate(words[1:], 1):
        if w in _OUT_FLAGS and k + 1 < len(words):
            return cmd.argv[k + 1]
        if "=" in w and w.split("=", 1)[0] in _OUT_FLAGS:
            return cmd.argv[k].split("=", 1)[1]
    for op, target in cmd.redirects:
        if op in (">", ">>", ">|") and target not in ("/dev/null", "/dev/stdout", "/dev/stderr"):
            return target
    for t in texts:
        m = _INTO_FILE.search(t)
        if m:
            return m.group("path") or m.group("path2") or m.group("path3")
    for later in _downstream(cmd, analysis):
        if later.name in _FILE_WRITERS:
            return next((w for w in later.argv[1:] if not w.startswith("-")), None)
        for op, target in later.redirects:
            if op in (">", ">>", ">|") and target not in ("/dev/null",):
                return target
    return None


# programs that keep what they read in the file they are given (tee, PowerShell's writers)
_FILE_WRITERS = frozenset({"tee", "tee-object", "out-file", "set-content", "add-content", "export-csv", "sponge"})


def _downstream(cmd: Command, analysis: ShellAnalysis) -> list[Command]:
    """The commands later in `cmd`'s pipeline (that read what it prints)."""
    try:
        me = analysis.commands.index(cmd)
    except ValueError:
        return []
    return [c for c in analysis.commands[me + 1:] if me in c.upstream]


def _sent_to(cmd: Command, analysis: ShellAnalysis) -> tuple[str, str] | None:
    """(program, the host) of a program later in the pipeline that sends what it reads over the network."""
    for later in _downstream(cmd, analysis):
        if later.name in NET_SENDERS:
            host = next((w for w in later.words[1:] if "://" in w or "@" in w or
                         re.match(r"^[\w.-]+\.[a-z]{2,}(?:[:/]|$)|^\d{1,3}(?:\.\d{1,3}){3}", w)), "")
            return later.name, host
    return None


def personal_out(cmd: Command, analysis: ShellAnalysis, texts: list[str], where: str, add: Add) -> None:
    """A query selecting personal columns whose rows are kept in a file (asks) or sent (blocks)."""
    cols = [c for t in texts for c in _personal_columns(t)]
    if not cols:
        return
    shown = ", ".join(dict.fromkeys(cols))[:60]
    sent = _sent_to(cmd, analysis)
    remote = next((t for t in texts if re.search(r"\b(?:to|into)\s+['\"](?:s3a?|gs|gcs|az|abfss?|https?|s?ftp)://",
                                                   t)), None)
    if sent is not None or remote is not None:
        how = f"{sent[0]} {sent[1]}".strip() if sent else "a URL its SQL names"
        add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"{cmd.name} selects personal data ({shown}) and "
                    f"sends the rows to another machine ({how[:60]}){where}", cmd.span))
        return
    kept = _written_to(cmd, analysis, texts)
    if kept:
        add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{cmd.name} selects personal data ({shown}) and writes "
                    f"the rows to {kept[:60]}{where}", cmd.span))


def _exported_names(cmd: Command) -> list[str] | None:
    """What an exporter of records (`mongoexport`, `bq extract`) names to export: its field, collection and table
    words split into names; None when `cmd` is no exporter."""
    words = cmd.words
    plain = [w for w in words[1:] if not w.startswith("-")]
    flags = _EXPORTERS.get(cmd.name)
    if flags is None and plain:
        flags = _EXPORTERS.get(f"{cmd.name} {plain[0]}")
    if flags is None:
        return None
    if "" in flags:  # (every operand names what goes: `bq extract crm.customers gs://...`)
        given = plain[1:]
    else:
        given = [words[k + 1] for k, w in enumerate(words[:-1]) if k and w in flags]
        given += [w.split("=", 1)[1] for w in words[1:] if "=" in w and w.split("=", 1)[0] in flags]
    return [n for g in given for n in re.split(r"[^\w]+", g) if n]


def personal_export(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """An exporter of records given personal fields or a table about people, its output kept in a file or put in a
    bucket (asks) or sent on (blocks)."""
    names = _exported_names(cmd)
    if not names:
        return
    hits = [n for n in names if n in _PERSONAL_COLUMNS or n in _PERSONAL_TABLES]
    if not hits:
        return
    shown = ", ".join(dict.fromkeys(hits))[:60]
    sent = _sent_to(cmd, analysis)
    if sent is not None:
        add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"{cmd.name} exports personal data ({shown}) and "
                    f"sends it to another machine ({sent[0]} {sent[1][:40]}){where}", cmd.span))
        return
    bucket = next((w for w in cmd.words[1:] if re.match(r"^(?:gs|s3|az|abfss?)://", w)), None)
    kept = bucket or _written_to(cmd, analysis, [])
    if kept:
        add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{cmd.name} exports personal data ({shown}) to "
                    f"{kept[:60]}{where}", cmd.span))


# -- images copied out of a private registry -------------------------------------------------------------------

_INTERNAL = re.compile(r"(?:^|\.)(?:internal|intranet|corp|lan|local|localdomain|home\.arpa|private|priv|svc|"
                       r"cluster\.local)(?:[.:]|$)|^(?:localhost|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.)",
                       re.I)
_REF = re.compile(r"^(?:(?:docker|oci|atomic|docker-daemon)://|//)?(?P<host>[a-z0-9][\w.-]*(?::\d+)?)/", re.I)


def _registry_host(word: str) -> str | None:
    m = _REF.match(word)
    if m is None:
        return None
    host = m.group("host")
    return host if ("." in host or ":" in host or host == "localhost") else None


def _organisation(host: str) -> str:
    """The registrable part of a host (`registry.eu.acme.com` → `acme.com`), a rough same-organisation test."""
    parts = host.split(":", 1)[0].split(".")
    return ".".join(parts[-3:] if len(parts) > 2 and len(parts[-1]) == 2 and len(parts[-2]) <= 3 else parts[-2:])


def image_copy(cmd: Command, where: str, add: Add) -> None:
    """An image or a whole repository copied from an internal registry to another organisation's host."""
    verbs = _IMAGE_COPIERS.get(cmd.name, ())
    words = [w for w in cmd.words[1:]]
    plain = [w for w in words if not w.startswith("-")]
    if not any(v == ("",) or tuple(plain[:len(v)]) == v for v in verbs):
        return
    hosts = [h for w in plain if (h := _registry_host(w))]
    if len(hosts) < 2:
        return
    src, dst = hosts[0], hosts[-1]
    if not _INTERNAL.search(src.split(":", 1)[0]) or _INTERNAL.search(dst.split(":", 1)[0]) or \
            _organisation(src) == _organisation(dst):
        return
    bare = re.match(r"^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?$", dst)
    open_ = any(w.startswith(_NO_CREDS) for w in words)
    if bare or open_ or risky_destination((dst,)):
        why = "a bare address" if bare else ("a registry written without credentials" if open_ else
                                             "a place named as a drop")
        add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"{cmd.name} copies images from the internal "
                    f"registry {src} to {dst}: {why}{where}", cmd.span))
        return
    public = dst.split(":", 1)[0] in _PUBLIC_REGISTRIES
    add(Finding("confirm.shell.network", Risk.HIGH, f"{cmd.name} copies images from the internal registry {src} to "
                f"{dst}{', a public registry' if public else ', outside the organisation'}{where}", cmd.span))


# -- credentials harvested from logs ---------------------------------------------------------------------------


def _reads_logs(c: Command) -> bool:
    verbs = _LOG_READERS.get(c.name)
    if verbs is not None:
        plain = [w for w in c.words[1:] if not w.startswith("-")]
        if any(v == ("",) or tuple(plain[:len(v)]) == v for v in verbs):
            return True
    return any(any(f in w for f in _LOG_FILES) for w in c.words[1:] if not w.startswith("-") and
               ("/" in w or "\\" in w or w.endswith(".log")))


_PATTERN_FLAGS = frozenset({"-e", "--regexp", "-pattern", "--pattern", "/c"})


def _filter_pattern(cmd: Command) -> str:
    """What a filter looks for: its `-e` / `-Pattern` values, or else its first operand (grep PATTERN FILE)."""
    words = cmd.argv[1:]
    given = [words[k + 1] for k, w in enumerate(words[:-1]) if w.lower() in _PATTERN_FLAGS]
    given += [w.split("=", 1)[1] for w in words if w.startswith("--regexp=")]
    if given:
        return " ".join(given)
    return next((w for w in words if not w.startswith("-")), "")


def log_harvest(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A filter for tokens or passwords run on what a log reader prints, its matches kept in a file or sent."""
    if not cmd.upstream or not any(_reads_logs(analysis.commands[i]) for i in cmd.upstream):
        return
    if not _LOG_SECRET.search(_filter_pattern(cmd)):
        return
    sent = _sent_to(cmd, analysis)
    if sent is not None:
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL, f"picks tokens and passwords out of logs "
                    f"and sends them ({sent[0]} {sent[1][:40]}){where}", cmd.span))
        return
    kept = _written_to(cmd, analysis, [])
    if kept:
        add(Finding("confirm.shell.secret-read", Risk.HIGH, f"picks tokens and passwords out of logs into "
                    f"{kept[:60]}{where}", cmd.span))


# -- the entry point -------------------------------------------------------------------------------------------


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add, client: bool) -> None:
    """Every data- and artefact-store finding for one simple command (`client`: a database client, whose own
    statements `DestructiveChecks.sql` has judged already)."""
    if cmd.name in cloud_secrets.PROGRAMS:
        cloud_secrets.judge(cmd, analysis, where, add)
    if cmd.name in _IMAGE_COPIERS:
        image_copy(cmd, where, add)
    if cmd.name in _EXPORTER_NAMES:
        personal_export(cmd, analysis, where, add)
    if cmd.name in _ORM_CONSOLES:
        orm_deletes(cmd, where, add)
    if cmd.upstream:
        log_harvest(cmd, analysis, where, add)
    texts, unread = statements(cmd, analysis, client)
    if len(analysis.commands) > 1 and (scripts := written_scripts(cmd, analysis)):
        texts, unread = [*texts, *scripts], [*unread, *scripts]
    if unread:
        d.statements_judged(cmd, analysis, unread, where, add)
    if texts:
        personal_out(cmd, analysis, texts, where, add)
