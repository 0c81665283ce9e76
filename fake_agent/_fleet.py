"""What the real CLI does when many runs share a machine (docs/protocol.md §1, "Many runs
at once"): the config file it rewrites at every start, the login kept in the config dir,
and a per-task counter for scenarios that fail on their first attempts.

- :func:`write_config`: every run rewrites ``$CURSOR_CONFIG_DIR/cli-config.json`` through
  the fixed temp name ``cli-config.json.tmp`` and a rename, so runs started together
  really race on it and the losers fail as the real CLI does. A run given ``--model``
  stores it there with its parameters (``_model_choice.py``), and a run without one uses
  the stored model (:func:`current_config`): ``--model`` is sticky. Only when
  ``$CURSOR_CONFIG_DIR`` is set: the fake never reads or writes a real home directory.
- :func:`logged_in`: with ``$FAKE_AGENT_REQUIRE_LOGIN=1``, a run without a key or token is
  logged in only if ``<config dir>/auth.json`` exists.
- the ``fail_first`` directive (:func:`run_fail_first`): counts attempts in the file
  ``$FAKE_AGENT_COUNTER`` (under ``flock``, safe between concurrent fakes) and fails the
  first ``times`` of them in a chosen way.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

#: The config dir of the real CLI (default ``~/.cursor``).
CONFIG_DIR_ENV = "CURSOR_CONFIG_DIR"

#: Env var: seconds between writing ``cli-config.json.tmp`` and renaming it (default 0).
CONFIG_WRITE_DELAY_ENV = "FAKE_AGENT_CONFIG_WRITE_DELAY"

#: Env var: ``1`` makes a run without key or token need ``<config dir>/auth.json``.
REQUIRE_LOGIN_ENV = "FAKE_AGENT_REQUIRE_LOGIN"

#: Env var: the file ``fail_first`` counts attempts in.
COUNTER_ENV = "FAKE_AGENT_COUNTER"

CONFIG_NAME = "cli-config.json"
AUTH_NAME = "auth.json"

#: What a ``retriable`` failure writes to stderr (the ``retriable_error`` scenario's line).
RETRIABLE_TEXT = "RetriableError: [unavailable] Error: the service did not answer after 3 attempts"
#: What a ``usage_limit`` failure writes to stderr (the ``usage_limit`` scenario's text).
USAGE_LIMIT_TEXT = (
    "Error: You've hit your usage limit for this billing period.\n"
    "Upgrade your plan or wait until Nov 1, 2026 to continue.\n"
    "See https://cursor.example.invalid/settings for details."
)
#: The ways ``fail_first`` can fail.
FAILURE_KINDS = ("config_race", "retriable", "usage_limit")


class EndRun(Exception):  # noqa: N818 - a signal to stop, not an error
    """Raised by a directive to end the run at once with exit code ``code``."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class FailContext(Protocol):
    """What ``fail_first`` acts on (a subset of the run's context)."""

    def stderr_text(self, text: str) -> None:
        """Write text to stderr."""


# --------------------------------------------------------------------------- environment


def require_login(environ: Mapping[str, str]) -> bool:
    """Whether ``$FAKE_AGENT_REQUIRE_LOGIN`` asks for a login (``1``; unset, empty or
    ``0``: no).

    Raises:
        ValueError: any other value.
    """
    raw = environ.get(REQUIRE_LOGIN_ENV, "")
    if raw not in ("", "0", "1"):
        raise ValueError(f"{REQUIRE_LOGIN_ENV} must be 1 or 0, not {raw!r}")
    return raw == "1"


def config_dir(environ: Mapping[str, str]) -> str:
    """The CLI's config dir: ``$CURSOR_CONFIG_DIR``, else ``~/.cursor``."""
    return environ.get(CONFIG_DIR_ENV) or os.path.join(os.path.expanduser("~"), ".cursor")


# --------------------------------------------------------------------------- config file


def race_message(directory: str) -> str:
    """The real CLI's stderr line when it lost the race on its config file."""
    final = os.path.join(directory, CONFIG_NAME)
    return f"Error: ENOENT: no such file or directory, rename '{final}.tmp' -> '{final}'\n"


def _existing_config(final: str) -> dict[str, Any]:
    """The config file's object; empty when it is missing or not a JSON object."""
    try:
        with open(final, "rb") as file:
            existing = json.loads(file.read())
    except (OSError, ValueError):
        existing = None
    return existing if isinstance(existing, dict) else {}


def _config_content(final: str, save: Callable[[dict[str, Any]], None] | None) -> bytes:
    """The existing config with this run's start time and, by ``save``, what the run's
    ``--model`` saves (``_model_choice.save``, docs/protocol.md §1)."""
    data = _existing_config(final)
    data.setdefault("version", 1)
    data["lastRunStartedAtMs"] = int(time.time() * 1000)
    if save is not None:
        save(data)
    return json.dumps(data, indent=2).encode("utf-8") + b"\n"


def current_config(environ: Mapping[str, str]) -> dict[str, Any]:
    """The object of ``$CURSOR_CONFIG_DIR/cli-config.json`` (the stored model and its
    parameters); empty without the dir or the file, or when it holds no object."""
    directory = environ.get(CONFIG_DIR_ENV)
    if not directory:
        return {}
    return _existing_config(os.path.join(directory, CONFIG_NAME))


def write_config(
    environ: Mapping[str, str],
    delay: float,
    save: Callable[[dict[str, Any]], None] | None = None,
) -> str | None:
    """Rewrite ``$CURSOR_CONFIG_DIR/cli-config.json`` as the real CLI does at every start:
    write ``cli-config.json.tmp``, wait ``delay`` seconds, rename it over the config.
    ``save``: writes the run's ``--model`` (and its parameters) into the config object.

    Returns the stderr text of a lost race (another run renamed the temp file away
    first), or None. Does nothing when ``$CURSOR_CONFIG_DIR`` is not set.
    """
    directory = environ.get(CONFIG_DIR_ENV)
    if not directory:
        return None
    directory = os.path.abspath(directory)
    final = os.path.join(directory, CONFIG_NAME)
    os.makedirs(directory, exist_ok=True)
    content = _config_content(final, save)
    with open(final + ".tmp", "wb") as file:
        file.write(content)
    if delay:
        time.sleep(delay)
    try:
        os.rename(final + ".tmp", final)
    except FileNotFoundError:
        return race_message(directory)
    return None


def logged_in(api_key: str | None, environ: Mapping[str, str]) -> bool:
    """Whether a run may go on under ``$FAKE_AGENT_REQUIRE_LOGIN``: always when it is
    off; else with a key (``--api-key``, ``$CURSOR_API_KEY``), a ``$CURSOR_AUTH_TOKEN``,
    or a login (``<config dir>/auth.json``)."""
    if not require_login(environ):
        return True
    if api_key or environ.get("CURSOR_API_KEY") or environ.get("CURSOR_AUTH_TOKEN"):
        return True
    return os.path.isfile(os.path.join(config_dir(environ), AUTH_NAME))


# --------------------------------------------------------------------------- counter


def bump_counter(path: str) -> int:
    """Add one to the count in the file ``path`` (created, holding 0, when missing) and
    return the new count. An exclusive ``flock`` makes concurrent bumps safe.

    Raises:
        OSError: the file cannot be opened or locked.
        ValueError: the file holds something other than a count.
    """
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        data = b""
        while chunk := os.read(fd, 4096):
            data += chunk
        text = data.decode("ascii", errors="replace").strip()
        if text and not text.isdigit():
            raise ValueError(f"{COUNTER_ENV} file {path!r} holds {text[:40]!r}, not a count")
        count = int(text or "0") + 1
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, f"{count}\n".encode("ascii"))
    finally:
        os.close(fd)  # releases the lock
    return count


def check_fail_first(spec: dict[str, Any]) -> str | None:
    """``times`` is not negative; ``with`` is a known failure."""
    if spec["times"] < 0:
        return "directive 'fail_first' needs 'times' >= 0"
    if spec["with"] not in FAILURE_KINDS:
        return f"directive 'fail_first' has an unknown 'with' {spec['with']!r} (known: " + (
            ", ".join(FAILURE_KINDS) + ")"
        )
    return None


def run_fail_first(spec: dict[str, Any], ctx: FailContext) -> None:
    """Count this attempt; while the count is at most ``times``, fail the run."""
    path = os.environ.get(COUNTER_ENV, "")
    try:
        count = bump_counter(path)
    except (OSError, ValueError) as exc:
        ctx.stderr_text(f"fake_agent: {exc}\n")
        raise EndRun(2) from exc
    if count > spec["times"]:
        return
    kind = spec["with"]
    if kind == "config_race":
        ctx.stderr_text(race_message(os.path.abspath(config_dir(os.environ))))
    elif kind == "retriable":
        ctx.stderr_text(RETRIABLE_TEXT + "\n")
    else:
        ctx.stderr_text(USAGE_LIMIT_TEXT + "\n")
    raise EndRun(1)
