"""English for messages and images: counted nouns, lists ("3 tiles", "Ann, Bob and Cy"), clips."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence


def plural(count: int, word: str) -> str:
    """Return `count` and `word`, with an s unless the count is one: "1 tile", "3 tiles"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def and_list(items: Iterable[str], word: str = "and") -> str:
    """Join names as a sentence does: "Ann", "Ann and Bob", "Ann, Bob and Cy" ("" for none).

    `word` joins the last two: "H8, I8, H9 or I9".
    """
    names = list(items)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {word} " + names[-1]


def told_apart(
    names: Sequence[str], *, key: Callable[[str], str], numbered: Callable[[str, int], str]
) -> list[str]:
    """Return names with a repeat numbered ("Sam", "Sam-2"), every name distinct by `key`.

    The first of a name keeps it; a repeat takes the lowest number that makes a name nobody
    has, not even someone really called "Sam-2": "Sam", "Sam", "Sam-2" are "Sam", "Sam-3",
    "Sam-2". `key` says which names look the same, `numbered(name, n)` writes a name with its
    number. Applying it twice (with the same `key`) changes nothing.
    """
    taken = {key(name) for name in names}
    kept: set[str] = set()
    out = []
    for name in names:
        candidate, n = name, 1
        if key(name) in kept:
            while key(candidate) in taken:
                n += 1
                candidate = numbered(name, n)
        kept.add(key(name))
        taken.add(key(candidate))
        out.append(candidate)
    return out


def clip(text: str, limit: int = 20) -> str:
    """Return `text` cut to `limit` characters with an ellipsis, to echo a user's long input."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def wrap_steps(text: str, *, width: int, lines: int, indent: str = "   ") -> str:
    """Return steps joined by "; " wrapped after a step's ";": at most `lines` lines of `width`.

    A step is never cut (one longer than `width` has a line of its own, and the first stays on
    the first line); the steps that do not fit are counted at the end: "… (+9 steps)". A text
    that fits one line comes back unchanged.
    """
    if len(text) <= width:
        return text
    steps = text.split("; ")
    rows: list[list[str]] = [[]]
    for step in steps:
        room = width - 1 - (len(indent) if len(rows) > 1 else 0)  # 1: the ";" that ends a line
        if rows[-1] and len("; ".join([*rows[-1], step])) > room:
            rows.append([])
        rows[-1].append(step)
    if len(rows) > lines:
        rows = rows[:lines]
        last = rows[-1]
        room = width - (len(indent) if lines > 1 else 0)
        keep = 1 if lines == 1 else 0  # the first line keeps the move's head: "12. bob: 3+R1"
        while True:
            mark = f"… (+{plural(len(steps) - sum(len(row) for row in rows), 'step')})"
            if len(last) <= keep or len("; ".join([*last, mark])) <= room:
                break
            last.pop()
        last.append(mark)
    return f";\n{indent}".join("; ".join(row) for row in rows)


def quoted(text: str, limit: int = 24) -> str:
    """Return a user's input quoted for an error message, cut so that the rest still fits.

    Refusals are cut at 200 characters (a Telegram alert): a long input echoed whole would
    push out the explanation and the example that follow it.
    """
    return repr(clip(text, limit))


# Characters that draw nothing or turn the text around: controls, format characters (zero-width
# spaces, right-to-left overrides and isolates, soft hyphens) and line or paragraph separators —
# but the joiners that shape what shows: ZWNJ and ZWJ (Persian letters, 👨‍💻) and the tag
# characters of a flag's emoji sequence (🏴 with tags is Scotland's).
_INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp"})
_JOINERS = frozenset({"\u200c", "\u200d"})
_TAGS = frozenset(chr(c) for c in range(0xE0020, 0xE0080))
_BLACK_FLAG = "\U0001f3f4"  # the emoji a flag's tag sequence follows
# Letters that draw a blank, chosen for names that look empty ("ㅤ", "⠀"): spaces to the eye.
# The Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and the Braille blank (U+2800).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _shapes(name: str, i: int) -> bool:
    """Tell whether the format character at `name[i]` changes what shows.

    A joiner between two characters that are not ASCII (Persian letters, emoji) shapes them;
    between Latin letters ("b\u200dob") it only makes a look-alike of "bob". Tags shape only
    the flag they follow.
    """
    ch = name[i]
    if ch in _JOINERS:
        return 0 < i < len(name) - 1 and not name[i - 1].isascii() and not name[i + 1].isascii()
    if ch in _TAGS:
        start = i
        while start > 0 and name[start - 1] in _TAGS:
            start -= 1
        return start > 0 and name[start - 1] == _BLACK_FLAG
    return False


def visible_name(name: str) -> str:
    """Return a player's name without invisible characters, its spaces collapsed, in NFC.

    ``b\u200bob`` would show as "bob" yet be another player, and ``\u202ebob`` reverses the
    text after it wherever the name is shown; the name is what the others see. So a name of
    blank letters ("ㅤ", a Hangul filler) is no name (the service calls it "player"), and "Zoë"
    typed with a combining diaeresis is the "Zoë" typed with one letter ë.
    """
    name = unicodedata.normalize("NFC", name)
    kept = "".join(
        " " if ch in _BLANKS else ch
        for i, ch in enumerate(name)
        if unicodedata.category(ch) not in _INVISIBLE or _shapes(name, i)
    )
    return " ".join(kept.split())


FSI, PDI = "\u2068", "\u2069"  # first-strong isolate … pop directional isolate


def has_rtl(text: str) -> bool:
    """Tell whether `text` has a right-to-left letter (Hebrew, Arabic, …)."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def isolated(name: str) -> str:
    """Return a name as a message shows it: one with right-to-left letters as a bidi isolate.

    Unisolated, the chat's bidi layout pulls what follows a Hebrew or Arabic name into it:
    "alice 12, דוד 9" shows the 9 before the name, two such names in a list trade places,
    and a line that starts with one ("דוד: resigned") is laid out right to left whole. In the
    isolate the name reads right to left and the line around it keeps its order. Other names
    come back as they are. Applying it twice changes nothing.
    """
    if not has_rtl(name) or (name.startswith(FSI) and name.endswith(PDI)):
        return name
    return FSI + name + PDI


def shown_name(name: str) -> str:
    """Return a name or a group's title as a message shows it: `visible_name`, `isolated`.

    A title is the group's own choice, whatever it holds: "\u202eclub" would reverse the rest
    of "Leaderboard of … — all games", a Hebrew one pull " — all games" into its run.
    """
    return isolated(visible_name(name))
