"""JSON-RPC 2.0 over stdio as the CLI speaks it in ACP mode (docs/acp.md §1, §5.1).

One message per ``\\n``-terminated UTF-8 line on stdout, nothing else there; the agent's
own requests get integer ids from 0 (its own counter); malformed input is dropped.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from .._wire import encode_line, write_stdout

# Error codes and the ``error.data`` shapes of docs/acp.md §5.1.
METHOD_NOT_FOUND = -32601
AUTH_REQUIRED = -32000
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

#: ``error.message`` for the codes whose message the contract does not record: the ACP
#: TypeScript SDK's standard texts. Clients should read ``code`` and ``data``.
_MESSAGES = {
    AUTH_REQUIRED: "Authentication required",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
}

AUTH_REQUIRED_TEXT = (
    "Authentication required. Please run 'agent login' first, then call authenticate() "
    "with methodId 'cursor_login'."
)


class RpcError(Exception):
    """An error answer: ``code``, ``message`` and ``data`` as they go on the wire."""

    def __init__(self, code: int, data: Any, message: str | None = None) -> None:
        super().__init__(message or _MESSAGES.get(code, "Error"))
        self.code = code
        self.message = message or _MESSAGES.get(code, "Error")
        self.data = data

    def wire(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "data": self.data}


def method_not_found(method: str) -> RpcError:
    """-32601, message ``"Method not found": <method>``, data ``{method}``."""
    return RpcError(METHOD_NOT_FOUND, {"method": method}, f'"Method not found": {method}')


def invalid_params(message: str) -> RpcError:
    """-32602 with ``data: {message}``."""
    return RpcError(INVALID_PARAMS, {"message": message})


def internal_details(details: str) -> RpcError:
    """-32603 with ``data: {details}`` (unknown session, bad mode id)."""
    return RpcError(INTERNAL_ERROR, {"details": details})


def auth_required() -> RpcError:
    """-32000 with ``data: {message}`` (a logged-out process, §3.2)."""
    return RpcError(AUTH_REQUIRED, {"message": AUTH_REQUIRED_TEXT})


def zod_error(issues: list[dict[str, Any]]) -> RpcError:
    """-32603 whose data is a Zod issue **array** (missing/invalid params)."""
    return RpcError(INTERNAL_ERROR, issues)


def missing(params: dict[str, Any], fields: dict[str, type[Any]]) -> list[dict[str, Any]]:
    """Zod-style issues for the ``fields`` of ``params`` that are absent or mistyped."""
    names: dict[type[Any], str] = {str: "string", list: "array", dict: "object"}
    issues: list[dict[str, Any]] = []
    for field, kind in fields.items():
        value = params.get(field)
        if isinstance(value, kind):
            continue
        received = "undefined" if field not in params else type(value).__name__
        issues.append(
            {
                "code": "invalid_type",
                "expected": names[kind],
                "received": received,
                "path": [field],
                "message": "Required" if field not in params else "Expected " + names[kind],
            }
        )
    return issues


class _Slot:
    """An agent request awaiting the client's answer."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.answer: dict[str, Any] = {}


class Transport:
    """Writes messages (one lock: lines never interleave) and tracks the agent's requests."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self._next_id = 0
        self._slots: dict[int, _Slot] = {}

    def send(self, message: dict[str, Any]) -> None:
        with self.lock:
            write_stdout(encode_line({"jsonrpc": "2.0", **message}))

    def respond(self, request_id: Any, result: Any) -> None:
        self.send({"id": request_id, "result": result})

    def fail(self, request_id: Any, error: RpcError) -> None:
        self.send({"id": request_id, "error": error.wire()})

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any], awaited: bool = True) -> _Slot:
        """Send an agent→client request with the next id (from 0); the slot is set when
        the answer comes (a request not awaited gets no slot; its answer is dropped)."""
        slot = _Slot()
        with self.lock:
            request_id = self._next_id
            self._next_id += 1
            if awaited:
                self._slots[request_id] = slot
            self.send({"id": request_id, "method": method, "params": params})
        return slot

    def answered(self, message: dict[str, Any]) -> None:
        """Route a client response to the request it answers; unknown ids are dropped."""
        request_id = message.get("id")
        with self.lock:
            slot = self._slots.pop(request_id, None) if isinstance(request_id, int) else None
        if slot is not None:
            slot.answer = message
            slot.done.set()


def parse_line(raw: bytes) -> dict[str, Any] | None:
    """The message on one input line, or None for anything malformed (dropped silently)."""
    try:
        message = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    return message
