"""An administrator's reads and checks pass, on all three platforms: a firewall's listings run as root, a
reading cmdlet whose noun names a certificate or the ActiveDirectory module's domain, values piped into a
cmdlet, the cloud command line's own settings and awk running one literal command line (gate/nochange.py,
gate/winshell.py, gate/effects.py, the `administration` section at the end of resources/programs.toml). The
same programs' changing uses, a private key, an enrolment and a command built from data still ask or block.
"""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict
from gate.nochange import PUBLIC_NOUNS, load_public_nouns
from gate.winshell import dialect

GATE = SafetyGate(default_policy())


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


PASSES = [
    # firewall listings as root
    "sudo ufw app list", "sudo ufw app info 'Nginx Full'", "sudo ufw show listening", "sudo pfctl -t abusers -T show",
    "sudo pfctl -t abusers -T test 203.0.113.9", "sudo psad --Status", "psad --fw-analyze -m /etc/psad/psad.conf",
    # reading cmdlets of certificates and of the ActiveDirectory module's domain
    "Get-CCertificate -StoreLocation CurrentUser -StoreName Root", "Get-CSslCertificateBinding",
    "Get-ADDomain -Current LocalComputer", "Get-ADDomainController -Discover -Service PrimaryDC",
    "Test-Certificate -Cert Cert:\\CurrentUser\\My\\0123ABCD -Policy SSL",
    # values piped into a reading cmdlet
    "'web01','web02' | Get-DbaDiskSpace", '"sql01" | Get-DbaAgentJob', "$instances | Get-DbaDbBackupHistory",
    # the Azure command line's own settings
    "az config set core.output=jsonc", "az config set defaults.group=rg-dev", "az config get core", "az config unset "
    "defaults.location",
    # awk running one literal command line, judged as that line
    "awk 'BEGIN { system(\"date +%F\") }'", "gawk 'END { system(\"printf done\") } { n++ }' notes.txt",
]

ASKS = [
    # the same programs changing rules
    "sudo ufw app update OpenSSH", "sudo ufw delete 3", "sudo pfctl -t abusers -T add 203.0.113.9",
    "sudo pfctl -t abusers -T flush", "sudo pfctl -t abusers -T show -d", "sudo psad --fw-block-ip 203.0.113.9",
    "sudo psad --Status -c /tmp/psad.conf",
    # a private key, a certificate template, a request for a new certificate, an attack kit's domain reads
    "Get-CertificatePrivateKey -Thumbprint 0123ABCD", "Get-CertificateTemplate -Name WebServer",
    "Get-Certificate -Template WebServer -Url ldap: -CertStoreLocation Cert:\\LocalMachine\\My",
    "Get-DomainController", "Get-NetDomain",
    # a changing cmdlet fed by a pipe, code fed to Invoke-Expression
    "$instances | Remove-DbaDbBackupRestoreHistory -KeepDays 0", "$code | Invoke-Expression",
    # the Azure command line's prompts, token cache and self-installs
    "az config set core.disable_confirm_prompt=true", "az config set extension.use_dynamic_install=yes_without_prompt",
    "az config set auto-upgrade.enable=no",
    # awk building its command from the data, or piping into a shell
    "awk '{ system(\"rm \" $1) }' list.txt", "awk '{ print | \"sh\" }' cmds.txt",
]


@pytest.mark.parametrize("command", PASSES)
def test_admin_reads_pass(command: str) -> None:
    a = shell(command)
    assert a.decision.value == "allow", (command, a.rules, a.reason)


@pytest.mark.parametrize("command", ASKS)
def test_changing_uses_still_ask(command: str) -> None:
    a = shell(command)
    assert a.decision.value != "allow", (command, a.rules)


def test_awk_literal_system_still_judged_as_its_line() -> None:
    assert shell("awk 'BEGIN { system(\"rm -rf /\") }'").decision.value == "block"


@pytest.mark.parametrize("line", ["'a','b' | Get-Thing", "$list | Get-Thing", "$x.Name | Select-Object -First 1"])
def test_values_piped_into_a_cmdlet_are_powershell(line: str) -> None:
    assert dialect(line) == "ps"


@pytest.mark.parametrize("line", ["$cmd | sh", "'a' | grep a", "$HOME/bin/tool | tee log"])
def test_values_piped_into_a_program_stay_bash(line: str) -> None:
    assert dialect(line) is None


def test_public_nouns_table() -> None:
    assert "certificate" in PUBLIC_NOUNS.nouns
    assert load_public_nouns({}).nouns == ()
    with pytest.raises(ValueError):
        load_public_nouns({"cmdlet_public_nouns": {"noun": ["x"]}})


@pytest.mark.parametrize("command", [
    "Invoke-Sqlcmd -ServerInstance db01 -InputFile .\\migrate.sql",
    "Invoke-DbaQuery -SqlInstance db01 -File C:\\sql\\x.sql",
    "Backup-DbaDatabase -SqlInstance db01 -AzureBaseUrl https://acct.blob.core.windows.net/bak/",
    "Export-DbaUser -SqlInstance db01 -Path \\\\nas01\\exports",
])
def test_unread_scripts_and_copies_leaving_the_machine_ask(command: str) -> None:
    assert shell(command).decision.value != "allow"


@pytest.mark.parametrize("command", [
    "Invoke-Sqlcmd -ServerInstance db01 -Query 'SELECT name FROM sys.databases'",
    "Backup-DbaDatabase -SqlInstance db01 -Path D:\\backups -Type Full",
])
def test_read_queries_and_local_copies_pass(command: str) -> None:
    assert shell(command).decision.value == "allow"


@pytest.mark.parametrize("command", [
    "Set-NetFirewallProfile -Name Private -Enabled True",
    "Set-NetFirewallProfile -All -DefaultInboundAction Block -NotifyOnListen True",
    "Set-SmbServerConfiguration -EnableSMB1Protocol $false -Force",
    "Set-SmbClientConfiguration -RequireSecuritySignature $true -Confirm:$false",
])
def test_protection_switched_on_passes(command: str) -> None:
    a = shell(command)
    assert a.decision.value == "allow", (command, a.rules)


@pytest.mark.parametrize("command", [
    "Set-NetFirewallProfile -Profile Public -Enabled False", "Set-NetFirewallProfile -DefaultInboundAction Allow",
    "Set-NetFirewallProfile -Profile Public -Enabled True -DefaultInboundAction Allow",
    "Set-SmbServerConfiguration -EnableSMB1Protocol $true -Force",
    "Set-SmbClientConfiguration -EnableInsecureGuestLogons $true", "Set-SmbServerConfiguration -AutoShareServer $false",
])
def test_protection_switched_off_or_unknown_setting_asks(command: str) -> None:
    assert shell(command).decision.value != "allow"


def test_protection_table_shape() -> None:
    from gate.nochange import PROTECTIONS, load_protections
    assert "enabled" in PROTECTIONS["set-netfirewallprofile"].on
    with pytest.raises(ValueError):
        load_protections({"cmdlet_protection": [{"cmdlets": ["set-x"]}]})


@pytest.mark.parametrize("command", [
    "Disable-BitLocker -MountPoint D:", "Disable-XyzEnhancedSecurityConfiguration", "Uninstall-XyzAntivirus -Force",
    "Disable-XyzMailboxAuditing -Identity ops",
])
def test_protection_disabled_by_verb_blocks(command: str) -> None:
    a = shell(command)
    assert a.decision.value == "block" and "block.shell.defense-evasion" in a.rules, (command, a.rules)


@pytest.mark.parametrize("command", [
    "Enable-XyzEnhancedSecurityConfiguration", "Disable-XyzSecurityGroupMember -Name ops",
    "Disable-NetFirewallRule -DisplayName 'Allow Telnet'", "Disable-XyzAlertNotification",
])
def test_protection_on_or_a_rule_or_group_does_not_block(command: str) -> None:
    assert shell(command).decision.value != "block"
