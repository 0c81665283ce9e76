"""The ACP server loop and its methods (docs/acp.md §2-§5).

Requests are answered on the reading thread, except ``session/prompt``, whose turn plays
on its own thread (``_turn.Turn``) so ``session/cancel`` and the client's answers to the
agent's requests keep flowing. Closing stdin ends the process with exit code 0, unless
``FAKE_AGENT_ACP_IGNORE_EOF=1``: then it stays alive, busy, as the real CLI sometimes does
(docs/acp.md §1, §5.2 item 11).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from .._fleet import AUTH_NAME, config_dir, require_login
from .._wire import write_stderr
from . import _mcp, _scenarios
from ._rpc import (
    RpcError,
    Transport,
    auth_required,
    internal_details,
    invalid_params,
    method_not_found,
    missing,
    parse_line,
    zod_error,
)
from ._state import (
    BOOLEAN_OPTION,
    COMMANDS,
    MODE_IDS,
    SHAPES_ENV,
    Session,
    Store,
    models,
    new_session_id,
)
from ._turn import Turn

Params = dict[str, Any]

#: Env var: ``1`` makes the process ignore stdin EOF: it leaves a child in its group (a
#: background subagent's tool, say) and sleeps, so only a process-group kill ends it.
IGNORE_EOF_ENV = "FAKE_AGENT_ACP_IGNORE_EOF"


def _mcp_issues(servers: list[Any]) -> list[dict[str, Any]]:
    """An http/sse entry lacking ``type`` or ``headers`` is an ``invalid_union`` (§3.3)."""
    issues = []
    for index, entry in enumerate(servers):
        if not isinstance(entry, dict):
            bad = True
        elif "url" in entry:
            bad = entry.get("type") not in ("http", "sse") or not isinstance(
                entry.get("headers"), list
            )
        else:
            bad = not isinstance(entry.get("command"), str)
        if bad:
            issues.append(
                {"code": "invalid_union", "path": ["mcpServers", index], "message": "Invalid input"}
            )
    return issues


def _takes_booleans(caps: Any) -> bool:
    """Whether the client advertised ``session.configOptions.boolean`` (an object, §3.8)."""
    session = caps.get("session") if isinstance(caps, dict) else None
    options = session.get("configOptions") if isinstance(session, dict) else None
    return isinstance(options, dict) and isinstance(options.get("boolean"), dict)


def _prompt_text(prompt: list[Any]) -> str:
    texts = [b.get("text", "") for b in prompt if isinstance(b, dict) and b.get("type") == "text"]
    return "".join(t for t in texts if isinstance(t, str))


def _initialize_answer(*, subagents: bool) -> dict[str, Any]:
    """What ``initialize`` answers (docs/acp.md §3.1): ``sessionCapabilities.subagents``
    only for a client that asked for subagents."""
    session_caps: dict[str, Any] = {"list": {}, "subagents": {}} if subagents else {"list": {}}
    return {
        "protocolVersion": 1,
        "agentCapabilities": {
            "loadSession": True,
            "mcpCapabilities": {"http": True, "sse": True},
            "promptCapabilities": {"audio": False, "embeddedContext": False, "image": True},
            "sessionCapabilities": session_caps,
        },
        "authMethods": [
            {
                "id": "cursor_login",
                "name": "Cursor Login",
                "description": "Authenticate using existing Cursor login credentials. "
                "Run 'agent login' first if not logged in.",
            }
        ],
    }


class Server:
    """One ``agent acp`` process: many sessions, one turn per session at a time."""

    def __init__(self, environ: Mapping[str, str], api_key: str | None, force: bool) -> None:
        self.environ = environ
        self.force = force
        self.rpc = Transport()
        self.store = Store(environ)
        self.sessions: dict[str, Session] = {}
        self.turns: dict[str, Turn] = {}
        self.bare = False
        self.v1 = environ.get(SHAPES_ENV) == "v1"
        self.booleans = False
        self.subagents = False
        key = api_key or environ.get("CURSOR_API_KEY") or environ.get("CURSOR_AUTH_TOKEN")
        self.stored_login = not require_login(environ) or os.path.isfile(
            os.path.join(config_dir(environ), AUTH_NAME)
        )
        self.authenticated = self.stored_login or bool(key)
        self.methods: dict[str, Callable[[Params], Any]] = {
            "initialize": self.initialize,
            "authenticate": self.authenticate,
            "session/new": self.new,
            "session/load": self.load,
            "session/list": self.list,
            "session/set_mode": self.set_mode,
            "session/set_config_option": self.set_config_option,
            "session/set_model": self.set_model,
        }

    # ------------------------------------------------------------------ loop

    def serve(self) -> int:
        for raw in sys.stdin.buffer:
            message = parse_line(raw)
            if message is not None:
                self.handle(message)
        return 0

    def handle(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if not isinstance(method, str):
            if "id" in message and ("result" in message or "error" in message):
                self.rpc.answered(message)
            return
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        if "id" not in message:
            if method == "session/cancel":
                self.cancel(params)
            return  # other notifications: nothing to do
        request_id = message["id"]
        try:
            if method == "session/prompt":
                self.prompt(request_id, params)
                return
            handler = self.methods.get(method)
            if handler is None:
                raise method_not_found(method)
            result = handler(params)
        except RpcError as error:
            self.rpc.fail(request_id, error)
            return
        self.rpc.respond(request_id, result)
        if method == "session/new":
            # The unsolicited command list after the result (§2 item 3).
            self.rpc.notify(
                "session/update",
                {
                    "sessionId": result["sessionId"],
                    "update": {
                        "sessionUpdate": "available_commands_update",
                        "availableCommands": COMMANDS,
                    },
                },
            )

    # ------------------------------------------------------------------ handshake

    def initialize(self, params: Params) -> Any:
        caps = params.get("clientCapabilities")
        meta = caps.get("_meta") if isinstance(caps, dict) else None
        self.bare = isinstance(meta, dict) and meta.get("parameterizedModelPicker") is True
        self.booleans = _takes_booleans(caps)
        # Only the `_meta` placement turns subagent sessions on (§3.1, §3.13).
        self.subagents = isinstance(meta, dict) and meta.get("subagents") is True
        return _initialize_answer(subagents=self.subagents)

    def authenticate(self, params: Params) -> Any:
        method_id = params.get("methodId")
        if method_id != "cursor_login":
            raise invalid_params(
                f"Unknown authentication method: {method_id}. Supported method: cursor_login"
            )
        if not self.stored_login:
            # The browser login cannot open here (NO_OPEN_BROWSER): the seen error (§3.2).
            raise invalid_params(
                "Failed to open browser for login. Please visit: "
                "https://cursor.com/loginDeepControl?challenge=fake"
            )
        self.authenticated = True
        return {}

    def _need_auth(self) -> None:
        if not self.authenticated:
            raise auth_required()

    # ------------------------------------------------------------------ sessions

    def _session(self, params: Params, not_found: Callable[[str], RpcError]) -> Session:
        session_id = params.get("sessionId")
        session = self.sessions.get(session_id) if isinstance(session_id, str) else None
        if session is None:
            raise not_found(str(session_id))
        return session

    def new(self, params: Params) -> Any:
        self._need_auth()
        issues = missing(params, {"cwd": str, "mcpServers": list})
        if issues or _mcp_issues(params["mcpServers"]):
            raise zod_error(issues or _mcp_issues(params["mcpServers"]))
        session = Session(new_session_id(), params["cwd"], self.bare, self.v1, self.booleans)
        # Connected during the call, as the real CLI does (docs/acp.md §5.2 item 2).
        session.mcp = _mcp.connect(params["mcpServers"], params["cwd"], self.environ)
        self.sessions[session.session_id] = session
        return {"sessionId": session.session_id, **session.state()}

    def load(self, params: Params) -> Any:
        self._need_auth()
        issues = missing(params, {"sessionId": str, "cwd": str, "mcpServers": list})
        if issues or _mcp_issues(params["mcpServers"]):
            raise zod_error(issues or _mcp_issues(params["mcpServers"]))
        session_id = params["sessionId"]
        session = self.sessions.get(session_id) or self.store.load(session_id)
        if session is None or not session.prompted:
            raise invalid_params(f'Session "{session_id}" not found')
        self.sessions[session_id] = session
        session.cwd = params["cwd"]  # a different cwd silently rebinds (§3.4)
        if session.mcp is not None:
            session.mcp.end()  # the load's servers replace the earlier call's
        session.mcp = _mcp.connect(params["mcpServers"], params["cwd"], self.environ)
        for update in session.replay():
            self.rpc.notify("session/update", {"sessionId": session_id, "update": update})
        return session.state()

    def list(self, params: Params) -> Any:
        self._need_auth()
        found = {s.session_id: s for s in self.store.all()}
        found.update({k: s for k, s in self.sessions.items() if s.prompted})
        cwd = params.get("cwd")
        chosen = [s for s in found.values() if not isinstance(cwd, str) or s.cwd == cwd]
        chosen.sort(key=lambda s: s.updated_at, reverse=True)
        return {"sessions": [s.listing() for s in chosen]}

    def set_mode(self, params: Params) -> Any:
        session = self._session(params, lambda s: internal_details(f"Session {s} not found"))
        mode = params.get("modeId")
        if mode not in MODE_IDS:
            valid = ", ".join(MODE_IDS)
            raise internal_details(f"Invalid mode ID: {mode}. Valid modes: {valid}")
        self._switch_mode(session, str(mode))
        return {}

    def _switch_mode(self, session: Session, mode: str) -> None:
        session.mode = mode
        update = {"sessionUpdate": "current_mode_update", "currentModeId": mode}
        self.rpc.notify("session/update", {"sessionId": session.session_id, "update": update})
        self._save(session)

    def set_config_option(self, params: Params) -> Any:
        session = self._session(params, lambda s: internal_details(f"Session {s} not found"))
        config_id, value = params.get("configId"), params.get("value")
        if config_id == "model":
            self._set_model(session, value)
        elif config_id == BOOLEAN_OPTION and session.booleans:
            if params.get("type") != "boolean" or not isinstance(value, bool):
                raise invalid_params(f"Invalid value for {config_id}: a boolean, typed boolean")
            session.fast = value
            self._save(session)
        elif config_id == "mode" and value in MODE_IDS:
            self._switch_mode(session, str(value))
        elif config_id == "mode":
            raise invalid_params(f"Invalid mode value: {value}")
        else:
            raise invalid_params(f"Unknown config option: {config_id}")
        return {"configOptions": session.config_options()}

    def _set_model(self, session: Session, value: Any) -> None:
        if not isinstance(value, str) or value not in models(session.bare):
            raise invalid_params(f"Invalid model value: {value}")
        session.model = value  # model changes emit nothing (§3.8)
        self._save(session)

    def set_model(self, params: Params) -> Any:
        session = self._session(params, lambda s: internal_details(f"Session {s} not found"))
        self._set_model(session, params.get("modelId"))
        return {}

    def _save(self, session: Session) -> None:
        with self.rpc.lock:  # a turn's thread appends to the history under this lock
            self.store.save(session)

    # ------------------------------------------------------------------ turns

    def prompt(self, request_id: Any, params: Params) -> None:
        issues = missing(params, {"sessionId": str, "prompt": list})
        if issues:
            raise zod_error(issues)
        session = self._session(params, lambda s: internal_details(f"Session {s} not found"))
        running = self.turns.get(session.session_id)
        if running is not None:
            running.cancel()  # one prompt per session: the new one ends the old (§2 item 5)
        text = _prompt_text(params["prompt"])
        steps: list[dict[str, Any]] = []
        if text.strip():
            try:
                steps = _scenarios.load(_scenarios.pick(text, self.environ))
            except _scenarios.AcpScenarioError as exc:
                write_stderr(f"fake_agent: {exc}\n")
                raise internal_details(f"fake_agent: {exc}") from exc
        turn = Turn(self.rpc, session, request_id, steps, self.force, self._save, self.subagents)
        for block in params["prompt"]:
            if isinstance(block, dict) and block.get("type") == "text":
                content = {"type": "text", "text": str(block.get("text", ""))}
                turn.record.append({"sessionUpdate": "user_message_chunk", "content": content})
        if not session.title and not session.v1:  # v1 shapes: no title of the fake's own
            session.title = text.strip().splitlines()[0][:60] if text.strip() else "New Agent"
        session.touch()
        self.turns[session.session_id] = turn
        if not text.strip():
            turn.finish("end_turn")  # empty text ends at once (§3.6)
        else:
            turn.start()
        self._save(session)

    def cancel(self, params: Params) -> None:
        session_id = params.get("sessionId")
        turn = self.turns.get(session_id) if isinstance(session_id, str) else None
        if turn is not None and not turn.finished:
            turn.cancel()
            session = self.sessions.get(str(session_id))
            if session is not None:
                self._save(session)


def run_server(environ: Mapping[str, str], api_key: str | None, force: bool) -> int:
    """Serve ACP on stdin/stdout until stdin closes; the exit code (0)."""
    server = Server(environ, api_key, force)
    code = server.serve()
    for session in list(server.sessions.values()):
        server._save(session)
        if session.mcp is not None:
            session.mcp.end()  # the servers end with the process (stdin closed)
    if environ.get(IGNORE_EOF_ENV) == "1":
        from .._faults import _start_lingering_child

        _start_lingering_child()
        while True:  # alive after EOF: only a signal ends it (§5.2 item 11)
            time.sleep(3600)
    return code
