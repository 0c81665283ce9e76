"""Recording a real run's output as a fake_agent scenario file."""

from __future__ import annotations

import json
import math
import os
import signal
from pathlib import Path

import anyio
import msgspec

from ._process import AgentProcess, locate_binary
from .errors import AgentTimeoutError
from .options import AgentOptions, build_invocation


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
    process = await AgentProcess.spawn(invocation, options.cwd)
    stdout, code = await process.communicate(options.timeout or math.inf)
    if code is None:
        raise AgentTimeoutError(
            f"the run to record did not finish within {options.timeout:g} s; nothing written"
        )
    lines = [line for line in stdout.split(b"\n") if line]
    out = [_scenario_line(line) for line in lines]
    stderr = process.stderr.text().rstrip("\n")
    if options.api_key:
        stderr = stderr.replace(options.api_key, "***")
    if stderr:
        out.append(json.dumps({"fake": "stderr", "text": stderr}, ensure_ascii=False))
    if code < 0:  # killed by a signal: the replay kills itself the same way
        out.append(json.dumps({"fake": "kill", "signal": signal.Signals(-code).name}))
    else:
        out.append(json.dumps({"fake": "exit", "code": code}))
    target = anyio.Path(path)
    await target.write_text("\n".join(out) + "\n", "utf-8")
    return Path(target)


def _scenario_line(line: bytes) -> str:
    text = line.decode("utf-8", "replace").rstrip("\r")
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and isinstance(obj.get("type"), str):
            return text  # a wire event, kept byte for byte (escapes included)
    return json.dumps({"fake": "stdout", "text": text}, ensure_ascii=False)
