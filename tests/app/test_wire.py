"""app/wire.py: the request encoder clients use (stdlib json, no msgspec or gate at import) writes what the
server's parser reads, one line per request, whatever the action holds."""

from __future__ import annotations

import json
import math

import pytest

from app.protocol import Act, Control, parse_request
from app.wire import MAX_LINE, Verdict, encode_request
from gate.model import action_from_dict


def test_a_request_is_one_compact_line_the_server_parses():
    line = encode_request("act", "r-1", action={"type": "type", "text": "héllo\nwörld\u2028"}, execute=True)
    assert line.endswith(b"\n") and line.count(b"\n") == 1  # the newline inside the text is escaped
    req = parse_request(line[:-1])
    assert isinstance(req, Act) and req.action.text == "héllo\nwörld\u2028"
    assert b" " not in line.split(b'"text"')[0]  # compact separators


def test_fields_that_are_none_are_left_out():
    line = encode_request("control", "r-2", command="status", reason=None, grant=None)
    assert json.loads(line) == {"v": 1, "id": "r-2", "op": "control", "command": "status"}
    assert isinstance(parse_request(line[:-1]), Control)


def test_a_gate_struct_is_written_as_its_fields():
    action = action_from_dict({"type": "click", "x": 3, "y": 4, "target": {"label": "Next"}})
    req = parse_request(encode_request("act", "r-3", action=action)[:-1])
    assert isinstance(req, Act) and req.action == action


def test_a_value_json_cannot_carry_is_refused_before_sending():
    with pytest.raises(ValueError):
        encode_request("act", "r-4", action={"type": "scroll", "x": 1, "y": 1, "dy": math.nan})


def test_the_limit_and_verdicts_are_the_protocols():
    from app import ports, protocol

    assert protocol.MAX_LINE == MAX_LINE and ports.Verdict is Verdict
    assert Verdict.DENIED == "denied"
