"""Computer players for the crossword word games, at three levels (docs/ai.md).

Every level looks at the same list of legal placements (`generate_moves`) and differs only in
which one it picks:

* ``hard`` plays the highest score (ties broken by `candidate_order`).
* ``medium`` plays a good move, rarely the best: it keeps its blanks for bingos and aims at a
  seeded fraction of the best score it can see, drawn between 50% and 90% (most often 70%).
* ``easy`` plays short, plain words: no blank and at most five letters while it has such a
  move, aiming at 20% to 50% of the best such word's score (the lower half of its range).

In SmartFeud every level also looks at placements that take a tile from the board first:
the best 16 takes that leave no broken word for ``hard``, 8 for ``medium`` and 2 for ``easy``
(`TAKE_BUDGET`; see `take_options` for the ranking and docs/ai.md for the measurements).

The aimed-at score picks the candidates whose score is closest to it; a seeded draw picks one of
them. With no legal placement every level swaps its whole rack when the bag allows it, else
passes. Choices are deterministic: the random draws come from the seed, the turn and the seat.

In SmartFeud every level joins a conditional quit: once another seat still playing has quit,
the bot's next move is ``quit`` (then it plays its turns as before), so a quit by all the people
ends the game and a bot never makes them play it out (`joins_the_quit`, docs/rules/smartfeud.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.ai.wordgen import (
    Candidate,
    best_candidate,
    generate_moves,
    generate_take_moves,
    take_options,
)
from bot.core.game import Pass
from bot.games.wordgame import BLANK, Quit, Swap, WordMove, WordState

__all__ = [
    "EASY_AIM",
    "EASY_MAX_LETTERS",
    "MEDIUM_AIM",
    "TAKE_BUDGET",
    "choose_word_move",
    "fallback_move",
    "joins_the_quit",
    "pick",
    "take_budget",
]

#: The longest word the easy level plays while it has a shorter choice.
EASY_MAX_LETTERS = 5
# The medium level aims at this fraction of its best score: a triangular draw (low, high, mode).
MEDIUM_AIM = (0.5, 0.9, 0.7)
# The easy level aims at this fraction of its best score: a uniform draw.
EASY_AIM = (0.2, 0.5)
#: How many of the ranked board tiles each level considers taking (None: every one).
TAKE_BUDGET: dict[str, int | None] = {"easy": 2, "medium": 8, "hard": 16}


def fallback_move(state: WordState, seat: int) -> Swap | Pass:
    """Return what to do without a placement: swap the whole rack if the bag allows, else pass."""
    rack = state.racks[seat]
    if rack and len(state.bag) >= state.variant.swap_min_bag:
        return Swap(rack)
    return Pass()


def joins_the_quit(state: WordState, seat: int) -> bool:
    """Return whether `seat` should quit now: another seat still playing has quit (SmartFeud).

    A conditional quit ends the game only when everybody still playing has quit, and bots never
    chose to: people who quit against a bot had to play the whole game out. A bot that has not
    quit joins as soon as anyone still playing has, rather than when all the others have, so
    that two bots do not wait for each other; when it is the last to quit, the game ends.
    """
    if state.quits[seat]:
        return False
    return any(state.quits[s] for s in state.in_game() if s != seat)


def _closest(pool: Sequence[Candidate], target: float, rng: random.Random) -> Candidate:
    """Return one of the candidates whose score is closest to `target` (a seeded choice)."""
    gap = min(abs(c.score - target) for c in pool)
    return rng.choice([c for c in pool if abs(c.score - target) == gap])


def _medium(candidates: list[Candidate], rng: random.Random, rack_size: int) -> Candidate:
    # A club player keeps a blank for a bingo rather than spending it on a few points.
    pool = [c for c in candidates if not c.blanks or c.tile_count == rack_size] or candidates
    best = max(c.score for c in pool)
    return _closest(pool, best * rng.triangular(*MEDIUM_AIM), rng)


def _easy(candidates: list[Candidate], rng: random.Random, rack_size: int) -> Candidate:
    # A beginner sees short everyday-length words and does not know what a blank is for.
    plain = [c for c in candidates if not c.blanks] or candidates
    pool = [c for c in plain if len(c.word) <= EASY_MAX_LETTERS] or plain
    best = max(c.score for c in pool)
    return _closest(pool, best * rng.uniform(*EASY_AIM), rng)


def _hard(candidates: list[Candidate], rng: random.Random, rack_size: int) -> Candidate:
    best = best_candidate(candidates)
    assert best is not None  # callers never pass an empty list
    return best


_PICKERS: dict[str, Callable[[list[Candidate], random.Random, int], Candidate]] = {
    "easy": _easy,
    "medium": _medium,
    "hard": _hard,
}


def pick(
    candidates: list[Candidate], level: str, rng: random.Random, rack_size: int
) -> Candidate | None:
    """Return the placement a player of `level` chooses among `candidates` (None if empty).

    `rack_size` is the variant's: a placement of that many tiles is a bingo.
    """
    if not candidates:
        return None
    return _PICKERS[level](candidates, rng, rack_size)


def word_take_moves(state: WordState, seat: int, level: str) -> list[Candidate]:
    """Return the placements with a take that a player of `level` looks at (none in Webfeud)."""
    if not state.variant.take:
        return []
    removals = take_options(state, seat)[: take_budget(level, state.racks[seat])]
    return generate_take_moves(state, seat, removals)


def take_budget(level: str, rack: str) -> int | None:
    """Return how many removals a player of `level` tries with `rack` (None: all of them).

    Two blanks multiply the words every removal tries (about 0.25 s each for `hard`, 4.4 s
    for its 16 in one measured position): then half as many, the best-ranked kept.
    """
    budget = TAKE_BUDGET[level]
    if budget is not None and rack.count(BLANK) >= 2:
        return max(1, budget // 2)
    return budget


def choose_word_move(state: WordState, seat: int, level: str, seed: int) -> WordMove:
    """Return the move a player of `level` makes for `seat` in a word game."""
    if level not in _PICKERS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(_PICKERS)}")
    if joins_the_quit(state, seat):
        return Quit()
    rng = random.Random(f"{seed}:{state.turn}:{seat}")
    candidates = generate_moves(state, seat) + word_take_moves(state, seat, level)
    choice = pick(candidates, level, rng, state.variant.rack_size)
    if choice is None:
        return fallback_move(state, seat)
    return choice.move
