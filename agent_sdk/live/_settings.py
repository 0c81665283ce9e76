"""What can be chosen in a live session — its mode, its model, its config options — kept
up to date from the agent's answers and set by requests (docs/acp.md §3.3, §3.8): a base
of :class:`~agent_sdk.live.LiveSession`."""

from __future__ import annotations

from typing import Any

from . import _control
from ._messages import (
    ConfigOption,
    LoadSessionResult,
    ModelInfo,
    NewSessionResult,
    SessionMode,
    SetConfigOptionResult,
)

__all__ = ["SessionSettings"]


class SessionSettings:
    """A session's modes, models and config options, and the requests that set them."""

    _agent: _control.RequestAgent
    session_id: str

    def __init__(self) -> None:
        self.current_mode_id: str | None = None
        self.current_model_id: str | None = None
        self.modes: list[SessionMode] = []
        self.models: list[ModelInfo] = []
        self.config_options: list[ConfigOption] = []

    def _apply(self, state: NewSessionResult | LoadSessionResult) -> None:
        if state.modes is not None:
            self.current_mode_id = state.modes.current_mode_id
            self.modes = list(state.modes.available_modes)
        if state.models is not None:
            self.current_model_id = state.models.current_model_id
            self.models = list(state.models.available_models)
        if state.config_options is not None:
            self._apply_options(state.config_options)

    def _apply_options(self, options: list[ConfigOption]) -> None:
        self.config_options = list(options)
        for option in options:
            if option.id == "mode" and isinstance(option.current_value, str):
                self.current_mode_id = option.current_value
            elif option.id == "model" and isinstance(option.current_value, str):
                self.current_model_id = option.current_value

    async def set_mode(self, mode_id: str) -> None:
        """Switch to ``agent``, ``plan`` or ``ask`` (``session/set_mode``, §3.8).

        Raises:
            JsonRpcError: not a mode of :attr:`modes` (``-32603``).
        """
        await _control.request(
            self._agent,
            "session/set_mode",
            {"sessionId": self.session_id, "modeId": mode_id},
            session_id=self.session_id,
        )
        self.current_mode_id = mode_id

    async def set_model(self, model_id: str) -> None:
        """Use ``model_id``, one of :attr:`models` (``set_config_option`` ``model``, §3.8).

        Raises:
            LiveModelError: not in this session's list (an ``AgentModelError``).
        """
        await self.set_config_option("model", model_id)

    async def set_config_option(self, config_id: str, value: str | bool) -> list[ConfigOption]:
        """Set one of :attr:`config_options` (``session/set_config_option``, §3.8): a
        select's value id, or ``True``/``False`` for a ``boolean`` option (sent as the v1
        schema says, with ``type: "boolean"``). Returns the full refreshed list (also kept
        on the session).

        Raises:
            JsonRpcError: an unknown option or value (``-32602``).
        """
        params: dict[str, Any] = {"sessionId": self.session_id, "configId": config_id}
        if isinstance(value, bool):
            params["type"] = "boolean"
        params["value"] = value
        method = "session/set_config_option"
        raw = await _control.request(self._agent, method, params, session_id=self.session_id)
        result = _control.result_of(self._agent, raw, SetConfigOptionResult, method)
        self._apply_options(result.config_options)
        return self.config_options
