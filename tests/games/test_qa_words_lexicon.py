"""QA, word-game club players: the words a board can hold are words of the dictionary."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.grid import Anchor
from bot.games.smartfeud import SMARTFEUD
from bot.games.wordgame import Place, WordState

SIZE = 16


def row_eight(letters: dict[int, str]) -> str:
    """Return an empty 16×16 board with `letters` (column → letter) on row 8."""
    board = ["."] * (SIZE * SIZE)
    for col, letter in letters.items():
        board[7 * SIZE + col] = letter
    return "".join(board)


def game(rack: str, on_board: str, first_col: int) -> WordState:
    """A SmartFeud game, seat 0 to move with `rack`, `on_board` on row 8 from `first_col`."""
    state = SMARTFEUD.new_game(2, seed=7, options={})
    board = row_eight({first_col + k: letter for k, letter in enumerate(on_board)})
    return replace(state, board=board, racks=(rack, state.racks[1]), bonus="", turn=4)


def test_a_fifteen_letter_word_across_the_board_is_played() -> None:
    """The contrast: 15 letters (ENABLE's INTERNALIZATION) through ZATION on the board."""
    state = game("INTERNA", "LIZATION", 8)
    assert len("INTERNALIZATION") == 15
    evaluation = state.evaluate(Place(Anchor(7, 1, True), "INTERNALIZATION"), 0)
    assert evaluation.words == ("INTERNALIZATION",)
    assert evaluation.bingo


@pytest.mark.xfail(
    strict=True,
    reason="the packaged lexicon keeps words of 2..15 letters (tools/build_lexicon.py, for a "
    "15x15 board), but SmartFeud's board is 16 wide: a 16-letter word of ENABLE, "
    "UNCONSTITUTIONAL, is refused as 'not in the dictionary'; the fix is a rebuild of "
    "bot/lexicon/data/english.dawg.gz with 16-letter words (Webfeud cannot hold them anyway)",
)
def test_a_sixteen_letter_word_fills_a_smartfeud_row() -> None:
    """UNCONSTITUTIONAL (ENABLE) across all 16 columns: 7 rack tiles laid before ITUTIONAL."""
    state = game("UNCONST", "ITUTIONAL", 7)
    evaluation = state.evaluate(Place(Anchor(7, 0, True), "UNCONSTITUTIONAL"), 0)
    assert evaluation.words == ("UNCONSTITUTIONAL",)
    assert evaluation.bingo  # all 7 rack tiles: +30
