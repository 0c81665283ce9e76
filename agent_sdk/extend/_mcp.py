"""An MCP server of tools, without I/O: a line in, its answer out (docs/extend.md,
"The MCP server"). It speaks what tools need of MCP (2024-11-05 to 2025-11-25):

- ``initialize``: answered with the protocol version the client asks for when it is one
  of :data:`PROTOCOL_VERSIONS`, else with the latest; ``capabilities.tools`` and
  ``serverInfo``. A second ``initialize`` is answered too. Other requests are answered
  before it as well (a client SHOULD NOT send them; refusing them would help nobody);
- ``ping``, ``tools/list`` (one page: a cursor is an invalid one), ``tools/call``;
- ``notifications/initialized``, and ``notifications/cancelled``, which stops a call
  under way: its answer is never sent (MCP, "Cancellation");
- any other request: ``-32601``; any other notification: ignored; an answer (we never
  ask anything): ignored.

Errors use JSON-RPC's codes: ``-32700`` for a line that is not JSON, ``-32600`` for JSON
that is no request (a batch too: MCP 2025-06-18 removed them), ``-32602`` for bad
params and an unknown tool (MCP 2025-11-25, "Error Handling"). Arguments that do not fit a
tool are not a protocol error but a tool error the agent sees (SEP-1303, same section).
Every error text the server writes goes through ``redact``.

The server is transport-agnostic: the stdio runner (``_stdio.py``) feeds it lines from
stdin; the host of a run (``_host.py``) feeds it lines from its socket.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import anyio
import msgspec

from .._version import __version__
from ._calls import Call, failure, prepare
from ._mcp_messages import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    CallParams,
    CallResult,
    CancelledParams,
    Envelope,
    InitializeParams,
    ListParams,
    ToolInfo,
    decode,
    encode_error,
    encode_result,
    read_envelope,
)
from ._tool import Tool, tools_by_name

__all__ = ["PROTOCOL_VERSIONS", "Admit", "McpServer", "Observe", "Pending", "unchanged"]

PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
"""The MCP versions the server speaks, oldest first. Cursor's CLI connected with
2025-11-25 (docs/acp.md §5.2 item 2)."""
_STRUCTURED = PROTOCOL_VERSIONS.index("2025-06-18")  # outputSchema, structuredContent
_NO_PARAMS = msgspec.Raw(b"{}")

RequestId = int | str
Observe = Callable[[str, msgspec.Raw | msgspec.UnsetType, CallResult], None]
"""Told of each call answered: the tool's name, the arguments as sent, the result (the
host of a run records them: docs/extend.md, "Which calls were ours")."""
Admit = Callable[[str], str | None]
"""Asked before a call of the tool named runs: ``None`` runs it; a text refuses it, as the
tool error the agent reads (a run's budget: docs/budgets.md, "Your own tools")."""


def unchanged(text: str) -> str:
    """No redaction: the text as it is."""
    return text


class Pending:
    """A ``tools/call`` under way: await it for its answer line, ``None`` when the client
    cancelled it first. Made by :meth:`McpServer.receive`, which registered it already,
    so a cancellation that arrives next finds it."""

    def __init__(
        self, server: McpServer, request_id: RequestId, call: Call, params: CallParams
    ) -> None:
        self.request_id = request_id
        self._server = server
        self._call = call
        self._params = params
        self.scope = anyio.CancelScope()

    async def __call__(self) -> bytes | None:
        result: CallResult | None = None
        try:
            with self.scope:
                result = await self._call()
        finally:
            if self._server._calls.get(self.request_id) is self:
                del self._server._calls[self.request_id]
        if result is None:
            return None  # cancelled by the client: no answer (MCP, "Cancellation")
        self._server._observed(self._params, result)
        return encode_result(self.request_id, self._server._shaped(result))


class McpServer:
    """The tools, served over MCP one message at a time (see the module's docstring).

    Args:
        tools: the tools (a plain function is made a tool as ``@tool`` would).
        redact: applied to every error text the server writes (a tool's exception, an
            argument msgspec refused, a protocol error): the run's redaction.
        name: ``serverInfo.name``.
        version: ``serverInfo.version``.
        observe: told of each call answered with a result (not of protocol errors, nor
            of calls the client cancelled).
        admit: asked before each call of a known tool runs (its arguments not checked
            yet); a call it refuses is answered with its text as a tool error.
        escaped: gets what a tool raised that is no ``Exception`` (``_guard.py``).

    Raises:
        AgentConfigError: two tools have one name, or a function cannot be a tool.
    """

    def __init__(
        self,
        tools: Iterable[Tool[..., Any] | Callable[..., Any]],
        *,
        redact: Callable[[str], str] = unchanged,
        name: str = "agent_sdk",
        version: str = __version__,
        observe: Observe | None = None,
        admit: Admit | None = None,
        escaped: list[BaseException] | None = None,
    ) -> None:
        self._tools = tools_by_name(tools)
        self._observe = observe
        self._admit = admit
        self._escaped = escaped
        self._redact = redact
        self._info = {"name": name, "version": version}
        self._calls: dict[RequestId, Pending] = {}
        self.protocol_version: str | None = None
        """The version ``initialize`` agreed on (``None`` before it)."""
        self.initialized = False
        """Whether the client said ``notifications/initialized``."""
        listed = [
            ToolInfo(t.name, t.description, t.input_schema, t.output_schema)
            for t in self._tools.values()
        ]
        self._listed = {"tools": listed}
        self._listed_before_structured = {
            "tools": [msgspec.structs.replace(info, output_schema=None) for info in listed]
        }

    def receive(self, line: bytes) -> bytes | Pending | None:
        """Read one message (a line, with or without its ``\\n``): its answer line, a
        :class:`Pending` call to await, or ``None`` (a notification, an answer)."""
        try:
            top = read_envelope(line)
        except msgspec.DecodeError as exc:
            return self._error(None, PARSE_ERROR, f"Parse error: {exc}")
        if isinstance(top, list):
            return self._error(
                None,
                INVALID_REQUEST,
                "Invalid Request: batches are not supported, one message a line",
            )
        if top is None:
            return self._error(None, INVALID_REQUEST, "Invalid Request: not a JSON object")
        return self._message(top)

    async def handle(self, line: bytes) -> bytes | None:
        """:meth:`receive`, a pending call awaited: the answer line, or ``None``."""
        answer = self.receive(line)
        return await answer() if isinstance(answer, Pending) else answer

    def _message(self, top: Envelope) -> bytes | Pending | None:
        request_id = top.id
        known_id = request_id if _is_id(request_id) else None
        if top.method is msgspec.UNSET:
            if known_id is not None and (
                top.result is not msgspec.UNSET or top.error is not msgspec.UNSET
            ):
                return None  # an answer: we ask nothing, so nobody waits for it
            return self._error(known_id, INVALID_REQUEST, "Invalid Request: no method")
        if top.jsonrpc != "2.0":
            return self._error(known_id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" is not "2.0"')
        if not isinstance(top.method, str):
            return self._error(
                known_id, INVALID_REQUEST, "Invalid Request: the method is not a string"
            )
        params = _NO_PARAMS if top.params is msgspec.UNSET else top.params
        if request_id is msgspec.UNSET:
            self._notification(top.method, params)
            return None
        if known_id is None:
            return self._error(
                None, INVALID_REQUEST, "Invalid Request: an id is a string or an integer"
            )
        return self._request(known_id, top.method, params)

    def _request(self, request_id: RequestId, method: str, params: msgspec.Raw) -> bytes | Pending:
        try:
            if method == "tools/call":
                return self._call(request_id, decode(params, CallParams))
            if method == "tools/list":
                if decode(params, ListParams).cursor is not None:
                    return self._error(request_id, INVALID_PARAMS, "Invalid params: unknown cursor")
                return encode_result(request_id, self._tool_list())
            if method == "ping":
                return encode_result(request_id, {})
            if method == "initialize":
                return encode_result(request_id, self._initialize(decode(params, InitializeParams)))
        except msgspec.DecodeError as exc:
            return self._error(request_id, INVALID_PARAMS, f"Invalid params: {exc}")
        return self._error(request_id, METHOD_NOT_FOUND, f"Method not found: {method}")

    def _notification(self, method: str, params: msgspec.Raw) -> None:
        if method == "notifications/initialized":
            self.initialized = True
        elif method == "notifications/cancelled":
            try:
                cancelled = decode(params, CancelledParams)
            except msgspec.DecodeError:
                return  # MCP: a malformed cancellation is ignored
            pending = self._calls.get(cancelled.request_id)
            if pending is not None:
                pending.scope.cancel()

    def _initialize(self, params: InitializeParams) -> dict[str, Any]:
        asked = params.protocol_version
        self.protocol_version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[-1]
        return {
            "protocolVersion": self.protocol_version,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": self._info,
        }

    def _tool_list(self) -> dict[str, list[ToolInfo]]:
        return self._listed if self._structured() else self._listed_before_structured

    def _call(self, request_id: RequestId, params: CallParams) -> bytes | Pending:
        found = self._tools.get(params.name)
        if found is None:
            return self._error(request_id, INVALID_PARAMS, f"Unknown tool: {params.name}")
        if params.arguments is not msgspec.UNSET and bytes(params.arguments)[:1] not in (
            b"{",
            b"n",
        ):
            return self._error(
                request_id, INVALID_PARAMS, "Invalid params: arguments not an object"
            )
        if request_id in self._calls:
            return self._error(
                request_id, INVALID_REQUEST, "Invalid Request: a call with this id is under way"
            )
        refusal = self._admit(params.name) if self._admit is not None else None
        prepared = (
            failure(self._redact(refusal))
            if refusal is not None
            else prepare(found, params.arguments, self._redact, self._escaped)
        )
        if isinstance(prepared, CallResult):
            self._observed(params, prepared)
            return encode_result(request_id, self._shaped(prepared))
        pending = self._calls[request_id] = Pending(self, request_id, prepared, params)
        return pending

    def _observed(self, params: CallParams, result: CallResult) -> None:
        if self._observe is not None:
            self._observe(params.name, params.arguments, result)

    def _structured(self) -> bool:
        version = self.protocol_version
        return version is None or PROTOCOL_VERSIONS.index(version) >= _STRUCTURED

    def _shaped(self, result: CallResult) -> CallResult:
        """The result as the agreed version has it (no ``structuredContent`` before
        2025-06-18)."""
        if self._structured() or result.structured_content is msgspec.UNSET:
            return result
        return msgspec.structs.replace(result, structured_content=msgspec.UNSET)

    def _error(self, request_id: RequestId | None, code: int, message: str) -> bytes:
        return encode_error(request_id, code, self._redact(message))


def _is_id(value: Any) -> bool:
    # MCP: a string or a number (we take integers); bool is an int to Python, not to JSON.
    return isinstance(value, (int, str)) and not isinstance(value, bool)
