"""Rummikub properties: notation and JSON round-trips, apply never mutates, tiles conserved."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.rummikub import easy_line
from bot.core.errors import GameError
from bot.games.numtiles import COLOURS
from bot.games.rummikub import (
    RUMMIKUB,
    Done,
    Draw,
    Line,
    Put,
    Reset,
    Resign,
    RummikubMove,
    RummikubState,
    Split,
    Undo,
)

tiles = st.one_of(
    st.just("J"),
    st.builds(lambda c, n: f"{c}{n}", st.sampled_from(COLOURS), st.integers(1, 13)),
)
sources = st.tuples(st.integers(0, 30), tiles)
puts = st.builds(Put, st.integers(0, 30), st.lists(sources, min_size=1, max_size=6).map(tuple))
named_jokers = st.builds(  # a joker named by the tile it stands for in its meld
    lambda c, n: f"J={c}{n}", st.sampled_from(COLOURS), st.integers(1, 13)
)
splits = st.builds(Split, st.integers(1, 30), st.one_of(tiles, named_jokers))
lines = st.builds(
    Line, st.lists(st.one_of(puts, splits), min_size=1, max_size=5).map(tuple), st.booleans()
)
moves = st.one_of(lines, st.sampled_from([Done(), Undo(), Reset(), Draw(), Resign()]))


@given(moves)
def test_notation_round_trips(move: RummikubMove) -> None:
    """parse_move(str(move)) == move for every move value."""
    assert RUMMIKUB.parse_move(str(move)) == move


def random_move(state: RummikubState, data: st.DataObject) -> RummikubMove:
    """Draw a move: often a legal easy turn, else random steps (maybe illegal) or a command."""
    kind = data.draw(st.sampled_from(["easy", "easy", "steps", "steps", "undo", "done", "draw"]))
    seat = state.to_move
    if kind == "easy":
        line = easy_line(state, seat)
        if line is not None:
            return line
    if kind == "steps":
        rack = state.rack(seat)
        table = state.working_table
        step_sources = []
        for _ in range(data.draw(st.integers(1, 3))):
            if table and data.draw(st.booleans()):
                n = data.draw(st.integers(1, len(table)))
                if table[n - 1]:
                    step_sources.append((n, data.draw(st.sampled_from(table[n - 1]))))
                    continue
            if rack:
                step_sources.append((0, data.draw(st.sampled_from(rack))))
        if step_sources:
            target = data.draw(st.integers(0, len(table)))
            return Line((Put(target, tuple(step_sources)),))
    if kind == "undo":
        return Undo()
    if kind == "done":
        return Done()
    return Draw()


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), data=st.data())
def test_random_games_keep_invariants(seed: int, players: int, data: st.DataObject) -> None:
    """Apply never mutates, tiles stay conserved, JSON round-trips, refused moves change nothing."""
    state = RUMMIKUB.new_game(players, seed=seed, options={})
    for _ in range(60):
        if state.outcome is not None:
            break
        move = random_move(state, data)
        before = state.to_json()
        try:
            after = state.apply(state.to_move, move)
        except GameError:
            assert state.to_json() == before
            continue
        assert state.to_json() == before  # apply never mutates its input
        after.check_invariants()  # pool + racks + table (+ draft) = 106, scores consistent
        assert RUMMIKUB.from_json(after.to_json()) == after
        state = after
