"""The CLI's print-mode protocol, free of I/O: bytes in, lines, events, an outcome out.

Nothing here touches a process, a pipe or an event loop, so every rule of the protocol
(docs/protocol.md) is tested with plain function calls: ``framing`` (bytes to lines),
``decode`` (lines to typed events, with ``lenient`` its fallback for hostile lines),
``stream`` (what a run's output has said so far) and ``outcome`` (exit status and stream
to a result or an error).
"""
