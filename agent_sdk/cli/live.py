"""``agent-sdk [run]``: run the agent and show its events as they stream.

Nothing it prints holds a secret of the run (its key comes from the environment; header
values from ``--header``): events are redacted before they are shown, the reply is
redacted as a whole text (:class:`RedactedText`), and so is every error
(``agent_sdk/_options/redaction.py`` says what a secret is).
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Callable
from typing import TextIO, cast

import anyio
import msgspec

from .._options.redaction import HeldText, Redaction, redaction_of
from .._run.run import run
from ..errors import (
    AgentCheckpointError,
    AgentConfigError,
    AgentError,
    AgentModelError,
    AgentNotFoundError,
    AgentOptionError,
    AgentResultError,
    AgentSessionInUseError,
    AgentStartError,
    AgentTimeoutError,
    AgentTrustError,
    AgentWorkspaceError,
)
from ..events import Event, to_json
from ..options import AgentOptions
from ._changes_lines import Kept, checkpoint_said
from ._fake_args import runs_fake
from ._screen import ReplyCursor, fold, terminal_columns
from ._signals import SignalWatch
from .args import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_TIMEOUT,
    EXIT_USAGE,
    parse_run_args,
    print_error,
    use_color,
)
from .hints import error_in_flag_terms
from .render import Renderer, isatty

__all__ = ["JsonSink", "reader_gone", "run_main"]

_TICK = 0.1  # seconds between two redraws of the status line


class JsonSink:
    """``--json``: every event as one line on ``out``, nothing else."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def event(self, event: Event) -> None:
        """Write one event as a JSON line (:func:`~agent_sdk.events.to_json`)."""
        self.out.write(to_json(event).decode("utf-8") + "\n")
        self.out.flush()


class RedactedText:
    """A text stream written through a redaction, for the reply: the reply streams in
    small deltas, so a secret may arrive in pieces; the last characters that could still
    begin one are held back until more text comes or :meth:`release` (at the end).

    Args:
        target: where the redacted text goes.
        redaction: the run's redaction (with at least one secret).
    """

    def __init__(self, target: TextIO, redaction: Redaction) -> None:
        self.target = target
        self._text = HeldText(redaction)

    def write(self, text: str) -> int:
        """Write ``text``, redacted, but for a tail that may begin a secret."""
        shown = self._text.feed(text)
        if shown:
            self.target.write(shown)
        return len(text)

    def flush(self) -> None:
        self.target.flush()

    def isatty(self) -> bool:
        return isatty(self.target)

    def release(self) -> None:
        """Write what was held back (the output is over)."""
        held = self._text.release()
        if held:
            self.target.write(held)
        self.target.flush()


def reader_gone(stream: TextIO) -> Callable[[], bool] | None:
    """A test of whether the reader of ``stream`` went away, when it is a pipe or a
    socket (``None`` otherwise, or where ``poll`` is missing), that writes nothing.

    ``agent-sdk ... | head -1`` writes the reply to the pipe but tool calls to stderr:
    after the reply's first line, nothing may be written to the pipe again, so no
    ``BrokenPipeError`` would stop a run or a replay from rendering the rest on stderr.
    """
    import select

    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation included
        return None
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)) or not hasattr(select, "poll"):
        return None
    poller = select.poll()
    poller.register(fd, 0)  # no event asked: POLLERR and POLLHUP are always reported
    hung_up = select.POLLERR | select.POLLHUP

    def gone() -> bool:
        return any(events & hung_up for _, events in poller.poll(0))

    return gone


# The errors of a flag the run cannot use (exit 2, as argparse's): nothing started
# (--cwd, --binary, none found, the command line too long), or cursor-agent refused a
# flag's value before doing anything (--model, --workspace, an --extra-arg, --no-trust,
# a --new-session-id some chat has).
_USAGE_ERRORS = (
    AgentConfigError,
    AgentStartError,
    AgentModelError,
    AgentOptionError,
    AgentWorkspaceError,
    AgentTrustError,
    AgentSessionInUseError,
)


def _exit_code(exc: AgentError) -> int:
    if isinstance(exc, AgentTimeoutError):
        return EXIT_TIMEOUT
    if isinstance(exc, AgentCheckpointError):  # --checkpoint outside git: the flag's fault
        return EXIT_USAGE if exc.reason in _NO_GIT else EXIT_FAILED
    if isinstance(exc, _USAGE_ERRORS) and not _out_of_resources(exc):
        return EXIT_USAGE
    return EXIT_FAILED


_NO_GIT = ("not_a_repository", "git_missing")


def _out_of_resources(exc: AgentError) -> bool:
    """Whether the CLI could not start for want of file descriptors: no flag's fault."""
    cause = exc.__cause__
    return isinstance(cause, OSError) and cause.errno in (errno.EMFILE, errno.ENFILE)


FAKE_NOTE = (
    "agent-sdk: that was the bundled fake agent: it played a scripted run, changed no file "
    "and asked no model; install cursor-agent for the real agent"
)


def _outcome(exc: AgentError | None) -> str:
    if exc is None:
        return "success"
    if isinstance(exc, AgentTimeoutError):
        return "timed out"
    if isinstance(exc, AgentResultError):
        return "error"
    return "failed"


async def _spin(renderer: Renderer, started: float) -> None:
    while True:
        await anyio.sleep(_TICK)
        # Asked at every tick rather than on SIGWINCH: a signal reaches only the main
        # thread, and one ioctl a tenth of a second costs nothing.
        renderer.resize(terminal_columns(renderer.err))
        renderer.status(time.monotonic() - started)


async def _live(
    prompt: str,
    options: AgentOptions,
    sink: Renderer | JsonSink,
    started: float,
    redaction: Redaction | None = None,
    stop_if: Callable[[], bool] | None = None,
    signals: SignalWatch | None = None,
    kept: Kept | None = None,
) -> AgentError | None:
    """Run the agent, handing each event to ``sink`` (redacted: ``redaction``, by default
    that of ``options`` and the environment); the error it ended with, if any.

    The first signal ``signals`` notes cancels the run (``None`` is returned once its
    process group ended). ``kept`` gets the run's checkpoint and changes.

    Raises:
        BrokenPipeError: when ``sink`` can no longer write, or ``stop_if`` (asked after
            each event: see :func:`reader_gone`) says its reader went away.
    """
    if redaction is None:
        redaction = redaction_of(options, os.environ)
    error: AgentError | None = None
    broken_pipe: BrokenPipeError | None = None
    async with anyio.create_task_group() as tasks:
        if signals is not None:
            await signals.start_in(tasks)
        if isinstance(sink, Renderer) and sink.live_status:
            tasks.start_soon(_spin, sink, started)
        events = run(prompt, options=options)
        try:
            async with events:
                async for event in events:
                    sink.event(redaction.event(event) if redaction else event)
                    if stop_if is not None and stop_if():
                        # As a write to it would have: the run ends, main() exits 141.
                        raise BrokenPipeError(errno.EPIPE, "the reader of the output went away")
        except AgentError as exc:
            # Returned, not raised: a task group would wrap it in an ExceptionGroup.
            error = exc
        except BrokenPipeError as exc:
            broken_pipe = exc  # raised below, outside the group, for main() to catch
        finally:
            tasks.cancel_scope.cancel()
    if kept is not None:
        kept.checkpoint, kept.changes = events.checkpoint, events.changes
    if broken_pipe is not None:
        raise broken_pipe
    return error


def _print_versions(options: AgentOptions, out: TextIO) -> int:
    """``agent-sdk --version``: agent-sdk's version, then that of the CLI the same
    options would run (``--binary``, ``--fake``), or why there is none."""
    from .. import __version__
    from ..queries import version

    out.write(f"agent-sdk {__version__}\n")
    asking = msgspec.structs.replace(options, timeout=options.timeout or _VERSION_TIMEOUT)
    try:
        said = anyio.run(lambda: version(options=asking), backend="asyncio")
    except AgentError as exc:
        # What is missing on its own line (a script may read the second line), then why
        # and the fix, indented: the why has parentheses of its own.
        missing = isinstance(exc, AgentNotFoundError)
        out.write("cursor-agent: none found\n" if missing else "cursor-agent: version unknown\n")
        for line in error_in_flag_terms(exc).splitlines():
            out.write(f"  {line}\n")
    else:
        out.write(f"cursor-agent {said}\n")
    return EXIT_OK


_VERSION_TIMEOUT = 15.0  # seconds `cursor-agent --version` may take before we give up


def _print_fake_path(out: TextIO, err: TextIO) -> int:
    """``agent-sdk --fake-path``: the fake agent's path alone on stdout, for
    ``export CURSOR_AGENT_BIN="$(agent-sdk --fake-path)"``: this command's own Python
    answers, never another ``python`` on PATH."""
    import fake_agent

    try:
        path = fake_agent.executable()
    except FileNotFoundError as exc:
        print_error(err, str(exc))
        return EXIT_FAILED
    out.write(path + "\n")
    return EXIT_OK


def run_main(argv: list[str], out: TextIO, err: TextIO, stdin: TextIO) -> int:
    """``agent-sdk [run] ARGV``: run the agent on the prompt; the exit status.

    A ``BrokenPipeError`` (the reader of ``out`` went away) is left to the caller.
    """
    try:
        command = parse_run_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    if command.version:
        return _print_versions(command.options, out)
    if command.fake_path:
        return _print_fake_path(out, err)
    prompt = command.prompt
    if prompt is None:
        if isatty(stdin) and argv[-1:] != ["-"]:
            print_error(err, "no prompt: give PROMPT words, or pipe the prompt on stdin")
            return EXIT_USAGE
        prompt = stdin.read().strip()
        if not prompt:
            print_error(err, "the prompt read from stdin is empty")
            return EXIT_USAGE
    redaction = redaction_of(command.options, os.environ)
    sink: Renderer | JsonSink
    renderer: Renderer | None = None
    reply: RedactedText | None = None
    if command.json:
        sink = JsonSink(out)  # one event a line, each redacted whole
    else:
        # Below the redaction, so it counts what the terminal really shows.
        cursor = ReplyCursor(out) if isatty(out) else None
        screen = cast(TextIO, cursor) if cursor is not None else out
        if redaction:
            reply = RedactedText(screen, redaction)
        renderer = sink = Renderer(
            cast(TextIO, reply) if reply is not None else screen,
            err,
            color=use_color(command.color, err, os.environ),
            thinking=command.thinking,
            live_status=isatty(err),
            columns=terminal_columns(err),
            cursor=cursor,
        )
    started = time.monotonic()
    gone = reader_gone(out)
    kept = Kept()
    with SignalWatch() as signals:  # from here on, a signal never cuts the teardown short
        error = anyio.run(
            _live,
            prompt,
            command.options,
            sink,
            started,
            redaction,
            gone,
            signals,
            kept,
            backend="asyncio",
        )
        ran = command.options
        missing = isinstance(error, AgentNotFoundError) and command.fake_if_missing
        if missing and signals.first is None:
            import fake_agent

            err.write("agent-sdk: cursor-agent is not installed: running the bundled fake agent\n")
            ran = msgspec.structs.replace(command.options, binary=fake_agent.executable())
            error = anyio.run(
                _live, prompt, ran, sink, started, redaction, gone, signals, kept, backend="asyncio"
            )
        more = checkpoint_said(kept, out if renderer is None else None, redaction)
        if signals.stopped is not None:  # the run was cancelled, its group ended
            how = signals.stopped.value
            if renderer is not None:
                renderer.finish()
                if reply is not None:
                    reply.release()
                renderer.summary(how, elapsed=time.monotonic() - started, more=more)
            print_error(err, f"{how}; the agent's process group was ended")
            return signals.stopped.exit_status
        if renderer is not None:
            renderer.finish()
            if reply is not None:
                reply.release()
            if error is None or renderer.events:
                renderer.summary(_outcome(error), elapsed=time.monotonic() - started, more=more)
                if runs_fake(ran):  # --fake, --fake-if-missing, CURSOR_AGENT_BIN
                    columns = terminal_columns(err)
                    # A scenario may write for real (fix_tests): a checkpoint then shows it.
                    note = (
                        FAKE_NOTE
                        if not kept.changes or not kept.changes.files
                        else (
                            FAKE_NOTE.replace(
                                "it played a scripted run, changed no file and ",
                                "it played a scripted run (its writes are real) and ",
                            )
                        )
                    )
                    lines = fold(note, columns - 1) if columns else [note]
                    err.write("".join(line + "\n" for line in lines))
        if error is None:
            return EXIT_OK
        # In the command line's terms: --model, not AgentOptions(model=...) (cli/hints.py).
        session_id = error.session_id or (renderer.session_id if renderer is not None else None)
        said = error_in_flag_terms(error, session_id)
        print_error(err, redaction.text(said))
        if isinstance(error, AgentNotFoundError) and "--fake" not in said:
            err.write(
                "agent-sdk: to try it without cursor-agent, run the bundled fake agent: "
                "agent-sdk --fake [SCENARIO] PROMPT\n"
            )
        return _exit_code(error)
