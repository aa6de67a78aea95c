"""English for messages and images: counted nouns, lists ("3 tiles", "Ann, Bob and Cy"), clips."""

from __future__ import annotations

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
