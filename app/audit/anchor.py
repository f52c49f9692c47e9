"""What the audit log keeps outside its own file, next to the kill state (the user state dir).

- The chain's head: how many rows the chain has had (its last chain position) and the last row's hash,
  rewritten after every group commit. `log verify` compares the database with it, so a log whose tail
  was cut (rows deleted, the WAL truncated, every row deleted) no longer verifies as intact.
  One small file per database (named by a digest of the database's absolute path), two fixed slots
  written alternately, each with its own checksum: a torn write leaves the other slot readable.
  Each rewrite goes to the page cache at once (what any process reading the file sees, an attacker of
  the same uid included) but is fsync'd only now and then (the writer's `sync`): the head exists to
  catch rows cut from a running system, and a power loss can only leave it *behind* the database (it
  is written after the commit it records is durable), which verify accepts with a note. A head ahead
  of the database would mean rows are missing; that cannot come from a crash, only from a cut.
- The per-install key: 32 random bytes for the keyed fingerprints (HMAC-SHA-256) that stand in for
  secrets in the log. Kept in the OS keyring where one answers (Secret Service via `keyring`; a marker
  file says so, and a keyring that stops answering then fails closed), else a 0600 file created on first
  use. See SECURITY.md for what each gives.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import hashlib
import logging
import os
import secrets
import struct
from pathlib import Path
from typing import Protocol

__all__ = ["ChainHead", "ChainHeadFile", "KeyStore", "default_state_dir", "head_path", "install_key", "os_keyring"]

log = logging.getLogger(__name__)

_MAGIC = b"DGHEAD01"
_SLOT = 128
_LAYOUT = struct.Struct("<8sQ32s")  # magic, last chain position, last hash
_KEY_BYTES = 32


def default_state_dir() -> Path:
    from app.config import default_paths

    return default_paths().state_dir


def head_path(state_dir: Path, db: Path) -> Path:
    """Where the head of the chain in `db` is kept."""
    name = hashlib.sha256(str(Path(db).absolute()).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return Path(state_dir) / "audit-chain" / f"{name}.head"


def _private_dir(path: Path) -> None:
    path.mkdir(mode=0o700, parents=True, exist_ok=True)


@dataclasses.dataclass(frozen=True)
class ChainHead:
    seq: int     # the last chain position written (0: nothing yet)
    hash: bytes  # that row's hash


class ChainHeadFile:
    """The head file of one database. `write` is called by the audit writer thread only."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        self._dirty = False  # written since the last fdatasync

    def read(self) -> ChainHead | None:
        """The newest intact slot; None when there is no file. OSError/ValueError when it is unreadable
        or no slot is intact (the caller fails closed)."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        best: ChainHead | None = None
        for offset in (0, _SLOT):
            slot = raw[offset:offset + _SLOT]
            if len(slot) < _LAYOUT.size + 32:
                continue
            body, check = slot[:_LAYOUT.size], slot[_LAYOUT.size:_LAYOUT.size + 32]
            if hashlib.sha256(body).digest() != check:
                continue
            magic, seq, last = _LAYOUT.unpack(body)
            if magic == _MAGIC and (best is None or seq > best.seq):
                best = ChainHead(seq, last)
        if best is None:
            raise ValueError(f"the audit chain head {self.path} is corrupt")
        return best

    def write(self, head: ChainHead, *, sync: bool = True) -> None:
        """Record the head (slot by parity of the position, so the previous one survives a torn write);
        with `sync`, durably (else it is durable at the next `sync`). Raises OSError."""
        if self._fd is None:
            _private_dir(self.path.parent)
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            with contextlib.suppress(OSError):
                dfd = os.open(self.path.parent, os.O_RDONLY)
                try:
                    os.fsync(dfd)
                finally:
                    os.close(dfd)
        body = _LAYOUT.pack(_MAGIC, head.seq, head.hash)
        slot = (body + hashlib.sha256(body).digest()).ljust(_SLOT, b"\0")
        os.pwrite(self._fd, slot, (head.seq % 2) * _SLOT)
        self._dirty = True
        if sync:
            self.sync()

    @property
    def dirty(self) -> bool:
        """Written since it was last made durable."""
        return self._dirty

    def sync(self) -> None:
        """Make the last write durable (nothing to do when it already is). Raises OSError."""
        if self._fd is not None and self._dirty:
            os.fdatasync(self._fd)
            self._dirty = False

    def identity(self) -> tuple[int, int] | None:
        """(device, inode) of the open file: the writer checks it was not replaced under it."""
        return None if self._fd is None else (os.fstat(self._fd).st_dev, os.fstat(self._fd).st_ino)

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                self.sync()
            os.close(self._fd)
            self._fd = None


KEYRING_SERVICE = "deskgate"
_IN_KEYRING = "audit.key.in-keyring"  # a marker beside the key's place: "the key lives in the OS keyring"


class KeyStore(Protocol):
    """Where the install key is kept when not in the 0600 file: the OS keyring (keyring's API subset)."""

    def get_password(self, service: str, username: str) -> str | None: ...
    def set_password(self, service: str, username: str, password: str) -> None: ...


def os_keyring() -> KeyStore | None:
    """The OS keyring (Secret Service on Linux, Keychain, Credential Locker) when one answers, else None.
    `DESKGATE_KEYRING=off` skips it."""
    if os.environ.get("DESKGATE_KEYRING", "").lower() in ("off", "0", "no", "file"):
        return None
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return None
    try:
        backend = keyring.get_keyring()
    except Exception as err:  # a broken backend configuration: the file it is
        log.warning("no OS keyring (%s); the install key stays in a 0600 file", err)
        return None
    if isinstance(backend, fail.Keyring) or getattr(backend, "priority", 0) <= 0:
        return None
    return backend


def install_key(state_dir: Path, *, store: KeyStore | bool | None = True) -> bytes:
    """The per-install secret for keyed fingerprints.

    In the OS keyring where one answers (`store`, default: `os_keyring()`): a key found in the 0600 file
    is moved there and the file removed, and a marker file records that the key lives in the keyring,
    so a keyring that stops answering later fails closed (OSError) instead of a new key being made.
    Otherwise the 0600 file `audit.key`: read it, or create it on first use. Raises OSError / ValueError
    when the key exists but cannot be read or is not a key (fail closed)."""
    state_dir = Path(state_dir)
    keystore = os_keyring() if store is True else (store or None)
    marker = state_dir / _IN_KEYRING
    user = f"audit-key:{os.path.realpath(state_dir)}"
    if keystore is not None:
        try:
            return _keyring_key(keystore, user, state_dir)
        except Exception as err:
            if marker.exists():
                raise OSError(f"the audit install key is in the OS keyring, which does not answer: {err}") from err
            log.warning("the OS keyring cannot keep the install key (%s); it stays in a 0600 file", err)
    elif marker.exists():
        raise OSError("the audit install key is in the OS keyring, and no keyring answers here")
    return _file_key(state_dir)


def _keyring_key(keystore: KeyStore, user: str, state_dir: Path) -> bytes:
    stored = keystore.get_password(KEYRING_SERVICE, user)
    if stored is not None:
        key = base64.b64decode(stored, validate=True)
        if len(key) != _KEY_BYTES:
            raise ValueError(f"the keyring's deskgate audit key is not a key ({len(key)} bytes)")
        _write_marker(state_dir)
        return key
    path = state_dir / "audit.key"
    key = _file_key(state_dir) if path.exists() else secrets.token_bytes(_KEY_BYTES)
    keystore.set_password(KEYRING_SERVICE, user, base64.b64encode(key).decode("ascii"))
    back = keystore.get_password(KEYRING_SERVICE, user)
    if back is None or base64.b64decode(back) != key:
        raise OSError("the OS keyring did not keep the install key")
    _write_marker(state_dir)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # the key now lives in the keyring only: no file to copy out
    return key


def _write_marker(state_dir: Path) -> None:
    marker = state_dir / _IN_KEYRING
    if marker.exists():
        return
    _private_dir(state_dir)
    fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, b"the deskgate audit install key is kept in the OS keyring (service 'deskgate')\n")
        os.fsync(fd)
    finally:
        os.close(fd)


def _file_key(state_dir: Path) -> bytes:
    """The 0600 file `audit.key`: read it, or create it on first use."""
    path = Path(state_dir) / "audit.key"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        _private_dir(path.parent)
        key = secrets.token_bytes(_KEY_BYTES)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, key)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # appears whole or not at all; never replaces a key another process made
        except FileExistsError:
            return _file_key(state_dir)
        finally:
            tmp.unlink()
        return key
    if len(data) != _KEY_BYTES:
        raise ValueError(f"{path} is not a deskgate audit key ({len(data)} bytes)")
    return data
