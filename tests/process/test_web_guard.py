"""examples/sse_server.py answers only its own page and the user's own tools.

A request another site sent (a foreign ``Host``: DNS rebinding; an ``Origin`` or
``Sec-Fetch-Site`` of another site) is refused with 403 and starts, stops or answers
nothing; a run starts only on a ``POST``; runs are capped; a client that never reads does
not keep its run. Driven in-process (httpx's ASGI transport, raw ASGI calls) on asyncio
and trio; the page under a real browser's attack is in test_web_page.py, the live mode's
approvals in test_web_server.py.
"""

# ruff: noqa: F811  (the fixture `sse_server` is imported, then named as an argument)
from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any

import anyio
import httpx
import pytest
from asgi_request import SERVER, asgi_scope, receive_body
from example_runs import HANG_GUARD, parse_sse, sse_server  # noqa: F401  (a fixture)
from proctable import children, is_running
from starlette.responses import PlainTextResponse

pytestmark = pytest.mark.anyio

STALL = {"prompt": "scenario:stall"}  # a first segment, then an hour of silence
FOREIGN: list[dict[str, str]] = [
    {"host": "attacker.example:8000"},  # DNS rebinding: the page's own origin, our address
    {"host": "attacker.example:8000", "origin": "http://attacker.example:8000"},
    {"host": "127.0.0.1:9999"},  # another port: another server's name
    {"origin": "http://127.0.0.1:9999"},  # a page on another port of 127.0.0.1
    {"origin": "https://attacker.example"},
    {"origin": "null"},  # a sandboxed frame, a file:// page
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site"},  # what another port of 127.0.0.1 is
]


async def call(
    module: ModuleType, method: str, path: str, headers: dict[str, str] | None = None, **kw: Any
) -> httpx.Response:
    """One request to the app, as from a client of ``http://127.0.0.1:8000``."""
    transport = httpx.ASGITransport(app=module.app)
    async with httpx.AsyncClient(transport=transport, base_url=f"http://{SERVER}") as client:
        with anyio.fail_after(HANG_GUARD):
            return await client.request(method, path, headers=headers, **kw)


def raw_run(
    module: ModuleType, body: dict[str, str], wait_for: bytes, headers: list[tuple[bytes, bytes]]
) -> tuple[Callable[[], Awaitable[None]], list[bytes], anyio.Event]:
    """A ``POST /run`` whose client stays until cancelled: (the call, the bodies sent, an
    event set once a body holding ``wait_for`` was sent)."""
    sent: list[bytes] = []
    seen = anyio.Event()
    payload = httpx.Request("POST", "http://x/", json=body).read()

    receive = receive_body(payload)

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            sent.append(message["body"])
            if wait_for in message["body"]:
                seen.set()

    scope = asgi_scope(headers=headers)

    async def run() -> None:
        await module.app(scope, receive, send)

    return run, sent, seen


# --- what is refused ------------------------------------------------------------------
@pytest.mark.parametrize(
    "headers", FOREIGN, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items())
)
async def test_a_run_another_site_asks_for_is_refused_and_starts_no_process(
    sse_server: ModuleType, headers: dict[str, str]
) -> None:
    before = set(children())
    response = await call(sse_server, "POST", "/run", headers=headers, json=STALL)
    assert response.status_code == 403
    assert "Refused" in response.text
    assert set(children()) == before  # no agent was started
    assert sse_server.RUNS == {}


async def test_the_page_is_not_served_under_another_name(sse_server: ModuleType) -> None:
    # After DNS rebinding the attacker's page would read ours, and with it the streams.
    response = await call(sse_server, "GET", "/", headers={"host": "attacker.example:8000"})
    assert response.status_code == 403
    assert "--allow-host" in response.text  # how to fix it, if the name is the user's


async def test_a_get_never_starts_a_run(sse_server: ModuleType) -> None:
    # <img src> and links send a GET from any site, with no Origin.
    before = set(children())
    response = await call(sse_server, "GET", "/run", params=STALL)
    assert response.status_code == 405
    assert set(children()) == before


async def test_a_run_needs_a_json_body(sse_server: ModuleType) -> None:
    # A form's POST (a "simple" request no browser asks leave for) is not a run either.
    before = set(children())
    response = await call(sse_server, "POST", "/run", data=STALL)
    assert response.status_code == 415
    assert set(children()) == before


async def test_a_stop_another_site_sends_is_refused_and_the_run_goes_on(
    sse_server: ModuleType,
) -> None:
    before = set(children())
    run, sent, seen = raw_run(sse_server, STALL, b"event: text", [])
    with anyio.fail_after(HANG_GUARD):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await seen.wait()
            run_id = parse_sse(sent[0].decode())[0][1]["run"]
            agents = set(children()) - before
            for headers in FOREIGN:
                refused = await call(
                    sse_server, "POST", "/stop", headers=headers, params={"run": run_id}
                )
                assert refused.status_code == 403, headers
            assert run_id in sse_server.RUNS
            assert agents
            assert all(is_running(pid) for pid in agents)

            stopped = await call(sse_server, "POST", "/stop", params={"run": run_id})
            assert stopped.json() == {"stopped": True}
    assert not any(is_running(pid) for pid in agents)


# --- what goes through ----------------------------------------------------------------
@pytest.mark.parametrize(
    "headers",
    [
        {},  # curl, a script: no Origin, no Sec-Fetch-Site
        {"origin": f"http://{SERVER}", "sec-fetch-site": "same-origin"},  # the page's fetch
        {"host": "localhost:8000", "origin": "http://localhost:8000"},
    ],
    ids=["curl", "own-page", "localhost"],
)
async def test_the_users_own_tools_and_page_run_prompts(
    sse_server: ModuleType, headers: dict[str, str]
) -> None:
    prompt = {"prompt": "scenario:cart Add a test"}
    response = await call(sse_server, "POST", "/run", headers=headers, json=prompt)
    assert response.status_code == 200, response.text
    assert [kind for kind, _ in parse_sse(response.text)][-1] == "done"


async def test_a_name_the_user_allowed_is_answered(sse_server: ModuleType) -> None:
    # --allow-host NAME (AGENT_SDK_EXAMPLES_ALLOW_HOSTS): the server's name behind a proxy.
    app = PlainTextResponse("the app")
    guard = sse_server.SameOriginOnly(app, allow_hosts=["box.lan", "proxy:443"])
    transport = httpx.ASGITransport(app=guard)
    async with httpx.AsyncClient(transport=transport, base_url=f"http://{SERVER}") as client:
        for host, status in [("box.lan:8000", 200), ("proxy:443", 200), ("box.lan:9", 403)]:
            response = await client.get("/", headers={"host": host})
            assert response.status_code == status, host


# --- limits ---------------------------------------------------------------------------
async def test_runs_beyond_the_cap_are_refused_with_429(
    sse_server: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sse_server, "MAX_RUNS", 1)
    run, sent, seen = raw_run(sse_server, STALL, b"event: text", [])
    with anyio.fail_after(HANG_GUARD):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await seen.wait()
            before = set(children())
            response = await call(sse_server, "POST", "/run", json=STALL)
            assert response.status_code == 429
            assert "--max-runs" in response.json()["error"]
            assert set(children()) == before  # no second agent
            run_id = parse_sse(sent[0].decode())[0][1]["run"]
            await call(sse_server, "POST", "/stop", params={"run": run_id})
    again = await call(sse_server, "POST", "/run", json={"prompt": "scenario:hello"})
    assert again.status_code == 200  # the slot is free once the run has ended


async def test_a_client_that_never_reads_loses_its_run_and_its_process(
    sse_server: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A client that stops reading: the server's send() waits for room in the socket for
    # ever (uvicorn's flow control). Past SEND_TIMEOUT the client is taken as gone.
    monkeypatch.setattr(sse_server, "SEND_TIMEOUT", 0.2)
    before = set(children())
    agents: set[int] = set()
    sent: list[bytes] = []

    receive = receive_body(httpx.Request("POST", "http://x/", json=STALL).read())  # stays

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            sent.append(message["body"])
            if b"event: text" in message["body"]:
                agents.update(set(children()) - before)
                await anyio.sleep_forever()  # never read again

    scope = asgi_scope()
    with anyio.fail_after(HANG_GUARD):
        await sse_server.app(scope, receive, send)
    assert agents, "the agent was not running while the run streamed"
    assert not any(is_running(pid) for pid in agents)
    assert sse_server.RUNS == {}
