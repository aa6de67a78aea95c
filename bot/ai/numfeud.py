"""Numfeud computer players: the single-line play generator and three strengths.

The generator is the rules' own play search (`NumfeudState.plays`): every joker free and every
single-line lay of the inventory, each one legal. The levels differ in what they pick:

- easy: a random play among those laying the fewest tiles, but a third of the time it passes
  while it may (below 19 tiles); passes when nothing fits.
- medium: a play laying the most tiles (ties broken at random); when no single-line play fits
  it tries moving a spare board tile into a new line (as hard does), else passes.
- hard: frees a joker when it can, goes out when it can, else the play that sheds the most
  points while keeping its joker and the tiles that can still meet in a combination; when
  nothing fits it swaps its highest tile while swaps last.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.core.game import Pass
from bot.games.numfeud import (
    COLOURS,
    MAX_RACK,
    SIZE,
    SWAP_LIMIT,
    Lay,
    NumfeudMove,
    NumfeudState,
    Shift,
    Swap,
    Turn,
    colour,
    is_joker,
    number,
    physical,
    tile_order,
    tile_value,
)
from bot.games.numtiles import JOKER

__all__ = ["choose_numfeud_move", "laid_tiles"]


def laid_tiles(state: NumfeudState, play: Turn) -> list[str]:
    """Return the inventory tiles a generated play lays (jokers as ``J``; moved tiles left out)."""
    out: list[str] = []
    moved: set[tuple[int, int]] = set()
    for step in play.steps:
        if isinstance(step, Shift):
            moved.add(step.target)
            continue
        for i, token in enumerate(step.tiles):
            row, col = step.anchor.step(i)
            if (row, col) in moved:
                continue
            on_board = state.board[row * SIZE + col]
            if not on_board or (is_joker(on_board) and not is_joker(token)):
                out.append(physical(token))
    return out


def _frees_joker(state: NumfeudState, play: Turn) -> bool:
    step = play.steps[0]
    if not isinstance(step, Lay) or len(step.tiles) != 1:
        return False
    row, col = step.anchor.row, step.anchor.col
    return is_joker(state.board[row * SIZE + col])


def _no_play(state: NumfeudState, seat: int, level: str) -> NumfeudMove:
    rack = state.rack(seat)
    can_swap = (
        level == "hard"
        and state.bag
        and state.swapped[seat] < SWAP_LIMIT
        and len(rack) + 1 <= MAX_RACK
        and any(t != JOKER for t in rack)
    )
    if can_swap:
        highest = max((t for t in rack if t != JOKER), key=lambda t: (tile_value(t), tile_order(t)))
        return Swap((highest,))
    return Pass()


def _partners(tiles: Sequence[str]) -> int:
    """Return how many tiles could meet another of `tiles` in a future run or group."""
    faces = {t for t in tiles if t != JOKER}
    count = 0
    for tile in tiles:
        if tile == JOKER:
            continue
        col, num = colour(tile), number(tile)
        same_number = any(f"{other}{num}" in faces for other in COLOURS if other != col)
        near = any(f"{col}{n}" in faces for n in (num - 2, num - 1, num + 1, num + 2))
        count += same_number or near
    return count


def choose_numfeud_move(state: NumfeudState, seat: int, level: str, seed: int) -> NumfeudMove:
    """Return the move of a computer player of `level` for `seat` (deterministic per seed)."""
    rng = random.Random(seed)
    plays = list(state.plays(seat))
    if not plays and (level != "easy" or len(state.rack(seat)) >= MAX_RACK):
        # Nothing fits in one line: try moving a spare board tile into a new line (at 20 tiles
        # even easy must: it may not pass and, holding a play, has not lost).
        plays = list(state.rearranged_plays(seat))
    if not plays:
        return _no_play(state, seat, level)
    laid = [laid_tiles(state, p) for p in plays]
    if level == "easy":
        # A beginner often misses a play: a third of the time it passes while it still may.
        if len(state.rack(seat)) < MAX_RACK - 1 and rng.random() < 1 / 3:
            return Pass()
        fewest = min(len(t) for t in laid)
        return rng.choice([p for p, t in zip(plays, laid, strict=True) if len(t) == fewest])
    rack_size = len(state.rack(seat))
    # A play that frees a joker takes it onto the rack: laying every tile, it still goes not out.
    out = [
        len(t) == rack_size and not _frees_joker(state, p) for p, t in zip(plays, laid, strict=True)
    ]
    if level == "medium":
        most = max((len(t), going) for t, going in zip(laid, out, strict=True))
        return rng.choice(
            [p for p, t, g in zip(plays, laid, out, strict=True) if (len(t), g) == most]
        )
    if any(out):  # going out wins the game: before anything else, a joker to free included
        return next(p for p, going in zip(plays, out, strict=True) if going)
    frees = [p for p in plays if _frees_joker(state, p)]
    if frees:
        return frees[0]

    def worth(index: int) -> tuple[bool, int, int]:
        tiles = laid[index]
        uses_joker = JOKER in tiles
        points = sum(tile_value(t) for t in tiles if t != JOKER)
        left = list(state.rack(seat))
        for tile in tiles:
            left.remove(tile)
        # A joker may not be in the play that empties the rack: jokers alone left could never
        # be laid. Otherwise shed points, keep the joker unless it sheds 20 more, and keep
        # tiles that can still meet in a future combination.
        stranded = bool(left) and all(t == JOKER for t in left)
        shed = points - (20 if uses_joker else 0) + 4 * _partners(left)
        return (not stranded, shed, len(tiles))

    best = max(worth(i) for i in range(len(plays)))
    return rng.choice([p for i, p in enumerate(plays) if worth(i) == best])
