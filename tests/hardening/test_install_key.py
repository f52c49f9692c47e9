"""The audit install key lives in the OS keyring where one answers, not in a file an agent can copy.

Before, the key was only `~/.local/state/deskgate/audit.key`: `cp -r ~/.local/state` took it, and with it a
short redacted password was recovered offline from its fingerprint. With a keyring (Secret Service via
`keyring`) the key is kept there, a file key is moved in and deleted, and a keyring that stops answering
later fails closed rather than a new key silently being made.
"""

from __future__ import annotations

import stat

import pytest

from app.audit.anchor import KEYRING_SERVICE, install_key


class MemoryKeyring:
    def __init__(self) -> None:
        self.items: dict[tuple[str, str], str] = {}
        self.down = False

    def get_password(self, service: str, username: str) -> str | None:
        if self.down:
            raise RuntimeError("the keyring is locked")
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        if self.down:
            raise RuntimeError("the keyring is locked")
        self.items[(service, username)] = password


def test_a_new_key_goes_to_the_keyring_and_no_file_holds_it(tmp_path):
    ring = MemoryKeyring()
    key = install_key(tmp_path, store=ring)
    assert len(key) == 32
    assert not (tmp_path / "audit.key").exists()
    assert [s for s, _ in ring.items] == [KEYRING_SERVICE]
    assert install_key(tmp_path, store=ring) == key
    assert key not in b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())


def test_a_file_key_is_moved_into_the_keyring_unchanged(tmp_path):
    old = install_key(tmp_path, store=None)
    assert stat.S_IMODE((tmp_path / "audit.key").stat().st_mode) == 0o600
    ring = MemoryKeyring()
    assert install_key(tmp_path, store=ring) == old  # fingerprints already in the log stay comparable
    assert not (tmp_path / "audit.key").exists()


def test_a_keyring_that_stops_answering_fails_closed(tmp_path):
    ring = MemoryKeyring()
    install_key(tmp_path, store=ring)
    ring.down = True
    with pytest.raises(OSError, match="keyring"):
        install_key(tmp_path, store=ring)
    with pytest.raises(OSError, match="keyring"):
        install_key(tmp_path, store=None)  # and no new file key is made behind the person's back
    assert not (tmp_path / "audit.key").exists()


def test_without_a_keyring_the_key_is_a_0600_file(tmp_path):
    key = install_key(tmp_path, store=None)
    path = tmp_path / "audit.key"
    assert path.read_bytes() == key and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert install_key(tmp_path, store=None) == key


def test_a_keyring_that_refuses_at_first_use_leaves_the_file_key(tmp_path):
    ring = MemoryKeyring()
    ring.down = True
    key = install_key(tmp_path, store=ring)
    assert (tmp_path / "audit.key").read_bytes() == key
