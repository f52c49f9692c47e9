"""What the dialog says about an action: words, hidden secrets, highlighted commands, emphasised hosts."""

from __future__ import annotations

from ui.describe import MASK, describe_action, hidden_fields, shell_highlight, typed_text, url_html


def test_describe_actions_in_words() -> None:
    assert describe_action({"type": "click", "x": 640, "y": 400, "target": {"label": "Place order"}}) \
        == "Click at (640, 400) on 'Place order'"
    assert describe_action({"type": "click", "x": 1, "y": 2, "button": "right", "clicks": 2}) \
        == "Right-double-click at (1, 2)"
    assert describe_action({"type": "type", "text": "abc", "target": {"label": "Password"}}, {"text"}) \
        == "Type 3 characters into 'Password' (hidden)"
    assert describe_action({"type": "key", "keys": ["ctrl", "s"]}) == "Press ctrl+s"
    assert describe_action({"type": "file_write", "path": "/tmp/a.txt", "content": {"sha256": "x", "len": 40}}) \
        == "Write file /tmp/a.txt (40 characters)"
    assert describe_action({"type": "navigate", "url": "https://shop.example/cart"}) \
        == "Open https://shop.example/cart"
    assert describe_action({"type": "shell", "command": "ls", "cwd": "/srv"}) == "Run shell command in /srv"


def test_sanitised_values_are_hidden_and_plain_ones_shown() -> None:
    action = {"type": "type", "text": {"sha256": "00" * 32, "len": 7}}
    assert hidden_fields(action) == {"text"}
    assert typed_text(action) == f"{MASK} (7 characters, hidden)"
    assert typed_text({"type": "type", "text": "hello"}) == "hello"
    assert typed_text({"type": "type", "text": "s3cret-value"}, {"text"}) == f"{MASK} (12 characters, hidden)"


def test_shell_highlight_marks_the_risky_parts_and_escapes_html() -> None:
    markup, factors = shell_highlight("echo '<b>x</b>' | sudo rm -rf /srv/data")
    assert "<b>x</b>" not in markup and "&lt;b&gt;x&lt;/b&gt;" in markup
    assert "background-color:" in markup
    assert any("sudo" in f or "administrator" in f for f in factors)
    assert any("delete" in f for f in factors)


def test_plain_command_has_no_highlight() -> None:
    markup, factors = shell_highlight("ls -la")
    assert "background-color" not in markup
    assert not any("(high)" in f or "(critical)" in f for f in factors)


def test_url_emphasises_the_real_host_not_the_userinfo() -> None:
    markup, host = url_html("https://paypal.com@evil.test/login")
    assert host == "evil.test"
    assert '<b style="font-size:large;">evil.test</b>' in markup
    assert url_html("javascript:alert(1)")[1] is None


def test_keyed_fingerprints_from_the_sanitiser_are_hidden_too() -> None:
    from gate.redact import sanitize_action

    action = sanitize_action({"type": "type", "text": "hunter2", "target": {"label": "Password"}}, ("text",))
    assert "hmac" in action["text"] or "sha256" in action["text"]
    assert hidden_fields(action) == {"text"}
    assert typed_text(action) == f"{MASK} (7 characters, hidden)"
    assert describe_action({"type": "file_write", "path": "/tmp/a", "content": {"redacted": True, "hmac": "ab",
                                                                                "len": 9}}) \
        == "Write file /tmp/a (9 characters)"
