"""A wider rule chosen in the confirmation ("Allow edits in this folder", "Allow “npm run test:*” here",
"Allow clicks in this app except consequential ones") lands in the person's policy file and a restarted
deskgate applies it: the same kind of action in that folder runs with no question."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.agent.client import Client
from app.ports import Answer, Reply
from gate import load_policy

POLICY = """\
# my policy
[fence]
enabled = false
required = false
"""


class Person:
    """Answers every confirmation with the wider rule the dialog offers, and remembers what it saw."""

    def __init__(self) -> None:
        self.asked = []

    def ask(self, request, timeout):
        self.asked.append(request)
        return Reply(Answer.ALLOW_WIDER if request.wider_rule else Answer.DENY, by="person")

    def cancel_all(self, reason: str) -> None:
        pass


@pytest.fixture
def start(deskgate_home, serve_in_process):
    """run(person) starts a headless deskgate on the policy file; stop() stops the last one (a restart)."""
    home = deskgate_home(POLICY)
    running = []

    def run(approver):
        running.append(serve_in_process(home, approver=approver))
        return home["socket"]

    def stop():
        serve_in_process.stop(running.pop())

    return run, stop, home["policy"]


def test_a_folder_rule_added_from_the_dialog_applies_after_a_restart(start, tmp_path) -> None:
    run, stop, policy = start
    site = Path("/srv/www-deskgate-test/site")  # outside the sandbox roots: writes there ask
    person = Person()
    sock = run(person)
    with Client(sock) as dg:
        dg.hello("editor")
        first = dg.act({"type": "file_write", "path": str(site / "index.html"), "content": "<h1>hi</h1>"},
                       execute=False)
    assert first["decision"] == "confirm" and first["verdict"] == "allowed" and first["decided_by"] == "person"
    (request,) = person.asked
    assert request.wider_label == "Allow edits in this folder"
    assert request.action["content"] == "<h1>hi</h1>"  # the person reads what will be written
    assert request.preview_png is None  # and no screenshot of whatever window is in front
    assert [(r.types, r.path) for r in load_policy(policy).allow] == [(["file_write", "file_move"], f"{site}/*")]
    assert policy.read_text().startswith(POLICY)  # the person's own lines are kept
    stop()

    sock = run(Person())  # a new deskgate reads the file
    with Client(sock) as dg:
        dg.hello("editor")
        again = dg.act({"type": "file_write", "path": str(site / "css" / "site.css"), "content": "h1{}"},
                       execute=False)
        assert again["decision"] == "allow" and again["rules"] == ["allow.policy.edits-srv-www-deskgate-test-site"]
        elsewhere = dg.act({"type": "file_write", "path": "/srv/www-deskgate-test/other/a.html", "content": "x"},
                           execute=False)
        assert elsewhere["decision"] == "confirm"  # another folder still asks
        blocked = dg.act({"type": "file_write", "path": "/etc/hosts", "content": "x"}, execute=False)
        assert blocked["decision"] == "block"


def test_program_here_and_app_rules_are_offered_with_their_words(start, tmp_path) -> None:
    run, _, policy = start
    person = Person()
    sock = run(person)
    with Client(sock) as dg:
        dg.hello("coder")
        # a program the table does not know asks; the rule offered covers its subcommand in this folder
        dg.act({"type": "shell", "command": "frobnicate run test:unit", "cwd": str(tmp_path)}, execute=False)
    (request,) = person.asked
    assert request.wider_label == "Allow “frobnicate run test:*” here"
    (rule,) = load_policy(policy).allow
    assert rule.command == "frobnicate run test:*" and rule.cwd == f"{tmp_path}*"
    with Client(sock) as dg:
        dg.hello("coder-2")
        again = dg.act({"type": "shell", "command": "frobnicate run test:e2e", "cwd": str(tmp_path / "web")},
                       execute=False)
        assert again["decision"] == "allow"
        assert dg.act({"type": "shell", "command": "frobnicate run deploy", "cwd": str(tmp_path)},
                      execute=False)["decision"] == "confirm"


def test_a_secret_in_the_content_stays_hidden_from_the_dialog(start) -> None:
    run, _, _ = start
    person = Person()
    sock = run(person)
    key = "AKIA" + "IOSFODNN7EXAMPLE"
    with Client(sock) as dg:
        dg.hello("writer")
        dg.act({"type": "file_write", "path": "/srv/www-deskgate-test/conf.ini", "content": f"key={key}\n"},
               execute=False)
    (request,) = person.asked
    assert key not in repr(request.action) and request.action["content"]["redacted"] is True
