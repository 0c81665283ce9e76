"""``agent-sdk replay FILE``: render a recorded run without running anything.

The recording is read through :class:`~agent_sdk._wire.stream.Stream`, the class a
live run reads its stdout with, so framing, lines that are not events and the rule for
partial output (docs/protocol.md §3.3) are those of a live run, not a copy of them.

A hostile recording (garbage, lines nested too deep, numbers out of range) replays every
good line; a bad one is reported where it was met, never a crash (docs/protocol.md §5).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
from collections.abc import Callable, Iterable
from typing import BinaryIO, TextIO

from .._options.redaction import redaction_of
from .._wire.stream import Stream
from ..events import Event, TextLine, UnknownEvent
from ..options import AgentOptions
from ._screen import terminal_columns
from .args import EXIT_FAILED, EXIT_OK, EXIT_USAGE, print_error, replay_parser, use_color
from .live import JsonSink, reader_gone
from .render import Renderer

__all__ = ["replay", "replay_main"]


def _as_recorded(event: Event) -> Event:
    """The event as the live run had it: ``agent-sdk --json`` writes the lines of a text
    run as ``{"type":"text","text":...}``, which decode as an unknown event type."""
    if isinstance(event, UnknownEvent) and event.type == "text":
        text = event.raw.get("text")
        return TextLine(text=text if isinstance(text, str) else "")
    return event


def replay(
    lines: Iterable[bytes],
    sink: Renderer | JsonSink,
    err: TextIO,
    *,
    stop_if: Callable[[], bool] | None = None,
) -> bool:
    """Render a recorded stream, given as its lines; whether it ended with a successful
    result.

    Lines that are not events (a banner, a plain-text error) are shown where they were
    met: dimmed among the events, or on ``err`` when ``sink`` writes JSON.

    Raises:
        BrokenPipeError: ``stop_if`` (asked after each event: see :func:`reader_gone`)
            said the reader of the output went away, or writing to it failed so.
    """

    def other_line(text: str) -> None:
        if isinstance(sink, Renderer):
            sink.raw_line(text)
        else:
            err.write(text + "\n")

    # A recording made elsewhere may hold this machine's key: the command shows no secret
    # of its environment, live or replayed (_options/redaction.py).
    redaction = redaction_of(AgentOptions(), os.environ)
    # partial=None: whether the recording used --stream-partial-output is worked out from
    # its first assistant event, as the Stream does for any run.
    stream = Stream(
        output_format="stream-json",
        partial=None,
        on_other_line=other_line,
        redact=redaction.text if redaction else None,
    )

    def show(event: Event) -> None:
        # A tool payload is parsed only when shown, and never raises (docs/protocol.md §3).
        sink.event(redaction.event(_as_recorded(event)))
        if stop_if is not None and stop_if():
            # As a write to it would have failed: main() exits quietly with 141.
            raise BrokenPipeError(errno.EPIPE, "the reader of the output went away")

    # One line per feed: the Stream reports a block's other lines before its events, so
    # a bigger chunk would move a banner ahead of the events that preceded it.
    for line in lines:
        for event in stream.feed(line):
            show(event)
    for event in stream.end():
        show(event)
    result = stream.result_event
    return result is not None and not result.is_error


def replay_main(argv: list[str], out: TextIO, err: TextIO, stdin: TextIO) -> int:
    """``agent-sdk replay ARGV``: render the recording; the exit status."""
    try:
        args = replay_parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    sink: Renderer | JsonSink
    if args.json:
        sink = JsonSink(out)
    else:
        sink = Renderer(
            out,
            err,
            color=use_color(args.color, err, os.environ),
            thinking=args.thinking,
            columns=terminal_columns(err),  # on a terminal, each line fits its width
            one_line_per_call=True,  # as the live view draws a call (docs/cli.md)
        )
    with contextlib.ExitStack() as stack:
        if args.file == "-":
            source: BinaryIO = getattr(stdin, "buffer", None) or io.BytesIO(
                stdin.read().encode("utf-8")
            )
        else:
            try:
                source = stack.enter_context(open(args.file, "rb"))
            except OSError as exc:
                print_error(err, f"cannot read {args.file}: {exc.strerror}")
                return EXIT_USAGE
        # A binary file iterates line by line, each line as soon as it is complete (a
        # live pipe is not held up), with no length cap.
        ok = replay(source, sink, err, stop_if=reader_gone(out))
    if isinstance(sink, Renderer):
        sink.finish()
        result = sink.result_event
        sink.summary("success" if ok else "error" if result is not None else "no result")
    return EXIT_OK if ok else EXIT_FAILED
