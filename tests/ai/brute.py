"""A brute-force placement enumerator: the oracle the move generator is checked against.

It knows nothing of anchors, cross-checks or the DAWG: it tries every line segment of the board,
fills its empty cells with every arrangement of rack tiles (each blank as every letter), and
keeps what `WordState.evaluate` accepts. Only two shortcuts keep it fast enough for hundreds of
positions, and both only skip what `evaluate` would refuse anyway: the segment must be the whole
word (no tile right before or after it), and its main word must be in the lexicon (see `fill`;
segments with the same pattern of letters and holes share that filter).
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from itertools import permutations, product

from bot.core.errors import RuleError
from bot.core.grid import Anchor
from bot.games.wordgame import BLANK, EMPTY, Place, WordState

Placement = tuple[tuple[int, str], ...]


def arrangements(rack: str, k: int) -> set[str]:
    """Return every string of `k` board characters the rack can lay (blank: any lower case)."""
    out: set[str] = set()
    for perm in set(permutations(rack, k)):
        options = [string.ascii_lowercase if t == BLANK else t for t in perm]
        out.update("".join(p) for p in product(*options))
    return out


def fill(pattern: str, holes: list[int], tiles: set[str], words: list[str]) -> list[str]:
    """Return each filling of `pattern`'s holes by an arrangement in `tiles` that makes a word.

    `words` are the lexicon's words as long as the pattern. Rather than writing every
    arrangement into the pattern, this goes the other way: an arrangement makes word `w` exactly
    when it spells `w`'s letters at the holes, each in upper case (a letter tile) or lower case
    (a blank), so it tries those spellings of each word whose board letters fit.
    """
    fixed = [(k, ch.upper()) for k, ch in enumerate(pattern) if ch != EMPTY]
    out = []
    for word in words:
        if any(word[k] != ch for k, ch in fixed):
            continue
        letters = [word[k] for k in holes]
        for cases in product(*((ch, ch.lower()) for ch in letters)):
            filling = "".join(cases)
            if filling in tiles:
                template = list(pattern)
                for k, ch in zip(holes, filling, strict=True):
                    template[k] = ch
                out.append("".join(template))
    return out


def segments(size: int) -> Iterator[tuple[Anchor, list[int]]]:
    """Yield every line segment of at least two cells: its anchor and its cells."""
    for across in (True, False):
        for row in range(size):
            for col in range(size):
                for length in range(2, size + 1):
                    anchor = Anchor(row, col, across)
                    end_row, end_col = anchor.step(length - 1)
                    if end_row >= size or end_col >= size:
                        break
                    cells = [r * size + c for r, c in map(anchor.step, range(length))]
                    yield anchor, cells


def brute_force(state: WordState, seat: int) -> dict[Placement, tuple[str, int]]:
    """Return every legal placement of `seat`: new tiles -> (canonical notation, score).

    A single tile that makes words both ways is reachable in both notations; the across one is
    kept, as the generator does.
    """
    size, board, rack = state.size, state.board, state.racks[seat]
    by_size: dict[int, list[str]] = {}
    for word in state.lexicon:
        by_size.setdefault(len(word), []).append(word)
    by_length = {k: arrangements(rack, k) for k in range(1, len(rack) + 1)}
    found: dict[Placement, tuple[str, int]] = {}
    # Segments with the same letters and holes (most are all holes) take the same fillings.
    words_fitting: dict[str, list[str]] = {}
    for anchor, cells in segments(size):
        step = cells[1] - cells[0]
        line_pos = anchor.col if anchor.across else anchor.row
        end_pos = line_pos + len(cells) - 1
        if line_pos > 0 and board[cells[0] - step] != EMPTY:
            continue
        if end_pos < size - 1 and board[cells[-1] + step] != EMPTY:
            continue
        holes = [k for k, i in enumerate(cells) if board[i] == EMPTY]
        if not holes or len(holes) > len(rack):
            continue
        pattern = "".join(board[i] for i in cells)
        fits = words_fitting.get(pattern)
        if fits is None:
            fits = words_fitting[pattern] = fill(
                pattern, holes, by_length[len(holes)], by_size.get(len(cells), [])
            )
        for word in fits:
            move = Place(anchor, word)
            try:
                ev = state.evaluate(move, seat)
            except RuleError:
                continue
            previous = found.get(ev.placed)
            if previous is None or anchor.across:
                found[ev.placed] = (str(move), ev.score)
    return found
