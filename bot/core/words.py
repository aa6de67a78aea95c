"""English for messages and images: counted nouns, lists ("3 tiles", "Ann, Bob and Cy"), clips."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable


def plural(count: int, word: str) -> str:
    """Return `count` and `word`, with an s unless the count is one: "1 tile", "3 tiles"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def and_list(items: Iterable[str]) -> str:
    """Join names as a sentence does: "Ann", "Ann and Bob", "Ann, Bob and Cy" ("" for none)."""
    names = list(items)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def clip(text: str, limit: int = 20) -> str:
    """Return `text` cut to `limit` characters with an ellipsis, to echo a user's long input."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# Characters that draw nothing or turn the text around: controls, format characters (zero-width
# spaces, right-to-left overrides and isolates, soft hyphens) and line or paragraph separators —
# but the joiners that shape what shows: ZWNJ and ZWJ (Persian letters, 👨‍💻) and the tag
# characters of a flag's emoji sequence (🏴 with tags is Scotland's).
_INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp"})
_SHAPING = frozenset({"\u200c", "\u200d"}) | {chr(c) for c in range(0xE0020, 0xE0080)}


def visible_name(name: str) -> str:
    """Return a player's name without invisible characters, its spaces collapsed.

    ``b\u200bob`` would show as "bob" yet be another player, and ``\u202ebob`` reverses the
    text after it wherever the name is shown; the name is what the others see.
    """
    kept = "".join(
        ch for ch in name if ch in _SHAPING or unicodedata.category(ch) not in _INVISIBLE
    )
    # A joiner at either end joins nothing: it is as invisible as the rest.
    return " ".join(kept.split()).strip("\u200c\u200d")
