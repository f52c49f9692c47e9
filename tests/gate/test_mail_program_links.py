"""A program, a script or a disguised archive opened from a mail or message page (block.web.mail-program-link in
gate/rules/web.py). Our own examples, written from banks' and consumer-protection advice on phishing attachments
(Action Fraud, the FTC, CISA): an "invoice" or "remittance advice" whose name ends in .exe, .scr or .js after a
document's extension, and an installer linked from a message. Trigger and near miss for each shape."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()
INBOX = "https://mail.example-webmail.com/mail/u/0/#inbox/184f2"
CHAT = "https://chat.example.org/messages/t/5512"


def open_link(url: str, page: str = ""):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation(url=page))


def click(page: str, label: str):
    action = {"type": "click", "url": page, "x": 40, "y": 40, "target": {"label": label}}
    return GATE.assess(action_from_dict(action), Observation(url=page))


@pytest.mark.parametrize("url", [
    "https://files.example.net/share/Remittance_Advice.pdf.exe",
    "https://cdn.example.org/u/scan_0042.jpg.scr",
    "https://storage.example.com/d/statement-march.pdf.zip",
    "https://dl.example.io/get?file=Purchase_Order.docx.js",
])
def test_a_document_name_before_a_programs_extension_blocks_from_anywhere(url):
    d = open_link(url)
    assert d.decision is Decision.BLOCK
    assert "block.web.mail-program-link" in d.rules


@pytest.mark.parametrize("url", [
    "https://files.example.net/share/Remittance_Advice.pdf",
    "https://data.example.org/sets/train.csv.zip",
    "https://logs.example.com/app.log.txt.gz",
    "https://example.com/photos-2024.zip",
])
def test_documents_data_archives_and_plain_archives_are_no_disguise(url):
    assert "block.web.mail-program-link" not in open_link(url).rules


@pytest.mark.parametrize("url", [
    "https://files.example.net/d/DocuViewer_Setup.exe", "https://files.example.net/d/payment.iso",
    "https://files.example.net/d/view_document.js", "https://files.example.net/d/update.msi",
])
def test_a_program_or_script_opened_from_a_mailbox_or_a_conversation_blocks(url):
    for page in (INBOX, CHAT):
        d = open_link(url, page)
        assert d.decision is Decision.BLOCK, (url, page)
        assert "block.web.mail-program-link" in d.rules


def test_the_same_program_from_a_download_page_or_a_vendors_release_host_does_not_block_here():
    assert "block.web.mail-program-link" not in open_link("https://files.example.net/d/DocuViewer_Setup.exe",
                                                          "https://www.example.net/download").rules
    assert "block.web.mail-program-link" not in open_link("https://www.python.org/ftp/python/3.12.0/python-3.12.0-amd64.exe",
                                                          INBOX).rules
    assert "block.web.mail-program-link" not in open_link("https://files.example.net/d/holiday-photos.zip", INBOX).rules


def test_clicking_a_disguised_attachment_in_a_mailbox_blocks_and_a_plain_one_passes():
    d = click(INBOX, "Invoice_0423.pdf.exe")
    assert d.decision is Decision.BLOCK
    assert "block.web.mail-program-link" in d.rules
    assert "block.web.mail-program-link" in click(INBOX, "tracking-label.pdf.js").rules
    assert "block.web.mail-program-link" not in click(INBOX, "tracking-label.js").rules  # asks elsewhere
    assert "block.web.mail-program-link" not in click(INBOX, "Invoice_0423.pdf").rules
    assert "block.web.mail-program-link" not in click(INBOX, "Team photos.zip").rules
    assert "block.web.mail-program-link" not in click("https://www.example.net/download", "setup.exe").rules
