"""No secret reaches the audit database, in any form: the raw bytes of the .db, -wal and -shm files are
searched for each secret and for its plain SHA-256 (a well-known digest is as good as the password).
Real server, supervisor, gate, executor and SQLite file."""

from __future__ import annotations

import hashlib
from pathlib import Path

from app.agent.client import Client

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

RULES = """
[[rule]]
id = "reads"
decision = "approve"
types = ["file_read"]
"""

# (request, the secret in it). Every secret is unique so a hit names its case.
COMMANDS = [
    ("PGPASSWORD=Vx9pgSecretA1 psql -h db -U app", "Vx9pgSecretA1"),
    ("MYSQL_PWD=Mq7mysqlSecretB2 mysql -u root", "Mq7mysqlSecretB2"),
    ("docker login -u me -p Dk4dockerSecretC3 registry.example", "Dk4dockerSecretC3"),
    ("docker login --password Dk5dockerSecretD4 registry.example", "Dk5dockerSecretD4"),
    ("podman login -u me -pPd1podmanSecretE5 registry.example", "Pd1podmanSecretE5"),
    ("htpasswd -b /tmp/h admin Ht6htpasswdSecretF6", "Ht6htpasswdSecretF6"),
    ("htpasswd -bc /tmp/h admin Ht7htpasswdSecretG7", "Ht7htpasswdSecretG7"),
    ("curl -u alice:Cu2curlSecretH8 https://api.example", "Cu2curlSecretH8"),
    ("curl -H 'Authorization: Token Au3headerSecretI9' https://api.example", "Au3headerSecretI9"),
    ("curl -H 'Cookie: session=Ck8cookieSecretJ1; theme=dark' https://x.example", "Ck8cookieSecretJ1"),
    ("curl --cookie 'sid=Ck9cookieSecretK2' https://x.example", "Ck9cookieSecretK2"),
    ("vault login hvs.CAESIJ1vaultSecretL3xyzabcdef", "hvs.CAESIJ1vaultSecretL3xyzabcdef"),
    ("vault login Vt2vaultSecretM4", "Vt2vaultSecretM4"),
    ("git clone https://bob:Ur1urlSecretN5@git.example/r.git", "Ur1urlSecretN5"),
    ("curl 'https://api.example/v1?token=Qt5querySecretO6&x=1'", "Qt5querySecretO6"),
    ("curl 'https://api.example/v1?access_token=Qa6accessSecretP7'", "Qa6accessSecretP7"),
    ("curl 'https://api.example/v1?x=1&api_key=Qk7apikeySecretQ8'", "Qk7apikeySecretQ8"),
    ("mysql -uroot -pMp9mysqlSecretR9 db", "Mp9mysqlSecretR9"),
    ("sshpass -p Sp3sshpassSecretS1 ssh host", "Sp3sshpassSecretS1"),
    ("openssl enc -aes-256-cbc -in f -pass pass:Os4opensslSecretT2", "Os4opensslSecretT2"),
    ("openssl rsa -in k.pem -passin pass:Os5opensslSecretU3", "Os5opensslSecretU3"),
    ("deploy-tool --password=Gp1genericSecretV4", "Gp1genericSecretV4"),
    ("deploy-tool --token Gt2genericSecretW5", "Gt2genericSecretW5"),
    ("deploy-tool --api-key=Gk3genericSecretX6 run", "Gk3genericSecretX6"),
    ("wget --http-password=Wg1wgetSecretY7 https://x.example/f", "Wg1wgetSecretY7"),
]
ARGV = [
    (["docker", "login", "-p", "Dk6argvSecretZ8", "registry.example"], "Dk6argvSecretZ8"),
    (["htpasswd", "-nb", "user", "Hn7argvSecretA9"], "Hn7argvSecretA9"),
    (["curl", "-H", "Cookie: sid=Ck1argvSecretB1", "https://x.example"], "Ck1argvSecretB1"),
    (["vault", "login", "Vt3argvSecretC2"], "Vt3argvSecretC2"),
]
TYPED = "hunter2"
STDOUT = "Qu0kkaStdoutMarker4419"
FILE_CONTENT = "Zebr4FileContentMarker7781"


def _raw(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists())


def _leaks(raw: bytes, secrets: list[str]) -> list[str]:
    found = []
    for s in secrets:
        digest = hashlib.sha256(s.encode()).hexdigest()
        if s.encode() in raw or digest.encode() in raw or digest[:12].encode() in raw \
                or hashlib.sha256(s.encode()).digest() in raw:
            found.append(s)
    return found


def test_no_secret_reaches_the_database_files(deskgate_home, serve_in_process, tmp_path):
    home = deskgate_home(POLICY, RULES)
    rt = serve_in_process(home)
    data = tmp_path / "notes.txt"
    data.write_text(FILE_CONTENT)
    with Client(home["socket"], timeout=60) as c:
        c.hello("secrets-test")
        for command, _ in COMMANDS:
            c.act({"type": "shell", "command": command}, execute=False)
        for argv, _ in ARGV:
            c.act({"type": "shell", "argv": argv}, execute=False)
        c.act({"type": "type", "text": TYPED, "target": {"label": "Password", "role": "textbox"}},
              execute=False)
        # the output is made by the command, not spelled in it (the command itself is logged)
        ran = c.act({"type": "shell", "command": f"printf %s%s {STDOUT[:6]} {STDOUT[6:]}"})
        assert ran["verdict"] == "executed" and STDOUT in ran["result"]["stdout"]  # the agent still gets it
        read = c.act({"type": "file_read", "path": str(data)})
        assert read["verdict"] == "executed" and read["result"]["content"] == FILE_CONTENT
    rt.audit.flush()
    secrets = [s for _, s in COMMANDS] + [s for _, s in ARGV] + [TYPED, STDOUT, FILE_CONTENT]
    assert _leaks(_raw(home["db"]), secrets) == []
    rt.audit.close()
    assert _leaks(_raw(home["db"]), secrets) == []
