"""The fence fits real work: a networked command a person approves "with network" reaches the network
(here a package server on this machine's loopback, which the fence's own network namespace cannot see);
approved without it, it fails at once and its error says why; an allow rule can grant network; the
session's project directory is writable inside the fence. Runs the real executor and bubblewrap."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

from app.agent.client import Client
from app.execute.fence import Fence
from app.ports import Answer, Reply
from gate import default_policy

if not Fence(default_policy().fence).check().available:
    pytest.skip("bubblewrap cannot create a sandbox on this machine", allow_module_level=True)

POLICY = """
[gate]
modes = { shell = "ask" }

[fence]
writable = ["~/deskgate-work"]

[[allow]]
id = "fetch-with-wget"
types = ["shell"]
command = "wget *"
network = true
"""


class Person:
    def __init__(self, *answers: Answer) -> None:
        self.answers = list(answers)
        self.asked = []

    def ask(self, request, timeout):
        self.asked.append(request)
        return Reply(self.answers.pop(0), by="person")

    def cancel_all(self, reason: str) -> None:
        pass


@pytest.fixture
def package_server(tmp_path: Path):
    served = tmp_path / "registry"
    served.mkdir()
    (served / "left-pad-1.3.0.tgz").write_bytes(b"left-pad package bytes\n")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/left-pad-1.3.0.tgz"
    server.shutdown()
    thread.join(5)


@pytest.fixture
def start(tmp_path: Path, monkeypatch, deskgate_home, serve_in_process):
    """run(person) starts a headless deskgate (a throwaway HOME with a project in it); returns its socket."""
    home_dir = tmp_path / "home"
    project = home_dir / "code" / "app"
    project.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home_dir))
    home = deskgate_home(POLICY)

    def run(person):
        serve_in_process(home, approver=person)
        return home["socket"]

    return run, project


def test_an_approved_networked_install_succeeds_with_network(start, package_server) -> None:
    run, project = start
    person = Person(Answer.APPROVE_NETWORK, Answer.APPROVE_ONCE)
    sock = run(person)
    fetch = {"type": "shell", "command": f"curl -sS -o left-pad.tgz {package_server}"}
    with Client(sock, timeout=60) as dg:
        dg.hello("installer", project=project)
        done = dg.act(fetch)
        offered = person.asked[0]
        assert offered.network == "curl"  # the dialog offers "Approve with network" for a networked program
        assert done["verdict"] == "executed", done
        # it ran in the project (its cwd), which is writable inside the fence
        assert (project / "left-pad.tgz").read_bytes() == b"left-pad package bytes\n"

        # approved without network: it fails at once, and the error says why
        (project / "left-pad.tgz").unlink()
        failed = dg.act(fetch)
        assert failed["verdict"] == "error", failed
        assert failed["result"]["network_blocked"] is True
        assert "could not reach the network" in failed["result"]["error"]
        assert not (project / "left-pad.tgz").exists()


def test_an_allow_rule_can_grant_network(start, package_server) -> None:
    run, project = start
    person = Person()  # nobody is asked: the rule decides
    sock = run(person)
    with Client(sock, timeout=60) as dg:
        dg.hello("fetcher", project=project)
        done = dg.act({"type": "shell", "command": f"wget -q -O pad.tgz {package_server}"})
    assert done["verdict"] == "executed" and done["rules"] == ["allow.policy.fetch-with-wget"], done
    assert (project / "pad.tgz").exists() and person.asked == []


def test_a_command_that_is_not_networked_is_not_offered_network(start) -> None:
    run, project = start
    person = Person(Answer.APPROVE_ONCE)
    sock = run(person)
    with Client(sock, timeout=60) as dg:
        dg.hello("lister", project=project)
        assert dg.act({"type": "shell", "command": "ls"})["verdict"] == "executed"
    assert person.asked[0].network == ""


def test_without_network_package_managers_give_up_at_once_and_say_why(tmp_path) -> None:
    import msgspec

    from app.execute.executor import Executor
    from gate.model import action_from_dict

    base = default_policy()
    policy = msgspec.structs.replace(base, fence=msgspec.structs.replace(base.fence, writable=[str(tmp_path)]))
    ex = Executor(policy)
    # the retry settings npm, pip and cargo read: one try, not a minute of retries against no network
    env = ex.execute(action_from_dict({"type": "shell", "cwd": str(tmp_path), "command":
                                       "echo $npm_config_fetch_retries $PIP_RETRIES $CARGO_NET_RETRY"}))
    assert env.ok and env.detail["fenced"] and env.detail["stdout"] == "0 0 0\n"
    failed = ex.execute(action_from_dict({"type": "shell", "cwd": str(tmp_path),
                                          "command": "curl -sS https://registry.npmjs.org/left-pad"}))
    assert not failed.ok and failed.detail["network_blocked"] is True
    assert "could not reach the network" in failed.detail["error"]
    # a command that fails for another reason is not blamed on the network
    other = ex.execute(action_from_dict({"type": "shell", "cwd": str(tmp_path), "command": "ls /nonexistent"}))
    assert not other.ok and "network_blocked" not in other.detail
