"""The fake CLI's ACP mode: ``fake-cursor-agent [global options] acp`` (docs/acp.md).

A JSON-RPC 2.0 agent on stdin/stdout whose turns are played from ACP scenarios
(``fake_agent/scenarios/acp/``, documented in its README).
"""

from __future__ import annotations

import os

from .._models import FAKE_MODELS
from .._wire import write_stderr
from ._state import BARE_MODELS, BRACKET_MODELS

#: What ``acp --help`` describes the subcommand as (docs/acp.md §1).
DESCRIPTION = "Start the Cursor Agent as an ACP (Agent Client Protocol) server"


def run_acp(model: str | None, api_key: str | None, force: bool) -> int:
    """Run the ACP server; the process's exit code.

    A ``--model`` the account cannot use fails at spawn: stderr
    ``Cannot use this model: X. Available models: ...``, exit 1 (docs/acp.md §1).
    """
    known = [*FAKE_MODELS, *BRACKET_MODELS, *BARE_MODELS]
    if model is not None and model not in known:
        write_stderr(f"Cannot use this model: {model}. Available models: {', '.join(known)}\n")
        return 1
    from ._server import run_server

    return run_server(os.environ, api_key, force)


__all__ = ["DESCRIPTION", "run_acp"]
