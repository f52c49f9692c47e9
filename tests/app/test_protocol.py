"""Protocol v1 parsing: every op, and every way a line can be wrong."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.errors import DeskgateError
from app.protocol import (
    MAX_LINE,
    OPS,
    Act,
    Bye,
    Check,
    CommandReq,
    Control,
    Hello,
    Observe,
    Plan,
    encode_reply,
    encode_request,
    error_reply,
    negotiate_version,
    ok_reply,
    parse_request,
    request_id,
    request_id_from_prefix,
)


def line(**fields) -> bytes:
    msg = {"v": 1, "id": "r1", **fields}
    return json.dumps(msg).encode()


def code_of(raw: bytes) -> tuple[str, str]:
    with pytest.raises(DeskgateError) as info:
        parse_request(raw)
    return info.value.code, info.value.message


CLICK = {"type": "click", "x": 10, "y": 20}


# -- every op parses into its struct ---------------------------------------------------------------


def test_hello():
    req = parse_request(line(op="hello", agent="my-agent", expect={"app": "firefox", "window": "Check*"}))
    assert isinstance(req, Hello)
    assert (req.agent, req.expect.app, req.expect.window, req.versions) == ("my-agent", "firefox", "Check*", None)


def test_act_defaults_to_execute_and_keeps_the_action_typed():
    req = parse_request(line(op="act", action={**CLICK, "button": "right", "target": {"label": "OK"}}))
    assert isinstance(req, Act)
    assert req.execute is True
    assert (req.action.type, req.action.x, req.action.y, req.action.button) == ("click", 10, 20, "right")
    assert req.action.target.label == "OK"


def test_act_execute_false():
    assert parse_request(line(op="act", action=CLICK, execute=False)).execute is False


def test_plan():
    req = parse_request(line(op="plan", actions=[CLICK, {"type": "key", "keys": ["ctrl", "s"]}]))
    assert isinstance(req, Plan)
    assert [a.type for a in req.actions] == ["click", "key"]


def test_check_observe_command_bye():
    assert isinstance(parse_request(line(op="check", action={"type": "shell", "command": "ls"})), Check)
    assert isinstance(parse_request(line(op="observe")), Observe)
    cmd = parse_request(line(op="command", text="set volume to 50"))
    assert isinstance(cmd, CommandReq)
    assert cmd.text == "set volume to 50"
    assert isinstance(parse_request(line(op="bye")), Bye)


@pytest.mark.parametrize("command", ["kill", "resume", "pause", "unpause", "status", "grants"])
def test_control_commands(command):
    req = parse_request(line(op="control", command=command, reason="lunch"))
    assert isinstance(req, Control)
    assert (req.command, req.reason, req.grant) == (command, "lunch", None)


def test_control_revoke_needs_a_grant_and_only_revoke_takes_one():
    assert parse_request(line(op="control", command="revoke", grant="g-17")).grant == "g-17"
    code, msg = code_of(line(op="control", command="revoke"))
    assert code == "bad_request" and "grant" in msg
    code, msg = code_of(line(op="control", command="status", grant="g-17"))
    assert code == "bad_request" and "revoke" in msg


def test_every_op_is_covered_here():
    assert {"hello", "act", "plan", "check", "observe", "command", "bye", "control"} == OPS


def test_a_trailing_whitespace_is_fine():
    assert isinstance(parse_request(line(op="observe") + b"  \r"), Observe)


# -- error cases -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [b"", b"{", b"not json", b'{"v":1,"id":"1","op":"observe"} trailing', b'{"v":1,"id":"1",}', b"\x00"],
)
def test_malformed_json_is_bad_request(raw):
    code, _ = code_of(raw)
    assert code == "bad_request"


@pytest.mark.parametrize("raw", [b"[1,2]", b'"hello"', b"42", b"null", b"true"])
def test_non_object_is_bad_request(raw):
    code, msg = code_of(raw)
    assert (code, msg) == ("bad_request", "request must be a JSON object")


def test_deep_nesting_is_bad_request_not_a_crash():
    code, _ = code_of(b"[" * 200_000)
    assert code == "bad_request"
    code, _ = code_of(b'{"v":1,"id":"1","op":"observe","x":' + b"[" * 200_000)
    assert code == "bad_request"


@pytest.mark.parametrize(
    "raw",
    [
        b'{"v":1,"id":"1","op":"observe","x":"\xff"}',          # invalid byte in a string
        b'{"v":1,"id":"\xed\xa0\x80","op":"observe"}',          # an encoded surrogate
        b'{"v":1,"id":"1","op":"observe","x":"\xc0\x80"}',      # overlong encoding
        b"\xff\xfe{}",
    ],
)
def test_invalid_utf8_is_bad_request(raw):
    code, msg = code_of(raw)
    assert code == "bad_request" and "UTF-8" in msg


def test_oversize_line_is_too_large():
    raw = line(op="act", action={"type": "type", "text": "a" * MAX_LINE})
    code, msg = code_of(raw)
    assert code == "too_large" and str(MAX_LINE) in msg


def test_line_of_exactly_max_line_is_accepted_one_more_byte_is_not():
    head = line(op="act", action={"type": "tool", "name": "upload", "input": {"blob": ""}})
    raw = head.replace(b'"blob": ""', b'"blob": "' + b"a" * (MAX_LINE - len(head)) + b'"')
    assert len(raw) == MAX_LINE
    assert len(parse_request(raw).action.input["blob"]) == MAX_LINE - len(head)
    assert code_of(raw + b" ")[0] == "too_large"


def test_unknown_op():
    code, msg = code_of(line(op="format_disk"))
    assert code == "unknown_op" and "format_disk" in msg and "act" in msg


@pytest.mark.parametrize("op", [1, None, ["act"], {"a": 1}, True])
def test_op_missing_or_not_a_string(op):
    raw = line(op=op) if op is not None else line()
    code, msg = code_of(raw)
    assert code == "bad_request" and "op" in msg


def test_unknown_top_level_field_is_rejected():
    code, msg = code_of(line(op="observe", please="now"))
    assert code == "bad_request" and "please" in msg


def test_unknown_action_field_is_rejected_and_named():
    code, msg = code_of(line(op="act", action={**CLICK, "force": True}))
    assert code == "bad_request" and "force" in msg and "action" in msg


def test_unknown_field_in_a_plan_step_names_the_step():
    code, msg = code_of(line(op="plan", actions=[CLICK, {**CLICK, "force": True}]))
    assert code == "bad_request" and "actions[1]" in msg


def test_unknown_action_type_lists_the_known_ones():
    code, msg = code_of(line(op="act", action={"type": "teleport"}))
    assert code == "bad_request" and "teleport" in msg and "click" in msg


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"op": "act", "action": {**CLICK, "x": "10"}}, "action.x"),
        ({"op": "act", "action": {**CLICK, "x": 1.5}}, "action.x"),
        ({"op": "act", "action": CLICK, "execute": "yes"}, "execute"),
        ({"op": "act", "action": CLICK, "execute": 1}, "execute"),
        ({"op": "hello", "agent": 7}, "agent"),
        ({"op": "hello", "agent": "a", "versions": "1"}, "versions"),
        ({"op": "plan", "actions": CLICK}, "actions"),
        ({"op": "plan", "actions": []}, "actions"),
        ({"op": "command", "text": ""}, "text"),
        ({"op": "control", "command": "format"}, "command"),
        ({"op": "act", "action": "click"}, "action"),
    ],
)
def test_wrong_types_and_values_are_bad_request_and_named(fields, where):
    code, msg = code_of(line(**fields))
    assert code == "bad_request"
    assert where in msg


def test_missing_required_fields():
    assert code_of(line(op="act"))[0] == "bad_request"
    assert "agent" in code_of(line(op="hello"))[1]
    assert "id" in code_of(b'{"v":1,"op":"observe"}')[1]
    assert "v" in code_of(b'{"id":"1","op":"observe"}')[1]


@pytest.mark.parametrize("rid", [7, None, "", "x" * 129, ["1"]])
def test_id_must_be_a_short_string(rid):
    raw = json.dumps({"v": 1, "id": rid, "op": "observe"}).encode()
    assert code_of(raw)[0] == "bad_request"


def test_bool_is_not_a_version():
    code, msg = code_of(b'{"v":true,"id":"1","op":"observe"}')
    assert code == "bad_request" and "v" in msg


def test_other_version_is_unsupported_except_in_hello():
    assert code_of(json.dumps({"v": 2, "id": "1", "op": "observe"}).encode())[0] == "unsupported"
    hello = parse_request(json.dumps({"v": 2, "id": "1", "op": "hello", "agent": "a", "versions": [1, 2]}).encode())
    assert negotiate_version(hello) == 1


def test_agent_name_is_restricted():
    assert code_of(line(op="hello", agent="bad\nname"))[0] == "bad_request"
    assert code_of(line(op="hello", agent="x" * 129))[0] == "bad_request"


# -- version negotiation -------------------------------------------------------------------------


def hello(**fields) -> Hello:
    return parse_request(json.dumps({"v": 1, "id": "h", "op": "hello", "agent": "a", **fields}).encode())


def test_negotiate_version():
    assert negotiate_version(hello()) == 1
    assert negotiate_version(hello(versions=[1])) == 1
    assert negotiate_version(hello(versions=[3, 2, 1])) == 1
    for bad in (hello(versions=[2, 3]), hello(versions=[]), hello(v=2)):
        with pytest.raises(DeskgateError) as info:
            negotiate_version(bad)
        assert info.value.code == "unsupported"


# -- ids of broken lines ---------------------------------------------------------------------------


def test_request_id_recovers_the_id_of_an_invalid_request():
    assert request_id(line(op="teleport")) == "r1"
    assert request_id(b'{"id":"r9","op":"act","action":{"type":"click"}') == "r9"  # cut short
    assert request_id(b"[1]") is None
    assert request_id(b'{"id": 5}') is None
    assert request_id(b"\xff\xfe") is None


def test_request_id_from_prefix_ignores_nested_ids_and_values():
    raw = b'{"op":"act","action":{"id":"inner","t":[{"id":"x"}]},"note":"id","id" : "r\\"1","x":"aaaa'
    assert request_id_from_prefix(raw) == 'r"1'
    assert request_id_from_prefix(b'{"op":"act","action":{"id":"inner"') is None
    assert request_id_from_prefix(b'{"id":"unterminated') is None
    assert request_id_from_prefix(b'["id","x"]') is None
    assert request_id_from_prefix(b'{"id":7}') is None


# -- replies and requests --------------------------------------------------------------------------


def test_replies_are_one_line_and_cannot_be_overridden_by_the_body():
    reply = ok_reply("7", {"id": "forged", "ok": False, "reason": "a\nb"})
    raw = encode_reply(reply)
    assert raw.endswith(b"\n") and raw.count(b"\n") == 1
    assert msgspec.json.decode(raw) == {"id": "7", "ok": True, "reason": "a\nb"}


def test_error_reply_shape():
    err = DeskgateError("killed", "the kill switch is on")
    assert error_reply(None, err) == {"id": None, "ok": False, "error": {"code": "killed", "message": err.message}}


def test_encode_request_round_trips_through_parse():
    raw = encode_request("act", "q1", action=CLICK, execute=False, note=None)
    assert raw.endswith(b"\n") and b"note" not in raw
    req = parse_request(raw.rstrip(b"\n"))
    assert isinstance(req, Act) and req.id == "q1" and req.execute is False and req.action.x == 10


_SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_escape_as_anything_but_deskgate_error(raw):
    try:
        parse_request(raw)
    except DeskgateError as err:
        assert err.code in {"bad_request", "unknown_op", "unsupported", "too_large"}


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@_SETTINGS
@given(st.dictionaries(st.sampled_from(["v", "id", "op", "action", "actions", "agent", "text", "command",
                                        "execute", "grant", "x"]), _json, max_size=6),
       st.sampled_from(sorted(OPS)))
def test_arbitrary_objects_parse_or_fail_cleanly(fields, op):
    fields.setdefault("op", op)
    raw = json.dumps(fields).encode()
    try:
        req = parse_request(raw)
    except DeskgateError as err:
        assert err.code in {"bad_request", "unknown_op", "unsupported"}
    else:
        assert req.id == fields["id"]
