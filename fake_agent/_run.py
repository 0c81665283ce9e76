"""A headless run: the real CLI's checks, then a scenario played through a renderer."""

from __future__ import annotations

import functools
import os
import re
import sys
import time
from typing import Any

from ._build import Build, Quirk, build_of
from ._chats import in_use_message, make_chat, taken
from ._credentials import credentials
from ._directives import missing_environment, run_directive
from ._faults import seconds_env, stdin_delay
from ._files import files_setting
from ._flags import Options
from ._fleet import CONFIG_WRITE_DELAY_ENV, EndRun, current_config, logged_in, write_config
from ._hooks import Hooks, print_mode_files
from ._mcp_call import McpServers
from ._mcp_config import find_servers
from ._model_choice import Choice, choose, save
from ._models import DEFAULT_MODEL, FAKE_MODELS, VERSION
from ._plugins import load_plugins, plugin_hook_files, plugin_server_files
from ._render import Renderer, make_renderer
from ._reply import with_reply
from ._scenario import ScenarioError, load_scenario, pick_scenario, scenario_path
from ._wire import write_stderr, write_stdout

_TRUST_MESSAGE = """\
⚠ Workspace Trust Required

The agent can read, change and run code in this workspace:
  {path}

Headless runs cannot ask. Pass --trust, --yolo, or -f if you trust this directory \
and want to continue.
"""

_DATE_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)")
# A result's durations: those its line leaves out are the run's real time.
_DURATIONS = ("duration_ms", "duration_api_ms")


def with_durations(event: dict[str, Any], elapsed_ms: int) -> dict[str, Any]:
    """A ``result`` event with each duration it leaves out set to ``elapsed_ms``, the time
    the run has really taken, where the real CLI writes it (after ``subtype``); one its
    line gives is pinned and stays (scenarios/README.md, "Durations")."""
    missing = [key for key in _DURATIONS if key not in event]
    if not missing:
        return event
    after = "subtype" if "subtype" in event else "type"
    timed: dict[str, Any] = {}
    for key, value in event.items():
        timed[key] = value
        if key == after:
            timed.update((name, elapsed_ms) for name in missing)
    return timed


class _Run:
    """The run in progress: patches each event for this run, then renders it."""

    def __init__(
        self,
        renderer: Renderer,
        session_id: str,
        prompt: str,
        init: dict[str, Any],
        given: list[str],
        options: Options,
        build: Build,
        signed_in: bool,
        started: float,
    ) -> None:
        self.exit_code = 0
        self._started = started  # time.monotonic() when the fake began this run
        self.credentials = given
        self.workspace = str(init["cwd"])
        self.force = options.force
        self.mcp, self.hooks = _channels(options, self.workspace, session_id, build, signed_in)
        self._renderer = renderer
        #: The run's session id (every event's ``session_id``).
        self.session_id = session_id
        self._prompt = prompt
        self._init = init

    def emit(self, event: dict[str, Any]) -> None:
        """Make the scenario's event this run's (ids, prompt, init facts), then render it."""
        # Only overwrite: the real CLI's `user` events may lack a session_id.
        if "session_id" in event:
            event["session_id"] = self.session_id
        kind = event.get("type")
        if kind == "user":
            _set_prompt(event, self._prompt)
        elif kind == "system" and event.get("subtype") == "init":
            event.update(self._init)
        elif kind == "result":
            elapsed_ms = int((time.monotonic() - self._started) * 1000)
            event = with_durations(event, elapsed_ms)
        self._renderer.event(event)

    def stdout_line(self, text: str) -> None:
        """Write a raw line to stdout through the renderer (keeps the order)."""
        self._renderer.stdout_line(text)

    def stdout_bytes(self, data: bytes) -> None:
        """Write bytes to stdout exactly, at once (every renderer writes as it goes)."""
        write_stdout(data)

    def stderr_text(self, text: str) -> None:
        """Write to stderr."""
        write_stderr(text)


def _channels(
    options: Options, workspace: str, session_id: str, build: Build, signed_in: bool
) -> tuple[McpServers, Hooks]:
    """The run's MCP servers and hooks, from every source the build honours. A CLI that
    is not signed in runs no hook (docs/protocol.md §6.1) and, in the fake, starts no
    server either (it only prints that it is signed out)."""
    plugins = load_plugins(options.plugin_dirs, build)
    approve = options.approve_mcps
    if signed_in and not build.has(Quirk.NO_MCP):
        plugin_files = plugin_server_files(plugins, approve, build)
        entries = find_servers(workspace, approve, os.environ, plugin_files)
    else:
        entries = {}
    mcp = McpServers(workspace, approve, os.environ, entries)
    # Every run that plays passed the trust check (--trust, --yolo or -f): the
    # project's hooks run (docs/protocol.md §6.1: only in a trusted workspace).
    trusted = options.trust or options.force
    files = print_mode_files(workspace, trusted, plugin_hook_files(plugins))
    if not signed_in or build.has(Quirk.NO_HOOKS):
        files = []
    model = options.model or DEFAULT_MODEL
    return mcp, Hooks(files, workspace, session_id, model, os.environ)


def _set_prompt(event: dict[str, Any], prompt: str) -> None:
    message = event.get("message")
    if isinstance(message, dict):
        message["content"] = [{"type": "text", "text": prompt}]


def _version_key(version: str) -> tuple[int, ...] | None:
    match = _DATE_VERSION.match(version)
    return tuple(int(part) for part in match.groups()) if match else None


def _refusal(options: Options) -> tuple[str, int] | None:
    """The real CLI's refusals, in its order: (stderr text, exit code), or None."""
    if options.min_version is not None:
        wanted = _version_key(options.min_version)
        if wanted is None or wanted > (_version_key(VERSION) or ()):
            message = f"error: version {VERSION} is older than --min-version {options.min_version}"
            return message + "\n", 2
    if options.output_format is not None and not options.print_mode:
        return "error: --output-format requires --print\n", 1
    model = options.model if options.model is not None else DEFAULT_MODEL
    if model not in FAKE_MODELS:
        available = ", ".join(FAKE_MODELS)
        return f"Cannot use this model: {model}. Available models: {available}\n", 1
    if options.workspace is not None and not os.path.isdir(options.workspace):
        return f"Error: Workspace path does not exist: {options.workspace}\n", 1
    if options.new_session_id is not None and taken(options.new_session_id, os.environ):
        return in_use_message(options.new_session_id), 1
    return None


def _read_prompt(options: Options, delay: float) -> str | None:
    """The positional prompt, else all of stdin, read after ``delay`` seconds (the
    ``$FAKE_AGENT_STDIN_DELAY`` fault mode); None if stdin is a terminal."""
    if options.prompt_words:
        return " ".join(options.prompt_words)
    if sys.stdin is None or sys.stdin.isatty():
        return None
    if delay:
        # Nothing reads the pipe meanwhile: a writer blocks once it is full.
        time.sleep(delay)
    return sys.stdin.buffer.read().decode("utf-8", errors="replace")


def _init_facts(options: Options, workspace: str, choice: Choice | None) -> dict[str, Any]:
    if options.api_key is not None:
        source = "flag"
    elif os.environ.get("CURSOR_API_KEY"):
        source = "env"
    else:
        source = "login"
    return {
        "cwd": workspace,
        "model": choice.display if choice is not None else FAKE_MODELS[DEFAULT_MODEL],
        "apiKeySource": source,
        "permissionMode": "default",  # even with --force (docs/protocol.md §3.1)
    }


def _session_id(options: Options) -> str:
    if options.new_session_id is not None:
        # The chat of a chosen id (docs/protocol.md §1, "Hidden flags"); with --resume as
        # well, what the real CLI does is unknown: the fake takes this one.
        return options.new_session_id
    if isinstance(options.resume, str):
        # Resuming keeps the chat id: it *is* the session id of every event.
        return options.resume
    import uuid

    return str(uuid.uuid4())


def run_headless(options: Options) -> int:
    """Run one prompt headless as the real CLI would; return the exit code."""
    started = time.monotonic()  # a result's durations count from here
    try:
        delay = stdin_delay(os.environ)
        config_delay = seconds_env(os.environ, CONFIG_WRITE_DELAY_ENV)
        logged_in(options.api_key, os.environ)  # checks $FAKE_AGENT_REQUIRE_LOGIN
        build = build_of(os.environ)  # checks $FAKE_AGENT_BUILD, $FAKE_AGENT_PLUGIN_SERVERS
        files_setting(os.environ)  # checks $FAKE_AGENT_FILES, read by each file directive
    except ValueError as exc:
        # The fake's own setup is wrong, as with a bad scenario: exit 2, no output.
        write_stderr(f"fake_agent: {exc}\n")
        return 2
    # Every run starts by rewriting the config file; losing the race ends it at once. A
    # known --model is stored there with its parameters, and a run without one (or given
    # a bare id) takes the stored ones (_model_choice.py).
    choice = choose(options.model, current_config(os.environ))
    if choice is not None:
        options.model = choice.model
    lost = write_config(
        os.environ,
        config_delay,
        functools.partial(save, choice=choice) if choice is not None and choice.saves else None,
    )
    if lost is not None:
        write_stderr(lost)
        return 1
    refusal = _refusal(options)
    if refusal is not None:
        write_stderr(refusal[0])
        return refusal[1]
    workspace = os.path.abspath(options.workspace or os.getcwd())
    if not (options.trust or options.force):
        # The real CLI prints this one on stdout, as plain text, in every format.
        write_stdout(_TRUST_MESSAGE.format(path=workspace))
        return 1
    prompt = _read_prompt(options, delay)
    if prompt is None:
        write_stderr("error: no prompt given (pass it as an argument or on stdin)\n")
        return 1
    try:
        scenario = load_scenario(pick_scenario(prompt, os.environ))
    except ScenarioError as exc:
        write_stderr(f"fake_agent: {exc}\n")
        return 2
    signed_in = logged_in(options.api_key, os.environ)
    if not signed_in:
        # Played like the scenario, so that its text is the same in every format.
        scenario = load_scenario(scenario_path("not_logged_in"))
    # A bare `--resume` and `--continue` (the latest chat) resume too.
    scenario = scenario.played(resumed=options.resume is not None or options.continue_)
    with_reply(scenario.steps, prompt, os.environ)  # $FAKE_AGENT_REPLY, or JSON asked for
    missing = missing_environment(scenario.steps, os.environ)
    if missing is not None:
        write_stderr(f"fake_agent: {missing}\n")
        return 2
    renderer = make_renderer(
        options.output_format or "text",
        options.stream_partial_output,
        scenario.exit_code,
        show_thinking=options.show_thinking,
    )
    given = credentials(options.api_key, options.headers, os.environ)
    init = _init_facts(options, workspace, choice)
    session_id = _session_id(options)
    run = _Run(renderer, session_id, prompt, init, given, options, build, signed_in, started)
    if options.new_session_id is not None and signed_in:
        make_chat(options.new_session_id, workspace, os.environ)  # before its first event
    try:
        # Both before the first event (the init line): sessionStart fires at the start
        # (§6.2), and print runs wait for their stdio servers to start (§7).
        run.hooks.session_start()
        run.mcp.open_all()
        for step in scenario.steps:
            if "fake" in step:
                run_directive(step, run)
            else:
                run.emit(step)
    except EndRun as end:
        # A directive ended the run early (fail_first): nothing more plays.
        run.exit_code = end.code
    finally:
        run.mcp.end()  # the servers end with the run, on every way out
    run.hooks.session_end(failed=run.exit_code != 0)
    renderer.finish()
    return run.exit_code
