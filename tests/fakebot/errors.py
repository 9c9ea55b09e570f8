"""Errors the fake Bot API answers with, worded as the real server words them."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An unsuccessful Bot API answer: HTTP status, description and optional parameters."""

    def __init__(
        self, code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.parameters = parameters

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(reason: str) -> ApiError:
    return ApiError(400, f"Bad Request: {reason}")


def forbidden(reason: str) -> ApiError:
    return ApiError(403, f"Forbidden: {reason}")


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(
        429,
        f"Too Many Requests: retry after {retry_after}",
        {"retry_after": retry_after},
    )


def chat_migrated(new_chat_id: int) -> ApiError:
    return ApiError(
        400,
        "Bad Request: group chat was upgraded to a supergroup chat",
        {"migrate_to_chat_id": new_chat_id},
    )


def conflict(reason: str) -> ApiError:
    return ApiError(409, f"Conflict: {reason}")


UNAUTHORIZED = ApiError(401, "Unauthorized")
NOT_FOUND = ApiError(404, "Not Found")
CHAT_NOT_FOUND = "chat not found"
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
