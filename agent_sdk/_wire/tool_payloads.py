"""The ``tool_call`` payload of a tool-call event, parsed on first access (docs/protocol.md
§3.4): its kind, typed arguments, outcome, the outcome's status and typed result, the
sibling keys (timing, and those inside the kind object and beside the outcome)."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import msgspec

from ..tool_results import _Payload
from ..tools import (
    CreatePlanArgs,
    CreatePlanSuccess,
    DeleteArgs,
    DeleteSuccess,
    EditArgs,
    EditSuccess,
    FunctionArgs,
    GetMcpToolsArgs,
    GetMcpToolsSuccess,
    GlobArgs,
    GlobSuccess,
    GrepArgs,
    GrepSuccess,
    LsArgs,
    LsSuccess,
    McpArgs,
    McpSuccess,
    PermissionDenied,
    ReadArgs,
    ReadSuccess,
    Rejection,
    ShellArgs,
    ShellSuccess,
    TaskArgs,
    TaskSuccess,
    ToolArgs,
    ToolFailure,
    ToolResult,
    UpdateTodosArgs,
    UpdateTodosSuccess,
    WriteArgs,
    WritePermissionDenied,
    WriteSuccess,
)
from .json_repair import decode_with_decimals, repair_line
from .tool_kind import kind_in
from .tool_status import ToolCallStatus, status_of

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
    "getMcpToolsToolCall": (GetMcpToolsArgs, GetMcpToolsSuccess),
    "createPlanToolCall": (CreatePlanArgs, CreatePlanSuccess),
    "taskToolCall": (TaskArgs, TaskSuccess),
    "function": (FunctionArgs, None),
}
_OUTCOMES: dict[str, type[_Payload]] = {
    "rejected": Rejection,
    "permissionDenied": PermissionDenied,
    "writePermissionDenied": WritePermissionDenied,
    "error": ToolFailure,
}
# Keys of a `function` object that are its arguments (it has no `args`).
_FUNCTION_KEYS = frozenset(("args", "result", "name", "arguments"))
_KIND_KEYS = frozenset(("args", "result"))


class ParsedToolCall(NamedTuple):
    kind: str
    args: ToolArgs | None
    outcome: str | None
    result: ToolResult | None
    tool_call_id: str | None
    started_at_ms: int | None
    completed_at_ms: int | None
    status: ToolCallStatus | None
    """``None`` for a call with no ``result`` object (a ``started`` event)."""
    extras: dict[str, Any]
    """Keys of the kind object beside ``args`` and ``result``, as plain values."""
    result_extras: dict[str, Any]
    """Keys of the ``result`` object beside the outcome, as plain values."""
    description: str | None
    """The agent's words for the call: ``description`` beside ``args`` or among them."""
    hook_contexts: list[Any]
    """``hookAdditionalContexts`` beside the kind, as plain values (docs/protocol.md §6.4)."""


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
    except (msgspec.DecodeError, UnicodeDecodeError):
        # A Raw is not checked when its line is decoded: invalid UTF-8 (or a lone
        # surrogate escape) inside it shows only now, and is repaired as a line is.
        repaired = _repaired(raw)
        return None if repaired is None else _decode_or_dict(repaired, tp)


def _repaired(raw: msgspec.Raw) -> msgspec.Raw | None:
    data = bytes(raw)
    repaired = repair_line(data)
    return None if repaired == data else msgspec.Raw(repaired)


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
    except (msgspec.DecodeError, UnicodeDecodeError):  # see _decode_or_dict
        repaired = _repaired(raw)
        return None if repaired is None else _plain(repaired)


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


def _list(raw: msgspec.Raw | None) -> list[Any]:
    value = None if raw is None else _plain(raw)
    return value if isinstance(value, list) else []


def parse_tool_call(raw: msgspec.Raw) -> ParsedToolCall:
    """Split a wire ``tool_call`` object into kind, typed args and typed outcome."""
    tool_call = _decode_or_dict(raw, dict[str, msgspec.Raw])
    if not isinstance(tool_call, dict):
        return ParsedToolCall("", None, None, None, None, None, None, None, {}, {}, None, [])
    kind = kind_in(tool_call)
    args: ToolArgs | None = None
    outcome: str | None = None
    result: ToolResult | None = None
    status: ToolCallStatus | None = None
    extras: dict[str, Any] = {}
    result_extras: dict[str, Any] = {}
    if kind:
        args_type, success_type = _KINDS.get(kind, (None, None))
        body = _decode_or_dict(tool_call[kind], dict[str, msgspec.Raw])
        if isinstance(body, dict):
            if "args" in body:
                args = _decode_or_dict(body["args"], args_type or dict[str, Any])
            elif kind == "function":
                # `function` carries its arguments directly: {"name": ..., "arguments": ...},
                # in `started` and (beside `result`) in `completed`.
                args = _decode_or_dict(tool_call[kind], FunctionArgs)
            known = _FUNCTION_KEYS if kind == "function" else _KIND_KEYS
            extras = {key: _plain(value) for key, value in body.items() if key not in known}
            if "result" in body:
                outcome, result, result_extras = _parse_outcome(body["result"], success_type)
                status = status_of(outcome)
    return ParsedToolCall(
        kind=kind,
        args=args,
        outcome=outcome,
        result=result,
        tool_call_id=_string(tool_call.get("toolCallId")),
        started_at_ms=_millis(tool_call.get("startedAtMs")),
        completed_at_ms=_millis(tool_call.get("completedAtMs")),
        status=status,
        extras=extras,
        result_extras=result_extras,
        description=_description(extras, args),
        hook_contexts=_list(tool_call.get("hookAdditionalContexts")),
    )


def _description(extras: dict[str, Any], args: ToolArgs | None) -> str | None:
    value = extras.get("description")
    if value is None:
        value = getattr(args, "description", None)
        if isinstance(args, dict):
            value = args.get("description")
    return value if isinstance(value, str) else None


def _parse_outcome(
    raw: msgspec.Raw, success_type: type[_Payload] | None
) -> tuple[str | None, ToolResult | None, dict[str, Any]]:
    """The outcome key, its typed payload, and the other keys of ``result`` (plain)."""
    result = _decode_or_dict(raw, dict[str, msgspec.Raw])
    if not isinstance(result, dict) or not result:  # no outcome to tell
        return None, None, {}
    key = _outcome_key(result)
    if key == "success":
        payload = _decode_or_dict(result[key], success_type or dict[str, Any])
    elif key in _OUTCOMES:
        payload = _decode_or_dict(result[key], _OUTCOMES[key])
    else:
        value = _plain(result[key])
        payload = value if isinstance(value, dict) else {"value": value}
    extras = {k: _plain(v) for k, v in result.items() if k != key}
    return key, payload, extras


def _outcome_key(result: dict[str, msgspec.Raw]) -> str:
    if "success" in result:
        return "success"
    for key in _OUTCOMES:
        if key in result:
            return key
    # An outcome this SDK does not know (`timeout`, `spawnError`, ...): its payload is the
    # object-valued key; scalar siblings such as `isBackground` are not outcomes.
    for key, raw in result.items():
        if isinstance(_plain(raw), dict):
            return key
    return next(iter(result))
