import msgspec
import pytest

from gate.model import ACTION_TYPES, ActionError, action_from_dict, action_from_json, action_to_dict

VALID = [
    {"type": "click", "x": 640, "y": 400, "button": "left", "target": {"label": "Place order", "role": "button"},
     "confidence": 0.93, "url": "https://shop.example/checkout"},
    {"type": "move", "x": 1, "y": 2},
    {"type": "drag", "path": [[0, 0], [10, 10]]},
    {"type": "scroll", "x": 1, "y": 2, "dy": -3},
    {"type": "scroll", "dy": 5},
    {"type": "type", "text": "hello"},
    {"type": "key", "keys": ["ctrl", "s"]},
    {"type": "wait", "seconds": 0.5},
    {"type": "screenshot"},
    {"type": "shell", "command": "ls", "cwd": "/tmp", "env": {"A": "1"}, "timeout": 5},
    {"type": "shell", "argv": ["ls", "-la"]},
    {"type": "file_read", "path": "a.txt"},
    {"type": "file_write", "path": "a.txt", "content": "x"},
    {"type": "file_delete", "path": "a.txt"},
    {"type": "file_move", "path": "a.txt", "to": "b.txt"},
    {"type": "navigate", "url": "https://example.com"},
    {"type": "open_app", "app": "firefox"},
    {"type": "system", "name": "volume", "params": {"level": 50}},
    {"type": "tool", "name": "search", "input": {"q": "x"}},
]


def test_every_action_type_has_a_valid_example():
    assert {a["type"] for a in VALID} == ACTION_TYPES


@pytest.mark.parametrize("data", VALID, ids=lambda d: d["type"])
def test_valid_actions_round_trip(data):
    action = action_from_dict(data)
    assert action.type == data["type"]
    again = action_from_dict(action_to_dict(action))
    assert again == action
    assert action_from_json(msgspec.json.encode(data)) == action


@pytest.mark.parametrize(("data", "needle"), [
    ({"type": "click", "x": "1", "y": 2}, "`action.x`"),
    ({"type": "click", "x": 1}, "`y`"),
    ({"type": "click", "x": 1, "y": 2, "colour": "red"}, "`colour`"),
    ({"type": "click", "x": True, "y": 2}, "`action.x`"),
    ({"type": "click", "x": 1, "y": 2, "target": {"lable": "x"}}, "`lable`"),
    ({"type": "click", "x": 1, "y": 2, "confidence": 1.5}, "`action.confidence`"),
    ({"type": "shell"}, "exactly one of `command` or `argv`"),
    ({"type": "shell", "command": "ls", "argv": ["ls"]}, "exactly one"),
    ({"type": "shell", "command": "ls", "env": {"1BAD": "x"}}, "env"),
    ({"type": "key", "keys": []}, "`action.keys`"),
    ({"type": "scroll", "x": 1}, "both `x` and `y`"),
    ({"type": "navigate"}, "`url`"),
    ({"type": "teleport"}, "unknown"),
    ({"x": 1}, "action.type is required"),
])
def test_invalid_actions_name_the_field(data, needle):
    with pytest.raises(ActionError) as err:
        action_from_dict(data)
    assert needle in str(err.value)


def test_non_object_is_rejected():
    with pytest.raises(ActionError, match="JSON object"):
        action_from_dict(["click"])
    with pytest.raises(ActionError):
        action_from_json(b"[1, 2")


def test_actions_are_immutable():
    action = action_from_dict({"type": "type", "text": "a"})
    with pytest.raises(AttributeError):
        action.text = "b"
