"""Numfeud rules: each sentence of shared/rules/numfeud.txt, the joker examples, the endings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest

from bot.core.errors import InvalidMove, Reason, RuleError
from bot.core.game import Pass
from bot.core.grid import Anchor
from bot.games.numfeud import (
    CENTRE,
    NUMFEUD,
    TILE_COUNTS,
    Lay,
    NumfeudState,
    Resign,
    Shift,
    Swap,
    Turn,
    board_from,
    board_problem,
    check_line,
    check_whole_line,
    connected,
    inventory_value,
    locked_cells,
    may_lay,
    parse_numfeud_move,
    physical,
    sort_tiles,
)


def rig(
    cells: Mapping[str, str],
    racks: Sequence[Sequence[str]],
    *,
    to_move: int = 0,
    moves: tuple[int, int] = (1, 1),
    bag: Sequence[str] | None = None,
    swapped: tuple[int, int] = (0, 0),
) -> NumfeudState:
    """A state with this board and these inventories; the bag holds every other tile."""
    board = board_from(cells)
    if bag is None:
        rest = Counter(TILE_COUNTS)
        rest.subtract(physical(c) for c in board if c)
        for rack in racks:
            rest.subtract(rack)
        assert all(n >= 0 for n in rest.values()), rest
        bag = sorted(rest.elements())
    state = NUMFEUD.new_game(2, seed=1, options={})
    return replace(
        state,
        board=board,
        racks=tuple(sort_tiles(r) for r in racks),
        bag=tuple(bag),
        to_move=to_move,
        moves=moves,
        swapped=swapped,
    )


def play(state: NumfeudState, text: str, seat: int | None = None) -> NumfeudState:
    after = state.apply(state.to_move if seat is None else seat, NUMFEUD.parse_move(text))
    return after


def refused(state: NumfeudState, text: str) -> Reason:
    with pytest.raises(RuleError) as info:
        play(state, text)
    assert len(str(info.value)) <= 200
    return info.value.reason


RUN = {"G8": "R5", "H8": "R6", "I8": "R7"}  # 8G R5 R6 R7 through the centre


# --- tiles and the deal ------------------------------------------------------------------------


def test_106_tiles_four_colours_twice_and_two_jokers() -> None:
    """The set: 1–13 in red, blue, yellow, green, two of each, and 2 jokers: 106 tiles."""
    assert sum(TILE_COUNTS.values()) == 106
    assert TILE_COUNTS["J"] == 2
    assert {t[0] for t in TILE_COUNTS if t != "J"} == set("RBYG")
    assert all(TILE_COUNTS[f"{c}{n}"] == 2 for c in "RBYG" for n in range(1, 14))


def test_each_player_gets_16_tiles_and_two_players_only() -> None:
    """Each player is given 16 random tiles; Numfeud is for two players."""
    state = NUMFEUD.new_game(2, seed=7, options={})
    assert [len(r) for r in state.racks] == [16, 16]
    assert len(state.bag) == 106 - 32
    state.check_invariants()
    with pytest.raises(RuleError) as info:
        NUMFEUD.new_game(3, seed=7, options={})
    assert info.value.reason is Reason.BAD_PLAYER_COUNT


def test_the_deal_depends_on_the_seed_only() -> None:
    """The same seed deals the same game."""
    a = NUMFEUD.new_game(2, seed=3, options={})
    b = NUMFEUD.new_game(2, seed=3, options={})
    assert a == b
    assert a != NUMFEUD.new_game(2, seed=4, options={})


# --- lines -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "kind"),
    [
        (["R5", "B5", "Y5"], "group"),
        (["R5", "B5", "Y5", "G5"], "group"),
        (["R5", "J=B5", "Y5"], "group"),
        (["R5", "R6", "R7"], "run"),
        (["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "G10", "G11", "G12", "G13"], "run"),
        (["B11", "J=B12", "B13"], "run"),
    ],
)
def test_valid_lines(codes: list[str], kind: str) -> None:
    """A group: 3+ tiles of one number in different colours; a run: 3+ in order, one colour."""
    assert check_line(codes).kind == kind


@pytest.mark.parametrize(
    "codes",
    [
        ["R5", "B5"],  # two tiles
        ["R5", "R5", "B5"],  # a colour twice
        ["R7", "R6", "R5"],  # counting down
        ["R5", "R7", "R8"],  # a gap
        ["R5", "B6", "Y7"],  # mixed
        ["R12", "R13", "R1"],  # no wrap-around
        ["J=R5", "R6", "J=R7"],  # two jokers
    ],
)
def test_invalid_lines(codes: list[str]) -> None:
    """Short lines, repeated colours, wrong order, gaps, mixes and two jokers are not melds."""
    assert not check_line(codes).valid


# --- notation ----------------------------------------------------------------------------------


def test_notation_round_trips() -> None:
    """Lays across and down, moves, jokers, swap, pass and resign read back as written."""
    for text in (
        "8H R5 R6 R7",
        "H8 R5 J=R6 R7",
        "K8>L9; 9L R9 R10 R11",
        "swap R5 B7 J",
        "pass",
        "resign",
    ):
        assert str(NUMFEUD.parse_move(text)) == text
    move = parse_numfeud_move("8h r5 j=b5 y5")
    assert move == Turn((Lay(Anchor(7, 7, True), ("R5", "J=B5", "Y5")),))
    assert parse_numfeud_move("H8>I9") == Turn((Shift((7, 7), (8, 8)),))
    assert parse_numfeud_move("swap r13b1J") == Swap(("R13", "B1", "J"))
    # Forgiven as in Rummikub: commas between tiles, spaces round ">".
    assert str(parse_numfeud_move("8H R5,R6, R7")) == "8H R5 R6 R7"
    assert str(parse_numfeud_move("K8 > L9; 9L R9,R10,R11")) == "K8>L9; 9L R9 R10 R11"


@pytest.mark.parametrize("text", ["swap R1, Y1", "swap R1,Y1", "swap R1 ,Y1", "swap r1,y1,"])
def test_a_swap_forgives_commas_between_tiles(text: str) -> None:
    """Commas between the tiles of a swap are forgiven, as in a lay (/swap R1, Y1)."""
    assert parse_numfeud_move(text) == Swap(("R1", "Y1"))


@pytest.mark.parametrize("text", ["", "8H", "8H X5", "swap", "swap J=R5", "8H R14", "H8 1 2 3"])
def test_bad_notation_says_what_to_type(text: str) -> None:
    """Unreadable moves raise InvalidMove with a whole example move."""
    with pytest.raises(InvalidMove) as info:
        NUMFEUD.parse_move(text)
    assert len(str(info.value)) <= 200
    assert "8H R5 " in str(info.value) or "swap R5 B7 J" in str(info.value)


def test_a_bare_joker_is_told_no_joker_or_asked_what_it_stands_for() -> None:
    """A laid bare J: "no joker" if none is held (as any tile), else how to say what it is."""
    assert str(parse_numfeud_move("8H R5 J R7")) == "8H R5 J R7"
    state = rig({}, [["R5", "R7", "B1"], ["J", "Y1"]])
    with pytest.raises(RuleError) as info:
        play(state, "8G R5 J R7")
    assert info.value.reason is Reason.TILE_NOT_IN_RACK
    assert str(info.value) == "You have no joker on your rack. See your tiles with /rack."
    state = rig({}, [["R5", "R7", "J", "B1"], ["Y1"]])
    with pytest.raises(InvalidMove, match=r"^Say what a laid joker stands for, e\.g\. 8H R5 J=R6"):
        play(state, "8G R5 J R7")
    play(state, "8G R5 J=R6 R7").check_invariants()


@pytest.mark.parametrize(("text", "bad"), [("swap R99", "'R99'"), ("swap R5 X7 J", "'X7'")])
def test_a_swap_names_the_code_that_is_not_a_tile(text: str, bad: str) -> None:
    """A swap with a wrong code says which one, what a tile is, and the form."""
    with pytest.raises(InvalidMove) as info:
        NUMFEUD.parse_move(text)
    assert str(info.value).startswith(f"{bad} is not a tile")
    assert str(info.value).endswith("e.g. swap R5 B7 J.")


# --- the first play and connection -------------------------------------------------------------


def test_first_play_covers_the_centre() -> None:
    """The first play must cover the centre square H8."""
    state = rig({}, [["R5", "R6", "R7", "B1"], ["Y1"]])
    assert refused(state, "1A R5 R6 R7") is Reason.FIRST_MOVE_NOT_THROUGH_START
    after = play(state, "8G R5 R6 R7")
    assert after.board[CENTRE] == "R6"
    assert after.rack(0) == ("B1",)
    assert after.to_move == 1
    after.check_invariants()


def test_first_play_is_a_combination_of_three() -> None:
    """Two tiles alone are not a combination, and neither is one tile on the centre."""
    state = rig({}, [["R5", "R6", "B1"], ["Y1"]])
    assert refused(state, "8G R5 R6") is Reason.INVALID_MELD
    with pytest.raises(RuleError) as two:
        state.apply(0, parse_numfeud_move("8G R5 R6"))
    assert "lone tile" not in two.value.message  # two tiles: the line's own verdict
    assert refused(state, "8H R5") is Reason.INVALID_MELD
    with pytest.raises(RuleError, match=r"a lone tile is neither, e\.g\. 8G R5 R6 R7"):
        state.apply(0, parse_numfeud_move("8H B1"))


def test_freeing_a_joker_counts_the_freeing_tile_with_the_others() -> None:
    """One Y9 cannot both free the joker and fill an empty square (refused, no crash).

    The freed joker may be laid again in the same step, after the square that frees it.
    """
    board = {"G8": "G9", "H8": "R9", "I8": "J=Y9"}
    state = rig(board, [["Y9", "B5", "B6"], ["R1"]])
    with pytest.raises(RuleError, match=r"only 1 Y9|no Y9") as info:
        state.apply(0, parse_numfeud_move("I8 Y9 Y9"))
    assert info.value.reason is Reason.TILE_NOT_IN_RACK
    after = play(state, "8G G9 R9 Y9 J=B9")
    assert [after.board[CENTRE + d] for d in (1, 2)] == ["Y9", "J=B9"]
    assert after.rack(0) == ("B5", "B6")
    after.check_invariants()
    assert refused(state, "8F J=B9 G9 R9 Y9") is Reason.TILE_NOT_IN_RACK


def test_later_plays_connect_to_the_board() -> None:
    """A line that touches no board tile is refused."""
    state = rig(RUN, [["B1", "B2", "B3", "Y9"], ["Y1"]])
    assert refused(state, "1A B1 B2 B3") is Reason.NOT_ADJACENT


def test_tiles_go_down_across_and_down() -> None:
    """You can add tiles both vertically and horizontally (here crossing at the red 6)."""
    state = rig(RUN, [["B6", "Y6", "B1"], ["Y1"]])
    after = play(state, "H8 R6 B6 Y6")
    assert after.board[CENTRE + 15] == "B6"
    after.check_invariants()


def test_every_line_of_two_or_more_must_be_a_combination() -> None:
    """A tile laid beside a run makes 2-tile cross lines, which are refused."""
    state = rig(RUN, [["R8", "B5", "B6", "Y1"], ["Y1"]])
    assert refused(state, "9G B5 B6") is Reason.INVALID_MELD
    assert refused(state, "8G R5 R6 R7 B5") is Reason.INVALID_MELD


def test_a_lay_must_match_the_board_tiles() -> None:
    """Writing a different tile over a board tile is refused; writing only board tiles too."""
    state = rig(RUN, [["R8", "B5"], ["Y1"]])
    assert refused(state, "8G R5 B6 R7 R8") is Reason.CELL_TAKEN
    assert refused(state, "8G R5 R6 R7") is Reason.NO_NEW_TILES
    assert refused(state, "8G R5 R6 R7 R9") is Reason.TILE_NOT_IN_RACK


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("8G R5 R6 R7 R8 R9", "You have no R9 on your rack."),
        ("8G R5 R6 R7 R9 R10", "You have no R9, R10 on your rack."),  # all at once
        ("H7 R8 R6 R8", "You have only 1 R8 on your rack."),
        ("8G R5 R6 R7 J=R8", "You have no joker on your rack."),
        ("swap B5 B5", "You have only 1 B5 on your rack."),
    ],
)
def test_tiles_not_held_are_named_with_how_many_there_are(text: str, said: str) -> None:
    """A lay or swap of tiles the inventory lacks says which, and how many it does hold."""
    state = rig(RUN, [["R8", "B5"], ["Y1"]])
    with pytest.raises(RuleError) as info:
        play(state, text)
    assert info.value.reason is Reason.TILE_NOT_IN_RACK
    assert info.value.message.startswith(said)


def test_out_of_bounds() -> None:
    """Cells past O15 are refused."""
    state = rig(RUN, [["R8", "R9", "R10"], ["Y1"]])
    assert refused(state, "8M R8 R9 R10 R11") is Reason.OUT_OF_BOUNDS
    assert refused(state, "G8>P8; 8J R8") is Reason.OUT_OF_BOUNDS  # column P
    assert refused(state, "G8>G16; 8J R8") is Reason.OUT_OF_BOUNDS  # row 16


def square(name: str) -> int:
    """Return the board index of a square named like ``A1``."""
    return board_from({name: "R1"}).index("R1")


def test_a_tile_at_a1_is_written_with_the_line_it_joins() -> None:
    """Row 1 and column A are read to their first square: A1 starts the lines through it."""
    state = rig({"A1": "R1", "B1": "R2", "C1": "R3"}, [["R4", "B1", "Y1", "G13"], ["Y2"]])
    for text, whole in (("1D R4", "1A R1 R2 R3 R4"), ("A2 B1 Y1", "A1 R1 B1 Y1")):
        with pytest.raises(RuleError) as info:
            play(state, text)
        assert info.value.reason is Reason.WORD_NOT_COMPLETE
        assert str(info.value).endswith(f"write it whole, as {whole}."), str(info.value)
        play(state, whole).check_invariants()


def test_lines_end_at_the_boards_edges() -> None:
    """A line read to the edge stops there: it neither runs on into the next row nor wraps round.

    These boards are no positions of a game (their tiles stand apart): only their lines are read.
    """
    assert board_problem(board_from({"A1": "R1", "B1": "R2", "C1": "R3"})) is None
    for names, where in ((("M15", "N15", "O15"), "15M"), (("O13", "O14", "O15"), "O13")):
        problem = board_problem(board_from(dict(zip(names, ("R1", "R2", "R4"), strict=True))))
        assert problem is not None
        assert f"The line {where} R1 R2 R4 is not in order" in str(problem)
    # O1 ends row 1 and A2 starts row 2; A15 is the far end of column A from A1.
    board = board_from({"O1": "G5", "A2": "B1", "A15": "Y7"})
    for names, across in (
        (("A2", "B2", "C2"), True),
        (("M1", "N1", "O1"), True),
        (("A1", "A2", "A3"), False),
        (("O13", "O14", "O15"), False),
    ):
        assert check_whole_line(board, [square(name) for name in names], across) is None
    assert not connected(board_from({"O1": "G5", "A2": "B1"}))
    assert not connected(board_from({"A1": "G5", "A15": "B1"}))
    assert connected(board_from({"O14": "G5", "O15": "B5", "N15": "R5"}))
    # A joker on row 1 or column A locks its neighbour on A1; one on O1 or A2 locks only itself.
    for cells in ({"A1": "R1", "A2": "J=B1", "A3": "Y1"}, {"A1": "R1", "B1": "J=R2", "C1": "R3"}):
        assert locked_cells(board_from(cells)) == {square(name) for name in cells}
    for joker, other in (("A2", "O1"), ("O1", "A2")):
        assert locked_cells(board_from({joker: "J=R5", other: "B5"})) == {square(joker)}


def test_the_search_finds_lays_from_and_to_the_boards_edges() -> None:
    """A lay may start on row 1 or column A and end on row 15 or column O.

    A player at 20 tiles may depend on it; a tile at the far end of the row (O8) hides none.
    """
    # G2 R2 B2 Y2 from A8, where row 8 ends in R13 on O8 (linked by G2 … G13 across row 10).
    linked = {"B8": "R2", "C8": "B2", "D8": "Y2", "D9": "R2", "D10": "G2"}
    linked |= {"O8": "R13", "O9": "B13"}
    linked |= {f"{'EFGHIJKLMNO'[n - 3]}10": f"G{n}" for n in range(3, 14)}
    for lay, tile, cells in (
        ("H1 R1 R2 R3 R4", "R1", {"H2": "R2", "H3": "R3", "H4": "R4"}),
        ("H12 R10 R11 R12 R13", "R13", {"H12": "R10", "H13": "R11", "H14": "R12"}),
        ("8L R10 R11 R12 R13", "R13", {"L8": "R10", "M8": "R11", "N8": "R12"}),
        ("8A G2 R2 B2 Y2", "G2", linked),
    ):
        state = rig(cells, [[tile, "Y5"], ["B5"]])
        state.check_invariants()
        assert lay in {str(turn) for turn in state.plays(0)}, lay


# --- rearranging (the three examples) ----------------------------------------------------------


def test_example_1_add_tiles_to_an_existing_set() -> None:
    """1. Add tiles to an existing set: R8 after R5 R6 R7, R4 before it."""
    state = rig(RUN, [["R4", "R8", "B1"], ["Y1"]])
    after = play(state, "8F R4 R5 R6 R7 R8")
    assert after.rack(0) == ("B1",)
    after.check_invariants()
    assert str(play(state, "8G R5 R6 R7 R8").history[-1].text) == "8G R5 R6 R7 R8"


def test_a_line_is_written_whole_with_the_board_tiles_it_runs_into() -> None:
    """A lay leaving out a board tile in its line is refused, naming it, showing the line whole."""
    gap = {"K8": "R9", "L8": "R10", "M8": "R11"}  # a run beyond the hole J8
    cases = {
        (): {
            "8J R8": "R7 on I8 continues your line: write it whole, as 8G R5 R6 R7 R8.",
            "8F R4": "R5 on G8 continues your line: write it whole, as 8F R4 R5 R6 R7.",
            "H9 B6 Y6": "R6 on H8 continues your line: write it whole, as H8 R6 B6 Y6.",
        },
        tuple(gap.items()): {
            "8J R8": "R7 on I8 and R9 on K8 continue your line: write it whole, as "
            "8G R5 R6 R7 R8 R9 R10 R11.",
        },
    }
    for extra, refusals in cases.items():
        state = rig(RUN | dict(extra), [["R8", "R4", "B6", "Y6", "B9"], ["Y1"]])
        before = state.to_json()
        for text, message in refusals.items():
            with pytest.raises(RuleError) as info:
                play(state, text)
            assert info.value.reason is Reason.WORD_NOT_COMPLETE
            assert str(info.value) == message
            assert state.to_json() == before
            # Copied, the whole line is the same play, and legal.
            play(state, message.split("as ", 1)[1].rstrip(".")).check_invariants()
    # A whole line that is no combination either says so: copied, it would be refused next.
    with pytest.raises(RuleError) as info:
        play(rig(RUN, [["B9", "Y1"], ["Y2"]]), "8J B9")
    assert str(info.value).endswith(
        "as 8G R5 R6 R7 B9; but that line mixes colours and numbers."
    ), str(info.value)


def test_cross_lines_count_every_board_tile_in_line() -> None:
    """A laid tile's cross line is judged whole: all the board tiles above it, however many."""
    group = {"H8": "R9", "H9": "B9", "H10": "Y9"}  # R9 B9 Y9 down column H
    state = rig(group, [["G8", "G9", "G10", "R1"], ["Y1"]])
    after = play(state, "11G G8 G9 G10")  # G9 ends the group: R9 B9 Y9 G9 down column H
    assert after.board[CENTRE + 45] == "G9"
    after.check_invariants()
    state = rig(group, [["Y8", "Y9", "Y10", "R1"], ["Y1"]])
    with pytest.raises(RuleError) as info:
        play(state, "11G Y8 Y9 Y10")  # a run in itself, but H8 R9 B9 Y9 Y9 repeats a colour
    assert info.value.reason is Reason.INVALID_MELD
    assert "H8 R9 B9 Y9 Y9" in str(info.value)


def test_example_2_remove_a_fourth_tile_and_use_it_in_a_new_set() -> None:
    """2. Take the green 9 off R9 B9 Y9 G9 and make a new group down column H with it."""
    group = {"H8": "R9", "I8": "B9", "J8": "Y9", "K8": "G9"}
    state = rig(group, [["B9", "Y1"], ["Y2"]])
    after = play(state, "K8>H7; H7 G9 R9 B9")
    assert after.board[CENTRE - 15] == "G9"
    assert after.board[CENTRE + 15] == "B9"
    assert after.rack(0) == ("Y1",)
    # The move's cells (highlighted on the board image) hold the moved tile and the laid one.
    assert set(after.history[-1].cells) == {CENTRE - 15, CENTRE + 15}
    after.check_invariants()


def test_example_3_add_a_fourth_tile_and_remove_another_for_a_new_set() -> None:
    """3. Add G9 to R9 B9 Y9, move R9 away and build R9 B9 Y9 down column I with it."""
    group = {"H8": "R9", "I8": "B9", "J8": "Y9"}
    state = rig(group, [["G9", "Y9", "Y1"], ["Y2"]])
    after = play(state, "8H R9 B9 Y9 G9; H8>I7; I7 R9 B9 Y9")
    assert after.board[CENTRE] == ""
    assert [after.board[CENTRE + d] for d in (1, 2, 3)] == ["B9", "Y9", "G9"]
    assert after.rack(0) == ("Y1",)
    after.check_invariants()


def test_rearranging_needs_one_inventory_tile() -> None:
    """Moving board tiles without laying an inventory tile is not a turn."""
    group = {"H8": "R9", "I8": "B9", "J8": "Y9", "K8": "G9"}
    state = rig(group, [["Y1"], ["Y2"]])
    assert refused(state, "K8>G8") is Reason.NO_TILE_PLAYED


def test_rearranging_must_leave_a_valid_board() -> None:
    """Taking a tile out of a three-tile set leaves two tiles: refused, nothing changes."""
    state = rig(RUN, [["B9", "Y1"], ["Y2"]])
    before = state.to_json()
    assert refused(state, "I8>I10; 8J B9") is Reason.NOT_ADJACENT
    assert refused(state, "I8>G9; 9G R7 B9") is Reason.INVALID_MELD
    assert state.to_json() == before


def test_moving_onto_a_tile_or_from_an_empty_cell() -> None:
    """A move needs a tile at its source and an empty target."""
    state = rig(RUN, [["R8", "Y1"], ["Y2"]])
    assert refused(state, "G8>H8; 8J R8") is Reason.CELL_TAKEN
    assert refused(state, "A1>A2; 8J R8") is Reason.CELL_EMPTY


# --- jokers ------------------------------------------------------------------------------------


JOKER_EXAMPLE_1 = {"G8": "G9", "H8": "R9", "I8": "J=Y9"}  # the joker is yellow or blue, value 9
JOKER_EXAMPLE_2 = {  # the joker is green 5, locked to green 4, green 6 and green 6
    "G8": "G4",
    "H8": "J=G5",
    "I8": "G6",
    "H9": "G6",
    "H10": "G7",
}


def cells(*names: str) -> frozenset[int]:
    board = board_from(dict.fromkeys(names, "R1"))
    return frozenset(i for i, code in enumerate(board) if code)


def test_joker_example_1_the_red_9_is_locked_to_the_joker() -> None:
    """G9 R9 J: the joker and the red 9 touching it are locked; the green 9 is not."""
    state = rig(JOKER_EXAMPLE_1, [["B9", "Y9", "R1"], ["Y2"]])
    assert state.locked() == cells("I8", "H8")
    assert refused(state, "H8>H9; 9I R1") is Reason.TILE_LOCKED
    assert refused(state, "I8>I9; 8I Y9") is Reason.TILE_LOCKED
    # The refusal says which: the joker itself stays put, a tile beside it is locked to it.
    with pytest.raises(RuleError) as beside:
        play(state, "H8>H9; 9I R1")
    assert "on H8 is locked to a joker beside it; free the joker first" in str(beside.value)
    with pytest.raises(RuleError) as itself:
        play(state, "I8>I9; 8I Y9")
    assert "on I8 is a joker, which stays put; free the joker first" in str(itself.value)


@pytest.mark.parametrize("tile", ["Y9", "B9"])
def test_joker_example_1_is_freed_by_a_yellow_or_blue_9(tile: str) -> None:
    """The joker stands for a yellow or a blue 9: either tile frees it into the inventory."""
    state = rig(JOKER_EXAMPLE_1, [[tile, "R1"], ["Y2"]])
    after = play(state, f"8I {tile}")
    assert after.board[CENTRE + 1] == tile
    assert sorted(after.rack(0)) == ["J", "R1"]
    assert after.locked() == frozenset()
    after.check_invariants()


def test_joker_example_1_is_not_freed_by_the_wrong_tile() -> None:
    """A red 9 cannot stand in the joker's place (the group already has red)."""
    state = rig(JOKER_EXAMPLE_1, [["R9", "R1"], ["Y2"]])
    assert refused(state, "8I R9") is Reason.CELL_TAKEN
    # The refusal names every tile that would free it ("either yellow or blue").
    with pytest.raises(RuleError, match=r"^The joker on I8 can be freed only with B9 or Y9, the"):
        play(state, "8I R9")


def test_a_joker_laid_this_turn_may_still_move() -> None:
    """J=R8 laid after R5 R6 R7 moves on in the same turn, to I9 under the R7 (R7 J=R8 R9)."""
    state = rig(RUN, [["J", "R9", "B1"], ["Y2"]])
    after = play(state, "8G R5 R6 R7 J=R8; J8>I9; I8 R7 J=R8 R9")
    assert [after.board[CENTRE + k] for k in (1, 2, 16, 31)] == ["R7", "", "J=R8", "R9"]
    assert after.rack(0) == ("B1",)
    assert after.locked() == cells("I9", "I8", "I10")


def test_joker_example_2_green_4_and_both_green_6_are_locked() -> None:
    """G4 J G6 across and J G6 G7 down: the joker, G4, G6 and G6 are locked, G7 is not."""
    state = rig(JOKER_EXAMPLE_2, [["G5", "G8", "Y1"], ["Y2"]])
    assert state.locked() == cells("H8", "G8", "I8", "H9")
    assert refused(state, "G8>G12; 11H G8") is Reason.TILE_LOCKED
    # Freeing the joker needs the green 5 it stands for; then nothing is locked any more.
    after = play(state, "8H G5")
    assert sorted(after.rack(0)) == ["G8", "J", "Y1"]
    assert after.locked() == frozenset()
    assert refused(rig(JOKER_EXAMPLE_2, [["Y5", "Y1"], ["Y2"]]), "8H Y5") is Reason.CELL_TAKEN


def test_a_joker_locks_after_the_turn_it_is_played() -> None:
    """In its own turn a joker is free; after the turn it and its neighbours are locked."""
    state = rig(RUN, [["J", "R9", "Y1"], ["Y2"]])
    after = play(state, "8G R5 R6 R7 J=R8 R9")
    assert after.locked() == cells("J8", "I8", "K8")
    assert after.rack(0) == ("Y1",)


def test_the_freed_joker_can_be_played_again_in_the_same_turn() -> None:
    """The joker goes to the inventory for you to use: here at once, in a new line."""
    state = rig(JOKER_EXAMPLE_1, [["B9", "G10", "G11", "R1"], ["Y2"]])
    after = play(state, "8I B9; G8 G9 J=G10 G11")
    assert "J" not in after.rack(0)
    assert sorted(after.rack(0)) == ["G10", "R1"]


def test_a_freed_jokers_neighbours_may_move_in_the_same_turn() -> None:
    """Once G5 frees the joker of example 2, the G4 beside it is no longer locked: it moves
    to H7 (G4 G5 G6 G7 down column H) and G7 ends the run across, all in one turn.
    """
    state = rig(JOKER_EXAMPLE_2, [["G5", "G7", "Y1"], ["Y2"]])
    assert refused(state, "G8>H7") is Reason.TILE_LOCKED
    after = play(state, "8H G5; G8>H7; 8H G5 G6 G7")
    assert [after.board[CENTRE + k] for k in (-15, 0, 15, 30)] == ["G4", "G5", "G6", "G7"]
    assert [after.board[CENTRE + k] for k in (-1, 1, 2)] == ["", "G6", "G7"]
    assert sorted(after.rack(0)) == ["J", "Y1"]


def test_two_jokers_in_one_combination_are_not_allowed() -> None:
    """A line may hold one joker only."""
    state = rig({}, [["J", "J", "R5", "B1"], ["Y1"]])
    assert refused(state, "8G R5 J=R6 J=R7") is Reason.TWO_JOKERS


def test_a_joker_may_not_be_part_of_the_play_that_empties_the_inventory() -> None:
    """The joker cannot be used in your final draw for the win."""
    state = rig(RUN, [["J", "R9"], ["Y2"]])
    assert refused(state, "8G R5 R6 R7 J=R8 R9") is Reason.JOKER_IN_LAST_PLAY
    state = rig(RUN, [["R8", "R9"], ["Y2"]])
    assert play(state, "8G R5 R6 R7 R8 R9").outcome is not None


# --- pass and swap -----------------------------------------------------------------------------


def test_pass_draws_one_tile() -> None:
    """Both pass and swap add one more tile to your inventory: a pass draws one."""
    state = NUMFEUD.new_game(2, seed=2, options={})
    after = state.apply(0, Pass())
    assert len(after.rack(0)) == 17
    assert len(after.bag) == len(state.bag) - 1
    after.check_invariants()


def test_swap_returns_tiles_and_draws_one_more() -> None:
    """A swap of three tiles returns them and draws four."""
    state = NUMFEUD.new_game(2, seed=2, options={})
    tiles = state.rack(0)[:3]
    after = state.apply(0, Swap(tiles))
    assert len(after.rack(0)) == 17
    assert after.swapped == (3, 0)
    after.check_invariants()


def test_swap_cap_is_13_tiles_per_game() -> None:
    """You are only allowed to swap 13 tiles during a game."""
    state = rig(RUN, [["B1", "B2", "B3", "Y1"], ["Y2"]], swapped=(11, 0))
    assert refused(state, "swap B1 B2 B3") is Reason.SWAP_LIMIT
    # A tile not held is told first: the limit is beside the point for it.
    assert refused(state, "swap R9 B1 B2") is Reason.TILE_NOT_IN_RACK
    with pytest.raises(RuleError, match=r"; you may swap 2 more: swap at most 2 or pass\.$"):
        play(state, "swap B1 B2 B3")
    after = play(state, "swap B1 B2")
    assert after.swapped == (13, 0)
    after = play(after, "pass")
    assert refused(after, "swap Y1") is Reason.SWAP_LIMIT
    with pytest.raises(RuleError, match=r"; you have swapped them all: lay tiles or pass\.$"):
        play(after, "swap Y1")
    with pytest.raises(RuleError, match=r"^Numfeud has no options; leave time= out\.$"):
        NUMFEUD.new_game(2, seed=1, options={"time": "15s"})


def test_swap_needs_the_tiles_and_a_bag() -> None:
    """You swap tiles you hold, while the bag has tiles."""
    state = rig(RUN, [["B1"], ["Y2"]])
    assert refused(state, "swap B2") is Reason.TILE_NOT_IN_RACK
    empty = replace(state, bag=(), racks=(state.racks[0], state.racks[1] + state.bag))
    assert refused(empty, "swap B1") is Reason.BAG_TOO_SMALL


# --- the full inventory ------------------------------------------------------------------------


FULL = ["R1", "R1", "B1", "B1", "R3", "R3", "B3", "B3", "Y1", "Y1"]
FULL += ["R11", "R11", "B11", "B11", "Y11", "Y11", "G1", "G1", "G3", "G3"]


def test_at_19_tiles_a_pass_or_a_swap_fills_the_rack_to_20() -> None:
    """20 tiles are allowed: from 19, a pass draws the 20th, and so does a swap of one."""
    state = rig(RUN, [["R8", *FULL[:18]], ["Y2"]])
    assert len(state.rack(0)) == 19
    assert len(play(state, "pass").rack(0)) == 20
    assert len(play(state, "swap R1").rack(0)) == 20


def test_at_20_tiles_pass_and_swap_are_refused() -> None:
    """At most 20 tiles: a player at 20 who can lay a tile must lay one."""
    state = rig(RUN, [["R8", *FULL[:19]], ["Y2"]])
    assert len(state.rack(0)) == 20
    assert refused(state, "pass") is Reason.INVENTORY_FULL
    assert refused(state, "swap R8") is Reason.INVENTORY_FULL


def test_at_20_tiles_a_swap_over_the_limit_is_told_to_lay_a_tile() -> None:
    """At 20 tiles a swap of too many is refused for the full inventory, not with "or pass"."""
    state = rig(RUN, [["R8", *FULL[:19]], ["Y2"]])
    with pytest.raises(RuleError, match=r"^You hold 20 tiles.*lay down a tile\.$") as info:
        play(state, "swap " + " ".join(state.rack(0)[:14]))
    assert info.value.reason is Reason.INVENTORY_FULL


def test_a_player_at_20_who_cannot_lay_a_tile_loses_50() -> None:
    """Inventory full and no tile to lay: the game is lost, -50 to you, +50 to the opponent."""
    # A group 1 … and a green 13 run end: nothing in FULL fits; B13 … does not exist there.
    board = {"G8": "Y7", "H8": "Y8", "I8": "Y9"}
    state = rig(board, [["Y2"], FULL[:19]], to_move=0)
    assert not state.has_legal_play(1)
    after = play(state, "pass")  # seat 1 now starts its turn with 20 tiles… after drawing
    assert len(after.rack(1)) == 19
    after = play(after, "pass", 1)
    assert len(after.rack(1)) == 20
    after = play(after, "pass", 0)
    assert after.outcome is not None
    assert after.outcome.reason == "full"
    assert after.scores == (50, -50)
    assert after.outcome.winners == (0,)
    after.check_invariants()


def test_a_player_at_20_with_a_play_goes_on() -> None:
    """With a tile that fits, the player at 20 simply has to play it."""
    state = rig(RUN, [["Y2"], ["R8", *FULL[:19]]])
    after = play(state, "pass")
    assert after.outcome is None
    assert after.has_legal_play(1)


def test_a_player_at_20_whose_only_play_moves_a_board_tile_goes_on() -> None:
    """The search also tries moving a spare fourth tile into a new line (example 2)."""
    group = {"H8": "R9", "I8": "B9", "J8": "Y9", "K8": "G9"}
    state = rig(group, [["Y2"], ["B9", *FULL[:19]]])
    assert len(state.rack(1)) == 20
    assert next(state.plays(1), None) is None
    turns = list(state.rearranged_plays(1))
    assert "H8>J6; J6 R9 B9 Y9" in [str(t) for t in turns]
    for turn in turns:
        after = replace(state, to_move=1).apply(1, turn)
        after.check_invariants()
        assert len(after.rack(1)) == 19
    assert state.has_legal_play(1)
    assert play(state, "pass").outcome is None


# R9 and R11 end two groups (D6, F8) where no R10 reaches them: the cell below R9 and the one
# above R11 lie beside G10 on E7, so an R10 there makes a line of two. Only moving both makes
# a run with the R10 from the rack: D6>H6; F8>H8; H6 R9 R10 R11. Nothing else of the rack fits.
TWO_SPARES = {
    "D6": "R9",
    "E6": "G9",
    "F6": "B9",
    "G6": "Y9",
    "E7": "G10",
    "C8": "B11",
    "D8": "Y11",
    "E8": "G11",
    "F8": "R11",
}
UNPLAYABLE = ["R1", "R1", "R2", "R2", "R4", "R4", "R5", "R5", "R7", "B1"]
UNPLAYABLE += ["B1", "B2", "B2", "B4", "B4", "B5", "B5", "B7", "B7"]


def test_a_player_at_20_whose_only_play_moves_two_board_tiles_goes_on() -> None:
    """The search moves two spare tiles into one new line: the full rack has a play, no loss."""
    state = rig(TWO_SPARES, [["Y2"], ["R10", *UNPLAYABLE]])
    assert len(state.rack(1)) == 20
    assert next(state.plays(1), None) is None
    assert "D6>H6; F8>H8; H6 R9 R10 R11" in [str(t) for t in state.rearranged_plays(1)]
    assert state.has_legal_play(1)
    after = play(state, "pass")
    assert after.outcome is None
    assert refused(after, "pass") is Reason.INVENTORY_FULL  # a play exists: lay it
    laid = play(after, "D6>H6; F8>H8; H6 R9 R10 R11")
    laid.check_invariants()
    assert len(laid.rack(1)) == 19


# R9 ends the group on H8-K8; R10 fits nowhere (below R9, B10 on I9 makes a line of two), but
# moved to L8 R9 ends B9 Y9 G9 R9 and starts a run down to the R11 that ends the group of 11s.
SPARE_INTO_RUN = {"H8": "R9", "I8": "B9", "J8": "Y9", "K8": "G9", "I9": "B10"}
SPARE_INTO_RUN |= {"I10": "B11", "J10": "Y11", "K10": "G11", "L10": "R11"}


def test_a_player_at_20_whose_only_play_moves_a_board_tile_into_a_run_goes_on() -> None:
    """The moved spare tile may start a run too, through a board tile: R9 R10 R11 down L8-L10."""
    state = rig(SPARE_INTO_RUN, [["Y2"], ["R10", *UNPLAYABLE]])
    assert len(state.rack(1)) == 20
    assert next(state.plays(1), None) is None
    assert [str(t) for t in state.rearranged_plays(1)] == ["H8>L8; L8 R9 R10 R11"]
    assert state.has_legal_play(1)
    after = play(state, "pass")
    assert after.outcome is None
    play(after, "H8>L8; L8 R9 R10 R11").check_invariants()


def test_a_player_at_20_the_search_finds_nothing_for_plays_on_and_may_give_up() -> None:
    """Not proved stuck (a rearrangement might lay R10), the game goes on; a pass gives it up."""
    # G11 on E8 is a joker now: R11 beside it is locked, so the pair above cannot move.
    state = rig(TWO_SPARES | {"E8": "J=G11"}, [["Y2"], ["R10", *UNPLAYABLE]])
    assert not state.has_legal_play(1)
    assert may_lay(state.board, state.rack(1))  # R9 R10 R11 is not ruled out
    after = play(state, "pass")
    assert after.outcome is None
    with pytest.raises(RuleError, match=r"or pass and lose the game \(50 points\)\.$"):
        play(after, "swap R1")
    lost = play(after, "pass")
    assert lost.outcome is not None
    assert lost.outcome.reason == "full"
    assert lost.scores == (50, -50)
    assert lost.history[-1].text == "passed holding 20 tiles and lost"
    lost.check_invariants()
    assert NUMFEUD.ending_note(lost, ["alice", "bob"]) == (
        "bob held 20 tiles and passed, laying none of them: a full rack that lays nothing loses."
    )


def test_a_full_rack_with_no_play_found_that_lets_the_time_run_out_loses_as_by_a_pass() -> None:
    """The 72 hours run out at 20 tiles with no play found: -50 / +50, as the pass it had left.

    Before, the timeout resigned (-50 / 0): a player sure to lose denied the opponent the 50.
    """
    state = rig(TWO_SPARES | {"E8": "J=G11"}, [["Y2"], ["R10", *UNPLAYABLE]])
    after = play(state, "pass")
    lost = NUMFEUD.on_timeout(after, 1)
    assert lost.outcome is not None
    assert lost.outcome.reason == "full"
    assert lost.scores == (50, -50)
    assert lost.history[-1].text == "ran out of time holding 20 tiles and lost"
    lost.check_invariants()
    assert NUMFEUD.ending_note(lost, ["alice", "bob"]) == (
        "bob held 20 tiles and let the time run out, laying none of them: a full rack that lays "
        "nothing loses."
    )
    assert NUMFEUD.on_timeout(state, 0).scores == (-50, 0)  # no full rack: resigned as ever


def test_no_play_is_proved_when_no_line_can_hold_a_rack_tile_and_a_board_tile() -> None:
    """Y7 Y8 Y9 and a rack of 1s, 3s and 11s: no group or run joins them, so none can be laid."""
    board = board_from({"G8": "Y7", "H8": "Y8", "I8": "Y9"})
    assert not may_lay(board, FULL[:19])
    assert may_lay(board, [*FULL[:19], "Y10"])  # Y7 … Y10
    assert may_lay(board, [*FULL[:19], "R8", "B8"])  # a group of 8s through Y8
    assert may_lay(board, [*FULL[:19], "J"])
    assert may_lay(board_from({}), FULL[:19])  # a first play is never ruled out


# --- the end -----------------------------------------------------------------------------------


def test_going_out_wins_the_opponents_remaining_tiles() -> None:
    """The winner gains the opponent's remaining sum (joker 15); the loser loses their own."""
    state = rig(RUN, [["R8"], ["Y2", "B10", "J"]])
    after = play(state, "8G R5 R6 R7 R8")
    assert after.outcome is not None
    assert after.outcome.reason == "out"
    assert after.scores == (27, -27)
    assert inventory_value(["Y2", "B10", "J"]) == 27
    assert after.outcome.winners == (0,)
    after.check_invariants()


def test_resign_before_moving_costs_nothing_after_moving_costs_50() -> None:
    """Resigning after at least one move costs 50; before your first move it costs nothing."""
    state = NUMFEUD.new_game(2, seed=5, options={})
    early = state.apply(1, Resign())
    assert early.scores == (0, 0)
    assert early.outcome is not None
    assert early.outcome.winners == (0,)
    moved = state.apply(0, Pass()).apply(1, Pass())
    late = moved.apply(0, Resign())
    assert late.scores == (-50, 0)
    assert late.outcome is not None
    assert late.outcome.winners == (1,)


def test_72_hours_without_a_move_resigns_for_50() -> None:
    """The timeout resigns the game for the player and costs 50, even before a first move."""
    state = NUMFEUD.new_game(2, seed=5, options={})
    assert NUMFEUD.turn_timeout({}).total_seconds() == 72 * 3600
    after = NUMFEUD.on_timeout(state, 0)
    assert after.scores == (-50, 0)
    assert after.outcome is not None
    assert after.outcome.reason == "timeout"
    assert after.outcome.winners == (1,)


def test_empty_bag_two_passes_end_the_game_lower_sum_wins() -> None:
    """Bag empty and both pass: the smaller inventory wins the other's sum, as if it went out."""
    board = dict(RUN)
    rest = Counter(TILE_COUNTS)
    rest.subtract(["R5", "R6", "R7", "Y2", "B10"])
    a = sorted(rest.elements())
    state = rig(board, [["Y2", *a[:50]], ["B10", *a[50:]]], bag=())
    one = play(state, "pass")
    assert one.outcome is None
    two = play(one, "pass", 1)
    assert two.outcome is not None
    assert two.outcome.reason == "blocked"
    low, high = inventory_value(state.rack(0)), inventory_value(state.rack(1))
    winner = 0 if low < high else 1
    assert two.outcome.winners == (winner,)
    assert two.scores[winner] == max(low, high)
    assert two.scores[1 - winner] == -max(low, high)


def test_a_play_between_empty_bag_passes_resets_the_count() -> None:
    """Only passes in a row end the game."""
    rest = Counter(TILE_COUNTS)
    rest.subtract(["R5", "R6", "R7", "R8", "Y2"])
    a = sorted(rest.elements())
    state = rig(RUN, [["Y2", "R8", *a[:20]], a[20:]], bag=())
    one = play(state, "pass")
    assert one.passes == 1
    two = play(replace(one, to_move=0), "8G R5 R6 R7 R8")
    assert two.passes == 0


def test_not_your_turn_and_game_over() -> None:
    """Only the seat to move plays; a finished game takes no moves."""
    state = rig(RUN, [["R8"], ["Y2"]])
    with pytest.raises(RuleError) as info:
        state.apply(1, NUMFEUD.parse_move("pass"))
    assert info.value.reason is Reason.NOT_YOUR_TURN
    over = play(state, "8G R5 R6 R7 R8")
    with pytest.raises(RuleError) as info:
        over.apply(1, NUMFEUD.parse_move("pass"))
    assert info.value.reason is Reason.GAME_OVER


# --- views and JSON ----------------------------------------------------------------------------


def test_json_round_trips_and_view_hides_the_other_inventory() -> None:
    """to_json/from_json round-trip; view(seat) shows only that seat's inventory."""
    state = play(rig(JOKER_EXAMPLE_2, [["B1", "R2"], ["Y2"]]), "pass")
    assert NUMFEUD.from_json(state.to_json()) == state
    view = state.view(1)
    assert view["rack"] == ["Y2"]
    assert "racks" not in view
    assert view["rack_sizes"] == [3, 1]
    assert "H8" in view["locked"]
    assert "rack" not in state.view(None)


def test_search_finds_lays_and_frees() -> None:
    """The play search yields legal single-line lays and joker frees, and nothing illegal."""
    state = rig(JOKER_EXAMPLE_1, [["B9", "G10", "G11", "Y1"], ["Y2"]])
    plays = [str(p) for p in state.plays(0)]
    assert "8I B9" in plays
    assert any(p.startswith("G8 G9 G10 G11") for p in plays)
    for text in plays:
        play(state, text).check_invariants()
    assert isinstance(next(state.plays(0)), Turn)


# --- the game-over note and /rules ------------------------------------------------------------

NAMES = ("alice", "bob")


def test_ending_note_blocked_says_the_smaller_inventory_wins_with_the_sums() -> None:
    """Bag empty and both passed: the note gives each inventory sum, smallest first."""
    state = rig(RUN, [["Y2", "B10"], ["J", "G13"]], bag=())
    over = play(play(state, "pass"), "pass", 1)
    assert over.outcome is not None
    assert over.outcome.reason == "blocked"
    assert over.scores == (28, -28)
    assert NUMFEUD.ending_note(over, NAMES) == (
        "The smaller rack sum wins: alice 12, bob 28 (a joker counts 15)."
    )
    low_second = rig(RUN, [["J", "G13"], ["Y2", "B10"]], bag=())
    over = play(play(low_second, "pass"), "pass", 1)
    assert NUMFEUD.ending_note(over, NAMES) == (
        "The smaller rack sum wins: bob 12, alice 28 (a joker counts 15)."
    )


def test_ending_note_blocked_with_equal_sums_says_nobody_wins() -> None:
    """Equal sums: nobody wins, each loses their own; no joker left, so none is explained."""
    state = rig(RUN, [["Y2", "B10"], ["G12"]], bag=())
    over = play(play(state, "pass"), "pass", 1)
    assert over.outcome is not None
    assert over.outcome.winners == ()
    assert over.scores == (-12, -12)
    assert NUMFEUD.ending_note(over, NAMES) == (
        "Equal racks, so nobody wins and each loses their own sum: alice 12, bob 12."
    )


def test_ending_note_is_empty_for_the_other_endings() -> None:
    """Going out or resigning: the scores say enough."""
    out = play(rig(RUN, [["R8"], ["Y2", "B10", "J"]]), "8G R5 R6 R7 R8")
    assert out.outcome is not None
    assert NUMFEUD.ending_note(out, NAMES) == ""
    assert NUMFEUD.ending_note(play(rig(RUN, [["R8"], ["Y2"]]), "resign"), NAMES) == ""


def test_rules_summary_states_how_to_win_and_the_limits() -> None:
    """/rules numfeud: the aim, pass and swap, the 13-tile swap cap, 20 tiles, ranking points."""
    text = NUMFEUD.notation_help()
    for fact in (
        "Win by laying all your tiles first",
        "A pass draws a tile",
        "13 tiles swapped per game at most",
        "20 tiles at most",
        "lose 50",
        "the smaller rack sum wins",
        "Tiles: R B Y G (red, blue, yellow, green) 1–13 and jokers J",
        "Ranking points: the winner gains the loser's rack sum (a joker counts 15)",
        "8H R5 R6 R7",
    ):
        assert fact in text


def test_tiles_without_a_square_first_are_told_to_start_with_one() -> None:
    """Tiles with no square first: the answer says R5 is a tile and shows the move with one."""
    with pytest.raises(InvalidMove, match=r"'R5' is a tile, not a square: .* e\.g\. 8H R5 R6 R7"):
        parse_numfeud_move("R5 R6 R7")
    assert str(parse_numfeud_move("B5 R6 R7")) == "B5 R6 R7"  # column B, row 5: a square


def test_a_refused_lay_from_a_square_named_like_a_tile_says_how_it_was_read() -> None:
    """B and G are columns too: "B7 B8 B9 B10" lays B8 B9 B10 down from square B7. Whoever
    meant the tile B7 forgot the square: the refusal says how the line was read — the same
    words whether the player holds a B7 or not (a refusal may be shown in the group).
    """
    state = rig({}, [["B7", "B8", "B9", "B10", "R1"], ["Y1"]])
    other = rig({}, [["B8", "B9", "B10", "R1"], ["Y1"]])
    said = []
    for position in (state, other):
        with pytest.raises(RuleError) as info:
            play(position, "B7 B8 B9 B10")
        assert info.value.reason is Reason.FIRST_MOVE_NOT_THROUGH_START  # its own reason
        said.append(str(info.value))
    assert (
        said[0]
        == said[1]
        == (
            "Your first play must cover the centre square H8. (B7 was read as a square, going "
            "down: to lay a tile B7, start with a square, e.g. 8H B7 …)"
        )
    )
    # 8H B7 B8 B9 B10 is what was meant, and is legal.
    assert play(state, "8H B7 B8 B9 B10").racks[0] == ("R1",)
    # A refusal too long to take the note whole goes without it, never cut.
    long = rig({}, [["G10", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"], ["Y1"]])
    with pytest.raises(RuleError) as info:
        play(long, "G10 Y3 Y4 Y5 Y6 Y7 Y8 Y9")
    assert not str(info.value).endswith("…"), str(info.value)


def test_the_search_finds_lays_through_cross_lines_and_joker_lines() -> None:
    """R5 on H7 starts R5 R6 R7 R8 down column H and sits in the group B5 R5 Y5 across row 7:
    the search offers that lay (its cross line lies after the new tile, not before it), and one
    that joins the board only through a cross line, extends a line holding a joker, reaches 13
    or completes a group of four, starts a new run at 1 or ends one at 13, or lays the rack's
    joker. Each is a play a player at 20 tiles has, so missing one would lose them the game.
    """
    state = rig({"H8": "R6", "H9": "R7", "H10": "R8"}, [["B5", "R5", "Y5", "G13"], ["R1"]])
    plays = {str(play) for play in state.plays(0)}
    assert "7G B5 R5 Y5" in plays
    assert "7G Y5 R5 B5" in plays
    # A lay that joins the board only sideways: R8 under R5 R6 R7, in a group across row 10.
    state = rig({"H7": "R5", "H8": "R6", "H9": "R7"}, [["B8", "R8", "Y8", "G13"], ["R1"]])
    assert "10G B8 R8 Y8" in {str(play) for play in state.plays(0)}
    # A line that holds a joker may still be extended (one joker a line).
    state = rig({"G8": "R5", "H8": "J=R6", "I8": "R7"}, [["R8", "G13"], ["R1"]])
    assert "8G R5 J=R6 R7 R8" in {str(play) for play in state.plays(0)}
    # A run may reach 13, and a group take its fourth colour.
    state = rig({"G8": "R10", "H8": "R11", "I8": "R12"}, [["R13", "G1"], ["R1"]])
    assert "8G R10 R11 R12 R13" in {str(play) for play in state.plays(0)}
    state = rig({"G8": "R5", "H8": "B5", "I8": "Y5"}, [["G5", "G1"], ["R1"]])
    assert "8G R5 B5 Y5 G5" in {str(play) for play in state.plays(0)}
    # A new run in an empty row, from 1 or up to 13, joined by its middle tile's cross group.
    for low, run in ((2, "R1 R2 R3"), (12, "R11 R12 R13")):
        board = {"H8": f"B{low}", "H9": f"Y{low}", "H10": f"G{low}"}
        state = rig(board, [[*run.split(), "G5"], ["R5"]])
        assert f"7G {run}" in {str(play) for play in state.plays(0)}
    # The rack's joker fills a gap.
    state = rig(RUN, [["J", "R9", "G13"], ["R1"]])
    assert "8G R5 R6 R7 J=R8 R9" in {str(play) for play in state.plays(0)}
    # The same with the lowest number: R1 starts R1 R2 R3.
    state = rig({"H8": "R2", "H9": "R3", "H10": "R4"}, [["B1", "R1", "Y1", "G13"], ["R5"]])
    assert "7G B1 R1 Y1" in {str(play) for play in state.plays(0)}


def test_the_search_lays_a_groups_colours_in_every_order() -> None:
    """With no cross line to tell them apart, B5 R5 and R5 B5 beside Y5 are two plays.

    They score the same but leave different boards (a later line through those cells meets
    other colours); a property test found the search offering only one order.
    """
    state = rig({"K8": "Y4", "K9": "Y5", "K10": "Y6"}, [["B5", "R5", "G11", "G13"], ["R1"]])
    boards = {state.apply(0, play).board for play in state.plays(0)}
    cell = board_from({"L9": "B5"}).index("B5")  # L9, then M9 right of it
    beside = {(board[cell], board[cell + 1]) for board in boards}
    assert {("B5", "R5"), ("R5", "B5")} <= beside
