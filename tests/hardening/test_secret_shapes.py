"""Secrets by shape everywhere: the secret-argument table (as data) and the names and ids around an
action never reach the database or its WAL in plain text.

Before, `zip -P`, `7z -p`, `redis-cli -a`, `smbclient -U u%p` kept their passwords in the log, and so did
a token used as an env variable's name, as a request's `id`, and an agent name `user:pw@host`. Real
server, supervisor, gate and SQLite file; the raw bytes of the .db, -wal and -shm are searched for each
secret and its plain SHA-256.
"""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path

import pytest

from app.agent.client import BadRequest, Client
from gate.redact import SECRET_ARGS, redact_name, sanitize_action, secret_name

POLICY = """
[gate]
modes = { shell = "allow" }

[fence]
enabled = false
required = false

[limits]
actions_per_minute = 1000
max_steps = 1000
"""

COMMANDS = [
    ("zip -P Zp1zipSecretA1 out.zip notes.txt", "Zp1zipSecretA1"),
    ("zip -PZp2zipSecretB2 -r out.zip dir", "Zp2zipSecretB2"),
    ("unzip -P Uz3unzipSecretC3 in.zip", "Uz3unzipSecretC3"),
    ("7z a -pSz4sevenSecretD4 out.7z dir", "Sz4sevenSecretD4"),
    ("rar a -pRr5rarSecretE5 out.rar dir", "Rr5rarSecretE5"),
    ("redis-cli -h cache -a Rc6redisSecretF6 ping", "Rc6redisSecretF6"),
    ("smbclient //nas/share -U bob%Sm7smbSecretG7", "Sm7smbSecretG7"),
    ("smbclient //nas/share -Ubob%Sm8smbSecretH8 -c ls", "Sm8smbSecretH8"),
    ("mysql -u root -pMy9mysqlSecretJ9 db", "My9mysqlSecretJ9"),
    ("sshpass -pSs1sshpassSecretK1 ssh host", "Ss1sshpassSecretK1"),
    ("ldapsearch -x -D cn=admin -w Ld2ldapSecretL2 -b dc=x", "Ld2ldapSecretL2"),
    ("lftp -u bob,Lf3lftpSecretM3 ftp.example", "Lf3lftpSecretM3"),
    ("keytool -list -keystore k.jks -storepass Kt4keytoolSecretN4", "Kt4keytoolSecretN4"),
    ("xfreerdp /u:bob /p:Xf5rdpSecretO5 /v:host", "Xf5rdpSecretO5"),
    ("mosquitto_pub -u bob -P Mq6mqttSecretP6 -t t -m m", "Mq6mqttSecretP6"),
    ("sqlcmd -S db -U sa -P Sq7sqlcmdSecretQ7", "Sq7sqlcmdSecretQ7"),
    ("rabbitmqctl add_user bob Rb8rabbitSecretR8", "Rb8rabbitSecretR8"),
    ("wpa_passphrase homenet Wp9wifiSecretS9", "Wp9wifiSecretS9"),
]
TOKEN_NAME = "ghp_" + "Tn1envNameSecret" + "x" * 20     # a token as a variable's name
REQUEST_ID = "glpat-" + "Ri2requestIdSecret" + "y" * 8   # a token as the request id
AGENT = "bob:Ag3agentNameSecret@build.example"          # an agent name with a password in it


def _raw(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists())


def _leaks(raw: bytes, secrets: list[str]) -> list[str]:
    found = []
    for s in secrets:
        digest = hashlib.sha256(s.encode()).hexdigest()
        if s.encode() in raw or digest.encode() in raw or digest[:12].encode() in raw:
            found.append(s)
    return found


@pytest.mark.parametrize(("command", "secret"), COMMANDS)
def test_the_table_hides_each_form(command, secret):
    assert secret not in json.dumps(sanitize_action({"type": "shell", "command": command}))
    assert secret not in json.dumps(sanitize_action({"type": "shell", "argv": command.split()}))


@pytest.mark.parametrize("command", ["ssh -p 2222 host", "zip -r out.zip dir", "7z x in.7z", "ls -a",
                                     "smbclient -L nas -U bob", "redis-cli ping", "mysql -u root -p db"])
def test_near_misses_stay_readable(command):
    assert sanitize_action({"type": "shell", "command": command})["command"] == command


def test_the_table_is_data():
    assert {"zip", "7z", "redis-cli", "smbclient", "mysql", "sshpass"} <= set(SECRET_ARGS)


@pytest.mark.parametrize("name", [TOKEN_NAME, REQUEST_ID, AGENT, "u:p4ssw0rd@10.0.0.1"])
def test_names_and_ids_are_checked_like_values(name):
    assert secret_name(name)
    assert name not in redact_name(name)


@pytest.mark.parametrize("name", ["my-agent", "claude-code:session-1", "req-42", "build@ci", "HOME", "a:b"])
def test_ordinary_names_stay(name):
    assert not secret_name(name) and redact_name(name) == name


def test_no_listed_form_reaches_the_database_files(deskgate_home, serve_in_process):
    home = deskgate_home(POLICY)
    rt = serve_in_process(home)
    with Client(home["socket"], timeout=60) as c, pytest.raises(BadRequest):  # refused: never stored
        c.hello(AGENT)
    with Client(home["socket"], timeout=60) as c:
        c.hello("shapes-test")
        for command, _ in COMMANDS:
            c.act({"type": "shell", "command": command}, execute=False)
        c.act({"type": "shell", "command": "true", "env": {TOKEN_NAME: "1"}}, execute=False)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # a raw request: the id is the agent's to choose
    s.connect(str(home["socket"]))
    f = s.makefile("rwb")
    for req in ({"v": 1, "id": "h", "op": "hello", "agent": "raw-agent"},
                {"v": 1, "id": REQUEST_ID, "op": "act", "action": {"type": "wait", "seconds": 0}}):
        f.write(json.dumps(req).encode() + b"\n")
        f.flush()
        assert json.loads(f.readline())["ok"] is True
    s.close()
    rt.audit.flush()
    secrets = [s for _, s in COMMANDS] + [TOKEN_NAME, REQUEST_ID, "Ag3agentNameSecret"]
    assert _leaks(_raw(home["db"]), secrets) == []
    rt.audit.close()
    assert _leaks(_raw(home["db"]), secrets) == []
