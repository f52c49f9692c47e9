"""gate/describe.py: the one describer, in both styles, never showing a secret."""

from __future__ import annotations

from gate.describe import MASK, describe_action, hidden_fields, secret_length, shell_command_text
from gate.redact import sanitize_action

CLICK = {"type": "click", "x": 640, "y": 400, "target": {"label": "Place order"}}
TOKEN = "ghp_" + "Zq7" * 12  # the shape of a live access token


def test_sentences_for_the_dialog() -> None:
    assert describe_action(CLICK) == "Click at (640, 400) on 'Place order'"
    assert describe_action({"type": "scroll", "x": 3, "y": 4, "dy": -5}) == "Scroll by (0, -5) at (3, 4)"
    assert describe_action({"type": "file_move", "path": "/a", "to": "/b"}) == "Move file /a → /b"
    assert describe_action({"type": "tool", "name": "Bash"}) == "Call tool 'Bash'"


def test_lines_for_lists_keep_the_values() -> None:
    assert describe_action(CLICK, style="line") == 'click (640,400) left "Place order"'
    assert describe_action({"type": "key", "keys": ["ctrl", "s"]}, style="line") == "key ctrl+s"
    assert describe_action({"type": "shell", "command": "make test"}, style="line") == "shell make test"
    assert describe_action({"type": "shell", "argv": ["ls", "-la"]}, style="line") == "shell ls -la"
    assert describe_action({"type": "type", "text": "two\nlines"}, style="line") == "type two⏎lines"
    assert describe_action({"type": "system", "name": "volume", "params": {"level": 30}}, style="line") \
        == 'system volume {"level":30}'


def test_a_field_named_secret_shows_its_length_only() -> None:
    action = {"type": "type", "text": "correct horse", "target": {"label": "Password"}}
    assert describe_action(action, {"text"}) == "Type 13 characters into 'Password' (hidden)"
    line = describe_action(action, {"text"}, style="line")
    assert "correct horse" not in line and "«redacted len:13»" in line


def test_a_detected_secret_is_hidden_unless_detection_is_off() -> None:
    shell = {"type": "shell", "command": f"curl -H 'Authorization: token {TOKEN}' https://api.example"}
    assert "command" in hidden_fields(shell)
    line = describe_action(shell, style="line")
    assert TOKEN not in line and line.startswith("shell «redacted len:")
    assert TOKEN in describe_action(shell, style="line", detect_secrets=False)  # the caller sanitised already


def test_sanitised_values_stay_hidden_in_both_styles() -> None:
    clean = sanitize_action({"type": "type", "text": "hunter22", "target": {"label": "PIN"}}, ("text",))
    assert "hunter22" not in describe_action(clean) and "hunter22" not in describe_action(clean, style="line")
    assert describe_action(clean) == "Type 8 characters into 'PIN' (hidden)"
    assert secret_length(clean["text"]) == 8
    old = {"type": "file_write", "path": "/tmp/n", "content": {"sha256": "00", "len": 40}}  # logs of old
    assert describe_action(old) == "Write file /tmp/n (40 characters)"


def test_limit_cuts_with_an_ellipsis() -> None:
    long = {"type": "navigate", "url": "https://example.org/" + "a" * 300}
    text = describe_action(long, style="line", limit=50)
    assert len(text) == 50 and text.endswith("…") and text.startswith("navigate https://example.org/")
    assert describe_action(CLICK, limit=500) == describe_action(CLICK)


def test_shell_command_text_quotes_an_argv() -> None:
    assert shell_command_text({"type": "shell", "argv": ["echo", "a b"]}) == "echo 'a b'"
    assert shell_command_text({"type": "shell", "command": "ls"}) == "ls"
    assert MASK == "••••"
