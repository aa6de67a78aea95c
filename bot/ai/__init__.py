"""Computer players: move generators and level-based choosers, per game (docs/ai.md).

`choose_move(state, seat, level, seed)` is the one entry point the service needs; it looks the
game up in `PLAYERS` by `state.game_key`. Pure: standard library and the game engines only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.ai.wordplayers import choose_word_move
from bot.core.game import GameState, Move

__all__ = ["LEVELS", "PLAYERS", "choose_move"]

#: The strength levels, weakest first.
LEVELS = ("easy", "medium", "hard")

#: game key -> the function that picks a move: (state, seat, level, seed) -> move.
PLAYERS: dict[str, Callable[[Any, int, str, int], Move]] = {
    "webfeud": choose_word_move,
}


def choose_move(state: GameState, seat: int, level: str, seed: int) -> Move:
    """Return the move a computer player of `level` makes for `seat` in `state`.

    The same state, seat, level and seed always give the same move.

    Raises:
        ValueError: if no computer player knows the game, or the level is not in `LEVELS`.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    player = PLAYERS.get(state.game_key)
    if player is None:
        raise ValueError(f"no computer player for {state.game_key!r}")
    return player(state, seat, level, seed)
