"""Instructions per event of the print-mode hot path, counted by callgrind: a rendered
stream (``streams.py``) fed to a ``Stream`` in 256 KiB chunks, as a run reads its pipe.
Both of its mixes are counted: the realistic one (tool calls nearly half the events) and
the chatty one the figures before issue 24 were taken on.

    python benchmarks/hot_instructions.py                 # this checkout
    python benchmarks/hot_instructions.py OLD_CHECKOUT    # and another, in the same run

The count of a 4-event stream is taken away from that of the long one, so the import and
the interpreter's start are out of the figure. Instruction counts do not move with the
machine's load: two checkouts compare exactly. Needs ``valgrind`` on ``PATH``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import streams  # noqa: E402

EVENTS = 30_000
CALLGRIND = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]

FEED = """
import sys
from agent_sdk._protocol.stream import Stream
data = open(sys.argv[1], "rb").read()
stream = Stream()
for at in range(0, len(data), 262144):
    stream.feed(data[at : at + 262144])
stream.end()
"""


def instructions(checkout: Path, stream: Path) -> int:
    """What callgrind counts for feeding ``stream`` with ``checkout``'s agent_sdk."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [*CALLGRIND, sys.executable, "-c", FEED, str(stream)],
        env=env,
        # `-c` puts the working directory first on sys.path: run in the checkout, or
        # every checkout would import the agent_sdk of the directory it was started from.
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{done.stderr}")
    return int(found.group(1))


def main() -> None:
    checkouts = [HERE.parent, *(Path(arg).resolve() for arg in sys.argv[1:])]
    with tempfile.TemporaryDirectory() as tmp:
        short = Path(tmp, "short.ndjson")
        streams.write_stream(short, 4)
        for mix, realistic in (("realistic", True), ("chatty", False)):
            long = Path(tmp, f"{mix}.ndjson")
            streams.write_stream(long, EVENTS, realistic=realistic)
            for checkout in checkouts:
                per_event = (instructions(checkout, long) - instructions(checkout, short)) / (
                    EVENTS - 4
                )
                print(f"{per_event:,.0f} instructions per event, {mix} stream  {checkout}")


if __name__ == "__main__":
    main()
