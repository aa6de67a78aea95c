"""Computer players: move generators and level-based choosers, per game (docs/ai.md).

`choose_move(state, seat, level, seed)` is the one entry point the service needs; it looks the
game up in `PLAYERS` by `state.game_key`. Pure: standard library and the game engines only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.ai.nmbr9 import choose_nmbr9_move
from bot.ai.numfeud import choose_numfeud_move
from bot.ai.rummikub import assist_move, choose_rummikub_move, hint_move
from bot.ai.wordplayers import choose_word_move
from bot.core.game import GameState, Move

__all__ = ["ASSISTS", "HINTS", "LEVELS", "PLAYERS", "assist", "choose_move"]

#: The strength levels, weakest first.
LEVELS = ("easy", "medium", "hard")

#: game key -> the function that picks a move: (state, seat, level, seed) -> move.
PLAYERS: dict[str, Callable[[Any, int, str, int], Move]] = {
    "webfeud": choose_word_move,
    "rummikub": choose_rummikub_move,
    "numfeud": choose_numfeud_move,
    "smartfeud": choose_word_move,
    "nmbr9": choose_nmbr9_move,
}

#: game key -> (state, seat, move) -> the move meant with the game's Assist option.
ASSISTS: dict[str, Callable[[Any, int, Any], Move]] = {"rummikub": assist_move}

#: game key -> (state, seat) -> a suggested move for a person (`/hint` in casual games).
HINTS: dict[str, Callable[[Any, int], Move]] = {"rummikub": hint_move}


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


def assist(state: GameState, seat: int, move: Move) -> Move:
    """Return the move `seat` meant, completed by the game's Assist (unchanged without one)."""
    helper = ASSISTS.get(state.game_key)
    return move if helper is None else helper(state, seat, move)
