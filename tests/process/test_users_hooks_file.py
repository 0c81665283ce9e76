"""The user's own ``~/.cursor/hooks.json``, which a run with hooks merges into its own
(docs/extend.md, "How hooks reach the program"), read without ever blocking: one that is a
FIFO (or anything but a regular file) is refused at the start with words that say so,
instead of an ``open()`` that waits for a writer in the event loop, where no timeout can
fire. On asyncio and trio."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import anyio
import pytest
from extend_env import CONFIG, UserHome, short_temp_dir

from agent_sdk import AgentOptions, AgentStartError, run_async
from agent_sdk.extend import Hooks
from agent_sdk.extend._home import hooks_json
from agent_sdk.extend._host import ToolHost

pytestmark = pytest.mark.anyio

HANG_GUARD = 20  # seconds: a read that blocks fails here instead of hanging CI


@pytest.fixture(autouse=True)
def hang_guard() -> Iterator[None]:
    """A blocked ``open()`` holds the event loop, where no ``fail_after`` can fire: an
    alarm interrupts it instead."""

    def hung(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"still blocked after {HANG_GUARD} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG_GUARD)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "uhooks-", tmpdir_env=True) as where:
        yield where


def allow(_: object) -> str:
    return "allow"


def test_a_fifo_is_refused_in_words_and_never_opened_for_good(temp_dir: Path) -> None:
    theirs = temp_dir / "hooks.json"
    os.mkfifo(theirs)
    host = ToolHost([], hooks=Hooks(before_tool=allow))
    host.open()
    try:
        with pytest.raises(AgentStartError) as caught:
            hooks_json(host, theirs)
    finally:
        host.close()
    assert str(theirs) in caught.value.message
    assert "FIFO" in caught.value.message
    assert caught.value.hint is not None


def test_a_directory_is_refused_too(temp_dir: Path) -> None:
    theirs = temp_dir / "hooks.json"
    theirs.mkdir()
    host = ToolHost([], hooks=Hooks(before_tool=allow))
    host.open()
    try:
        with pytest.raises(AgentStartError, match="directory"):
            hooks_json(host, theirs)
    finally:
        host.close()


def test_a_missing_file_is_none_of_theirs(temp_dir: Path) -> None:
    host = ToolHost([], hooks=Hooks(before_tool=allow))
    host.open()
    try:
        assert b'"preToolUse"' in hooks_json(host, temp_dir / "none.json")
    finally:
        host.close()


async def test_a_run_with_hooks_fails_to_start_instead_of_blocking_its_loop(
    temp_dir: Path, fake_binary: str
) -> None:
    user = UserHome(temp_dir, CONFIG)
    os.mkfifo(user.cursor / "hooks.json")
    workspace = temp_dir / "ws"
    workspace.mkdir()
    options = AgentOptions(
        binary=fake_binary,
        cwd=workspace,
        env=user.run_env(FAKE_AGENT_SCENARIO="hello"),
        hooks=Hooks(before_tool=allow),
        tools_channel="home",  # the channel that reads the user's file (the plugin's does not)
        timeout=5,
    )
    refused = pytest.raises(AgentStartError, match=r"hooks\.json is a FIFO")
    with anyio.fail_after(HANG_GUARD), refused:
        await run_async("hi", options=options)
