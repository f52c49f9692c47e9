"""Traces erased or start-up files opened: logs deleted or emptied in bulk by a search of the system, a start-up or
schedule file given a date of one's choosing, a system cron table or rc file made writable, a mail program's
message log aimed into a web root or a start-up file (gate/rules/shell_evasion.py `logs_wiped_by_search`,
gate/rules/shell_persistence.py `timestomp`, `schedule_opened`, `mail_log_planted`). Project files, listings and
owner-only modes keep their decision."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def judge(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "find / -type f -name '*.log' -exec shred -u {} +",
    "find /var -name 'syslog*' -exec rm {} \\;",
    "find / -iname '*.evtx' -delete",
    "find /private/var/log -name '*log*' | xargs rm -f",
    "find / -name 'wtmp*' -exec truncate --size 0 {} \\;",
    "touch --reference=/usr/bin/id /etc/rc.local",
    "touch -t 202001010101 /var/spool/cron/crontabs/root",
    "touch -d '3 years ago' /etc/systemd/system/updater.service",
    "touch -r /Library/Preferences /Library/LaunchDaemons/com.updater.plist",
    "chmod a+w /etc/cron.d/backup",
    "chmod 0646 /etc/rc.local",
    "chmod -R 777 /etc/cron.daily",
    "chmod +w /etc/init.d/networking",
    "sendmail -oi -t -X /srv/www/shop/log.php < msg.eml",
    "sendmail -X/etc/cron.d/mail -t < msg.eml",
    "(Get-Item 'C:\\Users\\ann\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\s.lnk')"
    ".CreationTime = '2018-03-01'",
    "Set-ItemProperty -Path C:\\Windows\\System32\\Tasks\\Sync -Name LastWriteTimeUtc -Value '2018-03-01'",
])
def test_traces_erased_and_start_up_files_opened_block(command: str) -> None:
    got = judge(command)
    assert got.decision is Decision.BLOCK, (command, got.rules)


@pytest.mark.parametrize("command", [
    "find build -name '*.log'", "find . -name '*.log' -mtime +7", "find / -name '*.log' 2>/dev/null",
    "find /var/log -name '*.gz' -mtime +90", "touch src/main.py", "touch -d '2024-01-01' fixtures/old.txt",
    "touch -r package.json package-lock.json", "chmod +x scripts/release.sh", "chmod 755 bin/tool",
    "chmod u+w docs/notes.md", "chmod 600 ~/.ssh/config", "sendmail -t < outbox/msg.eml",
    "(Get-Item .\\build\\out.zip).LastWriteTime = Get-Date",
])
def test_benign_neighbours_pass_or_only_ask(command: str) -> None:
    got = judge(command)
    assert got.decision is not Decision.BLOCK, (command, got.rules)
    assert "block.shell.anti-forensics" not in got.rules
