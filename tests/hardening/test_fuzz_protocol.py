"""Property tests over the wire boundary: whatever bytes arrive, parsing answers with a typed request or a
DeskgateError with a known code, never another exception.

Example counts are small here (CI); bench/fuzz_hypothesis_long.py runs the same properties at scale by
setting DESKGATE_FUZZ_EXAMPLES. `CALLS` counts the inputs each property saw (the bench reports it).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.errors import CODES, DeskgateError
from app.protocol import OPS, Request, encode_reply, error_reply, parse_request, request_id, request_id_from_prefix
from gate.model import ACTION_TYPES, ActionError, action_from_dict, action_from_json, action_to_dict

EXAMPLES = int(os.environ.get("DESKGATE_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))
CALLS: Counter[str] = Counter()

# -- strategies ---------------------------------------------------------------------------------

# JSON scalars, with the awkward ones: huge ints, floats at the edges, lone surrogates are not valid
# JSON text once encoded, so strings stay valid Unicode (the raw-bytes property covers broken UTF-8).
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=40),
)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=12), inner, max_size=5)), max_leaves=20)

FIELD_NAMES = ["type", "x", "y", "text", "keys", "command", "argv", "env", "cwd", "path", "content", "to", "url",
               "app", "name", "params", "input", "target", "label", "role", "expect", "window", "confidence",
               "note", "button", "clicks", "dx", "dy", "seconds", "timeout", "drag", "extra"]


@st.composite
def near_valid_actions(draw: st.DrawFn) -> dict[str, Any]:
    """An action dict that is often valid and often wrong in exactly one way."""
    kind = draw(st.sampled_from([*sorted(ACTION_TYPES), "", "Click", "shell ", "rm"]))
    action: dict[str, Any] = {"type": kind}
    for name in draw(st.lists(st.sampled_from(FIELD_NAMES), max_size=6, unique=True)):
        action[name] = draw(json_values)
    # plausible values for the fields most types need, so validation gets past the first field
    if draw(st.booleans()):
        action.update(x=draw(st.integers(-200_000, 200_000)), y=draw(st.integers(-10, 5000)))
    if draw(st.booleans()):
        action["text" if kind == "type" else "command"] = draw(st.text(max_size=60))
    if draw(st.booleans()):
        action.pop(draw(st.sampled_from(sorted(action))), None)
    return action


@st.composite
def near_valid_requests(draw: st.DrawFn) -> dict[str, Any]:
    op = draw(st.sampled_from([*sorted(OPS), "", "ACT", "grant", "approve"]))
    req: dict[str, Any] = {"op": op}
    if draw(st.integers(0, 9)):
        req["v"] = draw(st.one_of(st.just(1), st.integers(-3, 3), json_values))
    if draw(st.integers(0, 9)):
        req["id"] = draw(st.one_of(st.text(min_size=1, max_size=10), st.text(min_size=120, max_size=140),
                                   json_values))
    if op in ("act", "check") or draw(st.integers(0, 5)) == 0:
        req["action"] = draw(st.one_of(near_valid_actions(), json_values))
    if op == "plan":
        req["actions"] = draw(st.lists(near_valid_actions(), max_size=4))
    if op == "hello":
        req["agent"] = draw(st.one_of(st.text(max_size=20), json_values))
    if op == "control":
        req["command"] = draw(st.sampled_from(["kill", "resume", "revoke", "grants", "approve", "grant", ""]))
        if draw(st.booleans()):
            req["grant"] = draw(st.text(max_size=8))
    for name in draw(st.lists(st.sampled_from(["execute", "expect", "reason", "versions", "text", "approval_key",
                                               "grant", "approved"]), max_size=2, unique=True)):
        req[name] = draw(json_values)
    return req


def _check_outcome(line: bytes) -> Request | DeskgateError:
    try:
        req = parse_request(line)
    except DeskgateError as err:
        assert err.code in CODES, err.code
        assert err.code in {"bad_request", "unknown_op", "unsupported", "too_large"}, err
        # the server answers with this: it must always encode as one line of JSON
        out = encode_reply(error_reply(request_id(line), err))
        assert out.count(b"\n") == 1
        json.loads(out)
        return err
    assert isinstance(req, Request.__args__)  # type: ignore[attr-defined]
    return req


# -- properties ---------------------------------------------------------------------------------


@FUZZ
@given(st.binary(max_size=400))
def test_parse_request_on_arbitrary_bytes(line: bytes) -> None:
    CALLS["parse_request/bytes"] += 1
    _check_outcome(line)


@FUZZ
@given(json_values)
def test_parse_request_on_arbitrary_json(value: Any) -> None:
    CALLS["parse_request/json"] += 1
    _check_outcome(json.dumps(value).encode())


@FUZZ
@given(near_valid_requests(), st.booleans())
def test_parse_request_on_near_valid_requests(req: dict[str, Any], pretty: bool) -> None:
    CALLS["parse_request/near-valid"] += 1
    out = _check_outcome(json.dumps(req, indent=1 if pretty else None, ensure_ascii=pretty).encode())
    if not isinstance(out, DeskgateError):
        # a request that parsed re-encodes to a request that parses to the same thing
        again = parse_request(msgspec.json.encode(out))
        assert again == out


@FUZZ
@given(near_valid_requests(), st.integers(0, 400))
def test_a_line_cut_anywhere_never_crashes(req: dict[str, Any], cut: int) -> None:
    CALLS["parse_request/truncated"] += 1
    line = json.dumps(req).encode()[:cut]
    _check_outcome(line)
    rid = request_id_from_prefix(line)
    assert rid is None or (isinstance(rid, str) and 0 < len(rid) <= 128)


@FUZZ
@given(st.one_of(near_valid_actions(), json_values))
def test_action_from_dict_and_json_agree(data: Any) -> None:
    CALLS["action_from_dict"] += 1
    try:
        a = action_from_dict(data)
    except ActionError as err:
        assert str(err)
        a = None
    raw = json.dumps(data)
    try:
        b = action_from_json(raw)
    except ActionError:
        b = None
    # the strict dict path and the JSON decoder accept the same actions (the JSON path may be laxer
    # only about float/int spelling, which json.dumps never produces differently)
    assert (a is None) == (b is None), (data, a, b)
    if a is not None:
        assert a == b
        assert action_from_dict(action_to_dict(a)) == a


@FUZZ
@given(st.binary(max_size=300))
def test_action_from_json_on_arbitrary_bytes(raw: bytes) -> None:
    CALLS["action_from_json/bytes"] += 1
    try:
        action_from_json(raw)
    except ActionError:
        pass


@FUZZ
@given(near_valid_requests(), st.lists(st.tuples(st.integers(0, 500), st.binary(min_size=1, max_size=3)),
                                       min_size=1, max_size=3))
def test_bytes_spliced_into_a_valid_looking_line(req: dict[str, Any], splices: list[tuple[int, bytes]]) -> None:
    """Raw bytes (often invalid UTF-8) inside strings and tags of otherwise well-formed JSON."""
    CALLS["parse_request/spliced"] += 1
    line = json.dumps(req).encode()
    for pos, chunk in splices:
        line = line[:pos] + chunk + line[pos:]
    _check_outcome(line)
    if isinstance(req.get("action"), dict):
        action = json.dumps(req["action"]).encode()
        for pos, chunk in splices:
            action = action[:pos] + chunk + action[pos:]
        try:
            action_from_json(action)
        except ActionError:
            pass


def test_deep_nesting_is_answered_not_a_recursion_crash() -> None:
    for depth in (100, 1000, 100_000):
        line = (b'{"v":1,"id":"d","op":"act","action":{"type":"tool","name":"t","input":' + b'{"a":' * depth
                + b"1" + b"}" * depth + b"}}")
        # _check_outcome fails on anything but a typed request or a DeskgateError (RecursionError included)
        out = _check_outcome(line)
        if depth >= 1000:
            assert isinstance(out, DeskgateError) and out.code == "bad_request"


def test_an_unhashable_action_type_is_a_bad_request() -> None:
    # found by fuzzing: `"type": []` reached a set lookup and escaped as TypeError
    for kind in (b"[]", b"{}", b"[1]", b'{"a":1}'):
        line = b'{"v":1,"id":"u","op":"act","action":{"type":' + kind + b"}}"
        out = _check_outcome(line)
        assert isinstance(out, DeskgateError) and out.code == "bad_request"
        assert "action.type must be a string" in out.message
    try:
        action_from_dict({"type": ["click"]})
    except ActionError as err:
        assert "must be a string" in str(err)
    else:
        raise AssertionError("a list type was accepted")


def test_invalid_utf8_inside_the_action_type_is_an_action_error() -> None:
    # found by bench/fuzz_atheris.py: msgspec decodes the tag string and raised UnicodeDecodeError
    raw = b'{"type":"c\xff\xfflick","x":1,"y":2}'
    try:
        action_from_json(raw)
    except ActionError as err:
        assert "UTF-8" in str(err)
    else:
        raise AssertionError("invalid UTF-8 was accepted")
    out = _check_outcome(b'{"v":1,"id":"u","op":"act","action":' + raw + b"}")
    assert isinstance(out, DeskgateError) and out.code == "bad_request"
