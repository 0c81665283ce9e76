"""Recording a real run's output as a fake_agent scenario file."""

from __future__ import annotations

import json
import math
import os
import signal
from pathlib import Path

import anyio
import msgspec

from .._protocol.decode import LineDecoder
from .._protocol.framing import LineFramer
from .._protocol.outcome import redact, secrets_of
from .._transport.collect import collect
from .._transport.discovery import locate_binary
from ..errors import AgentTimeoutError
from ..events import UnknownEvent
from ..options import AgentOptions, build_invocation


async def record(
    prompt: str, path: str | os.PathLike[str], *, options: AgentOptions | None = None
) -> Path:
    """Run the CLI once and write what it printed as a scenario file for ``fake_agent``.

    The stream is recorded as the CLI printed it (``stream-json`` without partial output:
    the fake renders partial output and the other formats from it). Lines that are not
    JSON, stderr and the exit code become directives, so a failed run replays as one.

    Args:
        prompt: the prompt to run.
        path: the ``.ndjson`` file to write (replaced if it exists).
        options: as for :func:`agent_sdk.run`; ``output_format`` and
            ``stream_partial_output`` are overridden.

    Returns:
        The path written. Replay it with ``FAKE_AGENT_SCENARIO=<path>``.

    Example::

        await record("Add a test for cart totals", "tests/scenarios/cart.ndjson")
    """
    options = msgspec.structs.replace(
        options if options is not None else AgentOptions(),
        output_format="stream-json",
        stream_partial_output=False,
    )
    binary = await locate_binary(options)
    invocation = build_invocation(prompt, options, binary=binary, environ=os.environ)
    done = await collect(invocation, options, within=options.timeout or math.inf)
    if done.exit_code is None:
        raise AgentTimeoutError(
            f"the run to record did not finish within {options.timeout:g} s; nothing written",
            hint="raise AgentOptions(timeout=...)",
        )
    secrets = secrets_of(options)
    framer = LineFramer()
    lines = framer.feed(done.stdout)
    tail = framer.flush()
    if tail is not None:
        lines.append(tail)
    decoder = LineDecoder(partial=False)
    out = [redact(_scenario_line(line, decoder), secrets) for line in lines]
    stderr = redact(done.stderr.rstrip("\n"), secrets)
    if stderr:
        out.append(json.dumps({"fake": "stderr", "text": stderr}, ensure_ascii=False))
    if done.exit_code < 0:  # killed by a signal: the replay kills itself the same way
        out.append(json.dumps({"fake": "kill", "signal": signal.Signals(-done.exit_code).name}))
    else:
        out.append(json.dumps({"fake": "exit", "code": done.exit_code}))
    target = anyio.Path(path)
    await target.write_text("\n".join(out) + "\n", "utf-8")
    return Path(target)


def _scenario_line(line: bytes, decoder: LineDecoder) -> str:
    text = line.decode("utf-8", "replace").rstrip("\r")
    event = decoder.decode(line)
    if event is None or (isinstance(event, UnknownEvent) and not event.type):
        return json.dumps({"fake": "stdout", "text": text}, ensure_ascii=False)
    return text  # a wire event, kept byte for byte (escapes included)
