"""The wire: what the CLI says, as our types, and the decoding, free of I/O.

The parts of the public types that mirror the CLI's output (events' bases and kinds, a
tool call's payload, its status and its words), and the decoding: ``framing`` (bytes to
lines), ``decode`` (lines to typed events, ``fallback`` for hostile lines),
``stream`` (what a run's output has said so far), ``classify`` (stderr to the right
error). Nothing here touches a process, a pipe or an event loop, so every rule of the
protocol (docs/protocol.md) is tested with plain function calls. The map of the layers:
docs/architecture.md.
"""
