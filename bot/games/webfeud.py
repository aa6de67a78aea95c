"""Webfeud: the two-player 15×15 word game (../shared/rules/webfeud.txt).

The standard layout and the English tile set are those of the published Wordfeud board
(../shared/reference/webfeud.txt), copied here so the product never reads ../shared.
"""

from __future__ import annotations

from datetime import timedelta

from bot.games.wordgame import BOARD_OPTION, Variant, WordGameDef, parse_layout
from bot.lexicon import english

LAYOUT = parse_layout(
    [
        "L3 .. .. .. W3 .. .. L2 .. .. W3 .. .. .. L3",
        ".. L2 .. .. .. L3 .. .. .. L3 .. .. .. L2 ..",
        ".. .. W2 .. .. .. L2 .. L2 .. .. .. W2 .. ..",
        ".. .. .. L3 .. .. .. W2 .. .. .. L3 .. .. ..",
        "W3 .. .. .. W2 .. L2 .. L2 .. W2 .. .. .. W3",
        ".. L3 .. .. .. L3 .. .. .. L3 .. .. .. L3 ..",
        ".. .. L2 .. L2 .. .. .. .. .. L2 .. L2 .. ..",
        "L2 .. .. W2 .. .. .. ** .. .. .. W2 .. .. L2",
        ".. .. L2 .. L2 .. .. .. .. .. L2 .. L2 .. ..",
        ".. L3 .. .. .. L3 .. .. .. L3 .. .. .. L3 ..",
        "W3 .. .. .. W2 .. L2 .. L2 .. W2 .. .. .. W3",
        ".. .. .. L3 .. .. .. W2 .. .. .. L3 .. .. ..",
        ".. .. W2 .. .. .. L2 .. L2 .. .. .. W2 .. ..",
        ".. L2 .. .. .. L3 .. .. .. L3 .. .. .. L2 ..",
        "L3 .. .. .. W3 .. .. L2 .. .. W3 .. .. .. L3",
    ]
)

# tile code -> (count, value); 104 tiles, 2 of them blanks.
TILES = {
    "?": (2, 0),
    "A": (10, 1), "B": (2, 4), "C": (2, 4), "D": (5, 2), "E": (12, 1), "F": (2, 4),
    "G": (3, 3), "H": (3, 4), "I": (9, 1), "J": (1, 10), "K": (1, 5), "L": (4, 1),
    "M": (2, 3), "N": (6, 1), "O": (7, 1), "P": (2, 4), "Q": (1, 10), "R": (6, 1),
    "S": (5, 1), "T": (7, 1), "U": (4, 2), "V": (2, 4), "W": (2, 4), "X": (1, 8),
    "Y": (2, 4), "Z": (1, 10),
}  # fmt: skip

VARIANT = Variant(
    key="webfeud",
    title="Webfeud",
    size=15,
    layout=LAYOUT,
    tiles=TILES,
    lexicon=english,
    rack_size=7,
    bingo=30,
    min_players=2,
    max_players=2,
    swap_min_bag=7,
    pass_limit=3,
)

# The rules a player needs before the first turn, for /rules (docs/rules/webfeud.md).
RULES_SUMMARY = (
    "Score more points than your opponent: a word scores its letters (a blank 0) with the "
    "premium squares under its new tiles, and laying all 7 tiles adds 30. The first word covers "
    "the centre square H8; later words join the board. The game ends when the bag is empty and "
    "a player goes out (they gain the value of the tiles left on the other rack, which its "
    "holder loses) or after three passes in a row (each loses their own rack's value)."
)

WEBFEUD = WordGameDef(
    key="webfeud",
    title="Webfeud",
    tagline="a crossword word game like Wordfeud",
    min_players=2,
    max_players=2,
    options=(BOARD_OPTION,),
    variant=VARIANT,
    timeout=timedelta(hours=72),
    rules=RULES_SUMMARY,
    how=(
        "Play a word with /play 8H QUIZ: from square 8H (row 8, column H) across; H8 QUIZ goes "
        "down. The first word covers H8."
    ),
)
