"""Test kit for code built on agent_sdk (docs/testing.md): the bundled fake agent as a
pytest fixture, recording of real runs as scenario files, and :class:`MemoryTransport`,
a scripted CLI played in-process (``run(prompt, transport=MemoryTransport([...]))``); for
the live agent, ``memory_acp.MemoryAcpTransport`` (``LiveAgent(transport=...)``).

Importing it needs no pytest: only the fixture does. The fixture ``fake_cursor_agent`` is
registered as a pytest plugin when agent_sdk is installed (``-p agent_sdk`` where
plugins do not load on their own). It points every run of the test (``run()``,
``run_sync()``, ``Session``...) with default options at the fake agent, which plays a
scenario: one of the bundled ones, or your own ``.ndjson`` files (see
``fake_agent/scenarios/README.md`` for the format; :func:`record` writes one from a real
run)::

    def test_bot_replies(fake_cursor_agent):
        fake_cursor_agent.use("tools")             # or a path, or a name in your dirs
        assert "test" in my_bot.answer("add a test")

Name your scenario directories in pytest's configuration to use files by name::

    [tool.pytest.ini_options]
    agent_sdk_scenarios = ["tests/scenarios"]
"""

from typing import TYPE_CHECKING

from ._fake import FakeAgent
from ._record import record
from .memory import Exit, MemoryTransport, Output, Pause, Stderr, Step

if TYPE_CHECKING:
    from ._plugin import fake_cursor_agent
else:
    # The fixture's module imports pytest, which a program using MemoryTransport or
    # record() need not have: loaded on first use (pytest itself loads it as a plugin).
    def __getattr__(name: str) -> object:
        if name != "fake_cursor_agent":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        try:
            from ._plugin import fake_cursor_agent
        except ImportError as exc:
            if exc.name not in ("pytest", "_pytest"):
                raise
            raise ImportError(
                "agent_sdk.testing.fake_cursor_agent is a pytest fixture: it needs pytest "
                "(pip install pytest); MemoryTransport, record() and the fake agent "
                "(fake_agent.executable()) do not",
                name=exc.name,
            ) from exc
        globals()[name] = fake_cursor_agent
        return fake_cursor_agent

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})


__all__ = [
    "Exit",
    "FakeAgent",
    "MemoryTransport",
    "Output",
    "Pause",
    "Stderr",
    "Step",
    "fake_cursor_agent",
    "record",
]
