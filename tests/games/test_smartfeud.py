"""SmartFeud rules (docs/rules/smartfeud.md): one case per rule of ../shared/rules/smartfeud.txt."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ai import LEVELS, choose_move
from bot.ai.wordgen import generate_moves
from bot.core.errors import InvalidMove, Reason, RuleError
from bot.core.game import Pass
from bot.core.grid import Anchor
from bot.games import GAMES
from bot.games.smartfeud import LAYOUT, SMARTFEUD, TILES, WAITS
from bot.games.webfeud import WEBFEUD
from bot.games.wordgame import (
    Place,
    Quit,
    Swap,
    WordState,
    parse_word_move,
    taken_cell,
)
from bot.lexicon import Lexicon
from tests.games.moves import laid, play_text, refusal_of

play = partial(play_text, SMARTFEUD)
refusal = partial(refusal_of, SMARTFEUD)

WORDS = [
    "SECTION", "SECTIONS", "SECT", "ON", "ION", "TIN", "ITS", "CARTS", "PARTS", "CUP", "CAT",
    "AT", "SAT", "BAT", "AXE", "RECITALS", "QUIZ", "QI", "IT", "TI", "ZA",
]  # fmt: skip
LEX = Lexicon.from_words(WORDS)
SIZE = 16

# The rule document's letter distribution: letter, value, number of tiles.
DOCUMENT_TABLE = """
? 0 2  A 1 10  B 3 2  C 3 3  D 2 5  E 1 13  F 4 2  G 2 3  H 4 2  I 1 10  J 8 1  K 5 1  L 1 5
M 3 3  N 1 10  O 1 8  P 3 3  Q 10 1  R 1 7  S 1 5  T 1 6  U 1 5  V 4 2  W 4 2  X 8 2  Y 4 2
Z 10 1
"""


FILL = "EAIONRTLSUDGBCMPFHVWYKJXQZ?"  # the order of the tiles after the rigged racks


def rig(*racks: str) -> str:
    """Return a full 116-tile bag that deals `racks` in seat order (each filled up to 7)."""
    rest = Counter({code: count for code, (count, _) in TILES.items()})
    rest.subtract(Counter("".join(racks)))
    assert min(rest.values()) >= 0
    pool = sorted(rest.elements(), key=FILL.index)
    dealt = ""
    for rack in racks:
        need = 7 - len(rack)
        dealt += rack + "".join(pool[:need])
        pool = pool[need:]
    return dealt + "".join(pool)


def new(*racks: str, players: int = 2, **options: str) -> WordState:
    """Deal a SmartFeud game whose seats get `racks` (the starter also gets the extra blank)."""
    return SMARTFEUD.new_game(players, seed=7, options=options, lexicon=LEX, bag=rig(*racks))


def at(state: WordState, name: str) -> str:
    """Return the board character on a square named like ``G8``."""
    col, row = "ABCDEFGHIJKLMNOP".index(name[0]), int(name[1:]) - 1
    return state.board[row * SIZE + col]


def section() -> WordState:
    """Seat 0 has laid SECTION on G8-M8 (N on the L3 of M8); seat 1 holds NZAEEEE."""
    return play(new("SECTION", "NZAEEEE"), 0, "8G SECTION")


# --- the set-up -----------------------------------------------------------------------------


def test_registry_holds_smartfeud_for_two_to_four_players() -> None:
    """SmartFeud is in GAMES; 2, 3 and 4 players are dealt, 1 and 5 refused."""
    assert GAMES["smartfeud"] is SMARTFEUD
    for players in (2, 3, 4):
        state = SMARTFEUD.new_game(players, seed=1, options={}, lexicon=LEX)
        assert state.players == players
    for players in (1, 5):
        with pytest.raises(RuleError) as info:
            SMARTFEUD.new_game(players, seed=1, options={}, lexicon=LEX)
        assert info.value.reason is Reason.BAD_PLAYER_COUNT


def test_tile_set_is_the_rule_documents() -> None:
    """116 tiles, 2 blanks; every letter's value and count as the rule document lists them."""
    tokens = DOCUMENT_TABLE.split()
    table = {tokens[i]: (int(tokens[i + 2]), int(tokens[i + 1])) for i in range(0, len(tokens), 3)}
    assert table == dict(TILES)
    assert sum(count for count, _ in TILES.values()) == 116


def test_standard_layout_has_56_symmetric_premiums_and_four_centre_squares() -> None:
    """16×16; 56 premiums (8 W3, 16 W2, 16 L3, 16 L2); the same under rotation and reflection."""
    assert len(LAYOUT) == SIZE * SIZE
    counts = Counter(LAYOUT)
    assert {c: counts[c] for c in "TDtd"} == {"T": 8, "D": 16, "t": 16, "d": 16}
    assert sum(counts[c] for c in "TDtd") == 56
    starts = sorted(i for i, code in enumerate(LAYOUT) if code == "*")
    assert starts == [7 * SIZE + 7, 7 * SIZE + 8, 8 * SIZE + 7, 8 * SIZE + 8]  # H8 I8 H9 I9
    grid = [LAYOUT[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
    assert grid == [row[::-1] for row in grid]  # left-right
    assert grid == grid[::-1]  # top-bottom
    assert grid == ["".join(grid[c][r] for c in range(SIZE)) for r in range(SIZE)]  # diagonal


def test_random_board_shuffles_the_premiums_and_keeps_the_centre() -> None:
    """board=random: another arrangement of the same 56 premiums; the start squares stay."""
    state = SMARTFEUD.new_game(2, seed=3, options={"board": "random"}, lexicon=LEX)
    assert state.layout != LAYOUT
    assert sorted(state.layout) == sorted(LAYOUT)
    assert all(state.layout[i] == "*" for i, code in enumerate(LAYOUT) if code == "*")


def test_deal_seven_each_and_the_starter_gets_an_extra_blank() -> None:
    """Seven tiles each; the starter also holds a blank; 116 + 1 tiles are accounted for."""
    state = SMARTFEUD.new_game(3, seed=2, options={}, lexicon=LEX)
    assert [len(rack) for rack in state.racks] == [8, 7, 7]
    assert state.racks[0].endswith("?")
    assert len(state.bag) == 116 - 21
    assert state.bonus == "held"
    state.check_invariants()


def test_first_word_covers_one_of_the_four_centre_squares() -> None:
    """A first word on I9 is fine; one far from the centre is refused naming the squares."""
    s = new("SECTION", "NZAEEEE")
    assert play(s, 0, "9I SECT").scores[0] > 0
    err = refusal(s, 0, "1A SECT")
    assert err.reason is Reason.FIRST_MOVE_NOT_THROUGH_START
    assert err.message == "Your first word must cover one of the centre squares H8, I8, H9 or I9."


# --- the starter's extra blank ------------------------------------------------------------------


def test_extra_blank_makes_an_eight_letter_first_word_possible() -> None:
    """SECTIONs uses the 7 tiles and the extra blank: +30 (not +50: nothing was taken)."""
    s = play(new("SECTION", "NZAEEEE"), 0, "8G SECTIONs")
    assert s.history[-1].score == 1 + 1 + 3 + 1 + 1 + 1 + 1 * 3 + 0 + 30
    assert s.bonus == "played"
    assert len(s.racks[0]) == 7


def test_the_extra_blank_is_not_one_of_the_seven_tiles_of_the_bonus() -> None:
    """SECTIOn from SECTIOQ and the extra blank leaves Q on the rack: not all 7 tiles, no +30.

    The bot's move generator scores the starter's first turn the same way.
    """
    start = new("SECTIOQ", "NZAEEEE")
    s = play(start, 0, "8G SECTIOn")
    assert "Q" in s.racks[0]
    assert s.history[-1].score == 1 + 1 + 3 + 1 + 1 + 1 + 0  # the blank n on the L3 of M8
    candidates = generate_moves(start, 0)
    assert len({c.tile_count for c in candidates}) > 2  # words of many lengths were found
    for candidate in candidates:
        assert candidate.score == start.evaluate(candidate.move, 0).score, candidate.move
    [section] = [c for c in candidates if str(c.move) == "8G SECTIOn"]
    assert section.score == 8


def test_unused_extra_blank_is_lost() -> None:
    """A first word without a blank loses the extra blank: the tiles left are 116."""
    s = section()
    assert s.bonus == ""
    assert "?" not in s.racks[0]
    assert len(s.racks[0]) == 7


@pytest.mark.parametrize("text", ["pass", "swap SE"])
def test_extra_blank_is_lost_on_a_pass_or_swap_and_cannot_be_swapped(text: str) -> None:
    """Passing or swapping on the first turn loses the extra blank; swapping it is refused."""
    s = new("SECTION", "NZAEEEE")
    after = play(s, 0, text)
    assert "?" not in after.racks[0]
    assert len(after.racks[0]) == 7
    refused = refusal(s, 0, "swap ?")
    assert (refused.reason, refused.message) == (
        Reason.TILE_NOT_IN_RACK,
        "Your extra blank (the starter's) cannot be swapped: lay it this turn or it is gone when "
        "the turn ends. Swap other tiles.",
    )
    # Bob holds no blank: a swap of one says so, without the word notation's lower-case hint.
    bob = play(s, 0, "pass")
    assert refusal(bob, 1, "swap ?").message.startswith("You have no blank to swap.")


# --- taking a tile from the board --------------------------------------------------------------


def test_unreadable_moves_are_answered_with_smartfeuds_own_notation() -> None:
    """SmartFeud's answers name take (not quit: rare, and refused in every game of two); two
    takes, or a ? in a word, say what is wrong; /rules says when quit is taken.
    """
    with pytest.raises(InvalidMove) as bare:
        SMARTFEUD.parse_move("")
    assert str(bare.value).endswith(
        "8H QUIZ take G7 lays a board tile again; also swap AEQ?, pass, resign."
    )
    assert "in a game of 3 or 4 once a player has left, quit." in SMARTFEUD.notation_help()
    with pytest.raises(InvalidMove, match=r"^A move is a square and a word: .*take G7"):
        SMARTFEUD.parse_move("15G XI take G 14")
    with pytest.raises(InvalidMove, match=r"^Take one board tile a turn: 8H QUIZ take G7"):
        SMARTFEUD.parse_move("15G XI take G14 take G13")
    with pytest.raises(InvalidMove, match=r"^'A\?T': write a blank as the lower-case letter"):
        SMARTFEUD.parse_move("8H A?T")
    with pytest.raises(InvalidMove) as webfeud:  # Webfeud has no take to mention
        WEBFEUD.parse_move("8H")
    assert "take" not in str(webfeud.value)


def test_take_notation_round_trips() -> None:
    """8H QUIZ take G7: the word, then the square taken from (column first)."""
    move = parse_word_move("8h quiz TAKE g7")
    assert move == Place(Anchor(7, 7, True), "quiz", (6, 6))
    assert str(SMARTFEUD.parse_move("8H QUIZ take G7")) == "8H QUIZ take G7"
    with pytest.raises(InvalidMove, match=r"Say which tile to take: .* 8H QUIZ take G7"):
        parse_word_move("8H QUIZ take")
    for wrong_order in ("take G7 8H QUIZ", "take G7", "take"):
        with pytest.raises(InvalidMove, match=r"^take comes after the word: 8H QUIZ take G7 lays"):
            parse_word_move(wrong_order)


def test_nothing_to_take_on_an_empty_square() -> None:
    """Taking from an empty square (and so on the very first turn) is refused."""
    err = refusal(new("SECTION", "NZAEEEE"), 0, "8G SECTION take A1")
    assert err.reason is Reason.TAKE_EMPTY_SQUARE
    assert "A1" in err.message


def test_a_take_off_the_board_is_refused() -> None:
    """Row 17 and column Q lie just past the 16×16 board: taking from them is refused."""
    for square in ("A17", "Q8"):
        error = refusal(section(), 1, f"J8 TIN take {square}")
        assert error.reason is Reason.OUT_OF_BOUNDS
        assert error.message.startswith(f"There is no square {square}: columns run A–P")


def test_split_word_with_both_halves_valid_scores_both() -> None:
    """Taking I from SECTION leaves SECT and ON: TIN (4) + SECT (6) + ON (2) at face value."""
    s = play(section(), 1, "J8 TIN take K8")
    assert at(s, "K8") == "."
    assert s.history[-1].words == ("TIN", "SECT", "ON")
    # TIN: T 1 + I 1 + N 1 on the L2 of J10; SECT and ON score their letters.
    assert s.history[-1].score == (1 + 1 + 2) + (1 + 1 + 3 + 1) + (1 + 1)
    assert len(s.racks[1]) == 7  # refilled from the bag


def test_split_word_with_one_half_invalid_is_refused() -> None:
    """Taking T from SECTION leaves SEC (not a word) and ION: refused naming SEC."""
    s = play(new("SECTION", "SAEEEEE"), 0, "8G SECTION")
    err = refusal(s, 1, "K8 ITS take J8")
    assert err.reason is Reason.WORD_NOT_IN_LEXICON
    assert err.message == "SEC is not in the dictionary."


def test_a_part_the_new_word_runs_through_is_scored_once() -> None:
    """C taken from CAT leaves AT; ATTIC lays T, I and that C after it: ATTIC scores once."""
    lexicon = Lexicon.from_words([*WORDS, "ATTIC"])
    s = SMARTFEUD.new_game(2, seed=7, options={}, lexicon=lexicon, bag=rig("CATEEEE", "TIEEEEE"))
    s = play(s, 0, "8G CAT")
    s = play(s, 1, "8H ATTIC take G8")
    assert at(s, "G8") == "."
    assert s.history[-1].words == ("ATTIC",)
    assert s.history[-1].score == 1 + 1 + 1 + 1 + 3


def test_a_part_may_end_up_unconnected() -> None:
    """After taking I, ON touches nothing else on the board, and that is allowed."""
    s = play(section(), 1, "J8 TIN take K8")
    assert at(s, "L8") == "O"
    assert at(s, "K8") == "."
    assert all(at(s, name) == "." for name in ("L7", "L9", "M7", "M9", "N8"))


def test_the_vacated_square_is_no_neighbour() -> None:
    """T taken from CAT's I8 and laid in ATE down J7-J9: ATE touches only the empty I8."""
    lexicon = Lexicon.from_words([*WORDS, "ATE", "CA"])
    s = SMARTFEUD.new_game(2, seed=7, options={}, lexicon=lexicon, bag=rig("CATEEEE", "AEEEEEE"))
    s = play(s, 0, "8G CAT")
    refused = refusal(s, 1, "J7 ATE take I8")
    assert refused.reason is Reason.NOT_ADJACENT
    assert (
        refused.message
        == "Your word must touch the tiles on the board or use one of their letters."
    )


@pytest.mark.parametrize(
    ("board", "text", "left"),
    [
        (("5A CAT", "4O IT"), "B4 CAT take A5", "AT"),  # IT ends row 4 on P4, before A5
        (("5N CAT", "6A IT"), "O4 SAT take P5", "CA"),  # IT starts row 6 on A6, after P5
        (("H1 CAT", "H15 IT"), "2G CAT take H1", "AT"),  # IT ends column H on H16
        (("H14 CAT",), "15G SAT take H16", "CA"),  # row 16 has nothing below it
    ],
)
def test_taking_on_the_edge_leaves_only_the_part_beside_it(
    board: tuple[str, ...], text: str, left: str
) -> None:
    """Taking C or T at the end of CAT on the board's edge leaves AT or CA, nothing across it."""
    lexicon = Lexicon.from_words([*WORDS, "CA"])
    state = SMARTFEUD.new_game(2, seed=7, options={}, lexicon=lexicon, bag=rig("STEEEEE"))
    after = play_text(SMARTFEUD, laid(state, *board), 0, text, invariants=False)
    assert after.history[-1].words == (text.split()[1], left)


def test_taken_tile_must_be_laid_again_this_turn() -> None:
    """A placement that does not use the taken tile is refused."""
    err = refusal(section(), 1, "J8 TEN take K8")
    assert err.reason is Reason.TAKEN_TILE_NOT_USED


def test_laying_only_the_taken_tile_is_not_allowed() -> None:
    """TI from the board's T and the taken I alone is refused."""
    err = refusal(play(new("SECTION", "TIEEEEE"), 0, "8G SECTION"), 1, "J8 TI take K8")
    assert err.reason is Reason.ONLY_TAKEN_TILE


def test_putting_the_tile_back_on_its_square_takes_nothing() -> None:
    """Taking N from M8 and laying N on M8 again is refused."""
    s = play(new("SECTION", "SAEEEEE"), 0, "8G SECTION")
    err = refusal(s, 1, "M8 NA take M8")
    assert err.reason is Reason.TAKEN_TILE_PUT_BACK


def test_vacated_premium_becomes_active_again() -> None:
    """C taken from the L3 of D8; P laid there scores 3×3 in CUP and in PARTS."""
    s = play(new("CARTS", "UPEEEEE"), 0, "8D CARTS")
    assert s.history[-1].score == 3 * 3 + 1 + 1 + 1 + 1  # C on the L3
    s = play(s, 1, "D6 CUP take D8")
    assert at(s, "D8") == "P"
    assert set(s.history[-1].words) == {"CUP", "PARTS"}
    assert s.history[-1].score == (3 + 1 + 3 * 3) + (3 * 3 + 1 + 1 + 1 + 1)


def test_a_move_with_a_take_typed_in_lower_case_counts_the_taken_tile() -> None:
    """``d6 cup take d8`` with no blank: the taken C is the player's own tile, as in CUP."""
    s = play(new("CARTS", "UPEEEEE"), 0, "8D CARTS")
    s = play(s, 1, "d6 cup take d8")
    assert s.history[-1].text == "D6 CUP take D8"
    assert at(s, "D6") == "C"


def test_a_taken_blank_is_a_blank_again() -> None:
    """The blank of bAT is taken and played as x in AxE: it scores 0, AT stays a word."""
    s = play(new("ATEEEEE", "EEEEEEE"), 0, "8G bAT")
    assert at(s, "G8") == "b"
    s = play(s, 1, "H8 AxE take G8")
    assert at(s, "G8") == "."
    assert at(s, "H9") == "x"
    assert s.history[-1].words == ("AXE", "AT")
    assert s.history[-1].score == (1 + 0 + 1) + (1 + 1)


def test_seven_tiles_plus_the_taken_one_score_50() -> None:
    """RECITALS from seven rack tiles and the C taken from CAT: +50; SAT is formed too."""
    s = play(new("CATEEEE", "REITALS"), 0, "8G CAT")
    s = play(s, 1, "G1 RECITALS take G8")
    # RECITALS: 11 with L on the L2 of G7, doubled by the W2 of G2; SAT crosses at G8.
    assert s.history[-1].score == 2 * (1 + 1 + 3 + 1 + 1 + 1 + 2 + 1) + (1 + 1 + 1) + 50


def test_a_word_on_two_word_premiums_is_multiplied_by_both() -> None:
    """ISLE down from B7 covers the W2 squares B7 and B10: (1+1+1+1)×2×2."""
    lexicon = Lexicon.from_words([*WORDS, "ISLE"])
    s = SMARTFEUD.new_game(2, seed=7, options={}, lexicon=lexicon, bag=rig("SECTION", "ILEEEEE"))
    s = play(s, 0, "8B SECTION")  # N on the start square H8
    s = play(s, 1, "B7 ISLE")
    assert (s.layout[6 * SIZE + 1], s.layout[9 * SIZE + 1]) == ("D", "D")  # B7, B10
    assert s.history[-1].score == (1 + 1 + 1 + 1) * 2 * 2


def test_new_words_add_letters_cross_a_word_or_lie_parallel_to_it() -> None:
    """After SECTION: SECTIONS adds a letter, AT crosses its T, NO lies parallel under ON.

    A word that neither uses nor touches a board tile is refused.
    """
    lexicon = Lexicon.from_words([*WORDS, "NO"])
    s = SMARTFEUD.new_game(2, seed=7, options={}, lexicon=lexicon, bag=rig("SECTION", "SANOEEE"))
    s = play(s, 0, "8G SECTION")  # G8-M8; the N on the L3 of M8
    added = play(s, 1, "8G SECTIONS")  # the S on N8
    assert (added.history[-1].words, added.history[-1].score) == (("SECTIONS",), 10)
    crossed = play(s, 1, "J7 AT")  # the A on the L2 of J7, above the T of J8
    assert (crossed.history[-1].words, crossed.history[-1].score) == (("AT",), 1 * 2 + 1)
    parallel = play(s, 1, "9L NO")  # N under O (ON), O on the L3 of M9 under N (NO)
    assert sorted(parallel.history[-1].words) == ["NO", "NO", "ON"]
    assert parallel.history[-1].score == (1 + 1 * 3) + (1 + 1) + (1 + 1 * 3)
    assert refusal(s, 1, "2B NO").reason is Reason.NOT_ADJACENT


def test_a_swap_of_all_seven_tiles_ends_the_turn() -> None:
    """Exchanging the whole rack: seven tiles back, seven drawn, the next player moves."""
    s = section()
    after = play(s, 1, "swap NZAEEEE")
    assert after.to_move == 0
    assert len(after.racks[1]) == 7
    assert sorted(after.racks[1] + after.bag) == sorted(s.racks[1] + s.bag)
    assert after.racks[1] != s.racks[1]
    assert after.scores == s.scores


def test_six_rack_tiles_and_the_taken_one_earn_no_bonus() -> None:
    """ARTICLE lays six rack tiles and the C taken from CAT: seven tiles, but not all 7 of the
    rack (S stays), so neither +30 nor +50; EAT is formed too.
    """
    lexicon = Lexicon.from_words([*WORDS, "ARTICLE", "EAT"])
    bag = rig("CATEEEE", "REITALS")
    s = SMARTFEUD.new_game(2, seed=7, options={}, lexicon=lexicon, bag=bag)
    s = play(s, 0, "8G CAT")
    s = play(s, 1, "G2 ARTICLE take G8")
    assert "S" in s.racks[1]
    # ARTICLE: 10 with L on the L2 of G7, doubled by the W2 of G2; EAT: 3.
    assert s.history[-1].score == 2 * (1 + 1 + 1 + 1 + 3 + 1 * 2 + 1) + (1 + 1 + 1)


def test_seven_rack_tiles_score_30() -> None:
    """SECTION lays all seven rack tiles: +30."""
    s = section()
    assert s.history[-1].score == 1 + 1 + 3 + 1 + 1 + 1 + 1 * 3 + 30


def test_webfeud_has_no_taking() -> None:
    """The shared engine refuses take in Webfeud."""
    state = WEBFEUD.new_game(2, seed=1, options={}, lexicon=LEX)
    with pytest.raises(RuleError) as info:
        state.apply(0, WEBFEUD.parse_move("8H QI take H8"))
    assert info.value.reason is Reason.TAKE_NOT_ALLOWED


# --- professional mode ---------------------------------------------------------------------------


def test_normal_mode_refuses_an_unknown_word() -> None:
    """mode=normal (the default): the word is refused and the player tries again."""
    err = refusal(new("SECTION", "NZAEEEE"), 0, "8G SECTNOI")
    assert err.reason is Reason.WORD_NOT_IN_LEXICON


def test_pro_mode_an_unknown_word_loses_the_turn() -> None:
    """mode=pro: the turn passes to the next player, nothing is laid, nothing scores."""
    s = new("SECTION", "NZAEEEE", mode="pro")
    after = play(s, 0, "8G SECTNOI")
    assert after.to_move == 1
    assert after.board == s.board
    assert after.scores == (0, 0)
    assert "lost the turn" in after.history[-1].text
    assert "SECTNOI" not in after.history[-1].text  # the tiles stay private
    assert after.seat_passes == (0, 0)  # not a pass
    assert "?" not in after.racks[0]  # the turn ended: the extra blank is gone


def test_pro_mode_still_refuses_other_mistakes() -> None:
    """mode=pro: a placement that breaks another rule is refused, not a lost turn."""
    s = new("SECTION", "NZAEEEE", mode="pro")
    assert refusal(s, 0, "1A SECT").reason is Reason.FIRST_MOVE_NOT_THROUGH_START


# --- waiting time, passes, timeouts ------------------------------------------------------------


def test_waiting_time_defaults_to_48_hours_and_offers_the_documents_choices() -> None:
    """wait=48h by default; 24h, 12h, 20m, 10m, 5m and 3m; anything else is refused."""
    assert SMARTFEUD.turn_timeout(SMARTFEUD.parse_options({})) == WAITS["48h"]
    minutes = {k: v.total_seconds() / 60 for k, v in WAITS.items()}
    assert minutes == {
        "48h": 2880, "24h": 1440, "12h": 720, "20m": 20, "10m": 10, "5m": 5, "3m": 3,
    }  # fmt: skip
    assert SMARTFEUD.turn_timeout({"wait": "3m"}) == WAITS["3m"]
    with pytest.raises(RuleError) as info:
        SMARTFEUD.parse_options({"wait": "1h"})
    assert info.value.reason is Reason.BAD_OPTION


def test_a_timeout_counts_as_a_pass() -> None:
    """on_timeout: the turn goes on to the next player and counts as that player's pass."""
    s = section()
    after = SMARTFEUD.on_timeout(s, 1)
    assert isinstance(after, WordState)
    after.check_invariants()
    assert after.outcome is None
    assert after.to_move == 0
    assert after.seat_passes == (0, 1)
    assert after.history[-1].text == "ran out of time (a pass)"
    # A deadline of a turn that is over passes nobody: not the seat that already moved.
    with pytest.raises(RuleError) as info:
        SMARTFEUD.on_timeout(s, 0)
    assert info.value.reason is Reason.NOT_YOUR_TURN


def test_three_consecutive_passes_lose_that_player_the_game() -> None:
    """Two players: seat 1 passes, times out, passes (seat 0 passed twice): seat 1 loses."""
    s = section()
    s = play(s, 1, "pass")
    s = play(s, 0, "pass")
    s = SMARTFEUD.on_timeout(s, 1)
    s = play(s, 0, "pass")
    assert s.outcome is None
    assert s.seat_passes == (2, 2)
    s = play(s, 1, "pass")
    assert s.outcome is not None
    assert s.outcome.winners == (0,)
    assert s.outcome.reason == "passes"
    assert s.left == ("", "passes")


def test_a_move_breaks_a_run_of_passes() -> None:
    """Pass, pass, then a swap: the player's count starts again."""
    s = play(new("SECTION", "EEEEEEE"), 0, "8G SECTION")
    s = play(play(s, 1, "pass"), 0, "pass")
    s = play(play(s, 1, "pass"), 0, "pass")
    assert s.seat_passes == (2, 2)
    s = play(s, 1, "swap E")
    assert s.seat_passes == (2, 0)


def test_a_word_breaks_a_run_of_passes() -> None:
    """Bob passes twice, then lays AT: his count starts again, so a pass after it is his first."""
    s = section()
    for _ in range(2):
        s = play(play(s, 1, "pass"), 0, f"swap {s.racks[0][0]}")
    assert s.seat_passes == (0, 2)
    s = play(s, 1, "J7 AT")
    assert s.seat_passes == (0, 0)
    s = play(play(s, 0, f"swap {s.racks[0][0]}"), 1, "pass")
    assert s.outcome is None
    assert s.seat_passes == (0, 1)


def test_in_a_three_player_game_the_others_play_on_after_three_passes() -> None:
    """Seat 0 passes three times: it is out, seats 1 and 2 go on; its turns are skipped."""
    s = new("SECTION", "EEEEEEE", "AAAAAAA", players=3)
    for _ in range(2):
        s = play(play(play(s, 0, "pass"), 1, "pass"), 2, "pass")
    s = play(s, 0, "pass")
    assert s.outcome is None
    assert s.left == ("passes", "", "")
    assert s.to_move == 1
    # The chat reads it with the move; the notation stays "pass" for replays.
    assert (s.history[-1].text, s.history[-1].shown) == (
        "pass",
        "pass: 3 in a row, out of the game",
    )
    assert [r.shown for r in s.history[:-1]] == ["pass"] * 6
    s = play(play(s, 1, "swap E"), 2, "swap A")
    assert s.to_move == 1
    assert refusal(s, 0, "pass").reason is Reason.PLAYER_LEFT


# --- resigning and conditional quit -------------------------------------------------------------


def test_two_players_resigning_gives_the_other_the_win() -> None:
    """The opponent wins on a resignation, whatever the score, on any turn."""
    s = play(section(), 0, "resign")
    assert s.outcome is not None
    assert s.outcome.winners == (1,)
    assert s.outcome.reason == "resign"


def test_multiplayer_resignation_the_others_play_on() -> None:
    """Seat 2 resigns out of turn: seats 0 and 1 go on, and seat 2's turns are skipped."""
    s = play(new("SECTION", "EEEEEEE", "AAAAAAA", players=3), 0, "8G SECTION")
    s = play(s, 2, "resign")
    assert s.outcome is None
    assert s.left == ("", "", "resign")
    s = play(s, 1, "swap E")
    assert s.to_move == 0
    assert refusal(s, 2, "quit").reason is Reason.PLAYER_LEFT


def test_the_game_ends_when_all_the_others_resigned() -> None:
    """Three players: two resign, the last one wins."""
    s = new("SECTION", "EEEEEEE", "AAAAAAA", players=3)
    s = play(play(s, 1, "resign"), 2, "resign")
    assert s.outcome is not None
    assert s.outcome.winners == (0,)
    assert s.outcome.reason == "resign"


def test_conditional_quit_ends_the_game_when_everybody_quits() -> None:
    """After a resignation, each remaining player may quit; when all have, the top score wins.

    Seat 2 scored most before resigning, but it left: seat 0 (5 points) wins, by "quit".
    """
    s = play(new("CATEEEE", "OOOOOOO", "XEIIIII", players=3), 0, "8G CAT")
    s = play(s, 1, "pass")
    s = play(s, 2, "H8 AXE")
    assert s.scores == (5, 0, 10)
    early = refusal(s, 0, "quit")  # nobody has left yet
    assert (early.reason, early.message) == (
        Reason.NOTHING_TO_QUIT,
        "You can quit only once another player has left the game (resigned or out on passes); "
        "to give up, use /resign.",
    )
    s = play(s, 2, "resign")
    s = play(s, 1, "quit")
    assert s.outcome is None  # seat 0 has not quit: the game goes on
    assert refusal(s, 1, "quit").reason is Reason.NOTHING_TO_QUIT
    s = play(s, 0, "swap EE")
    s = play(s, 0, "quit")
    assert s.outcome is not None
    assert s.outcome.reason == "quit"
    assert s.outcome.winners == (0,)
    assert s.outcome.scores == (5, 0, 10)


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_joins_the_quit_so_a_quit_by_all_the_people_ends_the_game(level: str) -> None:
    """Seat 1 resigned and seat 0 quit: at its turn the bot (seat 2) quits, and the game ends.

    Bots never quit, so a person who quit against a bot had to play the whole game out.
    """
    s = play(new("CATEEEE", "OOOOOOO", "XEIIIII", players=3), 0, "8G CAT")
    s = play(s, 1, "resign")
    assert s.to_move == 2
    assert not isinstance(choose_move(s, 2, level, 11), Quit)  # nobody has quit yet
    s = play(s, 0, "quit")
    move = choose_move(s, 2, level, 11)
    assert move == Quit()
    s = s.apply(2, move)
    s.check_invariants()
    assert s.outcome is not None
    assert (s.outcome.reason, s.outcome.winners) == ("quit", (0,))


@pytest.mark.parametrize("level", LEVELS)
def test_two_bots_join_a_quit_one_after_the_other(level: str) -> None:
    """Seat 3 resigned, seat 0 quit: bot 1 quits and plays its turn, then bot 2 quits: the end.

    A bot joins once anyone still playing has quit, so two bots never wait for each other.
    """
    s = play(new("CATEEEE", "OOOOOOO", "XEIIIII", "AAAAAAA", players=4), 0, "8G CAT")
    s = play(play(s, 3, "resign"), 0, "quit")
    assert s.to_move == 1
    s = s.apply(1, choose_move(s, 1, level, 11))
    assert (s.quits, s.outcome, s.to_move) == ((True, True, False, False), None, 1)
    move = choose_move(s, 1, level, 11)  # it has quit: now it plays its turn
    assert not isinstance(move, Quit)
    s = s.apply(1, move)
    assert s.to_move == 2
    assert choose_move(s, 2, level, 11) == Quit()
    s = s.apply(2, Quit())
    assert s.outcome is not None
    assert s.outcome.reason == "quit"


def test_quit_needs_a_resignation_and_is_not_in_webfeud() -> None:
    """Quit is refused before anyone resigned, and always in Webfeud."""
    assert refusal(section(), 1, "quit").reason is Reason.NOTHING_TO_QUIT
    state = WEBFEUD.new_game(2, seed=1, options={}, lexicon=LEX)
    with pytest.raises(RuleError) as info:
        state.apply(0, Quit())
    assert info.value.reason is Reason.NOTHING_TO_QUIT


# --- the end -------------------------------------------------------------------------------------


def test_going_out_ends_the_game_and_nobody_pays_for_their_rack() -> None:
    """Seat 0 lays its last tiles with the bag empty: game over ("out"), no rack deductions."""
    # The end of a game: the bag is empty and seat 0 holds QI and the extra blank.
    s = replace(new("QI", "ZA"), racks=("QI?", "ZAEEEEE"), bag="")
    s = s.apply(0, SMARTFEUD.parse_move("8H QI"))
    assert s.racks[0] == ""  # the unused extra blank is lost as the turn ends
    assert s.outcome is not None
    assert s.outcome.reason == "out"
    assert s.scores == (10 + 1, 0)
    assert s.adjustments == (0, 0)
    assert s.outcome.winners == (0,)


def test_a_player_who_left_cannot_win_when_another_goes_out() -> None:
    """Seat 2 resigned with the most points; seat 0 goes out: the winner is among those left."""
    s = replace(
        new("QI", "ZA", "EE", players=3),
        racks=("QI", "ZAEEEEE", "EEEEEEE"),
        bag="",
        bonus="",
        scores=(0, 5, 50),
        left=("", "", "resign"),
    )
    s = s.apply(0, SMARTFEUD.parse_move("8H QI"))
    assert s.outcome is not None
    assert s.outcome.reason == "out"
    assert s.outcome.scores == (11, 5, 50)
    assert s.outcome.winners == (0,)


def test_four_player_game_to_the_end() -> None:
    """Four computer players (hard, medium, easy, medium) play a full game; invariants hold."""
    s = SMARTFEUD.new_game(4, seed=4, options={})
    levels = ("hard", "medium", "easy", "medium")
    for _ in range(400):
        if s.outcome is not None:
            break
        seat = s.to_move
        s = s.apply(seat, choose_move(s, seat, levels[seat], 11))
        s.check_invariants()
        assert SMARTFEUD.from_json(s.to_json()) == s
    assert s.outcome is not None
    assert s.outcome.reason == "out"
    assert len(s.outcome.scores) == 4
    best = max(s.outcome.scores)
    assert s.outcome.winners == tuple(i for i, v in enumerate(s.outcome.scores) if v == best)
    assert any(" take " in r.text for r in s.history)  # the players do take tiles


# --- view, JSON, notation ----------------------------------------------------------------------


def test_view_hides_other_racks_and_shows_who_left() -> None:
    """view(seat) shows the own rack only, plus who left, who quit and the mode."""
    s = play(new("SECTION", "EEEEEEE", "AAAAAAA", players=3), 2, "resign")
    view = s.view(1)
    assert view["rack"] == "EEEEEEE"
    assert "SECTION" not in str(view)
    assert view["left"] == ["", "", "resign"]
    assert view["mode"] == "normal"


def test_json_round_trip_keeps_the_smartfeud_fields() -> None:
    """to_json / from_json keep left, passes, quits, mode and the extra blank."""
    s = play(new("SECTION", "EEEEEEE", "AAAAAAA", players=3, mode="pro"), 0, "pass")
    s = play(s, 2, "resign")
    data = s.to_json()
    assert data["v"] == 1
    again = SMARTFEUD.from_json(data, lexicon=LEX)
    assert again == s
    assert again.pro
    assert again.seat_passes == (1, 0, 0)


def test_taken_cell_reads_the_record() -> None:
    """The renderer finds the vacated square from the move record."""
    s = play(section(), 1, "J8 TIN take K8")
    assert taken_cell(s.history[-1], SIZE) == 7 * SIZE + 10
    assert taken_cell(s.history[0], SIZE) is None


@given(
    row=st.integers(0, 15),
    col=st.integers(0, 15),
    take=st.tuples(st.integers(0, 15), st.integers(0, 15)) | st.none(),
    word=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabc", min_size=1, max_size=16),
    across=st.booleans(),
)
def test_notation_round_trips(
    row: int, col: int, take: tuple[int, int] | None, word: str, across: bool
) -> None:
    """parse_move(str(move)) == move, with or without a take, and for the other moves."""
    for move in (Place(Anchor(row, col, across), word, take), Swap("AE?"), Pass(), Quit()):
        assert SMARTFEUD.parse_move(str(move)) == move


# --- the game-over note -----------------------------------------------------------------------

NAMES = ("alice", "bob")


def test_ending_note_says_who_went_out_and_that_no_rack_counts() -> None:
    """Going out: the note names the player and says SmartFeud deducts no rack."""
    s = replace(new("QI", "ZA"), racks=("QI?", "ZAEEEEE"), bag="")
    s = s.apply(0, SMARTFEUD.parse_move("8H QI"))
    assert s.outcome is not None
    assert SMARTFEUD.ending_note(s, NAMES) == (
        "alice went out; SmartFeud counts no tiles left on the racks."
    )


def test_ending_note_names_the_player_out_on_three_passes() -> None:
    """Three passes by one player: the note says who passed them (nothing was deducted)."""
    s = section()
    for seat in (1, 0, 1, 0, 1):
        s = play(s, seat, "pass")
    assert s.outcome is not None
    assert s.outcome.reason == "passes"
    assert SMARTFEUD.ending_note(s, NAMES) == "bob passed 3 times in a row and is out of the game."


def test_rules_summary_states_the_essentials() -> None:
    """/rules smartfeud: taking a tile, both bonuses, the extra blank, passes and the end."""
    text = SMARTFEUD.notation_help()
    for fact in (
        "take one tile from the board",
        "adds 30",
        "50",
        "extra blank",
        "Three passes in a row by one player",
        "the others play on",
        "/play quit ends the game when all still playing quit",
        "do not count",
        "8H QUIZ take G7",
    ):
        assert fact in text


def test_ending_note_names_everyone_put_out_on_passes() -> None:
    """Four players all passing: three are put out in turn and the note names all three."""
    s = new("SECTION", "NZAEEEE", "ABCDEFG", "HIJKLMN", players=4)
    while s.outcome is None:
        s = play(s, s.to_move, "pass")
    names = ("alice", "bob", "carol", "dave")
    out = [names[seat] for seat, why in enumerate(s.left) if why == "passes"]
    assert len(out) == 3
    assert SMARTFEUD.ending_note(s, names) == (
        f"{out[0]}, {out[1]} and {out[2]} passed 3 times in a row and are out of the game."
    )
