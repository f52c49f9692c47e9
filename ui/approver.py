"""QtApprover: the supervisor's worker threads ask a person through the confirmation dialog.

Worker threads never touch widgets: `ask()` posts the request to the GUI thread with a queued signal and
waits on a Future with its own deadline. If the GUI thread is dead or blocked, the deadline still passes
and the answer is TIMEOUT (deny). One dialog at a time, first come first served; `cancel_all()` (kill
switch, quit) answers every pending request with DENY at once, from any thread.

Each dialog reads its arm delay and its "Approve for N min" length from `settings()` as it opens: the
composition root passes the supervisor's current policy, so a reload reaches the next dialog.

If a person presses the mouse on the dialog (stopping its countdown), the GUI thread extends that
request's deadline to `hold_s` from then, so a reader is not cut off mid-thought; a dead GUI thread
cannot extend anything.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from app.ports import Answer, ApprovalRequest, ApprovalSettings, Reply
from ui.dialog import ConfirmDialog
from ui.qtcompat import emit

__all__ = ["FixedSettings", "QtApprover"]

_GRACE_S = 0.5  # the dialog's own countdown ends first; the worker's deadline is the backstop


@dataclasses.dataclass(frozen=True)
class FixedSettings:
    """Settings that never change (tests, benches): an `ApprovalSettings` without a policy behind it."""

    arm_delay_s: float = 1.0
    grant_minutes: int = 5


@dataclasses.dataclass(eq=False)
class _Pending:
    request: ApprovalRequest
    timeout_s: float
    deadline: float                       # monotonic; read by the worker, extended by the GUI thread
    future: concurrent.futures.Future = dataclasses.field(default_factory=concurrent.futures.Future)
    submitted: float = dataclasses.field(default_factory=time.monotonic)

    def resolve(self, reply: Reply) -> bool:
        """Set the answer once; False if it was already answered (first answer wins)."""
        try:
            self.future.set_result(reply)
            return True
        except concurrent.futures.InvalidStateError:
            return False


class QtApprover(QObject):
    """Approver backed by ConfirmDialog. Create it on the GUI thread; call `ask` from worker threads."""

    pending_changed = Signal(int)        # requests waiting or shown (the tray shows "asking" while > 0)
    dialog_opened = Signal(object)       # the ConfirmDialog now on screen (register it as protected)
    dialog_closed = Signal(object)
    _submitted = Signal(object)          # _Pending, worker → GUI thread
    _cancelled = Signal(str)             # GUI-side cleanup after cancel_all
    _resolved = Signal()                 # some request got its answer (possibly off the GUI thread)

    def __init__(self, settings: Callable[[], ApprovalSettings] | None = None, *, arm_delay_s: float = 1.0,
                 grant_minutes: int = 5, hold_s: float = 120.0, clock: Callable[[], float] | None = None,
                 parent: QObject | None = None) -> None:
        """`settings` is read each time a dialog opens (the policy in force then); without it, the dialog
        always uses `arm_delay_s` and `grant_minutes`."""
        super().__init__(parent)
        fixed = FixedSettings(arm_delay_s, grant_minutes)
        self.settings: Callable[[], ApprovalSettings] = settings if settings is not None else lambda: fixed
        self.hold_s = hold_s
        self._dialog_clock = clock
        self._lock = threading.Lock()
        self._pending: set[_Pending] = set()           # every unanswered request (any thread reads)
        self._queue: collections.deque[_Pending] = collections.deque()  # GUI thread only
        self._current: tuple[_Pending, ConfirmDialog] | None = None     # GUI thread only
        self._submitted.connect(self._enqueue, Qt.ConnectionType.QueuedConnection)
        self._cancelled.connect(self._drop_all, Qt.ConnectionType.QueuedConnection)
        self._resolved.connect(self._refresh, Qt.ConnectionType.QueuedConnection)

    def pending(self) -> int:
        """How many requests are unanswered (shown or waiting). Safe from any thread."""
        with self._lock:
            return len(self._pending)

    # -- worker side -----------------------------------------------------------------------------

    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        """Block until a person answers, or deny. Never raises."""
        try:
            if QThread.currentThread() == self.thread():
                # Waiting here would freeze the very event loop that shows the dialog.
                return Reply(Answer.DENY, by="timeout", note="asked on the GUI thread; denied")
            timeout = max(0.0, float(timeout))
            entry = _Pending(request, timeout, time.monotonic() + timeout + _GRACE_S)
            with self._lock:
                self._pending.add(entry)
            emit(self._submitted, entry)
            try:
                return self._wait(entry)
            finally:
                with self._lock:
                    self._pending.discard(entry)
        except Exception as err:  # fail closed: an approver error is a denial, never an exception
            return Reply(Answer.DENY, by="timeout", note=f"approver error: {type(err).__name__}")

    def _wait(self, entry: _Pending) -> Reply:
        while True:
            left = entry.deadline - time.monotonic()
            if left <= 0:
                if entry.resolve(Reply(Answer.TIMEOUT, by="timeout", note="nobody answered in time")):
                    return entry.future.result()
                return entry.future.result()  # an answer raced the deadline: it wins
            try:
                # Re-check the deadline at least every half second: the GUI thread may extend it.
                return entry.future.result(timeout=min(left, 0.5))
            except concurrent.futures.TimeoutError:
                continue

    def cancel_all(self, reason: str) -> None:
        """Deny every pending request now (callable from any thread) and close the dialog."""
        with self._lock:
            pending = list(self._pending)
        for entry in pending:
            entry.resolve(Reply(Answer.DENY, by="kill-switch", note=reason))
        emit(self._cancelled, reason)

    @property
    def waiting(self) -> int:
        """Requests not yet answered (shown or queued)."""
        with self._lock:
            return len(self._pending)

    # -- GUI side --------------------------------------------------------------------------------

    @property
    def current_dialog(self) -> ConfirmDialog | None:
        return self._current[1] if self._current else None

    @property
    def queued(self) -> int:
        """Requests waiting behind the dialog on screen."""
        return sum(1 for e in self._queue if not e.future.done())

    @Slot(object)
    def _enqueue(self, entry: _Pending) -> None:
        if entry.future.done():  # timed out or cancelled before the GUI thread got to it
            return
        self._queue.append(entry)
        # However it gets answered (dialog, worker deadline, cancel_all), the GUI thread then tidies up.
        entry.future.add_done_callback(lambda _f: emit(self._resolved))
        self._show_next()

    def _show_next(self) -> None:
        if self._current is None:
            while self._queue:
                entry = self._queue.popleft()
                if entry.future.done():
                    continue
                if self._open(entry):
                    break
        if self._current is not None:
            self._current[1].set_queued(self.queued)
        emit(self.pending_changed, self.queued + (1 if self._current else 0))

    def _open(self, entry: _Pending) -> bool:
        """Show `entry`'s dialog; False (and the request denied) if the settings cannot be read."""
        try:
            settings = self.settings()
            arm_delay_s, grant_minutes = float(settings.arm_delay_s), int(settings.grant_minutes)
        except Exception as err:  # fail closed: no dialog without its arm delay, and no silent default
            entry.resolve(Reply(Answer.DENY, by="timeout", note=f"approver error: {type(err).__name__}"))
            return False
        left = max(0.0, entry.deadline - _GRACE_S - time.monotonic())
        dialog = ConfirmDialog(entry.request, arm_delay_s=arm_delay_s, timeout_s=left,
                               clock=self._dialog_clock, hold_s=self.hold_s, grant_minutes=grant_minutes)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dialog.answered.connect(lambda answer, e=entry: self._on_answer(e, answer))
        dialog.countdown_stopped.connect(lambda e=entry: self._hold(e))
        self._current = (entry, dialog)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        emit(self.dialog_opened, dialog)
        return True

    def _hold(self, entry: _Pending) -> None:
        # Runs on the GUI thread, so a living GUI is what extends the worker's deadline.
        entry.deadline = max(entry.deadline, time.monotonic() + self.hold_s + _GRACE_S)

    def _on_answer(self, entry: _Pending, answer: Answer) -> None:
        by = "timeout" if answer is Answer.TIMEOUT else "person"
        entry.resolve(Reply(answer, by=by))
        self._close_current(entry)

    def _close_current(self, entry: _Pending) -> None:
        if self._current is None or self._current[0] is not entry:
            return
        _, dialog = self._current
        self._current = None
        if dialog.answer is None:
            dialog.finish(Answer.DENY)
        dialog.close()
        emit(self.dialog_closed, dialog)
        self._show_next()

    @Slot()
    def _refresh(self) -> None:
        # A request answered elsewhere (its worker timed out, or cancel_all): drop its dialog.
        if self._current is not None and self._current[0].future.done():
            self._close_current(self._current[0])
        else:
            self._show_next()

    @Slot(str)
    def _drop_all(self, _reason: str) -> None:
        self._queue.clear()
        if self._current is not None:
            self._close_current(self._current[0])
        emit(self.pending_changed, 0)

