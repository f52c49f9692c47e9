"""File actions that act on exactly the path that was judged, through file descriptors.

The gate resolves a file action's path once (`~`, relative paths, `..`, symlinks) and judges that real
path; the supervisor hands the judged path to the executor (`Executor.execute(..., judged=...)`). Here
that path is never resolved again:

- `open_dir(path)` walks it from `/` one component at a time, each opened relative to the previous
  directory's fd with `O_NOFOLLOW | O_DIRECTORY`: a component that is (or has become) a symlink stops the
  walk (`PathMoved`) instead of redirecting it. The directory fd's real path (`/proc/self/fd`) is checked
  against the judged parent once more.
- the final component is looked at with `O_PATH | O_NOFOLLOW` first: an `O_PATH` descriptor opens
  nothing for reading or writing, and closing it does not drop the POSIX locks another descriptor of the
  same process holds on that file (SQLite's). Its inode is compared with deskgate's own files before
  anything real is opened, so the supervisor never opens its own database on an agent's behalf, not
  even through a hard link. Reading re-opens that same inode (`/proc/self/fd/N`).
- writing creates a temporary file in the directory fd (`O_EXCL | O_NOFOLLOW`) and renames it over the
  name in that same directory fd; deleting unlinks the name in the directory fd; moving renames between
  two directory fds without replacing (`renameat2(RENAME_NOREPLACE)` where libc has it).

`Guard` says what is deskgate's own: its directories (config, data, state, runtime) by real path, and its
files (the audit DB, its WAL and SHM, the chain head, the key, the kill state) by inode, read at each check.
Linux only for the `/proc` checks; elsewhere the component walk alone holds.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Guard", "OwnFile", "PathMoved", "fd_path", "open_dir", "open_path_only", "own_paths", "parent_dir",
           "rename_noreplace", "reopen"]

_O_PATH = getattr(os, "O_PATH", 0)
# O_PATH: a directory is reached with search permission alone, as path lookup would
_DIR_FLAGS = (_O_PATH or os.O_RDONLY) | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class PathMoved(Exception):
    """A component of the judged path is no longer what was judged (a symlink, not a directory, moved)."""


class OwnFile(Exception):
    """The path is one of deskgate's own files or directories: never acted on for an agent."""


def fd_path(fd: int) -> str | None:
    """The real path the kernel has for an open fd, or None where /proc cannot say."""
    try:
        link = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    return link if link.startswith("/") else None


def _components(path: str) -> list[str]:
    if not path.startswith("/"):
        raise PathMoved(f"{path!r} is not an absolute path")
    parts = [p for p in path.split("/") if p]
    if any(p in (".", "..") for p in parts):
        raise PathMoved(f"{path!r} is not a resolved path")
    return parts


def open_dir(path: str) -> int:
    """An fd of directory `path`, reached without following any symlink. Raises PathMoved, OSError."""
    fd = os.open("/", _DIR_FLAGS)
    try:
        for part in _components(path):
            try:
                nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as err:
                if err.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise PathMoved(f"{path}: {part!r} is no longer a directory (a symlink took its place)") from None
                raise
            os.close(fd)
            fd = nxt
            if not stat.S_ISDIR(os.fstat(fd).st_mode):
                raise PathMoved(f"{path}: {part!r} is no longer a directory")
        real = fd_path(fd)
        if real is not None and real != (path.rstrip("/") or "/"):
            raise PathMoved(f"{path}: the directory opened is {real}")
        return fd
    except BaseException:
        os.close(fd)
        raise


@contextlib.contextmanager
def parent_dir(path: str) -> Iterator[tuple[int, str]]:
    """(fd of the parent directory, final name) for judged path `path`; the fd is closed after."""
    parent, name = os.path.split(path)
    if not name or name in (".", ".."):
        raise PathMoved(f"{path!r} names no file")
    fd = open_dir(parent or "/")
    try:
        yield fd, name
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Guard:
    """deskgate's own directories and files, which no file action touches on an agent's behalf."""

    dirs: tuple[str, ...] = ()   # real paths of directories, compared by path and by (device, inode)
    files: tuple[str, ...] = ()  # files compared by (device, inode) at each check (the WAL comes and goes)

    @classmethod
    def of(cls, dirs: Iterable[str | os.PathLike[str]], files: Iterable[str | os.PathLike[str]] = ()) -> Guard:
        real_dirs: list[str] = []
        for d in dirs:
            real = os.path.realpath(os.fspath(d))
            if real != "/" and real not in real_dirs:
                real_dirs.append(real)
        return cls(tuple(real_dirs), tuple(os.fspath(f) for f in files))

    def _inodes(self) -> set[tuple[int, int]]:
        out: set[tuple[int, int]] = set()
        for p in (*self.dirs, *self.files):
            with contextlib.suppress(OSError):
                st = os.stat(p)
                out.add((st.st_dev, st.st_ino))
        return out

    def _linked_to_own(self, st: os.stat_result) -> bool:
        """Is this inode one of deskgate's? Its listed files always; with more than one name (a hard link
        made elsewhere to the key, the kill state, a backup), anything in its directories too."""
        ident = (st.st_dev, st.st_ino)
        if ident in self._inodes():
            return True
        if st.st_nlink <= 1 or not stat.S_ISREG(st.st_mode):
            return False
        for d in self.dirs:
            for root, _dirs, names in os.walk(d):
                for name in names:
                    with contextlib.suppress(OSError):
                        own = os.stat(os.path.join(root, name), follow_symlinks=False)
                        if (own.st_dev, own.st_ino) == ident:
                            return True
        return False

    def check_path(self, path: str) -> None:
        """Raise OwnFile when `path` (a real path) is inside one of deskgate's directories."""
        for d in self.dirs:
            if path == d or path.startswith(d + "/"):
                raise OwnFile(f"{path} is deskgate's own ({d})")
        if path in self.files:
            raise OwnFile(f"{path} is deskgate's own file")

    def check_dir_fd(self, fd: int, shown: str) -> None:
        """The opened directory, by its real path and by its inode, is not deskgate's own."""
        real = fd_path(fd) or shown
        self.check_path(real)
        if not self.dirs:
            return
        own = self._inodes()
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) in own:
            raise OwnFile(f"{shown} is deskgate's own directory")

    def check_entry(self, dir_fd: int, name: str, shown: str) -> os.stat_result | None:
        """lstat of `name` in the directory fd (None when absent); OwnFile when it is one of deskgate's files
        (a hard link to the audit DB under another name included)."""
        try:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if self._linked_to_own(st):
            raise OwnFile(f"{shown} is deskgate's own file")
        return st

    def check_fd(self, fd: int, shown: str) -> os.stat_result:
        """After an O_PATH open: the inode is not deskgate's own. Returns its fstat."""
        st = os.fstat(fd)
        if self._linked_to_own(st):
            raise OwnFile(f"{shown} is deskgate's own file")
        real = fd_path(fd)
        if real is not None:
            self.check_path(real)
        return st


def open_path_only(dir_fd: int, name: str) -> int:
    """An O_PATH fd of `name` in the directory (the entry itself if it is a symlink). Linux; elsewhere a
    plain non-blocking read-only open."""
    if _O_PATH:
        return os.open(name, _O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    return os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)


def reopen(path_fd: int, flags: int) -> int:
    """Open the very inode an O_PATH fd holds, with real access `flags`."""
    if not _O_PATH:
        return os.dup(path_fd)
    return os.open(f"/proc/self/fd/{path_fd}", flags | os.O_CLOEXEC)


_RENAME_NOREPLACE = 1
_libc = None
with contextlib.suppress(OSError, TypeError):
    _name = ctypes.util.find_library("c")
    if _name:
        _libc = ctypes.CDLL(_name, use_errno=True)
_renameat2 = getattr(_libc, "renameat2", None) if _libc is not None else None


def rename_noreplace(src_fd: int, src: str, dst_fd: int, dst: str) -> None:
    """Rename `src` (in directory fd `src_fd`) to `dst` (in `dst_fd`), failing with FileExistsError when
    `dst` exists. Atomic where libc has renameat2; otherwise checked just before the rename."""
    if _renameat2 is not None:
        rc = _renameat2(src_fd, os.fsencode(src), dst_fd, os.fsencode(dst), _RENAME_NOREPLACE)
        if rc == 0:
            return
        err = ctypes.get_errno()
        if err not in (errno.ENOSYS, errno.EINVAL):
            raise OSError(err, os.strerror(err))
    try:
        os.stat(dst, dir_fd=dst_fd, follow_symlinks=False)
    except FileNotFoundError:
        os.rename(src, dst, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
        return
    raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST))


def own_paths(config_dir: Path, data_dir: Path, state_dir: Path, runtime_dir: Path, db: Path,
              extra: Iterable[Path] = ()) -> Guard:
    """The Guard for one install: its four directories, and the DB (wherever it is), WAL, SHM and any
    `extra` file (a policy file given on the command line)."""
    files = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}-journal"), *extra]
    return Guard.of([config_dir, data_dir, state_dir, runtime_dir], files)
