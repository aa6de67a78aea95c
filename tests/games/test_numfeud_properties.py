"""Numfeud properties: random legal games keep every invariant; the play search is complete."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import permutations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.errors import GameError
from bot.core.game import Pass
from bot.core.grid import Anchor
from bot.games.numfeud import (
    NUMFEUD,
    SIZE,
    TILE_COUNTS,
    Lay,
    NumfeudMove,
    NumfeudState,
    Resign,
    Shift,
    Swap,
    Turn,
    may_lay,
    physical,
)

tiles = st.builds(lambda c, n: f"{c}{n}", st.sampled_from("RBYG"), st.integers(1, 13))
tokens = st.one_of(tiles, tiles.map(lambda t: f"J={t}"))
anchors = st.builds(Anchor, st.integers(0, 14), st.integers(0, 14), st.booleans())
cells = st.tuples(st.integers(0, 14), st.integers(0, 14))
steps = st.one_of(
    st.builds(Lay, anchors, st.lists(tokens, min_size=1, max_size=6).map(tuple)),
    st.builds(Shift, cells, cells),
)
moves = st.one_of(
    st.builds(Turn, st.lists(steps, min_size=1, max_size=4).map(tuple)),
    st.builds(Swap, st.lists(st.one_of(tiles, st.just("J")), min_size=1, max_size=5).map(tuple)),
    st.just(Pass()),
    st.just(Resign()),
)


@given(moves)
def test_notation_round_trips(move: NumfeudMove) -> None:
    """parse_move(str(move)) == move for every move value."""
    assert NUMFEUD.parse_move(str(move)) == move


def random_game(seed: int, turns: int) -> list[NumfeudState]:
    """Play `turns` random legal moves (lays, passes, swaps); return every state."""
    rng = random.Random(seed)
    state = NUMFEUD.new_game(2, seed=seed, options={})
    states = [state]
    for _ in range(turns):
        if state.outcome is not None:
            break
        seat = state.to_move
        plays = list(state.plays(seat))
        roll = rng.random()
        if plays and roll < 0.8:
            move: NumfeudMove = NUMFEUD.parse_move(str(rng.choice(plays)))
        elif roll < 0.9 and state.swapped[seat] < 13 and len(state.rack(seat)) < 20 and state.bag:
            move = Swap((rng.choice(state.rack(seat)),))
        else:
            move = Pass()
        try:
            state = state.apply(seat, move)
        except GameError:
            state = state.apply(seat, plays[0]) if plays else state.apply(seat, Resign())
        states.append(state)
    return states


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.data())
def test_random_legal_games_keep_the_invariants(seed: int, data: st.DataObject) -> None:
    """Tiles conserved, lines valid, board connected, JSON round-trips, apply never mutates."""
    states = random_game(seed, 60)
    for state in states:
        state.check_invariants()
        assert NUMFEUD.from_json(state.to_json()) == state
    state = data.draw(st.sampled_from(states))
    if state.outcome is None:
        before = state.to_json()
        move = data.draw(moves)
        message = ""
        try:
            state.apply(state.to_move, move)
        except GameError as error:
            message = str(error)
        assert len(message) <= 200
        assert state.to_json() == before


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_every_searched_play_is_legal(seed: int) -> None:
    """Each play the search yields is accepted by apply and leaves a valid board."""
    for state in random_game(seed, 30)[::5]:
        if state.outcome is not None:
            continue
        for play in state.plays(state.to_move):
            state.apply(state.to_move, play).check_invariants()


def brute_force_boards(state: NumfeudState, seat: int) -> set[tuple[str, ...]]:
    """Every board one single-line lay or joker free of the inventory (no jokers) reaches."""
    rack = state.rack(seat)
    out: set[tuple[str, ...]] = set()
    for across in (True, False):
        for row in range(SIZE):
            for col in range(SIZE):
                anchor = Anchor(row, col, across)
                for length in range(1, SIZE - (col if across else row) + 1):
                    cells = [anchor.step(i) for i in range(length)]
                    holes = [i for i, (r, c) in enumerate(cells) if not state.board[r * SIZE + c]]
                    if len(holes) > len(rack):
                        break
                    if not holes:
                        continue
                    for chosen in set(permutations(rack, len(holes))):
                        codes = [state.board[r * SIZE + c] for r, c in cells]
                        for h, tile in zip(holes, chosen, strict=True):
                            codes[h] = tile
                        try:
                            after = state.apply(seat, Turn((Lay(anchor, tuple(codes)),)))
                        except GameError:
                            continue
                        out.add(after.board)
    for cell, code in enumerate(state.board):  # a rack tile written over a board joker frees it
        if code.startswith("J"):
            for tile in set(rack):
                lay = Lay(Anchor(*divmod(cell, SIZE), True), (tile,))
                try:
                    out.add(state.apply(seat, Turn((lay,))).board)
                except GameError:
                    continue
    return out


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(3, 4))
def test_the_search_finds_every_single_line_lay(seed: int, keep: int) -> None:
    """Against brute force over every window and tile order: the same boards are reachable."""
    states = [s for s in random_game(seed, 24) if s.outcome is None and any(s.board)]
    if not states:
        return
    state = states[-1]
    seat = state.to_move
    rack = tuple(t for t in state.rack(seat) if t != "J")[:keep]
    state = replace(state, racks=tuple(rack if s == seat else r for s, r in enumerate(state.racks)))
    searched = {state.apply(seat, play).board for play in state.plays(seat)}
    assert searched == brute_force_boards(state, seat)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_no_play_is_proved_only_where_the_search_finds_none(seed: int) -> None:
    """Where `may_lay` rules every lay out, the search (moved tiles too) finds none either."""
    rng = random.Random(seed)
    for state in random_game(seed, 30)[1::6]:
        if state.outcome is not None or not any(state.board):
            continue
        unseen = Counter(TILE_COUNTS)
        unseen.subtract(physical(code) for code in state.board if code)
        pool = sorted(tile for tile in (+unseen).elements() if tile != "J")
        for _ in range(3):
            rack = tuple(rng.sample(pool, rng.randint(1, 3)))
            if not may_lay(state.board, rack):
                assert not replace(state, racks=(rack, state.racks[1])).has_legal_play(0)
