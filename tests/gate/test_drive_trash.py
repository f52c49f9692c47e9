"""A cloud drive's own "Move to trash" or "Delete" moves the selection to its trash, kept there to restore: it passes
on the drive's pages. Deleting for good, emptying the trash, a look-alike host or a storage console still ask."""

from __future__ import annotations

import pytest

from gate import SafetyGate
from gate.model import Click, Decision, Observation, Target

GATE = SafetyGate()


def _click(label: str, url: str):
    return GATE.assess(Click(x=10, y=10, target=Target(label=label), url=url), Observation(url=url))


@pytest.mark.parametrize(("label", "url"), [("Move to trash", "https://drive.google.com/drive/my-drive"),
                                            ("Delete", "https://www.dropbox.com/home/Reports"),
                                            ("Move to bin", "https://photos.google.com/photo/AF1Q"),
                                            ("Delete", "https://contoso-my.sharepoint.com/personal/ann/Documents")])
def test_to_the_drives_trash_passes(label: str, url: str) -> None:
    assert _click(label, url).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url"), [("Delete forever", "https://drive.google.com/drive/trash"),
                                            ("Empty trash", "https://drive.google.com/drive/trash"),
                                            ("Delete", "https://drive.google.com.example.top/drive"),
                                            ("Delete", "https://console.cloud.google.com/storage/browser/b")])
def test_for_good_elsewhere_or_look_alike_still_asks(label: str, url: str) -> None:
    assert _click(label, url).decision is not Decision.ALLOW
