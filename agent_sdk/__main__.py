"""``python -m agent_sdk``: the ``agent-sdk`` command line (see ``agent_sdk.cli``)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
