"""Groovy typed into a CI controller's script console, and commands typed into a secret store's web CLI
(gate/rules/ci_script_console.py); a Kubernetes web shell's line is judged as a terminal's (gate/typed.py)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict

GATE = SafetyGate(default_policy())
SCRIPT = "https://ci.example.org/manage/script"
VAULT = "https://vault.corp.example:8200/ui/vault/dashboard"
STORE_CLI = "Vault web CLI"


def typed(text: str, label: str, url: str):
    return GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}, "url": url}))


@pytest.mark.parametrize("code", [
    "Jenkins.instance.setSecurityRealm(hudson.security.SecurityRealm.NO_AUTHENTICATION)\nJenkins.instance.save()",
    "Jenkins.instance.setAuthorizationStrategy(new hudson.security.AuthorizationStrategy.Unsecured())",
    "def s = Jenkins.instance.authorizationStrategy\ns.add(Jenkins.ADMINISTER, 'helper-bot')\nJenkins.instance.save()",
    "com.cloudbees.plugins.credentials.SystemCredentialsProvider.getInstance().getCredentials().each { "
    "println it.id + ' ' + it.password.getPlainText() }",
    "println hudson.util.Secret.decrypt('{AQAAABAAAAAQ}')",
    "println new File('/srv/jenkins/secrets/initialAdminPassword').text",
    "Jenkins.instance.getAllItems(hudson.model.Job).each { it.delete() }",
])
def test_controller_handed_over_blocks(code: str) -> None:
    a = typed(code, "Script Console", SCRIPT)
    assert a.decision.value == "block" and "block.typed.ci-controller-takeover" in a.rules, a


@pytest.mark.parametrize("code", [
    "println new File('/etc/os-release').text",
    "Jenkins.instance.getAllItems(hudson.model.Job).each { it.disabled = true; it.save() }",
])
def test_controller_files_and_bulk_changes_ask(code: str) -> None:
    a = typed(code, "Script Console", SCRIPT)
    assert a.decision.value == "confirm" and "confirm.typed.ci-controller-change" in a.rules, a


def test_a_read_of_the_controller_passes() -> None:
    a = typed("println Jenkins.instance.getItemByFullName('web').lastBuild.result", "Script Console", SCRIPT)
    assert "block.typed.ci-controller-takeover" not in a.rules and \
        "confirm.typed.ci-controller-change" not in a.rules, a


@pytest.mark.parametrize("text", [
    "write auth/token/create policies=root period=48h",
    "delete sys/audit/syslog",
])
def test_secret_store_console_blocks_what_the_program_would(text: str) -> None:
    a = typed(text, STORE_CLI, VAULT)
    assert a.decision.value == "block" and "block.typed.secret-store-console" in a.rules, a


def test_secret_store_console_asks_for_a_new_engine() -> None:
    a = typed("write sys/mounts/team-c type=kv", STORE_CLI, VAULT)
    assert a.decision.value == "confirm" and "confirm.typed.secret-store-console" in a.rules, a


@pytest.mark.parametrize("text", ["list secret/", "read -field=ttl /auth/token/lookup-self", "fullscreen", "clear"])
def test_secret_store_console_reads_and_its_own_commands_pass(text: str) -> None:
    assert typed(text, STORE_CLI, VAULT).decision.value == "allow"


def test_a_kubectl_web_shell_is_a_terminal() -> None:
    url = "https://clusters.example.org/dashboard/c/local/explorer/pod"
    assert typed("kubectl delete ns --all", "Kubectl shell", url).decision.value == "block"
    assert typed("kubectl get deploy --all-namespaces", "Kubectl shell", url).decision.value == "allow"


BINDING = ("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: wide-open\n"
           "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: cluster-admin\n"
           "subjects:\n- kind: Group\n  name: system:unauthenticated\n  apiGroup: rbac.authorization.k8s.io")


def test_a_typed_manifest_is_judged_as_the_file() -> None:
    url = "https://dash.example.org/#/create"
    a = typed(BINDING, "YAML", url)
    assert a.decision.value == "block" and "block.typed.cluster-manifest" in a.rules, a
    host = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: dbg\nspec:\n  hostPID: true\n  containers:\n  - name: c\n" \
           "    image: busybox\n    securityContext:\n      privileged: true"
    assert "confirm.typed.cluster-manifest" in typed(host, "YAML", url).rules
    plain = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-settings\ndata:\n  level: info"
    assert typed(plain, "YAML", url).decision.value == "allow"


def test_acl_rules_for_everyone_block() -> None:
    create = "http://localhost:8500/ui/dc1/acls/policies/create"
    anonymous = "http://localhost:8500/ui/dc1/acls/policies/00000000-0000-0000-0000-000000000002"
    assert "block.typed.mesh-acl-everyone" in typed('acl = "write"', "Rules", create).rules
    assert "block.typed.mesh-acl-everyone" in typed('node_prefix "" { policy = "write" }', "Rules", anonymous).rules
    assert "block.typed.mesh-acl-everyone" not in typed('key_prefix "web/" { policy = "write" }', "Rules", create).rules
    assert "block.typed.mesh-acl-everyone" not in typed('node_prefix "" { policy = "read" }', "Rules", anonymous).rules


def test_credentials_printed_by_property_block() -> None:
    code = "com.cloudbees.plugins.credentials.SystemCredentialsProvider.getInstance().getCredentials().each { " \
           "println it.id + ' ' + it.password }"
    assert "block.typed.ci-controller-takeover" in typed(code, "Script Console", SCRIPT).rules
    listing = "com.cloudbees.plugins.credentials.SystemCredentialsProvider.getInstance().getCredentials().each { " \
              "println it.id }"
    assert "block.typed.ci-controller-takeover" not in typed(listing, "Script Console", SCRIPT).rules
