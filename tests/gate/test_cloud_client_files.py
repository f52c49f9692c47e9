"""Files of cloud and cluster clients: a kubeconfig that skips its server's certificate check or runs a program
to sign in, an access policy that grants everyone (gate/rules/files.py), and the tools' own credential stores
(`[shell] secret_paths`)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())

KUBECONFIG = """apiVersion: v1
kind: Config
clusters:
- name: lab
  cluster:
    server: https://{server}
    {trust}
contexts:
- name: lab
  context: {{cluster: lab, user: me}}
current-context: lab
users:
- name: me
  user:
    {user}
"""


def _kubeconfig(server: str, trust: str = "certificate-authority-data: LS0tLS1CRUdJTg==",
                user: str = "token: abc.def.ghi") -> str:
    return KUBECONFIG.format(server=server, trust=trust, user=user)


def _write(path: str, content: str) -> tuple[Decision, tuple[str, ...]]:
    got = GATE.assess(action_from_dict({"type": "file_write", "path": path, "content": content}))
    return got.decision, got.rules


def _read(path: str) -> Decision:
    return GATE.assess(action_from_dict({"type": "file_read", "path": path})).decision


def test_a_login_with_the_check_off_left_in_a_shared_folder_blocks() -> None:
    decision, rules = _write("/dev/shm/cfg", _kubeconfig("api.lab.example:6443", "insecure-skip-tls-verify: true"))
    assert decision is Decision.BLOCK and "block.files.shared-kubeconfig" in rules, rules


@pytest.mark.parametrize("content", [
    _kubeconfig("api.lab.example:6443", "insecure-skip-tls-verify: true"),
    _kubeconfig("api.lab.example:6443", user="exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
                                            "      command: ./get-token.sh"),
])
def test_a_login_that_skips_the_check_or_runs_a_program_asks(content: str) -> None:
    decision, rules = _write("deploy/kubeconfig.yaml", content)
    assert decision is Decision.CONFIRM and "confirm.files.kubeconfig-trust" in rules, rules


@pytest.mark.parametrize(("path", "content"), [
    ("deploy/kubeconfig.yaml", _kubeconfig("api.lab.example:6443")),  # the certificate checked
    ("/tmp/kind.yaml", _kubeconfig("127.0.0.1:43125", "insecure-skip-tls-verify: true")),  # a local cluster
    ("notes/k8s.md", "Never set insecure-skip-tls-verify: true on a server: entry.\n"),
])
def test_an_ordinary_login_or_a_local_cluster_passes(path: str, content: str) -> None:
    decision, rules = _write(path, content)
    assert not {"block.files.shared-kubeconfig", "confirm.files.kubeconfig-trust"} & set(rules), rules


@pytest.mark.parametrize("content", [
    '{"bindings": [{"role": "roles/storage.objectViewer", "members": ["allAuthenticatedUsers"]}]}',
    "bindings:\n- members:\n  - allUsers\n  role: roles/run.invoker\n",
    '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"}, '
    '"Action": "s3:GetObject", "Resource": "arn:aws:s3:::site/*"}]}',
])
def test_an_access_policy_that_grants_everyone_asks(content: str) -> None:
    decision, rules = _write("policy.json", content)
    assert decision is Decision.CONFIRM and "confirm.files.public-access-policy" in rules, rules


@pytest.mark.parametrize("content", [
    '{"bindings": [{"role": "roles/storage.objectViewer", "members": ["group:analysts@example.com"]}]}',
    '{"Statement": [{"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111122223333:role/ci"}, '
    '"Action": "s3:PutObject"}]}',
    "Do not add allUsers to a bucket's members.\n",
])
def test_a_policy_for_named_members_passes(content: str) -> None:
    decision, rules = _write("policy.json", content)
    assert "confirm.files.public-access-policy" not in rules, rules


@pytest.mark.parametrize("path", [
    "~/.n8n/config", "~/.node-red/flows_cred.json", "~/.config/atlascli/config.toml", "~/.snowsql/config",
    "~/.cloudflared/6ff42ae2-765d-4adf-8112-31c55c1551ef.json", "~/.config/helm/repositories.yaml",
])
def test_a_tools_credential_store_is_not_read_unasked(path: str) -> None:
    assert _read(path) is not Decision.ALLOW


@pytest.mark.parametrize("path", ["~/.n8n/n8nEventLog.log", "~/.config/helm/plugins/diff/plugin.yaml",
                                  "~/.cloudflared/config.yml"])
def test_the_same_tools_other_files_pass(path: str) -> None:
    assert _read(path) is Decision.ALLOW
