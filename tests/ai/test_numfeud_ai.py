"""Numfeud computer players: legal, deterministic, and each level picks as documented."""

from __future__ import annotations

import pytest

from bot.ai.numfeud import choose_numfeud_move, laid_tiles
from bot.core.game import Pass
from bot.games.numfeud import NUMFEUD, Shift, Swap, Turn
from tests.games.test_numfeud import JOKER_EXAMPLE_1, RUN, rig

LEVELS = ("easy", "medium", "hard")


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_complete_legal_games(level: str) -> None:
    """Two bots of a level play a whole game; every move is legal and invariants hold."""
    state = NUMFEUD.new_game(2, seed=3, options={})
    for _ in range(400):
        if state.outcome is not None:
            break
        seat = state.to_move
        move = choose_numfeud_move(state, seat, level, state.turn)
        assert NUMFEUD.parse_move(str(move)) == move
        state = state.apply(seat, move)
        state.check_invariants()
    assert state.outcome is not None


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_move(level: str) -> None:
    """choose_numfeud_move is a function of state, seat, level and seed."""
    state = rig(RUN, [["R4", "R8", "B6", "Y6", "G6"], ["Y2"]])
    moves = {str(choose_numfeud_move(state, 0, level, 9)) for _ in range(3)}
    assert len(moves) == 1


def test_easy_lays_few_tiles_medium_lays_many() -> None:
    """Easy takes one of the smallest plays (or passes), medium one of the largest."""
    state = rig(RUN, [["R3", "R4", "R8", "R9", "B6", "Y1"], ["Y2"]])
    easy = [choose_numfeud_move(state, 0, "easy", seed) for seed in range(30)]
    plays = [move for move in easy if isinstance(move, Turn)]
    assert all(len(laid_tiles(state, move)) == 1 for move in plays)
    assert 0 < easy.count(Pass()) < 20  # a beginner misses plays, about a third of the time
    medium = choose_numfeud_move(state, 0, "medium", 1)
    assert isinstance(medium, Turn)
    assert len(laid_tiles(state, medium)) == 4


def test_hard_frees_a_joker_when_it_can() -> None:
    """A joker freed is worth 15 and fits anywhere: hard takes it."""
    state = rig(JOKER_EXAMPLE_1, [["B9", "R3", "R4", "Y1"], ["Y2"]])
    move = choose_numfeud_move(state, 0, "hard", 1)
    assert str(move) in ("8I B9", "8I Y9")


def test_hard_goes_out_when_it_can() -> None:
    """Laying the last tiles wins the game: hard prefers it to anything else."""
    state = rig(RUN, [["R8", "R9"], ["Y2"]])
    move = choose_numfeud_move(state, 0, "hard", 1)
    assert state.apply(0, move).outcome is not None


def test_without_a_play_easy_passes_and_hard_swaps_its_highest_tile() -> None:
    """Nothing fits: pass, or (hard, with swaps left) swap the highest tile."""
    state = rig({}, [["R1", "B3", "Y13"], ["Y2"]])
    assert choose_numfeud_move(state, 0, "easy", 1) == Pass()
    assert choose_numfeud_move(state, 0, "hard", 1) == Swap(("Y13",))
    capped = rig({}, [["R1", "B3", "Y13"], ["Y2"]], swapped=(13, 0))
    assert choose_numfeud_move(capped, 0, "hard", 1) == Pass()


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_medium_and_hard_rearrange_when_no_line_fits(level: str) -> None:
    """With no single-line play, they move a spare fourth tile into a new line (example 2)."""
    group = {"H8": "R9", "I8": "B9", "J8": "Y9", "K8": "G9"}
    state = rig(group, [["B9", "R1", "Y13"], ["Y2"]])
    move = choose_numfeud_move(state, 0, level, 1)
    assert isinstance(move, Turn)
    assert isinstance(move.steps[0], Shift)
    assert laid_tiles(state, move) == ["B9"]
    state.apply(0, move).check_invariants()
    assert choose_numfeud_move(state, 0, "easy", 1) in (Pass(), Swap(("Y13",)))
