"""Errors that become protocol error replies. In every case the action did not run."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: the hook and `deskgate kill` start small
if TYPE_CHECKING:
    from typing import Any


__all__ = ["CODES", "DeskgateError"]

# The wire protocol's error codes (DESIGN §4).
CODES = frozenset({
    "bad_request", "too_large", "unknown_op", "unauthorized", "disabled", "killed", "paused", "limit",
    "timeout", "unsupported", "sandbox_denied", "internal",
})


class DeskgateError(Exception):
    """An error reply: `code` is one of CODES, `message` says what went wrong for a person to read."""

    # The whole reply line, when the error came back from the supervisor (app/agent/client.py sets it).
    reply: dict[str, Any] | None = None
    retry_after: float | None = None

    def __init__(self, code: str, message: str, *, retry_after: float | None = None) -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        # seconds after which the same request can pass (a rate limit); None: waiting does not help
        self.retry_after = retry_after

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            out["retry_after"] = round(max(self.retry_after, 0.0), 3)
        return out
