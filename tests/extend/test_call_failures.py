"""One call's failure stays that call's (docs/extend.md, "When your code fails"): a tool or a
hook's callback that raises what is no ``Exception`` (a cancellation another task's, a
``SystemExit``, a test framework's failure) fails that call alone (a tool error, a gate that
denies), is kept for the program, and the host serves the next call; on asyncio and trio,
over the host's own socket as the relay speaks to it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import LIMIT, serving, short_temp_dir

from agent_sdk.extend import Hooks, ToolUse, tool
from agent_sdk.extend._host import ToolHost

pytestmark = pytest.mark.anyio


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "fails-") as where:
        yield where


async def foreign_cancellation() -> None:
    """Await something another task cancelled: on asyncio a cancelled future; on trio the
    ``Cancelled`` of a task whose scope was cancelled, handed over (trio has no futures)."""
    trio = sys.modules.get("trio")
    if trio is not None and trio.lowlevel.in_trio_run():
        caught: list[BaseException] = []

        async def victim() -> None:
            try:
                await anyio.sleep_forever()
            except anyio.get_cancelled_exc_class() as exc:
                caught.append(exc)
                raise

        async with anyio.create_task_group() as group:
            group.start_soon(victim)
            await anyio.wait_all_tasks_blocked()
            group.cancel_scope.cancel()
        raise caught[0]
    import asyncio

    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    future.cancel()
    await future


async def system_exit() -> None:
    raise SystemExit(3)


class FrameworkFailure(BaseException):
    """What a test framework raises (pytest's ``fail()`` is a ``BaseException``)."""


async def framework_failure() -> None:
    raise FrameworkFailure("the assertion in the callback failed")


FAILURES: dict[str, Callable[[], Any]] = {
    "foreign cancellation": foreign_cancellation,
    "SystemExit": system_exit,
    "a test framework's failure": framework_failure,
}


async def hook(host: ToolHost, payload: dict[str, Any]) -> dict[str, Any]:
    """One hook call as the relay makes it; the answer's JSON (exit code 0 asserted)."""
    with anyio.fail_after(LIMIT):
        stream = await anyio.connect_unix(host.socket_path)
        async with stream:
            await stream.send(host.token.encode() + b" hook\n" + json.dumps(payload).encode())
            await stream.send_eof()
            data = b""
            while True:
                try:
                    data += await stream.receive()
                except anyio.EndOfStream:
                    break
    head, _, rest = data.partition(b"\n")
    code, out, _ = (int(n) for n in head.split())
    assert code == 0, data
    return dict(json.loads(rest[:out]))


async def call(host: ToolHost, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One ``tools/call`` on a connection of its own; the result."""
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    with anyio.fail_after(LIMIT):
        stream = await anyio.connect_unix(host.socket_path)
        async with stream:
            await stream.send(host.token.encode() + b"\n" + json.dumps(message).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                data += await stream.receive()
    return dict(json.loads(data)["result"])


WRITE = {"hook_event_name": "preToolUse", "tool_name": "Write", "tool_input": {"a": 1}}


@pytest.mark.parametrize("failure", list(FAILURES), ids=str)
async def test_a_gate_that_fails_so_denies_alone_and_the_next_is_asked(
    temp_dir: Path, failure: str
) -> None:
    asked: list[str] = []

    async def gate(call: ToolUse) -> Any:
        asked.append(call.tool_name)
        if len(asked) == 1:
            await FAILURES[failure]()
        return "allow"

    async with serving(hooks=Hooks(before_tool=gate)) as host:
        first = await hook(host, WRITE)
        second = await hook(host, WRITE)
        errors = list(host.hook_errors)
    assert first["permission"] == "deny"
    assert "before_tool hook failed" in first["user_message"]
    assert second == {"permission": "allow"}
    assert asked == ["Write", "Write"]
    assert len(errors) == 1
    assert not isinstance(errors[0], Exception)


@pytest.mark.parametrize("failure", list(FAILURES), ids=str)
async def test_an_observer_that_fails_so_adds_nothing_and_is_kept(
    temp_dir: Path, failure: str
) -> None:
    async def after(_: Any) -> None:
        await FAILURES[failure]()

    used = {"hook_event_name": "postToolUse", "tool_name": "Write", "tool_input": {}}
    async with serving(hooks=Hooks(after_tool=after, before_tool=lambda _: "allow")) as host:
        assert await hook(host, used) == {}
        assert await hook(host, WRITE) == {"permission": "allow"}
        assert len(host.hook_errors) == 1


@pytest.mark.parametrize("failure", list(FAILURES), ids=str)
async def test_a_tool_that_fails_so_answers_an_error_and_the_next_call_runs(
    temp_dir: Path, failure: str
) -> None:
    @tool
    async def flaky(n: int) -> str:
        """Fail the first time."""
        if n == 1:
            await FAILURES[failure]()
        return f"ran {n}"

    async with serving([flaky]) as host:
        first = await call(host, "flaky", {"n": 1})
        second = await call(host, "flaky", {"n": 2})
        recorded = [(c.result, c.is_error) for c in host.calls]
        escaped = list(host.escaped)
    assert first["isError"] is True
    # What is no Exception and no cancellation is kept, to end the run (_guard.py).
    assert len(escaped) == (0 if failure == "foreign cancellation" else 1)
    assert second == {"content": [{"type": "text", "text": "ran 2"}], "isError": False}
    assert recorded[1] == ("ran 2", False)
