"""app.audit.syslog: committed audit rows reach a real rsyslogd as RFC 5424 structured data, over UDP,
TCP and a unix socket; a collector that is down costs nothing locally and is counted."""

from __future__ import annotations

import errno
import json
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from app.audit.syslog import SD_ID, SyslogError, SyslogForwarder, SyslogTarget, format_row, read_stats
from app.audit.writer import AuditLog
from app.cli.main import main
from app.config import Paths
from gate import PolicyError, load_policy
from gate.model import Assessment, Decision, Observation, Risk

RSYSLOGD = shutil.which("rsyslogd") or "/usr/sbin/rsyslogd"

# -- an RFC 5424 parser (strict enough to reject a message rsyslog did not understand) -----------------

_HEADER = re.compile(r"^<(?P<pri>\d{1,3})>1 (?P<ts>\S+) (?P<host>\S+) (?P<app>\S+) (?P<procid>\S+) (?P<msgid>\S+) ")


def parse_5424(line: str) -> dict:
    m = _HEADER.match(line)
    assert m, f"not an RFC 5424 header: {line[:80]!r}"
    out = {**m.groupdict(), "sd": {}}
    i = m.end()
    assert line[i] == "[", f"no structured data: {line[i:i + 40]!r}"
    while i < len(line) and line[i] == "[":
        j = i + 1
        while line[j] not in " ]":
            j += 1
        sd_id, params = line[i + 1:j], {}
        i = j
        while line[i] == " ":
            eq = line.index("=", i)
            name = line[i + 1:eq]
            assert line[eq + 1] == '"', f"unquoted value for {name}"
            k, value = eq + 2, []
            while line[k] != '"':
                if line[k] == "\\" and line[k + 1] in '"\\]':
                    k += 1
                value.append(line[k])
                k += 1
            params[name] = "".join(value)
            i = k + 1
        assert line[i] == "]", f"structured data not closed at {line[i:i + 20]!r}"
        out["sd"][sd_id] = params
        i += 1
    out["msg"] = line[i + 1:].removeprefix("\ufeff") if i < len(line) else ""
    return out


# -- a real rsyslogd ----------------------------------------------------------------------------------


def _free_port(kind: int) -> int:
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _udp_bound(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError as err:
            return err.errno == errno.EADDRINUSE
        return False


def _tcp_listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


def _wait(pred, what: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Rsyslog:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.udp = _free_port(socket.SOCK_DGRAM)
        self.tcp = _free_port(socket.SOCK_STREAM)
        self.unix = root / "log.sock"
        self.out = root / "received.log"
        (root / "work").mkdir()
        conf = root / "rsyslog.conf"
        # the received message re-rendered from rsyslog's own parse of it: SD and MSGID survive only when
        # rsyslog understood the message as RFC 5424
        conf.write_text(f"""
global(workDirectory="{root / 'work'}")
module(load="imudp")
module(load="imtcp")
module(load="imuxsock" SysSock.Use="off")
input(type="imudp" address="127.0.0.1" port="{self.udp}")
input(type="imtcp" address="127.0.0.1" port="{self.tcp}")
input(type="imuxsock" Socket="{self.unix}" UseSpecialParser="off" ParseHostname="on" IgnoreTimestamp="off")
*.* action(type="omfile" file="{self.out}" template="RSYSLOG_SyslogProtocol23Format")
""")
        self.proc = subprocess.Popen([RSYSLOGD, "-n", "-f", str(conf), "-i", str(root / "rsyslogd.pid")],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            _wait(lambda: self.unix.exists() and _tcp_listening(self.tcp) and _udp_bound(self.udp), "rsyslogd")
        except AssertionError:
            self.stop()
            raise

    def target(self, scheme: str) -> str:
        return {"udp": f"udp:127.0.0.1:{self.udp}", "tcp": f"tcp:127.0.0.1:{self.tcp}",
                "unix": f"unix:{self.unix}"}[scheme]

    def messages(self) -> list[dict]:
        if not self.out.exists():
            return []
        return [parse_5424(line) for line in self.out.read_text(encoding="utf-8").splitlines() if line]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def rsyslog(tmp_path_factory):
    if not Path(RSYSLOGD).exists():
        pytest.skip("rsyslogd is not installed (Debian package rsyslog, .ci/sysdeps.sh)")
    server = Rsyslog(tmp_path_factory.mktemp("rsyslog"))
    yield server
    server.stop()


# -- helpers ------------------------------------------------------------------------------------------

OBS = Observation(window_title="Notes — draft", app="gedit", url="", screen_hash="s1")


def _decide(log: AuditLog, agent: str, action: dict, decision: str = "allow", reason: str = "no rule applies") -> int:
    a = Assessment(decision=Decision(decision), reason=reason, rules=("block.shell.test",) if decision == "block"
                   else (), risk=Risk.CRITICAL if decision == "block" else Risk.LOW, confidence=None)
    return log.record_decision(session_id=None, agent=agent, request_id="r1", op="act", action=action,
                               assessment=a, observation=OBS, approval_key="k", execute=True)


def _rows(db: Path, agent: str) -> list[dict]:
    import sqlite3

    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute("SELECT * FROM decisions WHERE agent = ? ORDER BY id", (agent,))]
    finally:
        conn.close()


# -- tests --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["udp", "tcp", "unix"])
def test_committed_rows_arrive_at_rsyslog_as_structured_data(rsyslog, tmp_path, scheme) -> None:
    agent = f"agent-{scheme}"
    fwd = SyslogForwarder(SyslogTarget.parse(rsyslog.target(scheme)), app_name="deskgate-test",
                          facility="local3").start()
    log = AuditLog(tmp_path / "audit.db", keep_days=0, preview_keep_days=0)
    log.on_commit = fwd.submit
    try:
        # values that need RFC 5424 escaping: quote, backslash, closing bracket
        _decide(log, agent, {"type": "shell", "command": 'echo "a]b" \\ done'})
        _decide(log, agent, {"type": "shell", "command": "rm -rf /"}, "block", "recursive delete of /")
        log.flush()
    finally:
        log.close()
    assert fwd.flush()
    fwd.stop()
    assert fwd.stats()["sent"] >= 2 and fwd.stats()["dropped"] == 0

    _wait(lambda: sum(1 for m in rsyslog.messages() if m["sd"].get(SD_ID, {}).get("agent") == agent) == 2,
          f"two decisions from {agent} in rsyslog's file")
    got = [m for m in rsyslog.messages() if m["sd"].get(SD_ID, {}).get("agent") == agent]
    rows = _rows(tmp_path / "audit.db", agent)
    assert [m["msgid"] for m in got] == ["decision", "decision"]
    assert {m["app"] for m in got} == {"deskgate-test"}
    # local3 = 19; informational (6) for an allow, notice (5) for a block
    assert [int(m["pri"]) for m in got] == [19 * 8 + 6, 19 * 8 + 5]
    for message, row in zip(got, rows, strict=True):
        sd = message["sd"][SD_ID]
        assert sd["table"] == "decisions"
        assert int(sd["id"]) == row["id"] and int(sd["seq"]) == row["seq"]
        assert sd["hash"] == row["hash"].hex()  # a collector can match the row to the local chain
        assert sd["action"] == row["action"] and sd["reason"] == row["reason"]
        assert sd["decision"] == row["decision"] and sd["risk"] == row["risk"]
    assert json.loads(got[0]["sd"][SD_ID]["action"])["command"] == 'echo "a]b" \\ done'
    assert got[1]["msg"].startswith(f"{agent}: block")


def test_collector_down_loses_nothing_locally_and_counts_drops(tmp_path) -> None:
    port = _free_port(socket.SOCK_STREAM)  # nothing listens there
    paths = Paths.for_testing(tmp_path)
    fwd = SyslogForwarder(SyslogTarget.parse(f"tcp:127.0.0.1:{port}"), stats_path=paths.syslog_stats).start()
    log = AuditLog(tmp_path / "audit.db", keep_days=0, preview_keep_days=0)
    log.on_commit = fwd.submit
    try:
        ids = [_decide(log, "offline", {"type": "wait", "seconds": i}) for i in range(5)]
    finally:
        log.close()
    assert fwd.flush()
    fwd.stop()
    assert len(_rows(tmp_path / "audit.db", "offline")) == 5 and ids == sorted(ids)
    stats = fwd.stats()
    assert stats["sent"] == 0 and stats["dropped"] >= 5 and "send" in stats["last_error"]
    assert read_stats(paths.syslog_stats)["dropped"] == stats["dropped"]


def test_submit_never_blocks_a_full_queue_drops(tmp_path) -> None:
    fwd = SyslogForwarder(SyslogTarget.parse("udp:127.0.0.1:9"), queue_size=2)  # not started: nothing drains
    row = ("events", (1, 1, 1.0, "kill", None, None, None, None, b"\0" * 32, b"\1" * 32))
    fwd.submit([row] * 5)
    assert fwd.stats()["dropped"] == 3 and fwd.stats()["queued"] == 2
    assert fwd.stats()["last_error"] == "queue full"


def test_format_escapes_and_header_fields() -> None:
    params = (4, 9, 0.0, "kill", 2, None, None, '{"reason":"x] \\"y\\""}', b"\0", bytes.fromhex("ab" * 32))
    line = format_row("events", params, app_name="my app", facility="auth", hostname="host one", procid=77)
    parsed = parse_5424(line.decode())
    assert parsed["pri"] == str(4 * 8 + 5)  # auth, notice: a kill is worth a notice
    assert parsed["ts"] == "1970-01-01T00:00:00.000000Z"
    assert (parsed["host"], parsed["app"], parsed["procid"], parsed["msgid"]) == ("hostone", "myapp", "77", "event")
    sd = parsed["sd"][SD_ID]
    assert sd["data"] == '{"reason":"x] \\"y\\""}' and sd["kind"] == "kill" and sd["hash"] == "ab" * 32
    assert "decision_id" not in sd  # NULL columns are left out
    assert parsed["msg"] == "kill"


@pytest.mark.parametrize("text", ["udp:host", "tcp::514", "udp:h:99999", "file:/x", "unix:", "tcp:h:p"])
def test_bad_targets_are_refused(text) -> None:
    with pytest.raises(SyslogError):
        SyslogTarget.parse(text)


def test_targets_parse() -> None:
    assert SyslogTarget.parse("tcp:[::1]:6514") == SyslogTarget("tcp", "::1", 6514)
    assert str(SyslogTarget.parse("unix:/dev/log")) == "unix:/dev/log"


def test_policy_enables_forwarding_and_validates(tmp_path) -> None:
    from app.root.runtime import make_forwarder

    assert make_forwarder(load_policy(), Paths.for_testing(tmp_path)) is None  # off by default
    f = tmp_path / "policy.toml"
    f.write_text('[audit.syslog]\nenabled = true\ntarget = "udp:127.0.0.1:9"\nfacility = "local7"\n')
    fwd = make_forwarder(load_policy(f), Paths.for_testing(tmp_path))
    try:
        assert (str(fwd.target), fwd.facility, fwd.app_name) == ("udp:127.0.0.1:9", "local7", "deskgate")
    finally:
        fwd.stop()
    for bad in ('target = "http://x"', 'facility = "local9"', 'app_name = "two words"'):
        f.write_text(f"[audit.syslog]\n{bad}\n")
        with pytest.raises(PolicyError):
            load_policy(f)


def test_log_stats_shows_forwarding_counters(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    from app.config import default_paths

    db = tmp_path / "audit.db"
    AuditLog(db, keep_days=0, preview_keep_days=0).close()
    stats_file = default_paths().syslog_stats
    stats_file.parent.mkdir(parents=True, exist_ok=True)  # the audit log may have made it (chain head)
    stats_file.write_text(json.dumps({"target": "tcp:10.0.0.5:514", "sent": 12, "dropped": 3, "queued": 0,
                                      "last_error": "send: refused", "updated_at": "2026-01-01T00:00:00Z"}))
    assert main(["log", "stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "tcp:10.0.0.5:514" in out and "3 dropped" in out
    assert main(["log", "stats", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["syslog"]["dropped"] == 3


def test_a_preview_is_forwarded_without_its_image(rsyslog, tmp_path) -> None:
    fwd = SyslogForwarder(SyslogTarget.parse(rsyslog.target("tcp"))).start()
    log = AuditLog(tmp_path / "audit.db", keep_days=0, preview_keep_days=0)
    log.on_commit = fwd.submit
    try:
        did = _decide(log, "agent-preview", {"type": "wait", "seconds": 0})
        log.add_preview(did, b"\x89PNG" + b"\0" * 5000)
        log.flush()
    finally:
        log.close()
    assert fwd.flush()
    fwd.stop()

    def preview():
        return next((m for m in rsyslog.messages() if m["msgid"] == "preview"
                     and m["sd"][SD_ID].get("decision_id") == str(did)), None)

    _wait(lambda: preview() is not None, "the preview row in rsyslog's file")
    sd = preview()["sd"][SD_ID]
    assert sd["png_len"] == "5004" and len(sd["png_sha256"]) == 64 and "png" not in sd
