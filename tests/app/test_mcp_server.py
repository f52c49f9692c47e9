"""`deskgate mcp`: the server run as a subprocess and driven over stdio by the `mcp` client, against a real
supervisor and server started in this process."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from app.agent.mcp_server import TOOL_NAMES, format_reply
from app.audit.reader import AuditReader

ROOT = Path(__file__).resolve().parents[2]

# No sandbox in CI containers: shell runs unfenced here, which is why the test only runs `true`/`printf`.
POLICY = """
[fence]
enabled = false
required = false
"""


@pytest.fixture
def env(deskgate_home):
    return deskgate_home(POLICY)


@pytest.fixture
def served(env, serve_in_process):
    return serve_in_process(env)


def server_params(env) -> StdioServerParameters:
    sub_env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    sub_env["PYTHONPATH"] = str(ROOT)
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "app.cli.main", "mcp", "--socket", str(env["socket"]),
                                       "--agent", "mcp-test"],
                                 env=sub_env, cwd=str(ROOT))


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")


async def drive(env, calls: list[tuple[str, dict]]) -> tuple[list[str], list]:
    with open(os.devnull, "w") as errlog:
        async with stdio_client(server_params(env), errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            with anyio.fail_after(30):
                await session.initialize()
                tools = await session.list_tools()
                results = [await session.call_tool(name, args) for name, args in calls]
    return [t.name for t in tools.tools], results


def test_tools_go_through_the_supervisor(served, env) -> None:
    names, (ok, blocked, again) = anyio.run(drive, env, [
        ("shell", {"command": "printf mcp-ok"}),
        ("shell", {"command": "rm -rf /"}),
        ("shell", {"command": "true"}),
    ])
    assert sorted(names) == sorted(TOOL_NAMES)
    assert not ok.is_error, text_of(ok)
    assert "verdict: executed" in text_of(ok) and "mcp-ok" in text_of(ok)
    assert blocked.is_error
    assert text_of(blocked).startswith("deskgate refused: ")
    assert "block.shell.recursive-delete-root" in text_of(blocked)
    assert not again.is_error  # a refusal does not end the session
    served.audit.close()
    with AuditReader(env["db"]) as log:
        rows = log.query(limit=10)
    assert [r["verdict"] for r in rows] == ["executed", "denied", "executed"]
    assert {r["agent"] for r in rows} == {"mcp-test"}  # one session, under --agent


def test_supervisor_down_every_call_is_an_error_and_the_server_stays_up(env) -> None:
    names, results = anyio.run(drive, env, [("shell", {"command": "true"}), ("click", {"x": 1, "y": 2}),
                                            ("open_url", {"url": "https://example.org/"})])
    assert len(names) == len(TOOL_NAMES)
    for result in results:
        assert result.is_error
        assert "deskgate unavailable" in text_of(result) and "not performed" in text_of(result)


def test_format_reply_keeps_the_image_out_of_the_text() -> None:
    reply = {"verdict": "executed", "decision": "allow", "decided_by": "policy", "reason": "no rule objects",
             "rules": [], "result": {"width": 10, "png_base64": "iVBORw0KGgo="}}
    is_error, text, png = format_reply(reply)
    assert not is_error and png == "iVBORw0KGgo="
    assert "png_base64" not in text and '"width": 10' in text
    is_error, text, _ = format_reply({"verdict": "error", "reason": "no display", "result": {"error": "x"}})
    assert is_error and "failed" in text


async def introspect(env, calls: list[tuple[str, dict]]) -> tuple[object, list, list]:
    with open(os.devnull, "w") as errlog:
        async with stdio_client(server_params(env), errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            with anyio.fail_after(30):
                init = await session.initialize()
                tools = await session.list_tools()
                results = [await session.call_tool(name, args) for name, args in calls]
    return init, tools.tools, results


def test_server_info_annotations_and_claims_reach_the_log(served, env) -> None:
    from app import __version__
    from app.agent.mcp_server import ANNOTATIONS

    init, tools, (ran,) = anyio.run(introspect, env, [
        ("shell", {"command": "true", "intent": "check the sandbox works"})])
    assert init.server_info.name == "deskgate" and init.server_info.version == __version__
    by_name = {t.name: t for t in tools}
    assert by_name["screenshot"].annotations.read_only_hint is True
    assert by_name["shell"].annotations.destructive_hint is True
    assert by_name["click"].annotations.read_only_hint is False
    assert {n: t.annotations for n, t in by_name.items()} == ANNOTATIONS
    for name in TOOL_NAMES:
        assert "intent" in by_name[name].input_schema["properties"]
    for name in ("click", "type", "key", "scroll"):
        assert "target" in by_name[name].input_schema["properties"]
    assert "screen coordinates" in by_name["screenshot"].description
    assert not ran.is_error, text_of(ran)
    served.audit.close()
    with AuditReader(env["db"]) as log:
        (row,) = log.query(limit=1)
    assert log_action(env, row)["note"] == "check the sandbox works"


def log_action(env, row) -> dict:
    import json

    with AuditReader(env["db"]) as log:
        action = log.get(row["id"])["action"]
    return json.loads(action) if isinstance(action, str) else action


def test_a_claimed_target_is_part_of_the_action(served, env) -> None:
    # no display here: the click fails in the executor, but the decision row holds what the agent claimed
    anyio.run(introspect, env, [
        ("click", {"x": 5, "y": 6, "target": "Delete account", "intent": "close the account"})])
    served.audit.close()
    with AuditReader(env["db"]) as log:
        (row,) = log.query(limit=1)
    action = log_action(env, row)
    assert action["target"] == {"label": "Delete account"} and action["note"] == "close the account"


def test_screenshot_reply_states_its_scale() -> None:
    reply = {"verdict": "executed", "decision": "allow", "decided_by": "policy", "reason": "no rule applies",
             "rules": [], "result": {"width": 1920, "height": 1080, "png_width": 640, "png_height": 360,
                                     "png_base64": "iVBORw0KGgo="}}
    _, text, _ = format_reply(reply)
    scale = next(line for line in text.splitlines() if line.startswith("scale:"))
    assert "640x360" in scale and "1920x1080" in scale and "by 3 " in scale + " "
    _, text, _ = format_reply({**reply, "result": {"ok": True}})
    assert "scale" not in text
