r"""Move notation shared by every game's parser: only the ASCII digits 0-9 are digits.

Python's ``\d``, ``int()`` and ``str.isdigit()`` also take other scripts' digits (``٩``, ``９``,
``𝟗``), so a square typed as ``٨G`` would read as ``8G``. Every parser compiles its patterns
with `notation`, where ``\d`` means 0-9 only (and case-insensitive letters are ASCII letters
only: the Kelvin sign, U+212A, is not a ``K``); text with other digits then matches nothing and
gets the parser's usual "not a square / not a tile" refusal. Whitespace is left to the caller:
parsers split words with `str.split()` or `move_words` first.
"""

from __future__ import annotations

import re


def notation(pattern: str, flags: int = 0) -> re.Pattern[str]:
    r"""Compile a move-notation pattern: ``\d``, ``\w``, ``\s`` and case folding are ASCII."""
    return re.compile(pattern, flags | re.ASCII)
