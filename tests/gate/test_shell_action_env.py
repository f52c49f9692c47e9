"""A shell action's environment is read into its command: a word naming one of its variables is that variable's
value (`cat $KEY` with KEY a private key's path reads the key), in POSIX shells and PowerShell alike, and the rules
about what a variable does see it set. An argv list runs without a shell: `$KEY` there is a literal word."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(**action: object):
    return GATE.assess(action_from_dict({"type": "shell", **action}))


@pytest.mark.parametrize(("command", "env", "rule"), [
    ("cat $KEYFILE", {"KEYFILE": "/home/sam/.ssh/id_ed25519"}, "block.shell.credential-read"),
    ("rm -rf \"$TARGET\"", {"TARGET": "/home/sam"}, "block.shell.recursive-delete-root"),
    ("Get-Content $env:KEYFILE", {"KEYFILE": "C:/Users/sam/.ssh/id_ed25519"}, "block.shell.credential-read"),
    ("ls", {"LD_PRELOAD": "/tmp/hook.so"}, "block.shell.loader-hook"),
])
def test_a_variable_the_action_sets_is_read_as_its_value(command: str, env: dict, rule: str) -> None:
    got = assess(command=command, env=env)
    assert got.decision is Decision.BLOCK and rule in got.rules, (command, got.rules)


def test_a_verb_given_in_the_environment_is_the_programs_verb() -> None:
    got = assess(command="mkdocs $STEP", env={"STEP": "gh-deploy"})
    assert got.decision is Decision.CONFIRM and "confirm.shell.publish" in got.rules, got.rules


@pytest.mark.parametrize(("command", "env"), [
    ("npm test", {"NODE_ENV": "test", "CI": "1"}), ("cat $NOTES", {"NOTES": "docs/notes.md"}),
    ("echo $GREETING", {"GREETING": "it's fine"}),
])
def test_ordinary_variables_pass(command: str, env: dict) -> None:
    assert assess(command=command, env=env).decision is Decision.ALLOW, command


def test_an_argv_list_runs_no_shell_so_a_dollar_word_is_literal() -> None:
    got = assess(argv=["cat", "$KEYFILE"], env={"KEYFILE": "/home/sam/.ssh/id_ed25519"})
    assert "block.shell.credential-read" not in got.rules, got.rules


def test_a_powershell_environment_variable_set_on_the_line_is_its_value() -> None:
    got = assess(command="$env:K = 'C:/Users/sam/.ssh/id_ed25519'; Get-Content $env:K")
    assert got.decision is Decision.BLOCK and "block.shell.credential-read" in got.rules, got.rules


def test_a_policy_allow_rule_with_an_environment_still_matches_its_command() -> None:
    import msgspec

    from gate.policy import AllowRule

    policy = default_policy()
    rule = AllowRule(id="ci-tests", command="npm test", env={"CI": "1"})
    gate = SafetyGate(msgspec.structs.replace(policy, allow=(*policy.allow, rule)))
    got = gate.assess(action_from_dict({"type": "shell", "command": "npm test", "env": {"CI": "1"}}))
    assert got.rules == ("allow.policy.ci-tests",), got.rules
    other = gate.assess(action_from_dict({"type": "shell", "command": "npm test", "env": {"CI": "0"}}))
    assert "allow.policy.ci-tests" not in other.rules
