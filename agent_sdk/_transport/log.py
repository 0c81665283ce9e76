"""The SDK's loggers: ``agent_sdk`` and one child per layer (docs/traces.md, "Logging").

Lifecycle steps only (a CLI started, a signal sent, a timeout, a retry, a sweep), at DEBUG
and INFO (WARNING: a checkpoint left unfinished), never an event of the stream and never a
secret. Silent by default: the ``agent_sdk`` logger gets a ``NullHandler`` (the library
rule: never a handler of ours on the root); the program adds a handler or sets a level to
see them.

``logging`` is not imported here: a program that never imported it has no handler that
could receive a record, so nothing is logged and nothing is paid (importing ``logging``
costs a short script about 5 ms, docs/benchmarks.md, "The cold start"). Each call looks
whether the program has imported it since.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from logging import Logger

    from ..options import Invocation

__all__ = ["DEBUG", "INFO", "ROOT", "WARNING", "log", "logger", "shown_argv"]

ROOT = "agent_sdk"
# logging's levels, as constants: its import is the program's choice
DEBUG, INFO, WARNING = 10, 20, 30

_loggers: dict[str, Logger] = {}


def logger(layer: str) -> Logger | None:
    """The logger ``agent_sdk.<layer>``; ``None`` while the program has not imported
    ``logging`` (nobody can be listening)."""
    found = _loggers.get(layer)
    if found is not None:
        return found
    logging = sys.modules.get("logging")
    if logging is None:
        return None
    root = logging.getLogger(ROOT)
    if not any(isinstance(handler, logging.NullHandler) for handler in root.handlers):
        root.addHandler(logging.NullHandler())
    made: Logger = logging.getLogger(f"{ROOT}.{layer}")
    _loggers[layer] = made
    return made


def log(layer: str, level: int, message: str, *args: object) -> None:
    """Log ``message % args`` on ``agent_sdk.<layer>``, if anyone listens at ``level``.
    Never pass a secret: the arguments are shown as they are."""
    found = logger(layer)
    if found is not None and found.isEnabledFor(level):
        found.log(level, message, *args)


def shown_argv(invocation: Invocation) -> str:
    """The command line of ``invocation`` as a log shows it: every header value and every
    secret the child's environment holds replaced by ``***``, and the prompt (after
    ``--``) by its length: a prompt is the user's data, not a lifecycle step."""
    from .._options.redaction import MIN_SECRET_CHARS, SECRET_VARIABLES, Redaction, redacted_argv

    argv = redacted_argv(invocation.argv)
    if "--" in argv:
        cut = argv.index("--")
        prompt = " ".join(argv[cut + 1 :])
        argv = [*argv[:cut], "--", f"<prompt: {len(prompt)} characters>"]
    elif invocation.stdin is not None:
        argv = [*argv, f"<prompt on stdin: {len(invocation.stdin)} bytes>"]
    secrets = [invocation.env.get(name) or "" for name in SECRET_VARIABLES]
    redaction = Redaction([secret for secret in secrets if len(secret) >= MIN_SECRET_CHARS])
    return redaction.text(" ".join(argv))
