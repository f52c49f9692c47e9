"""Shell forms of the same classes: macOS password hashes and the local directory service, launchd jobs dressed as
Apple's, container images of attack frameworks, netcat connecting out, and a credential holder's memory dumped."""

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def shell(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


def file_action(op: str, path: str, content: str = ""):
    d = {"type": f"file_{op}", "path": path}
    if op == "write":
        d["content"] = content
    return GATE.assess(action_from_dict(d))


@pytest.mark.parametrize("command", [
    "sudo plutil -convert xml1 -o - /var/db/dslocal/nodes/Default/users/carol.plist",
    "sudo /usr/libexec/PlistBuddy -c 'Print :ShadowHashData' /var/db/dslocal/nodes/Default/users/carol.plist",
    "sudo cp -R /private/var/db/dslocal/nodes/Default/users ~/Desktop/u",
    "sudo tar czf /tmp/ds.tgz /var/db/dslocal",
    "sudo dscl . -read /Users/carol dsAttrTypeNative:ShadowHashData",
])
def test_reading_macos_password_hashes_blocks(command):
    assert shell(command).decision is Decision.BLOCK


def test_reading_a_directory_service_record_as_a_file_blocks():
    assert file_action("read", "/var/db/dslocal/nodes/Default/users/carol.plist").decision is Decision.BLOCK


@pytest.mark.parametrize("command", ["dscl . -list /Users", "dscl . -read /Users/carol RealName", "id carol"])
def test_listing_accounts_passes(command):
    assert shell(command).decision is Decision.ALLOW


@pytest.mark.parametrize("command", [
    "cp agent.plist ~/Library/LaunchAgents/com.apple.photoanalysisd-helper.plist",
    "sudo mv /tmp/j.plist /Library/LaunchDaemons/com.apple.diskmanagementd2.plist",
    "tee ~/Library/LaunchAgents/com.apple.cloudsync.plist < job.xml",
    "cat > ~/Library/LaunchAgents/sync.plist <<EOF\n<plist><dict><key>Label</key><string>com.apple.sync</string>"
    "</dict></plist>\nEOF",
    "defaults write ~/Library/LaunchAgents/com.apple.indexer Label com.apple.indexer",
])
def test_a_launchd_job_dressed_as_apple_blocks(command):
    assert shell(command).decision is Decision.BLOCK


@pytest.mark.parametrize(("path", "content"), [
    ("/Users/carol/Library/LaunchAgents/com.apple.assistantd2.plist",
     "<plist><dict><key>Label</key><string>com.apple.assistantd2</string><key>ProgramArguments</key><array>"
     "<string>/Applications/Helper.app/Contents/MacOS/helper</string></array></dict></plist>"),
    ("/Users/carol/Library/LaunchAgents/org.carol.backup.plist",
     "<plist><dict><key>Label</key><string>com.apple.backup.agent</string></dict></plist>"),
])
def test_writing_a_launchd_job_under_apples_name_blocks(path, content):
    assert file_action("write", path, content).decision is Decision.BLOCK


def test_an_ordinary_launchd_job_still_only_asks():
    a = file_action("write", "/Users/carol/Library/LaunchAgents/org.carol.backup.plist",
                    "<plist><dict><key>Label</key><string>org.carol.backup</string><key>ProgramArguments</key>"
                    "<array><string>/usr/local/bin/restic</string></array></dict></plist>")
    assert a.decision is Decision.CONFIRM, a.rules


@pytest.mark.parametrize("command", [
    "cat ~/Library/LaunchAgents/com.apple.foo.plist",
    "cp ~/Library/LaunchAgents/com.apple.foo.plist /tmp/",
    "plutil -p /System/Library/LaunchDaemons/com.apple.smbd.plist",
    "defaults read ~/Library/LaunchAgents/com.apple.helper",
])
def test_reading_launchd_jobs_passes(command):
    assert shell(command).decision is Decision.ALLOW


@pytest.mark.parametrize("command", [
    "docker run -d -p 1337:1337 bcsecurity/empire:latest",
    "docker pull metasploitframework/metasploit-framework",
    "podman run --rm -it docker.io/kalilinux/kali-rolling",
    "docker image pull kalilinux/kali-last-release",
    "docker container run -it parrotsec/security",
    "nerdctl run -d ghcr.io/bishopfox/sliver",
    "docker run --rm -p 7443:7443 its-a-feature/mythic_server",
    "docker run -it cobbr/covenant",
])
def test_an_attack_frameworks_image_asks(command):
    a = shell(command)
    assert a.decision is not Decision.ALLOW and "confirm.shell.attack-tool-download" in a.rules, a.rules


@pytest.mark.parametrize("command", [
    "docker run --rm -it nginx",
    "docker run --name sliver -d nginx",
    "docker run -v /opt/empire:/data alpine ls",
    "docker pull postgres:16",
    "docker run -e MODE=dev --network host ghcr.io/acme/api:1.2",
    "docker exec -it web bash",
    "podman run -it ubuntu:22.04 bash",
])
def test_ordinary_images_do_not_ask_as_attack_tools(command):
    assert "confirm.shell.attack-tool-download" not in shell(command).rules


@pytest.mark.parametrize("command", [
    "nc 198.51.100.20 9001", "nc.exe 198.51.100.20 9001", "ncat.exe 192.0.2.8 4000", "C:\\Tools\\nc.exe 10.1.2.3 443",
    "ncat --ssl chat.example.net 6697",
])
def test_netcat_connecting_out_asks_whatever_its_spelling(command):
    assert shell(command).decision is Decision.CONFIRM


@pytest.mark.parametrize("command", ["nc -zv 10.0.0.5 22", "nc.exe -z 10.0.0.5 80", "nc -h", "nc localhost 6379",
                                     "nc.exe 127.0.0.1 8080"])
def test_a_netcat_port_check_or_a_local_service_passes(command):
    assert shell(command).decision is Decision.ALLOW


def test_both_spellings_judged_alike():
    assert shell("nc.exe 203.0.113.4 8080").decision is shell("nc 203.0.113.4 8080").decision


@pytest.mark.parametrize("command", ["procdump -ma lsass.exe out.dmp",
                                     "rundll32.exe C:\\Windows\\System32\\comsvcs.dll, MiniDump 624 C:\\t\\o.dmp full",
                                     "lldb -p 311 -o 'process save-core /tmp/x.core'"])
def test_dumping_a_credential_holder_blocks(command):
    assert shell(command).decision is Decision.BLOCK


@pytest.mark.parametrize("command", ["sudo defaults read /private/tmp/u.plist ShadowHashData",
                                     "plutil -extract ShadowHashData xml1 -o - /tmp/copy.plist"])
def test_a_password_hash_read_from_any_record_blocks(command):
    assert shell(command).decision is Decision.BLOCK


@pytest.mark.parametrize("command", [
    "gsettings set org.gnome.desktop.remote-desktop.vnc view-only false",
    "gsettings set org.gnome.desktop.screensaver lock-enabled false",
    "kwriteconfig6 --file kscreenlockerrc --group Daemon --key Autolock false",
    "grdctl rdp enable",
])
def test_the_desktop_opened_or_unlocked_from_a_shell_asks(command):
    assert shell(command).decision is not Decision.ALLOW


@pytest.mark.parametrize("command", [
    "gsettings get org.gnome.desktop.remote-desktop.rdp enable",
    "gsettings set org.gnome.desktop.interface color-scheme prefer-dark",
    "kwriteconfig5 --file kdeglobals --group General --key ColorScheme BreezeDark",
    "defaults read com.apple.finder",
])
def test_ordinary_desktop_settings_pass(command):
    assert shell(command).decision is Decision.ALLOW
