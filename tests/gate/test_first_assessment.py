"""The first assessment of an action after the gate is built compiles nothing: a regex a check uses is compiled
at import or with the policy (gate/compiled.py), never on first use (CONTRIBUTING: no regex compiled inside
a check). `re` keeps what its module functions compile in a cache a policy reload can push out, so a pattern
written inside a check is paid for again by the first request after a reload."""

from __future__ import annotations

import re
import re._compiler

import pytest

from gate import SafetyGate, action_from_dict

# one of each kind of action, and shell lines that reach the checks of setuid modes, ownership by root,
# downloads into a file, pinned installs, remote tools and Windows shells
ACTIONS = [
    {"type": "shell", "command": "git status --short"},
    {"type": "shell", "command": "chmod 4755 /tmp/helper"},
    {"type": "shell", "command": "chmod 755 ./build.sh"},
    {"type": "shell", "command": "sudo chown root:root /usr/local/bin/tool"},
    {"type": "shell", "command": "wget -O /tmp/x.sh https://example.com/x.sh"},
    {"type": "shell", "command": "curl -fsSLo /tmp/y https://example.com/y"},
    {"type": "shell", "command": "pip install requests==2.31.0"},
    {"type": "shell", "command": "python3 /opt/tools/secretsdump.py corp/admin@10.0.0.5"},
    {"type": "shell", "command": "psexec -s -c cmd.exe \\\\host"},
    {"type": "shell", "command": "scp ./report.csv backup-host:/srv/reports/"},
    {"type": "click", "x": 10, "y": 20, "target": {"label": "Place order"}},
    {"type": "type", "text": "my password is hunter2", "target": {"label": "Password"}},
    {"type": "key", "keys": ["ctrl", "s"]},
    {"type": "navigate", "url": "https://en.wikipedia.org/wiki/SQLite"},
    {"type": "file_read", "path": "~/project/README.md"},
    {"type": "file_write", "path": "~/.ssh/authorized_keys", "content": "ssh-ed25519 AAAA"},
]


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The patterns `re` compiles from now on (what its cache does not hold)."""
    seen: list[str] = []
    own = re._compiler.compile

    def counted(pattern: object, flags: int) -> object:
        seen.append(str(pattern))
        return own(pattern, flags)

    monkeypatch.setattr(re._compiler, "compile", counted)
    return seen


def test_the_first_assessment_compiles_no_regex(compiles: list[str]) -> None:
    gate = SafetyGate()
    re.purge()  # what another policy or a reload pushed out of `re`'s cache
    del compiles[:]
    decisions = [gate.assess(action_from_dict(a)).decision.value for a in ACTIONS]
    assert compiles == [], f"compiled on first use: {compiles}"
    assert decisions[0] == "allow" and "block" in decisions  # the actions were judged, not refused as malformed


def test_a_gate_that_enforces_builds_the_package_slip_indexes_with_its_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The index that finds a slip of a known package name (`pip install reqeusts`) is tens of thousands of keys:
    a gate built by a process that does not store what it compiles (the supervisor) builds it with its policy,
    so the first install of an unknown name pays nothing for it. `deskgate check` (it stores) stays lazy."""
    from gate import packages, regex_store

    indexes = [i for eco in packages._DATA.ecosystems.values() for i in eco.indexes]
    built = [index._near for index in indexes]
    try:
        for index in indexes:
            object.__setattr__(index, "_near", None)  # (as a fresh process has them; the class is frozen)
        monkeypatch.setattr(regex_store, "_keeping", True)
        SafetyGate()
        assert all(index._near is None for index in indexes)  # a storing process builds none of them up front
        monkeypatch.setattr(regex_store, "_keeping", False)
        gate = SafetyGate()
        assert all(index._near is not None for index in indexes)
        slip = gate.assess(action_from_dict({"type": "shell", "command": "pip install reqeusts"}))
        assert "misspelling of requests" in slip.reason  # found with the index built up front
    finally:
        for index, near in zip(indexes, built, strict=True):
            if near is not None:
                object.__setattr__(index, "_near", near)
