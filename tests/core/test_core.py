"""The core contract: errors, bags, coordinates, options."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.errors import GameError, InvalidMove, Reason, RuleError
from bot.core.game import GameDef, Resign, signed
from bot.core.grid import Anchor, cell_name, parse_anchor
from bot.core.notation import notation
from bot.core.tiles import draw, missing_from, new_bag, remove_tiles, return_to_bag, shortage
from bot.core.words import wrap_steps
from bot.games import GAMES


def test_rule_error_carries_reason_and_a_short_message() -> None:
    """RuleError keeps its Reason; messages longer than 200 characters are cut."""
    err = RuleError(Reason.NOT_ADJACENT, "x" * 500)
    assert err.reason is Reason.NOT_ADJACENT
    assert len(str(err)) == 200
    assert isinstance(err, GameError)
    assert isinstance(InvalidMove("m"), GameError)


def test_reason_is_a_str_enum() -> None:
    """Reasons are names, not integer codes."""
    assert Reason.WORD_NOT_IN_LEXICON == "WORD_NOT_IN_LEXICON"


def test_bag_is_shuffled_from_the_seed() -> None:
    """The same seed gives the same order; every tile is there."""
    counts = {"A": 3, "B": 2, "?": 1}
    assert new_bag(counts, 4) == new_bag(counts, 4)
    assert Counter(new_bag(counts, 4)) == Counter(counts)


@given(bag=st.text("ABC", max_size=20), n=st.integers(-3, 30))
def test_draw_takes_from_the_front(bag: str, n: int) -> None:
    """Draw returns at most n tiles from the front and the rest."""
    drawn, rest = draw(tuple(bag), n)
    assert "".join(drawn + rest) == bag
    assert len(drawn) == max(0, min(n, len(bag)))


@given(bag=st.text("ABC", max_size=20), tiles=st.text("XYZ", max_size=7), seed=st.integers())
def test_return_to_bag_keeps_every_tile(bag: str, tiles: str, seed: int) -> None:
    """Returned tiles are all in the bag afterwards, in a seeded order."""
    out = return_to_bag(tuple(bag), tiles, seed)
    assert Counter(out) == Counter(bag + tiles)
    assert out == return_to_bag(tuple(bag), tiles, seed)


def test_rack_multiset_helpers() -> None:
    """missing_from and remove_tiles treat racks as multisets."""
    assert missing_from("AAB?", "AAAB") == ["A"]
    assert missing_from("AAB?", "A?") == []
    assert remove_tiles("AAB?", "A?") == ("A", "B")


def test_shortage_says_none_or_how_few() -> None:
    """What a rack lacks: "no" for tiles it has none of, "only <n>" for too few."""
    assert shortage("AB", missing_from("AB", "XY")) == "no X, Y"
    assert shortage("AB", missing_from("AB", "AAX")) == "no X and only 1 A"
    assert shortage(["R5", "R5"], ["R5", "J"], lambda t: "joker" if t == "J" else t) == (
        "no joker and only 2 R5"
    )


@pytest.mark.parametrize(
    ("text", "anchor"),
    [
        ("8H", Anchor(7, 7, True)),
        ("H8", Anchor(7, 7, False)),
        ("15a", Anchor(14, 0, True)),
        ("o1", Anchor(0, 14, False)),
    ],
)
def test_anchor_direction_follows_the_order(text: str, anchor: Anchor) -> None:
    """Row first means across, column first means down."""
    assert parse_anchor(text) == anchor
    assert parse_anchor(str(anchor)) == anchor


@pytest.mark.parametrize("text", ["", "8", "H", "8H8", "HH", "0A", "A0", "é8"])
def test_bad_squares_are_explained(text: str) -> None:
    """A malformed square raises InvalidMove showing both forms."""
    with pytest.raises(InvalidMove) as info:
        parse_anchor(text)
    assert "8H" in str(info.value) or "H8" in str(info.value)


@pytest.mark.parametrize("text", ["٨G", "９H", "８H", "Ｃ４", "C⁴", "H٨", "1٥A", "𝟖H"])
def test_a_square_has_only_ascii_digits(text: str) -> None:
    """Other scripts' digits, which int() reads, make no square: the usual refusal, both forms."""
    with pytest.raises(InvalidMove) as info:
        parse_anchor(text)
    assert str(info.value) == (
        f"{text!r} is not a square. Write the row then the column to go across (8H), or the "
        "column then the row to go down (H8)."
    )


def test_notation_patterns_know_only_ascii_digits_and_letters() -> None:
    r"""`notation` compiles with re.ASCII: \d is 0-9, and the Kelvin sign is no K."""
    digits = notation(r"^\d+$")
    assert digits.match("1234567890")
    assert not any(digits.match(text) for text in ("٣", "３", "𝟑", "³"))
    assert notation("^k$", re.IGNORECASE).match("K")
    assert not notation("^k$", re.IGNORECASE).match("\u212a")


def test_cell_names_are_column_first() -> None:
    """Cell (row 7, col 7) is H8."""
    assert cell_name(7, 7) == "H8"


def test_options_fill_defaults_and_refuse_unknown_names() -> None:
    """parse_options fills defaults, lower-cases values and names the known options."""
    game = GAMES["webfeud"]
    assert game.parse_options({}) == {"board": "standard"}
    assert game.parse_options({"board": "RANDOM"}) == {"board": "random"}
    with pytest.raises(RuleError) as info:
        game.parse_options({"speed": "fast"})
    assert info.value.reason is Reason.BAD_OPTION
    assert "Options: board=standard|random." in info.value.message


# Mistakes people make typing a move, in every game's notation and in the others'.
MISTYPED_MOVES = (
    "",
    "8h",
    "8H",
    "H8 QUIZ extra",
    "swap",
    "swap 123",
    "take",
    "8H QUIZ take",
    "Z99 45",
    "C4",
    "C4 45",
    "1 2 3",
    "8H QU1Z",
    "99Z QUIZ",
    "split",
    "split 0 after R5",
    "0+R5",
    "3:R8>0",
    "1+",
    "K8>",
    "8H R5 R66",
    "J=Q5",
    "place",
    ";",
    "?",
)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_mistyped_move_is_answered_in_full_with_the_right_syntax(key: str) -> None:
    """Each refusal fits a Telegram alert whole (never cut with "…") and shows an example."""
    answered = 0
    for text in MISTYPED_MOVES:
        try:
            GAMES[key].parse_move(text)
        except InvalidMove as error:
            answered += 1
            message = str(error)
            assert len(message) < 200, (text, message)
            assert not message.endswith("…"), (text, message)
            assert "e.g." in message or any(ch.isdigit() for ch in message), (text, message)
    assert answered >= len(MISTYPED_MOVES) // 2


@pytest.mark.parametrize(
    ("key", "text", "answer", "shows"),
    [
        ("nmbr9", "pass", "NMBR 9 has no passing or swapping", ("/place C4 90", "/moves")),
        ("nmbr9", "swap 3", "NMBR 9 has no passing or swapping", ("/place skip",)),
        ("nmbr9", "Draw", "NMBR 9 has no passing or swapping", ("/place C4 90",)),
        ("rummikub", "swap R5", "Rummikub has no swapping or skipping", ("R5 R6 R7", "/draw")),
        ("rummikub", "Skip", "Rummikub has no swapping or skipping", ("R5 R6 R7", "/draw")),
    ],
)
def test_another_games_turn_is_answered_with_what_this_game_has(
    key: str, text: str, answer: str, shows: tuple[str, ...]
) -> None:
    """Pass, swap, skip or draw where the game has none: the answer says what to do instead."""
    with pytest.raises(InvalidMove) as info:
        GAMES[key].parse_move(text)
    assert info.value.message.startswith(answer)
    assert all(example in info.value.message for example in shows)


def test_counted_words_and_lists_read_as_english() -> None:
    """Counted nouns and lists come from one place: "1 tile"/"3 tiles" and "Ann, Bob and Cy"."""
    from bot.core.words import and_list, plural

    assert [plural(n, "tile") for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
    assert and_list([]) == ""
    assert and_list(["Ann"]) == "Ann"
    assert and_list(iter(["Ann", "Bob"])) == "Ann and Bob"
    assert and_list(["Ann", "Bob", "Cy", "Di"]) == "Ann, Bob, Cy and Di"


def test_the_game_over_and_moves_hooks_say_nothing_by_default() -> None:
    """A game without them adds no ending note and no words beside a /moves suggestion."""
    from bot.games.nmbr9 import NMBR9, Place
    from bot.games.numfeud import NUMFEUD

    state = NUMFEUD.new_game(2, seed=1, options={})
    over = state.apply(0, Resign())
    assert GameDef.ending_note(NUMFEUD, over, ("alice", "bob")) == ""
    assert GameDef.describe_suggestion(NMBR9, state, 0, Place(0, 0, 0)) == ""


def test_signed_writes_a_score_change_with_a_minus_sign() -> None:
    """+5, −5 (U+2212, as the game-over image writes it) and 0."""
    assert (signed(5), signed(-5), signed(0)) == ("+5", "−5", "0")


def test_visible_name_drops_what_draws_nothing_but_keeps_what_shapes() -> None:
    """Zero-width spaces, bidi overrides and controls go; joiners and emoji tags stay."""
    from bot.core.words import visible_name

    assert visible_name("b\u200bob") == "bob"
    assert visible_name("\u202ecarol\u2066") == "carol"
    assert visible_name("\u200dcarol\u200d") == "carol"  # a joiner at an end joins nothing
    assert visible_name("b\u200dob") == "bob"  # between Latin letters: only a look-alike
    assert visible_name("bo\U000e0062b") == "bob"  # a tag that follows no flag
    assert visible_name("  ann \n lee ") == "ann lee"
    assert visible_name("\u3164") == visible_name("\u2800\u2800") == ""  # blanks: no name
    assert visible_name("\u2800ann\u3164lee\uffa0") == "ann lee"
    assert visible_name("Zoe\u0308") == "Zoë"  # NFC: the one "Zoë"
    persian = "فاطمه\u200cسادات"  # the non-joiner decides how the letters join
    assert visible_name(persian) == persian
    assert visible_name("👨\u200d💻dev") == "👨\u200d💻dev"  # one emoji, not two
    scotland = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    assert visible_name(scotland) == scotland


def test_wrap_steps_breaks_after_a_step_and_counts_what_is_left() -> None:
    """Steps wrap after their ";" (never cut), to the lines allowed; the rest is counted."""
    text = "1. bob: 3+R1; 5:K3 6:K4>new; 11:K6 6:K7>new; 4:B1 B3>new; done"
    assert wrap_steps(text, width=len(text), lines=1) == text
    assert wrap_steps(text, width=40, lines=3) == (
        "1. bob: 3+R1; 5:K3 6:K4>new;\n   11:K6 6:K7>new; 4:B1 B3>new; done"
    )
    assert wrap_steps(text, width=40, lines=1) == "1. bob: 3+R1; … (+4 steps)"
    assert wrap_steps(text, width=30, lines=2) == ("1. bob: 3+R1; 5:K3 6:K4>new;\n   … (+3 steps)")
    assert all(len(line) <= 30 for line in wrap_steps(text, width=30, lines=2).splitlines())
