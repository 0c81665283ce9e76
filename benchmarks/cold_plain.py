"""The cold figure, its baseline: the same job as ``cold_sdk.py`` by hand.

``subprocess.run`` of the same CLI with the arguments agent_sdk passes it, then
``json.loads`` of each line of its output; no typed events, no error handling.
"""

import json
import os
import subprocess

argv = [os.environ["BENCH_AGENT"], "--print", "--output-format=stream-json", "--trust", "--", "hi"]
done = subprocess.run(argv, capture_output=True, check=True)
events = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
print(events[-1]["result"])
