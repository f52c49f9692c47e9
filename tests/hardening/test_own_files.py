"""deskgate's own files are out of an agent's reach, through every action type.

Before: `file_read` of the audit DB was allowed, and opening it inside the supervisor dropped SQLite's
POSIX locks (the person's next `log verify` then took the log out of service); the install key could be
copied out with `cp -r ~/.local/state`, `mv` or `file_read`, and with it a short redacted password was
recovered offline. Now the gate blocks every read, copy, move or archive of them (shell, file, tool,
Claude Code hook, MCP), the executor refuses them by real path and by inode before opening anything, and
inside the fence deskgate's directories are empty.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import msgspec
import pytest

from app.agent.claude_code import to_action
from app.execute.executor import Executor
from app.execute.safefs import Guard, own_paths
from gate import SafetyGate
from gate.model import action_from_dict
from gate.policy import FencePolicy, default_policy

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")

OWN = ("~/.local/share/deskgate/audit.db", "~/.local/share/deskgate/audit.db-wal",
       "~/.local/share/deskgate/audit.db-shm", "~/.local/state/deskgate/audit.key",
       "~/.local/state/deskgate/audit-chain/head.json", "~/.local/state/deskgate/killed.json",
       "~/.config/deskgate/policy.toml")


def decide(action: dict) -> str:
    return SafetyGate(default_policy()).assess(action_from_dict(action)).decision.value


def _abs(path: str) -> str:
    return os.path.expanduser(path)


@pytest.mark.parametrize("path", OWN)
def test_every_action_type_that_reads_or_moves_an_own_file_blocks(path):
    home_path = _abs(path)
    actions = [
        {"type": "file_read", "path": path},
        {"type": "file_move", "path": path, "to": "/tmp/out"},
        {"type": "file_write", "path": path, "content": "x"},
        {"type": "shell", "command": f"cat {path}"},
        {"type": "shell", "command": f"cp {path} /tmp/out"},
        {"type": "shell", "command": f"tar czf /tmp/o.tgz {path}"},
        {"type": "shell", "command": f"mv {path} /tmp/out"},
        {"type": "shell", "command": f"base64 < {path}"},
        {"type": "tool", "name": "read_file", "input": {"path": home_path}},          # an MCP server's tool
        {"type": "tool", "name": "Grep", "input": {"pattern": "x", "path": home_path}},
        to_action("Read", {"file_path": home_path}),                                # the Claude Code hook
        to_action("Bash", {"command": f"xxd {path}"}),
        to_action("Glob", {"pattern": "*", "path": os.path.dirname(home_path)}),
    ]
    for action in actions:
        assert decide(action) == "block", action


@pytest.mark.parametrize("command", [
    "cp -r ~/.local/state /tmp/s", "cp -a ~/.local /tmp/l", "tar czf /tmp/c.tgz ~/.config",
    "zip -r /tmp/c.zip ~/.local/share", "rsync -a ~/.local/state/ /tmp/s/", "grep -r password ~/.local/state",
])
def test_copying_or_archiving_a_tree_that_holds_them_blocks(command):
    assert decide({"type": "shell", "command": command}) == "block", command


@pytest.mark.parametrize("action", [
    {"type": "shell", "command": "ls -la ~/.local/share/deskgate"},
    {"type": "shell", "command": "cp -r ~/.config/nvim /tmp/nvim"},
    {"type": "file_read", "path": "~/notes/deskgate.md"},
    {"type": "tool", "name": "Grep", "input": {"pattern": "deskgate.sock", "path": "/srv/project"}},
])
def test_near_misses_pass(action):
    assert decide(action) != "block"


# -- the executor ------------------------------------------------------------------------------------


@pytest.fixture
def install(tmp_path: Path) -> dict[str, Path]:
    dirs = {name: tmp_path / name / "deskgate" for name in ("config", "data", "state", "run")}
    for d in dirs.values():
        d.mkdir(parents=True)
    db = dirs["data"] / "audit.db"
    (dirs["state"] / "audit.key").write_bytes(os.urandom(32))
    work = tmp_path / "work"
    work.mkdir()
    return {**dirs, "db": db, "work": work, "tmp": tmp_path}


def _executor(install: dict[str, Path], *, fence: bool = False) -> Executor:
    guard = own_paths(install["config"], install["data"], install["state"], install["run"], install["db"])
    policy = msgspec.structs.replace(default_policy(), fence=FencePolicy(
        enabled=fence, required=fence, writable=[str(install["tmp"])], network=False,
        networked_programs=[]))  # all of it visible
    return Executor(policy, guard=guard)


def test_the_executor_never_opens_its_own_db_even_through_a_hard_link(install):
    ex = _executor(install)
    conn = sqlite3.connect(install["db"], isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("BEGIN IMMEDIATE")  # a write lock held, as the audit writer holds it mid-commit
    conn.execute("INSERT INTO t VALUES (1)")
    alias = install["work"] / "innocent.txt"
    os.link(install["db"], alias)
    for path in (install["db"], Path(f"{install['db']}-wal"), alias, install["state"] / "audit.key"):
        r = ex.execute(action_from_dict({"type": "file_read", "path": str(path)}), judged=(str(path),))
        assert r.error is not None and r.error.code == "sandbox_denied", path
        assert "content" not in r.detail and "content_base64" not in r.detail
    r = ex.execute(action_from_dict({"type": "file_delete", "path": str(alias)}), judged=(str(alias),))
    assert r.error is not None and r.error.code == "sandbox_denied"
    other = sqlite3.connect(install["db"], timeout=0)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        other.execute("BEGIN IMMEDIATE")  # the lock is still held: nothing closed an fd of the DB
    conn.execute("COMMIT")


def test_a_hard_link_to_the_key_or_kill_state_is_refused(install):
    ex = _executor(install)
    (install["state"] / "killed.json").write_text('{"by": "person"}')
    for own in (install["state"] / "audit.key", install["state"] / "killed.json"):
        alias = install["work"] / f"copy-of-{own.name}"
        os.link(own, alias)
        for action in ({"type": "file_read", "path": str(alias)}, {"type": "file_delete", "path": str(alias)},
                       {"type": "file_write", "path": str(alias), "content": "{}"}):
            r = ex.execute(action_from_dict(action), judged=(str(alias),))
            assert r.error is not None and r.error.code == "sandbox_denied", (own, action)
            assert "content" not in r.detail
        assert own.exists() and alias.exists()


def test_the_executor_refuses_moves_and_writes_into_its_own_dirs(install):
    ex = _executor(install)
    src = install["work"] / "a"
    src.write_text("x")
    key = install["state"] / "audit.key"
    for action, judged in (
        ({"type": "file_move", "path": str(key), "to": str(install["work"] / "k")},
         (str(key), str(install["work"] / "k"))),
        ({"type": "file_move", "path": str(src), "to": str(install["config"] / "policy.toml")},
         (str(src), str(install["config"] / "policy.toml"))),
        ({"type": "file_write", "path": str(install["state"] / "killed.json"), "content": "{}"},
         (str(install["state"] / "killed.json"),)),
    ):
        r = ex.execute(action_from_dict(action), judged=judged)
        assert r.error is not None and r.error.code == "sandbox_denied", action
    assert key.exists() and not (install["config"] / "policy.toml").exists()


@needs_bwrap
def test_inside_the_fence_deskgate_dirs_are_empty(install):
    ex = _executor(install, fence=True)
    state_parent = install["state"].parent
    r = ex.execute(action_from_dict({"type": "shell", "cwd": str(install["work"]), "command":
                                     f"cp -r {state_parent} copy; ls -A copy/deskgate | wc -l; "
                                     f"cat {install['state']}/audit.key | wc -c"}))
    assert r.ok, r.detail
    assert r.detail["stdout"].split() == ["0", "0"]
    assert (install["work"] / "copy").is_dir()  # the copy itself ran: the directory was there, empty


def test_guard_of_ignores_the_root():
    assert Guard.of(["/"]).dirs == ()


@needs_bwrap
def test_a_db_outside_the_data_dir_is_hidden_in_the_fence_too(install, tmp_path):
    elsewhere = tmp_path / "srv" / "audit.db"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(b"SQLite format 3\0" + b"x" * 100)
    guard = own_paths(install["config"], install["data"], install["state"], install["run"], elsewhere)
    policy = msgspec.structs.replace(default_policy(), fence=FencePolicy(
        enabled=True, required=True, writable=[str(install["tmp"])], network=False,
        networked_programs=[]))
    r = Executor(policy, guard=guard).execute(action_from_dict(
        {"type": "shell", "cwd": str(install["work"]), "command": f"ls {elsewhere.parent}; cat {elsewhere}"}))
    assert r.detail["fenced"] is True and "audit.db" in r.detail["stdout"]  # the place is there...
    assert "SQLite" not in r.detail["stdout"]  # ...its content is not (an empty or unreadable stand-in)


@pytest.mark.parametrize("action", [
    {"type": "shell", "command": "mv ~/.local/state /tmp/s"},           # takes the kill state and head along
    {"type": "shell", "command": "rm -rf ~/.local/share"},
    {"type": "shell", "command": "chmod -R 777 ~/.local"},
    {"type": "file_move", "path": "~/.local/state", "to": "/tmp/s"},
])
def test_moving_or_deleting_a_directory_that_holds_them_blocks(action):
    assert decide(action) == "block", action
