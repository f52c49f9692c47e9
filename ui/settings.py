"""The settings window: preset, confirmation timeouts, takeover, kill hotkey and the headless approver's
rule file. Widgets only: the model reads the effective values and writes the person's policy file
(app.ports.SettingsModel; app/root/policy_files.py adapts app/user_policy.py to it). Saving applies the
policy at once; the takeover, hotkey and approver file are read when deskgate starts, and the window
says so."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.ports import SettingsModel
from ui.policy_labels import add_status_and_location
from ui.qtcompat import emit

__all__ = ["PRESETS", "SettingsWindow"]

PRESETS = (("balanced", "Balanced — asks about risky actions"),
           ("kiosk", "Kiosk — only listed simple actions, asks about the rest"),
           ("power", "Power — asks less, still blocks the catastrophic"))


def _seconds(low: float, high: float, step: float = 1.0, decimals: int = 1) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setDecimals(decimals)
    box.setSuffix(" s")
    return box


def _count(low: int, high: int, suffix: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setSuffix(suffix)
    return box


class SettingsWindow(QDialog):
    saved = Signal(object)  # the dict of values written

    def __init__(self, model: SettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setWindowTitle("deskgate — settings")
        self.setMinimumWidth(560)
        root = QVBoxLayout(self)
        root.setContentsMargins(16, 16, 16, 16)
        root.setSpacing(12)

        policy = QGroupBox("Policy")
        form = QFormLayout(policy)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.preset = QComboBox()
        for name, text in PRESETS:
            self.preset.addItem(text, name)
        form.addRow("Preset:", self.preset)
        root.addWidget(policy)

        asking = QGroupBox("Confirmations")
        form = QFormLayout(asking)
        self.timeout = _seconds(1, 3600)
        form.addRow("Deny when nobody answers within:", self.timeout)
        self.arm_delay = _seconds(0, 10, 0.1, 1)
        form.addRow("Buttons accept input after:", self.arm_delay)
        self.grant_minutes = _count(1, 1440, " min")
        form.addRow("“Approve for N min” lasts:", self.grant_minutes)
        self.step_timeout = _count(1, 3600, " s")
        form.addRow("A step may wait for its turn:", self.step_timeout)
        self.session_timeout = _count(1, 86400, " s")
        form.addRow("An agent session lasts at most:", self.session_timeout)
        root.addWidget(asking)

        desktop = QGroupBox("Desktop (applied when deskgate starts)")
        form = QFormLayout(desktop)
        self.takeover = QCheckBox("Agents wait while I use the mouse or keyboard")
        form.addRow("Takeover:", self.takeover)
        self.takeover_quiet = _seconds(0, 600, 0.5, 1)
        form.addRow("Go on after I am quiet for:", self.takeover_quiet)
        self.takeover.toggled.connect(self.takeover_quiet.setEnabled)
        self.hotkey = QLineEdit()
        self.hotkey.setPlaceholderText("e.g. ctrl+alt+shift+k, or none")
        form.addRow("Kill-switch hotkey:", self.hotkey)
        approver_row = QHBoxLayout()
        self.approver_rules = QLineEdit()
        self.approver_rules.setPlaceholderText("none (deskgate serve denies confirmations)")
        self.approver_rules.setToolTip("A TOML rule file that answers confirmations when deskgate runs without "
                                       "a desktop (`deskgate serve`); unmatched requests are denied.")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        approver_row.addWidget(self.approver_rules, 1)
        approver_row.addWidget(browse)
        form.addRow("Headless approver rules:", approver_row)
        root.addWidget(desktop)

        self.status, self.where = add_status_and_location(self, root)

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(self.reject)
        self.save_button = QPushButton("Save")
        self.save_button.setObjectName("save")
        self.save_button.clicked.connect(self.save)
        buttons.addWidget(cancel)
        buttons.addWidget(self.save_button)
        root.addLayout(buttons)
        self._loaded: dict[str, Any] = {}
        self.load()

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Approver rule file", self.approver_rules.text(),
                                              "TOML files (*.toml);;All files (*)")
        if path:
            self.approver_rules.setText(path)

    def load(self) -> None:
        try:
            v = dict(self.model.values())
            self.where.setText(f"Saved to {self.model.location()}")
        except Exception as err:
            self._say(f"The settings cannot be read: {err}")
            self.save_button.setEnabled(False)
            return
        self._loaded = v
        index = self.preset.findData(v.get("preset"))
        self.preset.setCurrentIndex(max(index, 0))
        self.timeout.setValue(float(v.get("approvals.timeout_s") or 30))
        self.arm_delay.setValue(float(v.get("approvals.arm_delay_s") or 0))
        self.grant_minutes.setValue(int(v.get("approvals.grant_minutes") or 5))
        self.step_timeout.setValue(int(v.get("limits.step_timeout_s") or 30))
        self.session_timeout.setValue(int(v.get("limits.session_timeout_s") or 600))
        self.takeover.setChecked(bool(v.get("desktop.takeover")))
        self.takeover_quiet.setValue(float(v.get("desktop.takeover_quiet_s") or 0))
        self.takeover_quiet.setEnabled(self.takeover.isChecked())
        self.hotkey.setText(str(v.get("desktop.kill_hotkey") or ""))
        self.approver_rules.setText(str(v.get("desktop.approver_rules") or ""))

    def current(self) -> dict[str, Any]:
        return {
            "preset": self.preset.currentData(),
            "approvals.timeout_s": self.timeout.value(),
            "approvals.arm_delay_s": self.arm_delay.value(),
            "approvals.grant_minutes": self.grant_minutes.value(),
            "limits.step_timeout_s": self.step_timeout.value(),
            "limits.session_timeout_s": self.session_timeout.value(),
            "desktop.takeover": self.takeover.isChecked(),
            "desktop.takeover_quiet_s": self.takeover_quiet.value(),
            "desktop.kill_hotkey": self.hotkey.text().strip() or "none",
            "desktop.approver_rules": self.approver_rules.text().strip(),
        }

    def changed(self) -> dict[str, Any]:
        """Only what the person changed: untouched defaults stay out of their file."""
        return {k: v for k, v in self.current().items() if self._loaded.get(k) != v}

    def save(self) -> None:
        values = self.changed()
        if not values:
            self.accept()
            return
        try:
            self.model.save(values)
        except Exception as err:
            self._say(f"Not saved: {err}")
            return
        emit(self.saved, values)
        self.accept()
