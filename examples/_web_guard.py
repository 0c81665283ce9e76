"""Which requests ``sse_server.py`` answers: its own page's and the user's own tools'.

A server on 127.0.0.1 is reachable from every page the user's browser opens. Without a
check, any website could start agents on the user's machine (a form or an ``<img>`` sends
a request to any address), and after DNS rebinding (a site's name made to resolve to
127.0.0.1) read the stream and answer the agent's permission requests, up to "allow
always", which writes a rule into the user's global CLI config. So every request, the page
and its files included, in print and live mode alike, passes :class:`SameOriginOnly` first:

* ``Host`` must name this server: ``localhost``, ``127.0.0.1`` or ``[::1]`` with the
  server's own port, or a name the user allowed (``--allow-host``). A rebound name fails
  here, whatever the browser believes about origins.
* ``Origin``, when sent, must be this server's own origin (``http://`` and the ``Host``).
  Browsers send it with every ``POST`` and every ``fetch``; a page on any other origin, on
  another port of 127.0.0.1 too, fails here.
* ``Sec-Fetch-Site``, when sent, must be ``same-origin`` or ``none`` (the user typed the
  address). ``same-site``, which another port of 127.0.0.1 is, fails here, as does a
  ``cross-site`` link or ``<img>``.

A request with neither header (``curl``, scripts) is the user's own, and goes through.
Refused requests get ``403`` and reach nothing behind the check.

The other way round, the page itself loads only from its server: :data:`PAGE_POLICY`, its
Content-Security-Policy, allows scripts, styles, images (the favicon) and requests of its
own origin and nothing else, no inline script, and no frame of another site around it
(where a click on "Allow always" could be stolen).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["LOCAL_HOSTS", "PAGE_POLICY", "SameOriginOnly", "refusal"]

#: The names a local server answers to, as they appear in a ``Host`` header.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
#: What ``Sec-Fetch-Site`` says of a request the server's own page (or the user) sent.
OWN_SITE = ("same-origin", "none")
#: The page's Content-Security-Policy: its own origin's files and requests only.
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
    " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def split_host(host: str) -> tuple[str, int | None]:
    """``"name:port"`` as ``(name, port)``; ``port`` None when the header has none.
    A malformed port is reported as ``-1``, which matches no server."""
    name, colon, port = host.rpartition(":")
    if not colon or host.endswith("]"):  # no port ("[::1]" holds colons of its own)
        return host, None
    return name, int(port) if port.isdigit() else -1


class SameOriginOnly:
    """ASGI middleware: a request another site sent is refused (``403``) before it
    reaches the app; other scopes (the lifespan) pass through.

    ``allow_hosts``: names the server answers to besides :data:`LOCAL_HOSTS` (say, its
    name behind a reverse proxy): ``name`` with the server's own port, or ``name:port``.
    """

    def __init__(self, app: ASGIApp, allow_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.allow_hosts = tuple(host.strip().lower() for host in allow_hosts if host.strip())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            why = refusal(scope, self.allow_hosts)
            if why is not None:
                await PlainTextResponse(why + "\n", status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def refusal(scope: Scope, allow_hosts: Iterable[str] = ()) -> str | None:
    """Why this request is refused, or None when the server's own page or the user sent it."""
    headers = Headers(scope=scope)
    host = headers.get("host", "").lower()
    server = scope.get("server")
    own_port: int | None = server[1] if server else None  # None: a Unix socket
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    if not own_host(host, own_port, 443 if scheme == "https" else 80, allow_hosts):
        where = f"http://127.0.0.1:{own_port}/" if own_port else "the server's own address"
        return (
            f"Refused: Host {host!r} is not this server's. Open {where}, or start the"
            " server with --allow-host NAME to answer to another name."
        )
    origin = headers.get("origin")
    if origin is not None and origin.lower() != f"{scheme}://{host}":
        return (
            f"Refused: sent by a page of another origin ({origin!r}). Only this server's"
            " own page, or a tool that sends no Origin (curl), may use it."
        )
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() not in OWN_SITE:
        return (
            f"Refused: sent from another site (Sec-Fetch-Site: {site}). Open the page"
            " itself, by its address, rather than through a link on another site."
        )
    return None


def own_host(host: str, own_port: int | None, default_port: int, allowed: Iterable[str]) -> bool:
    """Whether a ``Host`` header names this server (a local name or an allowed one)."""
    name, port = split_host(host)
    port = default_port if port is None else port
    for entry in (*LOCAL_HOSTS, *allowed):
        entry_name, entry_port = split_host(entry)
        wanted = own_port if entry_port is None else entry_port
        if name == entry_name and (wanted is None or port == wanted):
            return True
    return False
