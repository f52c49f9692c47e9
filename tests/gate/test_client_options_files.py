"""A data client's own options file in the home, written with plain values, passes (gate/client_configs.py,
resources/client_configs.toml); a secret in it, a line that names a program to run, a start-up file that runs
commands, and the same name outside the home still ask or block.
"""

from __future__ import annotations

import os

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict

GATE = SafetyGate(default_policy())
HOME = os.path.expanduser("~")


def write(path: str, content: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "file_write", "path": path, "content": content}))


PLAIN = [
    (f"{HOME}/.bigqueryrc", "--location=EU\n[query]\n--max_rows=50\n"),
    (f"{HOME}/.cassandra/cqlshrc", "[connection]\nhostname = ring-a.example.lan\n[ui]\nfloat_precision = 3\n"),
    ("~/.pg_service.conf", "[reports]\nhost=pg.example.lan\ndbname=reports\nuser=viewer\n"),
]
NEAR = [
    (f"{HOME}/.cassandra/cqlshrc", "[authentication]\nusername = ana\npassword = Vx9!mQ2#rT7pL4zK\n"),
    (f"{HOME}/.bigqueryrc", "pager = ~/bin/page-it\n"),
    ("~/.psqlrc", "\\set QUIET on\n"),
    ("~/.sqliterc", ".headers on\n"),
    ("/etc/cassandra/cqlshrc", "[connection]\nport = 9142\n"),
    (f"{HOME}/.clickhouse-client/config.xml", "<config><host>ch.example.lan</host></config>\n"),
    ("~/.bashrc", "export PAGER=less\n"),
]


@pytest.mark.parametrize(("path", "content"), PLAIN)
def test_plain_client_settings_pass(path: str, content: str) -> None:
    assert write(path, content).decision.value == "allow", write(path, content)


@pytest.mark.parametrize(("path", "content"), NEAR)
def test_secrets_commands_and_other_places_still_ask(path: str, content: str) -> None:
    assert write(path, content).decision.value in ("confirm", "block"), write(path, content)
