"""NMBR 9 players of three strengths.

- ``easy`` places the tile by the fixed rule the deadline uses (`bot.games.nmbr9.auto_fit`):
  as high as it can go, as central as possible. It grabs points now and never plans.
- ``medium`` scores every legal placement with the evaluation below, but with crude weights:
  points plus a small, level-blind bonus for flat area. It ignores which numbers are still to
  come and the shape of its base, and never looks ahead.
- ``hard`` knows the deck (two of each number) and the cards already seen. It scores every
  legal placement by the points it makes plus the *stacking potential* of the display it leaves:
  the flat area each level offers the level above (counted in squares that lie in a 2×2 block,
  since a tile needs a solid footing), weighted by level and by how many cards are still to come;
  the compactness of the base (its border and enclosed pockets) and of level 1; and the cost of
  wasting a high number on the table or a high spot on a low number, measured against the
  numbers still in the deck. The 10 best placements are re-ranked by a one-card lookahead (the
  expected value, over every card still in the deck, of the best answer to that card), and the 4
  best of those by a two-card search (each possible next card's 3 best answers are themselves
  valued by the one-card lookahead). About 0.3 s per move.

Everything is deterministic for a given state and seed (the seed only breaks exact ties).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from bot.games.nmbr9 import (
    COPIES,
    NUMBERS,
    STRIDE,
    TABLE,
    Display,
    Fit,
    Nmbr9Move,
    Nmbr9State,
    Place,
    Skip,
    auto_fit,
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
    lookahead: int = 0  # placements re-ranked by a one-card lookahead (0: none)
    deep_top: int = 0  # the best of those re-ranked by a two-card search (0: none)
    deep: int = 0  # answers to the next card followed one card further in that search


# Tuned by random search over solo games (1-ply, 100 decks), then checked with the lookahead.
HARD = Weights(
    area=(0.734, 1.380, 0.205, 0.745, 0.024),
    horizon=15.60,
    waste_high=0.078,
    waste_slot=0.232,
    slot_ref=0.299,
    perimeter=0.639,
    perimeter_up=0.115,
    pocket=0.192,
    lookahead=10,
    deep_top=4,
    deep=3,
)
MEDIUM = Weights(area=(0.2, 0.2, 0.2, 0.2, 0.2), waste_high=0.0, waste_slot=0.0, perimeter=0.0)


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


def best_value(display: Display, number: int, left: Counter[int], weights: Weights) -> float:
    """Return the evaluation of the best placement of `number` (0 if none fits)."""
    if display.empty:
        return 0.0
    evaluator = Evaluator(display, left, weights)
    value = evaluator.value
    return max((value(number, fit) for fit in display.fits(number)), default=0.0)


def lookahead(
    display: Display,
    number: int,
    fit: Fit,
    left: Counter[int],
    weights: Weights,
    answers: int = 0,
) -> float:
    """Return the points of `fit` plus the expected best value of the next card's placement.

    With `answers` > 0, the next card's best few placements (by the evaluation) are each valued
    by one more card of lookahead, and the best of them counts: a two-card search.
    """
    after = display.add(fit.mask, number, fit.level)
    total = sum(left.values())
    if not total:
        return float(number * fit.level)
    expected = 0.0
    for nxt, count in left.items():
        rest = Counter(left)
        rest[nxt] -= 1
        rest = +rest
        if answers and total > 1:
            ranked = best_fits(after, nxt, rest, weights, random.Random(0))[:answers]
            expected += count * max(
                (lookahead(after, nxt, answer, rest, weights) for _, answer in ranked),
                default=0.0,
            )
        else:
            expected += count * best_value(after, nxt, rest, weights)
    return number * fit.level + expected / total


def choose_fit(
    display: Display, number: int, left: Counter[int], weights: Weights, seed: int
) -> Fit | None:
    """Return the best placement of `number` by `weights` (None if it fits nowhere)."""
    ranked = best_fits(display, number, left, weights, random.Random(seed))
    if not ranked:
        return None
    if weights.lookahead <= 1 or len(ranked) == 1:
        return ranked[0][1]
    top = [fit for _, fit in ranked[: weights.lookahead]]
    top.sort(key=lambda fit: lookahead(display, number, fit, left, weights), reverse=True)
    if weights.deep_top <= 1 or not weights.deep:
        return top[0]
    finalists = top[: weights.deep_top]
    return max(
        finalists, key=lambda fit: lookahead(display, number, fit, left, weights, weights.deep)
    )


def choose_nmbr9_move(state: Nmbr9State, seat: int, level: str, seed: int) -> Nmbr9Move:
    """Return the placement a bot of strength `level` makes for `seat` this round."""
    number = state.card
    if number is None or seat not in state.waiting_for():
        raise ValueError(f"seat {seat} has nothing to place now")
    display = state.display(seat)
    if level == "easy":
        fit = auto_fit(display, number)
    elif level == "medium":
        fit = choose_fit(display, number, deck_left(state), MEDIUM, seed)
    elif level == "hard":
        fit = choose_fit(display, number, deck_left(state), HARD, seed)
    else:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    if fit is None:
        return Skip()
    return Place(fit.row, fit.col, fit.rotation)
