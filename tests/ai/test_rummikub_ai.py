"""Rummikub bots: every move legal, easy never manipulates, hard matches the solver's optimum."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from functools import cache

import pytest

from bot.ai.rummikub import assist_line, choose_rummikub_move, plan_steps, suggest_move
from bot.games.numtiles import COLOURS, check_meld
from bot.games.rummikub import RUMMIKUB, Draw, Line, Put, RummikubState, Split

LEVELS = ("easy", "medium", "hard")


def placed_count(state: RummikubState, seat: int, move: object) -> int:
    """Return how many rack tiles `move` places (0 for a draw)."""
    if isinstance(move, Draw):
        return 0
    after = state.apply(seat, move)
    after.check_invariants()
    return len(state.racks[seat]) - len(after.racks[seat])


def solver_optimum(state: RummikubState, seat: int) -> int:
    """Call rummikub-solver directly: the most tiles `seat` can place (0: none)."""
    from rummikub_solver import RuleSet

    from bot.ai.rummikub import _ruleset, _to_lib

    ruleset: RuleSet = _ruleset()
    game = ruleset.new_game()
    game.add_rack(*(_to_lib(t) for t in state.racks[seat]))
    table = [t for meld in state.table for t in meld]
    if table and state.opened[seat]:
        game.add_table(*(_to_lib(t) for t in table))
    game.initial = not state.opened[seat]
    solution = ruleset.solve(game)
    return len(solution.tiles) if solution else 0


@cache
def game_positions(seed: int, count: int) -> tuple[RummikubState, ...]:
    """Return positions from a game of hard bots (each before a move), computed once."""
    state = RUMMIKUB.new_game(3, seed=seed, options={})
    out = []
    while state.outcome is None and len(out) < count:
        out.append(state)
        state = state.apply(
            state.to_move, choose_rummikub_move(state, state.to_move, "hard", state.turn)
        )
    return tuple(out)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves(level: str) -> None:
    """Each level's move on real game positions applies without error."""
    for state in game_positions(seed=3, count=18):
        move = choose_rummikub_move(state, state.to_move, level, seed=1)
        assert isinstance(move, Line | Draw)
        if isinstance(move, Line):
            assert move.done
        placed_count(state, state.to_move, move)


def test_easy_never_manipulates() -> None:
    """Easy plays only rack tiles: new melds and tiles added to melds, never a split or a move."""
    for state in game_positions(seed=3, count=18):
        move = choose_rummikub_move(state, state.to_move, "easy", seed=2)
        if isinstance(move, Line):
            for step in move.steps:
                assert isinstance(step, Put)
                assert all(meld == 0 for meld, _ in step.sources)


def test_initial_meld_from_the_rack_only() -> None:
    """Before opening, hard lays only new melds from its rack, worth at least 30."""
    state = RUMMIKUB.rigged(
        [["R10", "R11", "R12", "B2", "B3", "K7"], ["K1", "K2"]],
        [["B4", "B5", "B6"]],
        opened=[False, True],
    )
    move = choose_rummikub_move(state, 0, "hard", seed=1)
    assert isinstance(move, Line)
    for step in move.steps:
        assert isinstance(step, Put)
        assert step.target == 0
        assert all(meld == 0 for meld, _ in step.sources)
    assert sum(check_meld(t for _, t in s.sources).value for s in move.steps) >= 30


def test_hard_draws_when_nothing_fits() -> None:
    """With no meld worth 30 on its rack, every level draws."""
    state = RUMMIKUB.rigged([["R1", "B3", "K9", "Y12"], ["K1", "K2"]])
    for level in LEVELS:
        assert choose_rummikub_move(state, 0, level, seed=1) == Draw()


def test_hard_splits_a_run_to_place_a_tile() -> None:
    """Hard places R6 into R4…R8 (only possible by splitting it)."""
    state = RUMMIKUB.rigged([["R6", "B1"], ["K1", "K2"]], [["R4", "R5", "R6", "R7", "R8"]])
    move = choose_rummikub_move(state, 0, "hard", seed=1)
    assert placed_count(state, 0, move) == 1


def test_hard_retrieves_and_replays_a_joker() -> None:
    """Hard swaps R6 for the joker of R5 J R7 and plays the joker with B9 B10."""
    state = RUMMIKUB.rigged([["R6", "B9", "B10"], ["K1", "K2"]], [["R5", "J", "R7"]])
    move = choose_rummikub_move(state, 0, "hard", seed=1)
    assert placed_count(state, 0, move) == 3


def test_hard_handles_joker_melds_the_solver_leaves_out() -> None:
    """A group of four with a joker (not in the solver's list) still lets hard play."""
    state = RUMMIKUB.rigged([["K9", "K10", "K11", "B1"], ["K1", "K2"]], [["R5", "B5", "Y5", "J"]])
    move = choose_rummikub_move(state, 0, "hard", seed=1)
    assert placed_count(state, 0, move) >= 3


@pytest.mark.parametrize("seed", [7, 8])
def test_hard_places_as_many_tiles_as_the_solver(seed: int) -> None:
    """On game positions hard places at least the solver's optimum number of tiles."""
    for state in game_positions(seed=seed, count=20):
        seat = state.to_move
        move = choose_rummikub_move(state, seat, "hard", seed=1)
        assert placed_count(state, seat, move) >= solver_optimum(state, seat)


def test_plan_steps_keeps_extends_and_rebuilds() -> None:
    """Unchanged melds get no step, a grown meld is extended, others are rebuilt."""
    table = (("R5", "R6", "R7"), ("K5", "B5", "Y5", "R5"), ("B1", "B2", "B3"))
    targets = [("R5", "R6", "R7", "R8"), ("B5", "Y5", "R5"), ("K5", "K6", "K7"), table[2]]
    steps = plan_steps(table, ["R8", "K6", "K7"], targets)
    assert steps[0] == Put(1, ((0, "R8"),))
    assert all(step.target != 3 for step in steps if isinstance(step, Put))
    assert not any(isinstance(step, Split) for step in steps)


def test_assist_rearranges_the_table_for_named_tiles() -> None:
    """assist=on: R6 fits into R4…R8 by a split the solver finds."""
    state = RUMMIKUB.rigged([["R6", "B1"], ["K1", "K2"]], [["R4", "R5", "R6", "R7", "R8"]])
    line = assist_line(state, 0, ["R6"])
    assert line is not None
    after = state.apply(0, Line(line.steps, done=True))
    assert Counter(after.racks[0]) == Counter(["B1"])
    assert assist_line(state, 0, ["B1"]) is None


def test_hint_is_the_hard_move() -> None:
    """suggest_move gives the hard bot's move."""
    state = RUMMIKUB.rigged([["R6", "B1"], ["K1", "K2"]], [["R4", "R5", "R6", "R7", "R8"]])
    assert suggest_move(state, 0) == choose_rummikub_move(state, 0, "hard", state.turn)


def test_four_player_bot_game_to_the_end() -> None:
    """Easy, medium and two hard seats play a full game; invariants hold after every move."""
    levels = ("easy", "medium", "hard", "hard")
    state = RUMMIKUB.new_game(4, seed=2, options={})
    for _ in range(1000):
        if state.outcome is not None:
            break
        seat = state.to_move
        state = state.apply(seat, choose_rummikub_move(state, seat, levels[seat], state.turn))
        state.check_invariants()
    assert state.outcome is not None
    assert sum(state.scores[s] for s in state.outcome.winners) > 0
    assert RUMMIKUB.from_json(state.to_json()) == state


def test_unknown_level_is_refused() -> None:
    """Only easy, medium and hard exist."""
    state = RUMMIKUB.new_game(2, seed=1, options={})
    with pytest.raises(ValueError, match="easy"):
        choose_rummikub_move(state, 0, "expert", seed=1)


def test_solver_is_not_imported_at_start_up() -> None:
    """Importing the game and the bot module loads neither rummikub_solver nor cvxpy."""
    code = (
        "import sys, bot.games.rummikub, bot.ai.rummikub; "
        "print(any(m.split('.')[0] in {'rummikub_solver', 'cvxpy', 'numpy'} for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


def test_colour_order_matches_the_solver() -> None:
    """Our K B Y R map onto the solver's BLACK BLUE ORANGE RED, numbers 1–13."""
    from bot.ai.rummikub import _from_lib, _to_lib

    for c in COLOURS:
        for n in (1, 7, 13):
            assert _from_lib(_to_lib(f"{c}{n}")) == f"{c}{n}"
    assert _from_lib(_to_lib("J")) == "J"
