"""NMBR 9 rules: shapes and turns, every placement rule, scoring, simultaneous rounds, deadlines."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import timedelta
from functools import partial

import pytest

from bot.core.errors import InvalidMove, InvariantError, Reason, RuleError
from bot.core.game import MoveRecord, Outcome, Resign
from bot.games.nmbr9 import (
    HIDDEN_PLACEMENT,
    NMBR9,
    NUMBERS,
    ROUNDS,
    SHAPE,
    SHAPES,
    SIZE,
    Nmbr9State,
    Place,
    Placed,
    Skip,
    auto_fit,
    legal_placements,
    on_level,
    parse_nmbr9_move,
    suggest_placements,
)
from tests.games.moves import play_text, refusal_of

play = partial(play_text, NMBR9)
refusal = partial(refusal_of, NMBR9)

# The square counts printed in the reference file.
SQUARE_COUNTS = {0: 10, 1: 5, 2: 9, 3: 9, 4: 8, 5: 10, 6: 9, 7: 7, 8: 8, 9: 10}


def rigged(*first: int, players: int = 1) -> Nmbr9State:
    """Deal a game whose deck starts with `first` (the rest of the 20 cards follow in order)."""
    rest = [n for n in NUMBERS for _ in range(2)]
    for n in first:
        rest.remove(n)
    return NMBR9.new_game(players, seed=1, options={}, deck=(*first, *rest))


def covered(state: Nmbr9State, seat: int = 0) -> set[str]:
    """Return the names of the squares the last placement of `seat` covered."""
    record = [r for r in state.history if r.seat == seat][-1]
    return {f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[c % SIZE]}{c // SIZE + 1}" for c in record.cells}


# --- the material -----------------------------------------------------------------------------


def test_shapes_match_the_reference_square_counts_and_box() -> None:
    """Each shape has the reference's number of squares and fits a 3-wide, 4-tall box."""
    for number, rows in SHAPES.items():
        assert "".join(rows).count("#") == SQUARE_COUNTS[number]
        assert len(rows) == 4
        assert all(len(row) == 3 for row in rows)


# The reference file's pictures (../shared/reference/nmbr9-tiles.txt), 0 to 9, number upright.
REFERENCE_SHAPES = """
### ##. .## ### .## ### ##. ### .## ###
#.# .#. .## ..# .#. ### #.. .#. .## ###
#.# .#. ##. .## ### ..# ### ##. ##. ##.
### .#. ### ### .## ### ### #.. ##. ##.
"""


def test_shapes_are_the_reference_pictures() -> None:
    """Every square of every tile is where the reference file's picture has it."""
    rows = [line.split() for line in REFERENCE_SHAPES.split("\n") if line]
    assert {n: tuple(row[n] for row in rows) for n in NUMBERS} == SHAPES


def turned(rows: tuple[str, ...], rotation: int) -> list[str]:
    """Turn a picture clockwise by `rotation` degrees (an independent implementation)."""
    grid = [list(row) for row in rows]
    for _ in range(rotation // 90):
        grid = [list(col) for col in zip(*grid[::-1], strict=True)]
    return ["".join(row) for row in grid]


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_every_shape_turns_clockwise_and_is_never_flipped(number: int, rotation: int) -> None:
    """Placed at B2, each turned tile covers exactly its turned picture (box corner on B2)."""
    state = rigged(number)
    state = play(state, 0, f"B2 {rotation}")
    picture = turned(SHAPES[number], rotation)
    # Trim empty outer rows/columns: the coordinate names the corner of the squares' box.
    rows = [r for r, line in enumerate(picture) if "#" in line]
    cols = [c for c in range(len(picture[0])) if any(line[c] == "#" for line in picture)]
    expected = {
        f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[1 + c - cols[0]]}{2 + r - rows[0]}"
        for r, line in enumerate(picture)
        for c, ch in enumerate(line)
        if ch == "#"
    }
    assert covered(state) == expected
    assert state.display(0).occupied[0].bit_count() == SQUARE_COUNTS[number]


def test_four_quarter_turns_come_back_and_mirrors_never_appear() -> None:
    """A 7 turned 90 then 270 more is the 7 again; no turn of the 7 is its mirror image."""
    seven = SHAPE[7, 0].cells
    mirror = tuple(sorted((r, 2 - c) for r, c in seven))
    turns = {SHAPE[7, rot].cells for rot in (0, 90, 180, 270)}
    assert len(turns) == 4
    assert mirror not in turns


def test_deck_has_two_of_each_number_shuffled_from_the_seed() -> None:
    """20 cards, two of each 0–9; the same seed deals the same order, another seed another."""
    a = NMBR9.new_game(2, seed=5, options={})
    b = NMBR9.new_game(2, seed=5, options={})
    c = NMBR9.new_game(2, seed=6, options={})
    assert sorted(a.deck) == sorted(list(NUMBERS) * 2)
    assert len(a.deck) == ROUNDS == 20
    assert a.deck == b.deck
    assert a.deck != c.deck


@pytest.mark.parametrize("players", [0, 5])
def test_one_to_four_players(players: int) -> None:
    """NMBR 9 takes 1 to 4 players; other counts are refused."""
    with pytest.raises(RuleError) as info:
        NMBR9.new_game(players, seed=1, options={})
    assert info.value.reason is Reason.BAD_PLAYER_COUNT
    assert NMBR9.new_game(1, seed=1, options={}).players == 1
    assert NMBR9.new_game(4, seed=1, options={}).players == 4


def test_the_box_of_eight_tiles_a_number_never_runs_short() -> None:
    """The box holds 80 tiles, 8 of each number; the cards name each number twice, so even the
    most players (4) place at most 8 of a number between them: the tiles need no counting.
    """
    state = NMBR9.new_game(NMBR9.max_players, seed=3, options={})
    for _ in range(ROUNDS):
        for seat in range(NMBR9.max_players):
            state = state.auto_place(seat)
    assert state.outcome is not None
    placed = Counter(p.number for entries in state.placements for p in entries if p is not None)
    assert set(placed) == set(NUMBERS)
    assert max(placed.values()) <= 8


# --- notation --------------------------------------------------------------------------------


def test_notation_reads_cell_and_clockwise_turn() -> None:
    """`C4 90` is column C, row 4, turned 90° clockwise; case, spaces and ° are forgiven."""
    assert parse_nmbr9_move("C4 90") == Place(3, 2, 90)
    assert parse_nmbr9_move(" c4   90° ") == Place(3, 2, 90)
    assert parse_nmbr9_move("Z26 270") == Place(25, 25, 270)
    assert parse_nmbr9_move("C4") == Place(3, 2, 0)
    assert str(Place(3, 2, 90)) == "C4 90"
    assert parse_nmbr9_move("skip") == Skip()


@pytest.mark.parametrize("text", ["", "C", "4C 90", "C0 90", "C27 0", "C4 45", "C4 90 1", "AA4 0"])
def test_malformed_notation_shows_the_expected_form(text: str) -> None:
    """Unreadable text raises InvalidMove whose message gives an example."""
    with pytest.raises(InvalidMove) as info:
        NMBR9.parse_move(text)
    assert "C4 90" in info.value.message


# --- placement rules -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["A1 0", "Y23 0", "W25 90", "M13 180"])
def test_first_tile_goes_anywhere_on_the_table(text: str) -> None:
    """The first tile may lie anywhere, corners included, at level 0 scoring nothing."""
    state = play(rigged(1), 0, text)  # the 1 is 2 wide and 4 tall
    assert state.history[-1].score == 0
    assert state.placements[0][0].level == 0  # type: ignore[union-attr]


def test_a_tile_may_not_run_off_the_table() -> None:
    """A box running past column Z or row 26 is refused, naming the last corner that works."""
    error = refusal(rigged(9), 0, "Y1 0")
    assert error.reason is Reason.OUT_OF_BOUNDS
    assert "X23" in error.message
    # As every refusal of a placement, it suggests one that works.
    suggested = error.message.rsplit("Try ", 1)[1].split(" (")[0]
    assert play(rigged(9), 0, suggested).placements[0][0].level == 0  # type: ignore[union-attr]


def test_level_0_tile_must_share_an_edge_with_a_level_0_tile() -> None:
    """A second table tile touching nothing, or only a corner, is refused; an edge is enough."""
    state = play(rigged(9, 8), 0, "A1 0")  # the 9 covers A1–C2, A3–B4
    assert refusal(state, 0, "E1 0").reason is Reason.NOT_ADJACENT
    # The 8 at B5 covers C5 D5, C6 D6, B7 C7, B8 C8: C5 meets the 9's B4 at a corner only.
    error = refusal(state, 0, "B5 0")
    assert error.reason is Reason.NOT_ADJACENT
    assert "Try" in error.message
    after = play(state, 0, "C1 0")  # D1 meets the 9's C1, C3 meets its B3
    assert after.placements[0][1].level == 0  # type: ignore[union-attr]


def test_tiles_never_overlap_on_a_level() -> None:
    """A tile half on the table, half on a tile is refused as not flat (no overhang)."""
    state = play(rigged(9, 5), 0, "A1 0")
    error = refusal(state, 0, "B1 0")
    assert error.reason is Reason.NOT_FLAT
    assert "on level 1" in error.message
    assert "on the table" in error.message


def two_nines() -> Nmbr9State:
    """Two upright 9s side by side: A1–F2 full, then A3–B4 and D3–E4 (C3, C4 empty); a 5 next."""
    state = play(rigged(9, 9, 5, 8, 0, 1), 0, "A1 0")
    return play(state, 0, "D1 0")


def nine_block(*then: int) -> Nmbr9State:
    """Two 9s, one turned 180, fill the block A1–E4; the next cards are `then`."""
    state = play(rigged(9, 9, *then), 0, "A1 0")
    return play(state, 0, "C1 180")


def test_tile_above_level_0_must_lie_on_two_tiles() -> None:
    """A 5 lying on both 9s of the block goes to level 1 and scores 5; a 1 on one 9 is refused."""
    after = play(nine_block(5), 0, "A1 0")  # A1–C2, C3, A4–C4: on the 9 and the turned 9
    assert after.placements[0][2] == Placed(5, 0, 0, 0, 1)
    assert after.scores == (5,)
    one = play(rigged(9, 1), 0, "A1 0")
    error = refusal(one, 0, "A1 0")  # a 1 fits inside the 9 alone
    assert error.reason is Reason.ONE_SUPPORTING_TILE
    assert "the 9 alone" in error.message
    # Level 1 has no spot over one tile: the refusal suggests one elsewhere (here the table).
    assert error.message.endswith("(on the table).")
    suggested = error.message.rsplit("Try ", 1)[1].split(" (")[0]
    assert play(one, 0, suggested).scores == one.scores  # it works, on level 0


def test_tile_above_level_0_may_not_bridge_a_gap() -> None:
    """A tile over an empty square (a gap between tiles, or the hole of a 0) is not flat."""
    state = two_nines()
    error = refusal(state, 0, "B1 0")  # B1–D2, D3, B4–D4: C4 is a gap between the 9s
    assert error.reason is Reason.NOT_FLAT
    assert "C4 on the table" in error.message
    overhang = refusal(nine_block(5), 0, "D1 0")  # D1–F2 …: column F is off the block
    assert overhang.reason is Reason.NOT_FLAT


def test_two_nines_fill_a_flat_block() -> None:
    """A 9 at A1 and a 9 turned 180 at C1 cover all 20 squares of A1–E4 on the table."""
    state = nine_block()
    block = {f"{col}{row}" for col in "ABCDE" for row in range(1, 5)}
    first = {c for c in block if c[0] in "AB" or c[1] in "12"} - {"D1", "E1", "D2", "E2"}
    assert covered(state) | first == block
    assert state.display(0).occupied[0].bit_count() == 20


def test_level_of_a_tile_follows_from_where_it_is_put() -> None:
    """On the block a 1 lies on level 1; a 6 beside it too; a 3 over both goes to level 2."""
    state = play(nine_block(1, 6, 3), 0, "B3 90")  # the 1: E3, B4–E4
    assert state.placements[0][-1].level == 1  # type: ignore[union-attr]
    state = play(state, 0, "B1 90")  # the 6: B1–E1, B2 C2 E2, B3 C3
    assert state.placements[0][-1].level == 1  # type: ignore[union-attr]
    state = play(state, 0, "B2 90")  # the 3: B2 E2, B3 C3 E3, B4–E4 — on the 1 and the 6
    assert state.placements[0][-1] == Placed(3, 1, 1, 90, 2)
    assert [r.score for r in state.history] == [0, 0, 1, 6, 6]
    assert state.scores == (13,)
    assert state.display(0).height(1, 1) == 3  # B2: a 9, the 6 and the 3


def test_level_1_tile_must_share_an_edge_with_a_level_1_tile() -> None:
    """Once level 1 has a tile, a level-1 tile touching it only by a gap of air is refused."""
    state = play(nine_block(1, 1), 0, "B3 90")  # level 1: E3, B4–E4
    error = refusal(state, 0, "A1 90")  # D1, A2–D2: flat on both 9s, but touches no level-1 tile
    assert error.reason is Reason.NOT_ADJACENT
    assert "level 1" in error.message
    after = play(state, 0, "B1 90")  # E1, B2–E2: E2 shares an edge with E3
    assert after.placements[0][-1].level == 1  # type: ignore[union-attr]


def test_every_refusal_leaves_the_state_untouched_and_names_a_fix() -> None:
    """Refused placements do not change the state; their messages suggest a legal placement."""
    state = two_nines()
    before = state.to_json()
    for text in ("B1 0", "Q1 0", "A9 0"):
        error = refusal(state, 0, text)
        assert "Try" in error.message
    assert state.to_json() == before


# --- scoring and the end ---------------------------------------------------------------------


def test_score_is_number_times_level_and_table_scores_nothing() -> None:
    """Table tiles score 0; a 5 on level 1 scores 5; the history records each placement's points."""
    state = play(nine_block(5), 0, "A1 0")
    assert [r.score for r in state.history] == [0, 0, 5]
    assert state.scores == (5,)


def test_solo_game_ends_after_20_rounds_with_its_final_score() -> None:
    """A solo game placed by the fixed rule ends after 20 placements; its score is the record."""
    state = NMBR9.new_game(1, seed=11, options={})
    for _ in range(ROUNDS):
        assert state.outcome is None
        state = state.auto_place(0)
        state.check_invariants()
    assert state.outcome is not None
    assert state.outcome.scores == state.scores
    assert state.outcome.winners == (0,)
    assert state.turn == 20
    assert state.waiting_for() == ()
    with pytest.raises(RuleError) as info:
        state.apply(0, Place(0, 0, 0))
    assert info.value.reason is Reason.GAME_OVER


def test_a_tie_shares_the_win() -> None:
    """Two players who build the same display both win."""
    state = NMBR9.new_game(2, seed=4, options={})
    for _ in range(ROUNDS):
        state = state.auto_place(1).auto_place(0)
    assert state.outcome is not None
    assert state.outcome.winners == (0, 1)


# --- simultaneous rounds ---------------------------------------------------------------------


def test_three_players_place_each_round_in_any_order() -> None:
    """Every round all seats place the same number in any order; the next card waits for all."""
    state = NMBR9.new_game(3, seed=9, options={})
    first, second = state.deck[0], state.deck[1]
    assert state.waiting_for() == (0, 1, 2)
    assert state.rack(1) == (str(first),)
    state = play(state, 2, "M13 0")
    assert state.waiting_for() == (0, 1)
    assert state.rack(2) == ()
    assert state.card == first  # the round is not over
    error = refusal(state, 2, "A1 0")
    assert error.reason is Reason.ALREADY_PLACED
    assert error.message.endswith("when the 2 other players have placed theirs.")
    state = play(state, 0, "A1 90")
    error = refusal(state, 0, "A5 0")
    assert error.message.endswith("when the other player has placed theirs.")
    state = play(state, 1, "J10 180")
    assert state.card == second
    assert state.waiting_for() == (0, 1, 2)
    assert state.turn == 3
    # Round two in another order, each by the fixed rule.
    state = state.auto_place(1, "test").auto_place(0, "test")
    assert state.waiting_for() == (2,)
    state = state.auto_place(2, "test")
    assert state.round == 2
    assert state.turn == 6
    state.check_invariants()


def test_a_solo_player_who_resigns_ends_the_game_without_a_winner() -> None:
    """/resign in a solo game ends it at once: the score so far stands, nobody wins."""
    state = NMBR9.new_game(1, seed=11, options={})
    state = state.auto_place(0).auto_place(0)
    score = state.scores[0]
    assert parse_nmbr9_move("Resign") == Resign()
    state = play(state, 0, "resign")
    state.check_invariants()
    assert state.outcome == Outcome((score,), (), "resign")
    assert state.waiting_for() == ()
    assert state.card is None
    assert refusal(state, 0, "A1 0").reason is Reason.GAME_OVER
    restored = NMBR9.from_json(state.to_json())
    assert restored == state
    assert restored.outcome == state.outcome


def test_with_three_players_a_resigner_leaves_and_the_last_one_left_wins() -> None:
    """A resigned seat places no more and cannot win; the others play on while two remain."""
    state = NMBR9.new_game(3, seed=9, options={})
    state = state.auto_place(0)
    state = play(state, 1, "resign")  # before placing this round's tile
    assert state.waiting_for() == (2,)
    assert state.outcome is None
    assert state.card == state.deck[0]  # the round waits for seat 2 only
    assert refusal(state, 1, "A1 0").reason is Reason.PLAYER_LEFT
    state = state.auto_place(2)
    assert state.round == 1
    assert state.waiting_for() == (0, 2)
    for _ in range(3):
        state = state.auto_place(2).auto_place(0)
        state.check_invariants()
    assert state.round == 4
    assert len(state.placements[1]) == 0  # seat 1's display stays as it was
    view = state.view(None)
    assert view["resigned"] == [1]
    assert {"seat": 1, "text": "resigned"}.items() <= view["history"][1].items()
    restored = NMBR9.from_json(state.to_json())
    assert restored == state
    assert restored.waiting_for() == (0, 2)
    state = state.auto_place(2)
    state = play(state, 2, "resign")  # its tile of round 5 placed, seat 0's not yet
    state.check_invariants()
    assert state.outcome is not None
    assert state.outcome.winners == (0,)  # the one seat left wins, whatever the scores
    assert state.outcome.reason == "resign"
    assert refusal(state, 0, "A1 0").reason is Reason.GAME_OVER


def on_the_table(state: Nmbr9State, seat: int) -> Nmbr9State:
    """Place `seat`'s tile on the table (level 0: it scores nothing)."""
    assert state.card is not None
    fit = min(state.display(seat).fits(state.card), key=lambda f: (f.level, f.row, f.col))
    assert fit.level == 0
    return state.apply(seat, Place(fit.row, fit.col, fit.rotation))


def test_a_game_played_out_after_a_resignation_is_won_among_those_left() -> None:
    """The best score among the seats still playing wins; a resigned seat never does."""
    state = NMBR9.new_game(3, seed=4, options={})
    for _ in range(8):  # seat 0 stacks and scores; seats 1 and 2 keep to the table
        state = on_the_table(on_the_table(state.auto_place(0), 1), 2)
    assert state.scores[0] > 0
    state = play(state, 0, "resign")
    for _ in range(ROUNDS - 8):
        state = on_the_table(on_the_table(state, 1), 2)
    state.check_invariants()
    assert state.scores == (state.scores[0], 0, 0)
    assert state.outcome is not None
    assert state.outcome.reason == "complete"
    assert state.outcome.winners == (1, 2)  # 0 points each: a tie, and seat 0 had more


def test_view_hides_other_players_tiles_of_the_current_round() -> None:
    """A seat sees its own tile at once, the others' only when the round is over."""
    state = play(NMBR9.new_game(2, seed=3, options={}), 0, "M13 0")
    mine, theirs = state.view(0), state.view(1)
    assert len(mine["displays"][0]) == 1
    assert len(theirs["displays"][0]) == 0
    assert theirs["placed"] == [True, False]
    # The history says seat 0 placed, not what or where.
    assert theirs["history"] == [MoveRecord(0, HIDDEN_PLACEMENT, 0).to_json()]
    assert mine["history"][0]["text"] == "M13 0"
    assert theirs["rack"] == [str(state.deck[0])]
    assert len(mine["cards_seen"]) == 1  # future cards stay hidden
    state = play(state, 1, "A1 0")
    assert len(state.view(1)["displays"][0]) == 1
    assert len(state.view(None)["cards_seen"]) == 2


# --- deadlines -------------------------------------------------------------------------------


def test_round_deadline_option_defaults_to_24_hours() -> None:
    """deadline=24h|12h|1h|10m sets the round deadline; anything else is refused."""
    assert NMBR9.turn_timeout({}) == timedelta(hours=24)
    assert NMBR9.turn_timeout({"deadline": "10m"}) == timedelta(minutes=10)
    with pytest.raises(RuleError) as info:
        NMBR9.new_game(1, seed=1, options={"deadline": "2d"})
    assert info.value.reason is Reason.BAD_OPTION


def test_missed_deadline_places_the_tile_by_the_fixed_rule() -> None:
    """on_timeout places the waiting seat's tile (highest level, most central), marked deadline."""
    state = play(NMBR9.new_game(2, seed=8, options={}), 0, "A1 0")
    after = NMBR9.on_timeout(state, 1)
    assert isinstance(after, Nmbr9State)
    record = after.history[-1]
    assert record.seat == 1
    assert record.words == ("deadline",)
    fit = auto_fit(state.display(1), state.deck[0])
    assert fit is not None
    assert record.text == str(Place(fit.row, fit.col, fit.rotation))
    assert after.waiting_for() == (0, 1)  # the round ended, the next card is out
    after.check_invariants()
    # Replaying the record's text gives the same state: the log stays replayable.
    assert play(state, 1, record.text).displays == after.displays
    # What the chat reads also names the number and the level.
    assert record.shown == f"{state.deck[0]} at {record.text} {on_level(fit.level)}"


def test_a_record_names_the_number_and_level_and_old_records_still_load() -> None:
    """The label says "1 at E4 0 on level 1"; a record stored before labels reads its text."""
    deck = (8, 8, 1, 1, 0, 0, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 9, 9)
    state = play(play(NMBR9.new_game(1, seed=1, options={}, deck=deck), 0, "E5 0"), 0, "E1 0")
    fit = auto_fit(state.display(0), 1)
    assert fit is not None
    assert fit.level == 1
    state = play(state, 0, str(Place(fit.row, fit.col, fit.rotation)))
    assert [r.text for r in state.history] == ["E5 0", "E1 0", "E4 0"]
    assert [r.shown for r in state.history] == [
        "8 at E5 0 on the table",
        "8 at E1 0 on the table",
        "1 at E4 0 on level 1",
    ]
    assert NMBR9.from_json(state.to_json()).history == state.history
    data = state.to_json()
    for record in data["history"]:
        del record["label"]
    assert [r.shown for r in NMBR9.from_json(data).history] == ["E5 0", "E1 0", "E4 0"]


def test_deadline_placement_climbs_when_it_can() -> None:
    """The fixed rule prefers the highest level: a 5 after two 9s goes on level 1."""
    state = nine_block(5).auto_place(0)
    assert state.placements[0][2].level == 1  # type: ignore[union-attr]


def test_skip_is_refused_while_the_tile_fits() -> None:
    """A tile may be set aside only when it fits nowhere; otherwise the refusal names a spot."""
    error = refusal(rigged(3), 0, "skip")
    assert error.reason is Reason.CAN_STILL_PLACE


# --- helpers and invariants ------------------------------------------------------------------


def test_moves_lists_legal_placements_highest_first() -> None:
    """`suggest_placements` lists at most `limit` legal placements, the level-1 one first."""
    state = nine_block(5)
    some = suggest_placements(state, 0, limit=6)
    assert 0 < len(some) <= 6
    for move in some:
        play(state, 0, str(move))
    assert state.display(0).check(5, some[0])[0] == 1
    assert set(some) <= set(legal_placements(state, 0))
    assert suggest_placements(play(state, 0, str(some[0])), 0) != ()


def test_invariants_catch_a_wrong_level_or_score() -> None:
    """A tampered state (a table tile claiming level 1) breaks the invariants."""
    state = nine_block(5)
    bad = replace(
        state,
        placements=((replace(state.placements[0][0], level=1), state.placements[0][1]),),  # type: ignore[arg-type]
        displays=(),
    )
    with pytest.raises(InvariantError):
        bad.check_invariants()


def test_json_round_trip_keeps_everything() -> None:
    """from_json(to_json()) gives an equal state with a "v" schema version."""
    state = play(nine_block(5), 0, "A1 0")
    data = state.to_json()
    assert data["v"] == 1
    again = NMBR9.from_json(data)
    assert again == state
    assert again.displays == state.displays


# --- /moves descriptions and /rules -----------------------------------------------------------


def test_describe_suggestion_gives_the_level_and_points_of_a_placement() -> None:
    """A level-0 tile is "on the table"; a 3 on level 2 is "level 2, +6", as its record says."""
    first = rigged(9)
    assert NMBR9.describe_suggestion(first, 0, Place(0, 0, 0)) == "on the table"
    state = play(play(nine_block(1, 6, 3), 0, "B3 90"), 0, "B1 90")
    move = NMBR9.parse_move("B2 90")
    assert NMBR9.describe_suggestion(state, 0, move) == "level 2, +6"
    assert play(state, 0, "B2 90").history[-1].score == 6


def test_describe_suggestion_matches_every_suggested_placement() -> None:
    """Each /moves placement's words name the level and points the placement then gets."""
    state = nine_block(5)
    moves = NMBR9.some_moves(state, 0)
    assert moves
    for move in moves:
        after = state.apply(0, move)
        placed = after.placements[0][-1]
        assert placed is not None
        expected = (
            "on the table" if placed.level == 0 else f"level {placed.level}, +{placed.points}"
        )
        assert NMBR9.describe_suggestion(state, 0, move) == expected


def test_describe_suggestion_is_empty_for_what_is_no_placement() -> None:
    """Skip, an illegal placement, or a seat with nothing to place: no words."""
    state = nine_block(1)
    assert NMBR9.describe_suggestion(state, 0, Skip()) == ""
    assert NMBR9.describe_suggestion(state, 0, Place(0, 0, 0)) == ""  # the 1 on one 9 alone
    over = state
    while over.outcome is None:
        over = over.auto_place(0)
    assert NMBR9.describe_suggestion(over, 0, Place(10, 10, 0)) == ""


def test_rules_summary_states_rounds_placing_and_scoring() -> None:
    """/rules nmbr9: 20 rounds, where a tile may lie, number × level, then the notation."""
    text = NMBR9.notation_help()
    for fact in ("20 rounds", "on at least two of them", "shares an edge", "number × its level"):
        assert fact in text
    assert "/place C4 90" in text


def test_every_suggestion_offers_the_placement_moves_lists_first() -> None:
    """The rack's example, /moves' first, an off-table refusal's "Try" and a refused skip's
    "e.g." name one placement (they named four: J12, L8, K10, A1 on an empty table).
    """
    for state in (rigged(5), play(rigged(9, 9, 5), 0, "L12 0")):
        state = play(state, 0, str(suggest_placements(state, 0)[0])) if state.round else state
        first = str(suggest_placements(state, 0)[0])
        off_table = refusal(state, 0, "Z26 0")
        assert off_table.reason is Reason.OUT_OF_BOUNDS
        assert f" Try {first} (" in off_table.message, off_table.message
        skip = refusal(state, 0, "skip")
        assert f"still fits, e.g. {first} (" in skip.message, skip.message
