"""The test parts the lean ``test`` extra leaves out, and what a test says without them.

The README's test command installs the ``test`` extra: the suite a contributor runs. The
parts users use for real but a contributor need not install (Ray, a browser, a terminal
emulator, the official ACP and MCP clients, the OpenTelemetry SDK, a web framework) come
with the ``test-full`` extra, and the tests that use them are marked ``heavy``
(``tests/conftest.py``: ``HEAVY``), which CI runs (``pytest -m heavy``).

``need("pyte", "a terminal emulator")`` imports a part or skips the test (or the whole
module, at import) with a reason that names the extra. Under ``AGENT_SDK_FULL_TESTS=1``
(CI's heavy run) a missing part fails instead: there it is a broken install.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

FULL_EXTRA = "pip install -e '.[test-full]'"


def reason(what: str, module: str) -> str:
    return f"needs {what} ({module}), which the test-full extra installs: {FULL_EXTRA}"


def need(module: str, what: str) -> ModuleType:
    """The module, or a skip (a failure in CI's heavy run) that says how to get it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        why = reason(what, module)
        if os.environ.get("AGENT_SDK_FULL_TESTS"):
            pytest.fail(f"CI's heavy run must have every part: {why}", pytrace=False)
        pytest.skip(why, allow_module_level=True)
