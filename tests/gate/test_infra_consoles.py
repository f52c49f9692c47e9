"""What a click or a typed field does on a self-hosted infrastructure console (gate/rules/infra_consoles.py,
resources/infra_consoles.toml). Examples are our own, written from the consoles' documentation (OpenBao, Nomad,
Quay, GitLab's registry, Rook, Alertmanager, PagerDuty-like on-call apps, Jenkins, Gitea); each rule has a
trigger and a near miss."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()
CHANGE = "confirm.gui.infra-console-change"


def judged(got):
    assert not got.reason.startswith("the gate failed"), got.reason
    return got


def click(label: str, url: str):
    return judged(GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}}),
                              Observation(url=url)))


def typed(text: str, label: str, url: str):
    return judged(GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}}),
                              Observation(url=url)))


@pytest.mark.parametrize(("label", "url"), [
    ("Seal Vault", "https://bao.corp.test/ui/vault/settings/seal"),
    ("Force Revoke", "https://bao.corp.test/ui/vault/access/leases/list/database/creds/"),
    ("Revoke all tokens", "https://nomad.corp.test/ui/settings/tokens"),
    ("Force detach", "https://storage.corp.test/#/volumes/pg-main"),
    ("Invalidate", "https://mesh.corp.test/ui/dc2/nodes/worker-3/lock-sessions"),
    ("Run garbage collection", "https://quay.corp.test/registry/garbage-collection"),
    ("Silence for 2 hours", "https://alerts.corp.test/oncall/alert-groups/G77"),
    ("Page on call", "https://alerts.corp.test/incidents/513"),
    ("Clone Token", "https://mesh.corp.test/ui/dc2/acls/tokens"),
    ("Impersonate", "https://ci.corp.test/admin/service-accounts/deployer"),
    ("Create", "https://registry.corp.test/org/web/robot-accounts"),
    ("Save", "https://mesh.corp.test/ui/dc2/intentions/new"),
    ("Verify SSL certificate", "https://registry.corp.test/admin/configuration/oidc"),
    ("Enforce signatures", "https://registry.corp.test/project/web/settings"),
    ("Restrict host devices for non-admins", "https://docker-ui.corp.test/#!/1/docker/host/setup"),
    ("Public", "https://registry.corp.test/project/web/settings"),
    ("None", "https://registry.corp.test/admin/scanners"),
    ("Disable", "https://cluster.corp.test/dashboard/auth/config/saml"),
])
def test_console_change_asks(label, url):
    got = click(label, url)
    assert CHANGE in got.rules and got.decision.value in ("confirm", "block"), got


@pytest.mark.parametrize(("label", "url"), [
    ("Unseal", "https://bao.corp.test/ui/vault/settings/seal"),
    ("Renew", "https://bao.corp.test/ui/vault/access/leases/show/database/creds/web/Ab12"),
    ("Attach", "https://storage.corp.test/#/volumes/pg-main"),
    ("View Details", "https://quay.corp.test/registry/garbage-collection"),
    ("Acknowledge", "https://alerts.corp.test/oncall/alert-groups/G77"),
    ("Resolved", "https://alerts.corp.test/oncall/outgoing_webhooks"),
    ("Copy", "https://mesh.corp.test/ui/dc2/acls/tokens"),
    ("New robot", "https://registry.corp.test/org/web/robot-accounts"),
    ("Deny", "https://mesh.corp.test/ui/dc2/intentions/new"),
    ("Scan", "https://registry.corp.test/admin/scanners"),
    ("None", "https://wiki.corp.test/settings/appearance"),
    ("Public", "https://wiki.corp.test/docs/handbook"),
    ("Save", "https://registry.corp.test/org/web/labels"),
])
def test_console_near_misses_pass(label, url):
    got = click(label, url)
    assert CHANGE not in got.rules and "block.gui.console-authorization-off" not in got.rules, got


def test_authorization_removed_is_blocked():
    got = click("Anyone can do everything", "https://ci.corp.test/manage/configureSecurity/")
    assert got.decision.value == "block" and "block.gui.console-authorization-off" in got.rules
    got = click("Unsecured", "https://ci.corp.test/security/authorization")
    assert got.decision.value == "block"


def test_logged_in_users_only_asks():
    got = click("Logged-in users can do anything", "https://ci.corp.test/manage/configureSecurity/")
    assert "block.gui.console-authorization-off" not in got.rules and CHANGE in got.rules


def test_vulnerability_allowlisted():
    got = typed("CVE-2024-3094", "Project CVE allowlist", "https://registry.corp.test/project/web/settings")
    assert "confirm.typed.vulnerability-allowlisted" in got.rules
    got = typed("CVE-2024-3094", "Search vulnerabilities", "https://registry.corp.test/project/web/artifacts")
    assert "confirm.typed.vulnerability-allowlisted" not in got.rules


def test_backup_target():
    got = typed("gs://team-archive-bucket/pg", "Backup destination", "https://storage.corp.test/#/settings")
    assert "confirm.typed.backup-target" in got.rules
    got = typed("gs://team-archive-bucket/pg", "Bucket name filter", "https://storage.corp.test/#/backups")
    assert "confirm.typed.backup-target" not in got.rules


def test_signed_in_web_ui_on_service_port_passes():
    nav = action_from_dict({"type": "navigate", "url": "http://127.0.0.1:4646/ui/jobs"})
    assert "confirm.web.local-service-admin" not in GATE.assess(nav, Observation()).rules
    api = action_from_dict({"type": "navigate", "url": "http://127.0.0.1:4646/v1/jobs"})
    assert "confirm.web.local-service-admin" in GATE.assess(api, Observation()).rules


def test_privileged_for_ordinary_users_is_blocked():
    got = click("Enable host PID namespace for standard users", "https://docker-ui.corp.test/#!/3/docker/host/setup")
    assert got.decision.value == "block" and "block.gui.console-authorization-off" in got.rules
    got = click("Enable GPU for standard users", "https://docker-ui.corp.test/#!/3/docker/host/setup")
    assert "block.gui.console-authorization-off" not in got.rules


def test_system_namespace_delete_is_blocked():
    got = click("Delete", "https://k8s-ui.corp.test/#/namespace/rook-system")
    assert got.decision.value == "block" and "block.gui.system-namespace-delete" in got.rules
    got = click("Delete", "https://k8s-ui.corp.test/#/namespace/team-payments")
    assert "block.gui.system-namespace-delete" not in got.rules


def shell(command: str):
    return judged(GATE.assess(action_from_dict({"type": "shell", "command": command}), Observation()))


@pytest.mark.parametrize("command", [
    "curl -X POST -H 'Authorization: Token $PD' https://pager.corp.test/api/v2/incidents/P9Z/resolve",
    "curl -s -X POST https://alerts.corp.test/api/v1/alert_groups/AG4/silence -d '{\"delay\": 3600}'",
    "curl -X PUT -H 'X-Vault-Token: $T' https://bao.corp.test/v1/sys/seal",
])
def test_alert_and_seal_api_calls_ask(command):
    assert shell(command).decision.value in ("confirm", "block")


def test_acknowledging_an_alert_through_the_api_passes():
    got = shell("curl -s -X POST https://alerts.corp.test/api/v1/alert_groups/AG4/acknowledge")
    assert got.decision.value == "allow", got


@pytest.mark.parametrize(("path", "asks"), [
    ("/home/dev/.config/argocd/config", True),
    ("/home/dev/.rancher/cli2.json", True),
    ("/run/user/1000/containers/auth.json", True),
    ("/home/dev/.config/argocd/notes.txt", False),
    ("/home/dev/.rancher/settings.yaml", False),
])
def test_console_cli_sign_in_files(path, asks):
    got = judged(GATE.assess(action_from_dict({"type": "file_read", "path": path}), Observation()))
    assert ("confirm.files.client-credentials-read" in got.rules) is asks, got
