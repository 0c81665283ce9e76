"""Everything that is not a headless run: subcommands, ``--version``, ``--help``."""

from __future__ import annotations

import json
import os
import sys

from ._build import build_of
from ._flags import MAIN_FLAGS, Flag, FlagError, Options, scan
from ._models import DEFAULT_MODEL, FAKE_MODELS, VERSION
from ._wire import write_stderr, write_stdout

#: The account the fake is always logged in as.
FAKE_EMAIL = "dev@example.invalid"

_HELP_FLAG = Flag("-h, --help", "help")
_FORMAT_FLAG = Flag("--format <format>", "format", "value", ("text", "json"))
_COMMAND_FLAGS: dict[str, tuple[Flag, ...]] = {
    "models": (_HELP_FLAG,),
    "create-chat": (_HELP_FLAG,),
    "status": (_FORMAT_FLAG, _HELP_FLAG),
    "whoami": (_FORMAT_FLAG, _HELP_FLAG),
    "about": (_FORMAT_FLAG, _HELP_FLAG),
}


def models_text() -> str:
    """The output of ``models`` / ``--list-models``."""
    lines = ["Available models", ""]
    lines += [f"{model_id} - {name}" for model_id, name in FAKE_MODELS.items()]
    lines += ["", "Tip: use --model <id> to switch models."]
    return "\n".join(lines) + "\n"


def help_text() -> str:
    """A short ``--help`` in commander's layout."""
    shown = [flag for flag in MAIN_FLAGS if not flag.hidden]
    width = max(len(flag.spec) for flag in shown)
    lines = [
        "Usage: cursor-agent [options] [command] [prompt...]",
        "",
        "Fake Cursor Agent for tests (agent_sdk's fake_agent).",
        "",
        "Options:",
    ]
    lines += [f"  {flag.spec.ljust(width)}  {flag.dest}" for flag in shown]
    lines += ["", "Commands:"]
    lines += [f"  {name}" for name in _COMMAND_FLAGS]
    return "\n".join(lines) + "\n"


def _status(as_json: bool) -> str:
    if as_json:
        status = {
            "status": "authenticated",
            "isAuthenticated": True,
            "hasAccessToken": True,
            "hasRefreshToken": True,
            "userInfo": {"email": FAKE_EMAIL},
        }
        return json.dumps(status, separators=(",", ":")) + "\n"
    return f"\n ✓ Logged in as {FAKE_EMAIL}\n\n"


def _about(as_json: bool, model: str) -> str:
    import platform

    info = {
        "cliVersion": VERSION,
        "model": FAKE_MODELS.get(model, model),
        "os": f"{sys.platform} ({platform.machine()})",
        "terminal": "unknown",
        "shell": "bash",
        "userEmail": FAKE_EMAIL,
    }
    if as_json:  # the keys of 2026.10.01 (docs/protocol.md §1, subcommands)
        wire = {
            "cliVersion": VERSION,
            "latestStatus": "up-to-date",
            "latestVersion": VERSION,
            "model": info["model"],
            "subscriptionTier": "free",
            "osPlatform": sys.platform,
            "osArch": platform.machine(),
            "userEmail": FAKE_EMAIL,
            "terminalProgram": "unknown",
            "shell": "bash",
            "lastRequestId": None,
        }
        return json.dumps(wire, separators=(",", ":")) + "\n"
    labels = ("CLI Version", "Model", "OS", "Terminal", "Shell", "User Email")
    rows = [f"{label:<12} {value}" for label, value in zip(labels, info.values(), strict=True)]
    return "About Cursor CLI\n\n" + "\n".join(rows) + "\n"


def _acp(options: Options) -> int:
    """``acp``: the hidden ACP server subcommand; its only option is ``-h`` (docs/acp.md §1)."""
    from .acp import DESCRIPTION, run_acp

    try:
        values, operands, _ = scan(options.command_args, (_HELP_FLAG,))
        if operands:
            raise FlagError(
                "error: too many arguments for 'acp'. "
                f"Expected 0 arguments but got {len(operands)}."
            )
    except FlagError as exc:
        write_stderr(f"{exc}\n")
        return 1
    if values.get("help"):
        write_stdout(
            f"Usage: cursor-agent acp [options]\n\n{DESCRIPTION}\n\n"
            "Options:\n  -h, --help  display help for command\n"
        )
        return 0
    try:
        build_of(os.environ)  # the fake's own setup, checked before anything is served
    except ValueError as exc:
        write_stderr(f"fake_agent: {exc}\n")
        return 2
    # --plugin-dir is accepted and nothing of it is read (acp/_mcp.py says why).
    return run_acp(options.model, options.api_key, options.force)


def run_command(options: Options) -> int:
    """Run the subcommand named in ``options.command``; return the exit code."""
    command = options.command or ""
    if command in ("ls", "resume"):
        # Interactive pickers in the real CLI: nothing sensible to do headless.
        write_stderr(f"error: '{command}' needs an interactive terminal\n")
        return 1
    if command == "acp":
        return _acp(options)
    if command == "mcp":
        from ._mcp_command import run_mcp

        try:
            _, operands, _ = scan(options.command_args, (_HELP_FLAG,))
        except FlagError as exc:
            write_stderr(f"{exc}\n")
            return 1
        return run_mcp(options, operands)
    flags = _COMMAND_FLAGS[command]
    try:
        values, operands, _ = scan(options.command_args, flags)
        if operands:
            raise FlagError(
                f"error: too many arguments for '{command}'. "
                f"Expected 0 arguments but got {len(operands)}."
            )
    except FlagError as exc:
        write_stderr(f"{exc}\n")
        return 1
    as_json = values.get("format") == "json"
    if values.get("help"):
        write_stdout(f"Usage: cursor-agent {command} [options]\n")
    elif command == "models":
        write_stdout(models_text())
    elif command == "create-chat":
        import uuid

        write_stdout(f"{uuid.uuid4()}\n")
    elif command in ("status", "whoami"):
        write_stdout(_status(as_json))
    else:
        write_stdout(_about(as_json, options.model or DEFAULT_MODEL))
    return 0
