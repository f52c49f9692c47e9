"""File actions do exactly what was judged, while a directory on the path flips between a real directory
and a symlink elsewhere (deskgate's own config dir, a credential dir).

Before, the executor resolved the path again after the gate had judged it: with a thread flipping the
directory, some `file_write`s landed in deskgate's config dir, `file_move` created a policy file there,
and `file_read` read `~/.kube/config`. Now the supervisor gives the executor the real path the gate judged,
the executor walks it with O_NOFOLLOW from `/` and acts through the fds it checked.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

import msgspec
import pytest

from app.execute.executor import Executor
from app.execute.safefs import Guard
from gate import SafetyGate
from gate.model import action_from_dict
from gate.policy import FencePolicy, default_policy

ROUNDS = 300


class Flipper:
    """Flips `link` between the real directory `real` (renamed in and out) and a symlink to `target`,
    in a tight loop on its own thread."""

    def __init__(self, link: Path, target: Path) -> None:
        self.link, self.target = link, target
        self.parked = link.with_name(link.name + ".parked")
        self.stop = threading.Event()
        self.flips = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(OSError):
                os.rename(self.link, self.parked)
                os.symlink(self.target, self.link)
                time.sleep(0)  # let the other thread run while the symlink is there, and again below
                os.unlink(self.link)
                os.rename(self.parked, self.link)
                self.flips += 1
            time.sleep(0)

    def __enter__(self) -> Flipper:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        if not self.link.is_dir() or self.link.is_symlink():  # put the real directory back for the checks
            with contextlib.suppress(OSError):
                os.unlink(self.link)
            os.rename(self.parked, self.link)


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    work = tmp_path / "work"
    flip = work / "d"
    flip.mkdir(parents=True)
    own = tmp_path / "config" / "deskgate"  # stands for ~/.config/deskgate
    own.mkdir(parents=True)
    (own / "policy.toml").write_text("[fence]\nenabled = true\n")
    kube = tmp_path / "kube"                # stands for ~/.kube
    kube.mkdir()
    (kube / "config").write_text("KUBE-SECRET")
    (flip / "config").write_text("work-file")
    return {"tmp": tmp_path, "work": work, "flip": flip, "own": own, "kube": kube}


def _executor(layout: dict[str, Path]) -> Executor:
    policy = msgspec.structs.replace(default_policy(), fence=FencePolicy(enabled=False, required=False,
                                                                         writable=[], network=False,
        networked_programs=[]))
    return Executor(policy, guard=Guard.of([layout["own"]]))


def _judged(path: Path, to: Path | None = None) -> tuple[str, ...]:
    """What the gate hands over: the real path(s) it judged, resolved once, before the race starts."""
    kind = {"type": "file_move", "path": str(path), "to": str(to)} if to else {"type": "file_read", "path": str(path)}
    return SafetyGate(default_policy()).assess(action_from_dict(kind)).paths


def test_the_gate_hands_over_the_real_paths_it_judged(layout):
    link = layout["work"] / "alias"
    link.symlink_to(layout["flip"])
    assert _judged(link / "config") == (str(layout["flip"] / "config"),)
    assert _judged(link / "config", layout["work"] / "x") == (str(layout["flip"] / "config"), str(layout["work"] / "x"))


def test_writes_under_a_flipping_symlink_never_land_elsewhere(layout):
    ex = _executor(layout)
    target = layout["flip"] / "policy.toml"
    judged = _judged(target)
    with Flipper(layout["flip"], layout["own"]) as flipper:
        for i in range(ROUNDS):
            ex.execute(action_from_dict({"type": "file_write", "path": str(target), "content": f"agent {i}"}),
                       judged=judged)
    assert flipper.flips > 0
    assert (layout["own"] / "policy.toml").read_text() == "[fence]\nenabled = true\n"
    assert sorted(p.name for p in layout["own"].iterdir()) == ["policy.toml"]  # no temp file left there either
    after = ex.execute(action_from_dict({"type": "file_write", "path": str(target), "content": "after"}),
                       judged=judged)
    assert after.ok and target.read_text() == "after"  # the judged path itself still works


def test_reads_under_a_flipping_symlink_never_read_elsewhere(layout):
    ex = _executor(layout)
    target = layout["flip"] / "config"
    judged = _judged(target)
    contents = set()
    with Flipper(layout["flip"], layout["kube"]) as flipper:
        for _ in range(ROUNDS):
            r = ex.execute(action_from_dict({"type": "file_read", "path": str(target)}), judged=judged)
            if r.ok:
                contents.add(r.detail["content"])
    assert flipper.flips > 0
    assert contents <= {"work-file"}  # never anything else (how many got through the race varies)
    after = ex.execute(action_from_dict({"type": "file_read", "path": str(target)}), judged=judged)
    assert after.ok and after.detail["content"] == "work-file"  # and the judged path itself still works


def test_moves_under_a_flipping_symlink_never_create_files_elsewhere(layout):
    ex = _executor(layout)
    src_dir = layout["work"] / "src"
    src_dir.mkdir()
    moved = 0
    with Flipper(layout["flip"], layout["own"]) as flipper:
        for i in range(ROUNDS // 3):
            src = src_dir / f"f{i}"
            src.write_text("x")
            dst = layout["flip"] / f"plugin{i}.toml"
            r = ex.execute(action_from_dict({"type": "file_move", "path": str(src), "to": str(dst)}),
                           judged=(str(src), str(dst)))
            moved += r.ok
    assert flipper.flips > 0
    assert sorted(p.name for p in layout["own"].iterdir()) == ["policy.toml"]
    assert moved == sum(1 for p in layout["flip"].iterdir() if p.name.startswith("plugin"))


def test_deletes_under_a_flipping_symlink_never_delete_elsewhere(layout):
    ex = _executor(layout)
    with Flipper(layout["flip"], layout["kube"]) as flipper:
        for _ in range(ROUNDS // 3):
            judged = (str(layout["flip"] / "config"),)
            ex.execute(action_from_dict({"type": "file_delete", "path": judged[0]}), judged=judged)
            ex.execute(action_from_dict({"type": "file_write", "path": judged[0], "content": "work-file"}),
                       judged=judged)
    assert flipper.flips > 0
    assert (layout["kube"] / "config").read_text() == "KUBE-SECRET"


def test_a_symlinked_component_of_the_judged_path_is_refused_not_followed(layout):
    ex = _executor(layout)
    judged = (str(layout["flip"] / "config"),)
    os.rename(layout["flip"], layout["tmp"] / "parked")
    layout["flip"].symlink_to(layout["kube"])
    r = ex.execute(action_from_dict({"type": "file_read", "path": str(layout["flip"] / "config")}), judged=judged)
    assert not r.ok and r.error is not None and r.error.code == "sandbox_denied"
    assert "KUBE-SECRET" not in str(r.detail)


def test_the_supervisor_hands_the_judged_path_to_the_executor(deskgate_home, serve_in_process, tmp_path):
    """Through the real server and supervisor: the executor is given the real path the gate judged
    (and acts on it without resolving it again), not the path as the agent wrote it."""
    from app.agent.client import Client

    home = deskgate_home("[gate]\nmodes = { file_read = \"allow\" }\n[fence]\nenabled = false\nrequired = false\n")
    rt = serve_in_process(home)
    inner = rt.supervisor.pipeline.runner.executor.inner
    seen: list[tuple[str, ...] | None] = []
    real = inner.execute

    def spy(action, policy=None, **kw):
        seen.append(kw.get("judged"))
        return real(action, policy, **kw)

    inner.execute = spy
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    (real_dir / "f.txt").write_text("judged")
    (tmp_path / "alias").symlink_to(real_dir)
    with Client(home["socket"], timeout=30) as c:
        c.hello("judged-path")
        reply = c.act({"type": "file_read", "path": str(tmp_path / "alias" / "f.txt")})
    assert reply["verdict"] == "executed" and reply["result"]["content"] == "judged"
    assert seen == [(str(real_dir / "f.txt"),)]
