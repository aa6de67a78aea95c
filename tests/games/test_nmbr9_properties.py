"""Properties of NMBR 9: notation and JSON round-trips, immutability, random games end."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.errors import Reason, RuleError
from bot.games.nmbr9 import (
    NMBR9,
    ROTATIONS,
    ROUNDS,
    SHAPE,
    SIZE,
    Nmbr9State,
    Place,
    legal_placements,
    parse_nmbr9_move,
)

places = st.builds(
    Place, st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.sampled_from(ROTATIONS)
)


@given(places)
def test_notation_round_trips(move: Place) -> None:
    """parse_move(str(move)) == move for every cell and turn."""
    assert parse_nmbr9_move(str(move)) == move
    assert NMBR9.parse_move(str(move).lower()) == move


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(1, 4),
    data=st.data(),
)
def test_random_legal_games(seed: int, players: int, data: st.DataObject) -> None:
    """Random legal placements in random seat order: no mutation, JSON round-trips, 20 rounds."""
    state = NMBR9.new_game(players, seed=seed, options={})
    rounds_seen = 0
    while state.outcome is None:
        waiting = state.waiting_for()
        seat = data.draw(st.sampled_from(waiting))
        moves = legal_placements(state, seat)
        assert moves, "a tile always fits somewhere on the 26×26 table"
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        before = state.to_json()
        after = state.apply(seat, move)
        assert state.to_json() == before  # apply never mutates its input
        after.check_invariants()  # deck conserved, every tile legal, scores add up
        again = NMBR9.from_json(after.to_json())
        assert again == after
        assert again.displays == after.displays
        rounds_seen = max(rounds_seen, after.round)
        state = after
    assert rounds_seen == ROUNDS
    assert state.turn == ROUNDS * players
    assert state.outcome.scores == state.scores
    best = max(state.scores)
    assert state.outcome.winners == tuple(s for s in range(players) if state.scores[s] == best)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), move=places)
def test_a_refused_first_tile_is_only_ever_off_the_table(seed: int, move: Place) -> None:
    """On an empty display a placement is legal exactly when its turned box stays on the table."""
    state: Nmbr9State = NMBR9.new_game(1, seed=seed, options={})
    shape = SHAPE[state.deck[0], move.rotation]
    fits = move.row + shape.height <= SIZE and move.col + shape.width <= SIZE
    if fits:
        assert state.apply(0, move).display(0).occupied[0]
    else:
        with pytest.raises(RuleError) as info:
            state.apply(0, move)
        assert info.value.reason is Reason.OUT_OF_BOUNDS


def brute_force(state: Nmbr9State) -> set[tuple[int, int, int, int]]:
    """Return (level, row, col, turn) of every legal placement, testing each corner one by one."""
    display, number = state.display(0), state.card
    assert number is not None
    out = set()
    for rotation in ROTATIONS:
        shape = SHAPE[number, rotation]
        for row in range(SIZE - shape.height + 1):
            for col in range(SIZE - shape.width + 1):
                level = display.level_for(shape.mask_at(row, col), shape.rim_at(row, col))
                if level >= 0:
                    out.add((level, row, col, rotation))
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), data=st.data())
def test_bit_parallel_listing_matches_brute_force(seed: int, data: st.DataObject) -> None:
    """`Display.fits` lists exactly the placements a square-by-square check accepts."""
    state = NMBR9.new_game(1, seed=seed, options={})
    for _ in range(data.draw(st.integers(1, ROUNDS - 1))):
        fits = state.display(0).fits(state.card, all_rotations=True)  # type: ignore[arg-type]
        high = max(f.level for f in fits)
        pool = [f for f in fits if f.level == high] if data.draw(st.booleans()) else fits
        fit = pool[data.draw(st.integers(0, len(pool) - 1))]
        state = state.apply(0, Place(fit.row, fit.col, fit.rotation))
    fast = state.display(0).fits(state.card, all_rotations=True)  # type: ignore[arg-type]
    assert {(f.level, f.row, f.col, f.rotation) for f in fast} == brute_force(state)
    for fit in fast:  # the mask is the tile's squares at that corner
        assert fit.mask == SHAPE[state.card, fit.rotation].mask_at(fit.row, fit.col)  # type: ignore[index]
