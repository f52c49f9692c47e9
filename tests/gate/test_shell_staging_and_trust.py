"""Programs run from where payloads are staged, code decoded from a file into a shell, credential hunts spelled
as regexes, trust stores and host escapes set up without sudo, web shells, timestomping, privilege-hunting
kits, passwords on the command line; and the throwaway files and build images that pass. Each class has its
ordinary neighbour beside it."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize(("command", "rule"), [
    # a ./program resolved against the directory a `cd` moved to
    ("cd /dev/shm; ./sysupd --quiet", "confirm.shell.unknown-program"),
    ("cd /var/tmp && ./a.out", "confirm.shell.unknown-program"),
    ("cd ~/.cache/.fonts-x && ./refresh", "confirm.shell.unknown-program"),
    ("cd /tmp/.ICE-cache && ./d", "confirm.shell.unknown-program"),
    # encoded code read from a file and piped into a shell: as hidden as the literal form
    ("base64 -d stage2.txt | bash", "confirm.shell.obfuscated"),
    ("base64 --decode < blob | sh -s", "confirm.shell.obfuscated"),
    ("cat notes.b64 | base64 -d | zsh", "confirm.shell.obfuscated"),
    ("xxd -r -p dump.hex | sh", "confirm.shell.obfuscated"),
    ("openssl enc -aes-128-cbc -d -in run.bin -pass pass:k | bash", "confirm.shell.obfuscated"),
    # credential hunts that name no credential file
    ("grep -rnw /home -ie 'passwd'", "confirm.shell.credential-search"),
    ("grep -rl 'secret[_-]key' /srv", "confirm.shell.credential-search"),
    ("rg -e 'client.?secret' ~", "confirm.shell.credential-search"),
    ("find / -iname '*.keychain' 2>/dev/null", "confirm.shell.credential-search"),
    ("find ~/.config -name 'Login Data' -o -name 'Cookies'", "confirm.shell.credential-search"),
    ("cp /etc/passwd /dev/shm/.u", "confirm.shell.secret-read"),
    ("cat /etc/group > /var/tmp/g.txt", "confirm.shell.secret-read"),
    # trust and host escapes without sudo
    ("lxc init images:debian/12 box -c security.privileged=true", "confirm.shell.privilege-escalation"),
    ("incus config device add box root2 disk source=/ path=/host", "confirm.shell.privilege-escalation"),
    ("mount -t cgroup -o pids cgroup /dev/shm/cg", "confirm.shell.system-state"),
    ("echo 1 > /dev/shm/cg/a/notify_on_release", "confirm.shell.system-state"),
    ("certutil -A -d sql:/home/me/.pki/nssdb -n proxy -t 'CT,c,' -i proxy.crt", "block.shell.defense-evasion"),
    ("install -m 644 proxy.crt /etc/pki/ca-trust/source/anchors/", "block.shell.defense-evasion"),
    ("trust anchor --store proxy.pem", "block.shell.defense-evasion"),
    ("netsh advfirewall firewall delete rule name=all dir=in", "block.shell.defense-evasion"),
    ("netsh advfirewall reset", "block.shell.defense-evasion"),
    # web shells: request input handed to a command, written into a server page
    ("echo '<?php passthru($_REQUEST[\"q\"]); ?>' > /srv/www/img/t.php", "block.shell.malicious-persistence"),
    ("printf '<?=`$_GET[x]`?>' > up/a.phtml", "block.shell.malicious-persistence"),
    ("echo '<%= Runtime.getRuntime().exec(request.getParameter(\"c\")) %>' | tee webapps/ROOT/s.jsp",
     "block.shell.malicious-persistence"),
    # timestomping a start-up item or a system program
    ("touch -d '2020-03-01 10:00' ~/.config/autostart/sync.desktop", "confirm.shell.defense-evasion"),
    ("touch -r /usr/bin/id /usr/local/bin/idx", "confirm.shell.defense-evasion"),
    # privilege-hunting kits by name, run by path
    ("./lse.sh -i", "confirm.shell.recon"),
    ("/dev/shm/pspy64 -pf", "confirm.shell.recon"),
    ("bash ./linenum.sh", "confirm.shell.recon"),
    # passwords on the command line, anonymous bucket reads
    ("podman login --password hunter22 -u me quay.example", "confirm.shell.secret-read"),
    ("helm registry login reg.example -u me -p pw", "confirm.shell.secret-read"),
    ("aws s3 ls s3://other-firm-uploads/ --recursive --no-sign-request", "confirm.shell.recon"),
    ("aws s3api list-objects-v2 --bucket other-firm-uploads --no-sign-request", "confirm.shell.recon"),
    ("aws s3 cp ./report.csv s3://team-bucket/", "confirm.shell.remote-mutation"),
    ("aws s3 mv s3://team-bucket/old.csv .", "confirm.shell.remote-mutation"),
])
def test_each_class_asks_or_blocks(command: str, rule: str) -> None:
    got = assess(command)
    assert rule in got.rules, (command, got.decision, got.rules)
    assert got.decision is (Decision.BLOCK if rule.startswith("block.") else Decision.CONFIRM) or \
        got.decision is Decision.BLOCK, (command, got.rules)


@pytest.mark.parametrize("command", [
    # the project's own programs, even after a cd
    "./gradlew test", "cd tools && ./gen.sh", "cd /tmp/work && ./configure", "cd ~/.local/bin && ./mytool -h",
    # decoding into a file or a viewer, or a plain script piped into a shell
    "base64 -d logo.b64 > logo.png", "xxd -r -p dump.hex > dump.bin", "base64 -d body.b64 | jq .",
    "cat setup.sh | bash",
    # searches for ordinary words; finds of ordinary names; copies of ordinary system files
    "grep -rn 'timeout' src/", "grep -rie 'api_client' lib/", "find . -name '*.keystone.yml'",
    "cp /etc/hosts /tmp/hosts.copy", "cat /etc/passwd", "cp /etc/passwd ./fixtures/passwd.sample",
    # lxc, mounts and certificates used plainly
    "lxc launch images:debian/12 web", "lxc config device add web code disk source=/home/me/src path=/src",
    "mount /dev/sdb1 /mnt/usb", "echo 1 > /tmp/counter", "certutil -L -d sql:/home/me/.pki/nssdb",
    "cp /usr/local/share/ca-certificates/corp.crt ./certs/", "netsh advfirewall firewall show rule name=all",
    "netsh advfirewall firewall delete rule name=\"Dev server\"",
    # server pages with no command run on request input
    "echo '<?php echo htmlspecialchars($_GET[\"n\"]); ?>' > hello.php", "echo '<?php phpinfo(); ?>' > info.php",
    # touch with a date on project files, or without one on a start-up item
    "touch -t 202401010000 build/stamp", "touch -r src/a.c src/b.c", "touch ~/.config/autostart/app.desktop",
    # tokens through stdin, bucket reads with credentials
    "aws ecr get-login-password | docker login -u AWS --password-stdin 111122223333.dkr.ecr.eu-west-1.amazonaws.com",
    "aws s3 ls s3://my-team-bucket",
    "aws s3 cp s3://public-climate-data/2023/readings.csv . --no-sign-request",
    "aws s3 sync s3://team-bucket/fixtures ./fixtures --exclude '*.tmp'",
    # throwaway files deleted, build images made
    "rm reproduce_issue.py", "rm ./scratch.ts", "rm tmp_check.sh", "rm app.py.orig", "rm patch.rej",
    "hdiutil create -volname App -srcfolder build/App -ov -format UDZO App.dmg",
])
def test_ordinary_neighbours_pass(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", [
    "rm notes.md", "rm src/reproduce.py", "rm repro*.py", "rm .scratch.py", "rm credentials.bak",
    "rm ~/reproduce.py", "hdiutil create -encryption AES-256 -stdinpass -srcfolder build out.dmg",
    "hdiutil create -srcfolder ~/Documents /tmp/d.dmg",
])
def test_near_misses_of_what_passes_still_ask(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM, (command, got.rules)
