"""JSON-RPC 2.0 as the CLI's ACP mode frames it, without any I/O (docs/acp.md §1).

One compact JSON message per ``\\n``-terminated UTF-8 line, no ``Content-Length``, no
line-length cap. Incoming lines decode to a :class:`Request`, a :class:`Notification`, a
:class:`Response` or, for anything else, a :class:`Malformed` diagnostic: the agent
drops malformed input silently (§1, §5.2 item 6) and so do we, but we keep a record.
Payloads (``params``, ``result``) stay :class:`msgspec.Raw` here; ``_messages`` gives them
types, so an unknown or odd payload never breaks the framing layer.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, TypeVar

import msgspec

from .._wire.jsonrpc_out import (
    RequestId,
    encode_error,
    encode_notification,
    encode_request,
    encode_result,
)
from ..errors import AgentError, ErrorContext

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "METHOD_NOT_FOUND",
    "IdAllocator",
    "Incoming",
    "JsonRpcError",
    "Malformed",
    "Notification",
    "Request",
    "RequestId",
    "Response",
    "decode",
    "decode_line",
    "encode_error",
    "encode_notification",
    "encode_request",
    "encode_result",
]

# The codes the CLI was seen to use (docs/acp.md §5.1).
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

"""The agent's ids are integers from 0 (§1); a client may use strings too."""


class JsonRpcError(AgentError):
    """A JSON-RPC error answer: ``code``, ``message`` and ``data`` as sent.

    ``data`` is any JSON value: the CLI sends three shapes (a Zod issue array,
    ``{details}`` or ``{message}``, docs/acp.md §5.1), so it is never given a type.
    """

    def __init__(
        self,
        code: int,
        message: str,
        data: Any = None,
        *,
        context: ErrorContext | None = None,
        hint: str | None = None,
        method: str | None = None,
    ) -> None:
        detail = detail_of(data)
        said = f"JSON-RPC error {code}: {message}" + (f" ({detail})" if detail else "")
        super().__init__(f"{method}: {said}" if method else said, context=context, hint=hint)
        self.method = method
        self.code = code
        self.rpc_message = message
        self.data = data


def detail_of(data: Any) -> str:
    """The human part of ``data``: its ``message`` or ``details`` (§5.1), else nothing."""
    if isinstance(data, dict):
        for key in ("message", "details"):
            if isinstance(data.get(key), str):
                return str(data[key])
    return ""


class Request(msgspec.Struct, frozen=True):
    """An incoming request: it must be answered with the same ``id``."""

    id: RequestId
    method: str
    params: msgspec.Raw | None = None


class Notification(msgspec.Struct, frozen=True):
    """An incoming notification: no ``id``, never answered."""

    method: str
    params: msgspec.Raw | None = None


class Response(msgspec.Struct, frozen=True):
    """An answer to one of our requests: ``result`` or ``error`` (a :class:`JsonRpcError`).

    ``id`` is ``None`` only for an error about a request the peer could not read.
    """

    id: RequestId | None
    result: msgspec.Raw | None = None
    error: JsonRpcError | None = None


class Malformed(msgspec.Struct, frozen=True):
    """What the agent sent that was dropped, and why: an item of
    :attr:`LiveAgent.diagnostics <agent_sdk.live.LiveAgent.diagnostics>`. A line that is no
    JSON-RPC 2.0 message, a message that could not be decoded, an answer to no waiting
    request, a callback's failure to answer: kept, never fatal (docs/acp.md §1).

    Attributes:
        line: the line as it came (redacted, cut at 64 KiB); empty when nothing came.
        reason: why it was dropped.
        id: the request id its top level still showed, if any: an answer that cannot be
            read fails its own request, a request that cannot be read is refused.
        method: the method its top level still showed, if any.

    Example::

        for dropped in agent.diagnostics:
            print(dropped.reason, dropped.line[:80])
    """

    line: bytes
    reason: str
    id: RequestId | None = None
    method: str | None = None


Incoming = Request | Notification | Response | Malformed


class _ErrorObject(msgspec.Struct):
    code: int
    message: str = ""
    data: Any = None


class _Envelope(msgspec.Struct):
    # UNSET tells "no id" (a notification) from `"id": null` (an error about a bad request).
    jsonrpc: str | None = None
    id: RequestId | msgspec.UnsetType | None = msgspec.UNSET
    method: str | None = None
    # Raw must not share a union with None (msgspec then reads only a null): UNSET instead.
    params: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    result: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    error: _ErrorObject | None = None


_decoder = msgspec.json.Decoder(_Envelope)
T = TypeVar("T")
TOO_DEEP = "nested too deep to decode"


def decode(data: bytes | msgspec.Raw, kind: type[T]) -> T:
    """``msgspec.json.decode`` where JSON nested too deep (a ``RecursionError`` in msgspec)
    or a string that is not UTF-8 (msgspec's ``UnicodeDecodeError``) is a
    :class:`msgspec.DecodeError` too: a hostile line never escapes as a crash."""
    try:
        return msgspec.json.decode(data, type=kind)
    except RecursionError:
        raise msgspec.DecodeError(TOO_DEEP) from None
    except UnicodeDecodeError as exc:
        raise msgspec.DecodeError(f"a string that is not UTF-8: {exc.reason}") from None


def decode_line(line: bytes) -> Incoming:
    """One line (without or with its ``\\n``) as a typed message; unknown fields are ignored."""
    try:
        env = _decoder.decode(line)
    except RecursionError:
        return _malformed(line, TOO_DEEP)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        return _malformed(line, f"not a JSON-RPC message: {exc}")
    if env.jsonrpc != "2.0":
        return _malformed(line, 'no "jsonrpc": "2.0"')
    if env.method is not None:
        params = None if isinstance(env.params, msgspec.UnsetType) else env.params
        if isinstance(env.id, msgspec.UnsetType):
            return Notification(env.method, params)
        if env.id is None:
            return Malformed(line, "a request with a null id")
        return Request(env.id, env.method, params)
    if isinstance(env.id, msgspec.UnsetType):
        return Malformed(line, "neither a method nor an id")
    if env.error is not None:
        error = JsonRpcError(env.error.code, env.error.message, env.error.data)
        return Response(env.id, error=error)
    if isinstance(env.result, msgspec.UnsetType):
        return Malformed(line, "a response with neither result nor error", env.id)
    return Response(env.id, result=env.result)


# Strings (escapes included) and brackets: enough to find a line's top-level keys without
# recursion, however deep its values are nested.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_KEY_VALUE = re.compile(rb'\s*:\s*(-?\d{1,18}(?![\d.eE])|"[^"\\]*(?:\\.[^"\\]*)*")')


def _malformed(line: bytes, reason: str) -> Malformed:
    """A line that did not decode, with the ``id`` and ``method`` of its top level if it
    is an object that shows them (a linear scan: this is the error path only)."""
    if line.lstrip()[:1] != b"{":
        return Malformed(line, reason)
    found: dict[bytes, RequestId] = {}
    depth = 0
    for match in _TOKEN.finditer(line):
        token = match.group()
        if token in (b"{", b"["):
            depth += 1
        elif token in (b"}", b"]"):
            depth -= 1
        elif depth == 1 and token in (b'"id"', b'"method"'):
            value = _KEY_VALUE.match(line, match.end())
            if value is not None:
                found.setdefault(token, _scalar(value.group(1)))
    method = found.get(b'"method"')
    return Malformed(line, reason, found.get(b'"id"'), method if isinstance(method, str) else None)


def _scalar(value: bytes) -> RequestId:
    if value.startswith(b'"'):
        try:
            return msgspec.json.decode(value, type=str)
        except msgspec.DecodeError:
            return value.decode("utf-8", "replace")
    return int(value)


class IdAllocator:
    """Our request ids: integers from 1, one counter per connection (ours and the agent's
    are separate spaces, §1)."""

    def __init__(self, start: int = 1) -> None:
        self._next = itertools.count(start)

    def __call__(self) -> int:
        return next(self._next)
