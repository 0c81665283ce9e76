"""Typed shapes of the ACP messages the contract records (docs/acp.md §3, §4).

Only what is recorded is modelled; what the contract marks **unknown** or never seen
(``config_option_update``, ``usage_update``, the notification-style ``cursor/*``
methods) is not. Field names are the wire's camelCase (``rename="camel"``); unknown
fields are ignored, and an update of an unknown kind decodes to :class:`UnknownUpdate`
(§3.9: "unknown kinds and fields must pass through"). Optional fields default to
``None``, which an encoder leaves out (``omit_defaults``). The agent→client requests
(permission, ``cursor/*``) are in ``_requests``.
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = [
    "AgentCapabilities",
    "AgentMessageChunk",
    "AgentThoughtChunk",
    "AuthMethod",
    "AvailableCommand",
    "AvailableCommandsUpdate",
    "ClientCapabilities",
    "ConfigOption",
    "ConfigOptionValue",
    "ContentBlock",
    "CurrentModeUpdate",
    "FsCapabilities",
    "Implementation",
    "InitializeParams",
    "InitializeResult",
    "LoadSessionParams",
    "LoadSessionResult",
    "ModelInfo",
    "NewSessionParams",
    "NewSessionResult",
    "Plan",
    "PlanEntry",
    "PromptParams",
    "PromptResult",
    "SessionInfoUpdate",
    "SessionMode",
    "SessionModeState",
    "SessionModelState",
    "SessionNotification",
    "SessionUpdate",
    "ToolCall",
    "ToolCallUpdate",
    "UnknownUpdate",
    "UserMessageChunk",
    "decode_update",
]


class _Wire(msgspec.Struct, rename="camel", omit_defaults=True, kw_only=True):
    """Base of every message: camelCase on the wire, optional fields left out."""


# --- initialize (§3.1) -----------------------------------------------------------------
class FsCapabilities(_Wire, omit_defaults=False):
    """``clientCapabilities.fs``: advertise both false (§3.12)."""

    read_text_file: bool = False
    write_text_file: bool = False


class ClientCapabilities(_Wire, omit_defaults=False):
    """What the client offers; ``fs``/``terminal`` false, so Cursor does its own file and
    shell work in ``cwd`` (§3.12). ``_meta`` (the model-picker flag, §3.8) is not sent."""

    fs: FsCapabilities = msgspec.field(default_factory=FsCapabilities)
    terminal: bool = False


class Implementation(_Wire):
    """``clientInfo``: name and version."""

    name: str
    version: str


class InitializeParams(_Wire, omit_defaults=False):
    """``initialize`` params (§3.1); every field is sent, defaults included."""

    protocol_version: int = 1
    client_capabilities: ClientCapabilities = msgspec.field(default_factory=ClientCapabilities)
    client_info: Implementation = msgspec.field(
        default_factory=lambda: Implementation(name="agent_sdk", version="0")
    )


class AuthMethod(_Wire):
    """One ``authMethods`` entry: Cursor has only ``cursor_login`` (§3.1)."""

    id: str
    name: str = ""
    description: str | None = None


class AgentCapabilities(_Wire):
    """``agentCapabilities`` as seen; ``sessionCapabilities.list`` gates ``session/list``
    (§3.5), absent on 2026.03 builds."""

    load_session: bool = False
    mcp_capabilities: dict[str, Any] | None = None
    prompt_capabilities: dict[str, Any] | None = None
    session_capabilities: dict[str, Any] | None = None


class InitializeResult(_Wire):
    """``initialize`` result: ``protocolVersion`` is always 1 (§3.1)."""

    protocol_version: int
    agent_capabilities: AgentCapabilities = msgspec.field(default_factory=AgentCapabilities)
    auth_methods: list[AuthMethod] = msgspec.field(default_factory=list)


# --- session/new, session/load (§3.3, §3.4) -------------------------------------------------
class NewSessionParams(_Wire):
    """``session/new``: ``cwd`` absolute and ``mcpServers`` (may be ``[]``) both required
    (§3.3), so ``mcp_servers`` is always sent."""

    cwd: str
    # No default: omit_defaults would leave out an empty list, and a missing one is
    # rejected (§3.3).
    mcp_servers: list[Any]


class LoadSessionParams(_Wire):
    """``session/load``: all three required (§3.4); pass the session's stored cwd."""

    session_id: str
    cwd: str
    mcp_servers: list[Any]  # required, even empty (§3.4)


class SessionMode(_Wire):
    """One of ``agent``, ``plan``, ``ask`` (§3.3)."""

    id: str
    name: str = ""
    description: str | None = None


class SessionModeState(_Wire):
    """``modes``: the current and the available modes."""

    current_mode_id: str
    available_modes: list[SessionMode] = msgspec.field(default_factory=list)


class ModelInfo(_Wire):
    """One ``availableModels`` entry (the old unstable ACP model API, §3.3, §3.8)."""

    model_id: str
    name: str = ""
    description: str | None = None


class SessionModelState(_Wire):
    """``models``: ids in one of two disjoint spaces (§3.8)."""

    current_model_id: str
    available_models: list[ModelInfo] = msgspec.field(default_factory=list)


class ConfigOptionValue(_Wire):
    """One choice of a select config option."""

    value: str
    name: str = ""
    description: str | None = None


class ConfigOption(_Wire):
    """A ``configOptions`` entry: Cursor sends selects ``mode`` and ``model`` (§3.3)."""

    id: str
    name: str = ""
    description: str | None = None
    category: str | None = None
    type: str = "select"
    current_value: Any = None
    options: list[ConfigOptionValue] = msgspec.field(default_factory=list)


class NewSessionResult(_Wire):
    """``session/new`` result (§3.3)."""

    session_id: str
    modes: SessionModeState | None = None
    models: SessionModelState | None = None
    config_options: list[ConfigOption] | None = None


class LoadSessionResult(_Wire):
    """``session/load`` result, without ``sessionId``; it marks the end of the replay (§3.4)."""

    modes: SessionModeState | None = None
    models: SessionModelState | None = None
    config_options: list[ConfigOption] | None = None


# --- session/prompt (§3.6) -------------------------------------------------------------------
class ContentBlock(_Wire):
    """A content block: ``text``, ``image {data, mimeType}``, ``resource_link {uri}``...
    One tolerant shape: the fields of the kinds seen, all optional but ``type``."""

    type: str
    text: str | None = None
    data: str | None = None
    mime_type: str | None = None
    uri: str | None = None
    name: str | None = None
    resource: Any = None


class PromptParams(_Wire):
    """``session/prompt`` params."""

    session_id: str
    prompt: list[ContentBlock]


class PromptResult(_Wire):
    """``session/prompt`` result: **only** the stop reason (§3.6). Seen: ``end_turn``,
    ``cancelled``; ``max_tokens``, ``max_turn_requests``, ``refusal`` must still decode,
    so any string does."""

    stop_reason: str


# --- session/update (§3.9, §3.10) -------------------------------------------------------------
class _Update(_Wire, tag_field="sessionUpdate"):
    """Base of the update kinds; the tag is the wire's ``sessionUpdate``."""


class AgentMessageChunk(_Update, tag="agent_message_chunk"):
    """A piece of the reply; join the texts with no separator (§3.9)."""

    content: ContentBlock
    message_id: str | None = None


class AgentThoughtChunk(_Update, tag="agent_thought_chunk"):
    """A piece of the model's thinking, before the message (§3.9)."""

    content: ContentBlock
    message_id: str | None = None


class UserMessageChunk(_Update, tag="user_message_chunk"):
    """The user's words: seen only in a ``session/load`` replay (§3.4, §3.9)."""

    content: ContentBlock
    message_id: str | None = None


class ToolCall(_Update, tag="tool_call"):
    """A tool call starts (§3.10). Upsert by ``tool_call_id``: a build sent two with the same
    id. The id is opaque and may hold a ``\\n``."""

    tool_call_id: str
    title: str = ""
    kind: str | None = None
    status: str | None = None
    content: list[Any] | None = None
    locations: list[Any] | None = None
    raw_input: Any = None
    raw_output: Any = None


class ToolCallUpdate(_Update, tag="tool_call_update"):
    """Only the changed fields of a tool call: merge, never clear (§3.10). ``failed`` is
    never used: rejected tools end ``completed``."""

    tool_call_id: str
    title: str | None = None
    kind: str | None = None
    status: str | None = None
    content: list[Any] | None = None
    locations: list[Any] | None = None
    raw_input: Any = None
    raw_output: Any = None


class PlanEntry(_Wire):
    """One plan entry: priority ``high``/``medium``/``low``, status
    ``pending``/``in_progress``/``completed``."""

    content: str
    priority: str | None = None
    status: str | None = None


class Plan(_Update, tag="plan"):
    """The whole plan: each one replaces the last (§3.9)."""

    entries: list[PlanEntry] = msgspec.field(default_factory=list)


class AvailableCommand(_Wire):
    """A slash command (builtins and the user's skills, §3.9)."""

    name: str
    description: str = ""
    input: Any = None


class AvailableCommandsUpdate(_Update, tag="available_commands_update"):
    """The command list; arrives unsolicited after ``session/new`` (§2 step 3)."""

    available_commands: list[AvailableCommand] = msgspec.field(default_factory=list)


class CurrentModeUpdate(_Update, tag="current_mode_update"):
    """The mode changed (after ``set_mode``/``set_config_option``, §3.8)."""

    current_mode_id: str


class SessionInfoUpdate(_Update, tag="session_info_update"):
    """The auto-title, ~1 s into the first turn (§3.9)."""

    title: str | None = None
    updated_at: str | None = None


class UnknownUpdate(msgspec.Struct, frozen=True):
    """An update of a kind not modelled here, or one that did not fit its shape: kept as
    decoded JSON, never an error (§3.9)."""

    kind: str
    data: Any


SessionUpdate = (
    AgentMessageChunk
    | AgentThoughtChunk
    | UserMessageChunk
    | ToolCall
    | ToolCallUpdate
    | Plan
    | AvailableCommandsUpdate
    | CurrentModeUpdate
    | SessionInfoUpdate
    | UnknownUpdate
)

_UPDATE_TYPES: dict[str, type[_Update]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (
        AgentMessageChunk,
        AgentThoughtChunk,
        UserMessageChunk,
        ToolCall,
        ToolCallUpdate,
        Plan,
        AvailableCommandsUpdate,
        CurrentModeUpdate,
        SessionInfoUpdate,
    )
}


class SessionNotification(_Wire):
    """``session/update`` params; ``update`` is decoded by :func:`decode_update`."""

    session_id: str
    update: msgspec.Raw


class _Kind(msgspec.Struct):
    sessionUpdate: str = ""  # noqa: N815 (the wire's name)


def decode_update(raw: bytes | msgspec.Raw) -> SessionUpdate:
    """An update as its typed struct, or :class:`UnknownUpdate` (never raises for JSON)."""
    data = bytes(raw)
    try:
        kind = msgspec.json.decode(data, type=_Kind).sessionUpdate
    except msgspec.DecodeError:
        return UnknownUpdate("", _loose(data))
    cls = _UPDATE_TYPES.get(kind)
    if cls is not None:
        try:
            return msgspec.json.decode(data, type=cls)  # type: ignore[return-value]
        except msgspec.DecodeError:
            pass  # a recorded kind with an unrecorded shape: pass it through
    return UnknownUpdate(kind, _loose(data))


def _loose(data: bytes) -> Any:
    try:
        return msgspec.json.decode(data)
    except msgspec.DecodeError:
        return data.decode("utf-8", "replace")
