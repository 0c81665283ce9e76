"""The cold figure, agent_sdk's side: a whole short script, as a user writes one.

A fresh interpreter imports agent_sdk and does one tiny ``run_sync`` (``benchmarks/run.py``
points ``BENCH_AGENT`` at the fake agent and picks its ``hello`` scenario).
``cold_plain.py`` does the same job by hand; run.py times the two, taking turns.
"""

import os

from agent_sdk import AgentOptions, run_sync

result = run_sync("hi", options=AgentOptions(binary=os.environ["BENCH_AGENT"]))
print(result.result)
