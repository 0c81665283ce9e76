"""Asking the CLI about itself: models, login status, version, and new chats.

These run short CLI subcommands (never the interactive ones) with the same discovery,
environment, process-group handling and error classification as a run, and the same
redaction: neither their answers nor their errors hold a secret of the options or of the
environment (``_options/redaction.py``).
"""

from __future__ import annotations

import os
from typing import Any

import msgspec

from ._options.redaction import Redaction, redaction_of
from ._run.outcome import what_the_cli_said
from ._transport.collect import collect
from ._transport.discovery import locate_binary
from ._wire.classify import process_error
from .errors import AgentError, AgentProtocolError, AgentTimeoutError, ErrorContext
from .options import AgentOptions, Invocation, child_environment, given_options

__all__ = ["Model", "Status", "create_chat", "list_models", "status", "version"]

QUERY_TIMEOUT = 60.0


class Model(msgspec.Struct, frozen=True):
    """A model the CLI offers: the ``id`` to pass as ``AgentOptions(model=...)``."""

    id: str
    name: str


class Status(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The CLI's ``status --format json``: whether it is logged in, and as whom."""

    status: str = ""
    is_authenticated: bool = False
    has_access_token: bool | None = None  # 2026.10 on; None from older CLIs
    has_refresh_token: bool | None = None
    user_info: dict[str, Any] = msgspec.field(default_factory=dict)
    message: str | None = None  # "Not logged in" when logged out (2026.10)


async def _output(args: list[str], options: AgentOptions | None) -> str:
    """Run ``cursor-agent ARGS`` and return its stdout, redacted; raise like a failed run
    (every error redacted, whoever raised it)."""
    options = given_options(options)
    redaction = redaction_of(options, os.environ)
    try:
        return await _ask(args, options, redaction)
    except AgentError as exc:
        redaction.error(exc)
        raise


async def _ask(args: list[str], options: AgentOptions, redaction: Redaction) -> str:
    binary = await locate_binary(options)
    env = child_environment(options, os.environ)
    done = await collect(
        Invocation([binary, *args], None, env), options, within=options.timeout or QUERY_TIMEOUT
    )
    out = redaction.text(done.stdout.decode("utf-8", "replace"))
    context = ErrorContext(
        exit_code=done.exit_code,
        stderr=redaction.text(done.stderr),
        stdout_lines=out.splitlines(),
    )
    command = f"`cursor-agent {' '.join(args)}`"
    if done.exit_code is None:
        raise AgentTimeoutError(
            f"{command} did not answer within {options.timeout or QUERY_TIMEOUT:g} s",
            context=context,
            hint="check that the CLI works from a terminal; raise AgentOptions(timeout=...)",
        )
    if done.exit_code != 0:
        said = what_the_cli_said(context, "it printed nothing")
        raise process_error(said, context, whole=what_the_cli_said(context, whole=True))
    return out


async def list_models(*, options: AgentOptions | None = None) -> list[Model]:
    """The models the CLI offers (parsed from ``cursor-agent models``, which has no JSON).

    Raises:
        AgentProtocolError: the output has no model lines.
        AgentError: as for a run (not found, not logged in, ...).

    Example::

        for model in await list_models():
            print(model.id, model.name)
    """
    out = await _output(["models"], options)
    models = []
    for line in out.splitlines():
        ident, sep, name = line.strip().partition(" - ")
        if sep and ident and " " not in ident:
            models.append(Model(ident, name.strip()))
    if not models:
        raise AgentProtocolError(
            f"`cursor-agent models` listed no models: {out.strip()!r}",
            context=ErrorContext(stdout_lines=out.splitlines()),
        )
    return models


async def status(*, options: AgentOptions | None = None) -> Status:
    """Whether the CLI is logged in (``cursor-agent status --format json``).

    Example::

        if not (await status()).is_authenticated:
            print("run `cursor-agent login` first")
    """
    out = await _output(["status", "--format", "json"], options)
    try:
        return msgspec.json.decode(out.strip().splitlines()[-1], type=Status)
    except (msgspec.DecodeError, IndexError, RecursionError) as exc:  # nested too deep
        raise AgentProtocolError(
            f"`cursor-agent status --format json` printed no status object: {out.strip()!r}",
            context=ErrorContext(stdout_lines=out.splitlines()),
        ) from exc


async def version(*, options: AgentOptions | None = None) -> str:
    """The CLI's version, e.g. ``"2026.10.01-e373342"`` (agent_sdk's own is
    ``agent_sdk.__version__``)."""
    return (await _output(["--version"], options)).strip()


async def create_chat(*, options: AgentOptions | None = None) -> str:
    """A new, empty chat (``cursor-agent create-chat``); its id is a ``session_id``.

    Example::

        chat = await create_chat()
        result = await run_async("Hello", options=AgentOptions(resume=chat))
    """
    lines = (await _output(["create-chat"], options)).split()
    if not lines:
        raise AgentProtocolError("`cursor-agent create-chat` printed no chat id")
    return lines[-1]
