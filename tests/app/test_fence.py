"""The bubblewrap fence: argv shape, and what a fenced command can and cannot do (real bwrap)."""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from app.execute.fence import Fence
from gate.policy import FencePolicy


def policy(writable: list[str], network: bool = False) -> FencePolicy:
    return FencePolicy(enabled=True, required=True, writable=writable, network=network, networked_programs=[])


def run(fence: Fence, script: str, cwd: str = "/") -> subprocess.CompletedProcess:
    return subprocess.run(fence.argv(["bash", "-c", script], cwd), capture_output=True, text=True, timeout=30)


needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


# -- argv ------------------------------------------------------------------------------------------


def test_argv_is_read_only_root_with_writable_binds_after_it(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    argv = Fence(policy([str(work)]), home=tmp_path).argv(["true"], str(work))
    assert argv[1:5] == ["--ro-bind", "/", "/", "--dev"]
    i = argv.index("--bind")
    assert argv[i + 1:i + 3] == [str(work), str(work)]
    assert argv.index("--ro-bind") < i
    assert "--tmpfs" in argv and argv[argv.index("--tmpfs") + 1] == "/tmp"  # /tmp is private unless writable
    for flag in ("--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session"):
        assert flag in argv
    assert argv[argv.index("--chdir") + 1] == str(work)
    assert argv[-2:] == ["--", "true"]


def test_network_flag_follows_policy(tmp_path):
    assert "--unshare-net" not in Fence(policy([], network=True), home=tmp_path).argv(["true"], "/")
    assert "--unshare-net" in Fence(policy([], network=False), home=tmp_path).argv(["true"], "/")


def test_writable_dirs_expand_create_under_home_and_skip_missing_elsewhere(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    outside = tmp_path / "not-there"
    fence = Fence(policy(["~/deskgate-work", str(outside), "relative/dir"]), home=home)
    dirs = fence.writable_dirs()
    assert dirs == [(home / "deskgate-work").resolve()]
    assert (home / "deskgate-work").is_dir()
    assert not outside.exists()


def test_writable_tmp_is_bound_and_runtime_dir_masked_after_it(tmp_path, monkeypatch):
    runtime = tmp_path / "run"
    runtime.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    argv = Fence(policy(["/tmp"]), home=tmp_path).argv(["true"], "/")
    bind = argv.index("--bind")
    assert argv[bind + 1] == "/tmp"
    assert ("--tmpfs", "/tmp") not in list(itertools.pairwise(argv))  # the real /tmp, not a private one
    mask = [i for i, a in enumerate(argv) if a == "--tmpfs" and argv[i + 1] == str(runtime.resolve())]
    assert mask and mask[0] > bind  # the mask comes after the bind, so it covers it


# -- availability ----------------------------------------------------------------------------------


def test_missing_bwrap_is_reported_unavailable_with_reason(tmp_path):
    status = Fence(policy([]), bwrap=str(tmp_path / "no-such-bwrap")).check()
    assert not status.available
    assert "not found" in status.reason


def test_failing_bwrap_reports_its_own_words(tmp_path):
    fake = tmp_path / "bwrap-broken"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    status = Fence(policy([]), bwrap=str(fake)).check()
    assert not status.available
    assert "No permissions to creating new namespace" in status.reason


@needs_bwrap
def test_real_bwrap_is_available_here():
    status = Fence(policy([])).check()
    assert status.available, status.reason


# -- behaviour inside the fence (real bwrap) -----------------------------------------------------------


@needs_bwrap
def test_system_paths_are_read_only(tmp_path):
    r = run(Fence(policy([str(tmp_path)]), home=tmp_path), "touch /usr/deskgate-fence-probe")
    assert r.returncode != 0
    assert "Read-only file system" in r.stderr
    assert not Path("/usr/deskgate-fence-probe").exists()


@needs_bwrap
def test_writable_dir_is_writable_and_the_write_lands_outside(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    r = run(Fence(policy([str(work)]), home=tmp_path), "echo fenced > out.txt", cwd=str(work))
    assert r.returncode == 0, r.stderr
    assert (work / "out.txt").read_text() == "fenced\n"


@needs_bwrap
def test_directory_not_listed_is_read_only(tmp_path):
    work, other = tmp_path / "work", tmp_path / "other"
    work.mkdir()
    other.mkdir()
    # /tmp itself is not writable here, so tmp_path (under /tmp) is hidden by the private /tmp
    fence = Fence(policy([str(work)]), home=tmp_path)
    r = run(fence, f"touch {other}/x")
    assert r.returncode != 0
    assert not (other / "x").exists()


@needs_bwrap
def test_network_is_off_even_to_a_listening_loopback_socket(tmp_path):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    try:
        probe = f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected"
        off = run(Fence(policy([]), home=tmp_path), probe)
        assert off.returncode != 0
        assert "connected" not in off.stdout
        links = run(Fence(policy([]), home=tmp_path), "ip -o link show | cut -d: -f2")
        assert links.stdout.split() == ["lo"]
        on = run(Fence(policy([], network=True), home=tmp_path), probe)
        assert on.returncode == 0 and "connected" in on.stdout  # the same probe works with the network on
    finally:
        server.close()


@needs_bwrap
def test_runtime_dir_sockets_are_masked_even_under_a_writable_tmp(tmp_path, monkeypatch):
    runtime = tmp_path / "run"
    runtime.mkdir()
    (runtime / "deskgate.sock").write_text("pretend socket")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    r = run(Fence(policy(["/tmp"]), home=tmp_path), f"ls -A {runtime}; touch {tmp_path}/visible")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ""            # the runtime dir is an empty tmpfs inside
    assert (tmp_path / "visible").exists()   # while /tmp itself is the real, writable one


@needs_bwrap
def test_fenced_processes_cannot_see_deskgate(tmp_path):
    r = run(Fence(policy([]), home=tmp_path), f"test -e /proc/{os.getpid()}/status && echo seen || echo hidden")
    assert r.stdout.strip() == "hidden"  # own PID namespace: deskgate's process is not there to signal or ptrace
