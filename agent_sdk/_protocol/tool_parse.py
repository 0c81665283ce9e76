"""The ``tool_call`` payload of a tool-call event, parsed on first access (docs/protocol.md
§3.4): its kind, typed arguments, outcome and typed result, and the sibling timing keys."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import msgspec

from ..tools import (
    DeleteArgs,
    DeleteSuccess,
    EditArgs,
    EditSuccess,
    FunctionArgs,
    GlobArgs,
    GlobSuccess,
    GrepArgs,
    GrepSuccess,
    LsArgs,
    LsSuccess,
    McpArgs,
    McpSuccess,
    ReadArgs,
    ReadSuccess,
    Rejection,
    ShellArgs,
    ShellSuccess,
    ToolArgs,
    ToolFailure,
    ToolResult,
    UpdateTodosArgs,
    UpdateTodosSuccess,
    WriteArgs,
    WriteSuccess,
    _Payload,
)
from .decode import decode_with_decimals

__all__ = ["ParsedToolCall", "parse_tool_call"]

_KINDS: dict[str, tuple[type[_Payload], type[_Payload] | None]] = {
    "readToolCall": (ReadArgs, ReadSuccess),
    "writeToolCall": (WriteArgs, WriteSuccess),
    "editToolCall": (EditArgs, EditSuccess),
    "shellToolCall": (ShellArgs, ShellSuccess),
    "grepToolCall": (GrepArgs, GrepSuccess),
    "globToolCall": (GlobArgs, GlobSuccess),
    "lsToolCall": (LsArgs, LsSuccess),
    "deleteToolCall": (DeleteArgs, DeleteSuccess),
    "updateTodosToolCall": (UpdateTodosArgs, UpdateTodosSuccess),
    "mcpToolCall": (McpArgs, McpSuccess),
    "function": (FunctionArgs, None),
}
_OUTCOMES: dict[str, type[_Payload]] = {"rejected": Rejection, "error": ToolFailure}


class _KindWire(msgspec.Struct):
    # msgspec cannot put Raw in a union; an empty Raw means "no args".
    args: msgspec.Raw = msgspec.Raw()
    result: dict[str, msgspec.Raw] | None = None


class ParsedToolCall(NamedTuple):
    kind: str
    args: ToolArgs | None
    outcome: str | None
    result: ToolResult | None
    tool_call_id: str | None
    started_at_ms: int | None
    completed_at_ms: int | None


@functools.cache
def _decoder(tp: Any) -> msgspec.json.Decoder[Any]:
    # Built on first use, one per type: keeps import cheap and decoding fast.
    return msgspec.json.Decoder(tp)


def _decode_or_dict(raw: msgspec.Raw, tp: Any) -> Any:
    """Decode ``raw`` as ``tp``; if it does not fit (a newer CLI), keep it as a plain value."""
    try:
        return _decoder(tp).decode(raw)
    except (msgspec.ValidationError, RecursionError):
        return _plain(raw)


def _plain(raw: msgspec.Raw) -> Any:
    """``raw`` as plain Python values, whatever it holds: numbers msgspec cannot hold
    become ``Decimal``, and a value nested too deep to decode is ``None`` (the payload
    is read lazily, from a property: it must never raise; docs/protocol.md §3.4)."""
    try:
        return _decoder(Any).decode(raw)
    except msgspec.ValidationError:  # a number out of range
        try:
            return decode_with_decimals(bytes(raw))
        except (ValueError, RecursionError):
            return None
    except RecursionError:
        return None


def _millis(raw: msgspec.Raw | None) -> int | None:
    # The CLI writes these as strings of digits ("1785515450012"); an int is taken too.
    value: Any = None if raw is None else _plain(raw)
    if type(value) not in (int, str):
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _string(raw: msgspec.Raw | None) -> str | None:
    value = None if raw is None else _plain(raw)
    return value if isinstance(value, str) else None


def parse_tool_call(raw: msgspec.Raw) -> ParsedToolCall:
    """Split a wire ``tool_call`` object into kind, typed args and typed outcome."""
    tool_call = _decode_or_dict(raw, dict[str, msgspec.Raw])
    if not isinstance(tool_call, dict):
        return ParsedToolCall("", None, None, None, None, None, None)
    kind = next((k for k in tool_call if k.endswith("ToolCall") or k == "function"), "")
    args: ToolArgs | None = None
    outcome: str | None = None
    result: ToolResult | None = None
    if kind:
        args_type, success_type = _KINDS.get(kind, (None, None))
        body = _decode_or_dict(tool_call[kind], _KindWire)
        if isinstance(body, _KindWire):
            if body.args:
                args = _decode_or_dict(body.args, args_type or dict[str, Any])
            elif kind == "function":
                # `function` carries its arguments directly: {"name": ..., "arguments": ...},
                # in `started` and (beside `result`) in `completed`.
                args = _decode_or_dict(tool_call[kind], FunctionArgs)
            if body.result is not None:
                outcome, result = _parse_outcome(body.result, success_type)
    return ParsedToolCall(
        kind=kind,
        args=args,
        outcome=outcome,
        result=result,
        tool_call_id=_string(tool_call.get("toolCallId")),
        started_at_ms=_millis(tool_call.get("startedAtMs")),
        completed_at_ms=_millis(tool_call.get("completedAtMs")),
    )


def _parse_outcome(
    result: dict[str, msgspec.Raw], success_type: type[_Payload] | None
) -> tuple[str, ToolResult]:
    if "success" in result:
        return "success", _decode_or_dict(result["success"], success_type or dict[str, Any])
    for key, payload_type in _OUTCOMES.items():
        if key in result:
            return key, _decode_or_dict(result[key], payload_type)
    # An outcome this SDK does not know (`timeout`, `permissionDenied`, ...): its payload is
    # the object-valued key; scalar siblings such as `isBackground` are not outcomes.
    for key, raw in result.items():
        value = _plain(raw)
        if isinstance(value, dict):
            return key, value
    key = next(iter(result), "")
    return key, {"value": _plain(result[key])} if key else {}
