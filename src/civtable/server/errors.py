"""The one error type the server turns into a 4xx answer: ``{"detail": ..., "code": ...}``."""

from __future__ import annotations


class ApiError(Exception):
    """A refused request: HTTP ``status``, a stable machine ``code`` and a readable message.

    Raising it never leaves a change behind: the hub checks everything before it writes.
    """

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, object]:
        """The response body."""
        return {"detail": self.message, "code": self.code, "status": self.status}


def not_found(message: str) -> ApiError:
    """404: no such game (or page)."""
    return ApiError(404, "not_found", message)


def conflict(code: str, message: str) -> ApiError:
    """409: the request does not fit the game's current situation (stale, not started, ...)."""
    return ApiError(409, code, message)


def invalid(code: str, message: str) -> ApiError:
    """422: well-formed but not acceptable (illegal action, unknown bot, bad options)."""
    return ApiError(422, code, message)
