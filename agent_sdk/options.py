"""What a run is asked to do: :class:`AgentOptions`, the one place a caller configures a
run, and :func:`build_invocation`, the CLI's argv, stdin and environment it becomes (pure:
what the SDK will execute can be inspected without running it).

The public home of both; they are made in ``_options/agent_options.py`` and
``_options/invocation.py``, which import nothing from here.
"""

from ._options.agent_options import (
    AgentOptions,
    Mode,
    OutputFormat,
    Sandbox,
    given_options,
    given_prompt,
)
from ._options.invocation import Invocation, build_invocation, child_environment

__all__ = [
    "AgentOptions",
    "Invocation",
    "Mode",
    "OutputFormat",
    "Sandbox",
    "build_invocation",
    "child_environment",
    "given_options",
    "given_prompt",
]
