"""Helpers the rule tests share: apply a move by its notation, or check that the rules refuse it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.core.errors import RuleError
from bot.core.game import GameDef
from bot.core.grid import parse_anchor


def play_text(gdef: GameDef, state: Any, seat: int, text: str, *, invariants: bool = True) -> Any:
    """Parse and apply one move; the input is untouched, the result keeps the invariants.

    `invariants=False` is for games dealt from a rigged, short bag, which tile conservation
    (counted against the full set) would refuse.
    """
    before = state.to_json()
    after = state.apply(seat, gdef.parse_move(text))
    assert state.to_json() == before
    if invariants:
        after.check_invariants()
    return after


def refusal_of(
    gdef: GameDef, state: Any, seat: int, text: str, *, invariants: bool = True
) -> RuleError:
    """Return the RuleError a move raises; the state is untouched, the message fits an alert."""
    before = state.to_json()
    with pytest.raises(RuleError) as info:
        play_text(gdef, state, seat, text, invariants=invariants)
    assert state.to_json() == before
    assert 0 < len(info.value.message) <= 200
    return info.value


def laid(state: Any, *words: str) -> Any:
    """Return a word game's `state` with `words` (``8H QUIZ``, ``H8 QI``) written on its board.

    By no player and by no rule: for positions a game would take long to reach, such as words
    on the board's edges. The tiles come from nowhere, so check such states without invariants.
    """
    board = list(state.board)
    for text in words:
        square, letters = text.split()
        anchor = parse_anchor(square)
        for k, letter in enumerate(letters):
            row, col = anchor.step(k)
            board[row * state.size + col] = letter
    return replace(state, board="".join(board))
