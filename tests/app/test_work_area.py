"""The project is the work area: a Claude Code session's `cwd` (or hello's `project`, or the policy's
`[[projects]]`) is where its agent may change files without a prompt, while the rest of the home asks.

The home is a throwaway directory; the policy's only sandbox root is `~/deskgate-work`, so nothing under
/tmp (where the throwaway home lives) is inside the sandbox by accident: the project alone makes it so.
"""

from __future__ import annotations

import pytest

from app.agent.client import Client
from gate.paths import default_home
from tests.app.test_claude_code_hook import decision_of, event, logged, run_hook

POLICY = """
[files]
sandbox_roots = ["~/deskgate-work"]

[fence]
enabled = false
required = false
"""


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "code" / "proj" / "src").mkdir(parents=True)
    (home / ".bashrc").write_text("# rc\n")
    monkeypatch.setenv("HOME", str(home))
    default_home.cache_clear()  # the gate reads the home once per process
    yield home
    monkeypatch.undo()
    default_home.cache_clear()


@pytest.fixture
def served(home, deskgate_home, serve_in_process):
    env = deskgate_home(POLICY)
    return env, serve_in_process(env)


def hook(env, tool: str, tool_input: dict, cwd) -> tuple[str, str] | None:
    proc = run_hook(event(tool, tool_input, cwd=str(cwd)), socket_path=env["socket"])
    assert proc.returncode == 0, proc.stderr
    return decision_of(proc) if proc.stdout else None


def test_a_hook_session_writes_its_own_project_without_a_prompt(home, served) -> None:
    env, rt = served
    proj = home / "code" / "proj"
    (proj / "src" / "app.py").write_text("print('old')\n")
    # Write, Edit and MultiEdit of the project's own files: deskgate has no objection (no "ask")
    assert hook(env, "Write", {"file_path": str(proj / "src" / "new.py"), "content": "x = 1\n"}, proj) is None
    assert hook(env, "Edit", {"file_path": str(proj / "src" / "app.py"), "old_string": "old",
                              "new_string": "new"}, proj) is None
    assert hook(env, "MultiEdit", {"file_path": str(proj / "src" / "app.py"),
                                   "edits": [{"old_string": "old", "new_string": "new"}]}, proj) is None
    # ... while the shell's startup file asks, and so does a file elsewhere in the home
    decision, reason = hook(env, "Edit", {"file_path": str(home / ".bashrc"), "old_string": "# rc",
                                          "new_string": "alias ll='ls -l'"}, proj)
    assert decision == "ask" and "runs later" in reason
    decision, reason = hook(env, "Write", {"file_path": str(home / "notes.txt"), "content": "n"}, proj)
    assert decision == "ask" and "outside the agent's work area (~/code/proj, ~/deskgate-work)" in reason
    # sensitive files inside the project keep their rules
    decision, reason = hook(env, "Write", {"file_path": str(proj / ".env"), "content": "A=1"}, proj)
    assert decision == "ask" and "sensitive" in reason
    decision, _ = hook(env, "Write", {"file_path": str(proj / ".git" / "hooks" / "pre-commit"),
                                      "content": "make test\n"}, proj)
    assert decision == "ask"
    rows = logged(rt, env)
    assert [r["decision"] for r in rows] == ["allow"] * 3 + ["confirm"] * 4


@pytest.mark.parametrize("where", ["home", "/", "/etc"])
def test_home_root_and_system_dirs_are_never_a_work_area(home, served, where) -> None:
    env, _ = served
    cwd = home if where == "home" else where
    (home / "code" / "proj" / "a.py").write_text("old\n")
    (home / "a.py").write_text("old\n")
    decision, reason = hook(env, "Write", {"file_path": str(home / "code" / "proj" / "a.py"), "content": "x"}, cwd)
    assert decision == "ask" and "outside the agent's work area" in reason
    decision, _ = hook(env, "Write", {"file_path": str(home / "a.py"), "content": "x"}, cwd)
    assert decision == "ask"
    # what a session without a project may do there: create a new document, never write over one
    assert hook(env, "Write", {"file_path": str(home / "b.md"), "content": "x"}, cwd) is None


def test_hello_project_for_other_agents_and_what_the_reply_says(home, served) -> None:
    env, _ = served
    proj = home / "code" / "proj"
    with Client(env["socket"]) as dg:
        reply = dg.hello("scripted", project=proj)
        assert reply["work_area"] == [str(proj)] and "project_refused" not in reply
        # relative paths and commands start in the project; the executor writes what the gate judged
        done = dg.act({"type": "file_write", "path": "src/hello.txt", "content": "hi\n"})
        assert done["verdict"] == "executed", done
        assert (proj / "src" / "hello.txt").read_text() == "hi\n"
        ran = dg.act({"type": "shell", "argv": ["pwd"]})
        assert ran["verdict"] == "executed" and ran["result"]["stdout"].strip() == str(proj)
        asked = dg.check({"type": "file_write", "path": str(home / "x.txt"), "content": "x"})
        assert asked["decision"] == "confirm"
    with Client(env["socket"]) as dg:
        reply = dg.hello("scripted-2", project=home)
        assert reply["work_area"] == [] and "the home directory itself" in reply["project_refused"]
        assert dg.check({"type": "file_write", "path": str(proj / "src" / "hello.txt"),
                         "content": "x"})["decision"] == "confirm"  # it exists: written over, not created


def test_a_projects_list_in_the_policy(home, deskgate_home, serve_in_process) -> None:
    env = deskgate_home(POLICY + '\n[[projects]]\npath = "~/code/proj"\nagents = ["builder*"]\n')
    serve_in_process(env)
    (home / "code" / "proj" / "a.py").write_text("old\n")
    target = {"type": "file_write", "path": str(home / "code" / "proj" / "a.py"), "content": "x"}
    with Client(env["socket"]) as dg:
        assert dg.hello("builder-1")["work_area"] == ["~/code/proj"]
        assert dg.check(target)["decision"] == "allow"
    with Client(env["socket"]) as dg:
        dg.hello("someone-else")
        assert dg.check(target)["decision"] == "confirm"


def test_a_projects_entry_for_the_home_directory_is_refused(home, tmp_path) -> None:
    from gate.policy import PolicyError, load_policy

    bad = tmp_path / "p.toml"
    bad.write_text('[[projects]]\npath = "~"\n')
    with pytest.raises(PolicyError, match=r"projects\[0\].path.*the home directory itself"):
        load_policy(bad)
