"""The MCP messages a tools server reads and writes, as msgspec structs, and JSON-RPC 2.0
framing without I/O (docs/extend.md, "The MCP server"; MCP 2025-11-25, "Base Protocol").

Every decode goes through :func:`decode`: hostile input (JSON nested too deep, a string
that is not UTF-8, a value of the wrong type) is a :class:`msgspec.DecodeError`, never a
crash. Payloads stay :class:`msgspec.Raw` until the method that reads them is known.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from .._wire.jsonrpc_out import encode_error, encode_result

__all__ = [
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "CallParams",
    "CallResult",
    "CancelledParams",
    "Envelope",
    "InitializeParams",
    "ListParams",
    "TextContent",
    "ToolInfo",
    "decode",
    "encode_error",
    "encode_result",
    "read_envelope",
]

# JSON-RPC 2.0's codes (https://www.jsonrpc.org/specification#error_object).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602

T = TypeVar("T")
TOO_DEEP = "nested too deep to decode"


def decode(data: bytes | msgspec.Raw, kind: type[T]) -> T:
    """``data`` as ``kind``. JSON nested too deep (a ``RecursionError`` in msgspec) and a
    string that is not UTF-8 are a :class:`msgspec.DecodeError` too.

    Raises:
        msgspec.ValidationError: valid JSON of another shape.
        msgspec.DecodeError: not JSON.
    """
    try:
        return msgspec.json.decode(data, type=kind)
    except RecursionError:
        raise msgspec.DecodeError(TOO_DEEP) from None
    except UnicodeDecodeError as exc:
        raise msgspec.DecodeError(f"a string that is not UTF-8: {exc.reason}") from None


# --- in ------------------------------------------------------------------------------
class Envelope(msgspec.Struct):
    """A message's top level, read loosely: the server checks each member itself, so that
    a request with one bad member is still answered with its id. UNSET tells a member
    left out (a notification has no ``id``) from ``null``."""

    jsonrpc: Any = msgspec.UNSET
    id: Any = msgspec.UNSET
    method: Any = msgspec.UNSET
    # Raw must not share a union with None (msgspec then reads only a null): UNSET instead.
    params: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    result: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    error: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET


def read_envelope(line: bytes) -> Envelope | list[msgspec.Raw] | None:
    """A line's top level: an object, a batch (a JSON array), or ``None`` when the line
    is JSON of another kind (a number, a string).

    Raises:
        msgspec.DecodeError: the line is not JSON (but never a ``ValidationError``).
    """
    try:
        return decode(line, Envelope | list[msgspec.Raw])  # type: ignore[arg-type]
    except msgspec.ValidationError:
        return None


class InitializeParams(msgspec.Struct, rename="camel"):
    protocol_version: str


class ListParams(msgspec.Struct):
    cursor: str | None = None


class CallParams(msgspec.Struct):
    name: str
    arguments: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET


class CancelledParams(msgspec.Struct, rename="camel"):
    request_id: int | str
    reason: str | None = None


# --- out -----------------------------------------------------------------------------
class ToolInfo(msgspec.Struct, rename="camel", omit_defaults=True):
    """One entry of ``tools/list``'s ``tools``."""

    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None = None


class TextContent(msgspec.Struct, tag_field="type", tag="text"):
    text: str


class CallResult(msgspec.Struct, rename="camel"):
    """A ``tools/call`` result: ``isError`` always written (as the spec's examples do),
    ``structuredContent`` only when there is one (UNSET is never written)."""

    content: list[TextContent]
    is_error: bool = False
    structured_content: dict[str, Any] | msgspec.UnsetType = msgspec.UNSET
