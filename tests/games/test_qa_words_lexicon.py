"""QA, word-game club players: the words a board can hold are words of the dictionary."""

from __future__ import annotations

from dataclasses import replace

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


def test_a_sixteen_letter_word_fills_a_smartfeud_row() -> None:
    """UNCONSTITUTIONAL (ENABLE) across all 16 columns: 7 rack tiles laid before ITUTIONAL.

    The lexicon kept words of 2..15 letters (for Webfeud's 15x15 board) and refused it as "not
    in the dictionary"; it keeps 2..16 now (SmartFeud's board is 16 wide).
    """
    state = game("UNCONST", "ITUTIONAL", 7)
    evaluation = state.evaluate(Place(Anchor(7, 0, True), "UNCONSTITUTIONAL"), 0)
    assert evaluation.words == ("UNCONSTITUTIONAL",)
    assert evaluation.bingo  # all 7 rack tiles: +30
