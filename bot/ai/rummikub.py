"""Rummikub bots: `easy` lays melds without manipulation, `medium` and `hard` use rummikub-solver.

`hard` asks `rummikub-solver` (an integer linear program, HiGHS) for the most tiles it can place,
rearranging the whole table; `medium` asks it for the most *value* (so it keeps jokers and low
tiles). Before its initial meld every level plays only melds from its own rack worth 30 or more.
The solver's answer is a list of melds; `plan_steps` turns it into our notation (keep the melds
that stay, extend the ones that grow, build the rest as new melds), and every line is checked by
applying it before it is returned. The library is imported lazily, inside the functions, so that
starting the bot never loads numpy or cvxpy.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

from bot.core.errors import GameError, Reason, RuleError
from bot.games.numtiles import COLOURS, HIGH, JOKER, check_meld, colour, is_joker, number
from bot.games.rummikub import (
    INITIAL_MELD,
    Draw,
    Line,
    Put,
    Reset,
    RummikubMove,
    RummikubState,
    Source,
    Step,
    Table,
)

if TYPE_CHECKING:
    from rummikub_solver import RuleSet

LEVELS = ("easy", "medium", "hard")
# The solver reuses one set of cvxpy parameters: one solve at a time per process.
_SOLVER_LOCK = threading.Lock()


def choose_rummikub_move(state: RummikubState, seat: int, level: str, seed: int) -> RummikubMove:
    """Return a legal move for `seat`: a whole turn ending in ``done``, or ``draw``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    candidates: list[Line | None] = []
    if level in ("medium", "hard"):
        candidates.append(_solver_line(state, seat, mode="value" if level == "medium" else "tiles"))
    candidates.append(easy_line(state, seat))  # every level is deterministic: seed is unused
    for line in candidates:
        if line is not None and _legal(state, seat, line):
            return line
    return Draw()


def suggest_move(state: RummikubState, seat: int) -> RummikubMove:
    """Return the `hard` move as a hint for a human player (casual games)."""
    return choose_rummikub_move(state, seat, "hard", state.turn)


def assist_line(state: RummikubState, seat: int, tiles: Sequence[str]) -> Line | None:
    """Return steps that rearrange the table so `tiles` from the rack fit (None: impossible).

    The `assist=on` option: a player names rack tiles and the solver's table arrangement finds
    melds for the table plus those tiles. Before the initial meld no rearrangement is allowed.
    """
    rack = state.rack(seat)
    if not state.opened[seat] or any(n > 0 for n in (Counter(tiles) - Counter(rack)).values()):
        return None
    table = state.working_table
    everything = [t for meld in table for t in meld] + list(tiles)
    melds = _arrange_with_solver(everything)
    if melds is None:
        return None
    steps = plan_steps(table, list(tiles), melds)
    return Line(tuple(steps)) if steps else None


def assist_move(state: RummikubState, seat: int, move: RummikubMove) -> RummikubMove:
    """Return the move a player meant with ``assist=on``: `move` itself, or the rearrangement.

    A new meld of rack tiles that is not a meld by itself (``R8 B8``) becomes the steps of the
    solver's table arrangement that fit those tiles (and ``done`` if the line ended in it).
    Anything else is returned unchanged, so the rules give their usual answer.

    Raises:
        RuleError: ``NO_ARRANGEMENT`` when no rearrangement of the table fits the tiles.
    """
    if state.option("assist") != "on" or state.outcome is not None or seat != state.to_move:
        return move
    if not isinstance(move, Line) or len(move.steps) != 1:
        return move
    step = move.steps[0]
    if not isinstance(step, Put) or step.target or any(meld for meld, _ in step.sources):
        return move
    tiles = [tile for _, tile in step.sources]
    if check_meld(tiles).valid or Counter(tiles) - Counter(state.rack(seat)):
        return move  # a meld by itself, or tiles the player lacks: the rules answer
    named = " ".join(tiles)
    if not state.opened[seat]:
        raise RuleError(
            Reason.NO_ARRANGEMENT,
            f"{named} is not a meld, and Assist may rearrange the table only after your initial "
            "meld: lay 30 points from your rack first.",
        )
    line = assist_line(state, seat, tiles)
    if line is None:
        raise RuleError(
            Reason.NO_ARRANGEMENT,
            f"No rearrangement of the table fits {named}; try other tiles, or /draw.",
        )
    return Line(line.steps, done=move.done)


def hint_move(state: RummikubState, seat: int) -> RummikubMove:
    """Return a suggested whole turn for `seat`, from the start of the turn (any draft ignored)."""
    if state.draft and seat == state.to_move:
        state = state.apply(seat, Reset())
    return suggest_move(state, seat)


def _legal(state: RummikubState, seat: int, line: Line) -> bool:
    try:
        state.apply(seat, line)
    except GameError:
        return False
    return True


# --- easy: melds from the rack, then single tiles added to melds -------------------------------


def rack_melds(rack: Iterable[str]) -> list[tuple[str, ...]]:
    """Return disjoint melds laid from `rack` alone, greedily (longest and richest first)."""
    left = list(rack)
    melds: list[tuple[str, ...]] = []
    while True:
        options = _candidate_melds(left)
        if not options:
            break
        best = max(options, key=lambda m: (len(m), check_meld(m).value))
        melds.append(best)
        for tile in best:
            left.remove(tile)
    # Jokers complete a pair into a meld.
    while JOKER in left:
        pair = _best_pair(left)
        if pair is None:
            break
        meld = (*pair, JOKER)
        melds.append(meld)
        for tile in meld:
            left.remove(tile)
    return melds


def _candidate_melds(tiles: list[str]) -> list[tuple[str, ...]]:
    numbers = {t for t in tiles if not is_joker(t)}
    out: list[tuple[str, ...]] = []
    for n in range(1, HIGH + 1):
        group = tuple(f"{c}{n}" for c in COLOURS if f"{c}{n}" in numbers)
        if len(group) >= 3:
            out.append(group)
    for c in COLOURS:
        run: list[str] = []
        for n in range(1, HIGH + 2):
            tile = f"{c}{n}"
            if n <= HIGH and tile in numbers:
                run.append(tile)
                continue
            if len(run) >= 3:
                out.append(tuple(run))
            run = []
    return out


def _best_pair(tiles: list[str]) -> tuple[str, str] | None:
    plain = sorted({t for t in tiles if not is_joker(t)}, key=number, reverse=True)
    for i, a in enumerate(plain):
        for b in plain[i + 1 :]:
            if check_meld((a, b, JOKER)).valid:
                return (a, b)
    return None


def easy_line(state: RummikubState, seat: int) -> Line | None:
    """Return a turn without manipulation: new melds from the rack, then tiles added to melds.

    The opening is every level's (`opening_line`).
    """
    rack = list(state.rack(seat))
    if not state.opened[seat]:
        return opening_line(rack)
    melds = rack_melds(rack)
    steps: list[Step] = [Put(0, tuple((0, t) for t in meld)) for meld in melds]
    for meld in melds:
        for tile in meld:
            rack.remove(tile)
    table = [list(meld) for meld in state.working_table]
    table += [list(meld) for meld in melds]
    added = True
    while added:  # R3 fits R5 R6 R7 only once R4 is on: try the tiles left again
        added = False
        for tile in sorted(rack, key=is_joker):  # jokers last: spend them only if nothing else
            for number_, cells in enumerate(table, start=1):
                if cells and check_meld((*cells, tile)).valid:
                    cells.append(tile)
                    rack.remove(tile)
                    steps.append(Put(number_, ((0, tile),)))
                    added = True
                    break
    return Line(tuple(steps), done=True) if steps else None


# --- medium and hard: rummikub-solver ----------------------------------------------------------


@cache
def _ruleset() -> RuleSet:
    """Build the solver once (it prepares its integer programs, which takes a moment).

    HiGHS prints a banner on the process's C-level standard output the first time it makes a
    solver, which would land among the console's replies (and break ``--json`` lines); so the
    first solve is made here, with a one-tile rack, while that output goes nowhere.
    """
    from rummikub_solver import RuleSet, SolverMode

    ruleset = RuleSet()  # 13 numbers, 4 colours, 2 copies, 2 jokers, initial meld 30
    game = ruleset.new_game()
    game.add_rack(ruleset.tiles[0])
    with _SOLVER_LOCK, _c_stdout_to_devnull():
        ruleset.solve(game, SolverMode.TILE_COUNT)
    return ruleset


@contextmanager
def _c_stdout_to_devnull() -> Iterator[None]:
    """Point file descriptor 1 at /dev/null for the block (C libraries write there directly)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _to_lib(tile: str) -> Any:  # noqa: ANN401 - a rummikub_solver Tile
    tiles = _ruleset().tiles
    if is_joker(tile):
        return tiles[-1]
    return tiles[COLOURS.index(colour(tile)) * HIGH + number(tile) - 1]


def _from_lib(tile: Any) -> str:  # noqa: ANN401 - a rummikub_solver Tile
    from rummikub_solver import Number

    if not isinstance(tile, Number):
        return JOKER
    return f"{COLOURS[tile.colour.value - 1]}{tile.value}"


def _lib_solve(
    table: Sequence[str], rack: Sequence[str], mode: str
) -> tuple[list[str], list[tuple[str, ...]]] | None:
    """Ask the library: return (rack tiles placed, melds of the whole new table) or None."""
    from rummikub_solver import SolverMode

    ruleset = _ruleset()
    game = ruleset.new_game()
    game.add_rack(*(_to_lib(t) for t in rack))
    if table:
        game.add_table(*(_to_lib(t) for t in table))
    modes = {
        "initial": SolverMode.INITIAL,
        "tiles": SolverMode.TILE_COUNT,
        "value": SolverMode.TOTAL_VALUE,
    }
    with _SOLVER_LOCK:
        solution = ruleset.solve(game, modes[mode])
    if solution is None or not solution.tiles:
        return None
    placed = [_from_lib(t) for t in solution.tiles]
    melds = [tuple(_from_lib(t) for t in meld) for meld in solution.sets]
    return placed, melds


def opening_line(rack: Sequence[str]) -> Line | None:
    """Return the initial meld from `rack` alone, worth 30 or more, found by the solver; or None.

    "Manipulations are not allowed during the initial meld": the rack alone, no table. Every
    level opens this way: an opening is there or not, and missing one is no way to play weakly.
    """
    answer = _lib_solve([], rack, "initial")
    if answer is None:
        # rummikub-solver 1.0's INITIAL mode gives up when the rack's *distinct* numbers add up
        # to under 30 (R3 R4 R5 R6 R7 K7 B7: 33 in melds, 25 by distinct numbers): the most
        # valuable melds of the rack alone are the opening, if they reach 30.
        answer = _lib_solve([], rack, "value")
    if answer is None:
        return None
    _, melds = answer
    if sum(check_meld(m).value for m in melds) < INITIAL_MELD:
        return None
    return Line(tuple(Put(0, tuple((0, t) for t in meld)) for meld in melds), done=True)


def _solver_line(state: RummikubState, seat: int, *, mode: str) -> Line | None:
    rack = list(state.rack(seat))
    if not rack:
        return None
    if not state.opened[seat]:
        return opening_line(rack)
    table = state.working_table
    table_tiles = [t for meld in table for t in meld]
    answer = _lib_solve(table_tiles, rack, mode)
    spare_jokers = 0
    if answer is None and JOKER in table_tiles:
        # The library leaves out some joker melds (a joker at the end of a long run, a group of
        # four with a joker). Solve without the table's jokers, then put them back.
        spare_jokers = table_tiles.count(JOKER)
        without = [t for t in table_tiles if not is_joker(t)]
        answer = _lib_solve(without, rack, mode)
    if answer is None:
        return None
    placed, melds = answer
    if spare_jokers:
        with_jokers = _place_jokers(melds, spare_jokers)
        if with_jokers is None:
            return None
        melds = with_jokers
    if Counter(t for m in melds for t in m) != Counter(table_tiles) + Counter(placed):
        return None
    melds, placed = _extend_melds(melds, placed, rack)
    steps = plan_steps(table, placed, melds)
    return Line(tuple(steps), done=True) if steps else None


def _extend_melds(
    melds: list[tuple[str, ...]], placed: list[str], rack: list[str]
) -> tuple[list[tuple[str, ...]], list[str]]:
    """Add leftover rack tiles to melds where they fit (the solver omits some joker melds).

    A joker is added only if that empties the rack: otherwise it is kept, as the solver does.
    """
    melds, placed = list(melds), list(placed)
    left = list((Counter(rack) - Counter(placed)).elements())
    for tile in sorted(left, key=is_joker):
        if is_joker(tile) and any(not is_joker(t) for t in left):
            break
        for i, meld in enumerate(melds):
            if check_meld((*meld, tile)).valid:
                melds[i] = (*meld, tile)
                placed.append(tile)
                left.remove(tile)
                break
    return melds, placed


def _place_jokers(melds: list[tuple[str, ...]], jokers: int) -> list[tuple[str, ...]] | None:
    out = list(melds)
    for _ in range(jokers):
        for i, meld in enumerate(out):
            if check_meld((*meld, JOKER)).valid:
                out[i] = (*meld, JOKER)
                break
        else:
            return None
    return out


def _arrange_with_solver(tiles: Sequence[str]) -> list[tuple[str, ...]] | None:
    ruleset = _ruleset()
    game = ruleset.new_game()
    game.add_table(*(_to_lib(t) for t in tiles))
    if not ruleset.game_state_valid(game):
        return None
    with _SOLVER_LOCK:
        arrangement = ruleset.arrange_table(game)
    if arrangement is None:
        return None
    melds = [tuple(_from_lib(t) for t in meld) for meld in arrangement.sets]
    if arrangement.free_jokers:
        placed = _place_jokers(melds, arrangement.free_jokers)
        if placed is None:
            return None
        melds = placed
    return melds


# --- from a list of melds to steps -------------------------------------------------------------


def plan_steps(table: Table, placed: Sequence[str], melds: Sequence[Sequence[str]]) -> list[Step]:
    """Return steps that turn `table` plus the rack tiles `placed` into `melds`.

    Melds that stay as they are need no step; a meld that only grows is extended (``3+R8``);
    every other target meld is built as a new meld from rack tiles and tiles of the melds that
    are taken apart (``K6 K7 2:K5``).
    """
    slots = {n: Counter(meld) for n, meld in enumerate(table, start=1) if meld}
    targets = [Counter(meld) for meld in melds]
    kept: dict[int, int] = {}  # target index -> slot it keeps
    for i, target in enumerate(targets):
        for n, meld in slots.items():
            if n not in kept.values() and meld == target:
                kept[i] = n
                break
    for i, target in enumerate(targets):
        if i in kept:
            continue
        for n, meld in slots.items():
            if n not in kept.values() and not meld - target:
                kept[i] = n
                break
    # Tiles free to move: those of melds taken apart (first), then the rack tiles placed.
    loose: dict[str, list[int]] = {}
    for n, meld in slots.items():
        if n not in kept.values():
            for tile in meld.elements():
                loose.setdefault(tile, []).append(n)
    rack_left = Counter(placed)

    def take(tile: str) -> Source:
        if loose.get(tile):
            return (loose[tile].pop(), tile)
        rack_left[tile] -= 1
        return (0, tile)

    steps: list[Step] = []
    for i, target in enumerate(targets):
        if i in kept:
            extra = target - slots[kept[i]]
            if extra:
                sources = tuple(take(t) for t in sorted(extra.elements()))
                steps.append(Put(kept[i], sources))
        else:
            steps.append(Put(0, tuple(take(t) for t in sorted(target.elements()))))
    return steps
