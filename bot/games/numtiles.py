"""Number tiles and melds, shared by Rummikub and Numfeud.

A tile is a short code: a colour letter and a number (``R5``, ``B13``) or ``J`` for a joker.
A meld is a tuple of tiles. Its order is only for display: whether it is a valid run or group
depends on its tiles alone, because after the initial meld any rearrangement is allowed, so a
joker stands for whatever tile makes its meld valid (that is also what "replacing a joker" comes
down to: the meld must still be valid once the joker has left it).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from bot.core.errors import InvalidMove
from bot.core.notation import notation
from bot.core.words import quoted

JOKER = "J"
COLOURS = "KBYR"  # black, blue, yellow, red: also the display order of a group
COLOUR_NAMES = {"K": "black", "B": "blue", "Y": "yellow", "R": "red"}
LOW, HIGH = 1, 13
MIN_MELD = 3
JOKER_PENALTY = 30  # a joker left on a rack at the end of the game

# A joker may come with the tile it stands for, as Numfeud writes it (J=R6): its meld decides.
_TILE = notation(r"^(?:([KBYR])(1[0-3]|[1-9])|J(?:=[KBYR](?:1[0-3]|[1-9]))?)$", re.IGNORECASE)


def full_set(copies: int = 2, jokers: int = 2) -> dict[str, int]:
    """Return the tile counts of a full set: 1–13 in four colours `copies` times, and jokers."""
    counts = {f"{c}{n}": copies for c in COLOURS for n in range(LOW, HIGH + 1)}
    counts[JOKER] = jokers
    return counts


def parse_tile(text: str, example: str = "") -> str:
    """Return the canonical code of a tile (``r5`` -> ``R5``); raise `InvalidMove` if unknown.

    A joker written with the tile it stands for (``J=R6``, Numfeud's notation) is a joker: what
    it stands for follows from its meld. The refusal ends with `example`, the caller's example of
    a whole move, if given.
    """
    match = _TILE.match(text.strip())
    if match is None:
        raise InvalidMove(
            f"{quoted(text)} is not a tile. A tile is a colour K, B, Y or R and a number 1–13 "
            "(R5, B13), or J for a joker." + (f" Play e.g. {example}." if example else "")
        )
    if match.group(1) is None:
        return JOKER
    return f"{match.group(1).upper()}{int(match.group(2))}"


def joker_face(text: str) -> str:
    """Return the tile a joker is written with (``j=r6`` -> ``R6``), or "" for any other text."""
    match = _TILE.match(text.strip())
    if match is None or match.group(1) is not None or "=" not in text:
        return ""
    return parse_tile(text.split("=", 1)[1])


def is_joker(tile: str) -> bool:
    """Return whether `tile` is a joker."""
    return tile == JOKER


def tile_name(tile: str) -> str:
    """Write a tile code for a message: the joker by name ("no R5 and no joker")."""
    return "joker" if tile == JOKER else tile


def colour(tile: str) -> str:
    """Return the colour letter of a number tile."""
    return tile[0]


def number(tile: str) -> int:
    """Return the number of a number tile."""
    return int(tile[1:])


def tile_order(tile: str, colours: str = COLOURS) -> tuple[int, int]:
    """Return a sort key: by colour (in the order of `colours`), then number; jokers last."""
    if is_joker(tile):
        return (len(colours), 0)
    return (colours.index(colour(tile)), number(tile))


def sort_tiles(tiles: Iterable[str], colours: str = COLOURS) -> tuple[str, ...]:
    """Return the tiles sorted by colour, then number, jokers last (a rack's display order)."""
    return tuple(sorted(tiles, key=lambda tile: tile_order(tile, colours)))


def penalty(tile: str) -> int:
    """Return what a tile left on a rack costs at the end: its number, 30 for a joker."""
    return JOKER_PENALTY if is_joker(tile) else number(tile)


def rack_value(tiles: Iterable[str]) -> int:
    """Return the end-of-game value of a rack (a joker counts 30)."""
    return sum(penalty(t) for t in tiles)


# --- melds -------------------------------------------------------------------------------------


def _too_short(length: int) -> str:
    return f"has only {length} tile{'' if length == 1 else 's'}; a meld needs at least 3"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a meld is: ``run``, ``group`` or invalid (``kind`` empty, ``problem`` says why)."""

    kind: str  # "run", "group" or "" (invalid)
    value: int  # with each joker counted as the tile it stands for (the best reading)
    arranged: tuple[str, ...]  # display order: a run ascending with its jokers in place
    problem: str = ""  # why it is not a meld, e.g. "has only 2 tiles"

    @property
    def valid(self) -> bool:
        """Return whether the tiles form a valid run or group."""
        return bool(self.kind)


def _run_reading(tiles: tuple[str, ...]) -> Verdict:
    """Read the tiles as a run: one colour, consecutive numbers, jokers filling gaps or ends."""
    jokers = sum(1 for t in tiles if is_joker(t))
    numbers = [t for t in tiles if not is_joker(t)]
    length = len(tiles)
    fallback = sort_tiles(tiles)
    if not numbers:
        return Verdict("", 0, fallback, "has no number tile")
    colours = {colour(t) for t in numbers}
    if len(colours) > 1:
        return Verdict("", 0, fallback, "mixes colours, so it is not a run")
    values = sorted(number(t) for t in numbers)
    dup = next((v for v, n in Counter(values).items() if n > 1), None)
    if dup is not None:
        return Verdict(
            "", 0, fallback, f"has two {colours.pop()}{dup}: a run needs each number once"
        )
    lo, hi = values[0], values[-1]
    gaps = (hi - lo + 1) - len(values)
    if gaps > jokers:
        if lo == LOW and hi == HIGH:
            why = "goes round from 13 to 1: 1 may only start a run"
        else:
            missing = [f"{next(iter(colours))}{n}" for n in range(lo, hi + 1) if n not in values]
            gap = ", ".join(missing[:4])
            if len(missing) > 4:  # the whole refusal must stay short: the first ones, counted
                gap = f"{', '.join(missing[:3])} and {len(missing) - 3} more"
            # A joker is offered only where one would do: a gap of one, no joker in the meld yet
            # (Rummikub has two jokers in all, Numfeud allows one a line).
            why = f"has a gap at {gap}: " + (
                "fill it or use a joker" if len(missing) == 1 and not jokers else "fill it"
            )
        return Verdict("", 0, fallback, why)
    if length > HIGH - LOW + 1:
        return Verdict("", 0, fallback, "is longer than 13 tiles")
    # The best reading puts spare jokers above the top, then below the bottom.
    start = min(lo, HIGH - length + 1)
    col = next(iter(colours))
    present = set(values)
    arranged = tuple(f"{col}{n}" if n in present else JOKER for n in range(start, start + length))
    value = sum(range(start, start + length))
    if length < MIN_MELD:
        return Verdict("", value, arranged, _too_short(length))
    return Verdict("run", value, arranged)


def _group_reading(tiles: tuple[str, ...]) -> Verdict:
    """Read the tiles as a group: one number, each colour at most once, at most four tiles."""
    numbers = [t for t in tiles if not is_joker(t)]
    fallback = sort_tiles(tiles)
    if not numbers:
        return Verdict("", 0, fallback, "has no number tile")
    nums = {number(t) for t in numbers}
    if len(nums) > 1:
        return Verdict("", 0, fallback, "mixes numbers, so it is not a group")
    dup = next((t for t, n in Counter(numbers).items() if n > 1), None)
    if dup is not None:
        return Verdict("", 0, fallback, f"has two {dup}: a group needs different colours")
    if len(tiles) > len(COLOURS):
        return Verdict("", 0, fallback, "has more than 4 tiles: a group has one of each colour")
    value = nums.pop() * len(tiles)
    if len(tiles) < MIN_MELD:
        return Verdict("", value, fallback, _too_short(len(tiles)))
    return Verdict("group", value, fallback)


def check_meld(tiles: Iterable[str]) -> Verdict:
    """Return whether `tiles` form a run or a group, its value, and its display order.

    A meld that reads both ways (one number tile and jokers, e.g. R5 J J) takes the reading worth
    more, as the rules let the player say what a joker stands for.
    """
    tiles = tuple(tiles)
    run, group = _run_reading(tiles), _group_reading(tiles)
    readings = [r for r in (run, group) if r.valid]
    if readings:
        return max(readings, key=lambda r: r.value)
    if len(tiles) < MIN_MELD:
        short = run if run.problem.startswith("has only") else group
        if short.problem.startswith("has only"):
            return short
        return Verdict("", 0, sort_tiles(tiles), _too_short(len(tiles)))
    numbers = [t for t in tiles if not is_joker(t)]
    if len({colour(t) for t in numbers}) == 1:
        return run
    if len({number(t) for t in numbers}) == 1:
        return group
    return Verdict(
        "",
        0,
        sort_tiles(tiles),
        "mixes colours and numbers: a run is one colour, a group is one number",
    )


def meld_value(tiles: Iterable[str]) -> int:
    """Return the value of a valid meld (jokers count as the tiles they stand for), else 0."""
    verdict = check_meld(tiles)
    return verdict.value if verdict.valid else 0


def arrange(tiles: Iterable[str]) -> tuple[str, ...]:
    """Return the display order of a meld (valid or not)."""
    return check_meld(tiles).arranged


def meld_text(tiles: Iterable[str]) -> str:
    """Return a meld as space-separated codes, e.g. ``R5 R6 R7``."""
    return " ".join(tiles)
