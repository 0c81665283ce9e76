"""How a run reaches the CLI: the :class:`Transport` contract (``base``), the subprocess
that runs the real one (``subprocess``, ``spawn``), finding it (``discovery``), and the
short subcommands whose whole output is wanted at once (``collect``)."""
