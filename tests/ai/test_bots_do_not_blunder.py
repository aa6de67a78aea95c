"""Positions where a computer player once made a clearly wrong move (found by a QA probe).

Every test builds a concrete position and asserts the sensible move a player expects; the
docstrings say what the bot did before.
"""

from __future__ import annotations

import pytest

from bot.ai import choose_move
from bot.games.rummikub import Draw
from tests.games.test_numfeud import JOKER_EXAMPLE_1, RUN
from tests.games.test_numfeud import rig as rig_numfeud
from tests.games.test_rummikub import rig as rig_rummikub

# --- Rummikub: drawing while holding a valid initial meld ------------------------------------


def test_rummikub_easy_opens_when_its_rack_holds_thirty_points() -> None:
    """Rack B1 B2 B3 B4 + R5 R6 R7 + Y5 Y6 Y7 + B6: 10 + 18 + 18 = 46 points of melds.

    easy's greedy `rack_melds` takes the group B6 Y6 R6 (it ties with the runs and groups are
    listed first), which breaks both runs and leaves 10 + 18 = 28 < 30, so easy draws. Seen in
    `feudbot simulate --game rummikub --seed 2 --players easy,medium,hard,easy`: seat 3 never
    opened and held 25 tiles at turn 47 (rack ... B1 B2 B3 B4 R5 R6 R7 Y5 Y6 Y7 B6 ...).
    """
    rack = ["B1", "B2", "B3", "B4", "R5", "R6", "R7", "Y5", "Y6", "Y7", "B6", "K13"]
    state = rig_rummikub([rack, ["K1", "K2"]], opened=[False, False])
    move = choose_move(state, 0, "easy", 1)
    assert not isinstance(move, Draw), "easy draws while it holds a 46-point opening"
    after = state.apply(0, move)
    assert after.opened[0]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_rummikub_every_level_opens_with_two_melds_worth_thirty_three(level: str) -> None:
    """Rack R3 R4 R5 R6 R7 K7 B7 Y1: R3 R4 R5 (12) + R7 K7 B7 (21) = 33 opens the game.

    medium/hard: rummikub-solver 1.0.0 `RuleSet.solve(..., SolverMode.INITIAL)` returns None
    because its pre-check `_state_ideal_number_counts` builds the Counter from a *set* of the
    rack's numbers ({1,3,4,5,6,7}: 26 < 30) and gives up; `easy_line` then greedily took the
    long run R3..R7 (25) and also failed, so every level drew. (`opening_line` now.)
    """
    rack = ["R3", "R4", "R5", "R6", "R7", "K7", "B7", "Y1"]
    state = rig_rummikub([rack, ["K1", "K2"]], opened=[False, False])
    move = choose_move(state, 0, level, 1)
    assert not isinstance(move, Draw), f"{level} draws while it holds a 33-point opening"
    assert state.apply(0, move).opened[0]


# --- Numfeud: freeing a joker instead of going out -------------------------------------------


def test_numfeud_hard_goes_out_rather_than_free_a_joker() -> None:
    """Board 8G G9 R9 J=Y9 (the joker is yellow or blue 9); hard holds only B9.

    `8F B9 G9 R9 J=Y9` (or `8J ...`) lays the last tile and wins at once. hard plays `8I B9`
    (frees the joker) because `choose_numfeud_move` returns any joker free before it looks at
    going out; it is left holding a joker, which may never be part of the play that goes out.
    """
    state = rig_numfeud(JOKER_EXAMPLE_1, [["B9"], ["Y2", "R1"]])
    move = choose_move(state, 0, "hard", 1)
    after = state.apply(0, move)
    assert after.outcome is not None, f"hard played {move} and still holds {after.racks[0]}"
    assert after.outcome.winners == (0,)


def test_numfeud_hard_does_not_strand_itself_with_a_lone_joker() -> None:
    """Board 8G R5 R6 R7; hard holds J and R8.

    A joker may never be part of the play that empties the inventory, so a rack of only J can
    never go out. Laying the joker first (`8F J=R4 R5 R6 R7`, as medium does) and R8 next turn
    wins; hard plays `8G R5 R6 R7 R8` (its score punishes laying the joker by 20) and keeps a
    lone J, with no legal play at all from then on: it can only pass, and with an empty bag it
    loses the blocked game holding 15 points.
    """
    state = rig_numfeud(RUN, [["J", "R8"], ["Y2", "B11", "G13"]])
    move = choose_move(state, 0, "hard", 1)
    after = state.apply(0, move)
    assert after.racks[0] != ("J",), f"hard played {move} and holds only a joker"


def test_rummikub_easy_adds_every_tile_that_extends_a_run() -> None:
    """Table 1: R5 R6 R7; easy holds R3 R4: `1+R3 R4; done` goes out (no manipulation needed).

    `easy_line` tries each rack tile once, in rack order: R3 does not fit R5 R6 R7 yet, R4 does,
    and R3 is never tried again, so easy plays `1+R4; done` and keeps R3 (medium and hard go out).
    """
    state = rig_rummikub([["R3", "R4"], ["K2", "K3"]], [["R5", "R6", "R7"]], opened=[True, True])
    move = choose_move(state, 0, "easy", 1)
    after = state.apply(0, move)
    assert after.racks[0] == (), f"easy played {move} and kept {after.racks[0]}"


# --- NMBR 9: the medium level collapses on some decks -------------------------------------------


def test_nmbr9_medium_is_not_far_below_the_easy_rule_on_the_same_deck() -> None:
    """`feudbot simulate --game nmbr9 --seed 3 --players medium,medium,medium,medium`.

    Before, seats 0, 2, 3 scored 58, 58, 51 and seat 1 scored 5: its level-blind evaluation (no
    compactness term then, many exact ties broken by the seed) sprawled its base over the table
    (tiles at B1, D16, O15, ...), so only one tile ever lay on level 1; it even declined level-1
    spots for the 1 and the 3 (rounds 9, 10, 15). On the same deck the easy rule (`auto_fit`)
    scores 45 (and in `--players hard,medium,easy,hard` the medium seat scored 5 against 45).
    """
    from bot.games import GAMES

    levels = ["medium"] * 4
    state = GAMES["nmbr9"].new_game(4, seed=3, options={})
    while state.outcome is None:
        seat = state.waiting_for()[0]
        state = state.apply(seat, choose_move(state, seat, levels[seat], 3 * 1000 + state.turn))
    solo = GAMES["nmbr9"].new_game(1, seed=3, options={})
    while solo.outcome is None:
        solo = solo.apply(0, choose_move(solo, 0, "easy", 3 * 1000 + solo.turn))
    easy_score = solo.outcome.scores[0]
    assert state.outcome.scores[1] >= easy_score, (state.outcome.scores, easy_score)
