"""NMBR 9 bots: legal, deterministic, aware of the deck, and stronger as the level rises."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.ai.nmbr9 import (
    HARD_SEARCH,
    LEVELS,
    VALUE_FEATURES,
    Search,
    border,
    choose_hard,
    choose_nmbr9_move,
    deck_left,
    display_value,
    expected_value,
    footing,
    pockets,
    reach,
    reaches,
    value_features,
)
from bot.ai.nmbr9_value import VALUE
from bot.games.nmbr9 import (
    COPIES,
    NMBR9,
    NUMBERS,
    ROUNDS,
    SHAPE,
    STRIDE,
    Display,
    Nmbr9State,
    Place,
)


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


def test_stronger_levels_score_more_on_the_same_decks() -> None:
    """Over three decks easy < medium < the hard search with its one-card expectimax only."""
    seeds = (101, 102, 103)
    easy, medium = (sum(solo(level, s) for s in seeds) for level in ("easy", "medium"))
    light = Search(deep=0)
    hard = 0
    for seed in seeds:
        display, left = Display(), [COPIES] * len(NUMBERS)
        for card in NMBR9.new_game(1, seed=seed, options={}).deck:
            left[card] -= 1
            fit = choose_hard(display, card, left, seed, light)
            assert fit is not None
            hard += card * fit.level
            display = display.add(fit.mask, card, fit.level)
    assert easy < medium < hard
    assert hard > medium * 1.25  # 1.7 times over 200 decks; three decks are noisy


def test_hard_beats_medium_by_far_on_a_fixed_deck() -> None:
    """The full hard player (two-card expectimax) outscores medium by half again on deck 104."""
    assert HARD_SEARCH.deep > 1
    assert solo("hard", 104) > solo("medium", 104) * 1.5


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


def nine_block() -> Display:
    """Two 9s, one turned 180, filling the block A1–E4 of the table."""
    display = Display().add(SHAPE[9, 0].mask_at(0, 0), 9, 0)
    return display.add(SHAPE[9, 180].mask_at(0, 2), 9, 0)


def test_reach_needs_two_tiles_below() -> None:
    """One tile offers no place above it; two 9s side by side take a 5 on level 1."""
    alone = Display().add(SHAPE[9, 0].mask_at(0, 0), 9, 0)
    assert reach(alone, 1) == (0, 0)
    block = nine_block()
    numbers, covered = reach(block, 1)
    assert numbers >> 5 & 1
    assert covered
    assert covered & ~block.occupied[0] == 0
    assert reaches(block) == [(numbers, covered), (0, 0), (0, 0), (0, 0)]


def test_reaches_reuse_the_levels_a_placement_cannot_change() -> None:
    """Reaches computed from the parent display's equal a fresh computation after any placement."""
    state = NMBR9.new_game(1, seed=4, options={})
    for _ in range(14):
        display = state.display(0)
        number = state.card
        assert number is not None
        parent = reaches(display) if not display.empty else None
        for fit in display.fits(number)[::7]:
            after = display.add(fit.mask, number, fit.level)
            assert reaches(after, parent, fit.level) == reaches(after)
        state = state.apply(0, choose_nmbr9_move(state, 0, "medium", 0))


def test_value_weights_match_the_features() -> None:
    """Every row of the learned weights has one weight per feature; no card left is worth 0."""
    display = nine_block()
    left = [2] * 9 + [0]  # both 9s are on the table
    assert len(VALUE) == ROUNDS
    assert all(len(row) == len(VALUE_FEATURES) for row in VALUE)
    assert len(value_features(display, left)) == len(VALUE_FEATURES)
    assert display_value(display, [0] * len(NUMBERS)) == 0.0
    assert display_value(display, left) != 0.0


def test_expected_value_of_a_last_card_is_its_best_points() -> None:
    """With one card unseen, the expectation is that card's best number × level."""
    display = nine_block()
    for number in (1, 5, 9):
        left = [0] * len(NUMBERS)
        left[number] = 1
        best = max(number * fit.level for fit in display.fits(number))
        assert expected_value(display, left, answers=6) == best


def test_two_bots_of_one_level_turn_their_first_tiles_apart() -> None:
    """Bots of one level see the same cards: each first tile turned by seat, so that their
    displays differ (they played identical games); seat 0 keeps the deadline rule's turn.
    """
    for number in NUMBERS:
        rest = [n for n in NUMBERS for _ in range(COPIES)]
        rest.remove(number)
        state = NMBR9.new_game(3, seed=1, options={}, deck=(number, *rest))
        for level in ("medium", "hard"):
            first = [choose_nmbr9_move(state, seat, level, 1) for seat in (0, 1, 2)]
            assert first[1] != first[2], (number, level)
            assert first[0] == choose_nmbr9_move(
                NMBR9.new_game(1, seed=1, options={}, deck=state.deck), 0, level, 1
            )
            for seat, move in enumerate(first):  # each a legal first tile
                state.apply(seat, move)
