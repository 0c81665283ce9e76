"""A code review as a typed value: ask the agent for a ``Review`` and get one, checked.

    python examples/review.py                         # reviews the cart module
    python examples/review.py "Review src/api.py"     # your prompt
    python examples/review.py --json                  # the review as JSON, for a CI step

``output_type=Review`` appends the type's JSON Schema to the prompt (docs/output.md says
the exact words), takes the JSON value the reply ends with and decodes it into a
``Review``; a reply that does not fit is corrected in the same chat. The exit status is 1
when the review asks for changes, so a CI job can gate on it. With the fake agent, put
``scenario:json_review`` (the default here), ``scenario:json_corrected`` (fixed on the
second reply) or ``scenario:json_never`` (never fits) in the prompt.
"""

from __future__ import annotations

import re
import sys
from typing import Literal

import msgspec
from _agent import default_options, using_fake

from agent_sdk import AgentError, AgentOutputError, run_sync


class Finding(msgspec.Struct):
    file: str
    line: int
    severity: Literal["minor", "major", "critical"]
    message: str


class Review(msgspec.Struct):
    verdict: Literal["approve", "request_changes"]
    summary: str
    findings: list[Finding]


def main() -> int:
    args = [arg for arg in sys.argv[1:] if arg != "--json"]
    prompt = " ".join(args) or "Review the cart module and its tests"
    options = default_options()
    if using_fake():
        # In the environment, not the prompt: a correction is a new prompt in the chat,
        # and the fake must play the same scenario for it.
        scenario = re.search(r"scenario:(\S+)", prompt)
        env = {"FAKE_AGENT_SCENARIO": scenario.group(1) if scenario else "json_review"}
        options = msgspec.structs.replace(options, env=env)
    try:
        result = run_sync(prompt, options=options, output_type=Review)
    except AgentOutputError as exc:  # no reply held a Review, even after a correction
        print(f"no review: {exc.problem}\nlast reply: {exc.reply}", file=sys.stderr)
        return 2
    except AgentError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    review = result.output  # a Review, to mypy too
    if "--json" in sys.argv[1:]:
        print(msgspec.json.encode(review).decode())
    else:
        print(f"{review.verdict}: {review.summary}")
        for finding in review.findings:
            print(f"  {finding.file}:{finding.line} [{finding.severity}] {finding.message}")
    return 1 if review.verdict == "request_changes" else 0


if __name__ == "__main__":
    sys.exit(main())
