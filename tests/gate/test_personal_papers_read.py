"""A person's tax, pay, identity and health papers read by name (resources/secrets.toml `[file-names]`, rule
`confirm.files.secret-named`): what identity theft is made of, so the person decides; a program, a guide or a
checklist named for them passes."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict

GATE = SafetyGate(default_policy())


def read(path: str):
    return GATE.assess(action_from_dict({"type": "file_read", "path": path}))


@pytest.mark.parametrize("path", [
    "~/Documents/Tax Return 2023.pdf",
    "/home/sam/Downloads/payslip-2024-06.pdf",
    "~/Desktop/pay_stub_june.pdf",
    "~/Pictures/passport_scan.png",
    "~/Documents/passport.pdf",
    "~/Dokumente/Lohnabrechnung_Mai.pdf",
    "~/Documents/medical-records.pdf",
])
def test_a_persons_papers_ask(path: str) -> None:
    assert "confirm.files.secret-named" in read(path).rules


@pytest.mark.parametrize("path", [
    "src/payroll/tax_return.py",
    "docs/tax-return-guide.md",
    "~/Documents/passport-renewal-checklist.md",
    "~/Documents/standup-agenda.md",
])
def test_programs_guides_and_notes_pass(path: str) -> None:
    assert "confirm.files.secret-named" not in read(path).rules
