"""An HTTP request as uvicorn hands it to an ASGI app, for driving the example web server
(examples/sse_server.py) in-process without a socket."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
