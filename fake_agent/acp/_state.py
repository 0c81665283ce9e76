"""What an ACP session of the fake holds: modes, models, config options, history, store.

Shapes follow docs/acp.md §2, §3.3, §3.4, §3.5 and §3.8; with ``FAKE_AGENT_ACP_SHAPES=v1``
a session answers in shapes the v1 schema allows and Cursor was not seen to send (§3.5,
§3.8): grouped model choices, a boolean option for clients that advertise them, no title
of the fake's own (``null`` in ``session/list``). Sessions persist (as the real
CLI's ``~/.cursor/acp-sessions/<id>/``) only when ``$CURSOR_CONFIG_DIR`` is set, so the
fake never writes into a real home; otherwise they live as long as the process.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._mcp_call import McpServers

#: The modes of every session, in the order the CLI lists them (docs/acp.md §2).
MODES: tuple[tuple[str, str, str], ...] = (
    ("agent", "Agent", "Full agent capabilities with tool access"),
    ("plan", "Plan", "Read-only mode for planning and designing before implementation"),
    ("ask", "Ask", "Q&A mode - no edits or command execution"),
)
MODE_IDS = tuple(mode[0] for mode in MODES)

#: Model ids in the bracketed space (no picker flag) -> display name (§3.8).
BRACKET_MODELS: dict[str, str] = {
    "default[]": "Auto",
    "gpt-5.4[reasoning=medium,context=272k,fast=false]": "GPT-5.4",
    "claude-opus-4-6[thinking=true,context=200k,effort=high,fast=false]": "Claude Opus 4.6",
    "composer-1.5[]": "Composer 1.5",
}
#: The bare space (``parameterizedModelPicker: true``), disjoint from the other (§3.8).
BARE_MODELS: dict[str, str] = {
    "default": "Auto",
    "gpt-5.4": "GPT-5.4",
    "claude-opus-4-6": "Opus 4.6",
    "composer-1.5": "Composer 1.5",
}

#: The unsolicited ``available_commands_update`` after ``session/new`` (§2, §3.9).
COMMANDS: list[dict[str, str]] = [
    {
        "name": "create-rule",
        "description": "Create Cursor rules for persistent AI guidance. (builtin skill)",
    },
    {"name": "review", "description": "Review the current changes. (builtin skill)"},
]

#: The ``sessionUpdate`` kinds a ``session/load`` replays (§3.4).
REPLAYED = frozenset(
    {
        "user_message_chunk",
        "agent_thought_chunk",
        "agent_message_chunk",
        "tool_call",
        "tool_call_update",
    }
)

CONFIG_DIR_ENV = "CURSOR_CONFIG_DIR"
#: ``v1``: answer in the v1 schema's shapes Cursor was not seen to send (§3.5, §3.8).
SHAPES_ENV = "FAKE_AGENT_ACP_SHAPES"

#: The groups of the v1 mode's model choices: a model id's start -> (group id, name).
MODEL_GROUPS: tuple[tuple[str, str, str], ...] = (
    ("default", "auto", "Auto"),
    ("gpt", "openai", "OpenAI"),
    ("claude", "anthropic", "Anthropic"),
    ("composer", "cursor", "Cursor"),
)
#: The boolean option of the v1 mode (§3.8), offered to clients that advertise
#: ``clientCapabilities.session.configOptions.boolean``.
BOOLEAN_OPTION = "fast"


def models(bare: bool) -> dict[str, str]:
    """The model space of a session."""
    return BARE_MODELS if bare else BRACKET_MODELS


class Session:
    """One ACP session: its id, cwd, mode, model and the history ``session/load`` replays."""

    def __init__(
        self, session_id: str, cwd: str, bare: bool, v1: bool = False, booleans: bool = False
    ) -> None:
        self.session_id = session_id
        self.cwd = cwd
        self.bare = bare
        #: v1 shapes (``FAKE_AGENT_ACP_SHAPES=v1``); with ``booleans`` the client takes
        #: boolean options (§3.8).
        self.v1 = v1
        self.booleans = v1 and booleans
        self.mode = "agent"
        self.model = "default" if bare else "default[]"
        self.fast = False
        #: One list of updates per turn, the user's prompt first, as sent.
        self.turns: list[list[dict[str, Any]]] = []
        #: ``None``: no title yet (the v1 mode's list shows ``null``, §3.5).
        self.title: str | None = None
        self.updated_at = ""
        #: The MCP servers of ``mcpServers``, connected by ``session/new``/``load``.
        self.mcp: McpServers | None = None

    @property
    def prompted(self) -> bool:
        """Whether the session ever got a prompt (only those persist, §3.3)."""
        return bool(self.turns)

    def modes_block(self) -> dict[str, Any]:
        available = [{"id": i, "name": n, "description": d} for i, n, d in MODES]
        return {"currentModeId": self.mode, "availableModes": available}

    def models_block(self) -> dict[str, Any]:
        available = [{"modelId": i, "name": n} for i, n in models(self.bare).items()]
        return {"currentModelId": self.model, "availableModels": available}

    def config_options(self) -> list[dict[str, Any]]:
        mode_options = [{"value": i, "name": n, "description": d} for i, n, d in MODES]
        model_options = [{"value": i, "name": n} for i, n in models(self.bare).items()]
        if self.v1:
            model_options = _grouped(model_options)
        booleans = [self._boolean_option()] if self.booleans else []
        return [
            {
                "id": "mode",
                "name": "Mode",
                "description": "Controls how the agent executes tasks",
                "category": "mode",
                "type": "select",
                "currentValue": self.mode,
                "options": mode_options,
            },
            {
                "id": "model",
                "name": "Model",
                "description": "Controls which model is used for responses",
                "category": "model",
                "type": "select",
                "currentValue": self.model,
                "options": model_options,
            },
            *booleans,
        ]

    def _boolean_option(self) -> dict[str, Any]:
        return {
            "id": BOOLEAN_OPTION,
            "name": "Fast",
            "description": None,
            "category": "model_config",
            "type": "boolean",
            "currentValue": self.fast,
        }

    def state(self) -> dict[str, Any]:
        """The result of ``session/load``: no ``sessionId`` (§3.4)."""
        return {
            "modes": self.modes_block(),
            "models": self.models_block(),
            "configOptions": self.config_options(),
        }

    def replay(self) -> list[dict[str, Any]]:
        """The updates ``session/load`` sends: each turn's replayable updates in order,
        its thought fragments coalesced into one chunk where the first one was (§3.4)."""
        out: list[dict[str, Any]] = []
        for turn in self.turns:
            thought: dict[str, Any] | None = None
            for update in turn:
                kind = update.get("sessionUpdate")
                if kind not in REPLAYED:
                    continue
                text = _text_of(update)
                if kind == "agent_thought_chunk" and text is not None:
                    if thought is None:
                        thought = {
                            "sessionUpdate": kind,
                            "content": {"type": "text", "text": text},
                        }
                        out.append(thought)
                    else:
                        thought["content"]["text"] += text
                    continue
                out.append(update)
        return out

    def touch(self) -> None:
        """Stamp the session as updated now (``session/list`` sorts on it, §3.5)."""
        self.updated_at = _stamp()

    def listing(self) -> dict[str, Any]:
        """An entry of ``session/list`` (§3.5)."""
        return {
            "sessionId": self.session_id,
            "cwd": self.cwd,
            "title": self.title,
            "updatedAt": self.updated_at,
        }


def _grouped(choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Model choices in the v1 schema's groups (§3.8), by the start of their ids."""
    groups: dict[str, dict[str, Any]] = {}
    for choice in choices:
        start = next((g for g in MODEL_GROUPS if choice["value"].startswith(g[0])), None)
        group_id, name = (start[1], start[2]) if start else ("other", "Other")
        group = groups.setdefault(group_id, {"group": group_id, "name": name, "options": []})
        group["options"].append(choice)
    return list(groups.values())


def _text_of(update: Mapping[str, Any]) -> str | None:
    content = update.get("content")
    if isinstance(content, dict) and isinstance(content.get("text"), str):
        return str(content["text"])
    return None


_last_stamp_ms = 0


def _stamp() -> str:
    """Now as an ISO 8601 UTC time with milliseconds, later than any earlier stamp of this
    process: two sessions prompted within one millisecond still list newest first (§3.5)."""
    global _last_stamp_ms
    millis = max(int(time.time() * 1000), _last_stamp_ms + 1)
    _last_stamp_ms = millis
    seconds, rest = divmod(millis, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{rest:03d}Z"


def new_session_id() -> str:
    """A UUIDv4, as the CLI mints (§3.3)."""
    return str(uuid.uuid4())


class Store:
    """The sessions on disk: ``$CURSOR_CONFIG_DIR/acp-sessions/<id>/`` with ``meta.json``
    (``{schemaVersion, cwd, title}``, §3.4) and the fake's own ``store.json`` (the real
    CLI keeps a ``store.db`` whose format is not recorded). Disabled without the variable."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        base = environ.get(CONFIG_DIR_ENV)
        self.root = Path(base) / "acp-sessions" if base else None

    def save(self, session: Session) -> None:
        if self.root is None or not session.prompted:
            return
        folder = self.root / session.session_id
        folder.mkdir(parents=True, exist_ok=True)
        meta = {"schemaVersion": 1, "cwd": session.cwd, "title": session.title}
        (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        store = {
            "bare": session.bare,
            "v1": session.v1,
            "booleans": session.booleans,
            "fast": session.fast,
            "mode": session.mode,
            "model": session.model,
            "updatedAt": session.updated_at,
            "turns": session.turns,
        }
        (folder / "store.json").write_text(json.dumps(store), encoding="utf-8")

    def load(self, session_id: str) -> Session | None:
        if self.root is None or "/" in session_id or session_id in ("", ".", ".."):
            return None
        folder = self.root / session_id
        try:
            meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
            store = json.loads((folder / "store.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        session = Session(
            session_id,
            str(meta.get("cwd", "")),
            bool(store.get("bare")),
            bool(store.get("v1")),
            bool(store.get("booleans")),
        )
        title = meta.get("title")
        session.title = title if isinstance(title, str) else None
        session.fast = store.get("fast") is True
        session.mode = str(store.get("mode", session.mode))
        session.model = str(store.get("model", session.model))
        session.updated_at = str(store.get("updatedAt", ""))
        session.turns = list(store.get("turns", []))
        return session

    def all(self) -> list[Session]:
        if self.root is None or not self.root.is_dir():
            return []
        found = [self.load(path.name) for path in self.root.iterdir()]
        return [session for session in found if session is not None]
