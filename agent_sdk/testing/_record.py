"""Recording a real run's output as a fake_agent scenario file."""

from __future__ import annotations

import json
import math
import os
import signal
from pathlib import Path

import anyio
import msgspec

from .._options.redaction import Redaction, redaction_of
from .._transport.collect import Collected, collect
from .._transport.discovery import locate_binary
from .._wire.decode import LineDecoder
from .._wire.framing import LineFramer
from .._wire.stream import Stream
from ..errors import AgentError, AgentTimeoutError, ErrorContext
from ..events import UnknownEvent
from ..options import AgentOptions, build_invocation, given_options

# The end of a recording whose CLI was still running when it was ended: the replay holds
# there too (docs/protocol.md §5, the known hang), and a run ends it the same way.
HANG = json.dumps({"fake": "hang"})


async def record(
    prompt: str, path: str | os.PathLike[str], *, options: AgentOptions | None = None
) -> Path:
    """Run the CLI once and write what it printed as a scenario file for ``fake_agent``.

    The stream is recorded as the CLI printed it (``stream-json`` without partial output:
    the fake renders partial output and the other formats from it). Lines that are not
    JSON, stderr and the way the CLI ended become directives, so a failed run replays as
    one:

    - it exited: ``{"fake":"exit","code":N}`` (killed by a signal: ``{"fake":"kill"}``);
    - it printed its result and did not exit within ``options.result_grace`` (the known
      hang, docs/protocol.md §5): it is ended as a run ends it, and the file ends with
      ``{"fake":"hang"}``, which replays that hang (a run of the replay succeeds after
      its result grace, as the original did);
    - it closed stdout without a result and did not exit within the grace: it is ended,
      and the file ends with ``{"fake":"exit","code":0}``, which a run of the replay
      reports as the original: an :class:`~agent_sdk.AgentProtocolError` (no result);
    - it ran out of ``options.timeout``: what it printed until then is written, ending
      with ``{"fake":"hang"}`` (the replay stops where the CLI did, so a run of it with
      the same timeout times out the same way), and then
      :class:`~agent_sdk.AgentTimeoutError` is raised, naming the file. A partial
      recording is what reproduces a stalled CLI, and losing it would lose the one trace
      of the stall; the error still tells the caller the run did not finish.

    Every secret of the run (the API key and auth token from the options or the
    environment, header values: see ``agent_sdk/_options/redaction.py``) is replaced by
    ``***`` in every line, escaped forms included.

    Args:
        prompt: the prompt to run.
        path: the ``.ndjson`` file to write (replaced if it exists).
        options: as for :func:`agent_sdk.run`; ``output_format`` and
            ``stream_partial_output`` are overridden.

    Returns:
        The path written. Replay it with ``FAKE_AGENT_SCENARIO=<path>``.

    Raises:
        AgentTimeoutError: the run did not finish within ``options.timeout`` (the
            partial recording was written).
        AgentStartError: the CLI could not be started (nothing written).

    Example::

        await record("Add a test for cart totals", "tests/scenarios/cart.ndjson")
    """
    options = msgspec.structs.replace(
        given_options(options),
        output_format="stream-json",
        stream_partial_output=False,
    )
    redaction = redaction_of(options, os.environ)
    try:
        return await _record(prompt, Path(path), options, redaction)
    except AgentError as exc:
        redaction.error(exc)
        raise


async def _record(prompt: str, path: Path, options: AgentOptions, redaction: Redaction) -> Path:
    binary = await locate_binary(options)
    invocation = build_invocation(prompt, options, binary=binary, environ=os.environ)
    watch = Stream(output_format="stream-json", partial=False)

    def result_seen(chunk: bytes) -> bool:
        watch.feed(chunk)
        return watch.result_event is not None

    done = await collect(
        invocation, options, within=options.timeout or math.inf, result_seen=result_seen
    )
    lines = _scenario_lines(done, redaction)
    lines.append(_ending(done, result=watch.result_event is not None))
    await anyio.Path(path).write_text("\n".join(lines) + "\n", "utf-8")
    if done.exit_code is None and not done.lingered:
        raise AgentTimeoutError(
            f"the run to record did not finish within {options.timeout:g} s; what it "
            f"printed until then was written to {str(path)!r}, ending in a hang",
            context=ErrorContext(
                session_id=watch.session_id,
                stderr=redaction.text(done.stderr),
                stdout_lines=redaction.lines(watch.stdout_lines),
            ),
            hint="raise AgentOptions(timeout=...)",
        )
    return path


def _scenario_lines(done: Collected, redaction: Redaction) -> list[str]:
    """Every line of stdout (each redacted as bytes, before anything reads it), then
    stderr as a directive."""
    framer = LineFramer()
    lines = framer.feed(done.stdout)
    tail = framer.flush()
    if tail is not None:
        lines.append(tail)
    decoder = LineDecoder(partial=False)
    out = [_scenario_line(redaction.data(line), decoder) for line in lines]
    stderr = redaction.text(done.stderr.rstrip("\n"))
    if stderr:
        out.append(json.dumps({"fake": "stderr", "text": stderr}, ensure_ascii=False))
    return out


def _ending(done: Collected, *, result: bool) -> str:
    """The directive that replays how the CLI ended (see :func:`record`)."""
    if done.exit_code is None:  # ended by us
        if done.lingered and not result:
            return json.dumps({"fake": "exit", "code": 0})
        return HANG
    if done.exit_code < 0:  # killed by a signal: the replay kills itself the same way
        return json.dumps({"fake": "kill", "signal": signal.Signals(-done.exit_code).name})
    return json.dumps({"fake": "exit", "code": done.exit_code})


def _scenario_line(line: bytes, decoder: LineDecoder) -> str:
    text = line.decode("utf-8", "replace").rstrip("\r")
    event = decoder.decode(line)
    if event is None or (isinstance(event, UnknownEvent) and not event.type):
        return json.dumps({"fake": "stdout", "text": text}, ensure_ascii=False)
    return text  # a wire event, kept byte for byte (escapes included)
