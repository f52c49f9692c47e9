"""The line at its end: typed fragments, line ends inside text, keys, and the lines the gate cannot know."""

from __future__ import annotations

import pytest

from gate.engine import SafetyGate
from gate.lines import EMPTY_LINE, advance, judged_text, key_effect, pressed, typed
from gate.model import Observation, TypedLine, action_from_dict
from gate.rules.gui import canonical_keys

GATE = SafetyGate()
TERM = dict(app="xterm", window_title="bash", window_id=7)


def line(text: str = "", known: bool = True, **kw) -> TypedLine:
    return TypedLine(text=text, raw=kw.pop("raw", text), known=known, why="" if known else "history keys", **kw)


def assess(action: dict, ln: TypedLine | None, **obs):
    return GATE.assess(action_from_dict(action), Observation(**{**TERM, **obs}, line=ln))


# -- following the line (pure) -------------------------------------------------------------------------------


def test_line_ends_inside_text_each_end_a_whole_line():
    done = typed(line("echo "), "hi\rrm -rf ~\x0bls\x0cpwd\x0fdate")
    assert [ln.text for ln in done.ended] == ["echo hi", "rm -rf ~", "ls", "pwd"]
    assert done.rest.text == "date" and done.rest.known


def test_edits_apply_and_raw_keeps_what_a_cancel_dropped():
    done = typed(line(), "rm -rf ~\x03ls\x7f\x7fpwd\x17echo x\x08y")
    assert done.rest.text == "echo y"
    assert done.rest.raw == "rm -rf ~lspwdecho xy"  # a cancel the terminal ignored cannot hide a command


def test_escape_sequences_and_tab_leave_the_line_unknown_but_not_hidden():
    done = typed(line(), "rm -rf \x1b[200~~\x1b[201~")
    assert not done.rest.known and done.rest.text == "rm -rf ~"  # the markers are not text
    assert not typed(line(), "ls /ho\t").rest.known
    assert not typed(line(), "\x10").rest.known  # ctrl+p: history


@pytest.mark.parametrize(("keys", "effect"), [
    (["Return"], "end"), (["KP_Enter"], "end"), (["ctrl", "m"], "end"), (["ctrl+j"], "end"),
    (["alt", "Return"], "end"), (["ctrl", "shift", "m"], "end"), (["super", "KP_Enter"], "end"),
    (["ctrl", "shift", "v"], "paste"), (["shift", "Insert"], "paste"), (["ctrl", "c"], "cancel"),
    (["BackSpace"], "backspace"), (["Up"], "unknown"), (["ctrl", "r"], "unknown"), (["~"], "char:~"),
    (["space"], "char: "), (["shift"], "none"),
])
def test_what_keys_do_to_a_line(keys, effect):
    assert key_effect(canonical_keys(keys)) == effect


def test_keys_follow_the_line():
    assert pressed(line("rm -rf "), canonical_keys(["~"])).line.text == "rm -rf ~"
    assert pressed(line("lss"), "backspace").line.text == "ls"
    assert pressed(line("anything", known=False), "ctrl+c").line == EMPTY_LINE
    assert not pressed(line("ls"), "up").line.known
    assert pressed(line("ls"), "enter").ends


def test_advance_follows_actions_and_a_middle_click_pastes():
    ln = advance(line(), action_from_dict({"type": "type", "text": "rm -rf "}))
    assert ln.text == "rm -rf "
    assert advance(ln, action_from_dict({"type": "click", "x": 1, "y": 1})) == ln
    assert not advance(ln, action_from_dict({"type": "click", "x": 1, "y": 1, "button": "middle"})).known


def test_judged_text_holds_every_line_and_the_rest():
    assert judged_text(None, "ls -la") == "ls -la"
    assert judged_text(line("rm -rf "), "~") == "rm -rf ~"
    assert judged_text(None, "echo hi\rrm -rf ~\r") == "echo hi\nrm -rf ~"


# -- the rules -------------------------------------------------------------------------------------------------


def test_return_runs_the_whole_line_and_is_blocked():
    got = assess({"type": "key", "keys": ["Return"]}, line("rm -rf ~"))
    assert got.decision.value == "block" and got.rules == ("block.typed.line-end",)
    assert "the line so far 'rm -rf ~'" in got.reason


def test_return_on_a_harmless_line_is_allowed():  # near miss
    assert assess({"type": "key", "keys": ["Return"]}, line("ls -la")).decision.value == "allow"
    assert assess({"type": "key", "keys": ["Return"]}, line("")).decision.value == "allow"


def test_return_on_a_line_the_shell_rules_ask_about_asks():
    got = assess({"type": "key", "keys": ["KP_Enter"]}, line("git push --force origin fix/cart"))
    assert got.decision.value == "confirm" and "confirm.typed.line-end" in got.rules


def test_the_fragment_that_completes_a_harmful_line_is_refused():
    got = assess({"type": "type", "text": "~"}, line("rm -rf "))
    assert got.decision.value == "block"
    assert assess({"type": "type", "text": "rm -rf "}, line("")).decision.value == "allow"


def test_one_action_two_lines():
    got = assess({"type": "type", "text": "echo hi\rrm -rf ~\r"}, None)
    assert got.decision.value == "block"
    assert assess({"type": "type", "text": "echo hi\rls\r"}, None).decision.value == "allow"


def test_a_cancel_inside_text_does_not_hide_the_command():
    got = assess({"type": "type", "text": "rm -rf ~\x03\r"}, line(""))
    assert got.decision.value == "block"


def test_an_unknown_line_asks_at_its_end():
    got = assess({"type": "key", "keys": ["Return"]}, line("", known=False))
    assert got.decision.value == "confirm" and got.rules == ("confirm.typed.unknown-line",)
    got = assess({"type": "type", "text": "ls\n"}, line("", known=False))
    assert "confirm.typed.unknown-line" in got.rules
    # near misses: no line end, or a line deskgate followed
    assert assess({"type": "type", "text": "ls"}, line("", known=False)).decision.value == "allow"
    assert assess({"type": "key", "keys": ["Return"]}, line("ls")).decision.value == "allow"
    # without line following (no supervisor: `deskgate check`) Return alone is not judged
    assert assess({"type": "key", "keys": ["Return"]}, None).decision.value == "allow"


def test_a_paste_in_a_terminal_asks():
    got = assess({"type": "key", "keys": ["ctrl", "shift", "v"]}, line("ls"))
    assert "confirm.typed.unknown-line" in got.rules


def test_the_screen_line_must_be_the_typed_one():
    got = assess({"type": "key", "keys": ["Return"]}, line("ls"), screen_line="$ rm -rf ~")
    assert got.rules == ("confirm.typed.screen-line",)
    assert assess({"type": "key", "keys": ["Return"]}, line("ls"), screen_line="me@box:~$ ls").decision.value \
        == "allow"
    # a long line wraps: the screen's last row is its tail
    long = "echo " + "x" * 120
    assert assess({"type": "key", "keys": ["Return"]}, line(long), screen_line="x" * 40).decision.value == "allow"
    # no screen line (xterm offers no text), or no line end: nothing to compare
    assert assess({"type": "type", "text": "ls"}, line(""), screen_line="$ rm").decision.value == "allow"


def test_a_line_in_the_address_bar_opens_at_return():
    got = assess({"type": "key", "keys": ["Return"]}, line("javascript:alert(document.cookie)"),
                 app="firefox", window_title="Mozilla Firefox",
                 )
    # a browser window is a field unless the target names the address bar
    assert got.decision.value == "allow"
    got = GATE.assess(action_from_dict({"type": "key", "keys": ["Return"], "target": {"role": "address bar"}}),
                      Observation(app="firefox", window_title="Mozilla Firefox", window_id=3,
                                  line=line("javascript:alert(document.cookie)")))
    assert got.decision.value == "block" and "block.typed.line-end" in got.rules


def test_role_and_label_of_a_named_target_are_matched_each_on_their_own():
    text = "rm -rf ~/Documents/drafts\n"
    action = {"type": "type", "text": text, "target": {"role": "terminal", "label": "Terminal"}}
    got = GATE.assess(action_from_dict(action))
    assert got.decision.value != "allow" and "confirm.typed.command" in got.rules
    field = {"type": "type", "text": text, "target": {"role": "text field", "label": "Notes"}}
    assert GATE.assess(action_from_dict(field), Observation(app="gedit", window_title="Notes")).decision.value \
        == "allow"


def test_a_plan_follows_the_line_from_step_to_step():
    steps = [action_from_dict(a) for a in ({"type": "type", "text": "rm -rf "}, {"type": "key", "keys": ["~"]},
                                           {"type": "key", "keys": ["Return"]})]
    pa = GATE.assess_plan(steps, Observation(**TERM, line=line()))
    assert [s.decision.value for s in pa.steps] == ["allow", "allow", "block"]


def test_a_run_dialog_seen_first_does_not_ask_for_a_harmless_command():  # near miss of unknown-line
    from gate.lines import UNKNOWN_LINE

    got = assess({"type": "type", "text": "firefox\n"}, UNKNOWN_LINE, app="krunner", window_title="krunner")
    assert got.decision.value == "allow", got
    got = assess({"type": "type", "text": "rm -rf ~\n"}, UNKNOWN_LINE, app="krunner", window_title="krunner")
    assert got.decision.value == "block"


def test_the_address_bar_judges_the_url_typed_not_the_pages_other_text():
    obs = dict(app="firefox", window_title="Mozilla Firefox", window_id=9, line=line("hello"))
    got = GATE.assess(action_from_dict({"type": "type", "text": "javascript:alert(1)",
                                        "target": {"role": "address bar"}}), Observation(**obs))
    assert got.decision.value == "block"


def test_no_allow_rule_covers_a_line_end():
    import msgspec

    from gate.policy import AllowRule, default_policy

    policy = default_policy()
    policy = msgspec.structs.replace(policy, allow=[msgspec.convert({"id": "keys-in-xterm", "types": ["key"],
                                                                     "app": "xterm"}, AllowRule)])
    gate = SafetyGate(policy)
    ret = action_from_dict({"type": "key", "keys": ["Return"]})
    got = gate.assess(ret, Observation(**TERM, line=line("git push --force origin fix/cart")))
    assert got.decision.value == "confirm" and "confirm.typed.line-end" in got.rules
    # near miss: a key that ends no line is still covered by the rule
    tab = action_from_dict({"type": "key", "keys": ["ctrl", "shift", "t"]})
    assert gate.assess(tab, Observation(**TERM, line=line("x"))).rules == ("allow.policy.keys-in-xterm",)


def test_a_paste_in_a_run_dialog_asks_at_return():
    from gate.lines import UNKNOWN_LINE, pressed

    pasted = pressed(UNKNOWN_LINE, "ctrl+v").line  # first sight, then a paste: recalled text, not an empty box
    got = assess({"type": "key", "keys": ["Return"]}, pasted, app="krunner", window_title="krunner")
    assert got.decision.value == "confirm" and "confirm.typed.unknown-line" in got.rules
    assert assess({"type": "key", "keys": ["Return"]}, UNKNOWN_LINE, app="krunner",
                  window_title="krunner").decision.value == "allow"


def test_no_escape_sequence_swallows_a_line_end():
    for text in ("rm -rf ~\x1b\r", "rm -rf ~\x1b[2\r", "rm -rf ~\x1b[200\n"):
        done = typed(line(), text)
        assert [ln.raw for ln in done.ended] == ["rm -rf ~"], text
    assert typed(line(), "ls\x1b[201~x").rest.raw == "lsx"
