"""The command line: ``agent-sdk [run] PROMPT... [options]`` and ``agent-sdk replay FILE``.

Argument parsing lives here; how events look on screen lives in :mod:`agent_sdk._render`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import BinaryIO, Literal, TextIO, get_args

import anyio
import msgspec

from ._decode import LineDecoder
from ._framing import LineFramer
from ._render import Renderer, _isatty
from ._run import run
from .errors import (
    AgentError,
    AgentNotFoundError,
    AgentResultError,
    AgentTimeoutError,
)
from .events import AssistantEvent, Event, ResultEvent, TextLine, UnknownEvent, to_json
from .options import AgentOptions, Mode, OutputFormat, Sandbox

__all__ = ["RunCommand", "main", "parse_run_args"]

ColorMode = Literal["auto", "always", "never"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_TIMEOUT = 124  # as timeout(1)
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE
EXIT_TERMINATED = 143  # 128 + SIGTERM

_TICK = 0.1  # seconds between two redraws of the status line
_SCENARIO_NAME = re.compile(r"[A-Za-z0-9_.-]+")

_EPILOG = """\
The prompt is the PROMPT words joined by spaces; with PROMPT '-' or absent (and stdin
not a terminal) it is read from stdin. Put '--' before a prompt that starts with '-' or
with the word 'replay'.

The API key is never a flag (argv is visible to every user of the machine): set
CURSOR_API_KEY in the environment, which the CLI reads, or log in once with
`cursor-agent login`.

The reply goes to stdout; tool calls, thinking and the summary go to stderr.

  agent-sdk replay FILE [--json]   render a recorded stream-json (or --json) output

exit status: 0 success; 1 the agent failed (non-zero exit, error result, broken
output); 2 usage error or no cursor-agent found; 124 timeout; 130 interrupted
(143 on SIGTERM).
"""


@dataclass(frozen=True)
class RunCommand:
    """A parsed ``agent-sdk run`` command line.

    Attributes:
        prompt: the prompt words joined, or ``None`` to read the prompt from stdin.
        options: the :class:`AgentOptions` of the run.
        json: print events as NDJSON instead of rendering them.
        color: ``"auto"``, ``"always"`` or ``"never"``.
        thinking: show the thinking text instead of a one-line indicator.
        fake_if_missing: run the bundled fake agent when cursor-agent is not installed.
    """

    prompt: str | None
    options: AgentOptions
    json: bool = False
    color: ColorMode = "auto"
    thinking: bool = False
    fake_if_missing: bool = False


def _run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agent-sdk [run]",
        description="Run Cursor's coding agent (cursor-agent) on a prompt and show its "
        "progress as it streams.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("prompt", nargs="*", metavar="PROMPT", help="what to ask the agent")
    show = parser.add_argument_group("output")
    show.add_argument(
        "--json", action="store_true", help="print each event as one JSON line, nothing else"
    )
    show.add_argument(
        "--color",
        choices=get_args(ColorMode),
        default="auto",
        help="ANSI colours (auto: only on a terminal, and not if NO_COLOR is set)",
    )
    show.add_argument("--thinking", action="store_true", help="show the thinking text, dimmed")
    show.add_argument(
        "--fake",
        nargs="?",
        const="",
        default=None,
        metavar="SCENARIO",
        help="run the bundled fake agent instead of cursor-agent; SCENARIO is a name "
        "(hello, tools, crash, ...) or a path to an .ndjson scenario",
    )
    show.add_argument(
        "--fake-if-missing",
        action="store_true",
        help="use cursor-agent when it is installed, else the bundled fake agent (and say so)",
    )
    agent = parser.add_argument_group("agent options (see AgentOptions)")
    agent.add_argument("--binary", metavar="PATH", help="the cursor-agent executable")
    agent.add_argument("--cwd", metavar="DIR", help="working directory of the agent")
    agent.add_argument("--workspace", metavar="DIR", help="the workspace directory")
    agent.add_argument("--model", metavar="ID", help="model id: auto, gpt-5, sonnet-4, ...")
    agent.add_argument("-f", "--force", action="store_true", help="allow shell commands and writes")
    agent.add_argument("--no-trust", dest="trust", action="store_false", help="do not pass --trust")
    agent.add_argument("--mode", choices=get_args(Mode), help="read-only modes")
    agent.add_argument("--resume", metavar="ID", help="continue the chat with this session id")
    agent.add_argument(
        "--continue", dest="continue_session", action="store_true", help="continue the last chat"
    )
    agent.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a variable in the agent's environment (repeatable)",
    )
    agent.add_argument(
        "--output-format",
        choices=get_args(OutputFormat),
        default="stream-json",
        help="what the CLI prints (default: stream-json, the only one with live events)",
    )
    agent.add_argument(
        "--no-partial",
        dest="partial",
        action="store_false",
        help="no --stream-partial-output: text arrives a message at a time",
    )
    agent.add_argument(
        "--approve-mcps", action="store_true", help="approve all configured MCP servers"
    )
    agent.add_argument("--sandbox", choices=get_args(Sandbox), help="the shell sandbox")
    agent.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="extra request header (repeatable)",
    )
    agent.add_argument("--endpoint", metavar="URL", help="API endpoint")
    agent.add_argument(
        "--add-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="extra directory the agent may touch (repeatable)",
    )
    agent.add_argument(
        "--extra-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="pass ARG to cursor-agent as is (repeatable; use --extra-arg=--flag)",
    )
    agent.add_argument("--timeout", type=float, metavar="S", help="seconds the run may take")
    agent.add_argument(
        "--idle-timeout", type=float, metavar="S", help="seconds the CLI may print nothing"
    )
    agent.add_argument(
        "--result-grace",
        type=float,
        default=2.0,
        metavar="S",
        help="seconds the CLI gets to exit after its result (default 2)",
    )
    return parser


def _replay_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agent-sdk replay",
        description="Render a recorded run: the stream-json output of cursor-agent, or the "
        "--json output of agent-sdk. Runs nothing. Exit status: 0 if the recording ends "
        "with a successful result, 1 if not, 2 if it cannot be read.",
    )
    parser.add_argument("file", metavar="FILE", help="the NDJSON file; '-' reads stdin")
    parser.add_argument(
        "--json", action="store_true", help="print each event as one JSON line, nothing else"
    )
    parser.add_argument("--color", choices=get_args(ColorMode), default="auto")
    parser.add_argument("--thinking", action="store_true", help="show the thinking text")
    return parser


def _pairs(
    parser: argparse.ArgumentParser, values: list[str], sep: str, flag: str
) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for value in values:
        name, found, rest = value.partition(sep)
        if not found or not name.strip():
            parser.error(f"{flag} wants NAME{sep}VALUE, got {value!r}")
        pairs[name.strip()] = rest.strip() if sep == ":" else rest
    return pairs


def _is_scenario(value: str) -> bool:
    import fake_agent

    if "/" in value or value.endswith(".ndjson"):
        return True
    return _SCENARIO_NAME.fullmatch(value) is not None and value in fake_agent.scenario_names()


def parse_run_args(argv: Sequence[str]) -> RunCommand:
    """Parse the arguments of ``agent-sdk [run]`` into a :class:`RunCommand`. Pure.

    Raises:
        SystemExit: with status 2 on a usage error (argparse prints why), 0 for ``--help``.
    """
    parser = _run_parser()
    argv = list(argv)
    # Everything after `--` is prompt, whatever it looks like; argparse's intermixed
    # parsing rejects a `-x` there, so the split is done here.
    tail: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, tail = argv[:cut], argv[cut + 1 :]
    args = parser.parse_intermixed_args(argv)
    words: list[str] = [*args.prompt, *tail]
    env = _pairs(parser, args.env, "=", "--env")
    binary: str | None = args.binary
    if args.fake is not None:
        import fake_agent

        if binary is not None:
            parser.error("--fake and --binary exclude each other")
        binary = fake_agent.executable()
        scenario: str = args.fake
        if scenario and not _is_scenario(scenario):
            # `--fake "add a test"`: no scenario was named; the word is the prompt's.
            words.insert(0, scenario)
            scenario = ""
        if scenario:
            is_path = "/" in scenario or scenario.endswith(".ndjson")
            # Absolute, so that --cwd does not change which file the fake reads.
            env["FAKE_AGENT_SCENARIO"] = os.path.abspath(scenario) if is_path else scenario
    partial = args.partial and args.output_format == "stream-json"
    try:
        options = AgentOptions(
            binary=binary,
            cwd=args.cwd,
            workspace=args.workspace,
            model=args.model,
            force=args.force,
            trust=args.trust,
            mode=args.mode,
            resume=args.resume,
            continue_session=args.continue_session,
            env=env or None,
            output_format=args.output_format,
            stream_partial_output=partial,
            approve_mcps=args.approve_mcps,
            sandbox=args.sandbox,
            headers=_pairs(parser, args.header, ":", "--header") or None,
            endpoint=args.endpoint,
            add_dirs=tuple(args.add_dir),
            extra_args=tuple(args.extra_arg),
            timeout=args.timeout,
            idle_timeout=args.idle_timeout,
            result_grace=args.result_grace,
        )
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    prompt = None if words in ([], ["-"]) else " ".join(words)
    return RunCommand(
        prompt=prompt,
        options=options,
        json=args.json,
        color=args.color,
        thinking=args.thinking,
        fake_if_missing=args.fake_if_missing and args.fake is None,
    )


def use_color(mode: str, stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether to write ANSI colours to ``stream`` (https://no-color.org: any NO_COLOR)."""
    if mode != "auto":
        return mode == "always"
    return "NO_COLOR" not in environ and _isatty(stream)


def _error(err: TextIO, message: str) -> None:
    err.write(f"agent-sdk: error: {message}\n")
    err.flush()


def _exit_code(exc: AgentError) -> int:
    if isinstance(exc, AgentTimeoutError):
        return EXIT_TIMEOUT
    if isinstance(exc, AgentNotFoundError):
        return EXIT_USAGE
    return EXIT_FAILED


def _outcome(exc: AgentError | None) -> str:
    if exc is None:
        return "success"
    if isinstance(exc, AgentTimeoutError):
        return "timed out"
    if isinstance(exc, AgentResultError):
        return "error"
    return "failed"


class _JsonSink:
    """``--json``: every event as one line on ``out``, nothing else."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def event(self, event: Event) -> None:
        self.out.write(to_json(event).decode("utf-8") + "\n")
        self.out.flush()


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the run's cleanup ends the agent's group."""


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    # By default SIGTERM kills Python outright and the CLI (in its own process group)
    # would be left running.
    def raise_terminated(signum: int, frame: object) -> None:
        raise _Terminated

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


async def _spin(renderer: Renderer, started: float) -> None:
    while True:
        await anyio.sleep(_TICK)
        renderer.status(time.monotonic() - started)


async def _live(
    prompt: str, options: AgentOptions, sink: Renderer | _JsonSink, started: float
) -> AgentError | None:
    """Run the agent, handing each event to ``sink``; the error it ended with, if any."""
    error: AgentError | None = None
    broken_pipe: BrokenPipeError | None = None
    async with anyio.create_task_group() as tasks:
        if isinstance(sink, Renderer) and sink.live_status:
            tasks.start_soon(_spin, sink, started)
        try:
            async with run(prompt, options=options) as events:
                async for event in events:
                    sink.event(event)
        except AgentError as exc:
            # Returned, not raised: a task group would wrap it in an ExceptionGroup.
            error = exc
        except BrokenPipeError as exc:
            broken_pipe = exc  # raised below, outside the group, for main() to catch
        finally:
            tasks.cancel_scope.cancel()
    if broken_pipe is not None:
        raise broken_pipe
    return error


def _run_main(argv: list[str], out: TextIO, err: TextIO, stdin: TextIO) -> int:
    try:
        command = parse_run_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    prompt = command.prompt
    if prompt is None:
        if _isatty(stdin) and argv[-1:] != ["-"]:
            _error(err, "no prompt: give PROMPT words, or pipe the prompt on stdin")
            return EXIT_USAGE
        prompt = stdin.read().strip()
        if not prompt:
            _error(err, "the prompt read from stdin is empty")
            return EXIT_USAGE
    sink: Renderer | _JsonSink
    renderer: Renderer | None = None
    if command.json:
        sink = _JsonSink(out)
    else:
        renderer = sink = Renderer(
            out,
            err,
            color=use_color(command.color, err, os.environ),
            thinking=command.thinking,
            live_status=_isatty(err),
        )
    started = time.monotonic()
    try:
        with _terminate_as_interrupt():
            error = anyio.run(_live, prompt, command.options, sink, started, backend="asyncio")
            if isinstance(error, AgentNotFoundError) and command.fake_if_missing:
                import fake_agent

                err.write(
                    "agent-sdk: cursor-agent is not installed: running the bundled fake agent\n"
                )
                options = msgspec.structs.replace(command.options, binary=fake_agent.executable())
                error = anyio.run(_live, prompt, options, sink, started, backend="asyncio")
    except KeyboardInterrupt as exc:
        how = "terminated" if isinstance(exc, _Terminated) else "interrupted"
        if renderer is not None:
            renderer.summary(how, elapsed=time.monotonic() - started)
        _error(err, f"{how}; the agent's process group was ended")
        return EXIT_TERMINATED if isinstance(exc, _Terminated) else EXIT_INTERRUPTED
    if renderer is not None:
        renderer.finish()
        if error is None or renderer.events:
            renderer.summary(_outcome(error), elapsed=time.monotonic() - started)
    if error is None:
        return EXIT_OK
    _error(err, str(error))
    if isinstance(error, AgentNotFoundError):
        err.write(
            "agent-sdk: to try it without cursor-agent, run the bundled fake agent: "
            "agent-sdk --fake [SCENARIO] PROMPT\n"
        )
    return _exit_code(error)


def _lines(source: BinaryIO) -> Iterator[bytes]:
    """The lines of a byte stream as they arrive (``read1``: a live pipe is not held up)."""
    framer = LineFramer()
    read = source.read1 if isinstance(source, io.BufferedReader) else source.read
    while chunk := read(65536):
        yield from framer.feed(chunk)
    tail = framer.flush()
    if tail is not None:
        yield tail


def _replay(source: BinaryIO, sink: Renderer | _JsonSink, err: TextIO) -> bool:
    """Render a recorded stream; whether it ended with a successful result."""
    # Whether the recording used --stream-partial-output decides which assistant events
    # are new text. Its first assistant event tells: only a partial stream has deltas
    # (timestamp, no model_call_id), and a partial stream starts with one.
    decoder = LineDecoder(partial=False)
    ok = False
    for line in _lines(source):
        event = decoder.decode(line)
        if event is None:
            text = line.decode("utf-8", "replace").rstrip("\r")
            if isinstance(sink, Renderer):
                sink.raw_line(text)
            else:
                err.write(text + "\n")
            continue
        if isinstance(event, AssistantEvent) and not decoder.partial:
            decoder.partial = event.timestamp_ms is not None and event.model_call_id is None
        elif isinstance(event, UnknownEvent) and event.type == "text":
            text_value = event.raw.get("text")  # a TextLine as `agent-sdk --json` writes it
            event = TextLine(text=text_value if isinstance(text_value, str) else "")
        elif isinstance(event, ResultEvent):
            ok = not event.is_error
        sink.event(event)
    return ok


def _replay_main(argv: list[str], out: TextIO, err: TextIO, stdin: TextIO) -> int:
    try:
        args = _replay_parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    sink: Renderer | _JsonSink
    if args.json:
        sink = _JsonSink(out)
    else:
        sink = Renderer(
            out, err, color=use_color(args.color, err, os.environ), thinking=args.thinking
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
                _error(err, f"cannot read {args.file}: {exc.strerror}")
                return EXIT_USAGE
        ok = _replay(source, sink, err)
    if isinstance(sink, Renderer):
        sink.finish()
        result = sink.result_event
        sink.summary("success" if ok else "error" if result is not None else "no result")
    return EXIT_OK if ok else EXIT_FAILED


def _tolerant(stream: TextIO) -> TextIO:
    # A reply with emoji must not crash on a terminal whose encoding lacks them.
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace")
    return stream


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``agent-sdk`` and ``python -m agent_sdk``; returns the exit status.

    Example::

        main(["--fake", "tools", "add a test"])  # 0
    """
    args = sys.argv[1:] if argv is None else list(argv)
    out, err = _tolerant(sys.stdout), _tolerant(sys.stderr)
    try:
        if args[:1] == ["replay"]:
            return _replay_main(args[1:], out, err, sys.stdin)
        if args[:1] == ["run"]:
            args = args[1:]
        return _run_main(args, out, err, sys.stdin)
    except KeyboardInterrupt:
        _error(err, "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`agent-sdk ... | head`): no traceback, and no second
        # error when Python flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
