"""Grid coordinates: columns are letters A.., rows are numbers 1...

A move's anchor carries its direction in the order of its parts, as in Scrabble notation:
``8H`` is row 8, column H, going **across**; ``H8`` is column H, row 8, going **down**.
A bare cell is named column first (``H8``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.errors import InvalidMove
from bot.core.notation import notation
from bot.core.words import quoted

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_ACROSS = notation(r"^(\d{1,2})([A-Za-z])$")
_DOWN = notation(r"^([A-Za-z])(\d{1,2})$")


def column_name(col: int) -> str:
    """Return the letter of a 0-based column."""
    return COLUMNS[col]


def cell_name(row: int, col: int) -> str:
    """Return the name of a 0-based cell, column first: (7, 7) -> "H8"."""
    return f"{COLUMNS[col]}{row + 1}"


@dataclass(frozen=True, slots=True)
class Anchor:
    """Where a word starts (0-based row and column) and which way it goes."""

    row: int
    col: int
    across: bool

    def __str__(self) -> str:
        if self.across:
            return f"{self.row + 1}{COLUMNS[self.col]}"
        return f"{COLUMNS[self.col]}{self.row + 1}"

    def step(self, i: int) -> tuple[int, int]:
        """Return the (row, col) of the i-th cell from the anchor."""
        if self.across:
            return self.row, self.col + i
        return self.row + i, self.col


def parse_anchor(text: str) -> Anchor:
    """Parse ``8H`` (across) or ``H8`` (down); bounds are the game's to check."""
    text = text.strip()
    if m := _ACROSS.match(text):
        row, col = int(m.group(1)) - 1, COLUMNS.index(m.group(2).upper())
        across = True
    elif m := _DOWN.match(text):
        col, row = COLUMNS.index(m.group(1).upper()), int(m.group(2)) - 1
        across = False
    else:
        raise InvalidMove(
            f"{quoted(text)} is not a square. Write the row then the column to go across (8H),"
            " or the column then the row to go down (H8)."
        )
    if row < 0:
        raise InvalidMove(f"There is no row 0 in {quoted(text)}: rows start at 1, as in 8H or H8.")
    return Anchor(row, col, across)
