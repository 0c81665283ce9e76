"""Command-line parsing that behaves like the real CLI's (commander.js) parser.

Error messages are commander's, word for word, because wrappers show them to users
and tests match on them. Behaviour copied from commander: options and operands may
be interleaved; ``--`` ends options; ``--flag=value`` works only for flags that take a
value; a required value is taken from the next argument even if it starts with ``-``;
an optional value (``--resume [chatId]``) only if the next argument is not an option;
short boolean flags combine (``-pf``); ``-Hvalue`` attaches a value; the first operand
names a subcommand when one matches, and the rest of argv then belongs to it.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

_Kind = Literal["bool", "value", "optional", "list"]


class FlagError(Exception):
    """A command line the real CLI would refuse; ``str()`` is its stderr line(s)."""


class Flag(NamedTuple):
    """One option: ``spec`` is commander's flags string, quoted verbatim in errors."""

    spec: str
    dest: str
    kind: _Kind = "bool"
    choices: tuple[str, ...] = ()
    hidden: bool = False
    """Left out of ``--help``, as the real CLI's internal flags are."""

    @property
    def names(self) -> list[str]:
        """The option names, e.g. ``["-H", "--header"]``."""
        return [word.rstrip(",") for word in self.spec.split() if word.startswith("-")]

    @property
    def takes_value(self) -> bool:
        """Whether ``--flag=value`` is accepted (commander: required or optional value)."""
        return self.kind != "bool"


#: The options of the top-level command, as the real CLI's help lists them.
MAIN_FLAGS: tuple[Flag, ...] = (
    Flag("-p, --print", "print_mode"),
    Flag("--output-format <format>", "output_format", "value", ("text", "json", "stream-json")),
    Flag("--stream-partial-output", "stream_partial_output"),
    Flag("--model <model>", "model", "value"),
    Flag("-f, --force", "force"),
    Flag("--yolo", "force"),
    Flag("--trust", "trust"),
    Flag("--mode <mode>", "mode", "value", ("plan", "ask")),
    Flag("--resume [chatId]", "resume", "optional"),
    Flag("--continue", "continue_"),
    Flag("--workspace <path>", "workspace", "value"),
    Flag("--api-key <key>", "api_key", "value"),
    Flag("-H, --header <header>", "headers", "list"),
    Flag("--approve-mcps", "approve_mcps"),
    Flag("--sandbox <mode>", "sandbox", "value", ("enabled", "disabled")),
    # Accepted, and no worktree is made: the contract records the flags, not what the
    # CLI does with them (docs/protocol.md §1).
    Flag("-w, --worktree [name]", "worktree", "optional"),
    Flag("--worktree-base <ref>", "worktree_base", "value"),
    Flag("--skip-worktree-setup", "skip_worktree_setup"),
    Flag("-e, --endpoint <url>", "endpoint", "value"),
    Flag("--add-dir <path>", "add_dirs", "list"),
    # A per-run plugin folder (docs/protocol.md §1, §9): its servers and hooks (_plugins.py).
    Flag("--plugin-dir <path>", "plugin_dirs", "list"),
    Flag("--min-version <version>", "min_version", "value"),
    Flag("--list-models", "list_models"),
    # Hidden in the real CLI's help (docs/protocol.md §1, "Hidden flags"): with the json
    # format, the result gains `thinking_blocks`.
    Flag("--show-thinking", "show_thinking", hidden=True),
    # Hidden too: the run's chat gets this id; single use (_chats.py).
    Flag("--new-session-id <uuid>", "new_session_id", "value", hidden=True),
    Flag("-v, --version", "version"),
    Flag("-h, --help", "help"),
)

#: Subcommands recognised as the first operand; anything else is prompt text.
#: ``acp`` is hidden (not in ``--help``) and runs the ACP server (docs/acp.md §1).
COMMANDS: tuple[str, ...] = (
    "models",
    "status",
    "whoami",
    "about",
    "create-chat",
    "mcp",
    "ls",
    "resume",
    "acp",
)

# Flags that end parsing at once, as commander's version/help listeners do.
_IMMEDIATE = frozenset({"version", "help"})


class Options:
    """Everything the command line said. Unset values are None / False / empty.

    A plain class rather than a dataclass: importing dataclasses costs more start-up
    time than the whole fake, and the fake is spawned hundreds of times per test run.
    """

    def __init__(self) -> None:
        self.print_mode = False
        self.output_format: str | None = None
        self.stream_partial_output = False
        self.model: str | None = None
        self.force = False
        self.trust = False
        self.mode: str | None = None
        #: ``True`` for a bare ``--resume``, the chat id for ``--resume ID``.
        self.resume: str | bool | None = None
        self.continue_ = False
        #: ``--new-session-id``: the id of the chat this run makes.
        self.new_session_id: str | None = None
        self.workspace: str | None = None
        self.api_key: str | None = None
        self.headers: list[str] = []
        self.approve_mcps = False
        self.sandbox: str | None = None
        #: ``True`` for a bare ``--worktree``, the name for ``--worktree NAME``.
        self.worktree: str | bool | None = None
        self.worktree_base: str | None = None
        self.skip_worktree_setup = False
        self.endpoint: str | None = None
        self.add_dirs: list[str] = []
        self.plugin_dirs: list[str] = []
        self.min_version: str | None = None
        self.list_models = False
        self.show_thinking = False
        self.version = False
        self.help = False
        #: Operands that are not a subcommand: the prompt words, joined by one space.
        self.prompt_words: list[str] = []
        #: The subcommand named by the first operand, and the arguments after it.
        self.command: str | None = None
        self.command_args: list[str] = []


def _is_option(arg: str) -> bool:
    return arg.startswith("-") and len(arg) > 1


def _unknown_message(arg: str, flags: tuple[Flag, ...]) -> str:
    message = f"error: unknown option '{arg}'"
    if arg.startswith("--"):
        # Imported here: only the error path needs it, and the fake starts often.
        import difflib

        candidates = [name for flag in flags for name in flag.names if name.startswith("--")]
        close = difflib.get_close_matches(arg.partition("=")[0], candidates, n=1, cutoff=0.6)
        if close:
            # commander puts the suggestion on its own line.
            message += f"\n(Did you mean {close[0]}?)"
    return message


def _store(values: dict[str, object], flag: Flag, value: str | bool) -> None:
    if flag.choices and value not in flag.choices:
        raise FlagError(
            f"error: option '{flag.spec}' argument '{value}' is invalid. "
            f"Allowed choices are {', '.join(flag.choices)}."
        )
    if flag.kind == "list":
        existing = values.setdefault(flag.dest, [])
        assert isinstance(existing, list)
        existing.append(value)
    else:
        values[flag.dest] = value


def scan(
    argv: list[str], flags: tuple[Flag, ...], commands: tuple[str, ...] = ()
) -> tuple[dict[str, object], list[str], list[str] | None]:
    """Split argv into option values (by ``dest``), operands and a subcommand's argv.

    The third item is ``None`` without a subcommand, else ``[command, *its_args]``.
    Raises FlagError for an unknown option, a missing value or a refused choice.
    """
    by_name = {name: flag for flag in flags for name in flag.names}
    values: dict[str, object] = {}
    operands: list[str] = []
    unknown: str | None = None
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--":
            operands.extend(args)
            break
        if not _is_option(arg):
            if not operands and unknown is None and arg in commands:
                return values, operands, [arg, *args]
            operands.append(arg)
            continue
        name, eq, attached = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        has_attached = bool(eq)
        if not arg.startswith("--") and len(arg) > 2:
            # A short option with something glued on: ``-Hvalue`` or ``-pf``.
            name, attached, has_attached = arg[:2], arg[2:], True
        flag = by_name.get(name)
        if flag is None or (has_attached and not flag.takes_value and eq):
            # commander only reports unknown options after parsing everything.
            unknown = unknown or arg
            continue
        if has_attached and flag.takes_value:
            _store(values, flag, attached)
        elif has_attached:
            # Combined short booleans: handle ``-p`` and re-scan ``-f...``.
            _store(values, flag, True)
            args.insert(0, "-" + attached)
        elif flag.kind == "bool":
            _store(values, flag, True)
        elif flag.kind == "optional":
            if args and not _is_option(args[0]):
                _store(values, flag, args.pop(0))
            else:
                _store(values, flag, True)
        elif args:
            _store(values, flag, args.pop(0))
        else:
            raise FlagError(f"error: option '{flag.spec}' argument missing")
        if flag.dest in _IMMEDIATE:
            return values, operands, None
    if unknown is not None:
        raise FlagError(_unknown_message(unknown, flags))
    return values, operands, None


def parse_args(argv: list[str]) -> Options:
    """Parse the top-level command line into Options (raises FlagError)."""
    values, operands, command = scan(argv, MAIN_FLAGS, COMMANDS)
    options = Options()
    for dest, value in values.items():
        setattr(options, dest, value)
    options.prompt_words = operands
    if command is not None:
        options.command, options.command_args = command[0], command[1:]
    return options
