"""JSON-RPC 2.0 messages we write, without any I/O: one compact JSON object per line, with
its ``\n`` (docs/acp.md §1; MCP's stdio transport frames the same way, docs/extend.md).
Shared by the live agent's connection and the tools' MCP server.
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["RequestId", "encode_error", "encode_notification", "encode_request", "encode_result"]

RequestId = int | str
_encoder = msgspec.json.Encoder()


# The version rides as a msgspec tag: always encoded, first, even with omit_defaults (a line
# without `"jsonrpc":"2.0"` is dropped silently by the agent, §1).
class _Out(msgspec.Struct, omit_defaults=True, tag_field="jsonrpc", tag="2.0"):
    pass


class _OutRequest(_Out):
    id: RequestId
    method: str
    params: Any = None


class _OutNotification(_Out):
    method: str
    params: Any = None


class _OutResult(_Out, omit_defaults=False):
    id: RequestId | None
    result: Any


class _OutErrorObject(msgspec.Struct, omit_defaults=True):
    code: int
    message: str
    data: Any = None  # optional in JSON-RPC: not sent as a null


class _OutError(_Out, omit_defaults=False):
    id: RequestId | None
    error: _OutErrorObject


def encode_request(request_id: RequestId, method: str, params: Any = None) -> bytes:
    """A request line; ``params`` is a Struct, a dict or ``None`` (left out)."""
    return _encoder.encode(_OutRequest(request_id, method, params)) + b"\n"


def encode_notification(method: str, params: Any = None) -> bytes:
    """A notification line (no ``id``: ``session/cancel`` must be one, docs/acp.md §3.7)."""
    return _encoder.encode(_OutNotification(method, params)) + b"\n"


def encode_result(request_id: RequestId | None, result: Any) -> bytes:
    """A success answer line; ``result`` ``None`` is sent as ``null``."""
    return _encoder.encode(_OutResult(request_id, result)) + b"\n"


def encode_error(request_id: RequestId | None, code: int, message: str, data: Any = None) -> bytes:
    """An error answer line (``data`` left out when ``None``)."""
    error = _OutErrorObject(code, message, data)
    return _encoder.encode(_OutError(request_id, error)) + b"\n"
