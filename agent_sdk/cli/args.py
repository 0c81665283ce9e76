"""The arguments of ``agent-sdk [run] PROMPT... [options]`` and ``agent-sdk replay FILE``.

The agent flags are derived from :class:`~agent_sdk.AgentOptions`: a table gives each
exposed field its spelling and help text, and the field itself gives the flag's default,
its choices (a ``Literal`` type) and the type of its value. A flag cannot drift from the
option it sets, and a flag left alone leaves the option at AgentOptions' own default.
"""

from __future__ import annotations

import argparse
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TextIO, Union, get_args, get_origin

import msgspec

from ..budget import Budget
from ..options import AgentOptions
from ._agent_flags import AGENT_FLAGS, CLI_DEFAULTS, Flag
from ._budget_arg import budget_arg
from ._fake_args import FAKE_HELP, UnknownScenarioError, fake_scenario
from ._parser import CommandParser
from ._screen import fitted
from .hints import in_flag_terms
from .render import isatty

__all__ = [
    "AGENT_FLAGS",
    "CLI_DEFAULTS",
    "EXIT_BROKEN_PIPE",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TERMINATED",
    "EXIT_TIMEOUT",
    "EXIT_USAGE",
    "ColorMode",
    "RunCommand",
    "add_agent_flags",
    "given_options",
    "parse_run_args",
    "print_error",
    "replay_parser",
    "run_parser",
    "use_color",
]

ColorMode = Literal["auto", "always", "never"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_TIMEOUT = 124  # as timeout(1)
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE
EXIT_TERMINATED = 143  # 128 + SIGTERM

# The commands come first: the flags below are those of `run` alone, and a user who reads
# only the top of the page must still learn that `batch` and `replay` exist.
_DESCRIPTION = """\
Run Cursor's coding agent (cursor-agent) on a prompt and show its progress as it streams.

commands:
  agent-sdk [run] PROMPT... [options]    run the agent on a prompt (this page)
  agent-sdk batch TASKS.jsonl [options]  run a file of tasks, several at once, with a
                                         live table, a JSON summary and an HTML report
                                         (agent-sdk batch --help)
  agent-sdk replay FILE [--json]         render a recorded run again: the stream-json
                                         output of cursor-agent, or agent-sdk's --json
  agent-sdk rewind [CHECKPOINT_ID]       undo a run made with --checkpoint
  agent-sdk checkpoints                  list a tree's checkpoints (--keep N prunes)
"""

_EPILOG = """\
The prompt is the PROMPT words joined by spaces; with PROMPT '-' or absent (and stdin
not a terminal) it is read from stdin. Put '--' before a prompt that starts with '-' or
with a command's name ('batch', 'checkpoints', 'doctor', 'replay', 'rewind' or
'run': agent-sdk --fake -- batch the writes).

The API key is never a flag (argv is visible to every user of the machine): set
CURSOR_API_KEY in the environment, which the CLI reads, or log in once with
`cursor-agent login`.

The reply goes to stdout; tool calls, thinking and the summary go to stderr.

exit status: 0 success; 1 the agent failed (non-zero exit, error result, broken
output); 2 usage error: a flag the run cannot use (a bad value, a --cwd that is no
directory, a --binary or cursor-agent not found or not runnable, a --model, --workspace
or other option cursor-agent refused, --no-trust in an untrusted workspace); 124
timeout; 130 interrupted (143 on SIGTERM).
"""


_Kind = Literal["switch", "pairs", "list", "value"]


def _members(annotation: Any) -> tuple[Any, ...]:
    """The types a field accepts: the members of a union, else the annotation itself."""
    if get_origin(annotation) in (Union, types.UnionType):
        return get_args(annotation)
    return (annotation,)


def _kind(field: msgspec.structs.FieldInfo) -> _Kind:
    if field.type is bool:
        return "switch"
    origins = {get_origin(member) for member in _members(field.type)}
    if Mapping in origins:
        return "pairs"
    if Sequence in origins:
        return "list"
    return "value"


def _add_agent_flag(
    group: argparse._ArgumentGroup, field: msgspec.structs.FieldInfo, flag: Flag
) -> None:
    default = CLI_DEFAULTS.get(field.name, field.default)
    kind = _kind(field)
    if kind == "switch":
        action = "store_false" if default else "store_true"
        group.add_argument(
            *flag.spelling, dest=field.name, action=action, default=default, help=flag.help
        )
        return
    extra: dict[str, Any]
    if kind in ("pairs", "list"):
        # Not given: None, and AgentOptions keeps its own default (parse_run_args).
        extra = {"action": "append", "default": None}
    else:
        extra = {"default": default}
        members = _members(field.type)
        literal = next((m for m in members if get_origin(m) is Literal), None)
        if literal is not None:
            extra["choices"] = get_args(literal)
        elif float in members:
            extra["type"] = float
        elif Budget in members:
            extra["type"] = budget_arg  # a JSON object (_budget_arg.py)
    group.add_argument(
        *flag.spelling, dest=field.name, metavar=flag.metavar, help=flag.help, **extra
    )


def run_parser(
    fields: Sequence[msgspec.structs.FieldInfo] | None = None,
) -> argparse.ArgumentParser:
    """The parser of ``agent-sdk [run]``.

    Args:
        fields: the fields the agent flags are derived from; default those of
            :class:`AgentOptions` (a test passes others to see the flags follow).
    """
    parser = CommandParser(
        command="agent-sdk",
        prog="agent-sdk [run]",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("prompt", nargs="*", metavar="PROMPT", help="what to ask the agent")
    parser.add_argument(
        "--version",
        action="store_true",
        help="print the versions of agent-sdk and of the CLI it would run, then exit",
    )
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
        help=FAKE_HELP,
    )
    show.add_argument(
        "--fake-if-missing",
        action="store_true",
        help="use cursor-agent when it is installed, else the bundled fake agent (and say so)",
    )
    show.add_argument(
        "--fake-path",
        action="store_true",
        help="print the path of the bundled fake agent, then exit: "
        'export CURSOR_AGENT_BIN="$(.venv/bin/agent-sdk --fake-path)" points agent_sdk at it',
    )
    add_agent_flags(parser, fields)
    return parser


def replay_parser() -> argparse.ArgumentParser:
    """The parser of ``agent-sdk replay``."""
    parser = CommandParser(
        command="agent-sdk replay",
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
        version: print the versions and exit, running nothing.
        fake_path: print the fake agent's path and exit, running nothing.
    """

    prompt: str | None
    options: AgentOptions
    json: bool = False
    color: ColorMode = "auto"
    thinking: bool = False
    fake_if_missing: bool = False
    version: bool = False
    fake_path: bool = False


def _pairs(
    parser: argparse.ArgumentParser, values: list[str], sep: str, flag: str
) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for value in values:
        name, found, rest = value.partition(sep)
        if not found or not name.strip():
            # The value is not quoted back: a header or variable may be a credential.
            missing = f"no '{sep}'" if not found else "no name"
            parser.error(f"{flag} wants NAME{sep}VALUE; one value has {missing}")
        pairs[name.strip()] = rest.strip() if sep == ":" else rest
    return pairs


def add_agent_flags(
    parser: argparse.ArgumentParser, fields: Sequence[msgspec.structs.FieldInfo] | None = None
) -> None:
    """Add the agent flags (derived from :class:`AgentOptions`) to ``parser``, as a group."""
    agent = parser.add_argument_group("agent options (see AgentOptions)")
    by_name = {field.name: field for field in fields or msgspec.structs.fields(AgentOptions)}
    for name, flag in AGENT_FLAGS.items():
        _add_agent_flag(agent, by_name[name], flag)


def given_options(
    parser: argparse.ArgumentParser, args: argparse.Namespace, words: list[str]
) -> dict[str, Any]:
    """The :class:`AgentOptions` fields the agent flags and ``--fake`` of ``args`` set
    (a flag left alone is absent: AgentOptions keeps its default).

    ``words`` are the prompt words: ``--fake WORD`` where WORD names no scenario puts
    WORD first among them. Errors go through ``parser.error`` (exit 2).
    """
    fields = {field.name: field for field in msgspec.structs.fields(AgentOptions)}
    given: dict[str, Any] = {}
    for name, flag in AGENT_FLAGS.items():
        value = getattr(args, name)
        if value is None:
            continue  # AgentOptions' default
        kind = _kind(fields[name])
        if kind == "pairs":
            assert flag.separator is not None
            value = _pairs(parser, value, flag.separator, flag.spelling[-1])
        elif kind == "list":
            value = tuple(value)
        given[name] = value
    if args.fake is not None:
        import fake_agent

        if args.binary is not None:
            parser.error("--fake and --binary exclude each other")
        given["binary"] = fake_agent.executable()
        try:
            scenario = fake_scenario(args.fake, words) if args.fake else None
        except UnknownScenarioError as exc:
            parser.error(str(exc))
        if scenario is not None:
            given["env"] = {**given.get("env", {}), "FAKE_AGENT_SCENARIO": scenario}
        elif args.fake:
            # `--fake "add a test"`: no scenario was named; the word is the prompt's.
            words.insert(0, args.fake)
    if args.output_format != "stream-json":
        given["stream_partial_output"] = False  # see CLI_DEFAULTS
    return given


def parse_run_args(argv: Sequence[str]) -> RunCommand:
    """Parse the arguments of ``agent-sdk [run]`` into a :class:`RunCommand`. Pure.

    Raises:
        SystemExit: with status 2 on a usage error (argparse prints why), 0 for ``--help``.
    """
    parser = run_parser()
    argv = list(argv)
    # Everything after `--` is prompt, whatever it looks like; argparse's intermixed
    # parsing rejects a `-x` there, so the split is done here.
    tail: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, tail = argv[:cut], argv[cut + 1 :]
    args = parser.parse_intermixed_args(argv)
    words: list[str] = [*args.prompt, *tail]
    given = given_options(parser, args, words)
    try:
        options = AgentOptions(**given)
    except (ValueError, TypeError) as exc:
        parser.error(in_flag_terms(str(exc)))
    prompt = None if words in ([], ["-"]) else " ".join(words)
    return RunCommand(
        prompt=prompt,
        options=options,
        json=args.json,
        color=args.color,
        thinking=args.thinking,
        fake_if_missing=args.fake_if_missing and args.fake is None,
        version=args.version,
        fake_path=args.fake_path,
    )


def use_color(mode: str, stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether to write ANSI colours to ``stream``: with ``auto``, only on a terminal and
    when ``NO_COLOR`` is unset or empty (no-color.org: only a non-empty value turns
    colours off)."""
    if mode != "auto":
        return mode == "always"
    return not environ.get("NO_COLOR") and isatty(stream)


def print_error(err: TextIO, message: str) -> None:
    """Write ``agent-sdk: error: MESSAGE`` on ``err``, as argparse words its own (folded
    at spaces to the width of a terminal: ``_parser.py`` says why)."""
    err.write(fitted(f"agent-sdk: error: {message}", err) + "\n")
    err.flush()
