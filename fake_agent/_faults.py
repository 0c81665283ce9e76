"""The fault modes: a stalled, hung, crashed, killed or misbehaving CLI.

Each ``run_*`` function performs one directive of ``scenarios/README.md``; each
``check_*`` function validates a directive's values beyond their types, when the
scenario loads. :func:`stdin_delay` reads the one fault mode set by the environment
(``$FAKE_AGENT_STDIN_DELAY``, a CLI slow to read its prompt). Heavier modules (signal,
random, base64) are imported only by the directive that needs them, so the fake still
starts fast.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from ._huge import huge_text
from ._wire import set_drip

#: Env var overriding the size of every ``huge_line`` (tests use a small one).
HUGE_LINE_BYTES_ENV = "FAKE_AGENT_HUGE_LINE_BYTES"

#: Default length of a ``stall``: an hour, far beyond any test's patience.
DEFAULT_STALL_SECONDS = 3600.0

#: Size of each stderr write of a ``stderr_flood``.
FLOOD_CHUNK = 64 * 1024

#: What the child left by ``hang`` (with ``linger_child``) and ``exit_leaving_child``
#: runs (a stand-in for node's helpers and the tools' subprocesses).
LINGER_CODE = "import time; time.sleep(3600)"

#: Env var: seconds to wait before reading a prompt given on stdin (a CLI that reads a
#: long prompt slowly, so that a wrapper's write to its stdin blocks).
STDIN_DELAY_ENV = "FAKE_AGENT_STDIN_DELAY"

#: Exit code of ``exit_leaving_child`` when the scenario gives none.
DEFAULT_LEAVING_EXIT_CODE = 1


class FaultContext(Protocol):
    """What a fault directive may act on (a subset of the run's context)."""

    #: The process exit code at the end of the run.
    exit_code: int

    def emit(self, event: dict[str, Any]) -> None:
        """Send a wire event through the run (patched, then rendered)."""

    def stdout_bytes(self, data: bytes) -> None:
        """Write bytes to stdout exactly, in every output format."""

    def stderr_text(self, text: str) -> None:
        """Write text to stderr."""


# --------------------------------------------------------------------------- checks


def _non_negative(spec: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        if key in spec and spec[key] < 0:
            return f"directive {spec['fake']!r} needs {key!r} >= 0"
    return None


def check_stall(spec: dict[str, Any]) -> str | None:
    """``seconds``, when given, is not negative."""
    return _non_negative(spec, "seconds")


def check_raw(spec: dict[str, Any]) -> str | None:
    """Exactly one of ``text`` and ``base64``; the base64 decodes."""
    if ("text" in spec) == ("base64" in spec):
        return "directive 'raw' needs exactly one of 'text' and 'base64'"
    if "base64" in spec:
        import base64
        import binascii

        try:
            base64.b64decode(spec["base64"], validate=True)
        except (binascii.Error, ValueError) as exc:
            return f"directive 'raw' has invalid 'base64': {exc}"
    return None


def check_sizes(spec: dict[str, Any]) -> str | None:
    """``bytes`` is not negative."""
    return _non_negative(spec, "bytes")


def check_kill(spec: dict[str, Any]) -> str | None:
    """``signal`` names a signal this platform has."""
    name = spec.get("signal", "SIGKILL")
    if _signal_number(name) is None:
        return f"directive 'kill' has an unknown signal {name!r}"
    return None


def check_drip(spec: dict[str, Any]) -> str | None:
    """``bytes`` is at least 1; ``interval`` is not negative."""
    if spec.get("bytes", 1) < 1:
        return "directive 'drip' needs 'bytes' >= 1"
    return _non_negative(spec, "interval")


def check_exit_code(spec: dict[str, Any]) -> str | None:
    """``code``, when given, is an exit status a process can have (0 to 255)."""
    if not 0 <= spec.get("code", DEFAULT_LEAVING_EXIT_CODE) <= 255:
        return f"directive {spec['fake']!r} needs 'code' from 0 to 255"
    return None


def seconds_env(environ: Mapping[str, str], name: str) -> float:
    """A number of seconds >= 0 from ``environ[name]``; 0 when unset or empty.

    Raises:
        ValueError: anything else (``str()`` says so).
    """
    raw = environ.get(name, "")
    if not raw:
        return 0.0
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds >= 0):
        raise ValueError(f"{name} must be a number of seconds >= 0, not {raw!r}")
    return seconds


def stdin_delay(environ: Mapping[str, str]) -> float:
    """Seconds to wait before reading a prompt from stdin: ``$FAKE_AGENT_STDIN_DELAY``,
    0 when unset or empty.

    Raises:
        ValueError: the value is not a finite number of seconds >= 0 (``str()`` says so).
    """
    return seconds_env(environ, STDIN_DELAY_ENV)


def _signal_number(name: str) -> int | None:
    import signal

    if not name.startswith("SIG") or name.startswith("SIG_"):
        return None
    number = getattr(signal, name, None)
    return int(number) if isinstance(number, signal.Signals) else None


# --------------------------------------------------------------------------- actions


def run_stall(spec: dict[str, Any], ctx: FaultContext) -> None:
    """Write nothing for a long while, alive and with stdout open."""
    time.sleep(float(spec.get("seconds", DEFAULT_STALL_SECONDS)))


def _start_lingering_child() -> int:
    """Start a child that sleeps for an hour; return its pid.

    Same process group and session as the fake (no new session): whoever ends the run
    must end the whole group, as with the real CLI's node and tool subprocesses. The
    child inherits stdout and stderr (stdin is /dev/null), so they stay open while it
    lives. ``posix_spawn`` rather than ``subprocess``: a ``Popen`` still running when
    the fake exits would warn about it on the way out.
    """
    argv = [sys.executable, "-c", LINGER_CODE]
    return os.posix_spawn(
        argv[0],
        argv,
        os.environ,
        file_actions=[(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)],
    )


def run_hang(spec: dict[str, Any], ctx: FaultContext) -> None:
    """Never exit (the known hang after ``result``), maybe with a lingering child."""
    if spec.get("linger_child", False):
        ctx.stderr_text(f"fake_agent: lingering child {_start_lingering_child()}\n")
    while True:
        time.sleep(3600)


def leaving_exit_code(spec: dict[str, Any]) -> int:
    """The exit code an ``exit_leaving_child`` directive ends the run with."""
    return int(spec.get("code", DEFAULT_LEAVING_EXIT_CODE))


def run_exit_leaving_child(spec: dict[str, Any], ctx: FaultContext) -> None:
    """Leave a child holding stdout and stderr, then end the run (the fake exits at
    once, as after ``exit``, without waiting for the child)."""
    ctx.stderr_text(f"fake_agent: left child {_start_lingering_child()}\n")
    ctx.exit_code = leaving_exit_code(spec)


def run_ignore_sigterm(spec: dict[str, Any], ctx: FaultContext) -> None:
    """From now on, ignore SIGTERM (a CLI slow to honour it): SIGKILL still ends the run.

    The disposition is ``SIG_IGN``, so the kernel drops the signal (no handler, no
    interrupted sleep) and children started afterwards ignore it too.
    """
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def run_raw(spec: dict[str, Any], ctx: FaultContext) -> None:
    """Write text or decoded base64 bytes to stdout exactly."""
    if "base64" in spec:
        import base64

        data = base64.b64decode(spec["base64"])
        newline = spec.get("newline", False)
    else:
        data = str(spec["text"]).encode("utf-8", errors="surrogatepass")
        newline = spec.get("newline", True)
    ctx.stdout_bytes(data + b"\n" if newline else data)


def garbage_bytes(n_bytes: int, seed: int) -> bytes:
    """``n_bytes`` pseudo-random bytes from ``random.Random(seed)``: with at least one
    newline and one byte that is never valid UTF-8 (0xff) once there is room for them."""
    import random

    rng = random.Random(seed)  # noqa: S311 - reproducible junk, not a secret
    data = bytearray(rng.randbytes(n_bytes))
    if n_bytes >= 2:
        # Same positions for the same seed: the output is reproducible.
        newline_at, invalid_at = rng.sample(range(n_bytes), 2)
        data[newline_at] = 0x0A
        data[invalid_at] = 0xFF
    elif n_bytes == 1:
        data[0] = 0xFF
    return bytes(data)


def run_garbage(spec: dict[str, Any], ctx: FaultContext) -> None:
    """Write pseudo-random bytes, then a newline."""
    ctx.stdout_bytes(garbage_bytes(int(spec["bytes"]), int(spec.get("seed", 0))) + b"\n")


def run_kill(spec: dict[str, Any], ctx: FaultContext) -> None:
    """Flush, then die by a signal sent to this very process."""
    import signal

    from ._mcp_client import end_all

    number = _signal_number(str(spec.get("signal", "SIGKILL")))
    assert number is not None  # checked at load
    end_all(grace=0.5)  # a killed fake leaves no MCP server behind (docs/protocol.md §7)
    sys.stdout.flush()
    sys.stderr.flush()
    if number not in (signal.SIGKILL, signal.SIGSTOP):
        # Python turns SIGINT into KeyboardInterrupt and may have other handlers:
        # the default action is what a real killed process gets.
        signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)
    # A signal whose default action is not to terminate (SIGCHLD, SIGSTOP then SIGCONT,
    # ...) lands here: still never go on with the scenario.
    while True:
        time.sleep(3600)


def _log_lines() -> Iterator[str]:
    """Endless log-like lines, as a chatty CLI writes them to stderr."""
    levels = ("debug", "info", "debug", "trace")
    n = 0
    while True:
        n += 1
        ms = n % 1000
        yield (
            f"2026-10-01T12:{n // 60000 % 60:02d}:{n // 1000 % 60:02d}.{ms:03d}Z "
            f"[{levels[n % 4]}] agent-transport: stream chunk seq={n} bytes={(n * 37) % 4096} "
            f"endpoint=https://api.example.invalid/v1/chat\n"
        )


def run_stderr_flood(spec: dict[str, Any], ctx: FaultContext) -> None:
    """Write ``bytes`` bytes of log lines to stderr, in 64 KiB writes, as fast as can be."""
    remaining = int(spec["bytes"])
    pending = bytearray()
    lines = _log_lines()
    out = sys.stderr.buffer
    while remaining > 0:
        want = min(FLOOD_CHUNK, remaining)
        while len(pending) < want:
            pending += next(lines).encode("ascii")
        chunk = bytes(pending[:want])
        del pending[:want]
        remaining -= want
        if remaining == 0 and not chunk.endswith(b"\n"):
            # End on a whole line.
            chunk = chunk[:-1] + b"\n"
        out.write(chunk)
        out.flush()


def run_drip(spec: dict[str, Any], ctx: FaultContext) -> None:
    """From now on, stdout goes out in small pieces, flushed one by one."""
    set_drip(int(spec.get("bytes", 1)), float(spec.get("interval", 0)))


def huge_line_events(n_bytes: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """An assistant event whose text is ``n_bytes`` of UTF-8, and a result with that text
    (its durations the run's real time, put in as the run emits it)."""
    text = huge_text(n_bytes)
    assistant = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        "session_id": "huge-line-session",
    }
    result = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": text,
        "session_id": "huge-line-session",
        "request_id": "5a7c9e1b-3d5f-4a6c-8e0a-2c4e6a8c0e2a",
        "usage": {
            "inputTokens": 2048,
            "outputTokens": 25_000_000,
            "cacheReadTokens": 0,
            "cacheWriteTokens": 0,
        },
    }
    return assistant, result


def run_huge_line(spec: dict[str, Any], ctx: FaultContext) -> None:
    """Emit one giant assistant event and the result that repeats its text."""
    override = os.environ.get(HUGE_LINE_BYTES_ENV)
    n_bytes = int(override) if override else int(spec["bytes"])
    assistant, result = huge_line_events(n_bytes)
    ctx.emit(assistant)
    ctx.emit(result)
