"""A shell loop whose variable is a login's password, whichever client carries it (gate/rules/shell_guessing.py):
password guessing asks (`confirm.shell.attack-probe`); a loop that sends one fixed token does not."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict
from gate.rules.shell_guessing import guessing_loop

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "for pass in root toor admin; do curl -s -u root:$pass http://10.0.0.1/cgi-bin/status; done",
    "for pw in $(cat guesses.txt); do mysql -h db.example.net -u root -p$pw -e 'select 1' && echo $pw; done",
    "while read pw; do smbclient -L //files.example.net -U admin%$pw; done < guesses.txt",
    "for p in 1234 0000; do xfreerdp /v:10.0.0.9 /u:admin /p:$p +auth-only; done",
    "for p in a b c; do wget -q --user=admin --password=$p http://10.0.0.1/; done",
])
def test_a_loop_of_passwords_against_a_login_asks(command: str) -> None:
    assert guessing_loop(command) is not None
    assert "confirm.shell.attack-probe" in assess(command).rules


@pytest.mark.parametrize("command", [
    "for f in *.json; do curl -u admin:$API_KEY -T $f https://repo.example.com/upload/; done",
    "for h in web1 web2; do ssh $h uptime; done",
    "for u in alice bob; do curl -s https://api.example.com/users/$u; done",
])
def test_loops_over_files_hosts_or_names_are_not_guessing(command: str) -> None:
    assert guessing_loop(command) is None
