"""app.agent.adapters: computer-use tool calls → deskgate actions → tool results.

The payloads are written in the shapes the public documentation gives:
- Anthropic computer-use tool (computer_20241022 / computer_20250124 `tool_use` inputs):
  https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/computer-use-tool
- OpenAI computer use (`computer_call` items, `computer_call_output`):
  https://platform.openai.com/docs/guides/tools-computer-use, github.com/openai/openai-cua-sample-app
"""

from __future__ import annotations

import base64

import pytest

from app.agent.adapters import (
    Pointer,
    from_anthropic,
    from_openai,
    normalise_keys,
    run,
    to_openai_output,
    to_tool_result,
)
from app.agent.client import Killed
from app.execute.executor import map_keys
from gate.rules.gui import canonical_keys

# -- Anthropic ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("tool_input", "expected"), [
    ({"action": "left_click", "coordinate": [512, 384]},
     [{"type": "click", "x": 512, "y": 384, "button": "left", "clicks": 1}]),
    ({"action": "right_click", "coordinate": [10, 20]},
     [{"type": "click", "x": 10, "y": 20, "button": "right", "clicks": 1}]),
    ({"action": "middle_click", "coordinate": [10, 20]},
     [{"type": "click", "x": 10, "y": 20, "button": "middle", "clicks": 1}]),
    ({"action": "double_click", "coordinate": [10, 20]},
     [{"type": "click", "x": 10, "y": 20, "button": "left", "clicks": 2}]),
    ({"action": "triple_click", "coordinate": [10, 20]},
     [{"type": "click", "x": 10, "y": 20, "button": "left", "clicks": 3}]),
    ({"action": "mouse_move", "coordinate": [300, 200]}, [{"type": "move", "x": 300, "y": 200}]),
    ({"action": "left_click_drag", "start_coordinate": [100, 100], "coordinate": [400, 250]},
     [{"type": "drag", "path": [[100, 100], [400, 250]]}]),
    ({"action": "type", "text": "Hello, world!"}, [{"type": "type", "text": "Hello, world!"}]),
    ({"action": "key", "text": "ctrl+s"}, [{"type": "key", "keys": ["ctrl", "s"]}]),
    ({"action": "key", "text": "Return"}, [{"type": "key", "keys": ["enter"]}]),
    ({"action": "key", "text": "super"}, [{"type": "key", "keys": ["super"]}]),
    ({"action": "key", "text": "alt+Tab"}, [{"type": "key", "keys": ["alt", "tab"]}]),
    ({"action": "key", "text": "KP_0"}, [{"type": "key", "keys": ["num0"]}]),
    ({"action": "key", "text": "ctrl+a BackSpace"},
     [{"type": "key", "keys": ["ctrl", "a"]}, {"type": "key", "keys": ["backspace"]}]),
    ({"action": "key", "text": "ctrl+plus"}, [{"type": "key", "keys": ["ctrl", "+"]}]),
    ({"action": "scroll", "coordinate": [640, 400], "scroll_direction": "down", "scroll_amount": 3},
     [{"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": 3}]),
    ({"action": "scroll", "coordinate": [640, 400], "scroll_direction": "up", "scroll_amount": 5},
     [{"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": -5}]),
    ({"action": "scroll", "coordinate": [640, 400], "scroll_direction": "left", "scroll_amount": 2},
     [{"type": "scroll", "x": 640, "y": 400, "dx": -2, "dy": 0}]),
    ({"action": "hold_key", "text": "shift", "duration": 1.5},
     [{"type": "key", "keys": ["shift"]}, {"type": "wait", "seconds": 1.5}]),
    ({"action": "wait", "duration": 2}, [{"type": "wait", "seconds": 2.0}]),
    ({"action": "wait", "duration": 90},
     [{"type": "wait", "seconds": 60.0}, {"type": "wait", "seconds": 30.0}]),
    ({"action": "screenshot"}, [{"type": "screenshot"}]),
    ({"action": "cursor_position"}, [{"op": "cursor_position"}]),
])
def test_anthropic_actions(tool_input, expected) -> None:
    assert from_anthropic(tool_input) == expected


def test_anthropic_coordinates_are_scaled_to_the_screen() -> None:
    # the model saw a 1024x768 screenshot of a 1280x800 screen
    steps = from_anthropic({"action": "left_click", "coordinate": [512, 384]}, scale=(1280 / 1024, 800 / 768))
    assert steps == [{"type": "click", "x": 640, "y": 400, "button": "left", "clicks": 1}]


def test_anthropic_clicks_without_coordinate_use_the_pointer_and_press_release_is_a_drag() -> None:
    ptr = Pointer()
    assert from_anthropic({"action": "mouse_move", "coordinate": [50, 60]}, pointer=ptr) == \
        [{"type": "move", "x": 50, "y": 60}]
    assert from_anthropic({"action": "left_click"}, pointer=ptr)[0] == \
        {"type": "click", "x": 50, "y": 60, "button": "left", "clicks": 1}
    assert from_anthropic({"action": "left_mouse_down"}, pointer=ptr) == []
    assert from_anthropic({"action": "mouse_move", "coordinate": [80, 90]}, pointer=ptr) == []  # held: buffered
    assert from_anthropic({"action": "left_mouse_up", "coordinate": [120, 90]}, pointer=ptr) == \
        [{"type": "drag", "path": [[50, 60], [80, 90], [120, 90]]}]
    assert from_anthropic({"action": "left_click_drag", "coordinate": [10, 10]}, pointer=ptr) == \
        [{"type": "drag", "path": [[120, 90], [10, 10]]}]  # computer_20241022: from where the pointer is


@pytest.mark.parametrize(("tool_input", "message"), [
    ({"action": "zoom", "region": [0, 0, 10, 10]}, "supported: key, hold_key, type"),
    ({"action": "left_click"}, "pointer position is not known"),
    ({"action": "left_click", "coordinate": [10, 10], "text": "shift"}, "modifier keys"),
    ({"action": "left_mouse_down", "coordinate": [1, 1]}, "needs a Pointer"),
    ({"action": "key", "text": "ctrl+hyperdrive"}, "unknown key name 'hyperdrive'"),
    ({"action": "key"}, "must name the key"),
    ({"action": "scroll", "coordinate": [1, 1], "scroll_direction": "sideways", "scroll_amount": 1}, "up, down"),
    ({"action": "left_click", "coordinate": [True, 3]}, "must be a number"),
    ({"action": "left_click", "coordinate": [999999, 3]}, "cannot express"),
    ({"action": "type", "text": "x", "coordinate": [1, 2]}, "takes no `coordinate`"),
    ({"action": "type", "text": "x", "speed": 3}, "unexpected field(s) speed"),
])
def test_anthropic_refuses_what_it_cannot_express(tool_input, message) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        from_anthropic(tool_input)


# -- OpenAI -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "expected"), [
    ({"type": "click", "button": "left", "x": 156, "y": 298},
     [{"type": "click", "x": 156, "y": 298, "button": "left", "clicks": 1}]),
    ({"type": "click", "button": "right", "x": 1, "y": 2},
     [{"type": "click", "x": 1, "y": 2, "button": "right", "clicks": 1}]),
    ({"type": "click", "button": "wheel", "x": 1, "y": 2},
     [{"type": "click", "x": 1, "y": 2, "button": "middle", "clicks": 1}]),
    ({"type": "click", "button": "back", "x": 1, "y": 2}, [{"type": "key", "keys": ["alt", "left"]}]),
    ({"type": "double_click", "x": 7.6, "y": 8.2},
     [{"type": "click", "x": 8, "y": 8, "button": "left", "clicks": 2}]),
    ({"type": "scroll", "x": 640, "y": 400, "scroll_x": 0, "scroll_y": 300},
     [{"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": 3}]),
    ({"type": "scroll", "x": 640, "y": 400, "scroll_x": -40, "scroll_y": 0},
     [{"type": "scroll", "x": 640, "y": 400, "dx": -1, "dy": 0}]),
    ({"type": "type", "text": "deskgate"}, [{"type": "type", "text": "deskgate"}]),
    ({"type": "keypress", "keys": ["CTRL", "S"]}, [{"type": "key", "keys": ["ctrl", "s"]}]),
    ({"type": "keypress", "keys": ["ENTER"]}, [{"type": "key", "keys": ["enter"]}]),
    ({"type": "keypress", "keys": ["META", "ArrowLeft"]}, [{"type": "key", "keys": ["super", "left"]}]),
    ({"type": "keypress", "keys": ["PAGEDOWN"]}, [{"type": "key", "keys": ["pagedown"]}]),
    ({"type": "wait"}, [{"type": "wait", "seconds": 2.0}]),
    ({"type": "drag", "path": [{"x": 10, "y": 10}, {"x": 30, "y": 40}, {"x": 60, "y": 40}]},
     [{"type": "drag", "path": [[10, 10], [30, 40], [60, 40]]}]),
    ({"type": "move", "x": 5, "y": 6}, [{"type": "move", "x": 5, "y": 6}]),
    ({"type": "screenshot"}, [{"type": "screenshot"}]),
])
def test_openai_actions(action, expected) -> None:
    assert from_openai(action) == expected


def test_openai_computer_call_items_are_unwrapped() -> None:
    item = {"type": "computer_call", "id": "cu_1", "call_id": "call_1", "status": "completed",
            "pending_safety_checks": [], "action": {"type": "keypress", "keys": ["CTRL", "L"]}}
    assert from_openai(item) == [{"type": "key", "keys": ["ctrl", "l"]}]
    batched = {"type": "computer_call", "call_id": "call_2",
               "actions": [{"type": "move", "x": 1, "y": 2}, {"type": "type", "text": "hi"}]}
    assert from_openai(batched) == [{"type": "move", "x": 1, "y": 2}, {"type": "type", "text": "hi"}]


@pytest.mark.parametrize(("action", "message"), [
    ({"type": "open_url", "url": "https://example.com"}, "supported: click, double_click"),
    ({"type": "click", "button": "sideways", "x": 1, "y": 1}, "button 'sideways'"),
    ({"type": "drag", "path": [{"x": 1, "y": 1}]}, "at least two points"),
    ({"type": "keypress", "keys": []}, "needs `keys`"),
    ({"type": "click", "x": 1}, "needs `x` and `y`"),
])
def test_openai_refuses_what_it_cannot_express(action, message) -> None:
    with pytest.raises(ValueError, match=message):
        from_openai(action)


@pytest.mark.parametrize(("given", "canonical"), [
    (["CTRL", "ALT", "DELETE"], "ctrl+alt+delete"), (["Super_L", "l"], "super+l"), (["cmd", "q"], "super+q"),
    (["Control_L", "Escape"], "ctrl+esc"), (["Page_Up"], "pageup"), (["Prior"], "pageup"), (["Next"], "pagedown"),
    (["ArrowDown"], "down"), (["option", "F4"], "alt+f4"), (["ctrl+shift+t"], "ctrl+shift+t"),
])
def test_key_names_match_what_the_gate_and_the_executor_read(given, canonical) -> None:
    keys = normalise_keys(given)
    assert canonical_keys(keys) == canonical  # the gate's session-key rule sees the same combination
    assert map_keys(keys)  # and the executor can press it


# -- running and answering ------------------------------------------------------------------------------


class FakeClient:
    """Stands in for app.agent.client.Client: answers from a script, remembers what was asked."""

    def __init__(self, *verdicts: str) -> None:
        self.verdicts = list(verdicts)
        self.sent: list[dict] = []

    def act(self, action):
        self.sent.append(action)
        verdict = self.verdicts.pop(0)
        if verdict == "killed":
            raise Killed("kill switch: enough")
        reply = {"verdict": verdict, "decision": "allow" if verdict == "executed" else "block",
                 "decided_by": "policy", "reason": "recursive delete of ~" if verdict == "denied" else "",
                 "rules": ["block.shell.recursive-delete-root"] if verdict == "denied" else []}
        if action["type"] == "screenshot":
            reply["result"] = {"png_base64": base64.b64encode(b"\x89PNG-fake").decode()}
        return reply


def test_run_stops_at_the_first_refusal_and_the_result_says_why() -> None:
    client = FakeClient("executed", "denied", "executed")
    steps = from_anthropic({"action": "key", "text": "ctrl+a Delete Return"})
    replies = run(client, steps)
    assert [r["verdict"] for r in replies] == ["executed", "denied"]
    assert len(client.sent) == 2  # the third step never went out
    result = to_tool_result("toolu_01", replies)
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_01" and result["is_error"] is True
    text = result["content"][0]["text"]
    assert "recursive delete of ~" in text and "block.shell.recursive-delete-root" in text


def test_screenshot_and_cursor_position_results() -> None:
    shot = to_tool_result("toolu_02", run(FakeClient("executed"), from_anthropic({"action": "screenshot"})))
    assert "is_error" not in shot
    assert shot["content"] == [{"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                             "data": base64.b64encode(b"\x89PNG-fake").decode()}}]
    ptr = Pointer(position=(12, 34))
    where = run(FakeClient(), from_anthropic({"action": "cursor_position"}, pointer=ptr), pointer=ptr)
    assert to_tool_result("toolu_03", where)["content"] == [{"type": "text", "text": "X=12,Y=34"}]
    read = run(FakeClient(), [{"op": "cursor_position"}], read_pointer=lambda: (5, 6))
    assert read == [{"verdict": "observed", "x": 5, "y": 6}]


def test_errors_become_error_results() -> None:
    try:
        from_anthropic({"action": "zoom"})
    except ValueError as err:
        bad = to_tool_result("toolu_04", err)
    assert bad["is_error"] and "unsupported Anthropic computer-use action 'zoom'" in bad["content"][0]["text"]
    with pytest.raises(Killed) as killed:
        run(FakeClient("killed"), from_openai({"type": "type", "text": "x"}))
    assert "kill switch" in to_tool_result("toolu_05", killed.value)["content"][0]["text"]


def test_openai_output_carries_a_screenshot_and_a_refusal_message() -> None:
    client = FakeClient("denied")
    replies = run(client, from_openai({"type": "type", "text": "rm -rf ~\n"}))
    items = to_openai_output("call_9", replies, screenshot=b"\x89PNG-now")
    assert items[0] == {"type": "computer_call_output", "call_id": "call_9",
                        "output": {"type": "input_image",
                                   "image_url": "data:image/png;base64," + base64.b64encode(b"\x89PNG-now").decode()}}
    assert items[1]["role"] == "user" and "deskgate refused" in items[1]["content"][0]["text"]
    ok = to_openai_output("call_10", run(FakeClient("executed"), from_openai({"type": "screenshot"})))
    assert len(ok) == 1 and ok[0]["output"]["image_url"].endswith(base64.b64encode(b"\x89PNG-fake").decode())
    with pytest.raises(ValueError, match="needs a screenshot"):
        to_openai_output("call_11", run(FakeClient("executed"), from_openai({"type": "move", "x": 1, "y": 1})))
