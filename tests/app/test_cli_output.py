"""The command line's output convention (text for people, --json for scripts), --version, DESKGATE_SOCKET,
and `do` reporting a failed step as a failure — against a real supervisor served in this process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app import __version__
from app.cli.main import main
from app.config import default_paths

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def served(deskgate_home, serve_in_process, monkeypatch):
    home = deskgate_home("")
    serve_in_process(home)
    # every client below finds the supervisor through the environment only
    monkeypatch.setenv("DESKGATE_SOCKET", str(home["socket"]))
    return home


def test_version() -> None:
    r = subprocess.run([sys.executable, "-m", "app.cli.main", "--version"], capture_output=True, text=True, cwd=ROOT,
                       timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == f"deskgate {__version__}"
    from importlib.metadata import version

    assert version("deskgate") == __version__  # the package metadata reads the same one place


def test_socket_env_is_the_default_for_server_and_clients(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DESKGATE_SOCKET", str(tmp_path / "elsewhere" / "dg.sock"))
    assert default_paths().socket == tmp_path / "elsewhere" / "dg.sock"
    monkeypatch.setenv("DESKGATE_SOCKET", "~/dg.sock")
    assert default_paths().socket == Path.home() / "dg.sock"
    monkeypatch.setenv("DESKGATE_SOCKET", "")
    assert default_paths().socket.name == "deskgate.sock" and "elsewhere" not in str(default_paths().socket)


def test_act_prints_text_for_people_and_json_for_scripts(served, capsys) -> None:
    action = json.dumps({"type": "wait", "seconds": 0})
    assert main(["act", action]) == 0
    text = capsys.readouterr().out
    lines = dict(line.split(None, 1) for line in text.splitlines() if line and not line.startswith("audit"))
    assert lines["verdict"] == "executed" and lines["reason"] == "no rule applies"
    assert main(["act", action, "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert (reply["ok"], reply["verdict"], reply["decision"]) == (True, "executed", "allow")


def test_status_kill_resume_grants_share_the_convention(served, capsys) -> None:
    assert main(["status"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["state", "active"]
    assert "no agent sessions" in out and "no active grants" in out
    assert main(["kill", "--reason", "stop now"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("state") and "killed by command line" in out and "stop now" in out
    assert main(["status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["state"] == "killed"
    # resume needs the person at a terminal (a code typed back); a test process has none: a clear refusal
    assert main(["resume", "--json"]) == 2
    assert "needs you at a terminal" in capsys.readouterr().err
    assert main(["grants"]) == 0
    assert capsys.readouterr().out == "no active grants\n"


def test_grants_json_is_the_reply(served, capsys) -> None:
    assert main(["grants", "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["ok"] is True and reply["grants"] == []


def test_do_reports_a_failed_step_as_a_failure(served, capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no pactl, no amixer: the volume step cannot run
    assert main(["do", "set volume to 40", "--json"]) == 2
    captured = capsys.readouterr()
    reply = json.loads(captured.out)
    assert reply["ok"] is False and reply["verdict"] == "error"
    assert reply["steps"][0]["result"]["error"]["code"] == "unsupported"
    assert "deskgate: error: step 0 failed" in captured.err
    assert main(["do", "set volume to 40"]) == 2
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["verdict", "error"]
    step = next(line for line in out.splitlines() if line.startswith("0 "))
    assert "system volume" in step and "unsupported" in step


def test_errors_go_to_stderr_and_json_only_when_asked(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("DESKGATE_SOCKET", str(tmp_path / "nobody.sock"))
    assert main(["status"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "no deskgate at" in captured.err
    assert main(["status", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["ok"] is False


def test_a_failed_act_says_what_went_wrong_not_why_it_was_allowed(served, capsys, tmp_path) -> None:
    missing = tmp_path / "not-there.txt"
    action = json.dumps({"type": "file_read", "path": str(missing)})
    assert main(["act", action, "--json"]) == 2
    captured = capsys.readouterr()
    reply = json.loads(captured.out)
    assert reply["verdict"] == "error" and reply["reason"] == "no rule applies"
    message = reply["result"]["error"]["message"] if isinstance(reply["result"]["error"], dict) \
        else reply["result"]["error"]
    assert captured.err == f"deskgate: error: {message}\n" and "no rule applies" not in captured.err


@pytest.fixture
def served_unfenced(deskgate_home, serve_in_process, monkeypatch, tmp_path):
    home = deskgate_home("[fence]\nenabled = false\nrequired = false\n")
    serve_in_process(home)
    monkeypatch.setenv("DESKGATE_SOCKET", str(home["socket"]))
    return home


def test_act_prints_what_the_command_produced_in_text_mode(served_unfenced, capsys, tmp_path) -> None:
    action = json.dumps({"type": "shell", "argv": ["sh", "-c", "echo hello; echo oops >&2"], "cwd": str(tmp_path)})
    assert main(["act", action]) == 0
    text = capsys.readouterr().out
    assert text.startswith("verdict")
    assert "exit status: 0\n--- output ---\nhello\n--- errors ---\noops\n" in text
    assert main(["act", action, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["stdout"] == "hello\n"  # --json unchanged
