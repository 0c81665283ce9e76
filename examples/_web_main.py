"""``python examples/sse_server.py [--live] [--allow-host NAME] [--max-runs N] [PORT]``: the
web page's command line.

Only the standard library here: ``sse_server.py`` hands over to :func:`main` before it
imports Starlette, so ``--help`` works, and a missing Starlette or uvicorn is said in one
line with what to install, without either installed (``pip install .`` leaves them out:
they are the ``web`` extra).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

__all__ = [
    "ALLOW_HOSTS_ENV",
    "LIVE_ENV",
    "MAX_RUNS_ENV",
    "SHUTDOWN_WAIT",
    "default_max_runs",
    "main",
]

LIVE_ENV = "AGENT_SDK_EXAMPLES_LIVE"  # "1": live mode (what --live sets)
ALLOW_HOSTS_ENV = "AGENT_SDK_EXAMPLES_ALLOW_HOSTS"  # names besides localhost, comma-separated
MAX_RUNS_ENV = "AGENT_SDK_EXAMPLES_MAX_RUNS"
SHUTDOWN_WAIT = 5  # seconds stopped runs may take to end at shutdown; then they are cancelled


def default_max_runs() -> int:
    """Runs at once: ``AGENT_SDK_EXAMPLES_MAX_RUNS``, else 4 (each is an agent process
    working on the user's machine)."""
    return int(os.environ.get(MAX_RUNS_ENV) or 4)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a finder that knows it is missing, or a broken install
        return False


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="sse_server.py", description="The example web page (examples/README.md)."
    )
    parser.add_argument("port", nargs="?", type=int, default=8000)
    parser.add_argument("--live", action="store_true", help="one live agent (cursor-agent acp)")
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="answer to this name too (NAME or NAME:PORT), besides localhost and 127.0.0.1",
    )
    parser.add_argument(
        "--max-runs", type=int, metavar="N", help=f"runs at once ({default_max_runs()})"
    )
    args = parser.parse_args()
    missing = [name for name in ("starlette", "uvicorn") if not _installed(name)]
    if missing:
        parser.exit(
            2,
            f"{parser.prog}: error: the web page needs Starlette and uvicorn, which are not "
            "installed: pip install -e '.[web]' (from the repository's root)\n",
        )
    # The app is made at import: these reach it through the environment.
    if args.live:
        os.environ[LIVE_ENV] = "1"
    if args.allow_host:
        os.environ[ALLOW_HOSTS_ENV] = ",".join(args.allow_host)
    if args.max_runs is not None:
        os.environ[MAX_RUNS_ENV] = str(args.max_runs)
    if args.port:
        print(f"open http://127.0.0.1:{args.port}/", file=sys.stderr)
    # Imported by name (sse_server.py is __main__, stopped at its start): the app is made
    # at import, in the mode just chosen.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import sse_server
    from _web_process import serve

    served = sse_server.app, sse_server.stop_runs, sse_server.cancel_runs
    return serve(*served, host="127.0.0.1", port=args.port, shutdown_wait=SHUTDOWN_WAIT)
