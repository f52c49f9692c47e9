"""Mail stores are private data to read; a browser profile counts by the files that hold its secrets."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

_GATE = SafetyGate()


def _read(path: str) -> str:
    return _GATE.assess(action_from_dict({"type": "file_read", "path": path}), Observation()).decision


@pytest.mark.parametrize("path", [
    "C:\\Users\\maria\\Documents\\Outlook Files\\archive2023.pst",
    "C:\\Users\\maria\\AppData\\Local\\Microsoft\\Outlook\\maria@example.org.ost",
    "/Users/ken/Documents/Outlook for Mac Archive.olm",
    "/home/ken/.thunderbird/q1w2e3.default-release/ImapMail/imap.example.net/INBOX",
    "/home/ken/.thunderbird/q1w2e3.default-release/Mail/Local Folders/Sent.msf",
    "C:\\Users\\ken\\AppData\\Roaming\\Thunderbird\\Profiles\\ab12.default\\Mail\\pop.example.com\\Inbox",
    "/Users/ken/Library/Mail/V10/4F2A/Archive.mbox/Messages/5521.emlx",
    "/home/ken/Mail/2021-backup.mbox",
    "/home/ken/mail/saved/receipt-from-bank.eml",
    "/home/ken/Maildir/cur/1700000000.M1P2.host:2,S",
    "/var/spool/mail/ken",
    "C:\\Users\\ken\\AppData\\Local\\Comms\\Unistore\\data\\3\\x.dat",
])
def test_reading_a_mail_store_asks(path: str) -> None:
    assert _read(path) in ("confirm", "block")


@pytest.mark.parametrize("path", [
    "/home/ken/.config/chromium/Default/Cookies",
    "/home/ken/.config/google-chrome/Profile 2/History",
    "C:\\Users\\ken\\AppData\\Local\\Microsoft\\Edge\\User Data\\Default\\Web Data",
    "C:\\Users\\ken\\AppData\\Local\\BraveSoftware\\Brave-Browser\\User Data\\Local State",
    "/Users/ken/Library/Application Support/Google/Chrome/Default/Local Storage/leveldb/000005.ldb",
    "/home/ken/.mozilla/firefox/k9.default-release/logins.json",
    "/home/ken/.mozilla/firefox/k9.default-release/places.sqlite",
    "C:\\Users\\ken\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles\\k9.default\\cookies.sqlite",
    "/home/ken/.mozilla/firefox/k9.default-release",
    "/home/ken/.config/google-chrome",
])
def test_a_browser_profiles_secret_files_still_ask(path: str) -> None:
    assert _read(path) in ("confirm", "block")


@pytest.mark.parametrize("path", [
    "C:\\Users\\ken\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Extensions\\aapbdbdomjkkjkaonfhkkikfgjllcleb"
    "\\2.0.13_0\\manifest.json",
    "/home/ken/.config/google-chrome/Default/Extensions/ghbmnnjooekpmoecnnnilnnbdlolhkhi/1.81.1_0/_locales/en/messages.json",
    "/home/ken/.mozilla/firefox/k9.default-release/extensions/uBlock0@raymondhill.net.xpi",
    "C:\\Users\\ken\\AppData\\Local\\Microsoft\\Edge\\User Data\\Default\\Bookmarks",
    "/home/ken/project/tests/fixtures/welcome.eml",
    "/home/ken/notes/postmaster-howto.txt",
])
def test_an_extension_file_or_a_fixture_passes(path: str) -> None:
    assert _read(path) == "allow"
