"""What the web page says of a tool call, in a person's words: the arguments worth a
glance, per kind, as text (never the wire's JSON or its internals: a shell call shows its
working directory and timeout, not ``parsingResult``, ``simpleCommands`` or ids), and an
ACP title's Markdown code spans ("`pytest -q`" is ``pytest -q``, drawn as code).

The call's label (``read src/cart.py``, ``$ pytest -q``) is the SDK's own
(:attr:`agent_sdk.ToolCall.label`, docs/protocol.md §3.4); these are the words beside it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any

import msgspec

from agent_sdk import ToolCall
from agent_sdk.tools import (
    CreatePlanArgs,
    DeleteArgs,
    EditArgs,
    FunctionArgs,
    GetMcpToolsArgs,
    GlobArgs,
    GrepArgs,
    LsArgs,
    McpArgs,
    ReadArgs,
    ShellArgs,
    TaskArgs,
    UpdateTodosArgs,
    WriteArgs,
)

__all__ = ["MAX_ARGS", "MAX_VALUE", "args_for_page", "code_spans", "short", "text_of", "title_of"]

# Arguments are for a glance: a file's whole text or a long command stays in the agent's
# transcript, the page gets the first line of each, and the first few.
MAX_ARGS = 6
MAX_VALUE = 80

# Words for the wire's enums (docs/protocol.md §3.4).
_GREP_SHOWS = {"files_with_matches": "file names", "content": "matching lines", "count": "counts"}
_TODO = {
    "TODO_STATUS_COMPLETED": "done",
    "TODO_STATUS_IN_PROGRESS": "doing",
    "TODO_STATUS_PENDING": "to do",
    "TODO_STATUS_CANCELLED": "cancelled",
}
# Keys of an untyped call's arguments that say nothing to a person: ids and the CLI's
# own bookkeeping (``_toolName`` in ACP's rawInput, docs/acp.md §3.10).
_ID = re.compile(r"(?:^|_|[a-z])(?:Id|_id|ID)$|^id$")
_CAMEL = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
# A Markdown code span: a run of backticks, then text, then the same run (CommonMark).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)

Pair = tuple[str, str]


def text_of(value: Any) -> str:
    """A value as a person reads it: strings as they are, ``yes``/``no``, lists joined
    with commas, objects as ``name: value`` pairs; never JSON's quotes and braces."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(filter(None, (text_of(item) for item in value)))
    if isinstance(value, dict):
        pairs = (f"{words(str(k))}: {text_of(v)}" for k, v in value.items())
        return "; ".join(pair for pair in pairs if not pair.endswith(": "))
    if isinstance(value, msgspec.Struct):
        return text_of(msgspec.to_builtins(value))
    return str(value)


def short(value: Any) -> str:
    """A value as one short line: its first line, cut at :data:`MAX_VALUE` characters."""
    lines = text_of(value).strip().splitlines() or [""]
    if len(lines) > 1 or len(lines[0]) > MAX_VALUE:
        return lines[0][: MAX_VALUE - 1].rstrip() + "…"
    return lines[0]


def words(name: str) -> str:
    """A wire name as words: ``searchTerm`` is ``search term``."""
    return " ".join(word.lower() for word in _CAMEL.findall(name)) or name


def duration(ms: int) -> str:
    """``30 s``, ``10 min``, ``1.5 s``, ``500 ms``."""
    if ms < 1000:
        return f"{ms} ms"
    if ms % 60_000 == 0:
        return f"{ms // 60_000} min"
    return f"{ms / 1000:g} s"


def lines_of(text: str | None) -> str:
    count = len(text.splitlines()) if text else 0
    return f"{count} line" if count == 1 else f"{count} lines"


def _same_dir(path: str | None, cwd: str | None) -> bool:
    return not path or (cwd is not None and PurePosixPath(path) == PurePosixPath(cwd))


def _shell(args: ShellArgs, cwd: str | None) -> Iterator[Pair]:
    if not _same_dir(args.working_directory, cwd):
        yield "in", args.working_directory or ""
    if args.timeout:
        later = args.timeout_behavior == "TIMEOUT_BEHAVIOR_BACKGROUND"
        yield "timeout", duration(args.timeout) + (", then in the background" if later else "")
    if args.is_background:
        yield "runs", "in the background"


def _read(args: ReadArgs) -> Iterator[Pair]:
    first, count = args.offset, args.limit
    if first and count:
        yield "lines", f"{first}–{first + count - 1}"
    elif first:
        yield "from line", str(first)
    elif count:
        yield "lines", f"the first {count}"


def _edit(args: EditArgs) -> Iterator[Pair]:
    if args.str_replace is not None:
        every = " (every match)" if args.str_replace.replace_all else ""
        yield "replace" + every, args.str_replace.old_text
        yield "with", args.str_replace.new_text
    if args.multi_str_replace is not None:
        edits = len(args.multi_str_replace.edits)
        yield "edits", f"{edits} replacement" + ("" if edits == 1 else "s")
    if args.apply_patch is not None:
        yield "patch", lines_of(args.apply_patch.patch_content)
    if args.stream_content is not None:
        yield "text", args.stream_content


def _grep(args: GrepArgs) -> Iterator[Pair]:
    if args.glob:
        yield "files", args.glob
    if args.output_mode:
        yield "shows", _GREP_SHOWS.get(args.output_mode, words(args.output_mode))
    if args.case_insensitive:
        yield "case", "ignored"
    if args.multiline:
        yield "across lines", "yes"
    if args.offset:
        yield "skips", f"the first {args.offset} results"


def _arguments(values: Any, label: str, *, own: bool = False) -> Iterator[Pair]:
    """Arguments by name, as text, leaving out the value the label shows already; of an
    untyped call (``own`` False), its ids and internals too. An MCP tool's or a
    function's arguments (``own``) are the tool's own: an ``id`` there is what it is
    about (an issue), so it stays."""
    if isinstance(values, msgspec.Struct):  # a typed kind with no words of its own here
        values = msgspec.to_builtins(values)
    if not isinstance(values, dict):
        yield "arguments", text_of(values)
        return
    for name, value in values.items():
        name = str(name)
        if not own and (name.startswith("_") or _ID.search(name)):
            continue
        text = text_of(value)
        if text and not _shown_in(label, text):
            yield words(name), text


def _shown_in(label: str, text: str) -> bool:
    """Whether the label shows ``text`` already: an untyped call's label ends with what
    it is about, perhaps cut (``tool_label``, docs/protocol.md §3.4)."""
    if label.endswith(" " + text):
        return True
    cut = label.removesuffix("…")
    return cut != label and any(
        text.startswith(cut[i + 1 :]) for i, char in enumerate(cut) if char == " "
    )


def _typed(args: Any, cwd: str | None) -> Iterator[Pair] | None:
    """The pairs of a typed argument object; ``None`` for one with no words here."""
    if isinstance(args, ShellArgs):
        return _shell(args, cwd)
    if isinstance(args, ReadArgs):
        return _read(args)
    if isinstance(args, WriteArgs):
        return iter([("text", args.file_text or "")])
    if isinstance(args, EditArgs):
        return _edit(args)
    if isinstance(args, GrepArgs):
        return _grep(args)
    if isinstance(args, GlobArgs):
        return iter(
            [] if _same_dir(args.target_directory, cwd) else [("in", args.target_directory or "")]
        )
    if isinstance(args, LsArgs):
        return iter([("ignoring", text_of(args.ignore))])
    if isinstance(args, UpdateTodosArgs):
        return iter(
            (_TODO.get(t.status, words(t.status.removeprefix("TODO_STATUS_").lower())), t.content)
            for t in args.todos
        )
    if isinstance(args, CreatePlanArgs):
        return iter(
            [("overview", args.overview), ("steps", str(len(args.todos)) if args.todos else "")]
        )
    if isinstance(args, TaskArgs):
        return iter([("model", args.model or "")])
    if isinstance(args, GetMcpToolsArgs):
        return iter([("tool", args.tool_name or "")])
    if isinstance(args, DeleteArgs):
        return iter([])  # the label says which file
    return None


def _diff_files(call: ToolCall, cwd: str | None) -> Iterator[Pair]:
    """The files an ACP edit changed (its ``content`` diffs, docs/acp.md §3.10), relative
    to the session's directory."""
    event = call.completed or call.started
    content = event.extras.get("content") if event is not None else None
    for item in content if isinstance(content, list) else []:
        path = item.get("path") if isinstance(item, dict) and item.get("type") == "diff" else None
        if isinstance(path, str) and path:
            if cwd:
                with contextlib.suppress(ValueError):  # not under it: the whole path
                    path = str(PurePosixPath(path).relative_to(cwd))
            yield "file", path


def _described(call: ToolCall, label: str) -> list[Pair]:
    """What the agent said a call is for (a shell call's ``description``), unless the
    label or the arguments say it already (a subagent's title is its description)."""
    about = call.description
    if not about or _shown_in(label, about) or isinstance(call.args, TaskArgs | dict):
        return []
    return [("about", about)]


def args_for_page(call: ToolCall, cwd: str | None = None) -> list[list[str]]:
    """What a tool card shows beside the label, as ``[name, value]`` pairs of short text:
    per kind, what a person reads (``cwd``: the run's directory, not repeated)."""
    args, label = call.args, title_of(call) or call.label  # the label the card shows
    pairs: Iterator[Pair] | None = _typed(args, cwd)
    if pairs is None:
        if isinstance(args, McpArgs):
            pairs = _arguments(args.args, label, own=True)
        elif isinstance(args, FunctionArgs):
            try:
                pairs = _arguments(args.parsed_arguments(), label, own=True)
            except msgspec.DecodeError:
                pairs = iter([("arguments", args.arguments)])
        else:  # an untyped kind's dict; an ACP call's rawInput
            pairs = _arguments(args if args is not None else {}, label)
    shown = [
        [name, short(value)]
        for name, value in [*_described(call, label), *pairs, *_diff_files(call, cwd)]
        if text_of(value).strip()
    ]
    return shown[:MAX_ARGS]


def code_spans(text: str) -> list[list[Any]]:
    """Markdown text as ``[text, is_code]`` parts: ``"Run `pytest -q`"`` is
    ``[["Run ", False], ["pytest -q", True]]``. A backtick without its match stays."""
    parts: list[list[Any]] = []
    end = 0
    for span in _CODE_SPAN.finditer(text):
        if span.start() > end:
            parts.append([text[end : span.start()], False])
        code = span.group(2)
        if len(code) > 2 and code.startswith(" ") and code.endswith(" ") and code.strip():
            code = code[1:-1]  # CommonMark: one space each side is padding
        parts.append([code, True])
        end = span.end()
    if end < len(text):
        parts.append([text[end:], False])
    return parts


def title_of(call: ToolCall) -> str | None:
    """A live (ACP) call's title, as the CLI names it (``Read File``, "`ls tests`",
    docs/acp.md §3.10); ``None`` for a print-mode call, which has none."""
    event = call.completed or call.started
    title = event.extras.get("title") if event is not None else None
    return title if isinstance(title, str) and title.strip() else None
