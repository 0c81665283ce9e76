"""How :class:`~agent_sdk.AgentOptions` becomes the CLI's argv, stdin and environment.

:func:`build_invocation` is pure (no I/O), so what the SDK will execute can be tested and
inspected without running it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import msgspec

from .agent_options import AgentOptions
from .redaction import redacted_argv

__all__ = [
    "MAX_PROMPT_ARG_BYTES",
    "Invocation",
    "build_invocation",
    "child_environment",
    "passes_model",
]

# Linux refuses a single argv string over 128 KiB (MAX_ARG_STRLEN); stay well below it
# and send longer prompts on stdin, which the CLI reads when no positional prompt is given.
MAX_PROMPT_ARG_BYTES = 100_000


class Invocation(msgspec.Struct, frozen=True):
    """What the SDK executes for a run: argv (no shell), bytes for stdin, environment."""

    argv: list[str]
    stdin: bytes | None
    """The prompt when it is too large for argv (or holds a NUL byte); else ``None``:
    the child then gets ``/dev/null`` so it can never wait for input."""
    env: dict[str, str]

    def __repr__(self) -> str:
        # The environment may hold CURSOR_API_KEY, a header a credential: never print them.
        fields = ", ".join(f"{name}={value}" for name, value in self.__rich_repr__())
        return f"Invocation({fields})"

    def __rich_repr__(self) -> list[tuple[str, Any]]:
        """What rich shows (its ``__rich_repr__`` protocol): the argv with header values
        as ``***``, the sizes of stdin and the environment."""
        stdin = None if self.stdin is None else _Shown(f"<{len(self.stdin)} bytes>")
        return [
            ("argv", redacted_argv(self.argv)),
            ("stdin", stdin),
            ("env", _Shown(f"<{len(self.env)} variables>")),
        ]


def passes_model(argv: list[str]) -> bool:
    """Whether ``argv`` gives the CLI ``--model`` (``AgentOptions.model`` or
    ``extra_args``), before the ``--`` that ends the options."""
    for arg in argv[1:]:
        if arg == "--":
            return False
        if arg == "--model" or arg.startswith("--model="):
            return True
    return False


class _Shown(str):
    """Text a repr shows as it is, without quotes."""

    def __repr__(self) -> str:
        return str(self)


def build_invocation(
    prompt: str,
    options: AgentOptions,
    *,
    binary: str,
    environ: Mapping[str, str],
) -> Invocation:
    """Turn a prompt and options into the child's argv, stdin and environment. Pure.

    Caller-supplied values are attached as ``--flag=value`` and the prompt follows
    ``--``, so no value can be read as a flag. ``options.tools`` shows nowhere here: the
    run's own ``HOME``, config dir and token are added by the transport when the run
    starts (they name directories that exist only then; docs/extend.md, "Print mode").

    Args:
        prompt: the prompt text.
        options: the run's options.
        binary: the resolved path of the CLI (``argv[0]``).
        environ: the environment to start from (normally ``os.environ``).

    Example::

        inv = build_invocation("hi", AgentOptions(model="gpt-5"), binary="cursor-agent",
                               environ={})
        # inv.argv == ["cursor-agent", "--print", "--output-format=stream-json",
        #              "--trust", "--model=gpt-5", "--", "hi"]
    """
    o = options
    argv = [binary, "--print", f"--output-format={o.output_format}"]
    if o.stream_partial_output:
        argv.append("--stream-partial-output")
    if o.trust:
        argv.append("--trust")
    if o.force:
        argv.append("--force")
    if o.model is not None:
        argv.append(f"--model={o.model}")
    if o.mode is not None:
        argv.append(f"--mode={o.mode}")
    if o.resume is not None:
        argv.append(f"--resume={o.resume}")
    if o.continue_session:
        argv.append("--continue")
    if o.new_session_id is not None:
        # Hidden in the CLI's help, seen honoured (docs/protocol.md §1, "Hidden flags").
        argv.append(f"--new-session-id={o.new_session_id}")
    if o.workspace is not None:
        argv.append(f"--workspace={os.fspath(o.workspace)}")
    if o.approve_mcps:
        argv.append("--approve-mcps")
    if o.sandbox is not None:
        argv.append(f"--sandbox={o.sandbox}")
    if o.worktree:
        argv.append("--worktree" if o.worktree_name is None else f"--worktree={o.worktree_name}")
    if o.worktree_base is not None:
        argv.append(f"--worktree-base={o.worktree_base}")
    if o.skip_worktree_setup:
        argv.append("--skip-worktree-setup")
    for name, value in (o.headers or {}).items():
        argv.append(f"--header={name}: {value}")
    if o.endpoint is not None:
        argv.append(f"--endpoint={o.endpoint}")
    for directory in o.add_dirs:
        argv.append(f"--add-dir={os.fspath(directory)}")
    argv.extend(o.extra_args)

    try:
        encoded = prompt.encode("utf-8")
    except UnicodeEncodeError:
        # Surrogates (text cut mid-emoji) cannot go to argv or stdin: pairs are joined,
        # a lone one becomes U+FFFD.
        prompt = prompt.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        encoded = prompt.encode("utf-8")
    stdin: bytes | None
    if len(encoded) > MAX_PROMPT_ARG_BYTES or b"\0" in encoded:
        stdin = encoded
    else:
        stdin = None
        argv += ["--", prompt]

    return Invocation(argv=argv, stdin=stdin, env=child_environment(o, environ))


def child_environment(options: AgentOptions, environ: Mapping[str, str]) -> dict[str, str]:
    """The CLI's environment: ``environ`` without ``NODE_OPTIONS``, then ``options.env``
    over it, then the key."""
    env = dict(environ)
    # The CLI runs its own bundled node, which refuses to start on flags it disallows
    # (docs/protocol.md §1, "Environment"): a NODE_OPTIONS meant for the user's own node
    # must not reach it. One the user set in options.env is theirs to give.
    env.pop("NODE_OPTIONS", None)
    if options.env:
        env.update(options.env)
    # Headless: a login flow must never try to open a browser on the host.
    env["NO_OPEN_BROWSER"] = "1"
    if options.api_key is not None:
        env["CURSOR_API_KEY"] = options.api_key
    if options.auth_token is not None:
        env["CURSOR_AUTH_TOKEN"] = options.auth_token
    return env
