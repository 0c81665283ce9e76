"""An HTTP request as uvicorn hands it to an ASGI app, for driving the example web server
(examples/sse_server.py) in-process without a socket."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import anyio

SERVER = "127.0.0.1:8000"  # what the scopes say the server listens on


def asgi_scope(
    path: str = "/run",
    query: bytes = b"",
    method: str = "POST",
    headers: Sequence[tuple[bytes, bytes]] = (),
) -> dict[str, Any]:
    """The scope of a request from a client like curl (no ``Origin``) to ``SERVER``, with a
    JSON body and any more ``headers``."""
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},  # as uvicorn says
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "headers": [(b"host", SERVER.encode()), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


def receive_body(
    body: bytes, then: Callable[[], Awaitable[object]] = anyio.sleep_forever
) -> Callable[[], Awaitable[dict[str, Any]]]:
    """An ASGI ``receive``: the request's whole body in one message, then, once ``then()``
    returns (by default never: the client stays), the client's disconnect."""
    given = False

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await then()
        return {"type": "http.disconnect"}

    return receive
