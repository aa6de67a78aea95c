"""Helpers the rule tests share: apply a move by its notation, or check that the rules refuse it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.errors import RuleError
from bot.core.game import GameDef


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
