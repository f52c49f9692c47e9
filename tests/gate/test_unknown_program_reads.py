"""Reading sub-commands of programs the table does not describe (gate/nochange.py, convention 6, and the
`[read_verbs]` table of resources/programs.toml): `tool list`, `tool tunnel list`, `tool describe-instances`
and PowerShell's looking verbs pass; the same verbs with a URL, a host, a redirect out of the project, sudo, a
program run from /tmp, a code-running flag, a changing word or a word about secrets still ask."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.effects import program_effects
from gate.model import Assessment, Decision, action_from_dict
from gate.nochange import READ_VERBS, load_read_verbs

GATE = SafetyGate(default_policy())
UNKNOWN = "confirm.shell.unknown-program"


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


# made-up program names, so the table can never describe them and the convention alone decides
@pytest.mark.parametrize("command", [
    "wharfctl list",
    "wharfctl ls --all",
    "wharfctl status",
    "wharfctl tunnel list",
    "wharfctl pipeline runs list -n ci",
    "wharfctl config show",
    "wharfctl env get PORT",
    "wharfctl describe-clusters --region eu-west-1",
    "wharfctl list-profiles",
    "wharfctl inspect web-1 --format json",
    "wharfctl logs web-1 --tail 100",
    "wharfctl doctor",
    "wharfctl version",
    "wharfctl whoami",
    "wharfctl outdated",
    "wharfctl lint src/",
    "wharfctl validate deploy.yaml",
    "wharfctl diff main",
    "wharfctl list -o json",
    "wharfctl list --output table",
    "wharfctl list > reports/wharf.txt",
    "wharfctl list 2>/dev/null",
    "wharfctl get pods",
    "wharfctl list | grep web",
    # a listing flag, with nothing but noun words beside it
    "wharfctl --list-devices",
    "wharfctl --show-config",
    "wharfctl printers --status",
])
def test_reading_verbs_of_an_unknown_program_pass(command: str) -> None:
    got = shell(command)
    assert got.decision == Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", [
    # a network destination
    "wharfctl list https://api.example.net/v1",
    "wharfctl status deploy@build.example.net:",
    "wharfctl list 198.51.100.23",
    "wharfctl get github.com/acme/thing",
    # output written outside the project
    "wharfctl list > /etc/profile.d/wharf.sh",
    "wharfctl list -o ~/.config/autostart/x.desktop",
    "wharfctl list --export=/var/tmp/list.json",
    # another user, another machine, a path-run program, a program found by find
    "sudo wharfctl list",
    "/tmp/wharfctl list",
    "~/Downloads/wharfctl status",
    "find . -name '*.yml' -exec wharfctl validate {} \\;",
    # code handed to it, another command line, unknown words
    "wharfctl list --exec 'sh -c id'",
    "wharfctl status -c 'curl x'",
    "wharfctl list -- rm -rf build",
    "wharfctl list $TARGET",
    # a changing word among the operands, or a changing flag beside the verb
    "wharfctl rm list",
    "wharfctl list delete",
    "wharfctl status --fix",
    "wharfctl check --yes",
    # words about secrets
    "wharfctl token list",
    "wharfctl secrets show prod",
    "wharfctl list-api-keys",
    "wharfctl get password db",
    "wharfctl credential show",
    # no reading verb at all, or it comes too late
    "wharfctl sync",
    "wharfctl a b c list",
    # password managers read secrets with the same verbs
    "rbw get bank",
    # listing flags that are not: a listener, a secret printed, a script beside it
    "wharfctl --listen 0.0.0.0:9000",
    "wharfctl --print-secrets",
    "wharfctl --list-api-keys",
    "wharfctl deploy.sh --print-result",
    "wharfctl --show-config --exec 'sh -c id'",
])
def test_near_misses_still_ask(command: str) -> None:
    got = shell(command)
    assert got.decision != Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", [
    "Search-WharfItem -Name web",
    "Format-WharfReport -InputObject $r",
    "ConvertTo-WharfTable -Path inventory.csv",
    "Wait-WharfJob -Id 3",
])
def test_powershell_looking_verbs_pass(command: str) -> None:
    got = shell(command)
    assert got.decision == Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", [
    "Get-WharfReplicationAccount -All",
    "Get-WharfProcessMemory -Id 4",
    "Search-WharfCredential -Name svc",
    "ConvertFrom-WharfSecureString $s",
    "Get-WharfLsassDump",
    "Invoke-WharfScan -Target web",
    # the verb's other sense, on a disk or a device
    "Format-WharfDisk -Number 1",
    "Format-WharfSDCard -Drive E",
    "ConvertTo-WharfGpt -Disk 0",
    "Set-WharfItem -Name web",
])
def test_powershell_secret_nouns_and_other_verbs_ask(command: str) -> None:
    got = shell(command)
    assert got.decision != Decision.ALLOW, (command, got.rules)


def test_other_findings_still_count() -> None:
    # the convention drops only the unknown-program ask: a write into a start-up folder is still judged
    got = shell("wharfctl list > ~/.bashrc")
    assert got.decision != Decision.ALLOW
    assert UNKNOWN not in shell("wharfctl list").rules


def test_the_table_is_checked() -> None:
    assert "list" in READ_VERBS.verbs and "run" in READ_VERBS.changing
    assert program_effects("wharfctl") is None
    with pytest.raises(ValueError):
        load_read_verbs({"read_verbs": {"verbs": ["list"], "bogus": []}})
    with pytest.raises(ValueError):
        load_read_verbs({"read_verbs": {"verbs": ["list", "run"], "changing": ["run"]}})
    assert not READ_VERBS.verbs & READ_VERBS.changing
