"""Rummikub rules: the deal, melds, the initial meld, manipulation, jokers, drafts, the end."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from datetime import timedelta
from functools import partial

import pytest

from bot.core.errors import InvalidMove, Reason, RuleError
from bot.games.numtiles import COLOURS
from bot.games.rummikub import (
    RUMMIKUB,
    Done,
    Draw,
    Line,
    Put,
    Reset,
    Resign,
    RummikubState,
    Split,
    Undo,
    final_scores,
)
from tests.games.moves import play_text, refusal_of

play = partial(play_text, RUMMIKUB)
refusal = partial(refusal_of, RUMMIKUB)

FULL_RUNS = [tuple(f"{c}{n}" for n in range(1, 14)) for c in COLOURS for _ in range(2)]


def rig(
    racks: list[list[str]],
    table: list[list[str]] | None = None,
    *,
    opened: list[bool] | None = None,
    to_move: int = 0,
) -> RummikubState:
    """Set up a position; the unused tiles form the pool (sorted: K1 K1 K2 … first)."""
    table = table or []
    state = RUMMIKUB.rigged(
        racks, table, opened=opened or [bool(table)] * len(racks), to_move=to_move
    )
    state.check_invariants()
    return state


def sorted_table(state: RummikubState) -> list[list[str]]:
    """Return the committed melds as sorted lists, in a canonical order."""
    return sorted(sorted(meld) for meld in state.table)


# --- the set-up -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_gives_fourteen_each_and_conserves_106(players: int) -> None:
    """106 tiles; 14 on each rack; the rest is the pool."""
    state = RUMMIKUB.new_game(players, seed=5, options={})
    assert all(len(rack) == 14 for rack in state.racks)
    assert len(state.pool) == 106 - 14 * players
    assert state.table == ()
    assert state.opened == (False,) * players
    state.check_invariants()


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    """One or five players are refused."""
    with pytest.raises(RuleError) as info:
        RUMMIKUB.new_game(players, seed=1, options={})
    assert info.value.reason is Reason.BAD_PLAYER_COUNT


def test_the_seed_fixes_the_deal() -> None:
    """The same seed deals the same racks and pool; another seed does not."""
    a = RUMMIKUB.new_game(3, seed=11, options={})
    assert a == RUMMIKUB.new_game(3, seed=11, options={})
    assert a.racks != RUMMIKUB.new_game(3, seed=12, options={}).racks


def test_options_time_and_assist() -> None:
    """time=none|15s|30s|60s (none by default) sets the turn deadline; assist=off|on."""
    assert RUMMIKUB.turn_timeout(RUMMIKUB.parse_options({})) is None  # a game made without time=
    assert RUMMIKUB.new_game(2, seed=1, options={}).option("time") == "none"
    assert RUMMIKUB.turn_timeout({"time": "30s"}) == timedelta(seconds=30)
    state = RUMMIKUB.new_game(2, seed=1, options={"time": "15s", "assist": "on"})
    assert state.option("time") == "15s"
    assert state.option("assist") == "on"
    with pytest.raises(RuleError) as info:
        RUMMIKUB.new_game(2, seed=1, options={"time": "90s"})
    assert info.value.reason is Reason.BAD_OPTION


# --- the initial meld -----------------------------------------------------------------------


def test_initial_meld_of_thirty_from_the_rack() -> None:
    """R10 R11 R12 (33) opens; the player is then marked as having melded."""
    state = rig([["R10", "R11", "R12", "B1"], ["K1", "K2"]])
    state = play(state, 0, "R10 R11 R12; done")
    assert state.table == (("R10", "R11", "R12"),)
    assert state.opened == (True, False)
    assert state.rack(0) == ("B1",)
    assert state.to_move == 1


def test_initial_meld_below_thirty_is_refused() -> None:
    """R5 B5 Y5 (15) is not enough for the initial meld."""
    state = rig([["R5", "B5", "Y5", "B1"], ["K1", "K2"]])
    state = play(state, 0, "R5 B5 Y5")
    error = refusal(state, 0, "done")
    assert error.reason is Reason.INITIAL_MELD_TOO_LOW
    assert "15" in error.message


def test_initial_meld_may_be_several_melds() -> None:
    """R5 B5 Y5 (15) plus K4 K5 K6 (15) make 30."""
    state = rig([["R5", "B5", "Y5", "K4", "K5", "K6", "B1"], ["K1", "K2"]])
    state = play(state, 0, "R5 B5 Y5; K4 K5 K6; done")
    assert len(state.table) == 2


def test_an_initial_meld_one_point_short_is_refused() -> None:
    """R2 R3 R4 (9) and K5 B5 Y5 R5 (20) make 29: one short of 30, so done refuses them."""
    state = rig([["R2", "R3", "R4", "K5", "B5", "Y5", "R5", "B1"], ["K1", "K2"]])
    state = play(state, 0, "R2 R3 R4; K5 B5 Y5 R5")
    error = refusal(state, 0, "done")
    assert error.reason is Reason.INITIAL_MELD_TOO_LOW
    assert "29" in error.message
    assert state.opened == (False, False)


def test_an_initial_meld_counts_only_the_players_new_melds() -> None:
    """K11 K12 K13 (36) lies on the table already: R5 B5 Y5 (15) still opens with only 15."""
    state = rig(
        [["R5", "B5", "Y5", "B1"], ["K1", "K2"]], [["K11", "K12", "K13"]], opened=[False, True]
    )
    state = play(state, 0, "R5 B5 Y5")
    error = refusal(state, 0, "done")
    assert error.reason is Reason.INITIAL_MELD_TOO_LOW
    assert "worth 15" in error.message


def test_initial_meld_joker_counts_as_its_tile() -> None:
    """R9 J R11 is worth 30 (the joker counts as R10) and opens."""
    state = rig([["R9", "J", "R11", "B1"], ["K1", "K2"]])
    state = play(state, 0, "R9 J R11; done")
    assert state.opened[0]


def test_initial_meld_may_grow_its_own_new_meld() -> None:
    """Within the initial meld the player may add to a meld laid this turn."""
    state = rig([["R8", "R9", "R10", "R11", "B1"], ["K1", "K2"]])
    state = play(state, 0, "R8 R9 R10; 1+R11; done")
    assert state.table == (("R8", "R9", "R10", "R11"),)


def test_initial_meld_allows_no_manipulation() -> None:
    """Before the initial meld a player may not add to, take from or split table melds."""
    state = rig(
        [["R10", "R11", "R12", "K8"], ["K1", "K2"]],
        [["K5", "K6", "K7"]],
        opened=[False, True],
    )
    for text in ("1+K8", "R10 R11 R12 1:K7", "split 1 after K5"):
        assert refusal(state, 0, text).reason is Reason.INITIAL_MELD_FROM_RACK_ONLY


def test_initial_meld_allows_no_joker_retrieval() -> None:
    """Before the initial meld a joker on the table may not be swapped out."""
    state = rig(
        [["R6", "B10", "B11", "B12"], ["K1", "K2"]],
        [["R5", "J", "R7"]],
        opened=[False, True],
    )
    assert refusal(state, 0, "1+R6").reason is Reason.INITIAL_MELD_FROM_RACK_ONLY
    assert refusal(state, 0, "B10 B11 B12 1:J").reason is Reason.INITIAL_MELD_FROM_RACK_ONLY


# --- the six manipulation examples of the rule document -------------------------------------


def test_manipulation_1_adding_tiles_to_a_set() -> None:
    """Example 1: add R8 from the rack to the run R5 R6 R7 (3+R8 style)."""
    state = rig([["R8", "B1"], ["K1", "K2"]], [["R5", "R6", "R7"]])
    state = play(state, 0, "1+R8; done")
    assert state.table == (("R5", "R6", "R7", "R8"),)


def test_manipulation_2_fourth_tile_out_for_a_new_set() -> None:
    """Example 2: take K5 out of a four-colour group and build K5 K6 K7 with the rack."""
    state = rig([["K6", "K7", "B1"], ["K1", "K2"]], [["R5", "B5", "Y5", "K5"]])
    state = play(state, 0, "K6 K7 1:K5; done")
    assert sorted_table(state) == [["B5", "R5", "Y5"], ["K5", "K6", "K7"]]


def test_manipulation_3_add_a_fourth_and_take_another_out() -> None:
    """Example 3: add K5 to R5 B5 Y5, take R5 out for R5 R6 R7."""
    state = rig([["K5", "R6", "R7", "B1"], ["K1", "K2"]], [["R5", "B5", "Y5"]])
    state = play(state, 0, "1+K5; R6 R7 1:R5; done")
    assert sorted_table(state) == [["B5", "K5", "Y5"], ["R5", "R6", "R7"]]


def test_manipulation_4_split_a_run_and_add_a_tile() -> None:
    """Example 4: split R4…R8 after R5 and add R6: R4 R5 R6 and R6 R7 R8."""
    state = rig([["R6", "B1"], ["K1", "K2"]], [["R4", "R5", "R6", "R7", "R8"]])
    state = play(state, 0, "split 1 after R5; 1+R6; done")
    assert state.table == (("R4", "R5", "R6"), ("R6", "R7", "R8"))


def test_manipulation_5_combined_split() -> None:
    """Example 5: split B3…B9, take B6 from the split-off part into a group with R6 Y6."""
    run = [f"B{n}" for n in range(3, 10)]
    state = rig([["R6", "Y6", "B1"], ["K1", "K2"]], [run])
    state = play(state, 0, "split 1 after B5; R6 Y6 2:B6; done")
    assert state.table == (("B3", "B4", "B5"), ("B7", "B8", "B9"), ("B6", "Y6", "R6"))


def test_manipulation_6_multiple_splits() -> None:
    """Example 6: split two runs and join their middle tiles with K5 into a group."""
    reds = [f"R{n}" for n in range(2, 9)]
    blues = [f"B{n}" for n in range(2, 9)]
    state = rig([["K5", "B1"], ["K1", "K2"]], [reds, blues])
    state = play(state, 0, "split 1 after R4; split 2 after B4; K5 3:R5 4:B5; done")
    assert state.table == (
        ("R2", "R3", "R4"),
        ("B2", "B3", "B4"),
        ("R6", "R7", "R8"),
        ("B6", "B7", "B8"),
        ("K5", "B5", "R5"),
    )


def test_move_a_tile_from_one_meld_to_another() -> None:
    """3:R8>5 moves a table tile between melds (here R4 from the group to the run's low end)."""
    state = rig([["K4", "B1"], ["K1", "K2"]], [["R4", "B4", "Y4"], ["R5", "R6", "R7"]])
    state = play(state, 0, "1:R4>2; 1+K4; done")
    assert state.table == (("K4", "B4", "Y4"), ("R4", "R5", "R6", "R7"))


# --- end-of-turn checks ---------------------------------------------------------------------


def test_done_names_the_invalid_meld_and_why() -> None:
    """Done with R5 R6 on the table names meld 2 and says a meld needs three tiles."""
    state = rig([["R5", "R6", "B1"], ["K1", "K2"]], [["K5", "K6", "K7"]])
    state = play(state, 0, "R5 R6")
    error = refusal(state, 0, "done")
    assert error.reason is Reason.INVALID_MELD
    assert "Meld 2 (R5 R6)" in error.message
    assert "at least 3" in error.message


def test_draft_marks_invalid_melds_in_the_view() -> None:
    """While drafting, an invalid meld is allowed and marked with its problem."""
    state = rig([["R5", "R6", "B1"], ["K1", "K2"]], [["K5", "K6", "K7"]])
    state = play(state, 0, "R5 R6")
    melds = state.view(0)["melds"]
    assert [m["number"] for m in melds] == [1, 2]
    assert melds[0]["valid"]
    assert not melds[1]["valid"]
    assert "at least 3" in melds[1]["problem"]
    assert melds[1]["new"]


def test_the_view_says_whether_done_would_take_the_draft_and_why_not() -> None:
    """`ready` and `not_a_turn` are what /done would do with the draft: play it or refuse why."""
    state = rig([["K4", "R5", "R6", "B1"], ["K1"]], [["K5", "K6", "K7"]])
    assert (state.view(None)["ready"], state.view(None)["not_a_turn"]) == (False, "")
    drafted = play(state, 0, "1+K4")  # adds a tile: a turn
    assert (drafted.view(None)["ready"], drafted.view(None)["not_a_turn"]) == (True, "")
    short = play(state, 0, "R5 R6")
    why = refusal(short, 0, "done")
    assert (short.view(None)["ready"], short.view(None)["not_a_turn"]) == (False, why.message)


def test_a_turn_must_play_a_rack_tile() -> None:
    """Only rearranging the table is not a turn: at least one rack tile must be played."""
    state = rig([["B1"], ["K1", "K2"]], [["R4", "R5", "R6", "R7", "R8", "R9"]])
    state = play(state, 0, "split 1 after R6")
    assert refusal(state, 0, "done").reason is Reason.NO_TILE_PLAYED
    assert refusal(rig([["B1"], ["K1"]]), 0, "done").reason is Reason.NO_TILE_PLAYED


def test_every_table_tile_stays_on_the_table() -> None:
    """The notation cannot move a table tile to the rack, and tiles are conserved by done."""
    state = rig([["R8", "B1"], ["K1", "K2"]], [["R5", "R6", "R7"]])
    with pytest.raises(InvalidMove):
        RUMMIKUB.parse_move("1:R7>0")
    state = play(state, 0, "1+R8; done")
    on_table = Counter(t for meld in state.table for t in meld)
    assert on_table == Counter({"R5": 1, "R6": 1, "R7": 1, "R8": 1})


def test_meld_numbers_stay_put_within_a_turn_and_compact_at_done() -> None:
    """An emptied meld keeps its number while drafting; done removes it."""
    state = rig([["R8", "B1"], ["K1", "K2"]], [["R4", "B4", "Y4"], ["R5", "R6", "R7"]])
    state = play(state, 0, "1:R4 1:B4 1:Y4>new")
    assert [m["tiles"] for m in state.view(0)["melds"]] == [
        [],
        ["R5", "R6", "R7"],
        ["B4", "Y4", "R4"],
    ]
    state = play(state, 0, "2+R8; done")
    assert state.table == (("R5", "R6", "R7", "R8"), ("B4", "Y4", "R4"))


def test_undo_and_reset() -> None:
    """Undo takes back the last step, reset all of them; with no step there is nothing to undo."""
    state = rig([["R8", "R9", "B1"], ["K1", "K2"]], [["R5", "R6", "R7"]])
    start = state
    state = play(state, 0, "1+R8")
    state = play(state, 0, "1+R9")
    assert play(state, 0, "undo").working_table == (("R5", "R6", "R7", "R8"),)
    assert play(state, 0, "reset") == start
    assert refusal(start, 0, "undo").reason is Reason.NOTHING_TO_UNDO
    assert refusal(start, 0, "reset").reason is Reason.NOTHING_TO_UNDO
    for word in ("undo", "reset"):  # with what to do instead
        assert refusal(start, 0, word).message.endswith(
            "nothing is drafted yet. Lay tiles, e.g. R5 R6 R7, or /draw."
        )


def test_the_draft_survives_a_restart() -> None:
    """A draft is saved in to_json and replayed by from_json."""
    state = rig([["R8", "R9", "B1"], ["K1", "K2"]], [["R5", "R6", "R7"]])
    state = play(state, 0, "1+R8; split 1 after R6")
    again = RUMMIKUB.from_json(state.to_json())
    assert again == state
    assert again.rack(0) == ("B1", "R9")
    assert play(again, 0, "undo").draft == (Put(1, ((0, "R8"),)),)


def test_step_errors_name_the_problem() -> None:
    """A missing meld, a tile not in a meld, a tile not on the rack are refused at once."""
    state = rig([["R8", "B1"], ["K1", "K2"]], [["R5", "R6", "R7"]])
    assert refusal(state, 0, "4+R8").reason is Reason.NO_SUCH_MELD
    assert refusal(state, 0, "1:B5>new").reason is Reason.TILE_NOT_IN_MELD
    assert refusal(state, 0, "1+Y8").reason is Reason.TILE_NOT_IN_RACK
    assert refusal(state, 0, "1+R8 R8").message.startswith("You have only 1 R8 on your rack;")
    assert refusal(state, 0, "1+Y8 R8 R8").message.startswith(
        "You have no Y8 and only 1 R8 on your rack;"
    )
    assert refusal(state, 0, "1+R8 J").message.startswith("You have no joker on your rack;")
    assert refusal(state, 0, "split 1 after R7").reason is Reason.TILE_NOT_IN_MELD
    assert refusal(state, 0, "split 2 after R7").reason is Reason.NO_SUCH_MELD
    assert refusal(state, 0, "4+R8").message == "There is no meld 4: there is only meld 1."
    empty = rig([["R8", "B1"], ["K1", "K2"]], [])
    assert refusal(empty, 0, "1+R8").message == (
        "There is no meld 1: the table has no melds yet; lay a new one, e.g. R5 R6 R7."
    )
    # The tile a table joker stands for, asked for by name: the joker is named instead.
    joker = rig([["B13", "B1"], ["K1", "K2"]], [["B11", "B12", "J"]])
    assert refusal(joker, 0, "1:B13>new").message == (
        "Meld 1 (B11 B12 J) has no B13: its joker can stand for B13 there; that joker is 1:J."
    )
    assert refusal(joker, 0, "1:B5>new").message == "Meld 1 (B11 B12 J) has no B5."


def test_a_step_that_moves_nothing_is_refused() -> None:
    """A tile moved to the meld it is in is refused, not drafted; other moves still work.

    Such a step once went into the draft (and took an undo) while the table stayed as it was.
    """
    state = rig([["R8", "B1"], ["K1", "K2"]], [["R5", "R6", "R7"], ["K9", "B9", "Y9"]])
    error = refusal(state, 0, "1:R7>1")
    assert (error.reason, error.message) == (
        Reason.NOTHING_MOVED,
        "R7 is already in meld 1; to move it, name another meld (1:R7>2) or a new one (1:R7>new).",
    )
    assert refusal(state, 0, "1+1:R5 1:R6").reason is Reason.NOTHING_MOVED
    assert refusal(state, 0, "1:B5>1").reason is Reason.TILE_NOT_IN_MELD  # not there at all
    assert refusal(state, 0, "2+1:R7 2:K9").message.startswith(
        "K9 is already in meld 2; to move it, name another meld (2:K9>1) or a new one"
    )
    # In a draft too: the meld laid this turn (meld 3) cannot go onto itself.
    draft = play(state, 0, "1:R7>new")
    assert refusal(draft, 0, "3:R7>3").reason is Reason.NOTHING_MOVED
    assert draft.draft == play(draft, 0, "3:R7>1").draft[:1]
    # Steps that do move something still work (a whole meld moved to the end of the table too).
    assert play(state, 0, "1:R5 1:R6 1:R7 R8>new").draft_table[2] == ("R5", "R6", "R7", "R8")
    assert play(state, 0, "1:R5 1:R6 1:R7 2:K9>new").draft
    assert play(state, 0, "1:R5 1:R6>new").draft_table[::2] == (("R7",), ("R5", "R6"))


def test_failed_line_applies_nothing() -> None:
    """A line of steps is all or nothing: one bad step leaves the state as it was."""
    state = rig([["R8", "B1"], ["K1", "K2"]], [["R5", "R6", "R7"]])
    refusal(state, 0, "1+R8; 1+Y9")


def test_a_line_ending_in_done_that_done_refuses_says_none_of_it_was_played() -> None:
    """After a draft step, a line whose done fails names its meld and never advises /undo."""
    state = rig([["K1", "Y1", "R1", "K13", "Y13", "B2"], ["K2", "K3"]], [["R10", "R11", "R12"]])
    state = play(state, 0, "K1 Y1 R1")
    error = refusal(state, 0, "K13 Y13; done")
    assert error.reason is Reason.INVALID_MELD
    assert error.message.startswith("Nothing of this line was played: it would leave meld 3 (")
    assert "/undo" not in error.message
    low = refusal(rig([["K1", "Y1", "R1", "B2"], ["K2"]]), 0, "K1 Y1 R1; done")
    assert low.reason is Reason.INITIAL_MELD_TOO_LOW
    assert low.message.startswith("Nothing of this line was played: your initial meld would be")
    split = refusal(rig([["B1"], ["K2"]], [FULL_RUNS[0][:6]]), 0, "split 1 after K3; done")
    assert split.reason is Reason.NO_TILE_PLAYED
    assert split.message.startswith("Nothing of this line was played: your turn would play no")
    # /done by itself ends the draft as it stands: its melds are there to fix or /undo.
    assert "Fix it, /undo or /reset." in refusal(play(state, 0, "K13 Y13"), 0, "done").message


def test_not_your_turn_and_not_a_player() -> None:
    """Only the seat to move may play; unknown seats are refused."""
    state = rig([["R8", "B1"], ["K1", "K2"]], [["R5", "R6", "R7"]])
    assert refusal(state, 1, "draw").reason is Reason.NOT_YOUR_TURN
    for seat in (2, -1):  # a game of two has seats 0 and 1
        assert refusal(state, seat, "draw").reason is Reason.NOT_A_PLAYER


# --- jokers ---------------------------------------------------------------------------------


def test_two_jokers_in_one_meld() -> None:
    """R11 J J opens the game (a meld may hold both jokers)."""
    state = rig([["R11", "J", "J", "B1"], ["K1", "K2"]])
    state = play(state, 0, "R11 J J; done")
    assert sorted(state.table[0]) == ["J", "J", "R11"]


def test_joker_may_stand_for_a_third_copy() -> None:
    """With both R6 on the table, R5 J R7 is still a run (the joker is a third R6)."""
    state = rig(
        [["R5", "J", "R7", "B1"], ["K1", "K2"]],
        [["R4", "R5", "R6"], ["R6", "R7", "R8"]],
    )
    state = play(state, 0, "R5 J R7; done")
    assert ("R5", "J", "R7") in state.table


def test_joker_replaced_from_the_rack_and_played_again() -> None:
    """R6 from the rack replaces the joker in R5 J R7; the joker goes into B9 B10 J."""
    state = rig([["R6", "B9", "B10", "Y1"], ["K1", "K2"]], [["R5", "J", "R7"]])
    state = play(state, 0, "1+R6; B9 B10 1:J; done")
    assert state.table == (("R5", "R6", "R7"), ("B9", "B10", "J"))


def test_joker_replaced_with_a_tile_from_the_table() -> None:
    """R6 from a four-colour group replaces the joker; the joker joins K9 K10."""
    state = rig(
        [["K9", "K10", "Y1"], ["K1", "K2"]],
        [["R5", "J", "R7"], ["R6", "B6", "Y6", "K6"]],
    )
    state = play(state, 0, "1+2:R6; K9 K10 1:J; done")
    assert sorted_table(state) == [["B6", "K6", "Y6"], ["J", "K10", "K9"], ["R5", "R6", "R7"]]


def test_retrieved_joker_must_be_played_this_turn() -> None:
    """A joker taken out and left alone makes done fail; it cannot go to the rack."""
    state = rig([["R6", "Y1"], ["K1", "K2"]], [["R5", "J", "R7"]])
    state = play(state, 0, "1+R6; 1:J>new")
    error = refusal(state, 0, "done")
    assert error.reason is Reason.INVALID_MELD
    assert "Meld 2 (J)" in error.message


def test_replacing_a_joker_needs_the_matching_tile() -> None:
    """B6 cannot replace the joker of R5 J R7: the run would break."""
    state = rig([["B6", "B9", "B10"], ["K1", "K2"]], [["R5", "J", "R7"]])
    state = play(state, 0, "1+B6; B9 B10 1:J")
    assert refusal(state, 0, "done").reason is Reason.INVALID_MELD


@pytest.mark.parametrize("tile", ["Y5", "K5"])
def test_group_joker_stands_for_either_missing_colour(tile: str) -> None:
    """In R5 B5 J the joker may be replaced by Y5 or by K5."""
    state = rig([[tile, "B9", "B10"], ["K1", "K2"]], [["R5", "B5", "J"]])
    state = play(state, 0, f"1+{tile}; B9 B10 1:J; done")
    assert sorted(state.table[0]) == sorted(["R5", "B5", tile])


def test_melds_with_jokers_may_be_split() -> None:
    """R3 R4 J R6 R7 R8 splits after J into R3 R4 J and R6 R7 R8, then R9 is added."""
    state = rig([["R9", "B1"], ["K1", "K2"]], [["R3", "R4", "J", "R6", "R7", "R8"]])
    state = play(state, 0, "split 1 after J; 2+R9; done")
    assert state.table == (("R3", "R4", "J"), ("R6", "R7", "R8", "R9"))


def test_a_split_names_which_of_two_jokers_by_the_tile_it_stands_for() -> None:
    """R4 J R6 J R8: split after J=R7 (the second joker) or J=R5; a bare J is asked which."""
    state = rig([["R9", "R10", "B1"], ["K1", "K2"]], [["R4", "J", "R6", "J", "R8"]])
    second = play(state, 0, "split 1 after J=R7")
    assert second.draft_table == (("R4", "J", "R6", "J"), ("R8",))
    done = play(second, 0, "2+R9 R10; done")
    assert done.table == (("R4", "J", "R6", "J"), ("R8", "R9", "R10"))
    assert play(state, 0, "split 1 after j=r5").draft_table == (("R4", "J"), ("R6", "J", "R8"))
    which = refusal(state, 0, "split 1 after J")
    assert which.reason is Reason.WHICH_JOKER
    assert which.message == (
        "Meld 1 (R4 J R6 J R8) has two jokers to split after: name one by the tile it stands "
        "for, split 1 after J=R5 or split 1 after J=R7."
    )
    # The forms the refusal shows are the ones that work.
    for form in ("split 1 after J=R5", "split 1 after J=R7"):
        assert form in which.message
        play(state, 0, form)
    # Side by side, at the low end: J J R12 R13 (the jokers stand for R10 and R11).
    low = rig([["B1"], ["K1", "K2"]], [["R12", "R13", "J", "J"]])
    assert low.table == (("J", "J", "R12", "R13"),)
    assert refusal(low, 0, "split 1 after J").message.endswith(
        "split 1 after J=R10 or split 1 after J=R11."
    )
    assert play(low, 0, "split 1 after J=R11").draft_table == (("J", "J"), ("R12", "R13"))


def test_a_split_after_a_joker_the_meld_lacks_says_what_its_jokers_stand_for() -> None:
    """J=R9 in R4 J R6 J R8 is no joker there; a meld without a joker says so."""
    state = rig([["R9", "B1"], ["K1", "K2"]], [["R4", "J", "R6", "J", "R8"], ["B1", "B2", "B3"]])
    missing = refusal(state, 0, "split 1 after J=R9")
    assert missing.reason is Reason.TILE_NOT_IN_MELD
    assert missing.message == (
        "Meld 1 (R4 J R6 J R8) has no joker standing for R9; its jokers can stand for R5 or R7."
    )
    assert refusal(state, 0, "split 2 after J=B4").message == "Meld 2 (B1 B2 B3) has no joker."
    # In a meld that is no run or group yet (a draft), a joker stands for no one tile.
    drafted = play(state, 0, "2+R9")
    assert refusal(drafted, 0, "split 2 after J=B4").message == (
        "Meld 2 (B1 B2 B3 R9) has no joker."
    )
    mixed = play(rig([["Y9", "B1"], ["K1", "K2"]], [["R4", "R5", "J"]]), 0, "1+Y9")
    assert mixed.draft_table == (("Y9", "R4", "R5", "J"),)
    assert refusal(mixed, 0, "split 1 after J=R6").message == (
        "Meld 1 (Y9 R4 R5 J) has no joker standing for R6; its joker stands for no one tile "
        "there: split 1 after J."
    )
    last = rig([["B1"], ["K1", "K2"]], [["R5", "R6", "J"]])
    assert refusal(last, 0, "split 1 after J=R7").message == (
        "J=R7 is the last tile of meld 1 (R5 R6 J): split after an earlier tile."
    )


def test_a_bare_joker_splits_where_only_one_joker_can_be_cut_after() -> None:
    """In K5 B5 J J only the first joker has tiles after it: J (or J=Y5, J=R5) cuts there."""
    state = rig([["B1"], ["K1", "K2"]], [["K5", "B5", "J", "J"]])
    for text in ("split 1 after J", "split 1 after J=Y5", "split 1 after J=R5"):
        assert play(state, 0, text).draft_table == (("K5", "B5", "J"), ("J",))


def test_a_saved_draft_splitting_after_the_first_of_two_jokers_still_loads() -> None:
    """A draft saved before jokers were named ("split 1 after J") still means the first."""
    state = rig([["R9", "B1"], ["K1", "K2"]], [["R4", "J", "R6", "J", "R8"]])
    saved = state.to_json() | {"draft": ["split 1 after J"]}
    again = RUMMIKUB.from_json(saved)
    assert again.draft_table == (("R4", "J"), ("R6", "J", "R8"))
    assert play(again, 0, "undo").draft == ()


def test_a_joker_may_leave_a_meld_that_stays_valid_without_it() -> None:
    """As the fourth tile of any run may: R5 R6 R7 J gives its J to K9 K10 (a meld is its tiles)."""
    state = rig([["K9", "K10", "B1"], ["K2"]], [["R5", "R6", "R7", "J"]])
    state = play(state, 0, "K9 K10 1:J; done")
    assert state.table == (("R5", "R6", "R7"), ("K9", "K10", "J"))


def test_joker_left_on_the_rack_costs_thirty() -> None:
    """When a player goes out, a joker on another rack costs its holder 30."""
    state = rig([["R8"], ["J", "K2"]], [["R5", "R6", "R7"]])
    state = play(state, 0, "1+R8; done")
    assert state.outcome is not None
    assert state.scores == (32, -32)


# --- drawing, the time limit, the end ---------------------------------------------------------


def test_draw_takes_one_tile_and_ends_the_turn() -> None:
    """Draw takes the front tile of the pool and passes the turn."""
    state = rig([["R8", "B1"], ["K2", "K3"]])
    front = state.pool[0]
    state = play(state, 0, "draw")
    assert Counter(state.rack(0)) == Counter(["R8", "B1", front])
    assert state.to_move == 1
    assert state.history[-1].text == "drew a tile"


def test_draw_discards_the_draft() -> None:
    """Drawing after some steps puts the drafted tiles back first."""
    state = rig([["R8", "B1"], ["K2", "K3"]], [["R5", "R6", "R7"]])
    state = play(play(state, 0, "1+R8"), 0, "draw")
    assert state.table == (("R5", "R6", "R7"),)
    assert "R8" in state.rack(0)
    assert state.draft == ()


def test_time_limit_penalty_returns_tiles_and_draws_three() -> None:
    """On timeout the drafted tiles go back and the player draws three tiles."""
    state = RUMMIKUB.rigged(
        [["R8", "B1"], ["K2", "K3"]], [["R5", "R6", "R7"]], options={"time": "30s"}
    )
    state = play(state, 0, "1+R8; split 1 after R6")
    front = state.pool[:3]
    after = RUMMIKUB.on_timeout(state, 0)
    after.check_invariants()
    assert after.table == (("R5", "R6", "R7"),)
    assert Counter(after.rack(0)) == Counter(["R8", "B1", *front])
    assert after.to_move == 1
    assert after.history[-1].text == "ran out of time and drew 3 tiles; the draft went back"
    with pytest.raises(RuleError) as info:
        RUMMIKUB.on_timeout(after, 0)
    assert info.value.reason is Reason.NOT_YOUR_TURN
    # With the pool empty nothing is drawn, and the record says so.
    dry = RUMMIKUB.on_timeout(replace(after, pool=(), final_turn=after.turn + 2), 1)
    assert dry.history[-1].text == "ran out of time (the pool is empty: nothing drawn)"


def last_round_state() -> RummikubState:
    """Two opened players, one tile (R5) left in the pool, every other tile on the table."""
    table = [list(run) for run in FULL_RUNS[:-1]] + [
        ["R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13"]
    ]
    state = RUMMIKUB.rigged(
        [["R1", "R2", "J"], ["R3", "R4", "J"]], table, opened=[True, True], pool=["R5"]
    )
    state.check_invariants()
    return state


def test_pool_runs_out_then_everyone_has_one_more_turn() -> None:
    """After the last tile is drawn each player moves once more, then the game ends."""
    state = play(last_round_state(), 0, "draw")  # takes R5, the pool is empty
    assert state.outcome is None
    assert state.view(0)["last_round"]
    state = play(state, 1, "draw")  # nothing left: the turn passes
    assert state.history[-1].text == "passed (the pool is empty)"
    assert state.outcome is None
    state = play(state, 0, "draw")
    assert state.outcome is not None
    assert state.outcome.reason == "pool"


def test_lowest_rack_wins_when_the_pool_is_out() -> None:
    """Seat 1 (R3 R4 J = 37) beats seat 0 (R1 R2 J R5 = 38); scores ±38."""
    state = last_round_state()
    for seat in (0, 1, 0):
        state = play(state, seat, "draw")
    assert state.outcome is not None
    assert state.outcome.winners == (1,)
    assert state.scores == (-38, 38)


def test_a_player_may_still_go_out_in_the_last_round() -> None:
    """In the last round seat 1 lays R3 R4 J and goes out."""
    state = play(last_round_state(), 0, "draw")
    state = play(state, 1, "R3 R4 J; done")
    assert state.outcome is not None
    assert state.outcome.reason == "out"
    assert state.scores == (-38, 38)


def test_scoring_winner_gains_the_others_racks() -> None:
    """Going out: the winner gains the sum of the other racks; each loser loses its own."""
    state = rig([["R8"], ["K2", "K3"], ["B13", "J"]], [["R5", "R6", "R7"]])
    state = play(state, 0, "1+R8; done")
    assert state.outcome is not None
    assert state.outcome.winners == (0,)
    assert state.outcome.reason == "out"
    assert state.scores == (5 + 43, -5, -43)


def test_final_scores_with_a_tie() -> None:
    """Tied lowest racks both win, each gaining the losers' racks."""
    assert final_scores([["R2"], ["K2"], ["B9"]], (0, 1)) == (9, 9, -9)


def test_game_over_refuses_moves() -> None:
    """After the end every move is refused with GAME_OVER."""
    state = rig([["R8"], ["K2", "K3"]], [["R5", "R6", "R7"]])
    state = play(state, 0, "1+R8; done")
    assert refusal(state, 1, "draw").reason is Reason.GAME_OVER


def test_with_two_players_a_resignation_ends_the_game() -> None:
    """Two players: the one who resigns loses at once, whatever the racks."""
    state = rig([["R8", "B13", "J"], ["K2"]], [["R5", "R6", "R7"]])
    state = play(state, 1, "resign")
    assert state.outcome is not None
    assert (state.outcome.reason, state.outcome.winners) == ("resign", (0,))


def test_a_game_ended_by_another_players_resignation_takes_the_movers_draft_back() -> None:
    """Alice drafts, bob resigns out of turn and the game ends: nothing was played until
    /done, so her draft goes back, and the final table and rack are the ones scored.
    """
    state = rig([["R8", "B13", "J"], ["K2"]], [["R5", "R6", "R7"]])
    state = play(state, 0, "1+R8")
    assert state.rack(0) == ("B13", "J")
    state = play(state, 1, "resign")
    assert state.outcome is not None
    assert state.draft == ()
    assert state.rack(0) == ("B13", "R8", "J")
    assert state.working_table == state.table == (("R5", "R6", "R7"),)
    assert state.view(0)["rack"] == ["B13", "R8", "J"]
    state.check_invariants()
    # Three players, the pool's last round: carol's resignation ends it during bob's draft.
    last = replace(rig([["R8"], ["K11", "B11", "R11", "K2"], ["Y1"]], to_move=1), final_turn=3)
    last = play(last, 1, "K11 B11 R11")
    last = play(last, 2, "resign")
    assert last.outcome is not None
    assert sorted(last.rack(1)) == ["B11", "K11", "K2", "R11"]
    assert (last.working_table, last.draft) == ((), ())
    last.check_invariants()


def test_with_three_players_a_resigner_leaves_and_the_others_play_on() -> None:
    """Bob resigns mid-draft: his draft goes back, he leaves, turns pass him by; his rack
    counts against him at the end; when carol resigns too, alice is the last one and wins.
    """
    state = rig([["R8", "K9"], ["K2", "K3", "R4"], ["B13", "J", "B1"]], [["R5", "R6", "R7"]])
    state = play(play(state, 0, "draw"), 1, "1+R4")  # bob drafts, then gives up
    state = play(state, 1, "resign")
    assert state.outcome is None
    assert (state.left, state.to_move, state.draft) == ((1,), 2, ())
    assert state.racks[1] == ("K2", "K3", "R4")  # the draft went back to his rack
    assert state.table == (("R5", "R6", "R7"),)
    assert refusal(state, 1, "draw").reason is Reason.PLAYER_LEFT
    assert refusal(state, 1, "resign").reason is Reason.PLAYER_LEFT
    state = play(play(state, 2, "draw"), 0, "draw")
    assert state.to_move == 2  # bob's turn is passed over
    state.check_invariants()
    again = RUMMIKUB.from_json(state.to_json())
    assert (again.left, again.to_move) == ((1,), 2)
    state = play(state, 2, "resign")  # one is left: the game ends, alice wins
    assert state.outcome is not None
    assert (state.outcome.reason, state.outcome.winners) == ("resign", (0,))
    assert state.scores[1] == -(2 + 3 + 4)  # the resigner's rack counts against him
    state.check_invariants()


def test_a_resigner_never_scores_better_than_those_who_played_on() -> None:
    """A resigner scores no better than the worst loser who played on.

    bob gives up holding K2 (2); carol plays on and loses holding B13 and a joker (43): bob's
    -2 becomes -43, so resigning early never beats playing on. alice went out and gains 45.
    """
    state = rig([["R8"], ["K2"], ["B13", "J"]], [["R5", "R6", "R7"]])
    state = play(state, 1, "resign")
    state = play(state, 0, "1+R8; done")
    assert state.outcome is not None
    assert (state.outcome.reason, state.outcome.winners) == ("out", (0,))
    assert state.scores == (45, -43, -43)
    assert final_scores([["R8"], ["K2"], ["B13", "J"]], (0,)) == (45, -2, -43)  # no one left


def test_a_resigner_of_the_last_round_ends_the_game() -> None:
    """With the pool empty, a resignation ends the game: the lowest rack of the others wins."""
    state = rig([["R8", "R9"], ["K2", "K3"], ["B13", "J"]], [["R5", "R6", "R7"]])
    state = replace(state, final_turn=state.turn + 3)  # the last round is under way
    state = play(state, 1, "resign")
    assert state.outcome is not None
    assert (state.outcome.reason, state.outcome.winners) == ("resign", (0,))


# --- notation, view, JSON ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("R5 R6 R7", Line((Put(0, ((0, "R5"), (0, "R6"), (0, "R7"))),))),
        ("3+R8", Line((Put(3, ((0, "R8"),)),))),
        ("3:R8>5", Line((Put(5, ((3, "R8"),)),))),
        ("3:R8>new", Line((Put(0, ((3, "R8"),)),))),
        ("split 4 after R7", Line((Split(4, "R7"),))),
        ("split 4 after j=r7", Line((Split(4, "J=R7"),))),
        ("split 4 after J", Line((Split(4, "J"),))),
        ("r5 r6 j; done", Line((Put(0, ((0, "R5"), (0, "R6"), (0, "J"))),), done=True)),
        ("done", Done()),
        ("undo", Undo()),
        ("reset", Reset()),
        ("draw", Draw()),
        ("pass", Draw()),
        ("resign", Resign()),
    ],
)
def test_notation(text: str, move: object) -> None:
    """Each form of the notation parses to its move, and str() reads back the same."""
    parsed = RUMMIKUB.parse_move(text)
    assert parsed == move
    assert RUMMIKUB.parse_move(str(parsed)) == parsed


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("R5,R6, R7", "R5 R6 R7"),
        ("3+R8, R9", "3+R8 R9"),
        ("3:R8,3:R9>new", "3:R8 3:R9>new"),
        ("split 4 after R7,", "split 4 after R7"),
        ("split 4, after R7; 4+R8; done", "split 4 after R7; 4+R8; done"),
    ],
)
def test_commas_between_tokens_are_forgiven(text: str, canonical: str) -> None:
    """Tokens may be separated by commas, in every step, a split's too."""
    assert str(RUMMIKUB.parse_move(text)) == canonical


@pytest.mark.parametrize(
    "text", ["", "R5 X9", "8H R5", "split 4", "0+R8", "draw; done", "1+", "3:R8>0"]
)
def test_malformed_notation_shows_the_expected_form(text: str) -> None:
    """Unreadable moves raise InvalidMove with an example of a whole move or step."""
    with pytest.raises(InvalidMove) as info:
        RUMMIKUB.parse_move(text)
    examples = ("R5 R6 R7", "+R8", "split 4 after R7", "; done", "3:R8>")
    assert any(example in info.value.message for example in examples)


def test_empty_steps_say_what_is_wrong() -> None:
    """A bare ";;;" asks for a move; "R5 R6 R7;; done" names the doubled ';'."""
    with pytest.raises(InvalidMove, match=r"^Say what to play, e\.g\. "):
        RUMMIKUB.parse_move(";;;")
    with pytest.raises(InvalidMove, match=r"^There is nothing between two ';': steps are joined"):
        RUMMIKUB.parse_move("R5 R6 R7;; 1+R8; done")


def test_view_hides_other_racks() -> None:
    """A seat sees its own rack and only the sizes of the others."""
    state = RUMMIKUB.new_game(3, seed=4, options={})
    view = state.view(1)
    assert view["rack"] == list(state.rack(1))
    assert view["rack_sizes"] == [14, 14, 14]
    assert "racks" not in view
    assert "pool" in view
    assert isinstance(view["pool"], int)
    assert state.view(None)["rack"] is None
    json.dumps(state.view(0))  # plain JSON data for the renderers and adapters


def test_json_round_trip_and_version() -> None:
    """to_json carries "v" and from_json rebuilds the same state; other versions are refused."""
    state = play(RUMMIKUB.new_game(2, seed=9, options={"time": "60s"}), 0, "draw")
    data = state.to_json()
    assert data["v"] == 1
    assert RUMMIKUB.from_json(data) == state
    with pytest.raises(ValueError, match="schema"):
        RUMMIKUB.from_json({**data, "v": 99})


def test_check_invariants_catches_a_lost_tile() -> None:
    """A state with a tile missing fails its invariant check."""
    from bot.core.errors import InvariantError

    state = RUMMIKUB.new_game(2, seed=1, options={})
    broken = replace(state, pool=state.pool[1:])
    with pytest.raises(InvariantError):
        broken.check_invariants()


def test_history_is_public_text_only() -> None:
    """A turn is recorded as its replayable line; a draw does not show the tile drawn."""
    state = rig([["R8", "B1"], ["K2", "K3"]], [["R5", "R6", "R7"]])
    state = play(state, 0, "1+R8; done")
    state = play(state, 1, "draw")
    assert [r.text for r in state.history] == ["1+R8; done", "drew a tile"]
    assert state.history[0].words == ("R8",)


# --- the game-over note and /rules ------------------------------------------------------------


def test_ending_note_when_the_pool_ran_out_says_the_smallest_rack_wins() -> None:
    """Pool out, everyone moved once more: the note gives each rack's value, smallest first."""
    state = last_round_state()
    for seat in (0, 1, 0):
        state = play(state, seat, "draw")
    assert state.outcome is not None
    assert RUMMIKUB.ending_note(state, ("alice", "bob")) == (
        "The rack of least value wins: bob 37, alice 38 (a joker counts 30)."
    )


def test_ending_note_when_a_resignation_in_the_last_round_leaves_two() -> None:
    """Three players, last round: bob resigns, the game ends and the smaller rack left wins."""
    table = [list(run) for run in FULL_RUNS[:-1]] + [["R6", "R7", "R8", "R9", "R10", "R11"]]
    racks = [["R1", "R2", "J"], ["R3", "R4", "J"], ["R12", "R13"]]
    state = RUMMIKUB.rigged(racks, table, opened=[True] * 3, pool=["R5"])
    state.check_invariants()
    state = play(state, 0, "draw")  # the pool is empty: the last round
    state = play(state, 1, "resign")
    assert state.outcome is not None
    assert (state.outcome.reason, state.outcome.winners) == ("resign", (2,))
    assert RUMMIKUB.ending_note(state, ("alice", "bob", "carol")) == (
        "The rack of least value wins: carol 25, alice 38 (a joker counts 30)."
    )


def test_ending_note_explains_going_out_and_is_empty_when_one_of_two_resigned() -> None:
    """Going out, the winner's score is the racks left ("alice 5, bob -5" said nothing of
    where 5 came from); a two-player resignation: the scores say enough.
    """
    out = play(rig([["R8"], ["K2", "K3"]], [["R5", "R6", "R7"]]), 0, "1+R8; done")
    assert RUMMIKUB.ending_note(out, ("alice", "bob")) == (
        "alice went out and scores what the other racks hold: bob 5."
    )
    # A resigned rack counts for the winner too: the note adds up to the score (48, not 6).
    three = rig([["K9", "K10", "K11", "K12"], ["K2", "K3"], ["R8"]], [["R5", "R6", "R7"]])
    three = play(play(play(three, 0, "resign"), 1, "draw"), 2, "1+R8; done")
    assert three.scores[2] == 48
    assert RUMMIKUB.ending_note(three, ("alice", "bob", "carol")) == (
        "carol went out and scores what the other racks hold: bob 6, alice 42."
    )
    # A resigner with a small rack scores the worst of those who played on: said, not left to
    # contradict "bob 5" with bob -42.
    capped = rig([["R8"], ["K2", "K3"], ["K9", "K10", "K11", "K12"]], [["R5", "R6", "R7"]])
    capped = play(play(capped, 1, "resign"), 0, "1+R8; done")
    assert capped.scores == (47, -42, -42)
    assert RUMMIKUB.ending_note(capped, ("alice", "bob", "carol")) == (
        "alice went out and scores what the other racks hold: bob 5, carol 42; bob resigned, so"
        " no better than the worst who played on."
    )
    resigned = play(rig([["R8"], ["K2", "K3"]], [["R5", "R6", "R7"]]), 1, "resign")
    assert RUMMIKUB.ending_note(resigned, ("alice", "bob")) == ""


def test_rules_summary_states_the_initial_meld_and_the_end() -> None:
    """/rules rummikub: the aim, the 30-point initial meld, drawing, the end and the scores."""
    text = RUMMIKUB.notation_help()
    for fact in (
        "first to lay all your tiles",
        "initial meld must be worth 30 or more, from your own rack",
        "Draw a tile",
        "the rack of least value wins",
        "a joker counts 30",
        "3+R8",
    ):
        assert fact in text


def test_a_control_word_inside_a_step_says_steps_are_separated() -> None:
    """A control word inside a step: done is a step of its own, joined with ; or sent alone."""
    with pytest.raises(
        InvalidMove, match=r"separate steps with ; \(R5 R6 R7; done\) or send /done"
    ):
        RUMMIKUB.parse_move("K10 Y10 R10 done")
    assert str(RUMMIKUB.parse_move("K10 Y10 R10; done")) == "K10 Y10 R10; done"
