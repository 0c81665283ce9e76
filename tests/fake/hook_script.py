"""A hook for the fake's hook tests (tests/fake/hook_place.py), run through ``sh -c``
as the CLI runs hooks: ``python hook_script.py RECORD [--out TEXT] [--err TEXT]
[--exit N] [--sleep S] [--label L]``.

It appends one JSON line to RECORD: the payload it read on stdin, its working directory,
the hook variables of its environment and L (which hook file it came from); then it
sleeps S seconds, writes TEXT to stdout and to stderr, and exits N (default 0).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

SEEN_VARIABLES = (
    "CURSOR_PROJECT_DIR",
    "CURSOR_VERSION",
    "CLAUDE_PROJECT_DIR",
    "CURSOR_CONVERSATION_ID",
    "FROM_SESSION_START",
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("record")
    parser.add_argument("--out", default="")
    parser.add_argument("--err", default="")
    parser.add_argument("--exit", type=int, default=0)
    parser.add_argument("--sleep", type=float, default=0.0)
    parser.add_argument("--label", default="")
    options = parser.parse_args()
    payload = json.loads(sys.stdin.read())
    env = {name: os.environ[name] for name in SEEN_VARIABLES if name in os.environ}
    seen = {"payload": payload, "cwd": os.getcwd(), "env": env, "pid": os.getpid()}
    line = json.dumps({**seen, "label": options.label})
    with open(options.record, "a", encoding="utf-8") as file:
        file.write(line + "\n")
    time.sleep(options.sleep)
    sys.stdout.write(options.out)
    sys.stderr.write(options.err)
    sys.exit(options.exit)


if __name__ == "__main__":
    main()
