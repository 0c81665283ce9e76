"""What a print-mode transport needs of a run's own tools and hooks (docs/extend.md, "The
CLI's side"), named here so the transport never imports the extensions that serve them
(docs/architecture.md: no import runs back up the walk).

The run, which knows them, says how they are served through :data:`SERVE_TOOLS` around
its transport's start (``_run/engine.py``; ``extend/_home.py``'s ``with_tools``, given the
run's budget). A transport asked for tools with nobody to serve them refuses to start:
never a run whose tools silently are not there.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..options import AgentOptions, Invocation

__all__ = ["RELEASE_AT_EXIT", "SERVE_TOOLS", "ServeTools", "ServedTools", "ToolsHost"]


class ToolsHost(Protocol):
    """What the transport reads of the host answering the CLI (``extend/_host.py``)."""

    @property
    def names(self) -> Collection[str]:
        """The run's own tools' names."""
        ...

    @property
    def hooks(self) -> object | None:
        """The run's hooks, if it has any."""
        ...

    @property
    def reached(self) -> set[str]:
        """What the CLI has reached so far: ``"tools"``, ``"hooks"``."""
        ...

    @property
    def hook_errors(self) -> list[BaseException]:
        """What the hooks' callbacks raised."""
        ...

    @property
    def escaped(self) -> list[BaseException]:
        """What the tools raised that is no ``Exception``."""
        ...

    @property
    def calls(self) -> list[Any]:
        """The calls the tools answered."""
        ...

    async def aclose(self) -> None:
        """Stop serving, and wait (bounded) until the serving task has ended."""


class ServedTools(Protocol):
    """A run's tools and hooks being served: the host, and what holds it (released once
    the CLI's process group is dead)."""

    @property
    def host(self) -> ToolsHost:
        """The host answering the CLI."""
        ...

    def release(self) -> None:
        """End the host and remove what was made for it (synchronous, idempotent)."""


ServeTools = Callable[["Invocation", "AgentOptions"], "tuple[ServedTools, Invocation]"]
"""Serve a run's tools: the served tools, and the invocation as it must run to reach them."""

SERVE_TOOLS: ContextVar[ServeTools | None] = ContextVar("agent_sdk_serve_tools", default=None)
"""How the run being started serves its tools and hooks; set by the run around its
transport's start."""

RELEASE_AT_EXIT: list[Callable[[], None]] = []
"""What serves runs' tools and must go at the interpreter's exit, once the CLI groups are
dead (the hosts, the runs' HOMEs and plugin folders): each adds its release when it loads,
and the transport's exit hook calls them in that order (``subprocess.py``)."""
