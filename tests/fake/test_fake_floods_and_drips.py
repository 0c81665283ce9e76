"""The fake's floods and drips (fake_agent/scenarios/README.md): a stderr flood of exactly
its bytes of log lines (8 MB in its scenario), and output dripped in small flushed pieces
with pauses between, which a reader sees piece by piece and which adds up to the same run.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from fault_play import (
    INIT,
    QUIET,
    RESULT,
    _Recorder,
    finish,
    json_lines,
    read_for,
    read_until,
    scenario_file,
    spawn,
)

from fake_agent import _faults, _wire

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="process groups and signals are POSIX"
)


# --------------------------------------------------------------------------- stderr flood


def test_stderr_flood_writes_exactly_n_bytes_of_log_lines(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, {"fake": "stderr_flood", "bytes": 200_001})
    err = finish(path)[2]
    assert len(err) == 200_001
    assert err.endswith(b"\n")
    for line in err.split(b"\n")[1:-2]:
        assert re.fullmatch(rb"2026-10-01T\S+Z \[\w+\] agent-transport: .*", line), line


def test_stderr_flood_scenario_succeeds_with_8_mb_of_stderr() -> None:
    code, out, err = finish("stderr_flood")
    assert (code, len(err)) == (0, 8_000_000)
    assert json_lines(out)[-1]["result"] == "Done. I added the test."


# --------------------------------------------------------------------------- drip


def test_drip_writes_pieces_each_flushed_with_a_pause_between(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(_wire.time, "sleep", recorder.sleep)
    monkeypatch.setattr(_wire.sys, "stdout", recorder)
    for name in ("size", "interval", "started"):  # restored after the test
        monkeypatch.setattr(_wire._Drip, name, getattr(_wire._Drip, name))
    _faults.run_drip({"fake": "drip", "bytes": 4, "interval": 0.05}, None)  # type: ignore[arg-type]
    _wire.write_stdout(b"x" * 19 + b"\n")
    _wire.write_stdout(b"yz")
    # Six pieces of at most four bytes, each flushed, a pause before all but the first.
    pieces = [b"xxxx"] * 4 + [b"xxx\n", b"yz"]
    expected: list[tuple[str, Any]] = []
    for n, piece in enumerate(pieces):
        expected += [("sleep", 0.05)] if n else []
        expected += [("write", piece), ("flush", None)]
    assert recorder.calls == expected


def test_drip_applies_to_event_lines(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, {"fake": "drip", "bytes": 40, "interval": 3600}, INIT, RESULT)
    with spawn(path) as proc:
        first = read_until(proc.stdout, lambda data: len(data) > 0)
        assert len(first) == 40
        assert first.startswith(b'{"type":"system","subtype":"init"')
        assert read_for(proc.stdout, QUIET) == b""  # the next piece is an hour away


def test_drip_reader_sees_a_piece_before_the_rest_is_written(tmp_path: Path) -> None:
    path = scenario_file(
        tmp_path, {"fake": "drip", "bytes": 3, "interval": 3600}, {"fake": "raw", "text": "abcdef"}
    )
    with spawn(path) as proc:
        first = read_until(proc.stdout, lambda data: len(data) > 0)
        assert first == b"abc"


def test_drip_without_pauses_writes_everything(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, {"fake": "drip", "bytes": 7}, INIT, RESULT)
    code, out, _ = finish(path)
    assert (code, [e["type"] for e in json_lines(out)]) == (0, ["system", "result"])


def test_slow_drip_scenario_writes_what_hello_writes() -> None:
    def typed(out: bytes) -> list[Any]:
        # hello pins its durations, slow_drip reports the time that passed (the README's
        # "Durations"): the rest is the same.
        untimed = {"session_id": None, "duration_ms": None, "duration_api_ms": None}
        return [{**e, **{k: v for k, v in untimed.items() if k in e}} for e in json_lines(out)]

    code, out, _ = finish("slow_drip")
    assert code == 0
    assert typed(out) == typed(finish("hello")[1])
