"""The typed events of a run, one class per event kind of docs/protocol.md §3.

Each event exposes its wire ``type`` and ``subtype``; fields mirror the wire names.
Unknown fields are ignored, and an event type this SDK does not know arrives as an
:class:`UnknownEvent` that keeps the raw object: nothing the CLI prints is dropped.

Example::

    async for event in run("Add a test"):
        match event:
            case AssistantEvent():
                print(event.new_text, end="")
            case ToolCallStarted():
                print(f"\\n[{event.kind}]")
            case ResultEvent():
                print(f"\\n{event.usage}")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

import msgspec

from ._wire.event_base import _Event
from ._wire.interaction_events import (
    AskQuestionRequest,
    AskQuestionResponse,
    CreatePlanRequest,
    CreatePlanResponse,
    InteractionRequest,
    InteractionResponse,
    WebFetchRequest,
    WebFetchResponse,
    WebSearchRequest,
    WebSearchResponse,
)
from ._wire.system_events import SystemEvent, TaskNotification
from ._wire.tool_call_events import ToolCallCompleted, ToolCallStarted

if TYPE_CHECKING:
    pass

__all__ = [
    "AskQuestionRequest",
    "AskQuestionResponse",
    "AssistantEvent",
    "ConnectionEvent",
    "ContentBlock",
    "CreatePlanRequest",
    "CreatePlanResponse",
    "Event",
    "InteractionRequest",
    "InteractionResponse",
    "Message",
    "PartialAssistantEvent",
    "ResultEvent",
    "RetryEvent",
    "SystemEvent",
    "SystemInit",
    "TaskNotification",
    "TextLine",
    "ThinkingBlock",
    "ThinkingCompleted",
    "ThinkingDelta",
    "ToolCallCompleted",
    "ToolCallStarted",
    "UnknownEvent",
    "Usage",
    "UserEvent",
    "WebFetchRequest",
    "WebFetchResponse",
    "WebSearchRequest",
    "WebSearchResponse",
    "to_json",
]


class ContentBlock(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One item of ``message.content``; text blocks have ``type == "text"``."""

    type: str = "text"
    text: str = ""


class Message(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    role: str = ""
    content: tuple[ContentBlock, ...] = ()

    @property
    def text(self) -> str:
        """The text of all text blocks, joined with no separator (as the CLI does)."""
        content = self.content
        if len(content) == 1:  # nearly always: skip the join
            block = content[0]
            return block.text if block.type == "text" else ""
        return "".join(block.text for block in content if block.type == "text")


class Usage(msgspec.Struct, frozen=True, kw_only=True, gc=False, rename="camel"):
    """Token counts of a run (2026 CLIs; older ones send no usage).

    Attributes:
        input_tokens: the input tokens **not** read from the cache: cache reads are not in
            it (a resumed turn reported 74 here and 12,664 in ``cache_read_tokens``,
            docs/protocol.md §3.7). The whole input is ``input_tokens +
            cache_read_tokens`` (inferred: no source says how cache writes count).
        output_tokens: the tokens of the reply.
        cache_read_tokens: input tokens read from the cache, on top of ``input_tokens``.
        cache_write_tokens: input tokens written to the cache.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        """The tokens of two runs together (the turns of one output, a fleet's tasks)."""
        names = self.__struct_fields__
        return Usage(**{name: getattr(self, name) + getattr(other, name) for name in names})


# --- system -------------------------------------------------------------------------
class SystemInit(
    _Event,
    tag="system",
    frozen=True,
    rename={"api_key_source": "apiKeySource", "permission_mode": "permissionMode"},
):
    """First event of a stream: the session id, the model's display name and the cwd."""

    type: ClassVar[str] = "system"
    subtype: Literal["init"] = "init"
    api_key_source: str | None = None
    cwd: str | None = None
    model: str | None = None
    permission_mode: str | None = None
    tools: list[Any] | None = None
    mcp_servers: list[Any] | None = None


# --- messages -----------------------------------------------------------------------
class UserEvent(_Event, tag="user", frozen=True):
    """The prompt, echoed back."""

    type: ClassVar[str] = "user"
    subtype: ClassVar[None] = None
    message: Message = msgspec.field(default_factory=Message)

    @property
    def text(self) -> str:
        return self.message.text


class AssistantEvent(_Event, tag="assistant", frozen=True):
    """Assistant text.

    :attr:`new_text` is the text this event adds to the reply: appending it for every
    event shows the reply exactly once. ``text`` is what the event itself carries. In a run
    with ``stream_partial_output`` the events are :class:`PartialAssistantEvent`, some of
    which repeat earlier text (``is_flush``); without it, every event is new text.
    """

    type: ClassVar[str] = "assistant"
    subtype: ClassVar[None] = None
    message: Message = msgspec.field(default_factory=Message)
    model_call_id: str | None = None

    @property
    def text(self) -> str:
        return self.message.text

    @property
    def is_flush(self) -> bool:
        """Whether this event repeats text that earlier events streamed. Worked out by
        agent_sdk from the event's fields, never read from the wire; always ``False``
        without partial output, where every event is the only copy of its text."""
        return False

    @property
    def new_text(self) -> str:
        """The text this event adds to the reply (``""`` for a flush)."""
        return "" if self.is_flush else self.message.text


class PartialAssistantEvent(AssistantEvent, tag="assistant", frozen=True):
    """An assistant event of a run with ``stream_partial_output``.

    The CLI then sends three kinds (docs/protocol.md §3.3): a delta of new text
    (``timestamp_ms``, no ``model_call_id``), the flush of buffered text before a tool call
    (both), and the end-of-turn flush of the whole message (neither). The flushes repeat
    text the deltas carried: their ``is_flush`` is true and their ``new_text`` empty.
    """

    @property
    def is_flush(self) -> bool:
        return self.timestamp_ms is None or self.model_call_id is not None


# --- thinking -----------------------------------------------------------------------
class ThinkingDelta(_Event, tag="thinking", frozen=True):
    """A piece of the model's thinking (mostly seen with ``stream_partial_output``)."""

    type: ClassVar[str] = "thinking"
    subtype: str = "delta"
    text: str = ""


class ThinkingCompleted(_Event, tag="thinking", frozen=True):
    type: ClassVar[str] = "thinking"
    subtype: Literal["completed"] = "completed"


# --- connection ---------------------------------------------------------------------
class ConnectionEvent(_Event, tag="connection", frozen=True):
    """The CLI lost its connection (``reconnecting``) or got it back (``reconnected``)."""

    type: ClassVar[str] = "connection"
    subtype: str = ""
    attempt: int | None = None
    endpoint_url: str | None = None


class RetryEvent(_Event, tag="retry", frozen=True):
    """The CLI retries a request (``starting``)."""

    type: ClassVar[str] = "retry"
    subtype: str = ""
    attempt: int | None = None
    is_resume: bool | None = None


# --- result -------------------------------------------------------------------------
class ThinkingBlock(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One block of the model's reasoning, as a json-format result carries it with the
    CLI's hidden ``--show-thinking`` flag (docs/protocol.md §2)."""

    text: str = ""


class ResultEvent(_Event, tag="result", frozen=True):
    """The terminal event. ``result`` is the authoritative final text.

    ``thinking_blocks`` is the model's reasoning, sent only by a json-format run given the
    hidden ``--show-thinking`` flag (``AgentOptions(extra_args=["--show-thinking"])``);
    ``None`` otherwise.
    """

    type: ClassVar[str] = "result"
    subtype: str = "success"
    is_error: bool = False
    result: str = ""
    duration_ms: int | None = None
    duration_api_ms: int | None = None
    request_id: str | None = None
    usage: Usage | None = None
    thinking_blocks: list[ThinkingBlock] | None = None


# --- not from the stream-json wire ---------------------------------------------------
class UnknownEvent(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An event this SDK does not know (or one that did not fit its known shape).

    ``raw`` is the whole JSON object. ``error`` is ``None`` for a well-formed event of a
    type this SDK does not know, and otherwise says what did not fit: a known ``type``
    whose fields did not decode, a ``type`` that is missing or not a string (``type`` is
    then ``""``), numbers out of msgspec's range (``raw`` keeps them as
    :class:`decimal.Decimal`), or JSON nested too deep to decode (``raw`` is then empty,
    ``type`` and ``subtype`` are read from the start of the line, ``""`` if not there).
    """

    type: str
    subtype: str | None = None
    raw: dict[str, Any] = msgspec.field(default_factory=dict)
    error: str | None = None

    @property
    def session_id(self) -> str | None:
        value = self.raw.get("session_id")
        return value if isinstance(value, str) else None


class TextLine(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One line of output of a ``output_format="text"`` run (without its newline)."""

    type: ClassVar[str] = "text"
    subtype: ClassVar[None] = None
    text: str

    @property
    def session_id(self) -> None:
        return None


Event = (
    SystemInit
    | SystemEvent
    | TaskNotification
    | UserEvent
    | AssistantEvent
    | PartialAssistantEvent
    | ThinkingDelta
    | ThinkingCompleted
    | ToolCallStarted
    | ToolCallCompleted
    | ConnectionEvent
    | RetryEvent
    | InteractionRequest
    | InteractionResponse
    | ResultEvent
    | UnknownEvent
    | TextLine
)
"""Any event :func:`~agent_sdk.run` yields."""


def to_json(event: Event) -> bytes:
    """An event as one compact JSON object: its wire fields, ``"type"`` always, and for
    assistant events the ``"is_flush"`` and ``"new_text"`` agent_sdk works out.

    Example::

        async for event in run("Add a test"):
            sys.stdout.buffer.write(to_json(event) + b"\\n")
    """
    encoded = msgspec.json.encode(event)
    if not encoded.startswith(b'{"type":'):  # TextLine, whose type is a class variable
        head = b'{"type":' + msgspec.json.encode(event.type)
        encoded = head + (b"}" if encoded == b"{}" else b"," + encoded[1:])
    if isinstance(event, AssistantEvent):
        computed = b',"is_flush":true' if event.is_flush else b',"is_flush":false'
        encoded = (
            encoded[:-1] + computed + b',"new_text":' + msgspec.json.encode(event.new_text) + b"}"
        )
    return encoded
