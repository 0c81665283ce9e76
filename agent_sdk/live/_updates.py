"""The ``session/update`` kinds the contract records (docs/acp.md §3.9, §3.10).

Field names are the wire's, in snake_case (msgspec maps them to its camelCase); unknown
fields are ignored, and an update of an unknown kind (or of a known kind in an unrecorded
shape) decodes to :class:`UnknownUpdate` (§3.9: "unknown kinds and fields must pass
through"). ``config_option_update`` and ``usage_update`` were never seen from Cursor; they
are typed in the v1 schema's shape. The class names are ACP's, prefixed ``Acp`` where
agent_sdk has a class of that name already (``ToolCall``, ``Plan``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from ._jsonrpc import decode
from ._messages import ConfigOption, ContentBlock, _Wire

__all__ = [
    "AcpPlan",
    "AcpToolCall",
    "AcpToolCallUpdate",
    "AgentMessageChunk",
    "AgentThoughtChunk",
    "AvailableCommand",
    "AvailableCommandsUpdate",
    "ConfigOptionUpdate",
    "Cost",
    "CurrentModeUpdate",
    "PlanEntry",
    "SessionInfoUpdate",
    "SessionNotification",
    "SessionUpdate",
    "SubagentSpawned",
    "SubagentStateUpdate",
    "SubagentUpdate",
    "UnknownUpdate",
    "UsageUpdate",
    "UserMessageChunk",
    "decode_update",
]


# --- session/update (§3.9, §3.10) -------------------------------------------------------------
class _Update(_Wire, tag_field="sessionUpdate"):
    """Base of the update kinds; the tag is the wire's ``sessionUpdate``."""


class _Chunk(_Update):
    """The fields of the three chunk kinds (§3.9)."""

    content: ContentBlock
    message_id: str | None = None


class AgentMessageChunk(_Chunk, tag="agent_message_chunk"):
    """A piece of the reply; join the texts with no separator (§3.9)."""


class AgentThoughtChunk(_Chunk, tag="agent_thought_chunk"):
    """A piece of the model's thinking, before the message (§3.9)."""


class UserMessageChunk(_Chunk, tag="user_message_chunk"):
    """The user's words: seen only in a ``session/load`` replay (§3.4, §3.9)."""


class _ToolCallFields(_Update):
    """The fields of a tool call (§3.10); an update carries only those that changed."""

    tool_call_id: str
    title: str | None = None
    kind: str | None = None
    status: str | None = None
    content: list[Any] | None = None
    locations: list[Any] | None = None
    raw_input: Any = None
    raw_output: Any = None


class AcpToolCall(_ToolCallFields, tag="tool_call"):
    """A tool call starts (§3.10). Upsert by ``tool_call_id``: a build sent two with the same
    id. The id is opaque and may hold a ``\\n``."""

    title: str = ""  # required on the wire; a missing one is tolerated


class AcpToolCallUpdate(_ToolCallFields, tag="tool_call_update"):
    """Only the changed fields of a tool call: merge, never clear (§3.10). ``failed`` is
    never used: rejected tools end ``completed``."""


class PlanEntry(_Wire):
    """One plan entry: priority ``high``/``medium``/``low``, status
    ``pending``/``in_progress``/``completed``."""

    content: str
    priority: str | None = None
    status: str | None = None


class AcpPlan(_Update, tag="plan"):
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
    """The auto-title, ~1 s into the first turn (§3.9). A field left out is unchanged
    (``msgspec.UNSET``); a ``None`` title clears it (v1 schema)."""

    title: str | msgspec.UnsetType | None = msgspec.UNSET
    updated_at: str | msgspec.UnsetType | None = msgspec.UNSET


class ConfigOptionUpdate(_Update, tag="config_option_update"):
    """The whole refreshed ``configOptions`` (v1 schema; never seen from Cursor, §3.9)."""

    config_options: list[ConfigOption] = msgspec.field(default_factory=list)


class Cost(_Wire):
    """A cost: ``amount`` in ``currency`` (an ISO 4217 code)."""

    amount: float
    currency: str


class UsageUpdate(_Update, tag="usage_update"):
    """Tokens in the context (``used``) and the window's ``size``, and the session's cost
    when known (v1 schema; never seen from Cursor, §3.9)."""

    used: int
    size: int
    cost: Cost | None = None


class SubagentSpawned(_Update, tag="subagent_spawned"):
    """A subagent started (Cursor-private, only with ``LiveAgent(subagents=True)``,
    §3.13): its own updates come on the session ``subagent_session_id``. ``name`` is its
    type (``generalPurpose``...), ``task`` the whole prompt it was given; the description
    is in the parent's ``Task: ...`` tool call, ``tool_call_id``."""

    subagent_session_id: str
    name: str = ""
    task: str = ""
    capabilities: Any = None
    meta: Any = msgspec.field(default=None, name="_meta")

    @property
    def tool_call_id(self) -> str | None:
        """The parent's Task tool call (``_meta.cursor.toolCallId``)."""
        return _cursor_meta(self.meta, "toolCallId")

    @property
    def model(self) -> str | None:
        """The model the spawn names (``_meta.cursor.model``): it showed the parent's for a
        child that ran on another one (§3.13); ``cursor/task`` says the real one."""
        return _cursor_meta(self.meta, "model")


class SubagentStateUpdate(_Update, tag="subagent_state_update"):
    """A subagent ended (Cursor-private, §3.13): ``state`` is ``completed`` or
    ``cancelled`` as seen (a failed state's value is unknown: any string). The study's
    line named no subagent; ``subagent_session_id`` is kept when one is named."""

    state: str = ""
    subagent_session_id: str | None = None


def _cursor_meta(meta: Any, key: str) -> str | None:
    cursor = meta.get("cursor") if type(meta) is dict else None
    value = cursor.get(key) if type(cursor) is dict else None
    return value if type(value) is str else None


class UnknownUpdate(msgspec.Struct, frozen=True):
    """An update of a kind not modelled here, or one that did not fit its shape: kept as
    decoded JSON, never an error (§3.9)."""

    kind: str
    data: Any


SessionUpdate = (
    AgentMessageChunk
    | AgentThoughtChunk
    | UserMessageChunk
    | AcpToolCall
    | AcpToolCallUpdate
    | AcpPlan
    | AvailableCommandsUpdate
    | CurrentModeUpdate
    | SessionInfoUpdate
    | ConfigOptionUpdate
    | UsageUpdate
    | SubagentSpawned
    | SubagentStateUpdate
    | UnknownUpdate
)

_UPDATE_TYPES: dict[str, type[_Update]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (
        AgentMessageChunk,
        AgentThoughtChunk,
        UserMessageChunk,
        AcpToolCall,
        AcpToolCallUpdate,
        AcpPlan,
        AvailableCommandsUpdate,
        CurrentModeUpdate,
        SessionInfoUpdate,
        ConfigOptionUpdate,
        UsageUpdate,
        SubagentSpawned,
        SubagentStateUpdate,
    )
}


class SubagentUpdate(msgspec.Struct, frozen=True, kw_only=True):
    """An update of a subagent's own session, as the parent's turn gives it
    (:meth:`LiveSession.prompt`): ``subagent_id`` says whose it is (§3.13)."""

    subagent_id: str
    update: SessionUpdate


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
        kind = decode(data, _Kind).sessionUpdate
    except msgspec.DecodeError:
        return UnknownUpdate("", _loose(data))
    cls = _UPDATE_TYPES.get(kind)
    if cls is not None:
        try:
            return decode(data, cls)  # type: ignore[return-value]
        except msgspec.DecodeError:
            pass  # a recorded kind with an unrecorded shape: pass it through
    return UnknownUpdate(kind, _loose(data))


def _loose(data: bytes) -> Any:
    try:
        return decode(data, Any)
    except msgspec.DecodeError:
        return data.decode("utf-8", "replace")
