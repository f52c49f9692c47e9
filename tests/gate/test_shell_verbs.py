"""A program the table knows, told to delete by a sub-command its entry does not name, asks (`keepassxc-cli rm`,
`pulumi stack rm`); package and version managers, version control, caches, dry runs, help, programs that only read
or print, a flag's value and programs whose delete verbs the shell rules weigh already do not."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "keepassxc-cli rm vault.kdbx Personal/bank", "b2 rm my-bucket/reports",
    "kaggle datasets delete me/old-data", "dvc destroy", "orb delete dev-vm",
])
def test_a_known_programs_delete_verb_asks(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.destructive" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "npm uninstall lodash", "cargo remove serde", "uv cache prune", "git remote remove upstream", "tldr kill",
    "echo delete", "grep -rn remove src/", "make clean", "aws s3 rm s3://bucket/key --dryrun",
    "pulumi stack rm --help", "chezmoi forget ~/.bashrc", "kind delete cluster --name e2e", "docker image prune -f",
    "curl -X DELETE http://localhost:8000/api/items/12", "direnv revoke",
])
def test_managers_readers_and_looks_pass(command: str) -> None:
    assert "confirm.shell.destructive" not in assess(command).rules, command


@pytest.mark.parametrize("command", [
    "kaggle --verbose datasets delete me/old-data", "keepassxc-cli --quiet rm vault.kdbx Personal/bank",
    "b2 --profile work rm my-bucket/reports", "kopia --log-level=debug snapshot delete k1f2",
])
def test_a_delete_verb_past_global_flags_asks(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.destructive" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", ["s3cmd rm s3://team-notes/2019/", "s5cmd rm 's3://team-notes/old/*'",
                                     "gsutil rm gs://team-notes/2019/summary.pdf"])
def test_a_program_a_family_of_checks_weighs_still_asks_for_a_delete_verb_they_do_not(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.destructive" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", ["kaggle datasets list --sort-by delete", "b2 --profile remove ls my-bucket"])
def test_a_flags_value_is_not_a_delete_verb(command: str) -> None:
    assert "confirm.shell.destructive" not in assess(command).rules, command


@pytest.mark.parametrize("command", ["kopia server start --address 0.0.0.0:51515", "hugo server --bind 0.0.0.0",
                                     "kopia server start --address=[::]:51515", "H=0.0.0.0; hugo server --bind $H",
                                     "export ADDR=0.0.0.0; kopia server start --address=${ADDR}:51515",
                                     "BIND=0.0.0.0 hugo server --bind $BIND"])
def test_a_known_server_on_every_interface_asks(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.network" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", ["kopia server start --address 127.0.0.1:51515", "hugo server",
                                     "hugo server --bind localhost", "H=127.0.0.1; hugo server --bind $H",
                                     "hugo server --bind $HOST"])
def test_a_server_on_this_machine_alone_passes(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW, command


def test_each_group_of_programs_weighed_elsewhere_names_where() -> None:
    from gate.rules.shell_verbs import _ELSEWHERE, WEIGHED_ELSEWHERE
    from gate.rules.shell_vocab import _INFRA_DESTROY, DEV_CLUSTERS

    assert set(_INFRA_DESTROY) | DEV_CLUSTERS <= WEIGHED_ELSEWHERE["infrastructure"]
    assert frozenset().union(*WEIGHED_ELSEWHERE.values()) == _ELSEWHERE
    # a throwaway cluster passes where it is weighed; an infrastructure tool's delete asks there
    assert "confirm.shell.destructive" not in assess("k3d cluster delete dev").rules
    assert "confirm.shell.destructive" in assess("kubectl delete namespace payments").rules


@pytest.mark.parametrize("command", ["kaggle kernels run cleanup delete", "swift run admin-tool delete --all",
                                     'netsh advfirewall firewall delete rule name="Dev server"'])
def test_words_after_a_runner_and_a_program_checked_by_name_are_left_to_them(command: str) -> None:
    assert "confirm.shell.destructive" not in assess(command).rules, command
