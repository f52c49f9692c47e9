"""The composition root: the one place that builds deskgate's runtime and wires its rooms together.

- `runtime.py`: paths, policy, audit log, desktop, executor, approver, supervisor, servers (no Qt).
- `headless.py`: `deskgate serve`, the runtime behind the socket with a headless approver.
- `tray.py`: `deskgate run`, the same runtime with the Qt dialog, tray and windows. The only app module
  that imports Qt or ui/; imported only when `run` starts, so every other command starts without Qt.
- `policy_files.py`: the rules and settings windows' models over the person's policy file (no Qt).
- `tray_state.py`: what the tray shows, from the supervisor and the audit log (no Qt).
"""
