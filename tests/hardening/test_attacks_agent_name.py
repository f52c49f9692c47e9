"""An agent name is stored as given (sessions and every decision carry it), so a token put there would
reach the audit log in plain text. A `hello` whose agent name holds something shaped like a secret is
refused (nothing is stored); ordinary names, the hook's per-call names included, open sessions as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.agent.client import BadRequest, Client

POLICY = """
[fence]
enabled = false
required = false
"""


def _raw(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal")) if p.exists())


@pytest.mark.parametrize("name", ["ghp_Nm1nameSecretQQQQQQQQQQQQQQQQQQQQQQQQ", "runner AKIAQWERTYUIOPASDFGH"])
def test_a_secret_shaped_agent_name_is_refused_and_not_stored(deskgate_home, serve_in_process, name) -> None:
    home = deskgate_home(POLICY)
    rt = serve_in_process(home)
    with Client(home["socket"], timeout=20) as dg:
        with pytest.raises(BadRequest) as err:
            dg.hello(name)
        assert "secret" in str(err.value)
    rt.stop()
    secret = name.split()[-1]
    assert secret.encode() not in _raw(home["db"])


@pytest.mark.parametrize("name", ["claude-code:3f2a9c1e-4b7:4242", "my agent", "bot@host/ci"])
def test_ordinary_agent_names_still_open_sessions(deskgate_home, serve_in_process, name) -> None:
    home = deskgate_home(POLICY)
    serve_in_process(home)
    with Client(home["socket"], timeout=20) as dg:
        assert dg.hello(name)["session"] >= 1
