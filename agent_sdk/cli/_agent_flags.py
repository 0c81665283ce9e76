"""The table of the agent flags: which :class:`~agent_sdk.AgentOptions` fields the command
line exposes and how each is spelt (``args`` builds the parser from it, ``hints`` puts an
error's option names in flag terms with it)."""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["AGENT_FLAGS", "CLI_DEFAULTS", "Flag"]


class Flag(NamedTuple):
    """How one AgentOptions field is spelt on the command line."""

    spelling: tuple[str, ...]
    help: str  # may say %(default)s: the default is AgentOptions'
    metavar: str | None = None
    separator: str | None = None  # of a Mapping field's NAME<separator>VALUE


# The AgentOptions fields the command line exposes, in --help order. A switch (a bool
# field) is spelt for what it does against the default: --force, --no-trust. api_key is
# left out on purpose (see the epilog), and keep_events means nothing here: the command
# line hands each event over as it streams; nor does output_attempts (no output_type).
AGENT_FLAGS: dict[str, Flag] = {
    "binary": Flag(("--binary",), "the cursor-agent executable", "PATH"),
    "cwd": Flag(("--cwd",), "working directory of the agent", "DIR"),
    "workspace": Flag(("--workspace",), "the workspace directory", "DIR"),
    "model": Flag(("--model",), "model id: auto, gpt-5, sonnet-4, ...", "ID"),
    "force": Flag(("-f", "--force"), "allow shell commands and writes"),
    "trust": Flag(("--no-trust",), "do not pass --trust"),
    "mode": Flag(("--mode",), "read-only modes"),
    "resume": Flag(("--resume",), "continue the chat with this session id", "ID"),
    "continue_session": Flag(("--continue",), "continue the last chat"),
    "new_session_id": Flag(
        ("--new-session-id",),
        "start a new chat of this id, a lowercase UUID (single use: then --resume it)",
        "UUID",
    ),
    "env": Flag(
        ("--env",), "set a variable in the agent's environment (repeatable)", "NAME=VALUE", "="
    ),
    "output_format": Flag(
        ("--output-format",),
        "what the CLI prints (default: %(default)s); only stream-json has live events",
    ),
    "stream_partial_output": Flag(
        ("--no-partial",), "no --stream-partial-output: text arrives a message at a time"
    ),
    "approve_mcps": Flag(("--approve-mcps",), "approve all configured MCP servers"),
    "sandbox": Flag(("--sandbox",), "the shell sandbox"),
    "worktree": Flag(("-w", "--worktree"), "run in a git worktree cursor-agent makes"),
    "worktree_name": Flag(("--worktree-name",), "the worktree's name (with -w)", "NAME"),
    "worktree_base": Flag(("--worktree-base",), "the ref the worktree is made from", "REF"),
    "skip_worktree_setup": Flag(("--skip-worktree-setup",), "skip the worktree's setup"),
    "checkpoint": Flag(
        ("--checkpoint",),
        "snapshot the git tree the agent works in first; then show what the run changed "
        "and the command that undoes it (agent-sdk rewind)",
    ),
    "headers": Flag(("--header",), "extra request header (repeatable)", "'NAME: VALUE'", ":"),
    "endpoint": Flag(("--endpoint",), "API endpoint", "URL"),
    "add_dirs": Flag(("--add-dir",), "extra directory the agent may touch (repeatable)", "DIR"),
    "extra_args": Flag(
        ("--extra-arg",),
        "pass ARG to cursor-agent as is (repeatable; use --extra-arg=--flag)",
        "ARG",
    ),
    "budget": Flag(
        ("--budget",),
        "limits of the run (of each task's, in a batch), a JSON object: "
        '\'{"tool_calls": 20, "tool_calls_by_kind": {"shell": 5}, "tokens": 200000}\' '
        "(the kinds in words: shell, edit, read, mcp...); over a limit the run is stopped",
        "JSON",
    ),
    "timeout": Flag(("--timeout",), "seconds the run may take", "S"),
    "idle_timeout": Flag(("--idle-timeout",), "seconds the CLI may print nothing", "S"),
    "result_grace": Flag(
        ("--result-grace",),
        "seconds the CLI gets to exit after its result (default %(default)g)",
        "S",
    ),
}

# Where the command line departs from AgentOptions on purpose: a live view wants the
# reply as it streams, so partial output is on unless --no-partial is given (or the
# format is not stream-json, which has none: docs/protocol.md §3.3).
CLI_DEFAULTS: dict[str, Any] = {"stream_partial_output": True}
