"""NMBR 9 bots: legal, deterministic, aware of the deck, and stronger as the level rises."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.ai.nmbr9 import LEVELS, border, choose_nmbr9_move, deck_left, footing, pockets
from bot.games.nmbr9 import NMBR9, NUMBERS, ROUNDS, STRIDE, Nmbr9State, Place


def solo(level: str, seed: int) -> int:
    """Play a solo game at `level` and return its final score."""
    state = NMBR9.new_game(1, seed=seed, options={})
    for _ in range(ROUNDS):
        state = state.apply(0, choose_nmbr9_move(state, 0, level, seed))
    assert state.outcome is not None
    return state.outcome.scores[0]


def test_every_level_plays_legal_moves_in_a_mixed_game() -> None:
    """Easy, medium and hard bots finish a 3-player game with invariants kept after each move."""
    state = NMBR9.new_game(3, seed=21, options={})
    while state.outcome is None:
        for seat in reversed(state.waiting_for()):
            move = choose_nmbr9_move(state, seat, LEVELS[seat], 7)
            assert isinstance(move, Place)
            state = state.apply(seat, move)
            state.check_invariants()
    assert state.turn == 3 * ROUNDS


def test_bots_are_deterministic_for_a_state_and_seed() -> None:
    """The same state and seed give the same move at every level."""
    state = NMBR9.new_game(1, seed=2, options={})
    for _ in range(6):
        state = state.apply(0, choose_nmbr9_move(state, 0, "easy", 0))
    for level in LEVELS:
        assert choose_nmbr9_move(state, 0, level, 5) == choose_nmbr9_move(state, 0, level, 5)


def test_unknown_level_and_nothing_to_place_are_refused() -> None:
    """An unknown level or a seat that already placed raises ValueError."""
    state = NMBR9.new_game(2, seed=1, options={})
    with pytest.raises(ValueError, match="unknown level"):
        choose_nmbr9_move(state, 0, "godlike", 0)
    state = state.apply(0, choose_nmbr9_move(state, 0, "easy", 0))
    with pytest.raises(ValueError, match="nothing to place"):
        choose_nmbr9_move(state, 0, "hard", 0)


def test_deck_left_counts_the_unseen_cards() -> None:
    """The bot knows the deck: two of each number minus the cards revealed so far."""
    state: Nmbr9State = NMBR9.new_game(1, seed=3, options={})
    state = state.apply(0, choose_nmbr9_move(state, 0, "easy", 0))
    left = deck_left(state)
    assert sum(left.values()) == ROUNDS - 2
    assert left == Counter(list(NUMBERS) * 2) - Counter(state.deck[:2])


def test_footing_counts_squares_inside_2x2_blocks() -> None:
    """A 2×3 rectangle is all footing; a lone square or a 1-wide strip is none."""
    rect = sum(1 << (r * STRIDE + c) for r in range(2) for c in range(3))
    strip = sum(1 << (r * STRIDE + 5) for r in range(4))
    assert footing(rect) == 6
    assert footing(strip) == 0
    assert footing(rect | strip) == 6


def test_hard_outscores_easy() -> None:
    """Over the same three decks the hard bot's total beats the easy bot's by a wide margin."""
    seeds = (101, 102, 103)
    easy = sum(solo("easy", s) for s in seeds)
    hard = sum(solo("hard", s) for s in seeds)
    assert hard > easy * 1.2


def test_border_and_pockets_measure_a_ragged_base() -> None:
    """A 3×3 square with its middle missing has one pocket; its border is the 12 squares around."""
    ring = sum(1 << (r * STRIDE + c) for r in range(1, 4) for c in range(1, 4)) - (
        1 << (2 * STRIDE + 2)
    )
    assert pockets(ring) == 1
    assert border(ring) == 12 + 1
    full = ring | 1 << (2 * STRIDE + 2)
    assert pockets(full) == 0
    assert border(full) == 12
