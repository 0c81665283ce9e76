"""Hooks in print mode, run for real as the contract says the CLI runs them
(docs/protocol.md §6; fake_agent/scenarios/README.md "Hooks").

- Files: the user's ``$HOME/.cursor/hooks.json`` (commands run from ``~/.cursor/``),
  in a trusted workspace ``<workspace>/.cursor/hooks.json`` (commands run from the
  workspace), and each ``--plugin-dir`` plugin's ``hooks/hooks.json`` (commands run from
  the plugin's folder; ``_plugins.py``); none in a ``no-hooks`` build. A file needs
  ``"version": 1`` and a ``hooks`` object of **flat** lists; a file without version 1 is
  rejected whole (one stderr line), a nested Claude-style group or a ``prompt`` entry
  never fires.
- Each entry's ``command`` runs through ``sh -c``, the payload as one JSON object on stdin,
  the answer read from stdout, within ``timeout`` seconds (default
  :data:`DEFAULT_TIMEOUT`).
- :class:`Hooks` fires the events the contract saw fire in print mode and turns answers
  into verdicts in the stream's words (§6.4).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import time
from collections.abc import Mapping
from typing import Any, NamedTuple

from ._mcp_client import track, untrack
from ._models import VERSION
from ._wire import write_stderr

#: Seconds a hook may run when its entry gives no ``timeout`` (the real default is only
#: known to be under 75 s, §6.1).
DEFAULT_TIMEOUT = 30.0

#: The paragraph the CLI adds to the reason of a call a preToolUse hook blocked (seen).
AGENT_NOTE = "Agent note: Do not suggest workarounds to the blocked tool."
#: The reason of a command a beforeShellExecution hook blocked (seen).
SHELL_BLOCKED = (
    "Command execution was blocked by a hook.\n\n"
    "To view or modify configured hooks, go to Cursor Settings > Hooks.\n\n" + AGENT_NOTE
)


class Entry(NamedTuple):
    """One hook: its command, where it runs, and its options."""

    command: str
    cwd: str
    timeout: float
    fail_closed: bool
    matcher: str | None


class Verdict(NamedTuple):
    """What the hooks said of a call: the reason if they blocked it (None: it runs), and
    the input a hook changed (None: unchanged)."""

    reason: str | None = None
    updated_input: dict[str, Any] | None = None


class _Answer(NamedTuple):
    code: int | None  # None: it did not end in time
    stdout: str
    stderr: str


def _entries_of(path: str, cwd: str) -> dict[str, list[Entry]]:
    """The hooks of one file by event; a file without ``"version": 1`` is rejected."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        data = None
    if (
        not isinstance(data, dict)
        or data.get("version") != 1
        or not isinstance(data.get("hooks"), dict)
    ):
        write_stderr(f'Ignoring hooks file {path}: it needs "version": 1 and a "hooks" object\n')
        return {}
    found: dict[str, list[Entry]] = {}
    for event, entries in data["hooks"].items():
        for entry in entries if isinstance(entries, list) else []:
            command = entry.get("command") if isinstance(entry, dict) else None
            if not isinstance(command, str) or entry.get("type", "command") != "command":
                continue  # a nested group, a prompt hook, garbage: never fires
            timeout = entry.get("timeout")
            seconds = float(timeout) if isinstance(timeout, (int, float)) and timeout > 0 else None
            matcher = entry.get("matcher")
            found.setdefault(event, []).append(
                Entry(
                    command,
                    cwd,
                    seconds or DEFAULT_TIMEOUT,
                    entry.get("failClosed") is True,
                    matcher if isinstance(matcher, str) and matcher else None,
                )
            )
    return found


def _matches(matcher: str | None, subject: str, search: bool) -> bool:
    """A matcher is a regular expression (``Shell|Write``, ``MCP:.*``): it must match the
    whole tool name, or anywhere in a shell command; one that does not compile is text."""
    if matcher is None:
        return True
    try:
        pattern = re.compile(matcher)
    except re.error:
        return matcher in subject if search else matcher == subject
    return bool(pattern.search(subject) if search else pattern.fullmatch(subject))


class _HookProcess:
    """A running hook, in the fake's own process group and session as the CLI's hooks
    are (docs/protocol.md §6.3: they inherit the CLI's environment; a group or session of
    their own is nowhere reported): killed with every process below it at its timeout,
    and by the fake's ``kill`` directive or a SIGTERM while it runs
    (:func:`._mcp_client.track`)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def end(self, grace: float = 0.0) -> None:
        for pid in [*_below(self.pid), self.pid]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _below(pid: int) -> list[int]:
    """The processes below ``pid``, deepest last (Linux: ``/proc``; elsewhere none)."""
    found: list[int] = []
    parents = [pid]
    while parents:
        parent = parents.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children", "rb") as file:
                    children = [int(child) for child in file.read().split()]
            except (OSError, ValueError):
                continue
            found += children
            parents += children
    return found


def _run(entry: Entry, payload: dict[str, Any], env: dict[str, str]) -> _Answer:
    import subprocess  # only runs with hooks pay for it

    data = json.dumps(payload).encode("utf-8")
    try:
        proc = subprocess.Popen(
            ["/bin/sh", "-c", entry.command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=entry.cwd,
            env=env,
        )
    except OSError as exc:
        return _Answer(127, "", str(exc))
    running = _HookProcess(proc.pid)
    track(running)
    try:
        out, err = proc.communicate(data, timeout=entry.timeout)
    except subprocess.TimeoutExpired:
        running.end()
        proc.wait()
        # Not read to their end: a process the hook left behind, no longer below it,
        # may hold them open.
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        return _Answer(None, "", "")
    finally:
        untrack(running)
    return _Answer(proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))


def _json_answer(stdout: str) -> dict[str, Any] | None:
    """The hook's answer: ``{}`` for no output, None when it is not a JSON object."""
    if not stdout.strip():
        return {}
    try:
        answer = json.loads(stdout)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


def _deny_words(answer: dict[str, Any]) -> str | None:
    """The words of a deny that reach the stream: snake_case ``user_message``, or Claude's
    ``hookSpecificOutput`` reason (§6.4); None for the spellings whose words are dropped."""
    words = answer.get("user_message")
    if isinstance(words, str) and words:
        return words
    specific = answer.get("hookSpecificOutput")
    if isinstance(specific, dict) and specific.get("permissionDecision") == "deny":
        reason = specific.get("permissionDecisionReason")
        return reason if isinstance(reason, str) and reason else None
    return None


def _denies(answer: dict[str, Any]) -> bool:
    specific = answer.get("hookSpecificOutput")
    claude = isinstance(specific, dict) and specific.get("permissionDecision") == "deny"
    return answer.get("permission") == "deny" or claude


def print_mode_files(
    workspace: str, trusted: bool, plugin_files: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """``(hooks file, where its commands run)`` of a print run, in the order their answers
    rank: the project's (only in a trusted workspace; project over user, §6.1), the
    user's, then the plugins' (``_plugins.py``; where the real CLI ranks them is unknown)."""
    user_dir = os.path.join(os.path.expanduser("~"), ".cursor")
    files = [(os.path.join(workspace, ".cursor", "hooks.json"), workspace)] if trusted else []
    return [*files, (os.path.join(user_dir, "hooks.json"), user_dir), *plugin_files]


class Hooks:
    """The hooks of one run: read once, fired as the run goes."""

    def __init__(
        self,
        files: list[tuple[str, str]],
        workspace: str,
        session_id: str,
        model: str,
        environ: Mapping[str, str],
    ) -> None:
        self.workspace = workspace
        self.session_id = session_id
        self.model = model
        self._env = dict(environ)
        self._env.update(
            CURSOR_PROJECT_DIR=workspace, CLAUDE_PROJECT_DIR=workspace, CURSOR_VERSION=VERSION
        )
        # In the order of ``files``: on a conflict the first file's answer wins.
        self._entries: dict[str, list[Entry]] = {}
        for path, cwd in files:
            for event, entries in _entries_of(path, cwd).items():
                self._entries.setdefault(event, []).extend(entries)
        self._started = time.monotonic()

    def _payload(self, event: str, **extra: Any) -> dict[str, Any]:
        return {
            "conversation_id": self.session_id,
            "generation_id": self.session_id,
            "session_id": self.session_id,
            "model": self.model,
            "hook_event_name": event,
            "cursor_version": VERSION,
            "workspace_roots": [self.workspace],
            "user_email": None,
            "transcript_path": None,
            **extra,
        }

    def _fire(
        self, event: str, subject: str | None, search: bool = False, **extra: Any
    ) -> list[tuple[Entry, _Answer]]:
        """Run every hook of ``event`` whose matcher fits ``subject``, in order."""
        chosen = [
            entry
            for entry in self._entries.get(event, [])
            if subject is None or _matches(entry.matcher, subject, search)
        ]
        payload = self._payload(event, **extra)
        return [(entry, _run(entry, payload, self._env)) for entry in chosen]

    def _verdict(self, answers: list[tuple[Entry, _Answer]], blocked: str, shell: bool) -> Verdict:
        """The first blocking answer decides (project hooks run first); else the first
        ``updated_input``. ``blocked``: the reason when a deny's words are dropped."""
        updated: dict[str, Any] | None = None
        for entry, answer in answers:
            parsed = _json_answer(answer.stdout) if answer.code == 0 else None
            if answer.code == 2:
                words = f"Hook blocked with message: {answer.stderr.strip()}"
            elif parsed is None:  # crashed, timed out, or not JSON: a failed hook
                if not entry.fail_closed:
                    continue
                words = blocked
            elif _denies(parsed):
                words = _deny_words(parsed) or blocked
            else:
                new_input = parsed.get("updated_input")
                if updated is None and isinstance(new_input, dict):
                    updated = new_input
                continue
            return Verdict(SHELL_BLOCKED if shell else f"{words}\n\n{AGENT_NOTE}")
        return Verdict(None, updated)

    # ------------------------------------------------------------------ events

    def session_start(self) -> None:
        """``sessionStart``: its ``env`` answers reach every later hook."""
        for _, answer in self._fire("sessionStart", None, is_background_agent=False):
            parsed = _json_answer(answer.stdout) if answer.code == 0 else None
            env = parsed.get("env") if parsed else None
            if isinstance(env, dict):
                self._env.update({str(k): str(v) for k, v in env.items()})

    def session_end(self, failed: bool) -> None:
        """``sessionEnd`` (answers ignored)."""
        status = "error" if failed else "completed"
        duration = int((time.monotonic() - self._started) * 1000)
        self._fire(
            "sessionEnd",
            None,
            reason=status,
            duration_ms=duration,
            is_background_agent=False,
            final_status=status,
        )

    def pre_tool(self, tool: str, tool_input: dict[str, Any], call_id: str) -> Verdict:
        """``preToolUse`` for a call of ``tool`` (``Write``, ``Delete``, ``Shell``,
        ``MCP:<tool>``)."""
        extra: dict[str, Any] = {"tool_name": tool, "tool_input": tool_input}
        extra.update(tool_use_id=call_id, cwd=self.workspace, agent_message="")
        answers = self._fire("preToolUse", tool, **extra)
        return self._verdict(answers, f"{tool.partition(':')[0]} blocked by preToolUse hook", False)

    def before_mcp(
        self, server: str, tool: str, tool_input: dict[str, Any], command: str
    ) -> Verdict:
        """``beforeMCPExecution`` after ``preToolUse`` (the 2026.10.01 bundle, no capture,
        docs/protocol.md §6.3): the bare tool name, the input as one JSON string, the
        server's name and its command."""
        extra: dict[str, Any] = {"tool_name": tool, "tool_input": json.dumps(tool_input)}
        extra.update(mcp_server_name=server, command=command)
        answers = self._fire("beforeMCPExecution", tool, **extra)
        return self._verdict(answers, f"MCP:{tool} blocked by beforeMCPExecution hook", False)

    def before_shell(self, command: str) -> Verdict:
        """``beforeShellExecution``: a block always reads :data:`SHELL_BLOCKED` (seen)."""
        extra = {"command": command, "cwd": self.workspace, "sandbox": False}
        return self._verdict(self._fire("beforeShellExecution", command, True, **extra), "", True)

    def post_tool(
        self,
        tool: str,
        tool_input: dict[str, Any],
        output: dict[str, Any],
        call_id: str,
        duration: float,
    ) -> list[str]:
        """``postToolUse`` after a call that ran: the ``additional_context`` texts."""
        extra: dict[str, Any] = {"tool_name": tool, "tool_input": tool_input}
        extra.update(tool_output=json.dumps(output), tool_use_id=call_id, cwd=self.workspace)
        texts = []
        for _, answer in self._fire("postToolUse", tool, duration=duration, **extra):
            parsed = _json_answer(answer.stdout) if answer.code == 0 else None
            context = parsed.get("additional_context") if parsed else None
            if isinstance(context, str) and context:
                texts.append(context)
        return texts

    def after_file_edit(self, file_path: str, old: str, new: str) -> None:
        """``afterFileEdit`` after a write (answers ignored)."""
        edits = [{"old_string": old, "new_string": new}]
        self._fire("afterFileEdit", None, file_path=file_path, edits=edits)
