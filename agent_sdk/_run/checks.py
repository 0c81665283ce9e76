"""What a run given tools, hooks, a budget or a checkpoint adds to its reads (docs/extend.md,
"Never silently bypassed" and "When your code fails"; docs/budgets.md; docs/sessions.md,
"Checkpointed runs"): the budget asked before its own tools run, the check that the CLI
reached its tools and hooks, the end of a run whose callback raised what is no
``Exception``, the stop at a limit or a failed check, and the snapshots of its tree
before and after it. The base of ``RunEngine`` (``_run/engine.py``); split from it to keep
each class small. A plain run pays for none of it: each is behind a test of a value that
is ``None`` (or false)."""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from .._transport.served_tools import SERVE_TOOLS, ServeTools
from ..errors import AgentCheckpointError, AgentError, ErrorContext
from ..events import Event
from .attributes import RunAttributes
from .outcome import context

if TYPE_CHECKING:
    from .._options.redaction import Redaction
    from ..options import AgentOptions
    from .checkpointed import Checkpointed
    from .spending import Hit, Spending
    from .tool_budget import OwnToolCalls

__all__ = ["RunChecks"]


class RunChecks(RunAttributes):
    """The checks of a run given tools, hooks or a budget (see the module's docstring)."""

    _options: AgentOptions
    _redaction: Redaction
    _spending: Spending | None
    _own_calls: OwnToolCalls | None
    _channel: Callable[[], tuple[str, ...] | None] | None
    _stopped_by: AgentError | None
    _checkpointed: Checkpointed | None

    def _stopped(self) -> None:
        """The run was stopped (its error is ready): the engine's state says so."""
        raise NotImplementedError

    def _serving(self) -> contextvars.Token[ServeTools | None] | None:
        """A run given tools or hooks: how its transport serves them
        (``_transport/served_tools.py``), told through the context of the transport's
        start; with a budget, the host consults it before it runs a call of the run's own
        tools (``_run/tool_budget.py``)."""
        if not self._options.tools and self._options.hooks is None:
            return None
        from ..extend._home import with_tools

        serve: ServeTools = with_tools
        if self._spending is not None and self._options.tools:
            from .tool_budget import OwnToolCalls

            self._own_calls = OwnToolCalls(self._spending)
            serve = functools.partial(with_tools, admit=self._own_calls.admit)
        return SERVE_TOOLS.set(serve)

    async def _checkpoint_begin(self) -> None:
        """A run that asked for a checkpoint: its tree held as a run in progress and
        snapshot, before the CLI starts; labelled with the chat id when it is known."""
        from .checkpointed import Checkpointed, asked_by_option, tree_of

        options = self._options
        label = options.new_session_id or options.resume
        try:
            self._checkpointed = await Checkpointed.begin(tree_of(options), label)
        except AgentCheckpointError as exc:  # the option's failure: said so
            raise self._redaction.error(asked_by_option(exc)) from exc

    async def _checkpoint_end(self, error: BaseException | None = None) -> None:
        """The run is over and its CLI gone: the snapshot after it, the tree let go;
        ``error``, the run's, then carries the checkpoint and what the run changed."""
        checkpointed = self._checkpointed
        if checkpointed is not None:
            await checkpointed.end()
            if isinstance(error, AgentError):
                checkpointed.attach(error, self._redaction.text if self._redaction else None)

    async def _spent(self, events: list[Event], keep: int, hit: Hit) -> list[Event]:
        """A limit reached: the events up to the one that went over it, then the run's
        error (docs/budgets.md)."""
        from .spending import budget_error

        own = self._own_calls is not None and hit is self._own_calls.hit
        before = "the call was answered with an error, not run; " if own else ""
        return await self._stop(
            events, keep, lambda ctx, then: budget_error(hit, ctx, then=before + then)
        )

    async def _check_channel(self, events: list[Event]) -> list[Event]:
        """At the first event of the agent at work: the run's tools and hooks reached, or
        the events before it, then :class:`~agent_sdk.errors.AgentChannelError`."""
        from .channel_check import channel_error, first_act

        at = first_act(events)
        if at is None:
            return events
        assert self._channel is not None
        missing, self._channel = self._channel(), None
        if not missing:
            return events
        channel = self._options.tools_channel
        return await self._stop(events, at, lambda ctx, _: channel_error(missing, channel, ctx))

    async def _stop(
        self,
        events: list[Event],
        keep: int,
        error: Callable[[ErrorContext, str], AgentError],
    ) -> list[Event]:
        """Stop the run at ``events[keep]``: the events before it (the rest of the read is
        dropped: what is delivered does not depend on how the output was cut), the CLI
        ended, the error ready for the next step."""
        self._stream.forget(events[keep:])
        del events[keep:]
        transport = self._transport
        assert transport is not None
        await transport.aclose()
        ctx = context(
            self._stream,
            exit_code=transport.returncode,
            stderr=transport.stderr_tail(),
            redaction=self._redaction,
            cli_version=self.cli_version,
        )
        said = f"{self._stream.received} events (session {self._stream.session_id})"
        then = f"its process group was ended after {said}"
        self._stopped_by = self._redaction.error(error(ctx, then))
        self._stopped()
        return events

    def _check_callbacks(self) -> None:
        """A tool or a hook's callback raised what is no ``Exception``: the run ends with
        it (docs/extend.md, "When your code fails"), a ``KeyboardInterrupt`` as itself."""
        from ..extend._guard import ends_the_run

        tools: list[BaseException] = getattr(self._transport, "escaped", None) or []
        hooks = self.hook_errors
        if not tools and not hooks:
            return  # what nearly every read finds
        hooks = [e for e in hooks if ends_the_run(e)]
        if not tools and not hooks:
            return
        first = (tools or hooks)[0]
        if isinstance(first, KeyboardInterrupt):
            raise first
        from ..errors import AgentCallbackError
        from ..extend._calls import exception_text

        where = "tool" if tools else "hook's callback"
        ctx = context(self._stream, exit_code=None, stderr="", redaction=self._redaction)
        error = AgentCallbackError(
            f"a {where} raised {exception_text(first)}, which is no Exception: that call "
            "failed, and the run was ended",
            errors=tools + hooks,
            context=ctx,
            hint="to fail one call and go on, raise an Exception: a tool's is the error the "
            "agent reads, a gate's denies the call; what was raised is on .errors",
        )
        raise self._redaction.error(error) from first
