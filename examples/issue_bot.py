"""A bot that gives the agent two Python tools and asks a person before any shell command
(print mode: ``run_sync``, hooks that decide).

    python examples/issue_bot.py "Triage issue 26"
    printf 'y\\n' | python examples/issue_bot.py "Triage issue 26"

The agent gets two tools that run in this process (docs/extend.md): ``lookup_issue`` and
``post_comment``, on an in-memory tracker. Before the agent runs a shell command, the bot
shows it and asks ``Allow? [y/N]`` on stderr, reading the answer from stdin; anything but
``y`` refuses it (the agent reads the refusal), and so does the end of stdin. Everything
else (the bot's own tools, edits in the workspace) is allowed: one approval callback
(``approval_hooks``) decides for the whole run, and the same callback would serve a live
session (``approval_permission``). With the fake agent the prompt plays ``issue_bot``:
it looks the issue up, runs ``echo tests pass``, writes ``triage.md`` (a write the fake
only simulates: nothing is left in the current directory) and comments. Exit status: 0,
or 1 when the run fails.
"""

from __future__ import annotations

import sys

import msgspec
from _agent import default_options, using_fake

from agent_sdk import AgentError, run_sync
from agent_sdk.extend import Approval, Decision, Deny, approval_hooks, tool


class Issue(msgspec.Struct):
    number: int
    title: str
    comments: list[str] = []


TRACKER = {26: Issue(26, "Extend the agent from Python")}


@tool
def lookup_issue(number: int) -> Issue:
    """Look up an issue of the tracker by its number."""
    if number not in TRACKER:
        raise KeyError(f"no issue {number}")
    return TRACKER[number]


@tool
def post_comment(number: int, text: str) -> str:
    """Post a comment on an issue of the tracker."""
    lookup_issue(number).comments.append(text)
    return "posted"


def approve(request: Approval) -> Decision:
    """Ask a person before a shell command; allow the rest. Runs in a worker thread, so
    reading stdin blocks nothing else."""
    if request.kind != "shell":
        return "allow"
    print(f"The agent wants to run: {request.command}. Allow? [y/N] ", end="", file=sys.stderr)
    answer = sys.stdin.readline() if sys.stdin is not None else ""
    if answer.strip().lower() in ("y", "yes"):
        return "allow"
    if not answer:
        print("(no one to answer: refused)", file=sys.stderr)
    return Deny("a person refused this command")


def main(argv: list[str]) -> int:
    prompt = " ".join(argv) or "Triage issue 26"
    if using_fake():
        prompt = f"scenario:issue_bot {prompt}"
    options = default_options(
        tools=[lookup_issue, post_comment],
        hooks=approval_hooks(approve),
        force=True,  # the hooks decide; without --force the CLI's own rules reject first
    )
    try:
        result = run_sync(prompt, options=options)
    except AgentError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(result.text)
    for call in result.tool_calls:
        print(f"  {call.kind}: {call.outcome}")
    for number, issue in TRACKER.items():
        for comment in issue.comments:
            print(f"comment on #{number}: {comment}")
    for error in result.hook_errors:
        print(f"the approval failed: {error!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
