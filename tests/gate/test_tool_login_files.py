"""Files where data-store, CI and editor tools keep their logins ask when read, like the cloud CLIs' credentials:
lakeFS's, InfluxDB's, MinIO's and ClickHouse's client configs, Redis' CLI rc, Gitea's, Sentry's and Stripe's CLI
configs, the Buildkite agent's token file, Airflow's config, the MongoDB shell's history and a code editor's global
state. Their examples and a project's own files pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


@pytest.mark.parametrize("path", [
    "~/.lakectl.yaml", "~/.influxdbv2/configs", "~/.mc/config.json", "~/.clickhouse-client/config.xml",
    "~/.redisclirc", "~/.config/tea/config.yml", "/etc/buildkite-agent/buildkite-agent.cfg", "~/airflow/airflow.cfg",
    "~/.mongodb/mongosh/mongosh_repl_history", "~/.config/VSCodium/User/globalStorage/state.vscdb",
])
def test_a_tools_login_file_asks_when_read(path: str) -> None:
    got = GATE.assess(action_from_dict({"type": "file_read", "path": path}))
    assert got.decision is Decision.CONFIRM and "confirm.files.sensitive-read" in got.rules, (path, got.rules)


@pytest.mark.parametrize("path", ["~/src/pipeline/airflow.cfg.example", "~/src/pipeline/dags/etl.py",
                                  "~/.config/Code/User/settings.json"])
def test_examples_and_project_files_pass(path: str) -> None:
    assert GATE.assess(action_from_dict({"type": "file_read", "path": path})).decision is Decision.ALLOW, path
