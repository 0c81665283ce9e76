"""What a run is asked to do: :class:`AgentOptions`, the one place a caller configures a
run, and the checks of what a caller passes (:func:`given_options`, :func:`given_prompt`).

Users import it from ``agent_sdk`` or ``agent_sdk.options``; ``agent_sdk/_options/invocation.py``
turns it into the CLI's argv and environment. Nothing here imports either: the options
are a public type, at the bottom of the layers (docs/lifecycle.md).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from typing import Any, Literal

import msgspec

from ..budget import Budget
from ..errors import AgentConfigError
from .checks import HIDDEN, SECRET_FIELDS, OptionChecks, a_value, made_by_agent_sdk, shown
from .keywords import KeywordsMeta

__all__ = [
    "AgentOptions",
    "Mode",
    "OutputFormat",
    "Sandbox",
    "given_options",
    "given_prompt",
]

OutputFormat = Literal["stream-json", "json", "text"]
Mode = Literal["plan", "ask"]
Sandbox = Literal["enabled", "disabled"]
ToolsChannel = Literal["plugin", "home"]


_SECRET_FLAGS = ("--api-key", "--auth-token")

# True while _OptionsMeta.__call__ builds options whose keywords it has checked, so that
# __post_init__ checks the values only when built another way (msgspec.structs.replace,
# msgspec.convert). Per thread and task, as a ContextVar is.
_KEYWORDS_CHECKED: ContextVar[bool] = ContextVar("agent_sdk_keywords_checked", default=False)


class _OptionsMeta(KeywordsMeta):
    """The metaclass of :class:`AgentOptions`: a call checks its keywords (names, as every
    :class:`~agent_sdk._options.keywords.KeywordsMeta` does) and its values, before the options
    exist, so a typo is named with the option meant and a wrong value with its fix.
    """

    _keyword_example = "AgentOptions(model='gpt-5')"

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        cls.check_keywords(args, kwargs)
        _CHECK_VALUES.check(kwargs)
        token = _KEYWORDS_CHECKED.set(True)
        try:
            # msgspec's own call: the keywords are checked already.
            return msgspec.StructMeta.__call__(cls, **kwargs)
        finally:
            _KEYWORDS_CHECKED.reset(token)


class AgentOptions(msgspec.Struct, frozen=True, kw_only=True, metaclass=_OptionsMeta):
    """Options of one agent run. Frozen and keyword-only; all have defaults.

    Args:
        binary: path or name of the CLI. Default: ``CURSOR_AGENT_BIN``, then
            ``cursor-agent`` on PATH, then ``~/.local/bin/cursor-agent``, then ``agent``
            if it is cursor-agent.
        cwd: working directory of the CLI process (the workspace, unless ``workspace``).
        workspace: ``--workspace``: the workspace directory the agent works in.
        model: ``--model``, e.g. ``"auto"``, ``"gpt-5"``, ``"sonnet-4"``. The CLI saves
            the model it is given as its stored default; a run given one therefore runs
            under a private copy of the config file, so that the user's stored default and
            later runs without a model are unaffected (docs/protocol.md §1). ``None``: the
            model the user's config names, else the CLI's default.
        force: ``--force``: allow tool calls (shell, writes). Without it headless runs get
            tool calls rejected.
        trust: ``--trust``: trust the workspace. Headless runs fail without it (or ``force``).
        mode: ``--mode``: ``"plan"`` or ``"ask"`` (read-only modes). ``None`` is agent mode.
        resume: ``--resume``: the ``session_id`` of an earlier run to continue.
        continue_session: ``--continue``: continue the latest chat.
        new_session_id: ``--new-session-id``: the id of the new chat this run starts, so
            that it is known before the run (``Run.session_id`` from the start; the
            result's ``session_id`` is it). A UUID in lowercase
            (:func:`agent_sdk.new_session_id` makes one); single use: continue that chat
            with ``resume=`` (docs/sessions.md). Not with ``resume`` or ``continue_session``.
        api_key: sent as the ``CURSOR_API_KEY`` environment variable, never in argv, and
            never shown in ``repr``.
        auth_token: the CLI's other credential, sent as the ``CURSOR_AUTH_TOKEN``
            environment variable (never ``--auth-token`` in argv), and never shown.
        env: variables merged over the current environment for the child, names and
            values str. ``repr`` hides the values of ``CURSOR_API_KEY`` and
            ``CURSOR_AUTH_TOKEN``. The current environment's ``NODE_OPTIONS`` is not
            passed on (the CLI's bundled node refuses some flags); set it here to pass one.
        output_format: ``"stream-json"`` (typed events, default), ``"json"`` (only the
            result event) or ``"text"`` (the output lines).
        stream_partial_output: ``--stream-partial-output``: assistant text in small deltas
            (stream-json only).
        approve_mcps: ``--approve-mcps``: approve all configured MCP servers.
        sandbox: ``--sandbox``: ``"enabled"`` or ``"disabled"``.
        worktree: ``--worktree``: the CLI runs in a git worktree it makes (2026 CLIs;
            where and how it makes it is the CLI's: docs/protocol.md §1). For many runs,
            each in a worktree agent_sdk makes and diffs, see ``agent_sdk.fleet``.
        worktree_name: ``--worktree=NAME``: the worktree's name (needs ``worktree``).
        worktree_base: ``--worktree-base``: the ref it is made from (needs ``worktree``).
        skip_worktree_setup: ``--skip-worktree-setup`` (needs ``worktree``).
        checkpoint: snapshot the git working tree the run works in (``workspace``, else
            ``cwd``, else the current directory) before the CLI starts; the result's
            ``checkpoint`` and ``changes`` (an error's too) then say what the run
            changed, and ``checkpoints.rewind`` undoes it (docs/sessions.md,
            "Checkpointed runs"). Outside a git working tree the run fails before the
            CLI starts. Not with ``worktree``, whose tree is the CLI's.
        headers: extra request headers, each sent as ``--header "Name: Value"``. They go
            into the CLI's argv, so every user of the machine can read them in the
            process list (``ps``): credentials belong in ``api_key=`` or ``auth_token=``,
            which are sent in the environment (the CLI reads ``CURSOR_API_KEY`` and
            ``CURSOR_AUTH_TOKEN``); the CLI has no environment variable for headers
            (docs/protocol.md §1). ``repr`` shows the names, never the values.
        endpoint: ``--endpoint``: API endpoint URL.
        add_dirs: ``--add-dir`` for each: extra directories the agent may touch.
        extra_args: more CLI flags, appended before the prompt as given.
        timeout: seconds the whole run may take; then its process group is ended and
            :class:`~agent_sdk.AgentTimeoutError` raised. ``None``: no limit.
        idle_timeout: seconds the CLI may print nothing before the run is ended the same
            way. Off by default. With ``output_format="text"`` the CLI prints nothing
            until it is done, so there it bounds the whole run.
        result_grace: seconds the CLI gets to exit after its ``result`` event (or after
            closing stdout) before agent_sdk ends its process group; a run with a
            result still succeeds (docs/protocol.md §5, the known hang).
        keep_events: whether the run keeps every event, for ``RunResult.events`` and
            ``.tool_calls``, ``Run.events`` and the ``events`` of errors.
            ``None`` (the default): :func:`~agent_sdk.run_sync`, :func:`~agent_sdk.run_async`
            and ``Session.send`` keep them, as their result returns them; a streamed
            :func:`~agent_sdk.run` keeps none, so its memory stays flat however long the stream
            (its consumer sees every event as it arrives). ``True`` keeps them in a
            streamed run too; ``False`` never does. Without them, those lists are empty;
            ``RunResult.text`` is the assembled reply either way.
        output_attempts: with ``output_type=``, how many replies a run asks for at most:
            the first, then corrections in the same chat while its JSON value does not
            fit the type (docs/output.md). At least 1.
        tools: Python tools the agent may call (:func:`agent_sdk.extend.tool`), served
            from this process while the run lasts, as the MCP server ``agent_sdk``, through
            ``tools_channel``; its calls are allowed (``Mcp(agent_sdk:*)``, in a private
            copy of the CLI's config) without ``force``. Each must be a ``Tool``, of a name
            no other has. A CLI that does not load them ends the run before the agent
            acts (:class:`~agent_sdk.errors.AgentChannelError`).
        hooks: callbacks that decide on the agent's tool calls and shell commands, and
            observe what it did (:class:`agent_sdk.extend.Hooks`), called in this process
            while the run lasts, through ``tools_channel`` (docs/extend.md, "Hooks that
            decide"). What they raise is in ``RunResult.hook_errors``. A CLI that does not
            run them ends the run before the agent acts.
        tools_channel: how ``tools`` and ``hooks`` reach the CLI (docs/extend.md, "The
            CLI's side"): ``"plugin"`` (the default), a per-run plugin folder given with
            ``--plugin-dir``, which leaves ``HOME`` and the user's own setup alone;
            ``"home"``, a run-specific ``HOME`` whose ``~/.cursor`` holds them (signs the CLI
            out on macOS unless the run has ``api_key`` and a file credential store; hides
            the user's own MCP servers), for a build that does not honour the first.
        budget: limits agent_sdk enforces as the events arrive (:class:`~agent_sdk.Budget`:
            tool calls in all and by kind, turns, tokens); the event that goes over one
            is delivered, then the run is stopped and
            :class:`~agent_sdk.AgentBudgetError` raised. A :class:`~agent_sdk.Session`'s
            turns share one budget; so do a ``LiveAgent`` session's prompts
            (docs/budgets.md). ``None``: no limit but ``timeout``.

    Raises:
        AgentConfigError: (also a ``TypeError`` and a ``ValueError``) when the options
            are built, before anything runs: an unknown or positional argument, a value
            of the wrong type (``force="false"``; bools take only bools, numbers are
            int or float), a number out of range, a NUL byte, options that contradict
            each other or the CLI's rules. The message names the option, the value
            (never a credential) and the fix.

    Example::

        options = AgentOptions(model="gpt-5", force=True, cwd="/path/to/repo")
    """

    binary: str | os.PathLike[str] | None = None
    cwd: str | os.PathLike[str] | None = None
    workspace: str | os.PathLike[str] | None = None
    model: str | None = None
    force: bool = False
    trust: bool = True
    mode: Mode | None = None
    resume: str | None = None
    continue_session: bool = False
    new_session_id: str | None = None
    api_key: str | None = None
    auth_token: str | None = None
    env: Mapping[str, str] | None = None
    output_format: OutputFormat = "stream-json"
    stream_partial_output: bool = False
    approve_mcps: bool = False
    sandbox: Sandbox | None = None
    worktree: bool = False
    worktree_name: str | None = None
    worktree_base: str | None = None
    skip_worktree_setup: bool = False
    checkpoint: bool = False
    headers: Mapping[str, str] | None = None
    endpoint: str | None = None
    add_dirs: Sequence[str | os.PathLike[str]] = ()
    extra_args: Sequence[str] = ()
    timeout: float | None = None
    idle_timeout: float | None = None
    result_grace: float = 2.0
    keep_events: bool | None = None
    output_attempts: int = 2
    tools: Sequence[Any] = ()
    hooks: Any = None
    tools_channel: ToolsChannel = "plugin"
    budget: Budget | None = None

    def __repr__(self) -> str:
        # Only what differs from the defaults, and never a credential.
        shown_ = (
            f"{name}={HIDDEN if name in SECRET_FIELDS else repr(value)}"
            for name, value in self.__rich_repr__()
        )
        return f"AgentOptions({', '.join(shown_)})"

    def __rich_repr__(self) -> list[tuple[str, Any]]:
        """The fields rich shows (its ``__rich_repr__`` protocol): those that differ from
        the defaults, credentials and header values as ``'***'``."""
        return [
            (name, shown(name, value))
            for name, value in zip(
                self.__struct_fields__, msgspec.structs.astuple(self), strict=True
            )
            if value != _DEFAULTS[name]
        ]

    def __post_init__(self) -> None:
        # Each value against its field's type, range, NUL bytes (_options/checks.py),
        # unless the call did already; then the rules that tie fields together or come
        # from the CLI.
        if not _KEYWORDS_CHECKED.get():
            _CHECK_VALUES.check_options(self)
        if self.stream_partial_output and self.output_format != "stream-json":
            raise AgentConfigError(
                "stream_partial_output=True needs output_format='stream-json' "
                f"(got {self.output_format!r})"
            )
        if not self.worktree and (
            self.worktree_name is not None
            or self.worktree_base is not None
            or self.skip_worktree_setup
        ):
            raise AgentConfigError(
                "worktree_name, worktree_base and skip_worktree_setup need worktree=True"
            )
        if self.worktree and self.checkpoint:
            raise AgentConfigError(
                "checkpoint=True snapshots the tree the run works in, and with worktree=True "
                "the CLI works in a worktree of its own, which a checkpoint would not see",
                hint="drop one of them; for changes in a worktree see agent_sdk.fleet "
                "(isolation=['worktree'])",
            )
        if self.tools:
            _check_tools(self.tools)
        if self.hooks is not None:
            _check_hooks(self.hooks)
        if self.budget is not None and not isinstance(self.budget, Budget):
            raise AgentConfigError(
                f"AgentOptions(budget=...) must be a Budget, not {type(self.budget).__name__}",
                hint="e.g. AgentOptions(budget=Budget(tool_calls=20)) (from agent_sdk)",
            )
        if self.output_attempts < 1:
            raise AgentConfigError(
                f"output_attempts must be at least 1 (the first reply), got {self.output_attempts}"
            )
        if self.resume is not None and self.continue_session:
            raise AgentConfigError(
                "pass either resume=<session_id> or continue_session=True, not both"
            )
        if self.resume is not None and not self.resume:
            raise AgentConfigError(
                "resume must be a session id (continue_session=True: the latest)"
            )
        if self.new_session_id is not None:
            from .session_id import check_new_session_id  # only options given one pay it

            check_new_session_id(self.new_session_id, self.resume, self.continue_session)
        for arg in self.extra_args:
            flag = arg.split("=", 1)[0]
            if flag in _SECRET_FLAGS:
                field = flag[2:].replace("-", "_")
                raise AgentConfigError(
                    f"do not pass {flag} in extra_args: it would be visible in the process "
                    f"list; use AgentOptions({field}=...), which sends it in the environment"
                )
        for name, value in (self.headers or {}).items():
            if not name or any(c in name for c in ":\r\n") or any(c in value for c in "\r\n"):
                raise AgentConfigError(
                    f"AgentOptions(headers=...): invalid header {name!r}: names cannot be "
                    "empty or hold ':', and neither names nor values can hold line breaks"
                )
        for name in self.env or ():
            # The environment block is NAME=value: a name can hold no '=' (POSIX).
            if not name or "=" in name:
                raise AgentConfigError(
                    f"AgentOptions(env=...): invalid variable name {name!r}: names cannot "
                    "be empty or hold '='"
                )


_DEFAULTS: dict[str, Any] = dict(
    zip(
        AgentOptions.__struct_fields__,
        (None,) * (len(AgentOptions.__struct_fields__) - len(AgentOptions.__struct_defaults__))
        + AgentOptions.__struct_defaults__,
        strict=True,
    )
)


_CHECK_VALUES = OptionChecks(AgentOptions, positive=("timeout", "idle_timeout"))


def _check_tools(tools: Sequence[Any]) -> None:
    """Each a ``Tool``, no two of one name (docs/extend.md)."""
    names: set[str] = set()
    for index, item in enumerate(tools):
        if not made_by_agent_sdk(item, "Tool"):
            raise AgentConfigError(
                f"AgentOptions(tools=...): tools[{index}] is {type(item).__name__}, not a Tool",
                hint="mark the function with @tool (from agent_sdk.extend import tool), or "
                "pass Tool(function)",
            )
        if item.name in names:
            raise AgentConfigError(
                f"AgentOptions(tools=...): two tools are named {item.name!r}",
                hint="give one another name: @tool(name='...')",
            )
        names.add(item.name)


def _check_hooks(hooks: object) -> None:
    """``AgentOptions(hooks=...)`` is a :class:`~agent_sdk.extend.Hooks` (docs/extend.md,
    "Hooks that decide").

    Raises:
        AgentConfigError: it is something else (a dict of callbacks, a function).
    """
    if not made_by_agent_sdk(hooks, "Hooks"):
        raise AgentConfigError(
            f"AgentOptions(hooks=...) is {a_value(hooks)}, not a Hooks",
            hint="pass Hooks(before_tool=..., before_shell=...) "
            "(from agent_sdk.extend import Hooks), or None",
        )


def given_options(options: object) -> AgentOptions:
    """The options a caller passed (``options=``), or the defaults for ``None``.

    Raises:
        AgentConfigError: ``options`` is something else, e.g. a dict.
    """
    if options is None:
        return AgentOptions()
    if not isinstance(options, AgentOptions):
        raise AgentConfigError(
            f"options must be AgentOptions(...), got {type(options).__name__}",
            hint="pass e.g. options=AgentOptions(model='gpt-5'), or leave it out",
        )
    return options


def given_prompt(prompt: object) -> str:
    """The prompt a caller passed, which must be text.

    Raises:
        AgentConfigError: ``prompt`` is not a str.
    """
    if not isinstance(prompt, str):
        raise AgentConfigError(
            f"the prompt must be a str, got {type(prompt).__name__}",
            hint="decode bytes first (prompt.decode()), or pass the text itself",
        )
    return prompt
