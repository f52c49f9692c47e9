"""A browser started with a remote-debugging port on the person's own profile, under every platform's program
name (the macOS app bundle's "Google Chrome", Windows' chrome.exe): whoever connects reads every cookie."""

from __future__ import annotations

import pytest

from gate.model import Decision
from tests.gate.table_sections import shell


@pytest.mark.parametrize("command", [
    '"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" --remote-debugging-port=9333 '
    '--user-data-dir="/Users/kim/Library/Application Support/Google/Chrome"',
    '"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe" --remote-debugging-port=9333 '
    '--user-data-dir="C:\\Users\\kim\\AppData\\Local\\Google\\Chrome\\User Data"',
    '"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge" --remote-debugging-port=9333 '
    '--profile-directory=Default',
])
def test_the_persons_profile_opened_to_debugging_blocks(command):
    assert shell(command).decision is Decision.BLOCK, shell(command).rules


@pytest.mark.parametrize("command", [
    "google-chrome --remote-debugging-port=9333 --user-data-dir=/tmp/chrome-ci",
    "chrome --headless --dump-dom https://example.org",
])
def test_a_throwaway_profile_does_not_block(command):
    assert shell(command).decision is not Decision.BLOCK
