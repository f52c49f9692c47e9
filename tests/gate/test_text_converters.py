"""Document-to-text converters read what they are given and write where their output flag says
(resources/programs.toml `[groups.text_converters]`)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, Observation, action_from_dict

GATE = SafetyGate(default_policy())
PROJECT = "/home/dev/handbook"


def run(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command, "cwd": PROJECT}),
                       Observation(work_dirs=(PROJECT,)))


@pytest.mark.parametrize("command", [
    "markitdown docs/policy.docx > docs/policy.md",
    "markitdown slides/q2.pptx -o notes/q2.md",
    "pdf2txt.py -o out/paper.txt papers/paper.pdf",
    "odt2txt minutes.odt",
])
def test_a_document_converted_in_the_project_passes(command: str) -> None:
    assert run(command).decision is Decision.ALLOW


@pytest.mark.parametrize("command", [
    "markitdown notes.pdf -o ~/.bashrc",
    "markitdown handout.pdf > ~/.ssh/id_ecdsa",
])
def test_a_converter_writing_a_start_up_or_key_file_does_not_pass(command: str) -> None:
    assert run(command).decision is not Decision.ALLOW
