"""PowerShell cmdlets of cloud and SaaS modules, judged by verb and noun.

Covers `[cloud_cmdlets]` and `[[cloud_cmdlet]]` of resources/programs.toml, read by gate/nochange.py
(signing in, starting and stopping) and gate/rules/shell_windows.py (`cloud_cmdlet`). The examples are written
from the modules' own reference pages (Az.Storage, Az.Resources, Microsoft.Graph, MSOnline, AzureAD,
ExchangePowerShell, PnP.PowerShell, SharePoint Online, AWS.Tools), with names and hosts of our own.
"""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.catalogue import DATA
from gate.model import Assessment, action_from_dict
from gate.nochange import cloud_parts, load_cloud
from gate.rules.shell_windows import CLOUD_EFFECTS, NAMES, load_cloud_effects

GATE = SafetyGate(default_policy())


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("effect", CLOUD_EFFECTS, ids=lambda e: e.example[:60])
def test_every_cloud_cmdlet_example_meets_its_own_entry(effect) -> None:
    got = shell(effect.example)
    assert got.decision.value == ("block" if effect.block else "confirm"), (effect.example, got.rules)
    assert effect.rule in got.rules, (effect.example, got.rules)


# what each entry refuses, written again with other names, and the ordinary use beside it that it does not
TRIGGERS_AND_NEAR_MISSES = [
    # storage made public / kept private (Az.Storage New-AzStorageContainer, Set-AzStorageContainerAcl)
    ("Set-AzStorageContainerAcl -Name contracts -Permission Container -Context $ctx", "block.shell.public-exposure",
     "Set-AzStorageContainerAcl -Name contracts -Permission Off -Context $ctx"),
    ("New-AzStorageContainer -Name board-minutes -Context $ctx -Permission Container", "block.shell.public-exposure",
     "New-AzStorageContainer -Name board-minutes -Context $ctx"),
    ("Write-S3ObjectACL -BucketName scans-eu -Key a.pdf -CannedACLName public-read", "block.shell.public-exposure",
     "Write-S3ObjectACL -BucketName scans-eu -Key a.pdf -CannedACLName private"),
    ("Remove-S3PublicAccessBlock -BucketName scans-eu -Force", "block.shell.public-exposure",
     "Add-S3PublicAccessBlock -BucketName scans-eu -PublicAccessBlockConfiguration_BlockPublicAcl $true"),
    ("Set-PnPTenant -SharingCapability ExternalUserAndGuestSharing", "block.shell.public-exposure",
     "Set-PnPTenant -SharingCapability ExistingExternalUserSharingOnly"),
    ("Add-PnPFolderAnonymousSharingLink -Folder 'Shared Documents/Board'", "block.shell.public-exposure",
     "Add-PnPFolderOrganizationalSharingLink -Folder 'Shared Documents/Board'"),
    # roles and consent (Az.Resources, Microsoft.Graph, AWS.Tools IAM)
    ("New-AzRoleAssignment -ObjectId $id -RoleDefinitionName 'User Access Administrator' -Scope /subscriptions/77",
     "block.shell.cloud-remote-exec",
     "New-AzRoleAssignment -ObjectId $id -RoleDefinitionName 'Storage Blob Data Reader' -Scope /subscriptions/77"),
    ("New-MgRoleManagementDirectoryRoleAssignment -PrincipalId $uid -RoleDefinitionId $rid -DirectoryScopeId '/'",
     "block.shell.cloud-remote-exec", "Get-MgRoleManagementDirectoryRoleAssignment -Filter \"principalId eq '1'\""),
    ("New-MgOauth2PermissionGrant -ClientId $c -ConsentType AllPrincipals -ResourceId $r -Scope 'Mail.Read'",
     "block.shell.cloud-remote-exec", "Get-MgOauth2PermissionGrant -All"),
    ("Write-IAMGroupPolicy -GroupName ops -PolicyName all -PolicyDocument '{\"Statement\":[{\"Effect\":\"Allow\","
     "\"Action\":\"*\",\"Resource\":\"*\"}]}'", "block.shell.cloud-remote-exec",
     "Write-IAMGroupPolicy -GroupName ops -PolicyName logs -PolicyDocument '{\"Statement\":[{\"Effect\":\"Allow\","
     "\"Action\":\"logs:GetLogEvents\",\"Resource\":\"*\"}]}'"),
    # credentials added to applications and cloud users
    ("New-AzADSpCredential -ObjectId $spId -EndDate (Get-Date).AddYears(2)", "block.shell.cloud-remote-exec",
     "Get-AzADSpCredential -ObjectId $spId"),
    ("New-IAMLoginProfile -UserName deploy-bot -Password $pw", "block.shell.cloud-remote-exec",
     "Get-IAMLoginProfile -UserName deploy-bot"),
    # another person's mail (ExchangePowerShell)
    ("Add-RecipientPermission -Identity payroll@fabrikam.example -Trustee ext.helper -AccessRights SendAs",
     "block.shell.exfiltration", "Get-RecipientPermission -Identity payroll@fabrikam.example"),
    # MFA, conditional access, audit
    ("Set-AzureADMSConditionalAccessPolicy -PolicyId $p -State Disabled", "block.shell.defense-evasion",
     "Set-AzureADMSConditionalAccessPolicy -PolicyId $p -State Enabled"),
    ("Set-Mailbox -Identity legal@fabrikam.example -AuditEnabled $false", "block.shell.defense-evasion",
     "Set-Mailbox -Identity legal@fabrikam.example -AuditEnabled $true"),
    ("Remove-CTTrail -Name org-events -Force", "block.shell.defense-evasion", "Get-CTTrail -Name org-events"),
    ("Remove-AzDiagnosticSetting -ResourceId $kv.ResourceId -Name to-workspace", "block.shell.defense-evasion",
     "Get-AzDiagnosticSetting -ResourceId $kv.ResourceId"),
    # a whole subscription / a bucket with its content
    ("Remove-AzManagementGroup -GroupName platform-root", "block.shell.mass-destruction",
     "Remove-AzResourceLock -LockName keep -ResourceGroupName rg-sbx -Force"),
    ("Remove-S3Bucket -BucketName old-exports-eu -DeleteBucketContent -Force", "block.shell.mass-destruction",
     "Remove-S3Bucket -BucketName old-exports-eu -Force"),
]


@pytest.mark.parametrize(("hit", "rule", "near"), TRIGGERS_AND_NEAR_MISSES, ids=lambda x: str(x)[:50])
def test_each_class_refuses_its_trigger_and_not_its_near_miss(hit: str, rule: str, near: str) -> None:
    got = shell(hit)
    assert got.decision.value == "block" and rule in got.rules, (hit, got.rules)
    other = shell(near)
    assert other.decision.value != "block", (near, other.rules)
    assert rule not in other.rules, (near, other.rules)


@pytest.mark.parametrize("command", [
    "Connect-MgGraph -Scopes 'Calendars.Read','Sites.Read.All'",
    "Connect-AzAccount -Tenant 00000000-0000-0000-0000-000000000000",
    "Connect-ExchangeOnline -UserPrincipalName ops@fabrikam.example -ShowBanner:$false",
    "Connect-PnPOnline -Url https://fabrikam.sharepoint.com/sites/ops -Interactive",
    "Disconnect-MgGraph",
    "Start-AzVM -ResourceGroupName rg-build -Name buildagent03",
    "Start-AzWebApp -ResourceGroupName rg-web -Name fabrikam-shop",
    "Start-EC2Instance -InstanceId i-0a1b2c3d4e5f",
    "Stop-AzVM -ResourceGroupName rg-sandbox -Name jumpbox -Force",
    "Restart-AzWebApp -ResourceGroupName rg-staging -Name fabrikam-shop-staging",
    "Get-AzStorageContainer -Context $ctx | Select-Object Name,PublicAccess",
    "Set-AzContext -Subscription 'Fabrikam Sandbox'",
    "Set-DefaultAWSRegion -Region ap-southeast-2",
    "Set-AWSCredential -ProfileName reporting",
    "Import-Module Az.Compute",
    "Import-Module -Name Microsoft.Graph.Identity.SignIns",
])
def test_signing_in_reading_and_starting_pass(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "allow", (command, got.rules)


@pytest.mark.parametrize("command", [
    # lets containers be made public, as `az storage account update --allow-blob-public-access true` does
    "Set-AzStorageAccount -ResourceGroupName rg-data -Name stdata01 -AllowBlobPublicAccess $true",
    "Connect-MgGraph -Scopes 'RoleManagement.ReadWrite.Directory'",  # asks for the right to grant roles
    "Stop-AzVM -ResourceGroupName rg-payments -Name pay-api-01 -Force",  # an outage for whoever uses it
    "Restart-AzWebApp -ResourceGroupName rg-web -Name fabrikam-shop",
    "Remove-AzVM -ResourceGroupName rg-web -Name web-03",
    "Remove-MgGroup -GroupId 4c2f0000-0000-4000-8000-000000000000",
    "Remove-PnPList -Identity 'Invoices 2023'",
    "Set-AWSCredential -AccessKey AKIAIOSFODNN7EXAMPLE -SecretKey $sk -StoreAs ops",  # keys stored on disk
    "Import-Module .\\modules\\Fabrikam.Ops.psm1",  # a module from a path, not the gallery's by name
    "Invoke-AzVMRunCommand -ResourceGroupName rg-web -VMName web-02 -CommandId RunPowerShellScript "
    "-ScriptString 'Get-Service W3SVC'",  # a script run on a cloud machine
    # a cmdlet no entry names, of a family the model knows: removals ask as removals
    "Remove-AzFrontDoorCdnProfile -ResourceGroupName rg-edge -Name edge-01",
])
def test_changes_ask(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "confirm", (command, got.rules)


def test_a_new_cmdlet_of_a_family_is_judged_by_its_verb() -> None:
    got = shell("Remove-AzContainerAppJob -Name nightly -ResourceGroupName rg-jobs")
    assert "confirm.shell.destructive" in got.rules
    got = shell("Remove-MgBetaIdentityConditionalAccessPolicy -ConditionalAccessPolicyId $id")
    assert got.decision.value == "block" and "block.shell.defense-evasion" in got.rules


@pytest.mark.parametrize(("name", "written", "parts"), [
    ("remove-azvm", "Remove-AzVM", ("remove", "azvm")),
    ("set-csteamsmeetingpolicy", "Set-CsTeamsMeetingPolicy", ("set", "csteamsmeetingpolicy")),
    ("export-csv", "Export-Csv", None),  # Csv is no Teams noun
    ("set-content", "Set-Content", None),
    ("get-securebootuefi", "Get-SecureBootUEFI", None),  # `Sec` then a small letter: not AWS Secrets Manager
    ("remove-item", "Remove-Item", None),
])
def test_cloud_parts_reads_the_module_prefix(name: str, written: str, parts) -> None:
    assert cloud_parts(name, written) == parts


def test_names_hold_cloud_cmdlets_and_not_others() -> None:
    assert "add-mgapplicationpassword" in NAMES
    assert "add-mailboxpermission" in NAMES  # Exchange's nouns carry no prefix
    assert "apt-get" not in NAMES and "ssh-keygen" not in NAMES and "get-childitem" not in NAMES


def test_malformed_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="cloud_cmdlets"):
        load_cloud({"cloud_cmdlets": {"noun_prefixes": ["az"]}})
    bad = {"cloud_cmdlet": [{"nouns": "x", "verbs": ["new"], "decision": "block", "rule": "confirm.shell.x",
                             "why": "w", "example": "e"}]}
    with pytest.raises(ValueError, match="cloud_cmdlet"):
        load_cloud_effects(bad)
    assert load_cloud(DATA).prefixes[0] == max(load_cloud(DATA).prefixes, key=len)
