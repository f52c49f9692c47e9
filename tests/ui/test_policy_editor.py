"""ui.policy_editor: the tray's built-in policy editor validates before it saves."""

from __future__ import annotations

import stat

from PySide6.QtWidgets import QLabel

from app.user_policy import write_atomic
from gate import load_policy
from ui.policy_editor import PolicyEditor, validate_policy_text

TEMPLATE = '# my policy\npreset = "balanced"\n'


def make(qtbot, path, **kw) -> tuple[PolicyEditor, list[int]]:
    saved: list[int] = []
    editor = PolicyEditor(path, template=TEMPLATE, on_saved=lambda: saved.append(1),
                          write=write_atomic, **kw)
    qtbot.addWidget(editor)
    return editor, saved


def test_a_missing_file_starts_from_the_template_and_a_good_save_writes_it(qtbot, tmp_path) -> None:
    path = tmp_path / "cfg" / "policy.toml"
    editor, saved = make(qtbot, path)
    assert editor.editor.toPlainText() == TEMPLATE and not path.exists()
    editor.editor.setPlainText(TEMPLATE + "[limits]\nmax_steps = 7\n")
    assert editor.save()
    assert saved == [1]
    assert load_policy(path).limits.max_steps == 7
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "Saved" in editor.findChild(QLabel, "status").text()
    assert str(path) in editor.findChild(QLabel, "path").text()


def test_an_invalid_policy_is_not_saved_and_the_error_points_at_its_line(qtbot, tmp_path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text("[limits]\nmax_steps = 9\n")
    editor, saved = make(qtbot, path)
    editor.editor.setPlainText("[limits]\nmax_steps = 9\nmax_stepz = 3\n")
    assert not editor.save()
    assert saved == [] and path.read_text() == "[limits]\nmax_steps = 9\n"
    status = editor.findChild(QLabel, "status").text()
    assert status.startswith("Not saved") and f"{path}:3" in status and "max_stepz" in status
    assert editor.editor.textCursor().blockNumber() == 2  # the bad line is selected
    assert editor.editor.textCursor().selectedText() == "max_stepz = 3"


def test_validate_names_the_users_file_not_a_scratch_copy(tmp_path) -> None:
    err = validate_policy_text("[gate]\ndefault_mode = \"maybe\"\n", "/home/me/policy.toml")
    assert err is not None and "/home/me/policy.toml" in str(err) and "/tmp" not in str(err)
    assert validate_policy_text('preset = "kiosk"\n', "x.toml") is None
    assert validate_policy_text("not toml [", "x.toml") is not None
