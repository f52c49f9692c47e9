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


def _verdict(command: str, policy=None):
    from gate import SafetyGate, action_from_dict

    return SafetyGate(policy).assess(action_from_dict({"type": "shell", "command": command}))


def _strict_policy():
    """The default policy plus one block pattern of our own: `git log` asks nothing elsewhere."""
    import msgspec

    from gate import default_policy

    p = default_policy()
    return msgspec.structs.replace(p, shell=msgspec.structs.replace(p.shell, block_patterns=[r"\bgit\s+log\b"]))


def _coloured(markup: str, risk: str) -> list[str]:
    """The texts of `markup` shown in the span colours of `risk`."""
    import re

    from ui.theme import span_colors

    background, color = span_colors(risk)
    style = re.escape(f'<span style="background-color:{background}; color:{color}; font-weight:bold;">')
    return re.findall(style + r"(.*?)</span>", markup)


def test_shell_highlight_marks_the_risky_parts_and_escapes_html() -> None:
    command = "echo '<b>x</b>' | sudo rm -rf /srv/data"
    markup, factors = shell_highlight(command, _verdict(command).hits)
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


def test_the_parts_a_policy_of_its_own_finds_risky_are_coloured() -> None:
    command = "cd /srv && git log --oneline"
    strict = _verdict(command, _strict_policy())
    markup, factors = shell_highlight(command, strict.hits)
    assert any("git log --oneline" in part for part in _coloured(markup, "critical"))
    assert any("blocked pattern" in f for f in factors)
    # the default policy's verdict on the same command points at nothing there
    markup, _ = shell_highlight(command, _verdict(command).hits)
    assert not any("git" in part for risk in ("medium", "high", "critical") for part in _coloured(markup, risk))


def test_spans_of_another_field_or_out_of_range_are_ignored() -> None:
    from gate.model import Decision, Hit, Risk, Span

    command = "make all"
    stray = Hit("block.x.y", Decision.BLOCK, Risk.CRITICAL, "elsewhere",
                (Span("text", 0, 4), Span("command", 5, 99)))
    markup, _ = shell_highlight(command, [stray])
    assert _coloured(markup, "critical") == []
