"""NMBR 9: every player stacks the same number tiles into a display (../shared/rules/nmbr9.txt).

The shapes are those of the published game (../shared/reference/nmbr9-tiles.txt), copied here
so the product never reads ../shared. Each player's display lies on a fixed table of 26 columns
(A–Z) by 26 rows (1–26). Squares are bits of a Python int, ``row * STRIDE + col``, with one
spare column per row so that shifting a mask sideways never wraps into the next row: a display
is one occupancy mask per level plus the mask of every tile, and a placement test is a handful of
integer operations.

Rounds are simultaneous: every round the next card of the seeded deck is revealed, and every seat
places that number once, in any order; the round ends when all have placed. A move record's
``cells`` are the squares the tile covered as ``row * SIZE + col`` (26 per row, no spare column),
its ``score`` the tile's points, its ``words`` ``("deadline",)`` when the tile was placed for a
player who missed the round deadline.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import ClassVar, NamedTuple, Self, TypeVar

from bot.core.errors import InvalidMove, InvariantError, NoSuchMove, Reason, RuleError
from bot.core.game import (
    JSON,
    RESIGNED,
    GameDef,
    GameState,
    Move,
    MoveRecord,
    OptionSpec,
    Outcome,
    Resign,
)
from bot.core.grid import COLUMNS, cell_name
from bot.core.notation import notation
from bot.core.words import quoted

SCHEMA_VERSION = 1
T = TypeVar("T")
SIZE = 26  # the table: columns A–Z, rows 1–26
STRIDE = SIZE + 1  # one spare (always empty) column per row stops sideways shifts wrapping
# How another seat's placement of the round being played reads until the round is over.
HIDDEN_PLACEMENT = "placed this round's tile (shown when the round ends)"
ROTATIONS = (0, 90, 180, 270)  # clockwise; tiles are never flipped
NUMBERS = tuple(range(10))
COPIES = 2  # two cards of each number
ROUNDS = len(NUMBERS) * COPIES

# The tile shapes with the number upright, rows top to bottom ('#' = a square).
SHAPES: dict[int, tuple[str, ...]] = {
    0: ("###", "#.#", "#.#", "###"),
    1: ("##.", ".#.", ".#.", ".#."),
    2: (".##", ".##", "##.", "###"),
    3: ("###", "..#", ".##", "###"),
    4: (".##", ".#.", "###", ".##"),
    5: ("###", "###", "..#", "###"),
    6: ("##.", "#..", "###", "###"),
    7: ("###", ".#.", "##.", "#.."),
    8: (".##", ".##", "##.", "##."),
    9: ("###", "###", "##.", "##."),
}

TABLE = sum(((1 << SIZE) - 1) << (row * STRIDE) for row in range(SIZE))  # every real square

DEADLINES = {"24h": timedelta(hours=24), "12h": timedelta(hours=12), "1h": timedelta(hours=1),
             "10m": timedelta(minutes=10)}  # fmt: skip
DEADLINE_OPTION = OptionSpec(
    "deadline", tuple(DEADLINES), "24h", "time each round gives a player to place the tile"
)

# The rules a player needs before the first round, for /rules (docs/rules/nmbr9.md).
RULES_SUMMARY = (
    "20 rounds: each turns up a card, and every player places that number tile in their own "
    "display at once. A tile lies flat, on the table (level 0) or wholly on tiles below, on at "
    "least two of them, and shares an edge with a tile of its own level if that level has any. "
    "Each tile scores its number × its level (the table scores nothing); the most points win."
)
NOTATION_HELP = (
    "Place the round's tile: /place C4 90 — C4 is the top-left square of the box around the "
    "turned tile (columns A–Z, rows 1–26) and 90 turns it clockwise (0, 90, 180 or 270). "
    "See some legal placements with /moves; a tile that fits nowhere: /place skip; give up "
    "with /resign."
)
# The short form errors end with (whole messages fit a Telegram alert; /rules has the rest).
USAGE = "/place C4 90 (C4: the top-left square of the turned tile's box; turn 0, 90, 180 or 270)."


# --- shapes ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shape:
    """One number tile turned clockwise by `rotation` degrees, anchored at its box's corner."""

    number: int
    rotation: int
    cells: tuple[tuple[int, int], ...]  # (row, col) offsets of the squares inside the box
    height: int
    width: int
    mask: int  # the squares with the box's top-left corner on A1
    rim: int  # the squares sharing an edge with the tile, box corner on B2 (see `rim_at`)
    offsets: tuple[int, ...]  # bit offsets of the squares from the box corner
    corners: int  # the corner squares at which the whole box stays on the table

    def mask_at(self, row: int, col: int) -> int:
        """Return the squares the tile covers with its box's top-left corner on (row, col)."""
        return self.mask << (row * STRIDE + col)

    def rim_at(self, row: int, col: int) -> int:
        """Return the squares next to the tile (off-table neighbours fall away or on spares)."""
        return (self.rim << (row * STRIDE + col)) >> (STRIDE + 1)


def _turn(cells: tuple[tuple[int, int], ...], height: int) -> tuple[tuple[int, int], ...]:
    """Turn offsets 90 degrees clockwise: the top row becomes the right column."""
    return tuple(sorted((c, height - 1 - r) for r, c in cells))


def _make_shapes() -> dict[tuple[int, int], Shape]:
    table: dict[tuple[int, int], Shape] = {}
    for number, rows in SHAPES.items():
        cells = tuple(
            (r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "#"
        )
        for rotation in ROTATIONS:
            height = 1 + max(r for r, _ in cells)
            width = 1 + max(c for _, c in cells)
            mask = sum(1 << (r * STRIDE + c) for r, c in cells)
            framed = {(r + 1, c + 1) for r, c in cells}
            rim_cells = {
                (r + dr, c + dc) for r, c in framed for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            } - framed
            rim = sum(1 << (r * STRIDE + c) for r, c in rim_cells)
            offsets = tuple(r * STRIDE + c for r, c in cells)
            corners = sum(
                1 << (r * STRIDE + c)
                for r in range(SIZE - height + 1)
                for c in range(SIZE - width + 1)
            )
            table[number, rotation] = Shape(
                number, rotation, cells, height, width, mask, rim, offsets, corners
            )
            cells = _turn(cells, height)
    return table


SHAPE = _make_shapes()
SQUARES = {n: len(SHAPE[n, 0].cells) for n in NUMBERS}
# Turnings that give different footprints (0 and 8 look the same after a half turn).
DISTINCT_ROTATIONS = {
    n: tuple(
        rot
        for i, rot in enumerate(ROTATIONS)
        if all(SHAPE[n, rot].cells != SHAPE[n, prev].cells for prev in ROTATIONS[:i])
    )
    for n in NUMBERS
}


def cells_of(mask: int) -> Iterator[tuple[int, int]]:
    """Yield the (row, col) of every square of a mask, in reading order."""
    while mask:
        low = mask & -mask
        row, col = divmod(low.bit_length() - 1, STRIDE)
        yield row, col
        mask ^= low


def level_name(level: int) -> str:
    """Return how messages name a level."""
    return "level 0 (the table)" if level == 0 else f"level {level}"


def on_level(level: int) -> str:
    """Return "on the table" or "on level N", for messages."""
    return "on the table" if level == 0 else f"on level {level}"


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """Put the round's tile turned `rotation` degrees clockwise, box corner on (row, col)."""

    row: int
    col: int
    rotation: int

    def __str__(self) -> str:
        return f"{cell_name(self.row, self.col)} {self.rotation}"


@dataclass(frozen=True, slots=True)
class Skip:
    """Set the round's tile aside; allowed only when it fits nowhere (it then scores nothing)."""

    def __str__(self) -> str:
        return "skip"


Nmbr9Move = Place | Skip | Resign

_PLACE = notation(r"^([A-Za-z])(\d{1,2})(?:\s+(\d{1,3})\s*°?)?$")


def parse_nmbr9_move(text: str) -> Nmbr9Move:
    """Parse ``C4 90`` (the rotation may be left out for 0), ``skip`` or ``resign``."""
    text = " ".join(text.split())
    if text.lower() == "skip":
        return Skip()
    if text.lower() == "resign":
        return Resign()
    if text.split(" ", 1)[0].lower() in ("pass", "swap", "draw"):
        raise NoSuchMove(
            "NMBR 9 has no passing or swapping: each round you place the card's tile, e.g. "
            "/place C4 90 (/moves lists some); a tile that fits nowhere: /place skip."
        )
    m = _PLACE.match(text)
    if m is None:
        problem = f"{quoted(text)} is not a placement." if text else "Say where the tile goes."
        raise InvalidMove(
            f"{problem} Write a square and a turn, like C4 90: C4 is the top-left square of "
            "the turned tile's box, 90 turns it clockwise (0/90/180/270)."
        )
    col = COLUMNS.index(m.group(1).upper())
    row = int(m.group(2)) - 1
    rotation = int(m.group(3) or 0)
    if not 0 <= row < SIZE:
        raise InvalidMove(
            f"Rows run from 1 to {SIZE}, so {quoted(text)} is off the table. Example: C4 90."
        )
    if rotation not in ROTATIONS:
        raise InvalidMove(
            f"A tile turns by 0, 90, 180 or 270 degrees clockwise, not {rotation}. Example: C4 90."
        )
    return Place(row, col, rotation)


# --- a display ---------------------------------------------------------------------------------


class Fit(NamedTuple):
    """A legal placement found by `Display.fits`."""

    level: int
    row: int
    col: int
    rotation: int
    mask: int


def dilate(mask: int) -> int:
    """Return the empty table squares sharing an edge with `mask`."""
    s = STRIDE
    return ((mask << 1) | (mask >> 1) | (mask << s) | (mask >> s)) & TABLE & ~mask


class Footing(NamedTuple):
    """What one level of a display offers a new tile (see `Display.footing`)."""

    surface: int  # squares the tile may cover: free here and, above the table, on the level below
    tiles: tuple[tuple[int, int], ...]  # the level below's tiles: the new one must lie on two
    touch: int  # free squares next to this level's tiles, one of which it must cover (0: any)


def fitting_corners(shape: Shape, footing: Footing) -> int:
    """Return, as one integer, every box corner at which `shape` may go on a level.

    Bit-parallel: flat on the footing's surface, on two tiles of the level below at least, and
    sharing an edge with a tile of its own level when that level has any.
    """
    surface, tiles, touch = footing
    offsets = shape.offsets
    corners = shape.corners
    for offset in offsets:
        corners &= surface >> offset
        if not corners:
            return 0
    for tile, _ in tiles:
        inside = corners
        for offset in offsets:
            inside &= tile >> offset
            if not inside:
                break
        corners &= ~inside  # lying on this one tile alone
        if not corners:
            return 0
    if touch:
        near = 0
        for offset in offsets:
            near |= touch >> offset
        corners &= near
    return corners


@dataclass(frozen=True, slots=True)
class Display:
    """One player's stacked tiles: per level, the occupied squares and every tile's mask."""

    occupied: tuple[int, ...] = ()  # union of the tiles of each level, level 0 first
    tiles: tuple[tuple[tuple[int, int], ...], ...] = ()  # per level: (mask, number) per tile
    box: tuple[int, int, int, int] | None = None  # rows and cols spanned on the table (incl.)

    @property
    def empty(self) -> bool:
        """Return whether no tile lies on the table yet."""
        return not self.occupied

    def height(self, row: int, col: int) -> int:
        """Return how many tiles are stacked on a square."""
        bit = 1 << (row * STRIDE + col)
        return sum(1 for occ in self.occupied if occ & bit)

    def add(self, mask: int, number: int, level: int) -> Display:
        """Return the display with a tile of `number` on `level` covering `mask`."""
        occupied = list(self.occupied)
        tiles = list(self.tiles)
        while level >= len(occupied):  # only a new top level in play; more if loaded corrupt
            occupied.append(0)
            tiles.append(())
        occupied[level] |= mask
        tiles[level] = (*tiles[level], (mask, number))
        box = self.box
        if level == 0:
            cells = list(cells_of(mask))
            rows = [r for r, _ in cells]
            cols = [c for _, c in cells]
            if box is None:
                box = (min(rows), max(rows), min(cols), max(cols))
            else:
                box = (
                    min(box[0], *rows),
                    max(box[1], *rows),
                    min(box[2], *cols),
                    max(box[3], *cols),
                )
        return Display(tuple(occupied), tuple(tiles), box)

    def level_for(self, mask: int, rim: int) -> int:
        """Return the level a tile covering `mask` would lie on, or -1 if it may not go there."""
        occupied = self.occupied
        top = len(occupied)
        level = 0
        while level < top and mask & occupied[level]:
            level += 1
        if level:
            below = occupied[level - 1]
            if mask & below != mask:
                return -1  # overhang or gap
            for tile, _ in self.tiles[level - 1]:
                if mask & tile == mask:
                    return -1  # on one tile only
        if level < top and not rim & occupied[level]:
            return -1  # no edge shared with that level's tiles
        return level

    def footing(self, level: int) -> Footing:
        """Return what `level` (0 up to one above the top) offers a new tile."""
        occupied = self.occupied
        top = len(occupied)
        free = TABLE & ~occupied[level] if level < top else TABLE
        touch = dilate(occupied[level]) if level < top else 0
        if not level:
            return Footing(free, (), touch)
        return Footing(free & occupied[level - 1], self.tiles[level - 1], touch)

    def fits(self, number: int, *, all_rotations: bool = False) -> list[Fit]:
        """Return every legal placement of `number` (one per footprint unless `all_rotations`).

        Bit-parallel: for each turn and level, one integer holds every box corner at which the
        tile lies flat on that level, touches the level's tiles and rests on two tiles.
        """
        out: list[Fit] = []
        rotations = ROTATIONS if all_rotations else DISTINCT_ROTATIONS[number]
        footings = [self.footing(level) for level in range(len(self.occupied) + 1)]
        for rotation in rotations:
            shape = SHAPE[number, rotation]
            for level, footing in enumerate(footings):
                corners = fitting_corners(shape, footing)
                while corners:
                    low = corners & -corners
                    pos = low.bit_length() - 1
                    row, col = divmod(pos, STRIDE)
                    out.append(Fit(level, row, col, rotation, shape.mask << pos))
                    corners ^= low
        return out

    def check(self, number: int, move: Place) -> tuple[int, int]:
        """Return (level, mask) of a placement, or raise `RuleError` saying what is wrong."""
        shape = SHAPE[number, move.rotation]
        where = f"{number} at {move}"
        if not (0 <= move.row <= SIZE - shape.height and 0 <= move.col <= SIZE - shape.width):
            last = cell_name(SIZE - shape.height, SIZE - shape.width)
            raise RuleError(
                Reason.OUT_OF_BOUNDS,
                f"Your {where} would run off the table: turned {move.rotation} it is "
                f"{shape.width} wide and {shape.height} tall, so its corner goes from A1 to "
                f"{last}." + self._hint(number, None),
            )
        mask = shape.mask_at(move.row, move.col)
        heights = {(r, c): self.height(r, c) for r, c in cells_of(mask)}
        # Rule 3: the tile lies completely on squares of the level below (no overhang, no gap).
        if len(set(heights.values())) > 1:
            high = max(heights, key=lambda rc: (heights[rc], rc))
            low = min(heights, key=lambda rc: (heights[rc], rc))
            raise RuleError(
                Reason.NOT_FLAT,
                f"Your {where} would not lie flat: at {cell_name(*high)} it would be "
                f"{on_level(heights[high])}, at {cell_name(*low)} {on_level(heights[low])}. "
                "A tile lies on one level: no overhang, no gap." + self._hint(number, None),
            )
        level = next(iter(heights.values()))
        # Rule 3, second part: it lies on squares of at least two tiles.
        if level:
            for tile, below in self.tiles[level - 1]:
                if mask & tile == mask:
                    raise RuleError(
                        Reason.ONE_SUPPORTING_TILE,
                        f"Your {where} would lie on the {below} alone: a tile on "
                        f"{level_name(level)} must rest on at least two tiles."
                        + self._hint(number, level),
                    )
        # Rule 2: on a level that has tiles, the new tile shares an edge with one of them.
        if (
            level < len(self.occupied)
            and not shape.rim_at(move.row, move.col) & self.occupied[level]
        ):
            raise RuleError(
                Reason.NOT_ADJACENT,
                f"Your {where} would lie on {level_name(level)} without sharing an edge "
                f"with a tile of that level." + self._hint(number, level),
            )
        return level, mask

    def _hint(self, number: int, level: int | None) -> str:
        """Suggest a placement that works: on the level tried if one is free, else `preferred`'s."""
        fits = preferred(self, number)
        if not fits:
            return ""
        best = next((f for f in fits if f.level == level), fits[0])
        return f" Try {Place(best.row, best.col, best.rotation)} ({on_level(best.level)})."


def auto_fit(display: Display, number: int) -> Fit | None:
    """Return the placement the timeout (and the easy bot) makes, or None if none fits.

    The rule, fixed so a timeout is reproducible: the highest level possible; among those, the
    box nearest the middle of the table; then reading order of the corner, then the rotation.
    """
    mid = (SIZE - 1) / 2
    return next(iter(preferred(display, number, (mid, mid))), None)


# --- the state ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile in a display: its number, where its box's corner lies, its turn and level."""

    number: int
    row: int
    col: int
    rotation: int
    level: int

    @property
    def move(self) -> Place:
        """Return the move that put it there."""
        return Place(self.row, self.col, self.rotation)

    @property
    def points(self) -> int:
        """Return what the tile scores: number × level."""
        return self.number * self.level

    def to_json(self) -> list[int]:
        """Return ``[number, row, col, rotation, level]``."""
        return [self.number, self.row, self.col, self.rotation, self.level]


@dataclass(frozen=True, slots=True)
class Nmbr9State:
    """One position of NMBR 9: the deck and, per seat, one entry per round placed so far.

    An entry is a `Placed` tile, or None for a tile set aside because it fitted nowhere. Seats
    in `resigned` gave up: their displays stay as they were, they place no more and cannot
    win; the others play on while two remain (one left wins, none left ends a solo game).
    """

    deck: tuple[int, ...]
    placements: tuple[tuple[Placed | None, ...], ...]
    seed: int
    turn: int = 0
    history: tuple[MoveRecord, ...] = ()
    resigned: tuple[int, ...] = ()
    displays: tuple[Display, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.displays:
            object.__setattr__(
                self, "displays", tuple(_build(entries) for entries in self.placements)
            )

    # -- the contract --

    @property
    def game_key(self) -> str:
        """Return the registry key of the game."""
        return "nmbr9"

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return len(self.placements)

    @property
    def playing(self) -> tuple[int, ...]:
        """Return the seats that have not resigned."""
        return tuple(s for s in range(self.players) if s not in self.resigned)

    @property
    def ended_early(self) -> bool:
        """Return True once resignations left no seat (solo) or one seat (several players)."""
        return len(self.playing) < min(2, self.players)

    @property
    def round(self) -> int:
        """Return the 0-based round being played (ROUNDS once the game is over)."""
        if self.ended_early:
            return ROUNDS
        return min(len(self.placements[s]) for s in self.playing)

    @property
    def card(self) -> int | None:
        """Return the number every seat places this round (None once the game is over)."""
        return self.deck[self.round] if self.round < ROUNDS else None

    @property
    def scores(self) -> tuple[int, ...]:
        """Return each display's score: the sum of number × level over its tiles."""
        return tuple(_score(entries) for entries in self.placements)

    @property
    def outcome(self) -> Outcome | None:
        """Return the result once all 20 rounds are placed; a tie shares the win.

        Resigned seats cannot win; a game that resignations ended early is won by the one seat
        left (by nobody in a solo game), whatever the scores.
        """
        if self.round < ROUNDS:
            return None
        scores = self.scores
        if self.ended_early:
            return Outcome(scores, self.playing, "resign")
        best = max(scores[s] for s in self.playing)
        return Outcome(scores, tuple(s for s in self.playing if scores[s] == best), "complete")

    def waiting_for(self) -> tuple[int, ...]:
        """Return the seats that have not placed this round's tile yet (any order)."""
        if self.round >= ROUNDS:
            return ()
        return tuple(s for s in self.playing if len(self.placements[s]) == self.round)

    def rack(self, seat: int) -> tuple[str, ...]:
        """Return the tile `seat` still has to place this round, as a code ("7"), or nothing."""
        return (str(self.card),) if seat in self.waiting_for() else ()

    def display(self, seat: int) -> Display:
        """Return the display of `seat`."""
        return self.displays[seat]

    def apply(self, seat: int, move: object) -> Self:
        """Return the state after `seat` places this round's tile."""
        if self.round >= ROUNDS:
            raise RuleError(Reason.GAME_OVER, "This game is over; start a new one with /new.")
        if not 0 <= seat < self.players:
            raise RuleError(Reason.NOT_A_PLAYER, "You are not playing in this game.")
        if seat in self.resigned:
            raise RuleError(Reason.PLAYER_LEFT, "You have resigned from this game already.")
        if isinstance(move, Resign):
            record = MoveRecord(seat, RESIGNED, 0, (), ("resign",))
            return replace(
                self,
                resigned=tuple(sorted((*self.resigned, seat))),
                turn=self.turn + 1,
                history=(*self.history, record),
            )
        number = self.deck[self.round]
        if len(self.placements[seat]) > self.round:
            others = len(self.waiting_for())
            waiting = "other player has" if others == 1 else f"{others} other players have"
            raise RuleError(
                Reason.ALREADY_PLACED,
                f"You have placed this round's {number} already; the next card comes when the "
                f"{waiting} placed theirs.",
            )
        display = self.displays[seat]
        if isinstance(move, Skip):
            fit = next(iter(preferred(display, number)), None)
            if fit is not None:
                raise RuleError(
                    Reason.CAN_STILL_PLACE,
                    f"Your {number} still fits, e.g. {Place(fit.row, fit.col, fit.rotation)} "
                    f"({on_level(fit.level)}); you may skip only a tile that fits nowhere.",
                )
            return self._record(seat, None, display, move, ())
        if not isinstance(move, Place):
            raise InvalidMove(f"{move!s} is not a move of NMBR 9. Play e.g. {USAGE}")
        level, mask = display.check(number, move)
        placed = Placed(number, move.row, move.col, move.rotation, level)
        cells = tuple(r * SIZE + c for r, c in cells_of(mask))
        return self._record(seat, placed, display.add(mask, number, level), move, cells)

    def _record(
        self,
        seat: int,
        placed: Placed | None,
        display: Display,
        move: Nmbr9Move,
        cells: tuple[int, ...],
        words: tuple[str, ...] = (),
    ) -> Self:
        # The notation says where; the chat also reads which number, on which level.
        number = self.deck[len(self.placements[seat])]
        label = f"skipped the {number}"
        if placed:
            label = f"{number} at {move} {on_level(placed.level)}"
        record = MoveRecord(seat, str(move), placed.points if placed else 0, cells, words, label)
        return replace(
            self,
            placements=_set(self.placements, seat, (*self.placements[seat], placed)),
            displays=_set(self.displays, seat, display),
            turn=self.turn + 1,
            history=(*self.history, record),
        )

    def auto_place(self, seat: int, reason: str = "deadline") -> Self:
        """Place `seat`'s tile by the fixed `auto_fit` rule; the record's words say `reason`."""
        number = self.card
        if number is None or seat not in self.waiting_for():
            raise RuleError(Reason.ALREADY_PLACED, "That player has nothing to place now.")
        display = self.displays[seat]
        fit = auto_fit(display, number)
        if fit is None:
            return self._record(seat, None, display, Skip(), (), (reason,))
        placed = Placed(number, fit.row, fit.col, fit.rotation, fit.level)
        cells = tuple(r * SIZE + c for r, c in cells_of(fit.mask))
        return self._record(
            seat, placed, display.add(fit.mask, number, fit.level), placed.move, cells, (reason,)
        )

    def view(self, seat: int | None) -> JSON:
        """Return what `seat` may see: every display, but not others' tiles of this round.

        Displays lie open on the table, but a round's placements are made privately: another
        seat's tile of the current round shows only once the round is over. Future cards are
        hidden.
        """
        now = self.round
        visible = [
            entries if s == seat else entries[:now] for s, entries in enumerate(self.placements)
        ]
        rounds_shown = [len(entries) for entries in visible]
        seen: Counter[int] = Counter()
        history = []
        for record in self.history:
            if "resign" in record.words:  # public at once
                history.append(record.to_json())
                continue
            seen[record.seat] += 1
            if seen[record.seat] <= rounds_shown[record.seat]:
                history.append(record.to_json())
            else:  # said, not shown: the list keeps its numbers when the round ends
                history.append(MoveRecord(record.seat, HIDDEN_PLACEMENT, 0).to_json())
        return {
            "game": self.game_key,
            "size": SIZE,
            "round": now,
            "rounds": ROUNDS,
            "card": self.card,
            "cards_seen": list(self.deck[: min(now + 1, ROUNDS)]),
            "placed": [len(e) > now for e in self.placements],
            "waiting_for": list(self.waiting_for()),
            "resigned": list(self.resigned),
            "displays": [[p.to_json() if p else None for p in entries] for entries in visible],
            "scores": [_score(entries) for entries in visible],
            "turn": self.turn,
            "rack": list(self.rack(seat)) if seat is not None else None,
            "history": history,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def to_json(self) -> JSON:
        """Return the whole state (deck order included) as JSON data."""
        return {
            "v": SCHEMA_VERSION,
            "game": self.game_key,
            "deck": "".join(map(str, self.deck)),
            "placements": [
                [p.to_json() if p else None for p in entries] for entries in self.placements
            ],
            "seed": self.seed,
            "turn": self.turn,
            "history": [record.to_json() for record in self.history],
            "resigned": list(self.resigned),
        }

    def check_invariants(self) -> None:
        """Raise `InvariantError` unless tiles are conserved, every tile is legal, scores add up."""
        if sorted(self.deck) != sorted(NUMBERS * COPIES):
            raise InvariantError(f"the deck is not two of each number: {self.deck}")
        for seat, entries in enumerate(self.placements):
            stopped = seat in self.resigned or self.ended_early
            if not stopped and not self.round <= len(entries) <= min(self.round + 1, ROUNDS):
                raise InvariantError(f"seat {seat} has {len(entries)} tiles in round {self.round}")
            display = Display()
            for i, placed in enumerate(entries):
                if placed is None:
                    if auto_fit(display, self.deck[i]) is not None:
                        raise InvariantError(f"seat {seat} skipped a tile that fitted, round {i}")
                    continue
                if placed.number != self.deck[i]:
                    raise InvariantError(f"seat {seat} placed a {placed.number} in round {i}")
                try:
                    level, mask = display.check(placed.number, placed.move)
                except RuleError as error:
                    raise InvariantError(f"seat {seat} round {i}: {error}") from error
                if level != placed.level:
                    raise InvariantError(f"seat {seat} round {i}: level {placed.level} != {level}")
                display = display.add(mask, placed.number, level)
            if display != self.displays[seat]:
                raise InvariantError(f"the display of seat {seat} does not match its tiles")
            moved = sum(r.score for r in self.history if r.seat == seat)
            if moved != self.scores[seat]:
                raise InvariantError(f"score of seat {seat} does not add up on turn {self.turn}")
        resignations = sum("resign" in r.words for r in self.history)
        if resignations != len(self.resigned) or len(set(self.resigned)) != resignations:
            raise InvariantError(f"resigned seats {self.resigned} do not match the history")
        moves = sum(len(e) for e in self.placements) + resignations
        if self.turn != moves or len(self.history) != self.turn:
            raise InvariantError(f"turn {self.turn} does not count the placements")


def _build(entries: tuple[Placed | None, ...]) -> Display:
    display = Display()
    for placed in entries:
        if placed is not None:
            mask = SHAPE[placed.number, placed.rotation].mask_at(placed.row, placed.col)
            display = display.add(mask, placed.number, placed.level)
    return display


def _score(entries: tuple[Placed | None, ...]) -> int:
    return sum(p.points for p in entries if p is not None)


def _set(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def legal_placements(state: Nmbr9State, seat: int) -> list[Place]:
    """Return every legal placement of `seat`'s tile this round (one per footprint)."""
    number = state.card
    if number is None or seat not in state.waiting_for():
        return []
    return [Place(f.row, f.col, f.rotation) for f in state.displays[seat].fits(number)]


def preferred(
    display: Display, number: int, middle: tuple[float, float] | None = None
) -> list[Fit]:
    """Return the placements of `number` in the order every suggestion offers them.

    The highest level first; within a level, the nearest `middle`: by default the middle of
    the display (of the table for a first tile; `auto_fit`, the deadline's rule, takes the
    table's), then reading order of the corner, then the turn.
    """
    if middle is not None:
        mid_row, mid_col = middle
    elif display.box is None:
        mid_row = mid_col = (SIZE - 1) / 2
    else:
        mid_row = (display.box[0] + display.box[1]) / 2
        mid_col = (display.box[2] + display.box[3]) / 2

    def order(fit: Fit) -> tuple[int, float, int, int, int]:
        shape = SHAPE[number, fit.rotation]
        dr = fit.row + (shape.height - 1) / 2 - mid_row
        dc = fit.col + (shape.width - 1) / 2 - mid_col
        return (-fit.level, dr * dr + dc * dc, fit.row, fit.col, fit.rotation)

    return sorted(display.fits(number), key=order)


def suggest_placements(state: Nmbr9State, seat: int, limit: int = 8) -> tuple[Place, ...]:
    """Return up to `limit` legal placements for `/moves`: the highest levels first, varied.

    In `preferred` order, one per corner cell, spread over the levels, so that the list shows
    different spots.
    """
    number = state.card
    if number is None or seat not in state.waiting_for():
        return ()
    by_level: dict[int, list[Fit]] = {}
    for fit in preferred(state.displays[seat], number):
        by_level.setdefault(fit.level, []).append(fit)
    levels = sorted(by_level, reverse=True)
    chosen: list[Fit] = []
    for k, level in enumerate(levels):  # spread the picks over every level, highest first
        share = max(1, (limit - len(chosen)) // (len(levels) - k))
        corners: set[tuple[int, int]] = set()
        for fit in by_level[level]:
            if len(chosen) >= limit or share == 0:
                break
            if (fit.row, fit.col) in corners:
                continue
            corners.add((fit.row, fit.col))
            chosen.append(fit)
            share -= 1
    return tuple(Place(f.row, f.col, f.rotation) for f in chosen[:limit])


# --- the game definition -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Nmbr9Def(GameDef):
    """The registry entry of NMBR 9."""

    def new_game(
        self,
        players: int,
        *,
        seed: int,
        options: Mapping[str, str],
        deck: tuple[int, ...] | None = None,
    ) -> Nmbr9State:
        """Shuffle the 20 cards from `seed` (or take the rigged `deck`, for tests)."""
        self.check_players(players)
        self.parse_options(options)
        if deck is None:
            cards = list(NUMBERS * COPIES)
            random.Random(seed).shuffle(cards)
            deck = tuple(cards)
        if sorted(deck) != sorted(NUMBERS * COPIES):
            raise ValueError("a deck holds two cards of each number 0-9")
        return Nmbr9State(deck=tuple(deck), placements=((),) * players, seed=seed)

    def parse_move(self, text: str) -> Nmbr9Move:
        """Parse ``C4 90`` or ``skip``."""
        return parse_nmbr9_move(text)

    def from_json(self, data: JSON) -> Nmbr9State:
        """Rebuild a state saved by `Nmbr9State.to_json`."""
        if data.get("v") != SCHEMA_VERSION or data.get("game") != self.key:
            raise ValueError(f"not a {self.key} state of schema {SCHEMA_VERSION}")
        return Nmbr9State(
            deck=tuple(int(ch) for ch in data["deck"]),
            placements=tuple(
                tuple(Placed(*p) if p is not None else None for p in entries)
                for entries in data["placements"]
            ),
            seed=data["seed"],
            turn=data["turn"],
            history=tuple(MoveRecord.from_json(r) for r in data["history"]),
            resigned=tuple(data.get("resigned", ())),
        )

    def notation_help(self) -> str:
        """Return the rules a player needs in brief, then the move notation with an example."""
        return f"{RULES_SUMMARY}\n{NOTATION_HELP}"

    def how_to_move(self) -> str:
        """Say in a line how a placement is written, for newcomers at the deal."""
        return (
            "Each round, place the card's tile: /place C4 90 turns it 90° clockwise with the "
            "top-left square of its box on C4; /moves lists placements that fit."
        )

    def turn_timeout(self, options: Mapping[str, str]) -> timedelta | None:
        """Return the round deadline (option ``deadline``, 24 h by default)."""
        return DEADLINES[self.parse_options(options)["deadline"]]

    pile = "deck"

    def unseen(self, state: GameState, seat: int) -> tuple[tuple[str, ...], int]:
        """Return the cards still to come, smallest first (their order stays hidden)."""
        assert isinstance(state, Nmbr9State)
        cards = tuple(str(number) for number in sorted(state.deck[state.round + 1 :]))
        return cards, len(cards)

    def on_timeout(self, state: GameState, seat: int) -> GameState:
        """Place the tile of a seat that missed the deadline, by the easy bot's rule."""
        assert isinstance(state, Nmbr9State)
        return state.auto_place(seat, "deadline")

    def seats_in_game(self, state: GameState) -> tuple[int, ...]:
        """Return the seats that have not resigned."""
        assert isinstance(state, Nmbr9State)
        return state.playing

    deadline_task: ClassVar[str] = "Each round's tile must be placed"
    private: ClassVar[str] = "display"

    def missed_deadline(self, *, done: bool = False) -> str:
        """Say what a missed round deadline does (`done`: did): the easy rule places the tile."""
        return "the easy rule placed your tile" if done else "the easy rule places it for you"

    def deadline_rule(self, limit: str) -> str:
        """State the round's time limit, and what "the easy rule" the reminders name does."""
        easy = "(The easy rule: as high up, then as central, as it fits.)"
        return f"{GameDef.deadline_rule(self, limit)} {easy}"  # (slots: no bare super())

    def round_of(self, state: GameState) -> int | None:
        """Return the round being played: every seat places at once, privately."""
        assert isinstance(state, Nmbr9State)
        return state.round

    def some_moves(self, state: GameState, seat: int, limit: int = 8) -> tuple[Place, ...]:
        """Return up to `limit` legal placements for `/moves`, the highest levels first."""
        assert isinstance(state, Nmbr9State)
        return suggest_placements(state, seat, limit)

    def describe_suggestion(self, state: GameState, seat: int, move: Move) -> str:
        """Say where a placement of /moves puts the round's tile: "level 2, +16", "on the table".

        "" for a move that is not a legal placement of `seat`'s tile this round.
        """
        assert isinstance(state, Nmbr9State)
        number = state.card
        if not isinstance(move, Place) or number is None or seat not in state.waiting_for():
            return ""
        try:
            level, _ = state.displays[seat].check(number, move)
        except RuleError:
            return ""
        if level == 0:
            return on_level(level)
        points = Placed(number, move.row, move.col, move.rotation, level).points
        return f"{level_name(level)}, +{points}"


NMBR9 = Nmbr9Def(
    key="nmbr9",
    title="NMBR 9",
    tagline="stack number-shaped tiles, solo or up to 4",
    min_players=1,
    max_players=4,
    options=(DEADLINE_OPTION,),
)
