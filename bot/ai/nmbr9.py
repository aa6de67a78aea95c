"""NMBR 9 players of three strengths.

- ``easy`` places the tile by the fixed rule the deadline uses (`bot.games.nmbr9.auto_fit`):
  as high as it can go, as central as possible. It grabs points now and never plans.
- ``medium`` scores every legal placement with the static evaluation (`Evaluator`: points plus
  the stacking potential of the display left, i.e. the flat area each level offers the level
  above, the compactness of the base, the cost of wasting high numbers or high spots), but with
  crude weights: points plus a small, level-blind bonus for flat area. It ignores which numbers
  are still to come and the shape of its base, and never looks ahead.
- ``hard`` knows the deck (two of each number) and the cards already seen. It values a display by
  a *learned value function*: an estimate of the points the unseen cards will still make, linear
  in 55 features of the display and the unseen cards (per level the flat area it offers the
  level above; the base's compactness; per level which unseen numbers fit there now and the
  squares such placements cover; an optimistic fill of the highest unseen cards; …), with one
  weight vector per count of unseen cards (`bot.ai.nmbr9_value`, fitted offline by self-play
  with ``tools/tune_nmbr9.py``). The static evaluation above (weights `PRUNE`) only prunes: of
  its 12 best placements, the 6 best by points + learned value get an expectimax over the next
  card (every unseen number weighted by its count; its best answer by points + learned value
  counts), and the 2 best of those an expectimax over two cards (each next card's 2 best
  answers valued by the one-card expectimax).

Everything is deterministic for a given state and seed (the seed only breaks exact ties).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai.nmbr9_value import VALUE, ValueWeights
from bot.games.nmbr9 import (
    COPIES,
    DISTINCT_ROTATIONS,
    NUMBERS,
    SHAPE,
    SIZE,
    STRIDE,
    TABLE,
    Display,
    Fit,
    Nmbr9Move,
    Nmbr9State,
    Place,
    Skip,
    auto_fit,
    fitting_corners,
    preferred,
)

LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True, slots=True)
class Weights:
    """The weights of the placement evaluation (see the module docstring)."""

    area: tuple[float, ...] = (0.5, 1.0, 1.5, 2.0, 2.5)  # per square offered by level 0, 1, …
    horizon: float = 8.0  # cards to come at which the future counts fully
    waste_high: float = 0.5  # per pip of a number put on the table
    waste_slot: float = 0.3  # per level × pips below the reference number of the cards to come
    slot_ref: float = 0.0  # the reference: 0 = their mean, 1 = the mean of their top third
    perimeter: float = 0.1  # per empty square bordering the base
    perimeter_up: float = 0.0  # per empty square bordering level 1
    pocket: float = 0.0  # per empty square with three or four sides against the base


# Tuned by random search over solo games (1-ply, 100 decks); the hard player's pruning.
PRUNE = Weights(
    area=(0.734, 1.380, 0.205, 0.745, 0.024),
    horizon=15.60,
    waste_high=0.078,
    waste_slot=0.232,
    slot_ref=0.299,
    perimeter=0.639,
    perimeter_up=0.115,
    pocket=0.192,
)
MEDIUM = Weights(area=(0.2, 0.2, 0.2, 0.2, 0.2), waste_high=0.0, waste_slot=0.0, perimeter=0.1)


def footing(surface: int) -> int:
    """Return how many squares of `surface` lie in a full 2×2 block of it."""
    s = STRIDE
    corners = surface & (surface >> 1) & (surface >> s) & (surface >> (s + 1))
    return (corners | corners << 1 | corners << s | corners << (s + 1)).bit_count()


def border(occupied: int) -> int:
    """Return how many empty table squares share an edge with `occupied`."""
    s = STRIDE
    around = (occupied << 1) | (occupied >> 1) | (occupied << s) | (occupied >> s)
    return (around & ~occupied & TABLE).bit_count()


def pockets(occupied: int) -> int:
    """Return how many empty squares have tiles on at least three sides (no tile fits them)."""
    s = STRIDE
    up, down, left, right = occupied >> s, occupied << s, occupied >> 1, occupied << 1
    three = (up & down & (left | right)) | (left & right & (up | down))
    return (three & ~occupied & TABLE).bit_count()


def surfaces(display: Display) -> list[int]:
    """Return, per level, the squares whose top tile lies on that level."""
    occ = display.occupied
    return [occ[h] & ~(occ[h + 1] if h + 1 < len(occ) else 0) for h in range(len(occ))]


class Evaluator:
    """Scores the placements of one number onto one display, for the cards still to come."""

    def __init__(self, display: Display, deck_left: Counter[int], weights: Weights) -> None:
        self.w = weights
        occ = self.occupied = display.occupied
        self.surf = surfaces(display)
        self.base = [footing(a) for a in self.surf]
        top = len(occ)
        self.area = [weights.area[min(h, len(weights.area) - 1)] for h in range(top + 1)]
        self.total = sum(a * b for a, b in zip(self.area, self.base, strict=False))
        self.border0 = border(occ[0]) if occ else 0
        self.pockets0 = pockets(occ[0]) if occ else 0
        self.border1 = border(occ[1]) if top > 1 else 0
        left = sum(deck_left.values())
        mean = sum(n * c for n, c in deck_left.items()) / left if left else 0.0
        high = sorted(deck_left.elements(), reverse=True)[: max(1, left // 3)] if left else [0]
        self.mean = mean + weights.slot_ref * (sum(high) / len(high) - mean)
        self.future = min(1.0, left / weights.horizon) if weights.horizon > 0 else 1.0

    def value(self, number: int, fit: Fit) -> float:
        """Return the points of `fit` plus the potential of the display it leaves."""
        w, level, mask = self.w, fit.level, fit.mask
        area, surf, base, occ = self.area, self.surf, self.base, self.occupied
        top = len(surf)
        potential = self.total
        if level < top:  # the level the tile lies on gains its squares as surface
            potential += area[level] * (footing(surf[level] | mask) - base[level])
        else:
            potential += area[level] * footing(mask)
        if level == 0:
            occ0 = occ[0] | mask if top else mask
            shape = w.perimeter * border(occ0) + w.perimeter_up * self.border1
            if w.pocket:
                shape += w.pocket * pockets(occ0)
            wasted = w.waste_high * number
        else:  # … and the level below loses the squares it covers
            below = level - 1
            potential += area[below] * (footing(surf[below] & ~mask) - base[below])
            ragged_up = self.border1
            if level == 1 and w.perimeter_up:
                ragged_up = border(occ[1] | mask if top > 1 else mask)
            shape = w.perimeter * self.border0 + w.pocket * self.pockets0
            shape += w.perimeter_up * ragged_up
            wasted = w.waste_slot * level * max(0.0, self.mean - number)
        return number * level + self.future * (potential - wasted - shape)


def deck_left(state: Nmbr9State) -> Counter[int]:
    """Return the cards not yet revealed (the current card excluded)."""
    left = Counter(dict.fromkeys(NUMBERS, COPIES))
    left.subtract(state.deck[: state.round + 1])
    return +left


def best_fits(
    display: Display, number: int, left: Counter[int], weights: Weights, rng: random.Random
) -> list[tuple[float, Fit]]:
    """Return the legal placements of `number`, best first by the evaluation."""
    fits = display.fits(number)
    if display.empty:
        fit = auto_fit(display, number)
        return [(0.0, fit)] if fit else []
    evaluator = Evaluator(display, left, weights)
    scored = [(evaluator.value(number, fit), rng.random(), fit) for fit in fits]
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(v, fit) for v, _, fit in scored]


def choose_fit(
    display: Display, number: int, left: Counter[int], weights: Weights, seed: int
) -> Fit | None:
    """Return the best placement of `number` by the static evaluation (None if it fits nowhere)."""
    ranked = best_fits(display, number, left, weights, random.Random(seed))
    return ranked[0][1] if ranked else None


# --- the hard player: a learned value of the display and an expectimax over the next card -----

_COMBOS = tuple(SHAPE[n, rot] for n in NUMBERS for rot in DISTINCT_ROTATIONS[n])
REACH_LEVELS = 4  # the levels above the table whose reachable numbers are features


def reach(display: Display, level: int) -> tuple[int, int]:
    """Return (numbers that fit on `level` as a bit set, squares some such placement covers).

    `level` is 1 or more and at most the number of levels in play (the top one starts a new
    level). Every turn of every number is tried bit-parallel by `fitting_corners`, as in
    `Display.fits`.
    """
    footing = display.footing(level)
    numbers = covered = 0
    for shape in _COMBOS:
        corners = fitting_corners(shape, footing)
        if corners:
            numbers |= 1 << shape.number
            for offset in shape.offsets:
                covered |= corners << offset
    return numbers, covered


_TURNS = {n: tuple(SHAPE[n, rot] for rot in DISTINCT_ROTATIONS[n]) for n in NUMBERS}
FILL_CARDS = 6  # the unseen cards `fill` stacks, highest numbers first


def highest_fit(display: Display, number: int) -> tuple[int, int] | None:
    """Return (level, mask) of a placement of `number` on the highest level above the table.

    The first box corner in reading order of the first turn that fits; None if the number fits
    on no level above the table.
    """
    for level in range(len(display.occupied), 0, -1):
        footing = display.footing(level)
        for shape in _TURNS[number]:
            corners = fitting_corners(shape, footing)
            if corners:
                return level, shape.mask * (corners & -corners)
    return None


def fill(display: Display, left: Sequence[int], cards: int = FILL_CARDS) -> tuple[int, int]:
    """Return (points, tiles) of stacking the highest unseen cards, each as high as it fits.

    A quick, optimistic picture of the room above the table: the `cards` highest unseen numbers
    (0 excluded), highest first, each put by `highest_fit` (one spot takes one tile, and a tile
    placed can make room above it), the ones that fit nowhere above the table left out.
    """
    points = tiles = 0
    todo = cards
    for number in range(len(NUMBERS) - 1, 0, -1):
        for _ in range(min(left[number], todo)):
            todo -= 1
            found = highest_fit(display, number)
            if found is None:
                continue
            level, mask = found
            points += number * level
            tiles += 1
            display = display.add(mask, number, level)
        if not todo:
            break
    return points, tiles


VALUE_FEATURES = (
    "1",
    *(f"{what}{h}" for h in range(4) for what in ("footing", "surface", "footing×mean")),
    "border0",
    "pockets0",
    "border1",
    "pockets1",
    "tiles1",
    "tiles2",
    "tiles3",
    *(f"{what}{h}" for h in range(1, REACH_LEVELS + 1) for what in ("pips", "cards", "cover")),
    "reach",
    "pips",
    "squares/10",
    *(f"unseen{n}" for n in NUMBERS),
    *(f"{what}{h}" for h in range(1, REACH_LEVELS + 1) for what in ("highest", "top pips")),
    "fill points",
    "fill tiles",
)

Reach = list[tuple[int, int]]  # per level 1, 2, …: `reach` of the display (0, 0 if no such level)


def reaches(display: Display, parent: Reach | None = None, placed: int = 0) -> Reach:
    """Return `reach` of every level 1 to `REACH_LEVELS`.

    With the `parent` display's reaches and the level a tile was just `placed` on, only the
    levels that tile can change (its own and the one above) are computed again.
    """
    top = len(display.occupied)
    out: Reach = []
    for level in range(1, REACH_LEVELS + 1):
        if level > top:
            out.append((0, 0))
        elif parent is not None and level != placed and level != placed + 1:
            out.append(parent[level - 1])
        else:
            out.append(reach(display, level))
    return out


def value_features(
    display: Display, left: Sequence[int], reached: Reach | None = None
) -> list[float]:
    """Return the features of a display for the value function (`VALUE_FEATURES` names them).

    `left` counts the unseen cards per number; `reached` is `reaches(display)` if known. Per
    level h: the footing and the area of its top surface (the squares whose top tile lies on h);
    the base's border and pockets, level 1's; the tiles on levels 1-3; per level above the
    table, the pips and the count of unseen cards whose number fits there now and the squares
    such placements cover; the pips × highest reachable level over the unseen cards; their pips
    and squared pips; the unseen count of each number; per level, the highest unseen number
    that fits there and the pips of the unseen cards that reach no higher; `fill`.
    """
    occ = display.occupied
    top = len(occ)
    k = sum(left)
    pips = sum(n * c for n, c in enumerate(left))
    mean = pips / k if k else 0.0
    out = [1.0]
    for h in range(4):
        if h < top:
            surface = occ[h] & ~occ[h + 1] if h + 1 < top else occ[h]
            feet = footing(surface)
            out += (feet, surface.bit_count(), feet * mean)
        else:
            out += (0, 0, 0.0)
    out += (
        border(occ[0]) if top else 0,
        pockets(occ[0]) if top else 0,
        border(occ[1]) if top > 1 else 0,
        pockets(occ[1]) if top > 1 else 0,
    )
    out += (len(display.tiles[h]) if h < top else 0 for h in range(1, 4))
    if reached is None:
        reached = reaches(display)
    best = [0] * len(NUMBERS)
    highest = [0] * REACH_LEVELS
    for level, (numbers, covered) in enumerate(reached, start=1):
        level_pips = cards = 0
        for n in NUMBERS:
            if numbers >> n & 1 and left[n]:
                level_pips += left[n] * n
                cards += left[n]
                best[n] = level
                highest[level - 1] = n
        out += (level_pips, cards, covered.bit_count())
    out.append(sum(left[n] * n * best[n] for n in NUMBERS))
    out.append(pips)
    out.append(sum(c * n * n for n, c in enumerate(left)) / 10)
    out += left
    for level in range(1, REACH_LEVELS + 1):
        out.append(highest[level - 1])
        out.append(sum(left[n] * n for n in NUMBERS if best[n] == level))
    out += fill(display, left)
    return out


def display_value(
    display: Display,
    left: Sequence[int],
    value: ValueWeights = VALUE,
    reached: Reach | None = None,
) -> float:
    """Return the learned estimate of the points the unseen cards `left` will still make.

    `reached` is `reaches(display)` if known.
    """
    k = sum(left)
    if not k or display.empty:
        return 0.0
    features = value_features(display, left, reached)
    return sum(w * f for w, f in zip(value[k], features, strict=True))


@dataclass(frozen=True, slots=True)
class Search:
    """How wide the hard player searches."""

    prune: int = 12  # placements kept, best first by the static evaluation `PRUNE`
    width: int = 6  # of those, the best by the value function get the expectimax
    answers: int = 6  # placements of each possible next card valued by the value function
    deep: int = 0  # of the `width`, the best re-valued by an expectimax over two cards (0: none)
    follow: int = 2  # in that, each next card's best answers valued over the card after it


HARD_SEARCH = Search(deep=2)


def ranked_fits(
    display: Display,
    number: int,
    left: Sequence[int],
    prune: int,
    value: ValueWeights = VALUE,
    parent: Reach | None = None,
) -> list[tuple[float, Fit, Display]]:
    """Return (points + learned value, fit, display after) of the best placements, best first.

    The `prune` best placements by the static evaluation are valued; `left` excludes `number`;
    `parent` is `reaches(display)` if known.
    """
    if display.empty:
        fits = [] if (first := auto_fit(display, number)) is None else [first]
    else:
        fits = display.fits(number)
        if len(fits) > prune:
            unseen = Counter({n: c for n, c in enumerate(left) if c})
            static = Evaluator(display, unseen, PRUNE).value
            fits = sorted(fits, key=lambda fit: static(number, fit), reverse=True)[:prune]
    out = []
    k = sum(left)
    if parent is None and k and not display.empty:
        parent = reaches(display)
    for fit in fits:
        after = display.add(fit.mask, number, fit.level)
        reached = reaches(after, parent, fit.level) if k else None
        out.append((number * fit.level + display_value(after, left, value, reached), fit, after))
    out.sort(key=lambda t: t[0], reverse=True)
    return out


def expected_value(
    display: Display,
    left: Sequence[int],
    answers: int,
    value: ValueWeights = VALUE,
    depth: int = 1,
    follow: int = 2,
) -> float:
    """Return the expected best (points + learned value) of the next card, over the unseen cards.

    For each number still unseen (weighted by its count), its `answers` best placements by the
    static evaluation are valued by points + learned value, and the best of them counts. With
    `depth` 2, each card's `follow` best placements are valued by points + this expectation over
    the card after it instead.
    """
    k = sum(left)
    if not k:
        return 0.0
    total = 0.0
    rest = list(left)
    parent = reaches(display) if k > 1 else None
    for n in NUMBERS:
        if not left[n]:
            continue
        rest[n] -= 1
        ranked = ranked_fits(display, n, rest, max(answers, 1), value, parent)
        if not ranked:
            best = 0.0
        elif depth > 1 and k > 1:
            best = max(
                n * fit.level + expected_value(after, rest, answers, value, depth - 1, follow)
                for _, fit, after in ranked[:follow]
            )
        else:
            best = ranked[0][0]
        rest[n] += 1
        total += left[n] * best
    return total / k


def choose_hard(
    display: Display,
    number: int,
    left: Sequence[int],
    seed: int,
    search: Search = HARD_SEARCH,
    value: ValueWeights = VALUE,
) -> Fit | None:
    """Return the hard player's placement of `number` (None if it fits nowhere).

    The `width` best placements by points + learned value are valued by points + the expected
    best answer to the next card, the `deep` best of those by the two-card expectimax; the seed
    breaks exact ties.
    """
    ranked = ranked_fits(display, number, left, search.prune, value)
    if not ranked:
        return None
    rng = random.Random(seed)
    scored = [(v, rng.random(), fit, after) for v, fit, after in ranked]
    if len(ranked) > 1 and search.width > 1:
        scored = [
            (
                number * fit.level + expected_value(after, left, search.answers, value),
                tie,
                fit,
                after,
            )
            for _, tie, fit, after in scored[: search.width]
        ]
        if search.deep > 1 and sum(left) > 1:
            scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
            scored = [
                (
                    number * fit.level
                    + expected_value(after, left, search.answers, value, 2, search.follow),
                    tie,
                    fit,
                    after,
                )
                for _, tie, fit, after in scored[: search.deep]
            ]
    return max(scored, key=lambda t: (t[0], t[1]))[2]


def choose_nmbr9_move(state: Nmbr9State, seat: int, level: str, seed: int) -> Nmbr9Move:
    """Return the placement a bot of strength `level` makes for `seat` this round."""
    number = state.card
    if number is None or seat not in state.waiting_for():
        raise ValueError(f"seat {seat} has nothing to place now")
    display = state.display(seat)
    if display.empty and level != "easy" and seat:
        # Two bots of one level see the same cards: their first tiles, turned by seat, set
        # their displays apart (a first tile's turn is no choice: `ranked_fits` takes
        # `auto_fit`'s). Seat 0, the solo seat, is unchanged.
        turns = DISTINCT_ROTATIONS[number]
        mid = (SIZE - 1) / 2
        turned = turns[seat % len(turns)]
        first = next(f for f in preferred(display, number, (mid, mid)) if f.rotation == turned)
        return Place(first.row, first.col, first.rotation)
    if level == "easy":
        fit = auto_fit(display, number)
    elif level == "medium":
        fit = choose_fit(display, number, deck_left(state), MEDIUM, seed)
    elif level == "hard":
        left = deck_left(state)
        fit = choose_hard(display, number, [left[n] for n in NUMBERS], seed)
    else:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    if fit is None:
        return Skip()
    return Place(fit.row, fit.col, fit.rotation)
