"""Properties of random legal Webfeud games: conservation, immutability, JSON, termination."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.wordgen import generate_moves
from bot.core.game import MoveRecord, Pass
from bot.games.webfeud import WEBFEUD
from bot.games.wordgame import Resign, Swap, WordMove, WordState

MAX_TURNS = 200  # far more than any Webfeud game lasts (the bag empties or passes end it)


def random_move(state: WordState, data: st.DataObject) -> WordMove:
    """Draw a legal move: mostly a generated placement, sometimes a swap, pass or resign."""
    seat = state.to_move
    kind = data.draw(st.sampled_from(["place"] * 8 + ["swap", "pass"]))
    if kind == "place":
        candidates = generate_moves(state, seat)
        if candidates:
            index = data.draw(st.integers(0, len(candidates) - 1))
            return candidates[index].move
    if kind == "swap" and len(state.bag) >= state.variant.swap_min_bag:
        rack = state.racks[seat]
        n = data.draw(st.integers(1, len(rack)))
        return Swap(rack[:n])
    return Pass()


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_random_legal_games(seed: int, data: st.DataObject) -> None:
    """Tiles are conserved, apply never mutates, JSON round-trips, and every game ends."""
    state = WEBFEUD.new_game(2, seed=seed, options={})
    for _ in range(MAX_TURNS):
        if state.outcome is not None:
            break
        move = random_move(state, data)
        before = state.to_json()
        after = state.apply(state.to_move, move)
        assert state.to_json() == before  # apply never mutates its input
        after.check_invariants()  # bag + racks + board = 104, scores add up
        assert WEBFEUD.from_json(after.to_json()) == after
        state = after
    assert state.outcome is not None, "the game did not end"
    assert set(state.outcome.winners) <= {0, 1}
    assert state.outcome.winners


def test_resign_mid_game_keeps_invariants() -> None:
    """A resignation after some moves keeps the state consistent."""
    state = WEBFEUD.new_game(2, seed=3, options={})
    for _ in range(4):
        state = state.apply(state.to_move, generate_moves(state, state.to_move)[0].move)
    state = state.apply(1, Resign())
    state.check_invariants()
    assert state.outcome is not None
    assert state.outcome.winners == (0,)
    assert isinstance(state.history[-1], MoveRecord)
