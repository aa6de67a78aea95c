"""Webfeud rules: one case per refusal reason, scoring, the end of the game, notation."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.errors import InvalidMove, Reason, RuleError
from bot.core.game import Pass
from bot.core.grid import Anchor
from bot.games import GAMES
from bot.games.webfeud import LAYOUT, TILES, WEBFEUD
from bot.games.wordgame import Place, Resign, Swap, WordState, parse_word_move
from bot.lexicon import Lexicon
from tests.games.moves import laid, play_text, refusal_of

# The tests deal from rigged short bags, so tile conservation is not checked here.
play = partial(play_text, WEBFEUD, invariants=False)
refusal = partial(refusal_of, WEBFEUD, invariants=False)

WORDS = [
    "QUIZ", "QI", "ZA", "ZAX", "ZAXES", "ER", "RETAINS", "AXE", "AX", "EX", "XI", "TO",
    "ON", "NO", "OX", "TOE", "TEN", "NET", "ONE", "AT", "TA", "RE", "ZO", "ZOA", "AI", "IT",
]  # fmt: skip
LEX = Lexicon.from_words(WORDS)

# Seat 0 draws QUIZERS, seat 1 draws AXETONE; the bag is then empty.
RIGGED = "QUIZERS" + "AXETONE"


def new(bag: str = RIGGED, **options: str) -> WordState:
    """Deal a Webfeud game with a rigged bag and the small test lexicon."""
    return WEBFEUD.new_game(2, seed=7, options=options, lexicon=LEX, bag=bag)


# --- the set-up -----------------------------------------------------------------------------


def test_registry_holds_webfeud() -> None:
    """GAMES is keyed by game name and holds Webfeud."""
    assert GAMES["webfeud"] is WEBFEUD


def test_tile_set_has_104_tiles_with_two_blanks() -> None:
    """The English set: 104 tiles, 2 blanks worth 0, Q and Z worth 10."""
    assert sum(count for count, _ in TILES.values()) == 104
    assert TILES["?"] == (2, 0)
    assert TILES["Q"][1] == TILES["Z"][1] == 10


# The reference file's board (../shared/reference/webfeud.txt), row 1 first.
REFERENCE_BOARD = """
L3 .. .. .. W3 .. .. L2 .. .. W3 .. .. .. L3
.. L2 .. .. .. L3 .. .. .. L3 .. .. .. L2 ..
.. .. W2 .. .. .. L2 .. L2 .. .. .. W2 .. ..
.. .. .. L3 .. .. .. W2 .. .. .. L3 .. .. ..
W3 .. .. .. W2 .. L2 .. L2 .. W2 .. .. .. W3
.. L3 .. .. .. L3 .. .. .. L3 .. .. .. L3 ..
.. .. L2 .. L2 .. .. .. .. .. L2 .. L2 .. ..
L2 .. .. W2 .. .. .. ** .. .. .. W2 .. .. L2
.. .. L2 .. L2 .. .. .. .. .. L2 .. L2 .. ..
.. L3 .. .. .. L3 .. .. .. L3 .. .. .. L3 ..
W3 .. .. .. W2 .. L2 .. L2 .. W2 .. .. .. W3
.. .. .. L3 .. .. .. W2 .. .. .. L3 .. .. ..
.. .. W2 .. .. .. L2 .. L2 .. .. .. W2 .. ..
.. L2 .. .. .. L3 .. .. .. L3 .. .. .. L2 ..
L3 .. .. .. W3 .. .. L2 .. .. W3 .. .. .. L3
"""
# The reference file's English tile set: letter, count, value.
REFERENCE_TILES = """
? 2 0  A 10 1  B 2 4  C 2 4  D 5 2  E 12 1  F 2 4  G 3 3  H 3 4  I 9 1  J 1 10  K 1 5  L 4 1
M 2 3  N 6 1  O 7 1  P 2 4  Q 1 10  R 6 1  S 5 1  T 7 1  U 4 2  V 2 4  W 2 4  X 1 8  Y 2 4
Z 1 10
"""


def test_board_and_tiles_are_the_reference_files() -> None:
    """Every square's premium and every letter's count and value are the reference file's."""
    codes = {"L2": "d", "L3": "t", "W2": "D", "W3": "T", "**": "*", "..": "."}
    assert "".join(codes[cell] for cell in REFERENCE_BOARD.split()) == LAYOUT
    tokens = REFERENCE_TILES.split()
    table = {tokens[i]: (int(tokens[i + 1]), int(tokens[i + 2])) for i in range(0, len(tokens), 3)}
    assert table == dict(TILES)


def test_standard_layout_counts_and_centre() -> None:
    """15×15 with 20 L3, 8 W3, 24 L2, 12 W2 and the start square at H8."""
    assert len(LAYOUT) == 225
    assert {c: LAYOUT.count(c) for c in "tTdD*"} == {"t": 20, "T": 8, "d": 24, "D": 12, "*": 1}
    assert LAYOUT[7 * 15 + 7] == "*"


def test_deal_gives_seven_tiles_each_and_conserves_the_bag() -> None:
    """Each of the two players gets seven tiles; 90 stay in the bag."""
    state = WEBFEUD.new_game(2, seed=1, options={}, lexicon=LEX)
    assert [len(r) for r in state.racks] == [7, 7]
    assert len(state.bag) == 90
    assert sorted("".join(state.racks) + state.bag) == sorted(
        code for code, (count, _) in TILES.items() for _ in range(count)
    )


def test_same_seed_deals_the_same_game() -> None:
    """The bag is shuffled from the seed: same seed, same deal; other seed, other deal."""
    a = WEBFEUD.new_game(2, seed=5, options={}, lexicon=LEX)
    b = WEBFEUD.new_game(2, seed=5, options={}, lexicon=LEX)
    c = WEBFEUD.new_game(2, seed=6, options={}, lexicon=LEX)
    assert a.to_json() == b.to_json()
    assert a.bag != c.bag


def test_random_board_keeps_counts_and_the_start_square() -> None:
    """board=random shuffles the premium cells, same counts, start square fixed at H8."""
    state = WEBFEUD.new_game(2, seed=3, options={"board": "random"}, lexicon=LEX)
    assert state.layout != LAYOUT
    assert sorted(state.layout) == sorted(LAYOUT)
    assert state.layout[7 * 15 + 7] == "*"


def test_bad_option_is_refused_with_the_choices() -> None:
    """An unknown option value names the allowed values."""
    with pytest.raises(RuleError) as info:
        WEBFEUD.new_game(2, seed=1, options={"board": "huge"}, lexicon=LEX)
    assert info.value.reason is Reason.BAD_OPTION
    assert "standard|random" in info.value.message


def test_webfeud_is_for_two_players() -> None:
    """Three players are refused."""
    with pytest.raises(RuleError) as info:
        WEBFEUD.new_game(3, seed=1, options={}, lexicon=LEX)
    assert info.value.reason is Reason.BAD_PLAYER_COUNT


# --- scoring ----------------------------------------------------------------------------------


def test_scripted_game_reaches_its_known_final_score() -> None:
    """A whole rigged game: premiums, a W2 under a new tile, going out and the end adjustment."""
    s = new()
    s = play(s, 0, "8H QUIZ")  # Q on the start square (no bonus): 10+2+1+10
    assert s.scores == (23, 0)
    s = play(s, 1, "K8 ZAX")  # Z on the board, A on L2 (K9): 10+2+8
    assert s.scores == (23, 20)
    s = play(s, 0, "K8 ZAXES")  # E on W2 (K11): (10+1+8+1+1)*2
    assert s.scores == (65, 20)
    s = play(s, 1, "pass")
    s = play(s, 0, "11K ER")  # the W2 under E is used already: 1+1
    assert s.outcome is not None
    # Seat 0 went out; seat 1 holds ETONE (5 points): seat 1 loses 5, seat 0 gains 5.
    assert s.outcome.scores == (72, 15)
    assert s.outcome.winners == (0,)
    assert s.outcome.reason == "out"
    assert s.adjustments == (5, -5)
    assert sum(r.score for r in s.history if r.seat == 0) + 5 == 72


def test_playing_all_seven_tiles_scores_the_30_bonus() -> None:
    """RETAINS from B8: D8 is W2, so (7)*2 + 30."""
    s = new(bag="RETAINS" + "AXETONE" + "QQQQQQQ")
    s = play(s, 0, "8B RETAINS")
    assert s.history[-1].score == 7 * 2 + 30


def test_a_letter_on_l3_scores_three_times() -> None:
    """TAXI down from J5 lays the A on the L3 square J6: 1 + 1×3 + 8 + 1 (the I on the board)."""
    lexicon = Lexicon.from_words([*WORDS, "TAXI"])
    s = WEBFEUD.new_game(2, seed=7, options={}, lexicon=lexicon, bag=RIGGED + "RRRRRRR")
    s = play(s, 0, "8H QUIZ")
    s = play(s, 1, "J5 TAXI")
    assert s.layout[5 * 15 + 9] == "t"  # J6 is L3
    assert s.history[-1].score == 1 + 1 * 3 + 8 + 1


def test_a_word_on_w3_scores_three_times_and_a_used_w2_not_again() -> None:
    """EATEN from the E on the used W2 at K11 reaches the W3 at O11: (1+1+1+1+1)×3."""
    lexicon = Lexicon.from_words([*WORDS, "EATEN"])
    bag = RIGGED + "RRRR" + "AA" + "RRRRRRRR"
    s = WEBFEUD.new_game(2, seed=7, options={}, lexicon=lexicon, bag=bag)
    s = play(s, 0, "8H QUIZ")
    s = play(s, 1, "K8 ZAX")
    s = play(s, 0, "K8 ZAXES")  # E on the W2 at K11
    s = play(s, 1, "11K EATEN")
    assert (s.layout[10 * 15 + 10], s.layout[10 * 15 + 14]) == ("D", "T")  # K11 W2, O11 W3
    assert s.history[-1].score == (1 + 1 + 1 + 1 + 1) * 3


def test_a_swapped_tile_can_come_back() -> None:
    """The swapped tiles go into the bag before the draw: a Q swapped may be drawn again."""
    came_back = []
    for seed in range(64):
        s = WEBFEUD.new_game(2, seed=seed, options={}, lexicon=LEX, bag=RIGGED + "A" * 7)
        after = play(s, 0, "swap Q")
        assert sorted(after.racks[0] + after.bag) == sorted(s.racks[0] + s.bag)
        came_back.append("Q" in after.racks[0])
    assert any(came_back)  # the Q was drawn back on some seeds …
    assert not all(came_back)  # … and an A on others


def test_blank_scores_nothing() -> None:
    """A lower-case letter is a blank played as that letter and scores 0."""
    s = new(bag="?UIZERS" + "AXETONE")
    s = play(s, 0, "8H qUIZ")
    assert s.scores[0] == 0 + 2 + 1 + 10
    assert s.board[7 * 15 + 7] == "q"


def test_a_blank_on_the_board_scores_nothing_in_a_later_word() -> None:
    """QUIz lays a blank as the Z; ZAX through it scores 0 + 1×2 (A on the L2 of K9) + 8."""
    s = new(bag="QUI?ERS" + "AXETONE")
    s = play(s, 0, "8H QUIz")
    assert s.scores[0] == 10 + 2 + 1 + 0
    s = play(s, 1, "K8 ZAX")
    assert s.history[-1].score == 0 + 1 * 2 + 8


def test_cross_words_count_too() -> None:
    """A tile that makes a word across and a word down scores both words."""
    s = new(bag="ZAXRRRR" + "OTEAONE" + "RRRRRRRR")
    s = play(s, 0, "8H ZA")  # 10 + 1
    s = play(s, 1, "H8 ZO")  # Z on the board, O on H9: 10 + 1
    s = play(s, 0, "9H OX")  # OX across (1 + 8) and AX down (1 + 8)
    assert s.scores == (11 + 18, 11)
    assert set(s.history[-1].words) == {"OX", "AX"}


# --- one case per refusal -----------------------------------------------------------------


def test_game_over() -> None:
    """A finished game refuses every move."""
    s = play(new(), 0, "resign")
    assert refusal(s, 1, "8H AXE").reason is Reason.GAME_OVER


def test_not_your_turn() -> None:
    """Seat 1 cannot move first."""
    assert refusal(new(), 1, "8H AXE").reason is Reason.NOT_YOUR_TURN


def test_not_a_player() -> None:
    """A seat outside the game is refused."""
    for seat in (2, -1):  # a game of two has seats 0 and 1
        assert refusal(new(), seat, "pass").reason is Reason.NOT_A_PLAYER


def test_out_of_bounds() -> None:
    """A word that runs past column O, or starts off the board, is refused."""
    s = new()
    off = refusal(s, 0, "8M QUIZ")
    assert off.reason is Reason.OUT_OF_BOUNDS
    assert off.message == (
        "QUIZ from 8M runs off the board: it has 4 letters and 3 squares are left going across."
    )
    assert "2 squares are left going down" in refusal(s, 0, "H14 QUIZ").message
    assert "it has 4 letters and 1 square is left going across." in refusal(s, 0, "8O QUIZ").message
    assert refusal(s, 0, "16A QI").reason is Reason.OUT_OF_BOUNDS
    assert refusal(s, 0, "8Z QI").reason is Reason.OUT_OF_BOUNDS
    endless = refusal(s, 0, "8H " + "A" * 500).message  # the reason survives a silly length
    assert endless.endswith("it has 500 letters and 8 squares are left going across.")
    assert len(endless) <= 200


def test_letter_mismatch_names_the_cell() -> None:
    """Writing a different letter over a board tile is refused, naming the cell."""
    s = play(new(), 0, "8H QUIZ")
    err = refusal(s, 1, "K8 TAX")
    assert err.reason is Reason.LETTER_MISMATCH
    assert "K8" in err.message


def test_no_new_tiles() -> None:
    """Rewriting a word already on the board places nothing and is refused."""
    s = play(new(), 0, "8H QUIZ")
    assert refusal(s, 1, "8H QUIZ").reason is Reason.NO_NEW_TILES


def test_word_not_complete_shows_the_whole_word() -> None:
    """A word that board letters continue must be written whole; the message shows it."""
    s = play(new(), 0, "8H QUIZ")
    s = play(s, 1, "K8 ZAX")
    err = refusal(s, 0, "K9 AXE")
    assert err.reason is Reason.WORD_NOT_COMPLETE
    # Copied, "K8 ZAXE" would only be refused next: the message says so at once.
    assert err.message.endswith("as K8 ZAXE; but ZAXE is not in the dictionary."), err.message
    err = refusal(s, 0, "K11 ES")
    assert err.message.endswith("write it whole, as K8 ZAXES."), err.message


def test_word_too_short() -> None:
    """A one-letter word is not a word."""
    assert refusal(new(), 0, "8H Q").reason is Reason.WORD_TOO_SHORT


def test_first_move_must_cover_the_centre() -> None:
    """The first word must have a tile on H8."""
    err = refusal(new(), 0, "1A QUIZ")
    assert err.reason is Reason.FIRST_MOVE_NOT_THROUGH_START
    assert "H8" in err.message


def test_later_words_must_touch_the_board() -> None:
    """A word that neither uses nor touches a board tile is refused."""
    s = play(new(), 0, "8H QUIZ")
    assert refusal(s, 1, "1A AXE").reason is Reason.NOT_ADJACENT


@pytest.mark.parametrize(
    ("board", "text"),
    [
        ("15A TOE", "1A AX"),  # row 15 is no neighbour of row 1
        ("O1 TO", "A2 AX"),  # nor column O of the next row's A
        ("A2 TO", "O1 AX"),  # nor column A of the row before's O
        ("1A TO", "15A AX"),  # row 15 has nothing below it
    ],
)
def test_a_word_on_the_edge_touches_only_the_squares_beside_it(board: str, text: str) -> None:
    """The board does not wrap round: a word on its edge touches nothing across the edge."""
    state = laid(new(bag="AXTOEEE" + "QUIZERS"), board)
    assert refusal(state, 0, text).reason is Reason.NOT_ADJACENT


@pytest.mark.parametrize(
    ("board", "text"),
    [
        (("B2 XI", "O1 E"), "2A AX"),  # E on O1 ends row 1: it does not run on into A2
        (("2H XI", "H15 E"), "H1 AX"),  # E on H15 is the other end of column H
        (("O1 XI", "A2 E"), "1N AX"),  # E on A2 starts row 2: AX ends on O1
        (("15N XI",), "N14 AX"),  # AX ends on N15, the last row
    ],
)
def test_a_word_from_or_to_the_edge_is_read_whole_and_no_further(
    board: tuple[str, ...], text: str
) -> None:
    """A word written from or to the board's edge is whole: no other row's letters continue it."""
    after = play(laid(new(bag="AXTOEEE" + "QUIZERS"), *board), 0, text)
    assert after.history[-1].words == ("AX",)


def test_word_not_in_lexicon_names_the_word() -> None:
    """An unknown main word is refused with its name."""
    err = refusal(new(), 0, "8H QUIZE")
    assert err.reason is Reason.WORD_NOT_IN_LEXICON
    assert err.message == "QUIZE is not in the dictionary."


def test_bad_cross_word_is_refused() -> None:
    """A valid main word that makes an invalid cross-word is refused, naming the cross-word."""
    s = new(bag="QITOEAN" + "AXETONE" + "RRRRRRR")
    s = play(s, 0, "8H QI")
    s = play(s, 1, "I7 XI")
    err = refusal(s, 0, "7H AX")  # A on H7 over Q makes AQ down
    assert err.reason is Reason.WORD_NOT_IN_LEXICON
    assert "AQ" in err.message


def test_tile_not_in_rack() -> None:
    """Letters the player does not hold are named; a missing blank is explained."""
    s = new()
    err = refusal(s, 0, "8H AXE")
    assert err.reason is Reason.TILE_NOT_IN_RACK
    assert err.message.startswith("You have no A, X on your rack.")
    err = refusal(s, 0, "8H QUIZZES")  # one Z on the rack, two in the word
    assert err.message.startswith("You have only 1 Z on your rack.")
    err = refusal(s, 0, "8H qI")
    assert err.reason is Reason.TILE_NOT_IN_RACK
    assert "blank" in err.message
    assert "capitals" in err.message
    # A blank held: the refusal says it can stand for the missing letter, and how to write it.
    blank = new(bag="?UIZERS" + "AXETONE")
    assert refusal(blank, 0, "8H SIT").message == (
        "You have no T on your rack; a blank can be the T: write it in lower case, t. "
        "See your tiles with /rack."
    )
    assert refusal(blank, 0, "8H ziZ").message == (
        "You have only 1 blank for the 2 lower-case letters. See your tiles with /rack."
    )


def test_a_word_typed_in_lower_case_is_laid_with_the_players_own_tiles() -> None:
    """``8h quiz`` without blanks means QUIZ; the record and the board say so."""
    s = play(new(), 0, "8h quiz")
    assert s.history[-1].text == "8H QUIZ"
    assert s.scores == play(new(), 0, "8H QUIZ").scores
    assert s.board[7 * 15 + 7 : 7 * 15 + 11] == "QUIZ"


def test_lower_case_puts_a_blank_only_for_a_missing_letter_where_it_costs_least() -> None:
    """One T and a blank for TITI down from I5: the real T takes the L2 of I5."""
    lexicon = Lexicon.from_words([*WORDS, "TITI"])
    s = WEBFEUD.new_game(
        2, seed=7, options={}, lexicon=lexicon, bag="QUIZERS" + "T?IEEEE" + "AAAAAAA"
    )
    s = play(s, 0, "8H QI")
    s = play(s, 1, "i5 titi")
    assert s.history[-1].text == "I5 TItI"
    assert s.history[-1].score == 1 * 2 + 1 + 0 + 1
    assert "?" not in s.racks[1]


def test_lower_case_still_means_blanks_when_the_player_has_them() -> None:
    """Holding two blanks, ``8H at`` lays both as written: no legal move changes meaning."""
    s = play(new(bag="??AEEEE" + "AXETONE" + "RRRRRRR"), 0, "8H at")
    assert s.history[-1].text == "8H at"
    assert s.scores[0] == 0
    assert s.racks[0].count("A") == 1


def test_the_record_writes_board_letters_as_they_lie() -> None:
    """``K8 za`` through alice's real Z, bob's blank as the A: recorded ``K8 Za``, not a blank Z."""
    before = play(new(bag="QUIZERS" + "AXETON?"), 0, "8H QUIZ")
    s = play(before, 1, "K8 za")
    assert (s.history[-1].text, s.history[-1].score) == ("K8 Za", 10)
    assert play(before, 1, s.history[-1].text).to_json() == s.to_json()  # it replays as played


def test_lower_case_names_the_letters_even_blanks_could_not_cover() -> None:
    """``8h zax`` holding QUIZERS: the A and the X are missing, not blanks."""
    err = refusal(new(), 0, "8h zax")
    assert err.reason is Reason.TILE_NOT_IN_RACK
    assert "A, X" in err.message
    assert "blank" not in err.message


def test_swap_needs_seven_tiles_in_the_bag() -> None:
    """Swapping is refused while the bag holds fewer than 7 tiles."""
    s = new(bag=RIGGED + "ABCDEF")
    err = refusal(s, 0, "swap Q")
    assert err.reason is Reason.BAG_TOO_SMALL
    assert "6" in err.message


def test_swap_of_tiles_not_held_is_refused() -> None:
    """Swapping a tile the player does not hold is refused."""
    s = new(bag=RIGGED + "ABCDEFGH")
    assert refusal(s, 0, "swap X").reason is Reason.TILE_NOT_IN_RACK
    # "swap all" reads as the tiles A, L, L: the refusal says how to swap the whole rack.
    assert refusal(s, 0, "swap all").message == (
        "You have no A, L on your rack. See your tiles with /rack. To swap every tile, name them"
        " all: swap QUIZERS."
    )
    assert play(s, 0, "swap QUIZERS").racks[0] != s.racks[0]


# --- swap, pass, resign, the end --------------------------------------------------------------


def test_swap_returns_then_draws_as_many() -> None:
    """A swap keeps rack size and tile totals, ends the turn and scores nothing."""
    s = WEBFEUD.new_game(2, seed=11, options={}, lexicon=LEX)
    tiles = s.racks[0][:3]
    after = play(s, 0, f"swap {tiles}")
    assert len(after.racks[0]) == 7
    assert sorted(after.racks[0] + after.bag) == sorted(s.racks[0] + s.bag)
    assert after.to_move == 1
    assert after.scores == (0, 0)
    assert tiles not in after.history[-1].text  # the public record hides the tiles


def test_three_consecutive_passes_end_the_game() -> None:
    """Three passes in a row end the game; each player loses their own rack value."""
    s = new()
    s = play(play(s, 0, "pass"), 1, "pass")
    assert s.outcome is None
    s = play(s, 0, "pass")
    assert s.outcome is not None
    assert s.outcome.reason == "passes"
    quizers, axetone = 10 + 2 + 1 + 10 + 1 + 1 + 1, 1 + 8 + 1 + 1 + 1 + 1 + 1
    assert s.outcome.scores == (-quizers, -axetone)
    assert s.outcome.winners == (1,)


def test_a_move_resets_the_pass_count() -> None:
    """Pass, play, pass, pass does not end the game."""
    s = play(new(), 0, "pass")
    s = play(s, 1, "8H AXE")
    s = play(play(s, 0, "pass"), 1, "pass")
    assert s.outcome is None


def test_resign_gives_the_opponent_the_win() -> None:
    """Resigning ends the game and the opponent wins, whatever the score; any turn."""
    s = play(new(), 0, "8H QUIZ")
    s = play(s, 0, "resign")
    assert s.outcome is not None
    assert s.outcome.winners == (1,)
    assert s.outcome.reason == "resign"


def test_a_tie_is_shared() -> None:
    """Equal final scores make both players winners."""
    s = play(play(play(new(bag="AXEAXEE" + "AXEAXEE"), 0, "pass"), 1, "pass"), 0, "pass")
    assert s.outcome is not None
    assert s.outcome.winners == (0, 1)


def test_timeout_loses_the_game() -> None:
    """A player who lets the 72 h deadline pass loses (the Wordfeud convention)."""
    s = new()
    assert WEBFEUD.turn_timeout({}) is not None
    assert WEBFEUD.turn_timeout({}).total_seconds() == 72 * 3600  # type: ignore[union-attr]
    out = WEBFEUD.on_timeout(s, 0)
    assert isinstance(out, WordState)
    assert out.outcome is not None
    assert out.outcome.winners == (1,)
    assert out.outcome.reason == "timeout"


# --- view, JSON, immutability -----------------------------------------------------------------


def test_view_hides_the_other_rack_and_the_bag_order() -> None:
    """view(seat) shows the own rack only and the bag as a count."""
    s = new(bag=RIGGED + "ABCDEFGH")
    v = s.view(0)
    assert v["rack"] == "QUIZERS"
    assert "AXETONE" not in str(v)
    assert v["bag"] == 8
    assert s.view(None)["rack"] is None


def test_json_round_trip_with_schema_version() -> None:
    """to_json carries "v" and from_json rebuilds an equal state."""
    s = play(play(new(), 0, "8H QUIZ"), 1, "K8 ZAX")
    data = s.to_json()
    assert data["v"] == 1
    again = WEBFEUD.from_json(data, lexicon=LEX)
    assert again == s
    assert again.to_json() == data


def test_apply_does_not_mutate_its_input() -> None:
    """Apply returns a new state and leaves the old one as it was."""
    s = new()
    before = s.to_json()
    after = play(s, 0, "8H QUIZ")
    assert s.to_json() == before
    assert after is not s


# --- notation ----------------------------------------------------------------------------------


def test_across_and_down_notation() -> None:
    """8H is row 8 column H across; H8 is column H row 8 down."""
    assert parse_word_move("8H QUIZ") == Place(Anchor(7, 7, True), "QUIZ")
    assert parse_word_move("h8 quiz") == Place(Anchor(7, 7, False), "quiz")
    # The word first is forgiven: the square still says the direction.
    assert parse_word_move("QUIZ 8H") == Place(Anchor(7, 7, True), "QUIZ")
    assert str(parse_word_move("quiz h8")) == "H8 quiz"
    assert parse_word_move("swap aeq?") == Swap("AEQ?")
    assert parse_word_move("PASS") == Pass()
    assert parse_word_move(" resign ") == Resign()


@pytest.mark.parametrize(
    "text",
    ["", "8H", "8H QU1Z", "88 QUIZ", "HH QUIZ", "swap", "swap 12", "pass now", "8H QU IZ", "0A QI"],
)
def test_malformed_notation_shows_the_expected_form(text: str) -> None:
    """Malformed text raises InvalidMove whose message shows an example."""
    with pytest.raises(InvalidMove) as info:
        parse_word_move(text)
    message = info.value.message
    assert 0 < len(message) <= 200
    assert any(example in message for example in ("8H", "H8", "swap AEQ?"))


def test_a_swap_names_the_character_that_is_not_a_tile() -> None:
    """A swap of A-B says that '-' is no tile and what tiles are."""
    with pytest.raises(InvalidMove) as info:
        parse_word_move("swap A-B")
    assert info.value.message.startswith("'-' is not a tile: tiles are the letters A–Z and ?")
    assert info.value.message.endswith("e.g. swap AEQ?.")


letters = st.text(
    alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", min_size=1, max_size=15
)


@given(
    row=st.integers(0, 14),
    col=st.integers(0, 14),
    across=st.booleans(),
    word=letters,
    tiles=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ?", min_size=1, max_size=7),
)
def test_notation_round_trips(row: int, col: int, across: bool, word: str, tiles: str) -> None:
    """parse_move(str(move)) == move for every move kind."""
    for move in (Place(Anchor(row, col, across), word), Swap(tiles), Pass(), Resign()):
        assert WEBFEUD.parse_move(str(move)) == move


def test_state_is_hashable_value() -> None:
    """States compare by value (replace gives an equal copy)."""
    s = new()
    assert replace(s) == s


# --- the game-over note -----------------------------------------------------------------------

NAMES = ("alice", "bob")


def test_ending_note_names_who_went_out_and_the_rack_adjustment() -> None:
    """The note makes the scores add up: the last move's points plus the tiles left on the racks."""
    s = new()
    for seat, text in ((0, "8H QUIZ"), (1, "K8 ZAX"), (0, "K8 ZAXES"), (1, "pass"), (0, "11K ER")):
        s = play(s, seat, text)
    assert s.outcome is not None
    assert WEBFEUD.ending_note(s, NAMES) == (
        "alice went out; the tiles left on the racks: alice +5, bob −5."
    )
    for seat in (0, 1):  # what the note adds to the moves' points is the final score
        moved = sum(r.score for r in s.history if r.seat == seat)
        assert moved + s.adjustments[seat] == s.outcome.scores[seat]


def test_ending_note_after_three_passes_gives_each_racks_deduction() -> None:
    """Three passes in a row: every rack's value is deducted, and the note says by how much."""
    s = new()
    for seat in (0, 1, 0):
        s = play(s, seat, "pass")
    assert s.outcome is not None
    assert WEBFEUD.ending_note(s, NAMES) == (
        "The tiles left on the racks were deducted: alice −26, bob −14."
    )


def test_ending_note_is_empty_where_the_scores_say_it_all() -> None:
    """A resignation, or a game still running, needs no note."""
    s = new()
    assert WEBFEUD.ending_note(s, NAMES) == ""
    assert WEBFEUD.ending_note(play(s, 0, "resign"), NAMES) == ""


def test_rules_summary_states_the_essentials() -> None:
    """/rules webfeud: the aim, the bonus, the centre square and both endings, then the notation."""
    text = WEBFEUD.notation_help()
    for fact in ("all 7 tiles adds 30", "centre square H8", "three passes in a row", "8H QUIZ"):
        assert fact in text
