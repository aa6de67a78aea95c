"""Move generation for the crossword word games (Appel & Jacobson 1988, over the lexicon's DAWG).

For each direction the board is read as lines (rows to go across, columns to go down). A cell is
an *anchor* when it is empty and touches a tile (on an empty board: the start squares); every
legal placement covers at least one anchor. A placement is found from the leftmost anchor it
covers: a *left part* fills the empty cells before that anchor (back to the previous anchor at
most), then the word is extended rightwards through the anchor, following the DAWG's edges with
the rack's tiles and the board's letters, and recorded wherever a word may end.

What keeps it fast in pure Python:

* Each empty cell with tiles above or below it (to the sides, going down) carries a precomputed
  cross-check: the letters that make a valid cross-word there, each with the score that
  cross-word earns, so laying a tile only adds numbers.
* Left parts touch no tile, so they do not depend on the anchor: every prefix the rack can lay
  is enumerated once per call, grouped by DAWG node, and reused at each anchor; only its
  premium squares are scored per place. A group is skipped unless its node can go on with a
  letter the anchor accepts and, when board letters follow the anchor, lead into them.
* Letter sets are bit masks (per cell: the cross-check; per node: the letters that may follow,
  and two steps on), so the search never enters a cell it cannot fill with what the rack holds.
* Candidates are light tuples; the `Place` move and the new tiles are derived on demand.

A single tile that makes words both ways is kept once, in the across notation.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import isqrt
from operator import mul
from typing import NamedTuple

from bot.core.grid import Anchor
from bot.games.wordgame import (
    BLANK,
    EMPTY,
    LETTER_FACTOR,
    WORD_FACTOR,
    Place,
    Variant,
    WordState,
)
from bot.lexicon import Lexicon

__all__ = [
    "Candidate",
    "Removal",
    "best_candidate",
    "candidate_order",
    "generate_moves",
    "generate_take_moves",
    "take_options",
]

_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Candidate(NamedTuple):
    """A legal placement found by the generator, with its score.

    It is a light tuple (thousands are made per position); the `Place` move, the new tiles and
    the rack tiles are derived on demand from the board it was generated on.
    """

    score: int  # what `state.evaluate(move, seat).score` returns, bingo included
    row: int  # first cell of the main word
    col: int
    across: bool
    word: str  # the whole main word; a lower-case letter is a blank (board blanks included)
    blanks: int  # how many rack blanks it lays
    tile_count: int  # how many tiles it lays
    board: str  # the board the placement was generated on (without the taken tile, if any)
    take: int | None = None  # the cell of the board tile taken first (SmartFeud), else None

    @property
    def move(self) -> Place:
        """Return the placement in the game's notation."""
        if self.take is None:
            return Place(Anchor(self.row, self.col, self.across), self.word)
        size = isqrt(len(self.board))
        return Place(Anchor(self.row, self.col, self.across), self.word, divmod(self.take, size))

    @property
    def placed(self) -> tuple[tuple[int, str], ...]:
        """Return (cell, board character) of each new tile, as `Evaluation.placed` does."""
        board = self.board
        size = isqrt(len(board))
        step = 1 if self.across else size
        start = self.row * size + self.col
        return tuple(
            (start + k * step, ch)
            for k, ch in enumerate(self.word)
            if board[start + k * step] == EMPTY
        )

    @property
    def cells(self) -> frozenset[int]:
        """Return the cells that receive a new tile."""
        return frozenset(cell for cell, _ in self.placed)

    @property
    def tiles(self) -> str:
        """Return the rack tiles the placement uses, in word order (``?`` for a blank)."""
        return "".join(ch if ch.isupper() else BLANK for _, ch in self.placed)

    def __str__(self) -> str:
        return f"{self.move} ({self.score})"


def candidate_order(candidate: Candidate) -> tuple[int, int, int, int, bool, str]:
    """Return a total order key: higher score first, then fewer blanks, then the notation.

    Sorting by this key (ascending) puts the best candidate first and breaks every tie the same
    way on every run.
    """
    return (
        -candidate.score,
        candidate.blanks,
        candidate.row,
        candidate.col,
        not candidate.across,
        candidate.word,
    )


def best_candidate(candidates: list[Candidate]) -> Candidate | None:
    """Return the highest-scoring candidate (ties broken by `candidate_order`), or None."""
    if not candidates:
        return None
    top = max(c.score for c in candidates)
    return min((c for c in candidates if c.score == top), key=candidate_order)


def generate_moves(state: WordState, seat: int) -> list[Candidate]:
    """Return every legal placement `seat` can make in `state`, each exactly once, with its score.

    The order of the list is deterministic (by direction, line and anchor), not by score.
    """
    variant = state.variant
    rack = state.racks[seat]
    found = _generate(
        board=state.board,
        layout=state.layout,
        size=state.size,
        rack=rack,
        lexicon=state.lexicon,
        values=variant.values,
        bonuses=[variant.bonus(used, False) for used in range(len(rack) + 1)],
        start_cells=variant.start_cells,
    )
    if state.bonus == "held" and seat == 0:
        # SmartFeud's first turn: the starter's extra blank, laid, is not one of the rack's
        # "all 7 tiles" (`WordState.evaluate`): its bonus is that of one tile fewer.
        return [_extra_blank_laid(c, variant) if c.blanks else c for c in found]
    return found


def _extra_blank_laid(candidate: Candidate, variant: Variant) -> Candidate:
    """Return `candidate` with the bonus of one tile fewer (the extra blank is not the rack's)."""
    tiles = candidate.tile_count
    bonus = variant.bonus(tiles - 1, False) - variant.bonus(tiles, False)
    return candidate._replace(score=candidate.score + bonus)


_Tables = tuple[list[Mapping[str, int]], list[bool], list[int], list[int]]
_TABLE_CACHE: dict[int, tuple[Lexicon, _Tables]] = {}
_TABLE_CACHE_SIZE = 4
_BIT = {letter: 1 << k for k, letter in enumerate(_UPPER)}
_ALL = (1 << len(_UPPER)) - 1


def _tables(lexicon: Lexicon) -> _Tables:
    """Return the lexicon's graph as lists the hot loop can index by node.

    Per node: its edges, whether it ends a word, the mask of the letters that may follow it
    (bit k: letter k of the alphabet) and the mask of the letters that may come two steps later.
    Cached for the last few lexicons (an entry holds its lexicon, so the id it is filed under
    cannot be reused while it is there).
    """
    hit = _TABLE_CACHE.get(id(lexicon))
    if hit is not None and hit[0] is lexicon:
        return hit[1]
    nodes = range(lexicon.node_count)
    edges = [lexicon.edges(node) for node in nodes]
    final = [lexicon.is_word(node) for node in nodes]
    bit = _BIT
    masks = [sum(bit[letter] for letter in children) for children in edges]
    grand = [0] * len(edges)
    for node, children in enumerate(edges):
        mask = 0
        for child in children.values():
            mask |= masks[child]
        grand[node] = mask
    if len(_TABLE_CACHE) >= _TABLE_CACHE_SIZE:
        del _TABLE_CACHE[next(iter(_TABLE_CACHE))]
    tables = (edges, final, masks, grand)
    _TABLE_CACHE[id(lexicon)] = (lexicon, tables)
    return tables


def _walk(edges: list[Mapping[str, int]], node: int, letters: str) -> int | None:
    """Follow `letters` from `node`; None if they leave the lexicon's prefixes."""
    for letter in letters:
        child = edges[node].get(letter)
        if child is None:
            return None
        node = child
    return node


def _cross_checks(
    board: str,
    size: int,
    values: Mapping[str, int],
    edges: list[Mapping[str, int]],
    final: list[bool],
    layout: str,
    across: bool,
) -> tuple[list[dict[str, int] | None], list[int]]:
    """Return, per cell, the cross-check of a main word going `across` (or down).

    For an empty cell with tiles on the perpendicular line next to it: a dict from each letter
    that makes a valid cross-word to the score a letter tile earns there (the cross-word's), and
    the score the cross-word earns when a blank is played (letters on the board only). Other
    cells get None (no constraint) and 0.
    """
    n = size * size
    checks: list[dict[str, int] | None] = [None] * n
    blank_scores = [0] * n
    # The cross-word runs perpendicular to the main word.
    step = size if across else 1
    for i in range(n):
        if board[i] != EMPTY:
            continue
        row, col = divmod(i, size)
        pos = row if across else col  # position along the cross line
        if not (
            (pos > 0 and board[i - step] != EMPTY) or (pos < size - 1 and board[i + step] != EMPTY)
        ):
            continue
        j, p = i - step, pos - 1
        while p >= 0 and board[j] != EMPTY:
            j -= step
            p -= 1
        prefix = board[j + step : i : step]
        j, p = i + step, pos + 1
        while p < size and board[j] != EMPTY:
            j += step
            p += 1
        suffix = board[i + step : j : step]
        base = sum(values[ch] for ch in prefix + suffix if ch.isupper())
        code = layout[i]
        letter_factor = LETTER_FACTOR.get(code, 1)
        word_factor = WORD_FACTOR.get(code, 1)
        allowed: dict[str, int] = {}
        node = _walk(edges, 0, prefix.upper())
        if node is not None:
            upper_suffix = suffix.upper()
            for letter, child in edges[node].items():
                end = _walk(edges, child, upper_suffix)
                if end is not None and final[end]:
                    allowed[letter] = (base + values[letter] * letter_factor) * word_factor
        checks[i] = allowed
        blank_scores[i] = base * word_factor
    return checks, blank_scores


def _hook(edges: list[Mapping[str, int]], node: int, first: str) -> int:
    """Return the mask of the letters that follow `node` and are followed by `first`."""
    hook = 0
    for letter, child in edges[node].items():
        if first in edges[child]:
            hook |= _BIT[letter]
    return hook


def _leads_into(edges: list[Mapping[str, int]], node: int, hook: int, run: str) -> bool:
    """Tell whether a letter of `hook` after `node`, then the board letters `run`, can follow.

    `hook` holds only letters after which the first letter of `run` may come.
    """
    first, rest = run[0], run[1:]
    for letter, child in edges[node].items():
        if _BIT[letter] & hook and _walk(edges, edges[child][first], rest) is not None:
            return True
    return False


_INDEX = {letter: k for k, letter in enumerate(_UPPER)}
# (letters, value of each tile, rack tiles used, letters still on the rack as a mask, whether a
# blank is still on the rack)
_LeftPart = tuple[str, tuple[int, ...], str, int, bool]
_LeftParts = list[list[tuple[int, int, list[_LeftPart]]]]


def _left_parts(
    rack: str,
    edges: list[Mapping[str, int]],
    masks: list[int],
    values: Mapping[str, int],
    longest: int,
) -> _LeftParts:
    """Return every prefix of a word the rack can lay, up to `longest` tiles, by length.

    Prefixes are grouped by the DAWG node they reach: (node, the node's child-letter mask,
    [(letters, value of each tile, the rack tiles used (``?`` for a blank), the letter tiles
    left as a mask, whether a blank is left)]).
    """
    counts = dict.fromkeys(_UPPER + BLANK, 0)
    for tile in rack:
        counts[tile] += 1
    rack_letters = sorted({t for t in rack if t != BLANK})
    bit = _BIT
    groups: list[dict[int, list[_LeftPart]]] = [{} for _ in range(longest + 1)]

    def lay(node: int, word: str, worth: tuple[int, ...], tiles: str, real: int) -> None:
        depth = len(tiles)
        part = (word, worth, tiles, real, counts[BLANK] > 0)
        groups[depth].setdefault(node, []).append(part)
        if depth == longest:
            return
        children = edges[node]
        for letter in rack_letters:
            count = counts[letter]
            if count:
                child = children.get(letter)
                if child is not None:
                    counts[letter] = count - 1
                    left = real if count > 1 else real & ~bit[letter]
                    worth2 = (*worth, values.get(letter, 0))
                    lay(child, word + letter, worth2, tiles + letter, left)
                    counts[letter] = count
        if counts[BLANK]:
            counts[BLANK] -= 1
            for letter, child in children.items():
                lay(child, word + letter.lower(), (*worth, 0), tiles + BLANK, real)
            counts[BLANK] += 1

    lay(0, "", (), "", sum(bit[letter] for letter in rack_letters))
    return [[(node, masks[node], parts) for node, parts in g.items()] for g in groups]


def _generate(
    *,
    board: str,
    layout: str,
    size: int,
    rack: str,
    lexicon: Lexicon,
    values: Mapping[str, int],
    bonuses: list[int],
    start_cells: frozenset[int],
    take: int | None = None,
) -> list[Candidate]:
    """Generate every placement of `rack` on `board` (see `generate_moves`)."""
    out: list[Candidate] = []
    if not rack:
        return out
    n_cells = size * size
    empty_board = board == EMPTY * n_cells

    # Anchors: empty cells next to a tile, or the start squares on an empty board.
    anchor_cell = [False] * n_cells
    if empty_board:
        for i in start_cells:
            anchor_cell[i] = True
    else:
        for i in range(n_cells):
            if board[i] != EMPTY:
                continue
            row, col = divmod(i, size)
            anchor_cell[i] = (
                (row > 0 and board[i - size] != EMPTY)
                or (row < size - 1 and board[i + size] != EMPTY)
                or (col > 0 and board[i - 1] != EMPTY)
                or (col < size - 1 and board[i + 1] != EMPTY)
            )

    # The rack, mutated during the search and restored on the way back. Alongside, `real` is
    # the mask of the letter tiles still on it; what may still be laid is every letter while a
    # blank is left, else `real`.
    counts: dict[str, int] = dict.fromkeys(_UPPER + BLANK, 0)
    for tile in rack:
        counts[tile] += 1
    rack_letters = sorted({t for t in rack if t != BLANK})
    rack_len = len(rack)
    rack_blanks = counts[BLANK]
    bit = _BIT
    unbit = {letter: ~b for letter, b in bit.items()}
    everything = _ALL
    rack_real = sum(bit[letter] for letter in rack_letters)
    edges, final, node_masks, grand_masks = _tables(lexicon)
    root = lexicon.root
    letter_value = {letter: values.get(letter, 0) for letter in _UPPER}
    lower = {letter: letter.lower() for letter in _UPPER}
    unchecked = dict.fromkeys(_UPPER, 0)  # the cross-check of a cell with no cross-word
    new = tuple.__new__
    cand = Candidate
    left_parts = _left_parts(rack, edges, node_masks, letter_value, rack_len - 1)
    # First letter of a run of board letters -> node -> the letters that lead into it.
    hook_cache: dict[str, dict[int, int]] = {}

    # Per-line data, rebound for every line the search runs on (the closures read them late).
    n = size
    chars: list[str] = []  # board character per position ("." empty)
    uppers: list[str] = []  # the same in upper case (the DAWG's letters)
    tile_values: list[int] = []  # score of the board tile per position (a blank's is 0)
    letter_factors: list[int] = []
    word_factors: list[int] = []
    checks: list[dict[str, int]] = []  # letter -> cross-word score of a letter tile there
    blank_scores: list[int] = []  # cross-word score of a blank there
    free_after: list[bool] = []  # the next position is empty or off the board
    check_masks: list[int] = []  # letters allowed on position p (0 if taken or off the board)
    anchor = 0
    line = 0
    across = True
    skip_single = False  # going down, a lone tile with an across word is the across move's

    def through(
        pos: int, node: int, word: str, main: int, factor: int, cross: int, used: int, real: int
    ) -> None:
        """Follow the board letters from `pos`, then record the word or lay more tiles."""
        while pos < n:
            ch = chars[pos]
            if ch == EMPTY:
                break
            child = edges[node].get(uppers[pos])
            if child is None:
                return
            node = child
            word += ch
            main += tile_values[pos]
            pos += 1
        if pos > anchor and final[node] and not (used == 1 and skip_single):
            score = main * factor + cross + bonuses[used]
            start = pos - len(word)
            blanks = rack_blanks - counts[BLANK]
            if across:
                out.append(new(cand, (score, line, start, True, word, blanks, used, board, take)))
            else:
                out.append(new(cand, (score, start, line, False, word, blanks, used, board, take)))
        if used < rack_len and node_masks[node] & check_masks[pos] & (
            everything if counts[BLANK] else real
        ):
            extend(pos, node, word, main, factor, cross, used, real)

    def extend(
        pos: int, node: int, word: str, main: int, factor: int, cross: int, used: int, real: int
    ) -> None:
        """Lay a rack tile on the empty cell `pos` (at or after the anchor) and go on."""
        children = edges[node]
        check = checks[pos]
        letter_factor = letter_factors[pos]
        factor2 = factor * word_factors[pos]
        nxt = pos + 1
        used += 1
        blank_left = counts[BLANK] > 0
        if not free_after[pos]:
            # Board letters follow: the tile must lead into them.
            follow = uppers[nxt]
            for letter in rack_letters:
                count = counts[letter]
                if count:
                    child = children.get(letter)
                    if child is not None and follow in edges[child]:
                        extra = check.get(letter)
                        if extra is not None:
                            counts[letter] = count - 1
                            through(
                                nxt, child, word + letter,
                                main + letter_value[letter] * letter_factor, factor2,
                                cross + extra, used, real if count > 1 else real & unbit[letter],
                            )  # fmt: skip
                            counts[letter] = count
            if blank_left:
                counts[BLANK] -= 1
                cross2 = cross + blank_scores[pos]
                for letter, child in children.items():
                    if letter in check and follow in edges[child]:
                        through(nxt, child, word + lower[letter], main, factor2, cross2, used, real)
                counts[BLANK] += 1
            return
        deeper = check_masks[nxt] if used < rack_len else 0
        # The word may end here (it covers the anchor) if it has two letters; a lone tile going
        # down that also makes an across word is left to the across move.
        ends = word != "" and not (used == 1 and skip_single)
        if ends:
            start = nxt - len(word) - 1
            row, col = (line, start) if across else (start, line)
            bonus = cross + bonuses[used]
            blanks = rack_blanks - counts[BLANK]  # blanks laid so far
        for letter in rack_letters:
            count = counts[letter]
            if not count:
                continue
            child = children.get(letter)
            if child is None:
                continue
            extra = check.get(letter)
            if extra is None:
                continue
            main2 = main + letter_value[letter] * letter_factor
            if ends and final[child]:
                score = main2 * factor2 + bonus + extra
                out.append(
                    new(cand, (score, row, col, across, word + letter, blanks, used, board, take))
                )
            if deeper & node_masks[child]:
                real2 = real if count > 1 else real & unbit[letter]
                if blank_left or deeper & node_masks[child] & real2:
                    counts[letter] = count - 1
                    extend(nxt, child, word + letter, main2, factor2, cross + extra, used, real2)
                    counts[letter] = count
        if blank_left:
            counts[BLANK] -= 1
            can_lay = deeper & (everything if counts[BLANK] else real)
            cross2 = cross + blank_scores[pos]
            if ends:
                score = main * factor2 + bonus + blank_scores[pos]
                blanks += 1
            for letter, child in children.items():
                if letter in check:
                    if ends and final[child]:
                        out.append(
                            new(cand, (score, row, col, across, word + lower[letter], blanks,
                                       used, board, take))
                        )  # fmt: skip
                    if can_lay & node_masks[child]:
                        extend(nxt, child, word + lower[letter], main, factor2, cross2, used, real)
            counts[BLANK] += 1

    for across in (True, False):
        if empty_board:
            dir_checks: list[dict[str, int] | None] = [None] * n_cells
            dir_blank_scores = [0] * n_cells
        else:
            dir_checks, dir_blank_scores = _cross_checks(
                board, size, values, edges, final, layout, across
            )
        for line in range(size):
            cells = range(line * size, line * size + size) if across else range(line, n_cells, size)
            anchors = [p for p, i in enumerate(cells) if anchor_cell[i]]
            if not anchors:
                continue
            chars = [board[i] for i in cells]
            uppers = [ch.upper() for ch in chars]
            tile_values = [letter_value[ch] if ch.isupper() else 0 for ch in chars]
            letter_factors = [LETTER_FACTOR.get(layout[i], 1) for i in cells]
            word_factors = [WORD_FACTOR.get(layout[i], 1) for i in cells]
            line_checks = [dir_checks[i] for i in cells]
            checks = [unchecked if c is None else c for c in line_checks]
            blank_scores = [dir_blank_scores[i] for i in cells]
            free_after = [p + 1 == n or chars[p + 1] == EMPTY for p in range(n)]
            check_masks = [
                0 if ch != EMPTY else sum(bit[letter] for letter in check)
                for ch, check in zip(chars, checks, strict=True)
            ]
            check_masks.append(0)
            previous = -1  # the previous anchor on this line
            for anchor in anchors:
                skip_single = not across and line_checks[anchor] is not None
                if anchor > 0 and chars[anchor - 1] != EMPTY:
                    # The left part is the board's: start where its letters start.
                    start = anchor - 1
                    while start > 0 and chars[start - 1] != EMPTY:
                        start -= 1
                    through(start, root, "", 0, 1, 0, 0, rack_real)
                    previous = anchor
                    continue
                # Left parts of rack tiles fill the empty cells back to the previous anchor;
                # those cells touch nothing, so only their premiums depend on the anchor.
                anchor_mask = check_masks[anchor]
                extend(anchor, root, "", 0, 1, 0, 0, rack_real)
                # Board letters right after the anchor: a left part must lead into them.
                k = anchor + 1
                while k < n and chars[k] != EMPTY:
                    k += 1
                run = "".join(uppers[anchor + 1 : k])
                hooks = hook_cache.setdefault(run[:1], {})
                run_bit = bit[run[0]] if run else 0
                for left in range(1, min(anchor - previous, rack_len)):
                    base = anchor - left
                    factors = letter_factors[base:anchor]
                    plain = max(factors) == 1
                    factor = 1
                    for k in range(base, anchor):
                        factor *= word_factors[k]
                    for node, follow, parts in left_parts[left]:
                        reach = follow & anchor_mask
                        if not reach:
                            continue
                        if run:
                            # Cached per node: which letters lead into the run's first letter.
                            if not grand_masks[node] & run_bit:
                                continue
                            hook = hooks.get(node)
                            if hook is None:
                                hook = hooks[node] = _hook(edges, node, run[0])
                            reach &= hook
                            if not reach:
                                continue
                            if len(run) > 1 and not _leads_into(edges, node, reach, run):
                                continue
                        for word, worth, tiles, real, blank_left in parts:
                            if not reach & (everything if blank_left else real):
                                continue
                            for tile in tiles:
                                counts[tile] -= 1
                            main = sum(worth) if plain else sum(map(mul, worth, factors))
                            extend(anchor, node, word, main, factor, 0, left, real)
                            for tile in tiles:
                                counts[tile] += 1
                previous = anchor
    return out


# --- taking a tile from the board (SmartFeud) --------------------------------------------------


class Removal(NamedTuple):
    """A board tile worth taking: the words left beside its square are all valid.

    `parts` are the lines of two or more tiles left beside the vacated square, each as (the
    cell just past its far end, or -1 at the board's edge, its face value); a placement that
    neither refills the square nor extends a part scores each part at face value.
    """

    cell: int
    tile: str  # the tile code the rack gains ("?" for a blank)
    char: str  # the board character taken (lower case: a blank)
    parts: tuple[tuple[int, int], ...]
    worth: int  # the ranking key: higher is tried first


def _parts(state: WordState, board: str, cell: int) -> list[tuple[str, int, int]] | None:
    """Return (letters, far cell or -1, face value) of each line beside the emptied `cell`.

    None when a line of two or more tiles left there is not a word.
    """
    size = state.size
    row, col = divmod(cell, size)
    out = []
    for step, pos in ((1, col), (size, row)):
        for direction, room in ((-1, pos), (1, size - 1 - pos)):
            k, letters, value = 1, [], 0
            while k <= room and board[cell + direction * step * k] != EMPTY:
                ch = board[cell + direction * step * k]
                letters.append(ch)
                value += state.letter_value(ch)
                k += 1
            if len(letters) < 2:
                continue
            if direction < 0:
                letters.reverse()
            word = "".join(letters).upper()
            if word not in state.lexicon:
                return None
            far = cell + direction * step * k if k <= room else -1
            out.append((word, far, value))
    return out


def take_options(state: WordState, seat: int) -> list[Removal]:
    """Return the board tiles `seat` could take without leaving a broken word, best first.

    A tile is skipped when a line of two or more tiles left beside its square is not a word
    (only refilling that square could make such a take legal, which the players do not try).
    The ranking key favours what taking can earn: the tile's value (laid again on a premium),
    the words left behind (scored at face value), the premium the square gets back, and a blank.
    """
    if not state.variant.take:
        return []
    board, layout = state.board, state.layout
    out = []
    for cell, ch in enumerate(board):
        if ch == EMPTY:
            continue
        emptied = board[:cell] + EMPTY + board[cell + 1 :]
        parts = _parts(state, emptied, cell)
        if parts is None:
            continue
        tile = ch if ch.isupper() else BLANK
        value = state.variant.values[tile] if tile != BLANK else 0
        code = layout[cell]
        premium = LETTER_FACTOR.get(code, 1) - 1 + 2 * (WORD_FACTOR.get(code, 1) - 1)
        worth = 2 * value + sum(v for _, _, v in parts) + premium + (12 if tile == BLANK else 0)
        out.append(Removal(cell, tile, ch, tuple((far, v) for _, far, v in parts), worth))
    out.sort(key=lambda r: (-r.worth, r.cell))
    return out


def generate_take_moves(state: WordState, seat: int, removals: list[Removal]) -> list[Candidate]:
    """Return the legal placements that take one of `removals` first, scored like `evaluate`.

    A placement qualifies when it lays the taken tile again and at least one tile of the rack,
    does not put the same letter back on the vacated square, and leaves no broken word.
    """
    variant = state.variant
    rack = state.racks[seat]
    out: list[Candidate] = []
    for removal in removals:
        cell, tile, char = removal.cell, removal.tile, removal.char
        board = state.board[:cell] + EMPTY + state.board[cell + 1 :]
        grown = rack + tile
        found = _generate(
            board=board,
            layout=state.layout,
            size=state.size,
            rack=grown,
            lexicon=state.lexicon,
            values=variant.values,
            bonuses=[variant.bonus(used, True) for used in range(len(grown) + 1)],
            start_cells=variant.start_cells,
            take=cell,
        )
        letter = tile if tile != BLANK else ""
        for c in found:
            if c.tile_count < 2:
                continue  # the taken tile alone is not allowed
            if letter and letter not in c.word:
                continue
            if not letter and not c.blanks:
                continue
            placed = c.placed
            if (cell, char) in placed:
                continue  # the same letter back on its square: nothing was taken
            used = [ch if ch.isupper() else BLANK for _, ch in placed]
            if tile not in used:
                continue
            covered = {i for i, _ in placed}
            if cell in covered:
                out.append(c)
                continue
            extra = sum(value for far, value in removal.parts if far not in covered)
            out.append(c._replace(score=c.score + extra) if extra else c)
    return out
