"""A new document in a person's own folders is written without asking; writing over one, or into hidden or
program folders, or a file that runs, still asks (gate/paths.py `new_personal_file`)."""

from __future__ import annotations

import dataclasses

import msgspec
import pytest

from gate import SafetyGate, action_from_dict
from gate.compiled import compile_policy
from gate.model import Decision
from gate.paths import new_personal_file
from gate.policy import default_policy
from gate.rules.base import Context
from gate.rules.files import outside_sandbox


def write(path: str, content: str = "notes for the trip") -> dict:
    return {"type": "file_write", "path": path, "content": content}


@pytest.mark.parametrize("path", [
    "/home/maria/Desktop/agenda.md",
    "/home/maria/Documents/budget-2026.xlsx",
    "/home/maria/Pictures/chart.png",
    "/Users/kenji/Downloads/itinerary.pdf",
    "/home/maria/code/weather/src/forecast.py",
    "/home/maria/todo.txt",
    "C:\\Users\\anna\\Documents\\Bericht.docx",
])
def test_a_new_everyday_file_in_a_persons_folders_passes(path):
    a = SafetyGate().assess(action_from_dict(write(path)))
    assert a.decision is Decision.ALLOW, a.rules
    assert a.new_file  # the executor will not replace a file that appears meanwhile


@pytest.mark.parametrize("path", [
    "/home/maria/.profile.txt",            # hidden
    "/home/maria/.config/app/settings.json",
    "/home/maria/AppData/Roaming/x/notes.txt",
    "/Users/kenji/Library/Preferences/notes.txt",
    "/home/maria/bin/helper.py",           # a folder on PATH
    "/home/maria/.local/lib/python3.12/site-packages/x.py",
    "/home/maria/Desktop/start.sh",        # runs
    "/home/maria/Desktop/Browser.desktop",
    "C:\\Users\\anna\\Desktop\\Mail.lnk",
    "/home/maria/Desktop/Makefile",        # no everyday kind
    "/home/maria/code/site/conftest.py",   # files a tool runs by name at the next build, test or install
    "/home/maria/code/site/setup.py",
    "/home/maria/code/site/CMakeLists.txt",
    "/home/maria/code/site/package.json",
    "/home/maria/code/site/vite.config.ts",
    "/srv/share/report.txt",               # not a home directory
])
def test_hidden_program_or_running_files_still_ask(path):
    a = SafetyGate().assess(action_from_dict(write(path)))
    assert a.decision is not Decision.ALLOW, path
    assert not a.new_file


def test_writing_over_an_existing_file_asks(tmp_path):
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    existing = home / "Documents" / "thesis.md"
    existing.write_text("three years of work")
    # (the pytest folder is under /tmp, a sandbox root: a policy without roots puts it outside the work area)
    compiled = dataclasses.replace(compile_policy(default_policy()), home=str(home), sandbox=())

    def ctx(path) -> Context:
        return Context(action_from_dict(write(str(path), "")), None, compiled)

    assert not new_personal_file(ctx(existing))
    assert "outside the agent's work area" in outside_sandbox(ctx(existing)).reason
    fresh = home / "Documents" / "chapter-2.md"
    assert new_personal_file(ctx(fresh))
    assert outside_sandbox(ctx(fresh)) is None
    # a link named like a new file is not one
    (home / "Documents" / "link.md").symlink_to(existing)
    assert not new_personal_file(ctx(home / "Documents" / "link.md"))


def test_deleting_or_moving_in_own_folders_still_asks():
    gate = SafetyGate()
    assert gate.assess(action_from_dict({"type": "file_delete", "path": "/home/maria/Documents/a.txt"})).decision \
        is not Decision.ALLOW
    moved = gate.assess(action_from_dict({"type": "file_move", "path": "/home/maria/Documents/a.txt",
                                          "to": "/home/maria/Documents/b.txt"}))
    assert moved.decision is not Decision.ALLOW


def test_content_rules_still_judge_a_new_file():
    gate = SafetyGate()
    fork = gate.assess(action_from_dict(write("/home/maria/Desktop/tool.py",
                                              "import os\nwhile True:\n    os.fork()\n")))
    assert fork.decision is not Decision.ALLOW, fork.rules


def test_the_fence_can_be_kept_whole():
    p = default_policy()
    strict = msgspec.structs.replace(p, files=msgspec.structs.replace(p.files, personal_new_files=False))
    a = SafetyGate(strict).assess(action_from_dict(write("/home/maria/Desktop/agenda.md")))
    assert a.decision is Decision.CONFIRM and "confirm.files.outside-sandbox" in a.rules
