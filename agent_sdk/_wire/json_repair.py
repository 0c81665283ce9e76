"""JSON the CLI prints that msgspec rejects, made readable (docs/protocol.md §3, "hostile
lines"): lone surrogate escapes and invalid UTF-8 become U+FFFD (:func:`repair_line`),
numbers msgspec cannot hold become ``Decimal`` (:func:`decode_with_decimals`).

Pure functions of bytes, below every other module: the event decoder's fallback
(``_wire/fallback.py``) and the tool-call payload parser (``_wire/tool_payloads.py``) use them.
"""

from __future__ import annotations

import functools
import math
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decimal import Decimal

__all__ = ["decode_with_decimals", "repair_line"]


# A \uXXXX surrogate escape, unless it is part of a valid pair; escaped backslashes are
# matched first so that `\\ud83d` (a literal backslash, then text) is left alone.
@functools.cache
def _surrogate() -> re.Pattern[bytes]:
    return re.compile(
        rb"(\\\\)"
        rb"|(\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2})"
        rb"|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"
    )


def _replace_lone_surrogate(match: re.Match[bytes]) -> bytes:
    if match.group(1) or match.group(2):
        return match.group(0)
    return rb"\ufffd"


def repair_line(line: bytes) -> bytes:
    """Make a line msgspec can decode without changing any valid part of it.

    Node cuts strings mid-emoji and emits a lone UTF-16 surrogate escape (``"\\ud83d"``),
    which msgspec rejects; invalid UTF-8 is rejected too. Both become U+FFFD.
    """
    if b"\\u" in line:
        line = _surrogate().sub(_replace_lone_surrogate, line)
    return line.decode("utf-8", "replace").encode("utf-8")


def decode_with_decimals(data: bytes) -> Any:
    """Any JSON value, with the numbers msgspec cannot hold as ``Decimal``. The standard
    library is slower but takes a hook per number; only rare values come here.

    Raises:
        ValueError: not JSON (NaN and Infinity are not JSON either).
        RecursionError: nested too deep.
    """
    import json  # here: only these rare values need it (asyncio has loaded it anyway)

    return json.loads(
        repair_line(data).decode("utf-8"),
        parse_int=_int_or_decimal,
        parse_float=_float_or_decimal,
        parse_constant=_no_constant,
    )


def _int_or_decimal(digits: str) -> int | Decimal:
    try:
        return int(digits)
    except ValueError:  # more digits than sys.get_int_max_str_digits() allows
        from decimal import Decimal

        return Decimal(digits)


def _float_or_decimal(digits: str) -> float | Decimal:
    value = float(digits)
    if math.isinf(value):
        from decimal import Decimal

        return Decimal(digits)
    return value


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")
