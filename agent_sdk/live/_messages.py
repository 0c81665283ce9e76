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

from collections.abc import Sequence
from typing import Any

import msgspec

__all__ = [
    "AgentCapabilities",
    "AuthMethod",
    "ClientCapabilities",
    "ConfigOption",
    "ConfigOptionGroup",
    "ConfigOptionValue",
    "ContentBlock",
    "FsCapabilities",
    "Implementation",
    "InitializeParams",
    "InitializeResult",
    "ListSessionsResult",
    "LoadSessionParams",
    "LoadSessionResult",
    "ModelInfo",
    "NewSessionParams",
    "NewSessionResult",
    "PromptParams",
    "PromptResult",
    "SessionListing",
    "SessionMode",
    "SessionModeState",
    "SessionModelState",
    "SetConfigOptionResult",
    "prompt_params",
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
    shell work in ``cwd`` (§3.12). ``_meta`` is sent only to ask for subagent sessions
    (``{"subagents": true}``, §3.1, §3.13); the model-picker flag (§3.8) never."""

    fs: FsCapabilities = msgspec.field(default_factory=FsCapabilities)
    terminal: bool = False
    meta: dict[str, Any] | msgspec.UnsetType = msgspec.field(default=msgspec.UNSET, name="_meta")


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
    """One ``authMethods`` entry: Cursor has only ``cursor_login`` (§3.1). The v1 schema
    has other kinds (``type`` ``"terminal"``...; ``None`` is its default kind, ``agent``):
    they decode, their other fields ignored."""

    id: str
    name: str = ""
    description: str | None = None
    type: str | None = None


class AgentCapabilities(_Wire):
    """``agentCapabilities`` as seen; ``sessionCapabilities.list`` gates ``session/list``
    (§3.5), absent on 2026.03 builds."""

    load_session: bool = False
    mcp_capabilities: dict[str, Any] | None = None
    prompt_capabilities: dict[str, Any] | None = None
    session_capabilities: dict[str, Any] | None = None
    auth: dict[str, Any] | None = None  # v1 ``auth.logout``; Cursor offers none (§3.1)


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
    """One choice of a select config option. On the wire a select's ``options`` may also
    be **groups** (the v1 schema, §3.8): an entry with ``group`` (its id), ``name`` and
    ``options``; :class:`ConfigOption` flattens them, so every choice it lists has a
    ``value``, and ``group`` is the id of the group it came in (``None`` ungrouped)."""

    value: str = ""
    name: str = ""
    description: str | None = None
    group: str | None = None
    options: list[ConfigOptionValue] | None = None  # a group's choices (wire only)


class ConfigOptionGroup(_Wire):
    """A group of a select's choices (v1 schema, §3.8); Cursor was not seen to send one."""

    group: str
    name: str = ""
    options: list[ConfigOptionValue] = msgspec.field(default_factory=list)


class ConfigOption(_Wire):
    """A ``configOptions`` entry: Cursor sends selects ``mode`` and ``model`` (§3.3); the v1
    schema also allows a ``boolean`` one (``current_value`` a bool), grouped choices and a
    ``null`` description or category (§3.8). Another ``type`` is kept as sent.

    Attributes:
        options: every choice of a select, groups flattened (each choice's ``group`` says
            which); empty for a boolean.
        groups: the groups, as sent; empty when the choices came ungrouped.
    """

    id: str
    name: str = ""
    description: str | None = None
    category: str | None = None
    type: str = "select"
    current_value: Any = None
    options: list[ConfigOptionValue] = msgspec.field(default_factory=list)
    groups: list[ConfigOptionGroup] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        # Grouped or not, one list of choices to pick from (§3.8); a ValueError here is a
        # decode error, so the call fails as an AgentProtocolError.
        if not any(entry.options is not None for entry in self.options):
            if any(not entry.value for entry in self.options):
                raise ValueError("a select option without a `value`")
            return
        groups = []
        for entry in self.options:
            if entry.group is None or entry.options is None:
                raise ValueError("a select option group needs `group` and `options`")
            groups.append(ConfigOptionGroup(group=entry.group, name=entry.name, options=[]))
            for choice in entry.options:
                if not choice.value or choice.options is not None:
                    raise ValueError("a grouped select option without a `value`")
                groups[-1].options.append(msgspec.structs.replace(choice, group=entry.group))
        self.groups = groups
        self.options = [choice for group in groups for choice in group.options]


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


def prompt_params(session_id: str, prompt: str | Sequence[ContentBlock]) -> PromptParams:
    """The ``session/prompt`` of ``prompt`` (a text is one text block)."""
    blocks = [ContentBlock(type="text", text=prompt)] if isinstance(prompt, str) else prompt
    return PromptParams(session_id=session_id, prompt=list(blocks))


class PromptResult(_Wire):
    """``session/prompt`` result: **only** the stop reason (§3.6). Seen: ``end_turn``,
    ``cancelled``; ``max_tokens``, ``max_turn_requests``, ``refusal`` must still decode,
    so any string does."""

    stop_reason: str


# --- session/list, session/set_config_option (§3.5, §3.8) ------------------------------------
class SessionListing(_Wire):
    """One entry of ``session/list``: never-prompted sessions are left out (§3.5). The v1
    schema requires only ``sessionId`` and ``cwd``: ``title`` and ``updated_at`` may be
    ``None`` (Cursor's had a title), ``additional_directories`` and ``meta`` may come."""

    session_id: str
    cwd: str = ""
    title: str | None = None
    updated_at: str | None = None
    additional_directories: list[str] | None = None
    meta: dict[str, Any] | None = msgspec.field(default=None, name="_meta")


class ListSessionsResult(_Wire):
    """``session/list`` result: newest first; Cursor sends no ``nextCursor`` (and rejects a
    ``cursor``), the v1 schema allows one (§3.5)."""

    sessions: list[SessionListing] = msgspec.field(default_factory=list)
    next_cursor: str | None = None


class SetConfigOptionResult(_Wire):
    """``session/set_config_option`` result: the **full** refreshed options (§3.8)."""

    config_options: list[ConfigOption] = msgspec.field(default_factory=list)
