"""The fence cannot be left through the environment.

An agent's `shell.env` once reached bwrap's own process: `{"LD_PRELOAD": "/tmp/p.so"}` with a library the
agent built ran that library in the fence's process before any sandbox existed (host network, deskgate's
sockets and files). Here a real preload library is built with gcc; its constructor writes one marker in a
directory only the host can write (outside the fence) and one in the fence's writable directory. Neither
the executor nor the fence may ever let it run outside.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import msgspec
import pytest

from app.execute import executor as executor_module
from app.execute.executor import Executor
from app.execute.fence import Fence, fixed_env, loader_variable
from gate.model import action_from_dict
from gate.policy import FencePolicy, default_policy

needs_tools = pytest.mark.skipif(shutil.which("bwrap") is None or shutil.which("gcc") is None,
                                 reason="needs bubblewrap and gcc")

PRELOAD_C = r"""
#include <fcntl.h>
#include <unistd.h>
static void mark(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) { write(fd, "ran\n", 4); close(fd); }
}
__attribute__((constructor)) static void on_load(void) {
    mark(OUTSIDE_MARK);
    mark(INSIDE_MARK);
}
"""


@pytest.fixture
def preload(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """(library, outside marker, inside marker, writable work dir)."""
    work = tmp_path / "work"
    work.mkdir()
    host_only = tmp_path / "host-only"  # not writable in the fence (its /tmp is private, work is bound)
    host_only.mkdir()
    outside, inside = host_only / "outside-mark", work / "inside-mark"
    src = tmp_path / "p.c"
    src.write_text(PRELOAD_C)
    lib = work / "p.so"  # visible inside the fence too (the work dir is bound into it)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(lib), str(src),
                    f'-DOUTSIDE_MARK="{outside}"', f'-DINSIDE_MARK="{inside}"'], check=True, timeout=60)
    return lib, outside, inside, work


def _executor(work: Path, *, fence: bool) -> Executor:
    base = default_policy()
    policy = msgspec.structs.replace(base, fence=FencePolicy(enabled=fence, required=fence,
                                                             writable=[str(work)], network=False,
        networked_programs=[]))
    return Executor(policy)


@needs_tools
@pytest.mark.parametrize("fenced", [True, False])
@pytest.mark.parametrize("name", ["LD_PRELOAD", "ld_preload", "LD_AUDIT"])
def test_a_preload_library_from_the_agent_never_runs(preload, fenced, name):
    lib, outside, inside, work = preload
    ex = _executor(work, fence=fenced)
    r = ex.execute(action_from_dict({"type": "shell", "command": "true", "cwd": str(work), "env": {name: str(lib)}}))
    assert r.error is not None and r.error.code == "sandbox_denied"
    assert not outside.exists() and not inside.exists()


@needs_tools
def test_bwrap_runs_with_a_fixed_env_and_the_agents_vars_are_set_inside(preload, monkeypatch):
    lib, outside, inside, work = preload
    seen: list[tuple[list[str], dict[str, str]]] = []
    real = executor_module.run_limited

    def spy(argv, **kw):
        seen.append((list(argv), dict(kw["env"])))
        return real(argv, **kw)

    monkeypatch.setattr(executor_module, "run_limited", spy)
    r = _executor(work, fence=True).execute(action_from_dict(
        {"type": "shell", "argv": ["env"], "cwd": str(work), "env": {"GREETING": "hello"}}))
    assert r.ok and r.detail["fenced"] is True
    (argv, env), = seen
    assert argv[0].endswith("bwrap") and env == fixed_env()  # bwrap's own process: nothing of the agent's
    inner = dict(line.split("=", 1) for line in r.detail["stdout"].splitlines())
    assert inner["GREETING"] == "hello"  # the agent's variable reached the command, inside


@needs_tools
def test_even_a_loader_variable_given_to_the_fence_only_loads_inside(preload):
    """The fence itself, below the executor's refusal: a loader variable set with --setenv is seen by the
    fenced command only (it loads there, where it can write only the writable dir), never by bwrap."""
    lib, outside, inside, work = preload
    fence = Fence(FencePolicy(enabled=True, required=True, writable=[str(work)], network=False,
        networked_programs=[]))
    argv = fence.argv(["/bin/true"], str(work), {"LD_PRELOAD": str(lib), "PATH": "/usr/bin:/bin"})
    subprocess.run(argv, env=fixed_env(), check=True, timeout=30, capture_output=True)
    assert inside.exists()          # it did load, in the fenced command
    assert not outside.exists()     # and nowhere the host could see


def test_bwrap_clears_its_environment_before_setting_the_commands(tmp_path):
    argv = Fence(FencePolicy(enabled=True, required=True, writable=[], network=False,
        networked_programs=[]), home=tmp_path).argv(
        ["true"], "/", {"A": "1"})
    clear, setenv = argv.index("--clearenv"), argv.index("--setenv")
    assert clear < setenv < argv.index("--")
    assert argv[setenv + 1:setenv + 3] == ["A", "1"]


@pytest.mark.parametrize("name", ["LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "BASH_ENV",
                                  "BASH_FUNC_ls%%", "PYTHONSTARTUP", "NODE_OPTIONS", "GCONV_PATH", "PATH"])
def test_loader_variables_are_named(name):
    assert loader_variable(name)


@pytest.mark.parametrize("name", ["GREETING", "LANG", "CI", "NO_COLOR", "HOME_PAGE", "LDFLAGS"])
def test_ordinary_variables_are_not_loader_variables(name):
    assert not loader_variable(name)
