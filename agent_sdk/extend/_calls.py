"""One call of a tool: the agent's arguments checked against the tool's struct, the
function run (a sync one in a daemon thread, an async one awaited), and what it returned or
raised made an MCP ``tools/call`` result (docs/extend.md, "What the agent gets back").

- a ``str`` is one text content, as it is;
- ``None`` is no content at all;
- any other value msgspec can encode is its JSON, as text; when it is a JSON object it is
  also the result's ``structuredContent`` (MCP 2025-06-18 on), and when the tool declares
  an ``outputSchema`` (an object return type) the value is checked against the return
  type first: a value that does not fit is a tool error, never a result that breaks the
  schema (MCP: "Servers MUST provide structured results that conform");
- an exception is a tool error (``isError: true``) whose text is the exception's type and
  message, redacted; so are arguments that do not fit (msgspec's words say where) and a
  value msgspec cannot encode. So is anything else the function raises (a cancellation
  another task's, a ``SystemExit``: ``_guard.py``), what is no ``Exception`` also kept for
  the run, which it ends; only the cancellation of the call itself goes on.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import msgspec

from ._guard import ends_the_run, isolated
from ._mcp_messages import CallResult, TextContent, decode
from ._signature import Signature
from ._threads import in_thread
from ._tool import Tool

__all__ = ["Call", "exception_text", "failure", "prepare", "result_of"]

Redact = Callable[[str], str]


def failure(text: str) -> CallResult:
    """A tool error the agent reads (``isError: true``)."""
    return CallResult([TextContent(text)], is_error=True)


def exception_text(exc: BaseException) -> str:
    """``ValueError: no issue 7``: the type and the message (the type alone if the message
    is empty, or if ``str()`` of it fails)."""
    kind = type(exc).__qualname__
    try:
        message = str(exc)
    except Exception:
        message = ""
    return f"{kind}: {message}" if message else kind


class Call:
    """A tools/call whose arguments fit: awaiting it runs the function, once."""

    def __init__(
        self,
        tool: Tool[..., Any],
        arguments: msgspec.Struct,
        redact: Redact,
        escaped: list[BaseException] | None = None,
    ) -> None:
        self._tool = tool
        self._arguments = arguments
        self._redact = redact
        self._escaped = escaped  # what ends the run besides the call (_guard.py)

    async def __call__(self) -> CallResult:
        """The result; a tool error if the function raised (raises only the call's own
        cancellation)."""
        signature: Signature = self._tool._signature
        args, kwargs = _split(signature, self._arguments)
        run = functools.partial(self._tool.function, *args, **kwargs)
        if not signature.is_async:
            # Abandoned on cancellation: a hung sync tool cannot hold up the end of the
            # server, nor the program's (a daemon thread, out of reach: _threads.py).
            run = functools.partial(in_thread, run)
        # In a task of its own: whatever it raises fails this call alone (_guard.py).
        value, error = await isolated(run)
        if error is not None:
            if self._escaped is not None and ends_the_run(error):
                self._escaped.append(error)
            return failure(self._redact(exception_text(error)))
        return result_of(signature, value, self._redact)


def prepare(
    tool: Tool[..., Any],
    arguments: msgspec.Raw | msgspec.UnsetType,
    redact: Redact,
    escaped: list[BaseException] | None = None,
) -> Call | CallResult:
    """The call, or the tool error the agent sees when its arguments do not fit the
    tool's parameters (left out or ``null`` arguments are no arguments). ``escaped``
    gets what the function raised that ends the run (``_guard.py``)."""
    signature: Signature = tool._signature
    data = b"{}" if arguments is msgspec.UNSET or bytes(arguments) == b"null" else arguments
    try:
        checked = decode(data, signature.arguments)
    except msgspec.DecodeError as exc:  # ValidationError included
        return failure(redact(f"Invalid arguments for tool {signature.name}: {exc}"))
    return Call(tool, checked, redact, escaped)


def _split(signature: Signature, arguments: msgspec.Struct) -> tuple[list[Any], dict[str, Any]]:
    """The function's positional and keyword arguments; a field left unset is left out,
    so that the function's own default applies."""
    kwargs = {
        name: value
        for name in arguments.__struct_fields__
        if (value := getattr(arguments, name)) is not msgspec.UNSET
    }
    args: list[Any] = []
    for name, default in signature.positional:
        args.append(kwargs.pop(name, default))
    return args, kwargs


def result_of(signature: Signature, value: Any, redact: Redact) -> CallResult:
    """What the function returned, as the agent gets it (see the module's docstring)."""
    if signature.output_schema is None:
        if isinstance(value, str):
            return CallResult([TextContent(value)])
        if value is None:
            return CallResult([])
    try:
        builtins = msgspec.to_builtins(value, str_keys=True)
    except Exception as exc:  # TypeError mostly; whatever the value's own code raises
        return failure(
            redact(
                f"tool {signature.name} returned a value msgspec cannot encode as JSON: "
                f"{exception_text(exc)}"
            )
        )
    if signature.output_schema is not None:
        try:
            msgspec.convert(builtins, signature.returns, str_keys=True)
        except msgspec.ValidationError as exc:
            return failure(
                redact(
                    f"tool {signature.name} returned a value that does not match its "
                    f"return type: {exc}"
                )
            )
    text = msgspec.json.encode(builtins).decode()
    if isinstance(builtins, dict):
        return CallResult([TextContent(text)], structured_content=builtins)
    return CallResult([TextContent(text)])
