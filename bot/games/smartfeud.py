"""SmartFeud: the 16×16 word game where a player may take a tile from the board.

The rules are ../shared/rules/smartfeud.txt.

It runs on the shared word-game engine (`bot.games.wordgame`) with SmartFeud's switches on:
taking a tile, the +50 bonus, the starter's extra blank, three passes by one player losing that
player the game, play on after a resignation (with conditional quit), professional mode and the
waiting-time option. Every interpretation is written down in docs/rules/smartfeud.md.
"""

from __future__ import annotations

from datetime import timedelta

from bot.core.game import OptionSpec
from bot.games.wordgame import BOARD_OPTION, Variant, WordGameDef, parse_layout
from bot.lexicon import english

# The standard board: 56 premium squares "in an orderly fashion". One 8×8 quadrant is mirrored
# left-right and top-bottom, and each quadrant is symmetric about its diagonal, so the board
# looks the same after any rotation or reflection. The four centre squares are the start squares.
LAYOUT = parse_layout(
    [
        "L3 .. .. W3 .. .. .. .. .. .. .. .. W3 .. .. L3",
        ".. L2 .. .. .. .. W2 .. .. W2 .. .. .. .. L2 ..",
        ".. .. W2 .. .. L2 .. .. .. .. L2 .. .. W2 .. ..",
        "W3 .. .. .. .. .. .. L3 L3 .. .. .. .. .. .. W3",
        ".. .. .. .. W2 .. .. .. .. .. .. W2 .. .. .. ..",
        ".. .. L2 .. .. L3 .. .. .. .. L3 .. .. L2 .. ..",
        ".. W2 .. .. .. .. L2 .. .. L2 .. .. .. .. W2 ..",
        ".. .. .. L3 .. .. .. ** ** .. .. .. L3 .. .. ..",
        ".. .. .. L3 .. .. .. ** ** .. .. .. L3 .. .. ..",
        ".. W2 .. .. .. .. L2 .. .. L2 .. .. .. .. W2 ..",
        ".. .. L2 .. .. L3 .. .. .. .. L3 .. .. L2 .. ..",
        ".. .. .. .. W2 .. .. .. .. .. .. W2 .. .. .. ..",
        "W3 .. .. .. .. .. .. L3 L3 .. .. .. .. .. .. W3",
        ".. .. W2 .. .. L2 .. .. .. .. L2 .. .. W2 .. ..",
        ".. L2 .. .. .. .. W2 .. .. W2 .. .. .. .. L2 ..",
        "L3 .. .. W3 .. .. .. .. .. .. .. .. W3 .. .. L3",
    ]
)

# The English letter set of the rule document: tile code -> (count, value); 116 tiles, 2 blanks.
TILES = {
    "?": (2, 0),
    "A": (10, 1), "B": (2, 3), "C": (3, 3), "D": (5, 2), "E": (13, 1), "F": (2, 4),
    "G": (3, 2), "H": (2, 4), "I": (10, 1), "J": (1, 8), "K": (1, 5), "L": (5, 1),
    "M": (3, 3), "N": (10, 1), "O": (8, 1), "P": (3, 3), "Q": (1, 10), "R": (7, 1),
    "S": (5, 1), "T": (6, 1), "U": (5, 1), "V": (2, 4), "W": (2, 4), "X": (2, 8),
    "Y": (2, 4), "Z": (1, 10),
}  # fmt: skip

VARIANT = Variant(
    key="smartfeud",
    title="SmartFeud",
    size=16,
    layout=LAYOUT,
    tiles=TILES,
    lexicon=english,
    rack_size=7,
    bingo=30,
    min_players=2,
    max_players=4,
    swap_min_bag=7,
    pass_limit=0,  # no "everybody passed" end: three passes by one player lose that player
    take=True,
    take_bingo=50,
    starter_blank=True,
    seat_pass_limit=3,
    play_on=True,
    end_adjust=False,  # the rules describe no end-of-game rack adjustment
)

#: The waiting-time setting: the longest a player may take for a turn.
WAITS = {
    "48h": timedelta(hours=48),
    "24h": timedelta(hours=24),
    "12h": timedelta(hours=12),
    "20m": timedelta(minutes=20),
    "10m": timedelta(minutes=10),
    "5m": timedelta(minutes=5),
    "3m": timedelta(minutes=3),
}

MODE_OPTION = OptionSpec(
    "mode", ("normal", "pro"), "normal", "pro: a word not in the dictionary loses the turn"
)
WAIT_OPTION = OptionSpec(
    "wait", tuple(WAITS), "48h", "the waiting time per turn; running out counts as a pass"
)

# The rules a player needs before the first turn, for /rules (docs/rules/smartfeud.md).
RULES_SUMMARY = (
    "Score the most points. Each turn you may take one tile from the board; lay it again in "
    "that turn's word, with tiles of your own. Laying all 7 rack tiles adds 30; the 7 and a "
    "taken tile, 50. The starter's extra blank must be laid on the first turn or is lost. The "
    "first word covers one of the four centre squares. Three passes in a row by one player "
    "put that player out; with 3 or 4 players the others play on after someone is out or "
    "resigns, and once someone has left, /play quit ends the game when all still playing quit "
    "(the top score wins). The game ends when the bag is empty and a player goes out; the "
    "tiles left on the racks do not count."
)
NOTATION_HELP = (
    "Play a word: 8H QUIZ (across) or H8 QUIZ (down), the whole word with board letters; "
    "lower case = blank (all lower case: your own tiles first). "
    "Take a board tile and lay it again: 8H QUIZ take G7. "
    "Also: swap AEQ?, pass, resign; in a game of 3 or 4 once a player has left, quit."
)

# The short form unreadable text is answered with (a whole message fits a Telegram alert); it
# leaves out quit, which only a game of 3 or 4 takes, once a player has left.
USAGE = (
    "8H QUIZ (across) or H8 QUIZ (down); 8H QUIZ take G7 lays a board tile again; also "
    "swap AEQ?, pass, resign."
)

SMARTFEUD = WordGameDef(
    key="smartfeud",
    title="SmartFeud",
    tagline="a word game: reuse a board tile each turn",
    min_players=2,
    max_players=4,
    options=(BOARD_OPTION, MODE_OPTION, WAIT_OPTION),
    variant=VARIANT,
    timeout=WAITS["48h"],
    waits=WAITS,
    timeout_passes=True,
    help=NOTATION_HELP,
    usage=USAGE,
    rules=RULES_SUMMARY,
    how=(
        "Play a word with /play 8H QUIZ: from square 8H (row 8, column H) across; H8 QUIZ goes "
        "down. Add take G7 to lay a board tile again."
    ),
)
