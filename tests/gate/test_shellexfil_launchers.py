"""Programs and scripts started out of sight from folders anyone writes to (`start /min`, `Start-Process
-WindowStyle Minimized`, `powershell -w hidden -f`, `wscript //B`, `nohup ... >/dev/null`) block, and ask in plain
sight; remote tunnels registered as a service or opened unattended block, a one-off tunnel asks
(gate/rules/shell_staging.py `_script_from_drop`, `_hidden_start`; gate/rules/shell_persistence.py
`tunnel_service`)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def judge(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "cmd /c start /min C:\\Users\\Public\\sync.exe",
    "start \"\" /min %TEMP%\\helper.exe",
    "Start-Process -WindowStyle Minimized C:\\ProgramData\\upd.exe",
    "powershell -WindowStyle Minimized -File %TEMP%\\job.ps1",
    "pwsh -w hidden -File C:\\Users\\Public\\task.ps1",
    "wscript //B C:\\Users\\Public\\run.vbs",
    "nohup sh /var/tmp/job.sh >/dev/null 2>&1 &",
    "setsid bash /dev/shm/.cache/run",
    "screen -dmS upd /tmp/upd", "tmux new-session -d /var/tmp/sync", "conhost --headless C:\\Users\\Public\\svc.exe",
    "code tunnel service install",
    "code tunnel --accept-server-license-terms --name build01",
    "cloudflared service install eyJhIjoiYWJjIn0",
    "ngrok service install --config C:\\ngrok\\ngrok.yml",
])
def test_hidden_starts_from_drop_folders_and_tunnel_services_block(command: str) -> None:
    got = judge(command)
    assert got.decision is Decision.BLOCK, (command, got.rules)


@pytest.mark.parametrize("command", [
    "cmd /c start C:\\Users\\Public\\sync.exe", "powershell -File C:\\Users\\Public\\task.ps1",
    "cscript C:\\Windows\\Temp\\inventory.vbs", "cloudflared tunnel --url http://localhost:3000", "ngrok http 8080",
    "code tunnel",
])
def test_the_same_in_plain_sight_asks(command: str) -> None:
    assert judge(command).decision is Decision.CONFIRM, (command, judge(command).rules)


@pytest.mark.parametrize("command", [
    "powershell -ExecutionPolicy Bypass -File .\\scripts\\build.ps1", "pwsh -File ./tools/release.ps1",
    "start /min notepad.exe", "python3 /tmp/reproduce_issue.py", "bash /tmp/check.sh", "code .",
    "code --install-extension ms-python.python", "nohup npm run dev > dev.log 2>&1 &",
    "screen -dmS api npm start", "tmux new -d -s build 'make -j4'", "screen -S work",
])
def test_benign_neighbours_pass(command: str) -> None:
    assert judge(command).decision is Decision.ALLOW, (command, judge(command).rules)
