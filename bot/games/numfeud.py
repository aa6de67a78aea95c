"""Numfeud: number melds on a crossword grid, locking jokers (../shared/rules/numfeud.txt).

The board is a 15×15 grid (cells ``row * 15 + col``, centre H8) holding board codes: ``R5`` is
a red five, ``J=R5`` a joker standing for a red five. Every maximal horizontal or vertical line
of two or more tiles must be a valid combination of at least three: a group (one number,
different colours) or a run (one colour, counting up by one from left to right or top to
bottom). A turn is one line of steps separated by ``;``: ``8H R5 R6 R7`` lays tiles from the
anchor (board tiles included, as in the word games), ``K8>L9`` moves an unlocked board tile.
After a turn the jokers on the board, and the tiles touching them, are locked; writing the tile
a joker stands for over it frees the joker into the player's inventory.

Scores stay 0 during a game; at the end they are the ranking points each seat wins or loses.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from itertools import pairwise, permutations
from typing import Any, ClassVar, Self

from bot.core.errors import (
    MAX_MESSAGE,
    GameError,
    InvalidMove,
    InvariantError,
    Reason,
    RuleError,
)
from bot.core.game import (
    JSON,
    RESIGNED,
    GameDef,
    GameState,
    Move,
    MoveRecord,
    Outcome,
    Pass,
    Resign,
    move_words,
)
from bot.core.grid import COLUMNS, Anchor, cell_name, parse_anchor
from bot.core.notation import notation
from bot.core.tiles import draw, missing_from, new_bag, return_to_bag, shortage
from bot.core.words import clip, quoted
from bot.games import numtiles
from bot.games.numtiles import HIGH, JOKER, LOW, MIN_MELD, Verdict, tile_name

SCHEMA_VERSION = 1
GAME_KEY = "numfeud"
SIZE = 15  # the word games' board: the same notation, centre H8, room for a 13-tile run
CENTRE = (SIZE // 2) * SIZE + SIZE // 2
COLOURS = "RBYG"  # red, blue, yellow, green: also the display order
COLOUR_NAMES = {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}
RACK_SIZE = 16  # tiles dealt to each player
MAX_RACK = 20  # the most tiles an inventory may hold
# The record of a pass with a full rack and no play found: the player gives the game up.
FULL_PASS = f"passed holding {MAX_RACK} tiles and lost"
# … and of a timeout there: the pass it would have had to make, made by the clock.
FULL_TIMEOUT = f"ran out of time holding {MAX_RACK} tiles and lost"
SWAP_LIMIT = 13  # tiles a player may swap in one game
JOKER_VALUE = 15  # a joker left in an inventory
FORFEIT_POINTS = 50  # resigning after a move, running out of time, a full inventory
TIMEOUT = timedelta(hours=72)
TILE_COUNTS: dict[str, int] = {f"{c}{n}": 2 for c in COLOURS for n in range(LOW, HIGH + 1)}
TILE_COUNTS[JOKER] = 2  # 106 tiles

_TILE = r"([RBYG])(1[0-3]|[1-9])"
_TOKEN = notation(rf"^(?:{_TILE}|J(?:=({_TILE}))?)$", re.IGNORECASE)
_SWAP_TILE = notation(r"[RBYG](?:1[0-3]|[1-9])|J")
_SWAP = notation(r"(?:[RBYG](?:1[0-3]|[1-9])|J)+")
_SHIFT = notation(r"^([A-Za-z]\d{1,2}|\d{1,2}[A-Za-z])>([A-Za-z]\d{1,2}|\d{1,2}[A-Za-z])$")

# The rules a player needs before the first turn, for /rules (docs/rules/numfeud.md).
RULES_SUMMARY = (
    "Win by laying all your tiles first (16 to start), in groups (one number in 3 or 4 colours) "
    "and runs (3 or more numbers in a row in one colour), across or down; the first play "
    "covers H8, later ones join the board, and every line of two or more tiles is a group or "
    "run. A joker laid in an earlier turn and the tiles beside it are locked; "
    "your last play may not lay a joker. A pass draws a tile; a swap draws one more than it "
    "returns, 13 tiles swapped per game at most. Your rack (the rules' inventory) holds 20 tiles "
    "at most: at 20 "
    "with no tile to lay you lose 50 (pass to say so) and your opponent gains 50. Bag empty and "
    "both pass: the "
    "smaller rack sum wins. Tiles: R B Y G (red, blue, yellow, green) 1–13 and jokers J. "
    "Ranking points: the winner gains the loser's rack sum (a "
    "joker counts 15), the loser loses it; resigning after your first move costs 50."
)
NOTATION_HELP = (
    "Lay tiles from a square: 8H R5 R6 R7 (row 8, column H, across) or H8 R5 R6 R7 (down); "
    "write board tiles too; a joker with what it stands for, J=R5. Move an unlocked board tile "
    "first with K8>L9; join steps with ;. Free a joker by writing its tile over it. "
    "Also: swap R5 B7 J, pass, resign."
)
# A joker laid without the tile it stands for (8H R5 J R7), by a player who holds one.
JOKER_FACE = "Say what a laid joker stands for, e.g. 8H R5 J=R6 R7."
# The short form errors end with (whole messages fit a Telegram alert; /rules has the rest).
USAGE = "8H R5 R6 R7 (across from 8H) or H8 R5 R6 R7 (down); also swap R5 J, pass, resign."


# --- tiles -------------------------------------------------------------------------------------


def is_joker(code: str) -> bool:
    """Return whether a tile or board code is a joker (``J`` or ``J=R5``)."""
    return code.startswith(JOKER)


def face(code: str) -> str:
    """Return the tile a board code shows: ``J=R5`` -> ``R5``, ``R5`` -> ``R5``."""
    return code[2:] if code.startswith("J=") else code


def physical(code: str) -> str:
    """Return the tile that sits in the cell or the inventory: ``J=R5`` -> ``J``."""
    return JOKER if is_joker(code) else code


def colour(tile: str) -> str:
    """Return the colour letter of a number tile or a joker's face."""
    return face(tile)[0]


def number(tile: str) -> int:
    """Return the number of a number tile or a joker's face."""
    return int(face(tile)[1:])


def tile_value(tile: str) -> int:
    """Return what a tile left in an inventory counts: its number, 15 for a joker."""
    return JOKER_VALUE if is_joker(tile) else number(tile)


def inventory_value(tiles: Iterable[str]) -> int:
    """Return the sum of an inventory (a joker counts 15)."""
    return sum(tile_value(t) for t in tiles)


def tile_order(tile: str) -> tuple[int, int]:
    """Return a sort key of an inventory tile: by colour (R B Y G), then number; jokers last."""
    return numtiles.tile_order(tile, COLOURS)


def sort_tiles(tiles: Iterable[str]) -> tuple[str, ...]:
    """Return inventory tiles in display order."""
    return numtiles.sort_tiles(tiles, COLOURS)


def parse_token(text: str) -> str:
    """Return the canonical code of ``r5``, ``j=r5`` or ``j``; raise `InvalidMove` if unknown."""
    match = _TOKEN.match(text.strip())
    if match is None:
        raise InvalidMove(
            f"{quoted(text)} is not a tile. A tile is a colour R, B, Y or G and a number 1–13 (R5, "
            "G13); a joker is J, on the board J=R5 (the tile it stands for). E.g. 8H R5 R6 R7."
        )
    if match.group(1):
        return f"{match.group(1).upper()}{int(match.group(2))}"
    if match.group(3):
        return f"J={match.group(4).upper()}{int(match.group(5))}"
    return JOKER


def check_line(codes: Sequence[str]) -> Verdict:
    """Judge one maximal line of board codes in reading order (left to right, top to bottom).

    A group is one number in different colours (3 or 4 tiles); a run is one colour counting up
    by one (3 to 13 tiles). A joker is what its code says it stands for; a line holds at most
    one joker.
    """
    arranged = tuple(codes)
    faces = [face(c) for c in arranged]
    numbers = [number(f) for f in faces]
    colours = [colour(f) for f in faces]
    value = sum(numbers)
    if len(arranged) < MIN_MELD:
        return Verdict("", value, arranged, f"has only {len(arranged)} tiles; a line needs 3+")
    if sum(1 for c in arranged if is_joker(c)) > 1:
        return Verdict("", value, arranged, "holds two jokers; a combination may hold one")
    if len(set(numbers)) == 1:
        if len(set(colours)) < len(colours):
            return Verdict("", value, arranged, "repeats a colour: a group needs new colours")
        return Verdict("group", value, arranged)
    if len(set(colours)) == 1:
        if all(b == a + 1 for a, b in pairwise(numbers)):
            return Verdict("run", value, arranged)
        return Verdict("", value, arranged, "is not in order: a run counts up by one")
    return Verdict("", value, arranged, "mixes colours and numbers")


def _joker_count(codes: Iterable[str]) -> int:
    return sum(1 for c in codes if is_joker(c))


# --- geometry ----------------------------------------------------------------------------------


def _cell(row: int, col: int) -> int:
    return row * SIZE + col


def _name(cell: int) -> str:
    return cell_name(*divmod(cell, SIZE))


ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_cell(r, c) for c in range(SIZE)) for r in range(SIZE)
)
COLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_cell(r, c) for r in range(SIZE)) for c in range(SIZE)
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        _cell(r + dr, c + dc)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )
    for r in range(SIZE)
    for c in range(SIZE)
)


def segments(board: Sequence[str]) -> Iterator[tuple[int, bool, tuple[int, ...]]]:
    """Yield (first cell, across, cells) of every maximal line of two or more tiles."""
    for across, lines in ((True, ROWS), (False, COLS)):
        for line in lines:
            run: list[int] = []
            for cell in (*line, -1):
                if cell >= 0 and board[cell]:
                    run.append(cell)
                    continue
                if len(run) >= 2:
                    yield run[0], across, tuple(run)
                run = []


def _cross(board: Sequence[str], cell: int, across: bool) -> tuple[list[str], list[str]]:
    """Return the board codes before and after `cell` along the line through it."""
    row, col = divmod(cell, SIZE)
    step = 1 if across else SIZE
    pos = col if across else row
    before: list[str] = []
    j, p = cell - step, pos - 1
    while p >= 0 and board[j]:
        before.append(board[j])
        j, p = j - step, p - 1
    before.reverse()
    after: list[str] = []
    j, p = cell + step, pos + 1
    while p < SIZE and board[j]:
        after.append(board[j])
        j, p = j + step, p + 1
    return before, after


def locked_cells(board: Sequence[str]) -> frozenset[int]:
    """Return the locked cells: every joker on the board and the tiles touching it.

    Called at the start of a turn, when every joker on the board was played in an earlier turn.
    """
    out: set[int] = set()
    for cell, code in enumerate(board):
        if code and is_joker(code):
            out.add(cell)
            out.update(n for n in NEIGHBOURS[cell] if board[n])
    return frozenset(out)


def connected(board: Sequence[str]) -> bool:
    """Return whether the tiles on the board form one orthogonally connected group."""
    tiles = [i for i, code in enumerate(board) if code]
    if not tiles:
        return True
    seen = {tiles[0]}
    todo = [tiles[0]]
    while todo:
        cell = todo.pop()
        for n in NEIGHBOURS[cell]:
            if board[n] and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(tiles)


def board_problem(board: Sequence[str]) -> RuleError | None:
    """Return why the board breaks the line rule (a `RuleError` to raise), or None if it holds."""
    for first, across, cells in segments(board):
        codes = [board[c] for c in cells]
        where = f"{Anchor(*divmod(first, SIZE), across)}"
        if _joker_count(codes) > 1:
            return RuleError(
                Reason.TWO_JOKERS,
                f"The line {where} {' '.join(codes)} holds two jokers: a combination may hold "
                "only one.",
            )
        verdict = check_line(codes)
        if not verdict.valid:
            return RuleError(
                Reason.INVALID_MELD,
                f"The line {where} {' '.join(codes)} {verdict.problem}. Every line of 2+ tiles "
                "must be a group or a run of 3+.",
            )
    return None


def check_whole_line(board: Sequence[str], cells: Sequence[int], across: bool) -> None:
    """Raise `WORD_NOT_COMPLETE` if board tiles continue the line written on `cells`.

    The message names the tiles that continue it and shows the whole line to type (and, when
    that line is no combination either, says so: copied, it would only be refused next).
    """
    step = 1 if across else SIZE
    before, _ = _cross(board, cells[0], across)
    _, after = _cross(board, cells[-1], across)
    if not before and not after:
        return
    ends: list[str] = []
    if before:
        ends.append(f"{before[-1]} on {_name(cells[0] - step)}")
    if after:
        ends.append(f"{after[0]} on {_name(cells[-1] + step)}")
    first = cells[0] - step * len(before)
    codes = [*before, *(board[c] for c in cells), *after]
    whole = (
        f"{' and '.join(ends)} {'continue' if len(ends) > 1 else 'continues'} your line: "
        f"write it whole, as {Anchor(*divmod(first, SIZE), across)} {' '.join(codes)}"
    )
    verdict = check_line(codes)
    if not verdict.valid:
        whole += f"; but that line {verdict.problem}"
    raise RuleError(Reason.WORD_NOT_COMPLETE, whole + ".")


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lay:
    """Lay tiles from the anchor, one token per cell; board tiles are written as they are.

    A bare ``J`` parses, so that a player with no joker hears so; playing it is refused.
    """

    anchor: Anchor
    tiles: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.anchor} {' '.join(self.tiles)}"


@dataclass(frozen=True, slots=True)
class Shift:
    """Move an unlocked board tile from one cell to an empty one, within the turn."""

    source: tuple[int, int]  # (row, col)
    target: tuple[int, int]

    def __str__(self) -> str:
        return f"{cell_name(*self.source)}>{cell_name(*self.target)}"


Step = Lay | Shift


@dataclass(frozen=True, slots=True)
class Turn:
    """A turn that lays tiles: steps applied in order, the board checked at the end."""

    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return "; ".join(str(step) for step in self.steps)


@dataclass(frozen=True, slots=True)
class Swap:
    """Return these tiles to the bag and draw one more than returned."""

    tiles: tuple[str, ...]

    def __str__(self) -> str:
        return "swap " + " ".join(self.tiles)


NumfeudMove = Turn | Swap | Pass | Resign


def _parse_cell(text: str) -> tuple[int, int]:
    anchor = parse_anchor(text)
    return anchor.row, anchor.col


def _parse_step(text: str) -> Step:
    # Forgiven as in Rummikub: tiles listed with commas (R5,R6,R7), spaces round a move's ">".
    parts = re.sub(r"\s*>\s*", ">", text).replace(",", " ").split()
    if len(parts) == 1 and (m := _SHIFT.match(parts[0])):
        return Shift(_parse_cell(m.group(1)), _parse_cell(m.group(2)))
    if len(parts) < 2:
        raise InvalidMove(
            f"{quoted(text)} is not a step. Lay tiles like 8H R5 R6 R7 or move a board tile like "
            "K8>L9."
        )
    anchor = parse_anchor(parts[0])
    if anchor.col >= SIZE and _TOKEN.match(parts[0]):  # "R5 R6 R7": tiles with no square first
        raise InvalidMove(
            f"{quoted(parts[0])} is a tile, not a square: start with the square to lay from, e.g. "
            f"8H {clip(' '.join(parts), 40)} (row 8, column H, across) or H8 … (down)."
        )
    # A bare J (no tile it stands for) parses: `NumfeudState._lay` tells a player with no joker
    # so first, as any tile not held, and asks the others what the joker stands for.
    return Lay(anchor, tuple(parse_token(t) for t in parts[1:]))


def parse_numfeud_move(text: str) -> NumfeudMove:
    """Parse ``8H R5 R6 R7``, ``K8>L9; 9L R9 R10 R11``, ``swap R5 J``, ``pass`` or ``resign``."""
    parts, control = move_words(text, USAGE)
    if control is not None:
        return control
    head = parts[0].lower()
    if head == "swap":
        # Codes may come written together (R5B7J): Discord's /swap strips the spaces. Commas
        # between tiles are forgiven here as in a lay (R5,B7 or R5, B7).
        codes = " ".join(parts[1:]).replace(",", " ").split()
        joined = "".join(codes).upper()
        if not joined:
            raise InvalidMove("Name the tiles to swap from your rack, e.g. swap R5 B7 J.")
        if not _SWAP.fullmatch(joined):
            bad = next(code for code in codes if not _SWAP.fullmatch(code.upper()))
            raise InvalidMove(
                f"{quoted(bad)} is not a tile: a colour R, B, Y or G and a number 1–13, or J for a "
                "joker. Name the tiles to swap from your rack, e.g. swap R5 B7 J."
            )
        return Swap(tuple(parse_token(t) for t in _SWAP_TILE.findall(joined)))
    steps = tuple(_parse_step(chunk) for chunk in text.split(";") if chunk.strip())
    if not steps:
        raise InvalidMove(f"Say what to play, e.g. {USAGE}")
    return Turn(steps)


# --- the play search ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Search:
    """Single-line plays of one inventory on one board (the "any legal play?" search)."""

    board: Sequence[str]
    rack: Sequence[str]
    must: tuple[str, ...] = ()  # only lays that put these tiles in holes (moved board tiles)
    have: Counter[str] = field(init=False)
    jokers: int = field(init=False)
    first: bool = field(init=False)
    _allowed: dict[tuple[int, bool], frozenset[str] | None] = field(init=False)
    _no_joker: set[tuple[int, bool]] = field(init=False)
    _must_colours: set[str] = field(init=False)
    _must_numbers: set[int] = field(init=False)

    def __post_init__(self) -> None:
        self._must_colours = {colour(tile) for tile in self.must}
        self._must_numbers = {number(tile) for tile in self.must}
        self.have = Counter(self.rack)
        self.jokers = self.have.pop(JOKER, 0)
        self.first = not any(self.board)
        self._allowed = {}
        self._no_joker = set()

    def allowed(self, cell: int, across: bool) -> frozenset[str] | None:
        """Return the faces a new tile at `cell` may show for its cross line (None: any)."""
        key = (cell, across)
        if key in self._allowed:
            return self._allowed[key]
        before, after = _cross(self.board, cell, not across)
        out: frozenset[str] | None
        if not before and not after:
            out = None
        else:
            ref = (before or after)[0]
            ref_pos = 0 if before else len(before) + 1
            here = len(before)
            col, num = colour(ref), number(ref)
            candidates = {f"{c}{num}" for c in COLOURS}
            run_num = num + here - ref_pos
            if LOW <= run_num <= HIGH:
                candidates.add(f"{col}{run_num}")
            out = frozenset(f for f in candidates if check_line([*before, f, *after]).valid)
            if _joker_count(before) + _joker_count(after):
                self._no_joker.add(key)  # the cross line holds a joker already
        self._allowed[key] = out
        return out

    def lays(self) -> Iterator[Lay]:
        """Yield every single-line lay: one maximal window per line, its holes from the rack."""
        board, total = self.board, len(self.rack)
        for across, lines in ((True, ROWS), (False, COLS)):
            step = SIZE if across else 1  # to the neighbours across the line
            for line in lines:
                # A window connects when it holds a cell that is taken or touches a tile
                # sideways; `reach[i]` is the first such cell at or after i (SIZE: none).
                reach = [SIZE] * (SIZE + 1)
                for i in range(SIZE - 1, -1, -1):
                    cell = line[i]
                    touches = bool(board[cell]) or any(
                        board[n] for n in NEIGHBOURS[cell] if abs(n - cell) == step
                    )
                    reach[i] = i if touches else reach[i + 1]
                for a in range(SIZE):
                    if a > 0 and board[line[a - 1]]:
                        continue
                    if not self.first and reach[a] >= min(a + HIGH, SIZE):
                        continue
                    yield from self._from(line, a, across, total, reach[a])

    def _from(
        self, line: tuple[int, ...], a: int, across: bool, total: int, reach: int
    ) -> Iterator[Lay]:
        board = self.board
        fixed: list[tuple[int, str]] = []
        holes: list[int] = []
        fixed_jokers = 0
        run_colour, run_start, run_ok = "", 0, True
        group_number, group_colours, group_ok = 0, "", True
        for b in range(a, min(a + HIGH, SIZE)):
            off = b - a
            code = board[line[b]]
            if code:
                f = face(code)
                fixed.append((off, f))
                fixed_jokers += is_joker(code)
                if fixed_jokers > 1:
                    return
                if len(fixed) == 1:
                    run_colour, run_start = colour(f), number(f) - off
                    group_number, group_colours = number(f), colour(f)
                else:
                    run_ok = run_ok and colour(f) == run_colour and number(f) - off == run_start
                    group_ok = (
                        group_ok and number(f) == group_number and colour(f) not in group_colours
                    )
                    group_colours += colour(f)
            else:
                holes.append(off)
                if len(holes) > total:
                    return
            length = off + 1
            if fixed:
                run_possible = run_ok and run_start >= LOW and run_start + length - 1 <= HIGH
            else:
                run_possible = True
            group_possible = group_ok and length <= len(COLOURS)
            if self.must and fixed:  # the moved tiles must fit the window's board tiles
                run_possible = run_possible and self._must_colours == {run_colour}
                group_possible = group_possible and self._must_numbers == {group_number}
            if not run_possible and not group_possible:
                return
            if length < MIN_MELD or not holes:
                continue
            if b + 1 < SIZE and board[line[b + 1]]:
                continue
            if not self.first and b < reach:
                continue  # nothing in the window is taken or touches a tile
            cells = line[a : b + 1]
            if self.first and CENTRE not in cells:
                continue
            start_row, start_col = divmod(cells[0], SIZE)
            anchor = Anchor(start_row, start_col, across)
            faces: list[str] = [""] * length
            for off_f, f in fixed:
                faces[off_f] = f
            codes = [board[c] for c in cells]
            must = self.must
            if run_possible:
                starts = (
                    [(run_colour, run_start)]
                    if fixed
                    else self._run_starts(cells, holes, across, length)
                )
                if must:
                    starts = [
                        (col, start)
                        for col, start in starts
                        if self._must_colours == {col}
                        and all(number(tile) - start in holes for tile in must)
                    ]
                for col, start in starts:
                    for h in holes:
                        faces[h] = f"{col}{start + h}"
                    lay = self._fill(anchor, cells, codes, holes, faces, fixed_jokers, across)
                    if lay is not None:
                        yield lay
            if must and len(self._must_numbers) > 1:
                group_possible = False  # moved tiles of two numbers are no group
            if group_possible:
                wanted = group_number if fixed else min(self._must_numbers, default=0)
                for num, hole_colours in self._group_fills(
                    cells, holes, across, wanted, group_colours
                ):
                    if any(colour(tile) not in hole_colours for tile in must):
                        continue
                    for h, col in zip(holes, hole_colours, strict=True):
                        faces[h] = f"{col}{num}"
                    lay = self._fill(anchor, cells, codes, holes, faces, fixed_jokers, across)
                    if lay is not None:
                        yield lay

    def _run_starts(
        self, cells: Sequence[int], holes: Sequence[int], across: bool, length: int
    ) -> list[tuple[str, int]]:
        """Return (colour, first number) of the runs a window of holes only could hold."""
        for h in holes:
            allowed = self.allowed(cells[h], across)
            if allowed is not None:
                out: set[tuple[str, int]] = set()
                for f in allowed:
                    start = number(f) - h
                    if start >= LOW and start + length - 1 <= HIGH:
                        out.add((colour(f), start))
                return sorted(out)
        return [(c, s) for c in COLOURS for s in range(LOW, HIGH - length + 2)]

    def _group_fills(
        self,
        cells: Sequence[int],
        holes: Sequence[int],
        across: bool,
        num: int,
        used: str,
    ) -> Iterator[tuple[int, tuple[str, ...]]]:
        """Yield (number, colours of the holes in order) for a group window."""
        if num:
            numbers: Iterable[int] = (num,)
        else:
            numbers = range(LOW, HIGH + 1)
            for h in holes:
                allowed = self.allowed(cells[h], across)
                if allowed is not None:
                    numbers = sorted({number(f) for f in allowed})
                    break
        free = [c for c in COLOURS if c not in (used if num else "")]
        for n in numbers:
            # Every order of the colours, even with no cross line to tell them apart: each
            # leaves another board (the brute-force property test counts boards; later lines
            # through those cells see different colours).
            yield from ((n, p) for p in permutations(free, len(holes)))

    def _fill(
        self,
        anchor: Anchor,
        cells: Sequence[int],
        codes: Sequence[str],
        holes: Sequence[int],
        faces: Sequence[str],
        fixed_jokers: int,
        across: bool,
    ) -> Lay | None:
        """Return the lay that puts `faces` in the holes from the rack (one joker at most)."""
        use_joker = fixed_jokers == 0 and self.jokers > 0
        used_joker = False
        out = list(codes)
        for h in holes:  # the faces of one run or group are all different: one tile each
            f = faces[h]
            allowed = self.allowed(cells[h], across)
            if allowed is not None and f not in allowed:
                return None
            if self.have[f]:
                out[h] = f
            elif use_joker and not used_joker and (cells[h], across) not in self._no_joker:
                used_joker = True
                out[h] = f"J={f}"
            else:
                return None
        if len(holes) == len(self.rack) and self.jokers:
            return None  # a joker may not be part of the play that empties the inventory
        return Lay(anchor, tuple(out))


def _frees(on_board: str, token: str) -> bool:
    """Return whether writing `token` over the board tile `on_board` frees a joker."""
    return is_joker(on_board) and not is_joker(token)


def can_stand_for(board: Sequence[str], cell: int, tile: str) -> bool:
    """Return whether the joker on `cell` may be freed with `tile`.

    That is the face it was given, or any tile that keeps every line through the cell valid
    (in G9 R9 J=Y9 the joker is "either yellow or blue").
    """
    if face(board[cell]) == tile:
        return True
    for across in (True, False):
        before, after = _cross(board, cell, across)
        if (before or after) and not check_line([*before, tile, *after]).valid:
            return False
    return True


def joker_frees(board: Sequence[str], rack: Sequence[str]) -> Iterator[Lay]:
    """Yield the plays that free a board joker with a tile it stands for."""
    have = sorted(set(rack) - {JOKER}, key=tile_order)
    for cell, code in enumerate(board):
        if code and is_joker(code):
            row, col = divmod(cell, SIZE)
            for tile in have:
                if can_stand_for(board, cell, tile):
                    yield Lay(Anchor(row, col, True), (tile,))


def single_line_plays(board: Sequence[str], rack: Sequence[str]) -> Iterator[Turn]:
    """Yield the joker frees, then every single-line lay of `rack` on `board`, as turns."""
    for lay in joker_frees(board, rack):
        yield Turn((lay,))
    for lay in _Search(board, rack).lays():
        yield Turn((lay,))


def _spare(board: Sequence[str], cell: int) -> bool:
    """Return whether the tile on `cell` ends each line through it that holds 4+ tiles."""
    for across in (True, False):
        before, after = _cross(board, cell, across)
        if not before and not after:
            continue
        if (before and after) or len(before) + len(after) + 1 < MIN_MELD + 1:
            return False
    return True


def may_lay(board: Sequence[str], rack: Sequence[str]) -> bool:
    """Return False only when no turn can lay a tile of `rack`, however the board is rearranged.

    A proof, not a search: the board stays one connected group, so a laid tile stands in one
    line with a tile that was on the board, and that line is a group or a run. When no group or
    run holds a rack tile and a board tile (a board joker standing in once), nothing can be laid.
    True does not promise a play. An empty board, or a joker on the rack, is never ruled out.
    """
    if not any(board) or JOKER in rack:
        return True
    held = set(rack)
    laid = {face(code) for code in board if code and not is_joker(code)}
    wild = any(code and is_joker(code) for code in board)  # freed and laid again, or as it is
    for num in range(LOW, HIGH + 1):
        known = {c for c in COLOURS if f"{c}{num}" in held | laid}
        for mine in (c for c in COLOURS if f"{c}{num}" in held):
            theirs = any(f"{c}{num}" in laid for c in known - {mine})
            if (theirs and len(known) + wild >= MIN_MELD) or (wild and len(known) >= 2):
                return True
    for col in COLOURS:
        for start in range(LOW, HIGH - MIN_MELD + 2):
            for end in range(start + MIN_MELD - 1, HIGH + 1):
                tiles = [f"{col}{n}" for n in range(start, end + 1)]
                gaps = sum(1 for t in tiles if t not in held and t not in laid)
                ours = [i for i, t in enumerate(tiles) if t in held]
                on_board = [i for i, t in enumerate(tiles) if t in laid]
                if gaps > wild or not ours:
                    continue
                if wild or any(j != i for i in ours for j in on_board):
                    return True
    return False


def _spare_cells(board: Sequence[str]) -> list[int]:
    """Return the cells of the spare tiles: unlocked, ending each 4+ line they are in."""
    locked = locked_cells(board)
    return [
        cell
        for cell, code in enumerate(board)
        if code and cell not in locked and _spare(board, cell)
    ]


def _moved_into(
    board: Sequence[str], rest: Sequence[str], cells: Sequence[int], lay: Lay
) -> tuple[Shift, ...] | None:
    """Return the shifts that bring the tiles on `cells` to where `lay` writes them, or None.

    None when a tile would stay where it is (that is a lay with fewer moved tiles), when the
    lay takes no tile from the inventory, or when two tiles would swap places.
    """
    squares = [_cell(*lay.anchor.step(i)) for i in range(len(lay.tiles))]
    shifts: list[tuple[int, int]] = []
    for cell in cells:
        targets = [
            square
            for square, token in zip(squares, lay.tiles, strict=True)
            if token == board[cell] and not rest[square]
        ]
        if not targets or cell in targets:
            return None
        shifts.append((cell, targets[0]))
    if sum(1 for square in squares if not rest[square]) <= len(cells):
        return None  # at least one tile must come from the inventory
    # A tile moves to an empty square: one that moves onto another's square goes after it
    # (two that would swap squares cannot).
    shifts.sort(key=lambda shift: shift[1] in cells)
    if any(target in cells for _, target in shifts[:-1]):
        return None
    return tuple(Shift(divmod(src, SIZE), divmod(dst, SIZE)) for src, dst in shifts)


def rearranged_candidates(board: Sequence[str], rack: Sequence[str]) -> Iterator[Turn]:
    """Yield turns that move one spare board tile into a new single-line lay with the rack.

    A spare tile is unlocked and ends every line of 4+ tiles it belongs to (the document's
    example 2: "remove a fourth tile from a set and use it in a new one"). The candidates are
    not checked against the whole board; `NumfeudState.rearranged_plays` keeps the legal ones.
    """
    for cell in _spare_cells(board):
        rest = list(board)
        rest[cell] = ""
        if not connected(rest):
            continue
        for lay in _Search(rest, [*rack, board[cell]], must=(board[cell],)).lays():
            shifts = _moved_into(board, rest, (cell,), lay)
            if shifts is not None:
                yield Turn((*shifts, lay))


def _joinable(a: str, b: str, rack: Sequence[str]) -> bool:
    """Return whether the board tiles `a` and `b` may share a line with a tile of `rack`.

    A group of their number with a rack tile of a third colour, a run of their colour with a
    rack tile of that colour, or anything with a joker.
    """
    if a == b or (colour(a) != colour(b) and number(a) != number(b)):
        return False
    if JOKER in rack:
        return True
    if number(a) == number(b):
        return any(number(t) == number(a) and colour(t) not in (colour(a), colour(b)) for t in rack)
    return any(colour(t) == colour(a) for t in rack)


def paired_candidates(board: Sequence[str], rack: Sequence[str]) -> Iterator[Turn]:
    """Yield turns that move two spare board tiles into one new line with rack tiles.

    R9 and R11 ending two groups, each where no R10 can reach it, make a run with an R10 from
    the rack only together. Only pairs that may share a line (one colour or one number) are
    tried; as in `rearranged_candidates`, the caller keeps the legal ones.
    """
    spares = _spare_cells(board)
    for i, first in enumerate(spares):
        for second in spares[i + 1 :]:
            a, b = board[first], board[second]
            if not _joinable(a, b, rack):
                continue
            rest = list(board)
            rest[first] = rest[second] = ""
            if not connected(rest) or board_problem(rest) is not None:
                continue
            for lay in _Search(rest, [*rack, a, b], must=(a, b)).lays():
                shifts = _moved_into(board, rest, (first, second), lay)
                if shifts is not None:
                    yield Turn((*shifts, lay))


# --- the state ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NumfeudState:
    """One position of a game of Numfeud."""

    board: tuple[str, ...]  # SIZE*SIZE board codes, "" for an empty cell
    racks: tuple[tuple[str, ...], ...]
    bag: tuple[str, ...]
    scores: tuple[int, ...]
    to_move: int
    turn: int
    seed: int
    swapped: tuple[int, ...]  # tiles each seat has swapped so far (at most SWAP_LIMIT)
    moves: tuple[int, ...]  # moves each seat has made (resigning after one costs points)
    passes: int = 0  # consecutive passes with an empty bag
    history: tuple[MoveRecord, ...] = ()
    outcome: Outcome | None = None

    # -- the contract --

    @property
    def game_key(self) -> str:
        """The key of this game in `GAMES`."""
        return GAME_KEY

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.racks)

    def waiting_for(self) -> tuple[int, ...]:
        """Return the seat to move (none once the game is over)."""
        return () if self.outcome is not None else (self.to_move,)

    def rack(self, seat: int) -> tuple[str, ...]:
        """Return the inventory of `seat`."""
        return self.racks[seat]

    def locked(self) -> frozenset[int]:
        """Return the locked cells now (jokers and the tiles touching them)."""
        return locked_cells(self.board)

    def view(self, seat: int | None) -> JSON:
        """Return what `seat` may see: the board, its own inventory, the others' tile counts."""
        data: JSON = {
            "game": GAME_KEY,
            "board": _board_json(self.board),
            "locked": sorted(_name(c) for c in self.locked()),
            "rack_sizes": [len(r) for r in self.racks],
            "bag": len(self.bag),
            "swaps_left": [SWAP_LIMIT - s for s in self.swapped],
            "scores": list(self.scores),
            "to_move": None if self.outcome else self.to_move,
            "turn": self.turn,
            "history": [r.to_json() for r in self.history],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
        if seat is not None:
            data["rack"] = list(self.racks[seat])
        return data

    def to_json(self) -> JSON:
        """Return the full state with a schema version."""
        return {
            "v": SCHEMA_VERSION,
            "game": GAME_KEY,
            "board": _board_json(self.board),
            "racks": [list(r) for r in self.racks],
            "bag": list(self.bag),
            "scores": list(self.scores),
            "to_move": self.to_move,
            "turn": self.turn,
            "seed": self.seed,
            "swapped": list(self.swapped),
            "moves": list(self.moves),
            "passes": self.passes,
            "history": [r.to_json() for r in self.history],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def check_invariants(self) -> None:
        """Raise `InvariantError` if tiles, inventories, the board or the scores are wrong."""
        tiles = Counter(self.bag)
        for rack in self.racks:
            tiles.update(rack)
        tiles.update(physical(c) for c in self.board if c)
        if tiles != Counter(TILE_COUNTS):
            raise InvariantError(f"tiles not conserved: {tiles - Counter(TILE_COUNTS)}")
        if any(len(r) > MAX_RACK for r in self.racks):
            raise InvariantError("an inventory holds more than 20 tiles")
        if any(s > SWAP_LIMIT for s in self.swapped):
            raise InvariantError("a player swapped more than 13 tiles")
        problem = board_problem(self.board)
        if problem is not None:
            raise InvariantError(f"board breaks the line rule: {problem}")
        if not connected(self.board):
            raise InvariantError("board tiles are not connected")
        if self.outcome is None and any(self.scores):
            raise InvariantError("scores move only when the game ends")
        if self.outcome is not None and self.outcome.scores != self.scores:
            raise InvariantError("outcome scores differ from the scores")
        if self.outcome is not None and self.outcome.reason in ("out", "full", "blocked"):
            if self.outcome.reason == "full" and sorted(self.scores) != [
                -FORFEIT_POINTS,
                FORFEIT_POINTS,
            ]:
                raise InvariantError("a full inventory is -50 / +50")
            if self.outcome.reason == "out" and sum(self.scores) != 0:
                raise InvariantError("going out moves points from the loser to the winner")

    # -- the search --

    def plays(self, seat: int) -> Iterator[Turn]:
        """Yield the single-line plays of `seat` (joker frees first); all are legal."""
        return single_line_plays(self.board, self.racks[seat])

    def rearranged_plays(self, seat: int) -> Iterator[Turn]:
        """Yield the legal turns that move one spare board tile into a new line (example 2).

        Only when none does, the turns that move two spare tiles into one new line.
        """
        found = False
        for turn in rearranged_candidates(self.board, self.racks[seat]):
            if self._legal(seat, turn):
                found = True
                yield turn
        if not found:
            for turn in paired_candidates(self.board, self.racks[seat]):
                if self._legal(seat, turn):
                    yield turn

    def _legal(self, seat: int, turn: Turn) -> bool:
        """Return whether `seat` may play `turn` (the full rules, the 20-tile test aside)."""
        try:
            self._turn(seat, turn, check_full=False)
        except GameError:
            return False
        return True

    def has_legal_play(self, seat: int) -> bool:
        """Return whether the search finds `seat` a play laying a tile (the full-rack pass).

        Single-line lays and joker frees first; then plays that move one spare board tile, then
        two. Longer rearrangements are not searched: False is no proof (`may_lay` is one).
        """
        if next(self.plays(seat), None) is not None:
            return True
        return next(self.rearranged_plays(seat), None) is not None

    # -- moves --

    def apply(self, seat: int, move: Any) -> Self:  # noqa: ANN401 - the GameState protocol
        """Return the state after `seat` plays `move`; raise `RuleError` if it is illegal."""
        if self.outcome is not None:
            raise RuleError(Reason.GAME_OVER, "This game is over; start a new one with /new.")
        if isinstance(move, Resign):
            return self.forfeit(seat, "resign")
        if seat != self.to_move:
            raise RuleError(Reason.NOT_YOUR_TURN, "It is not your turn; wait for your opponent.")
        if isinstance(move, Turn):
            try:
                return self._turn(seat, move)
            except RuleError as error:
                raise self._read_as_square(move, error) from None
        if isinstance(move, Swap):
            return self._swap(seat, move)
        if isinstance(move, Pass):
            return self._pass(seat)
        raise InvalidMove(f"Unknown move {move!r}. Play e.g. {USAGE}")

    @staticmethod
    def _read_as_square(move: Turn, error: RuleError) -> RuleError:
        """Add to a refused lay whose square is also a tile's name how it was read.

        B and G are colours and columns too: "B7 B8 B9 B10" lays B8 B9 B10 down from square
        B7; whoever meant the tile B7 forgot the square, which the refusal alone ("must cover
        the centre", "you have no G5") would not tell them. The note never depends on the
        rack (a refusal may be shown in the group), and is left out if it would not fit whole.
        """
        lay = next((step for step in move.steps if isinstance(step, Lay)), None)
        if lay is None or lay.anchor.across or not _TOKEN.match(str(lay.anchor)):
            return error
        name = str(lay.anchor)
        note = (
            f" ({name} was read as a square, going down: to lay a tile {name}, start with a "
            f"square, e.g. 8H {name} …)"
        )
        if len(str(error)) + len(note) > MAX_MESSAGE:
            return error
        return RuleError(error.reason, f"{error}{note}")

    def _turn(self, seat: int, move: Turn, *, check_full: bool = True) -> Self:
        board = list(self.board)
        rack = list(self.racks[seat])
        first = not any(self.board)
        old_jokers = {c for c, code in enumerate(self.board) if code and is_joker(code)}
        played: list[str] = []  # physical tiles laid from the inventory
        new_cells: set[int] = set()

        def is_locked(cell: int) -> bool:
            return cell in old_jokers or any(n in old_jokers for n in NEIGHBOURS[cell])

        for step in move.steps:
            if isinstance(step, Shift):
                source, target = (self._index(*step.source), self._index(*step.target))
                if not board[source]:
                    raise RuleError(
                        Reason.CELL_EMPTY,
                        f"There is no tile on {_name(source)} to move; see the board with /board.",
                    )
                if is_locked(source):
                    what = (  # the joker itself, or a tile beside one
                        "is a joker, which stays put"
                        if source in old_jokers
                        else "is locked to a joker beside it"
                    )
                    raise RuleError(
                        Reason.TILE_LOCKED,
                        f"{board[source]} on {_name(source)} {what}; free the joker first by "
                        "writing its tile over it.",
                    )
                if board[target]:
                    raise RuleError(
                        Reason.CELL_TAKEN,
                        f"{_name(target)} already holds {board[target]}; move the tile to an "
                        "empty square.",
                    )
                board[target], board[source] = board[source], ""
                new_cells.discard(source)
                new_cells.add(target)  # a moved board tile is part of the move, highlighted too
                continue
            self._lay(step, board, rack, old_jokers, played, new_cells)

        # At least one tile from the inventory is laid each turn.
        if not played:
            raise RuleError(
                Reason.NO_TILE_PLAYED,
                "Lay at least one tile from your rack, or pass or swap.",
            )
        # The first play covers the centre square.
        if first and not board[CENTRE]:
            raise RuleError(
                Reason.FIRST_MOVE_NOT_THROUGH_START,
                f"Your first play must cover the centre square {_name(CENTRE)}.",
            )
        # Later plays connect: the board stays one connected group of tiles.
        if not connected(board):
            raise RuleError(
                Reason.NOT_ADJACENT,
                "Your tiles must connect to the tiles on the board, and no tile may be left "
                "standing apart.",
            )
        # Every maximal line of two or more tiles is a group or a run of three or more.
        problem = board_problem(board)
        if problem is not None:
            raise problem
        # A lone tile is in no line at all: the first play too must be a combination.
        if sum(1 for code in board if code) < MIN_MELD:
            raise RuleError(
                Reason.INVALID_MELD,
                f"A play makes a group or run of {MIN_MELD} or more tiles; a lone tile is "
                "neither, e.g. 8G R5 R6 R7.",
            )
        # The joker cannot be part of the play that empties the inventory.
        if not rack and JOKER in played:
            raise RuleError(
                Reason.JOKER_IN_LAST_PLAY,
                "A joker may not be part of the play that empties your rack; keep a tile "
                "back or lay the joker earlier.",
            )
        record = MoveRecord(seat, str(move), 0, tuple(sorted(new_cells)))
        state = replace(
            self,
            board=tuple(board),
            racks=_set(self.racks, seat, sort_tiles(rack)),
            to_move=(seat + 1) % self.players,
            turn=self.turn + 1,
            moves=_add(self.moves, seat, 1),
            passes=0,
            history=(*self.history, record),
        )
        if not rack:
            return state._finish_out(seat)
        return state._check_full() if check_full else state

    def _index(self, row: int, col: int) -> int:
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise RuleError(
                Reason.OUT_OF_BOUNDS,
                f"{cell_name(row, min(col, 25))} is not on the board: columns run "
                f"A–{COLUMNS[SIZE - 1]}, rows 1–{SIZE}.",
            )
        return _cell(row, col)

    def _lay(
        self,
        step: Lay,
        board: list[str],
        rack: list[str],
        old_jokers: set[int],
        played: list[str],
        new_cells: set[int],
    ) -> None:
        anchor = step.anchor
        end_row, end_col = anchor.step(len(step.tiles) - 1)
        self._index(anchor.row, anchor.col)
        if end_row >= SIZE or end_col >= SIZE:
            raise RuleError(
                Reason.OUT_OF_BOUNDS,
                f"{len(step.tiles)} tiles from {anchor} run off the board (rows 1–{SIZE}, "
                f"columns A–{COLUMNS[SIZE - 1]}).",
            )
        cells = [_cell(*anchor.step(i)) for i in range(len(step.tiles))]
        # Every tile the step needs, counted at once ("no R5, B5", "only 1 G7"): those laid on
        # empty squares and those that free a joker, which gives the joker to lay again.
        pairs = list(zip(cells, step.tiles, strict=True))
        freed = [JOKER for cell, token in pairs if _frees(board[cell], token)]
        needed = [
            physical(token)
            for cell, token in pairs
            if not board[cell] or _frees(board[cell], token)
        ]
        if missing := missing_from([*rack, *freed], needed):
            lacking = shortage([*rack, *played], missing, tile_name)
            raise RuleError(
                Reason.TILE_NOT_IN_RACK,
                f"You have {lacking} on your rack. See your tiles with /rack.",
            )
        if JOKER in step.tiles:
            raise InvalidMove(JOKER_FACE)
        laid = filled = 0
        for cell, token in zip(cells, step.tiles, strict=True):
            on_board = board[cell]
            if not on_board:
                tile = physical(token)
                if tile not in rack:  # a joker laid before the square that frees it
                    raise RuleError(
                        Reason.TILE_NOT_IN_RACK,
                        f"You have no {tile_name(tile)} yet for {_name(cell)}: free the joker "
                        "first, then lay it (write the freeing tile earlier). See /rack.",
                    )
                rack.remove(tile)
                board[cell] = token
                played.append(tile)
                new_cells.add(cell)
                laid += 1
                filled += 1
            elif on_board == token:
                continue
            elif _frees(on_board, token):
                # Freeing a joker: the tile it stands for takes its place, it joins the inventory.
                if not can_stand_for(board, cell, token):
                    fits = [
                        tile
                        for tile in (f"{c}{n}" for c in COLOURS for n in range(LOW, HIGH + 1))
                        if can_stand_for(board, cell, tile)
                    ]
                    raise RuleError(
                        Reason.CELL_TAKEN,
                        f"The joker on {_name(cell)} can be freed only with "
                        f"{' or '.join(fits)}, the tiles it may stand for there.",
                    )
                if token not in rack:
                    raise RuleError(
                        Reason.TILE_NOT_IN_RACK,
                        f"You have no {token} to free the joker on {_name(cell)}. See /rack.",
                    )
                rack.remove(token)
                rack.append(JOKER)
                board[cell] = token
                old_jokers.discard(cell)
                played.append(token)
                new_cells.add(cell)
                laid += 1
            else:
                raise RuleError(
                    Reason.CELL_TAKEN,
                    f"{_name(cell)} already holds {on_board}, not {token}: write the tiles on "
                    "the board as they are.",
                )
        if not laid:
            raise RuleError(
                Reason.NO_NEW_TILES, f"Those tiles are already on the board from {anchor}."
            )
        # The written line is the whole line, as in the word games: the tiles laid and every
        # board tile in line with them, before, between and after, are one combination. A step
        # that only frees jokers lays no line: it writes tiles over board tiles in place.
        if filled:
            check_whole_line(board, cells, anchor.across)
            if len(cells) == 1:
                # One tile makes no line the way it was written: it must be written with the
                # line it makes the other way (`J8 R8` beside R5 R6 R7 on G8-I8 is `8J R8`'s
                # placement, and as that is refused, so is this), as Webfeud's `H7 XA`.
                check_whole_line(board, cells, not anchor.across)

    def _swap(self, seat: int, move: Swap) -> Self:
        k = len(move.tiles)
        if not self.bag:
            raise RuleError(Reason.BAG_TOO_SMALL, "The bag is empty, so you cannot swap; pass.")
        # A full inventory first: the swap limit's advice (swap fewer, or pass) would not work.
        if len(self.racks[seat]) + 1 > MAX_RACK:
            what = (  # a pass then gives the game up (`_pass`): say so, never "lay" alone
                "lay down a tile"
                if self.has_legal_play(seat)
                else f"lay down a tile, or pass and lose the game ({FORFEIT_POINTS} points)"
            )
            raise RuleError(
                Reason.INVENTORY_FULL,
                f"You hold {MAX_RACK} tiles, the most allowed, and a swap draws one more: {what}.",
            )
        # Tiles the player does not hold first: a limit on them would be beside the point.
        missing = missing_from(self.racks[seat], move.tiles)
        if missing:
            raise RuleError(
                Reason.TILE_NOT_IN_RACK,
                f"You have {shortage(self.racks[seat], missing, tile_name)} on your"
                " rack. See your tiles with /rack.",
            )
        if self.swapped[seat] + k > SWAP_LIMIT:
            left = SWAP_LIMIT - self.swapped[seat]
            then = (
                f"you may swap {left} more: swap at most {left} or pass."
                if left
                else "you have swapped them all: lay tiles or pass."
            )
            raise RuleError(Reason.SWAP_LIMIT, f"A game allows {SWAP_LIMIT} swapped tiles; {then}")
        # The tiles go back into the bag first; then one more than returned is drawn.
        bag = return_to_bag(self.bag, move.tiles, f"{self.seed}:{self.turn}")
        drawn, bag = draw(bag, k + 1)
        rack = list(self.racks[seat])
        for tile in move.tiles:
            rack.remove(tile)
        text = f"swapped {k} tile{'s' if k != 1 else ''}"
        state = replace(
            self,
            racks=_set(self.racks, seat, sort_tiles([*rack, *drawn])),
            bag=bag,
            to_move=(seat + 1) % self.players,
            turn=self.turn + 1,
            swapped=_add(self.swapped, seat, k),
            moves=_add(self.moves, seat, 1),
            passes=0,
            history=(*self.history, MoveRecord(seat, text, 0)),
        )
        return state._check_full()

    def _pass(self, seat: int) -> Self:
        if self.stuck_full(seat):
            # "If your inventory is full and you are not able to lay down any tiles … you will
            # loose the game": the player says so by passing (the search found no play).
            return self.give_up_full(seat, FULL_PASS)
        if self.bag and len(self.racks[seat]) >= MAX_RACK:
            raise RuleError(
                Reason.INVENTORY_FULL,
                f"You hold {MAX_RACK} tiles, the most allowed, and a pass draws one more: lay "
                "down a tile.",
            )
        drawn, bag = draw(self.bag, 1)
        state = replace(
            self,
            racks=_set(self.racks, seat, sort_tiles([*self.racks[seat], *drawn])),
            bag=bag,
            to_move=(seat + 1) % self.players,
            turn=self.turn + 1,
            moves=_add(self.moves, seat, 1),
            passes=self.passes + 1 if not self.bag else 0,
            history=(*self.history, MoveRecord(seat, "pass", 0)),
        )
        # With the bag empty, a pass by each player in a row ends the game.
        if state.passes >= self.players:
            return state._finish_blocked()
        return state._check_full()

    # -- the end --

    def _check_full(self) -> Self:
        """A player who starts a turn with 20 tiles and cannot lay any tile loses.

        Only when that is proved (`may_lay`): the play search does not try every rearrangement,
        so a player it finds nothing for plays on, and passes to give the game up (`_pass`).
        """
        seat = self.to_move
        if len(self.racks[seat]) < MAX_RACK or may_lay(self.board, self.racks[seat]):
            return self
        # No history record: the last record stays the move that was just made (the service
        # announces it under its player's name); the outcome's reason tells why the game ended.
        return self._lost_full(seat)

    def stuck_full(self, seat: int) -> bool:
        """Return whether `seat` holds 20 tiles and the search finds it no play."""
        return len(self.racks[seat]) >= MAX_RACK and not self.has_legal_play(seat)

    def give_up_full(self, seat: int, text: str) -> Self:
        """End the game as `_lost_full`, by `seat`'s turn (recorded as `text`) that laid none."""
        return replace(
            self._lost_full(seat),
            turn=self.turn + 1,
            moves=_add(self.moves, seat, 1),
            history=(*self.history, MoveRecord(seat, text, 0)),
        )

    def _lost_full(self, seat: int) -> Self:
        """End the game: `seat` holds 20 tiles and lays none; -50 to it, +50 to the opponent."""
        scores = tuple(
            -FORFEIT_POINTS if s == seat else FORFEIT_POINTS for s in range(self.players)
        )
        winners = tuple(s for s in range(self.players) if s != seat)
        return replace(self, scores=scores, outcome=Outcome(scores, winners, "full"))

    def forfeit(self, seat: int, reason: str) -> Self:
        """End the game: `seat` resigned or ran out of time; the opponent wins."""
        if self.outcome is not None:
            raise RuleError(Reason.GAME_OVER, "This game is over; start a new one with /new.")
        # Resigning costs 50 once you have moved; letting 72 hours pass always costs 50.
        cost = FORFEIT_POINTS if reason == "timeout" or self.moves[seat] else 0
        scores = tuple(-cost if s == seat else 0 for s in range(self.players))
        text = RESIGNED if reason == "resign" else "ran out of time"
        winners = tuple(s for s in range(self.players) if s != seat)
        return replace(
            self,
            scores=scores,
            turn=self.turn + 1,
            history=(*self.history, MoveRecord(seat, text, -cost)),
            outcome=Outcome(scores, winners, reason),
        )

    def _finish_out(self, seat: int) -> Self:
        """`seat` laid its last tile: it gains what the others hold, they lose their own."""
        scores = [-inventory_value(r) for r in self.racks]
        scores[seat] = -sum(scores)
        final = tuple(scores)
        return replace(self, scores=final, outcome=Outcome(final, (seat,), "out"))

    def _finish_blocked(self) -> Self:
        """Bag empty and everyone passed: the smaller inventory wins as if it had gone out."""
        values = [inventory_value(r) for r in self.racks]
        low = min(values)
        winners = tuple(s for s, v in enumerate(values) if v == low)
        if len(winners) > 1:  # a tie: nobody wins, everybody loses their own sum
            final = tuple(-v for v in values)
            return replace(self, scores=final, outcome=Outcome(final, (), "blocked"))
        scores = [-v for v in values]
        scores[winners[0]] = sum(values) - low
        final = tuple(scores)
        return replace(self, scores=final, outcome=Outcome(final, winners, "blocked"))


def _board_json(board: Sequence[str]) -> dict[str, str]:
    return {_name(c): code for c, code in enumerate(board) if code}


def _set(
    values: tuple[tuple[str, ...], ...], seat: int, value: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def _add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return (*values[:seat], values[seat] + delta, *values[seat + 1 :])


def board_from(cells: Mapping[str, str]) -> tuple[str, ...]:
    """Return a board from ``{"H8": "R5", ...}`` (cell names column first)."""
    board = [""] * (SIZE * SIZE)
    for name, code in cells.items():
        anchor = parse_anchor(name)
        board[_cell(anchor.row, anchor.col)] = code
    return tuple(board)


# --- the game definition -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NumfeudDef(GameDef):
    """The registry entry of Numfeud."""

    def try_move(self, state: GameState, seat: int, move: Move) -> GameState:
        """Check a move on the board as it stands, on or off turn (see `WordGameDef.try_move`)."""
        assert isinstance(state, NumfeudState)
        if state.outcome is None and 0 <= seat < state.players:
            state = replace(state, to_move=seat)
        return state.apply(seat, move)

    def new_game(
        self,
        players: int,
        *,
        seed: int,
        options: Mapping[str, str],
        bag: Sequence[str] | None = None,
    ) -> NumfeudState:
        """Deal 16 tiles each; `bag` rigs the tile order (tests), else it is shuffled by `seed`."""
        self.check_players(players)
        self.parse_options(options)
        tiles = tuple(bag) if bag is not None else new_bag(TILE_COUNTS, seed)
        racks = []
        for _ in range(players):
            racks.append(sort_tiles(tiles[:RACK_SIZE]))
            tiles = tiles[RACK_SIZE:]
        return NumfeudState(
            board=("",) * (SIZE * SIZE),
            racks=tuple(racks),
            bag=tiles,
            scores=(0,) * players,
            to_move=0,
            turn=0,
            seed=seed,
            swapped=(0,) * players,
            moves=(0,) * players,
        )

    def parse_move(self, text: str) -> NumfeudMove:
        """Parse a Numfeud move."""
        return parse_numfeud_move(text)

    def from_json(self, data: JSON) -> NumfeudState:
        """Rebuild a state saved by `NumfeudState.to_json`."""
        if data.get("v") != SCHEMA_VERSION or data.get("game") != GAME_KEY:
            raise ValueError(f"not a {GAME_KEY} state of schema {SCHEMA_VERSION}")
        return NumfeudState(
            board=board_from(data["board"]),
            racks=tuple(tuple(r) for r in data["racks"]),
            bag=tuple(data["bag"]),
            scores=tuple(data["scores"]),
            to_move=data["to_move"],
            turn=data["turn"],
            seed=data["seed"],
            swapped=tuple(data["swapped"]),
            moves=tuple(data["moves"]),
            passes=data["passes"],
            history=tuple(MoveRecord.from_json(r) for r in data["history"]),
            outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
        )

    def notation_help(self) -> str:
        """Return the rules a player needs in brief, then the move notation with examples."""
        return f"{RULES_SUMMARY}\n{NOTATION_HELP}"

    def how_to_move(self) -> str:
        """Say in a line how a move is written, for newcomers at the deal."""
        return (
            "Lay tiles with /play 8H R5 R6 R7: from square 8H (row 8, column H) across; H8 … goes "
            "down (R red, B blue, Y yellow, G green, J joker). The first play covers H8."
        )

    def turn_timeout(self, options: Mapping[str, str]) -> timedelta | None:
        """Return the turn deadline: 72 hours."""
        return TIMEOUT

    def ending_note(self, state: GameState, names: Sequence[str]) -> str:
        """Say whose full inventory could not be laid, or which inventory won a blocked game.

        For a blocked game: that the smaller inventory won, and the sums, which are
        `inventory_value`, as `_finish_blocked` scored them; other endings say
        enough with their scores.
        """
        assert isinstance(state, NumfeudState)
        outcome = state.outcome
        if outcome is not None and outcome.reason == "full":
            stuck = next(s for s in range(state.players) if s not in outcome.winners)
            last = state.history[-1].text if state.history else ""
            if last in (FULL_PASS, FULL_TIMEOUT):
                how = "passed" if last == FULL_PASS else "let the time run out"
                return (
                    f"{names[stuck]} held {MAX_RACK} tiles and {how}, laying none of them: "
                    "a full rack that lays nothing loses."
                )
            return f"{names[stuck]} held {MAX_RACK} tiles and could lay none of them."
        if outcome is None or outcome.reason != "blocked":
            return ""
        values = [inventory_value(rack) for rack in state.racks]
        sums = ", ".join(
            f"{names[seat]} {values[seat]}"
            for seat in sorted(range(state.players), key=values.__getitem__)
        )
        joker = (
            f" (a joker counts {JOKER_VALUE})"
            if any(is_joker(t) for rack in state.racks for t in rack)
            else ""
        )
        if not outcome.winners:
            return f"Equal racks, so nobody wins and each loses their own sum: {sums}{joker}."
        return f"The smaller rack sum wins: {sums}{joker}."

    def missed_deadline(self, *, done: bool = False) -> str:
        """Say what a missed turn deadline does (`done`: did): the player resigns for -50."""
        if done:
            return f"you resigned and lost {FORFEIT_POINTS} ranking points"
        return f"you resign and lose {FORFEIT_POINTS} ranking points"

    previews: ClassVar[bool] = True
    scores_as_played: ClassVar[bool] = False  # the final scores are the ranking points

    def unseen(self, state: GameState, seat: int) -> tuple[tuple[str, ...], int]:
        """Return the bag and the other inventory as one sorted list, and the bag's size."""
        assert isinstance(state, NumfeudState)
        others = [tile for s, rack in enumerate(state.racks) if s != seat for tile in rack]
        return sort_tiles((*state.bag, *others)), len(state.bag)

    def on_timeout(self, state: Any, seat: int) -> Any:  # noqa: ANN401 - GameDef protocol
        """Seventy-two hours without a move resign the game for the player (-50).

        Unless the player held 20 tiles and the search found no play: the pass that was left
        would have given the game up as a full inventory (-50, and +50 to the opponent), so
        the clock does that (letting the time run out must not cost the opponent the 50).
        """
        assert isinstance(state, NumfeudState)
        if state.stuck_full(seat):
            return state.give_up_full(seat, FULL_TIMEOUT)
        return state.forfeit(seat, "timeout")


NUMFEUD = NumfeudDef(
    key=GAME_KEY,
    title="Numfeud",
    min_players=2,
    max_players=2,
    tagline="number-tile runs and groups on a board",
)
