"""A Mac's own tools, by flag: reading a setting passes, turning a protection back on asks, turning one off,
handing out a stored password or planting a job from a temporary place is refused (resources/programs.toml,
the macOS section at its end)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict

GATE = SafetyGate(default_policy())


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


BLOCKED = [
    # quarantine stripped from a download, or forged as already approved
    "xattr -d com.apple.quarantine ~/Downloads/Tool.app",
    "xattr -rd com.apple.quarantine /Applications/Tool.app",
    "xattr -cr /Volumes/Tool/Tool.app",
    "xattr -c ~/Downloads/tool.dmg",
    'xattr -w com.apple.quarantine "00c3;00000000;Chrome;" ~/Downloads/Tool.app',
    # protections switched off through their preference keys
    "defaults write com.apple.screensaver askForPassword -bool false",
    "defaults -currentHost write com.apple.screensaver askForPassword -bool NO",
    "sudo defaults write /Library/Preferences/com.apple.SoftwareUpdate AutomaticallyInstallMacOSUpdates -bool false",
    "sudo defaults write /Library/Preferences/com.apple.SoftwareUpdate AutomaticDownload -bool false",
    "sudo defaults write /Library/Preferences/com.apple.commerce AutoUpdate -bool false",
    "sudo defaults write /var/db/santa/config.plist ClientMode -integer 1",
    "sudo defaults write /Library/Preferences/com.apple.loginwindow GuestEnabled -bool true",
    "sudo defaults write /Library/Preferences/com.apple.loginwindow autoLoginUser alice",
    "tccutil reset All",
    "sudo networksetup -setwebproxy Wi-Fi 198.51.100.7 8080",
    "sudo networksetup -setautoproxyurl Wi-Fi http://198.51.100.7/proxy.pac",
    "sudo defaults write /Library/Preferences/com.apple.alf stealthenabled -int 0",
    "sudo defaults write /var/db/launchd.db/com.apple.launchd/overrides.plist com.apple.screensharing -dict Disabled "
    "-bool false",
    "sudo santactl rule --allow --path /Users/Shared/.cache/agent",
    "sudo sysadminctl -autologin set -userName alice -password secret",
    "sudo /usr/libexec/ApplicationFirewall/socketfilterfw --add /private/tmp/.x/agent",
    # the keychain's secrets handed out
    "security find-internet-password -s mail.example.org -w",
    "security find-internet-password -g -a alice -s example.org",
    "security unlock-keychain -p letmein ~/Library/Keychains/login.keychain-db",
    "tar czf /tmp/k.tgz ~/Library/Keychains",
    "ditto -c -k ~/Library/Messages /private/tmp/m.zip",
    "zip -r /Users/Shared/.c.zip ~/Library/Application\\ Support/Google/Chrome",
    "screencapture -x -C /private/tmp/.d.jpg",
    "cp -R ~/Library/Application\\ Support/BraveSoftware /private/tmp/b",
    "rsync -a ~/Library/Application\\ Support/Exodus/ /Users/Shared/.w/",
    "osascript -e 'tell application \"Finder\" to duplicate (every file of desktop whose name extension is "
    "\"docx\") to folder (POSIX file \"/private/tmp/d\")'",
    # launch items planted from a temporary, shared or hidden place
    "mv /tmp/x.plist ~/Library/LaunchAgents/com.example.sync.plist",
    "sudo cp /Users/Shared/helper /Library/PrivilegedHelperTools/com.example.helper",
    "cp ~/.cache/.job.plist ~/Library/LaunchAgents/",
]

CONFIRMED = [
    "xattr -cr build/Release/MyApp.app",
    'xattr -w com.apple.quarantine "0081;00000000;Chrome;" ~/Downloads/Tool.app',
    "defaults write com.apple.screensaver askForPassword -bool true",
    "sudo defaults write /Library/Preferences/com.apple.SoftwareUpdate AutomaticallyInstallMacOSUpdates -bool true",
    "sudo defaults write /var/db/santa/config.plist ClientMode -int 2",
    "tccutil reset All com.example.editor",
    "tccutil reset Camera",
    "sudo networksetup -setsecurewebproxy Wi-Fi proxy.corp.example.com 3128",
    "sudo networksetup -setwebproxy Wi-Fi 192.168.1.5 3128",
    "sudo defaults write /Library/Preferences/com.apple.alf stealthenabled -int 1",
    "sudo defaults write /var/db/launchd.db/com.apple.launchd/overrides.plist com.apple.screensharing -dict Disabled "
    "-bool true",
    "sudo santactl rule --allow --path /Applications/Editor.app",
    "sudo pkgutil --forget com.example.tool",
    "sudo /usr/libexec/ApplicationFirewall/socketfilterfw --add /Applications/Zoom.app",
    "security find-internet-password -s example.org",
    'security unlock-keychain -p "$KEYCHAIN_PASSWORD" build.keychain',
    "screencapture -x ~/Desktop/window.png",
    "cp ./com.example.agent.plist ~/Library/LaunchAgents/",
    "mas install 409183694",
    "mas purchase 409183694",
    "mas lucky Xcode",
    "dockutil --add /Applications/Safari.app '/System/Library/User Template/English.lproj'",
    "sudo systemsetup -getremotelogin -setremotelogin off",
    "sudo networksetup -getinfo Wi-Fi -setdnsservers Wi-Fi 9.9.9.9",
    "sudo sysadminctl -secureTokenStatus alice -deleteUser bob",
]

ALLOWED = [
    "xattr -p com.apple.quarantine ~/Downloads/Tool.app",
    "xattr -l ~/Downloads/tool.dmg",
    "ditto -c -k ~/Library/Mail ~/Backups/mail.zip",
    "cp ~/Library/Application\\ Support/Code/User/settings.json /tmp/settings.json",
    "osascript -e 'tell application \"Finder\" to duplicate (every file of desktop whose name extension is "
    "\"docx\") to folder (POSIX file \"/Volumes/Backup/docs\")'",
    "screencapture -i ~/Desktop/part.png",
    "mas list",
    "mas search Pages",
    "dockutil --add /Applications/Calculator.app --position 3",
    "outset --checksum /usr/local/outset/login-once/greet.sh",
    "sudo /usr/local/outset/outset --checksum /usr/local/outset/boot-every/mount.sh",
    "sudo systemsetup -getcomputersleep",
    "systemsetup -getremoteappleevents",
    "sudo networksetup -getdnsservers Ethernet",
    "networksetup -listallhardwareports",
    "sudo sysadminctl -secureTokenStatus alice",
    "sudo pkgutil --check-signature ~/Downloads/Tool.pkg",
    "sudo pkgutil --pkg-info com.example.tool",
    "plutil -p ~/Library/LaunchAgents/com.apple.example.plist",
    "plutil -lint ~/Library/LaunchAgents/com.apple.example.plist",
]


@pytest.mark.parametrize("command", BLOCKED)
def test_protection_off_or_secret_out_is_refused(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "block", (command, got.rules)


@pytest.mark.parametrize("command", CONFIRMED)
def test_the_same_tools_turning_protections_on_or_installing_ask(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "confirm", (command, got.rules)


@pytest.mark.parametrize("command", ALLOWED)
def test_reading_and_the_owners_own_changes_pass(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "allow", (command, got.rules)


def test_a_plist_written_under_apples_name_is_still_refused() -> None:
    got = shell("plutil -replace ProgramArguments -json '[\"/tmp/x\"]' ~/Library/LaunchAgents/com.apple.x.plist")
    assert got.decision.value == "block"


# the folder every account shares (/Users/Shared) is where macOS droppers stage: a hidden payload there made
# runnable, or started from a shell's start-up file, is refused; an ordinary script there does not
@pytest.mark.parametrize(("command", "decision"), [
    ("chmod +x /Users/Shared/.cache/agent", "block"),
    ("echo '/Users/Shared/.cache/agent &' >> ~/.zprofile", "block"),
    ("/Users/Shared/.cache/agent &", "block"),
    ("chmod 755 /private/tmp/.x/run", "confirm"),
    ("chmod +x /Users/Shared/Scripts/backup.sh", "allow"),
    ("chmod 644 /Users/Shared/.settings", "allow"),
])
def test_payloads_staged_in_the_shared_folder(command: str, decision: str) -> None:
    got = shell(command)
    assert got.decision.value == decision, (command, got.rules)


# the administrators' dialog tools raise the same message box as osascript: a lure in one is refused
@pytest.mark.parametrize(("command", "decision"), [
    ('dialog --title "IT" --message "Download the helper from [here](http://it-helpdesk.support/fix.pkg) now"',
     "block"),
    ('jamfHelper -windowType utility -description "Your Apple ID is locked. Verify your account at '
     'http://appleid-check.help/login" -button1 Verify', "block"),
    ('dialog --title "Updates" --message "The Mac restarts at 17:00 to finish updating" --button1text OK', "allow"),
    ("dialog --msgbox 'Backup finished' 8 40", "allow"),
])
def test_admin_dialog_tools_that_phish(command: str, decision: str) -> None:
    got = shell(command)
    assert got.decision.value == decision, (command, got.rules)
