r"""One rule for every game's notation: only the ASCII digits 0-9 are digits (bot.core.notation).

Python's ``\d`` and ``int()`` also read other scripts' digits, so ``C١ ٩٠`` once placed a NMBR 9
tile at C1 90 and ``٨G QUIZ`` laid a word from 8G. Each such move is now refused as unreadable,
with the parser's usual message, like a square or tile written in letters it does not know.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.core.errors import InvalidMove
from bot.games import GAMES

ROOT = Path(__file__).resolve().parents[2]

REFUSED = [
    # NMBR 9: square and rotation.
    ("nmbr9", "C١ ٩٠", "C4 90"),  # Arabic-Indic digits
    ("nmbr9", "C4 𝟗𝟎", "C4 90"),  # mathematical bold digits
    ("nmbr9", "c4 ９0", "C4 90"),  # a full-width digit
    ("nmbr9", "C٤", "C4 90"),
    ("nmbr9", "C⁴ 90", "C4 90"),  # a superscript
    # The word games: the square, and the square of a SmartFeud take.
    ("webfeud", "٨G QUIZ", "8H"),
    ("webfeud", "９H QUIZ", "8H"),
    ("webfeud", "８H QUIZ", "8H"),
    ("webfeud", "Ｃ４ QUIZ", "8H"),
    ("webfeud", "C⁴ QUIZ", "8H"),
    ("smartfeud", "٨G QUIZ", "8H"),
    ("smartfeud", "H٨ QUIZ", "8H"),
    ("smartfeud", "8H QUIZ take G٧", "8H"),
    # Numfeud: the square, a tile's number, a joker's face, a board tile's move, a swap.
    ("numfeud", "٨G R5 R6 R7", "8H"),
    ("numfeud", "８H R5 R6 R7", "8H"),
    ("numfeud", "8H R６ R7 R8", "8H R5 R6 R7"),
    ("numfeud", "8H J=R٥ R6 R7", "8H R5 R6 R7"),
    ("numfeud", "K٨>L9", "K8>L9"),
    ("numfeud", "swap R٥", "swap R5 B7 J"),
    # Rummikub: a tile's number and every meld number.
    ("rummikub", "R５ R6 R7", "R5 R6 R7"),
    ("rummikub", "٣+R8", "R5 R6 R7"),
    ("rummikub", "1:R7>٢", "R5 R6 R7"),
    ("rummikub", "١:R7>new", "R5 R6 R7"),
    ("rummikub", "split ١ after R7", "split 4 after R7"),
    ("rummikub", "\u212a5 K6 K7", "R5 R6 R7"),  # the Kelvin sign is not a K
]


@pytest.mark.parametrize(("game", "text", "example"), REFUSED)
def test_other_scripts_digits_are_refused_in_every_game(game: str, text: str, example: str) -> None:
    """A move with a digit other than 0-9 is unreadable; the message shows the right form."""
    with pytest.raises(InvalidMove) as info:
        GAMES[game].parse_move(text)
    assert example in info.value.message
    assert len(info.value.message) <= 200


@pytest.mark.parametrize(
    ("game", "text", "move"),
    [
        ("nmbr9", "C4 90", "C4 90"),
        ("webfeud", "8H QUIZ", "8H QUIZ"),
        ("smartfeud", "8H QUIZ take G7", "8H QUIZ take G7"),
        ("numfeud", "K8>L9; 8H R5 R6 R7", "K8>L9; 8H R5 R6 R7"),
        ("rummikub", "split 1 after R7; 1:R7>new; 2+R8", "split 1 after R7; 1:R7>new; 2+R8"),
        ("rummikub", "split\u00a01 after R7", "split 1 after R7"),  # any space still separates
    ],
)
def test_ascii_digits_still_read(game: str, text: str, move: str) -> None:
    """The same moves in ASCII digits read as before."""
    assert str(GAMES[game].parse_move(text)) == move


def test_notation_patterns_are_compiled_by_the_shared_helper() -> None:
    """No rules module compiles a pattern itself: `bot.core.notation.notation` does, ASCII only."""
    offenders = []
    for folder in ("core", "games", "ai"):
        for path in sorted((ROOT / "bot" / folder).glob("*.py")):
            if path.name == "notation.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "re"
                    and node.func.attr in ("compile", "match", "fullmatch", "search", "findall")
                ):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []
