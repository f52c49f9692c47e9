"""`deskgate log tail|show|export|verify|stats|prune`: the audit log on the command line.

Every subcommand takes `--db PATH` (default: the user data dir's audit.db). All but `prune` only read.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path
from typing import IO, Any

from app.audit.reader import AuditReader, iso, parse_time
from app.audit.writer import AuditError, AuditLog
from app.ports import OUTCOME_VERDICTS, Verdict

__all__ = ["parse_since", "register"]

_RELATIVE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
_UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_since(text: str | None, *, now: float | None = None) -> float | None:
    """`7d`, `24h`, `30m`, `90s`, `2w` (ago), or an ISO 8601 date/time (naive means UTC)."""
    if text is None:
        return None
    m = _RELATIVE.match(text)
    if m:
        return (time.time() if now is None else now) - float(m.group(1)) * _UNIT_S[m.group(2)]
    try:
        return parse_time(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is neither a duration (7d, 24h, 30m) nor an ISO time") from None


def _db(args: argparse.Namespace) -> Path:
    if args.db:
        return Path(args.db).expanduser()
    from app.config import default_paths

    return default_paths().db


def _filter_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--decision", choices=("allow", "confirm", "block"), help="only this gate decision")
    p.add_argument("--verdict", choices=[str(v) for v in Verdict if v in OUTCOME_VERDICTS],
                   help="only this final verdict")
    p.add_argument("--agent", help="only this agent")
    p.add_argument("--grep", metavar="TEXT", help="only rows whose summary or reason contains TEXT")


def _filters(args: argparse.Namespace) -> dict[str, Any]:
    out = {"decision": args.decision, "verdict": args.verdict, "agent": args.agent, "text": args.grep}
    return {k: v for k, v in out.items() if v is not None}


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH", help="the audit database (default: the user data dir's audit.db)")


def _error(message: str) -> int:
    print(f"deskgate: {message}", file=sys.stderr)
    return 1


# -- tail ----------------------------------------------------------------------------------------------

_COLUMNS = (("id", "ID", ">"), ("time", "TIME (UTC)", "<"), ("agent", "AGENT", "<"), ("decision", "GATE", "<"),
            ("verdict", "VERDICT", "<"), ("by", "BY", "<"), ("summary", "WHAT", "<"))


def _cells(row: dict[str, Any]) -> dict[str, str]:
    when = dt.datetime.fromtimestamp(row["ts"], dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
    return {"id": str(row["id"]), "time": when, "agent": row["agent"][:20], "decision": row["decision"],
            "verdict": row.get("verdict") or "pending", "by": row.get("decided_by") or "-",
            "summary": row["summary"]}


class _Table:
    """Aligned columns; widths grow as wider rows arrive (for --follow), the last column is cut to fit."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.width = {key: len(title) for key, title, _ in _COLUMNS}
        self.term = shutil.get_terminal_size((120, 24)).columns

    def header(self) -> None:
        self._line({key: title for key, title, _ in _COLUMNS})

    def measure(self, rows: list[dict[str, Any]]) -> list[dict[str, str]]:
        cells = [_cells(r) for r in rows]
        for c in cells:
            for key, _, _ in _COLUMNS[:-1]:
                self.width[key] = max(self.width[key], len(c[key]))
        return cells

    def rows(self, rows: list[dict[str, Any]]) -> None:
        for c in self.measure(rows):
            self._line(c)

    def _line(self, cells: dict[str, str]) -> None:
        parts = [f"{cells[key]:{align}{self.width[key]}}" for key, _, align in _COLUMNS[:-1]]
        head = "  ".join(parts) + "  "
        room = max(20, self.term - len(head))
        last = cells["summary"]
        self.out.write(head + (last if len(last) <= room else last[: room - 1] + "…") + "\n")
        self.out.flush()


def cmd_tail(args: argparse.Namespace) -> int:
    try:
        reader = AuditReader(_db(args))
    except AuditError as err:
        return _error(str(err))
    try:
        filters = _filters(args)
        rows = reader.query(limit=args.n, **filters)
        table = _Table(sys.stdout)
        rows.reverse()
        table.measure(rows)
        table.width["verdict"] = max(table.width["verdict"], len("executed"))  # room for what --follow adds
        table.header()
        table.rows(rows)
        if args.follow:
            last = rows[-1]["id"] if rows else (reader.query(limit=1) or [{"id": 0}])[0]["id"]
            return _follow(reader, table, last, filters, args.interval)
        return 0
    except AuditError as err:
        return _error(str(err))
    finally:
        reader.close()


def _follow(reader: AuditReader, table: _Table, last: int, filters: dict[str, Any], interval: float,
            wait_for_outcome_s: float = 3.0) -> int:
    """Print new decisions as they come, oldest first. A row waits (up to a few seconds) for its
    verdict so the line is complete; order is kept."""
    try:
        while True:
            time.sleep(interval)
            fresh = reader.query(after_id=last, limit=1000, oldest_first=True, **filters)
            ready = []
            for row in fresh:
                if row.get("verdict") is None and time.time() - row["ts"] < wait_for_outcome_s:
                    break
                ready.append(row)
            if ready:
                table.rows(ready)
                last = ready[-1]["id"]
    except KeyboardInterrupt:
        return 0


# -- show, export ---------------------------------------------------------------------------------------


def cmd_show(args: argparse.Namespace) -> int:
    try:
        with AuditReader(_db(args)) as reader:
            row = reader.get(args.id)
    except AuditError as err:
        return _error(str(err))
    if row is None:
        return _error(f"no decision with id {args.id}")
    preview = row.get("preview")
    if preview is not None:
        png = preview.pop("png")
        preview["image"] = "kept" if png is not None else "cleared by retention"
        if args.preview_out and png is not None:
            _write_private(Path(args.preview_out), png)
            preview["saved_to"] = args.preview_out
    json.dump(row, sys.stdout, indent=2, ensure_ascii=False, sort_keys=False)
    sys.stdout.write("\n")
    return 0


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def cmd_export(args: argparse.Namespace) -> int:
    filters = _filters(args)
    filters.update(since=args.since, until=args.until)
    try:
        with AuditReader(_db(args)) as reader:
            if args.output and args.output != "-":
                # audit data stays private to the user, like the database itself
                fd = os.open(args.output, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                    n = reader.export(fh, args.format, **filters)
                print(f"exported {n} decisions to {args.output}", file=sys.stderr)
            else:
                reader.export(sys.stdout, args.format, **filters)
    except AuditError as err:
        return _error(str(err))
    return 0


# -- verify, stats, prune -------------------------------------------------------------------------------


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        with AuditReader(_db(args)) as reader:
            result = reader.verify(check_head=not args.without_head)
    except AuditError as err:
        return _error(str(err))
    if result.ok:
        if args.without_head:
            print(f"ok: {result.rows} rows, the hash chain is intact — WARNING: not compared with the chain "
                  "head, so rows cut from the end would not show")
        else:
            print(f"ok: {result.rows} rows, the hash chain is intact and reaches its recorded head "
                  f"(chain position {result.head_seq})")
        if result.note:
            print(f"note: {result.note}")
        return 0
    print(f"FAILED after {result.rows} good rows: {result.problem}")
    return 1


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def cmd_stats(args: argparse.Namespace) -> int:
    try:
        with AuditReader(_db(args)) as reader:
            stats = reader.stats()
    except AuditError as err:
        return _error(str(err))
    from app.audit.syslog import read_stats
    from app.config import default_paths

    stats["syslog"] = read_stats(default_paths().syslog_stats)  # None: forwarding never ran here
    if args.json:
        json.dump(stats, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0

    def parts(d: dict[str, int]) -> str:
        return " · ".join(f"{k} {v:,}" for k, v in sorted(d.items(), key=lambda kv: -kv[1])) or "-"

    lines = [
        ("file", f"{stats['path']} ({_size(stats['size_bytes'])}, schema v{stats['schema_version']})"),
        ("decisions", f"{stats['decisions']:,}  ({parts(stats['by_decision'])})"),
        ("verdicts", parts(stats["by_verdict"])),
        ("events", f"{stats['events']:,}"),
        ("sessions", f"{stats['sessions']:,}"),
        ("previews", f"{stats['previews']:,} ({stats['previews_with_image']:,} with image)"),
        ("first", stats["first_at"] or "-"),
        ("last", stats["last_at"] or "-"),
        ("pruned before", stats["pruned_before"] or "never pruned"),
    ]
    if fwd := stats["syslog"]:
        error = f"; last error: {fwd['last_error']}" if fwd.get("last_error") else ""
        lines.append(("syslog", f"{fwd.get('target')}: {fwd.get('sent', 0):,} sent, {fwd.get('dropped', 0):,} "
                                f"dropped (as of {fwd.get('updated_at', '?')}){error}"))
    width = max(len(k) for k, _ in lines)
    for key, value in lines:
        print(f"{key:<{width}}  {value}")
    return 0


def cmd_prune(args: argparse.Namespace) -> int:
    path = _db(args)
    if not path.exists():
        return _error(f"no audit log at {path}")
    try:
        log = AuditLog(path, keep_days=0, preview_keep_days=0)
        try:
            pruned = log.apply_retention(args.keep_days)
        finally:
            log.close()
    except AuditError as err:
        return _error(str(err))
    cutoff = iso(time.time() - args.keep_days * 86400)
    print(f"pruned {pruned} rows older than {args.keep_days} days (before {cutoff}); the chain stays verifiable")
    return 0


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    top = subparsers.add_parser("log", help="read, export, verify and prune the audit log",
                                description="The audit log: every decision deskgate made, hash-chained.")
    sub = top.add_subparsers(dest="log_command", metavar="SUBCOMMAND")
    top.set_defaults(func=lambda args: (top.print_help(), 2)[1])

    p = sub.add_parser("tail", help="the latest decisions, as a table")
    p.add_argument("-n", type=int, default=20, metavar="N", help="how many (default 20)")
    p.add_argument("-f", "--follow", action="store_true", help="keep printing new decisions")
    p.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    _filter_args(p)
    _common(p)
    p.set_defaults(func=cmd_tail)

    p = sub.add_parser("show", help="one decision with its events, as JSON")
    p.add_argument("id", type=int)
    p.add_argument("--preview-out", metavar="FILE", help="save its screenshot preview (PNG) here")
    _common(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("export", help="decisions as JSON lines or CSV, oldest first")
    p.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    p.add_argument("--since", type=parse_since, help="a duration ago (7d, 24h) or an ISO time")
    p.add_argument("--until", type=parse_since, help="a duration ago (7d, 24h) or an ISO time")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (mode 0600) instead of stdout")
    _filter_args(p)
    _common(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("verify", help="check the hash chain; exit 1 naming the first edited or deleted row")
    _common(p)
    p.add_argument("--without-head", action="store_true",
                   help="check the chain alone, not whether it reaches the head recorded outside the log "
                        "(for a copied log; rows cut from its end then go unnoticed)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("stats", help="counts, time span and size")
    p.add_argument("--json", action="store_true", help="as JSON")
    _common(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("prune", help="delete decisions older than N days (recorded; the chain stays verifiable)")
    p.add_argument("--keep-days", type=_non_negative, required=True, metavar="N")
    _common(p)
    p.set_defaults(func=cmd_prune)
