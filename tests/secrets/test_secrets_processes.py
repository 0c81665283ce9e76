"""The key in the processes the SDK starts: in no argv (but a ``--header`` value, which
docs/options say goes on the command line), and in the environment only as the variable
the CLI reads (``CURSOR_API_KEY``, or ``CURSOR_AUTH_TOKEN`` for ``auth_token=``), for
every surface that starts the CLI: a run, a query, a structured-output run and its
corrections, the live agent, a fleet."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from secrets_plant import KEY, MakeOptions, Spy, Verdict

from agent_sdk import AgentError, AgentOptions, AgentOutputError, run_async, status
from agent_sdk.fleet import Fleet, Task
from agent_sdk.live import LiveAgent

pytestmark = pytest.mark.anyio

# The variables that may hold the key, by plant: the CLI's own, nothing else.
HOLDERS = {
    "api_key": ["CURSOR_API_KEY"],
    "env": ["CURSOR_API_KEY"],
    "environ": ["CURSOR_API_KEY"],
    "auth_token": ["CURSOR_AUTH_TOKEN"],
    "header": [],
}
HEADER_ARG = f"--header=Authorization: Bearer {KEY}"


def assert_key_only_where_the_cli_reads_it(spy: Spy, plant: str) -> None:
    processes = spy.processes()
    assert processes  # the premise: the surface started the CLI through the spy
    for argv, env in processes:
        allowed = [HEADER_ARG] if plant == "header" else []  # only where it was given
        assert [arg for arg in argv if KEY in arg and arg not in allowed] == []
        assert sorted(name for name, value in env.items() if KEY in name + value) == HOLDERS[plant]


async def structured(options: AgentOptions) -> None:
    # The reply's value is out of the enum: msgspec's message quotes it (the key).
    with pytest.raises(AgentOutputError):
        await run_async("review", output_type=Verdict, options=options)


async def live(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        await session.send("hi")


async def fleet(options: AgentOptions) -> None:
    tasks = [Task(prompt="go", id=f"t{n}", options=options) for n in range(2)]
    seed = Path(options.cwd or ".") / "no-config"  # none: nothing of the user's is copied
    async with Fleet(tasks, limit=2, isolation=["config"], config_seed=seed) as running:
        outcomes = [outcome async for outcome in running]
    assert len(outcomes) == 2


async def query(options: AgentOptions) -> None:
    await status(options=options)


async def plain_run(options: AgentOptions) -> None:
    await run_async("go", options=options)


SURFACES: dict[str, Callable[[AgentOptions], Awaitable[None]]] = {
    "run": plain_run,
    "query": query,
    "structured output": structured,
    "live agent": live,
    "fleet": fleet,
}


@pytest.mark.parametrize("surface", list(SURFACES))
async def test_the_key_is_in_no_argv_and_only_in_the_clis_own_variable(
    surface: str,
    planted: MakeOptions,
    plant: str,
    spy: Spy,
    key_in_reply: Path,
    tmp_path: Path,
) -> None:
    options = planted(key_in_reply, binary=str(spy.binary), cwd=tmp_path)
    try:
        await SURFACES[surface](options)
    except AgentError as exc:
        raise AssertionError(f"the {surface} failed: {exc}") from exc
    assert_key_only_where_the_cli_reads_it(spy, plant)
    assert os.environ.get("CURSOR_API_KEY", KEY) == KEY  # nothing changed ours
