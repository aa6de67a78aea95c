"""`feudbot simulate`: complete games between bot players, invariants checked after every move."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TextIO

from bot.ai import LEVELS, choose_move
from bot.core.game import GameState
from bot.games import GAMES

MAX_MOVES = 2000  # a guard against a game that never ends (each game has its own end rules)


def play_game(game: str, seed: int, levels: Sequence[str]) -> dict[str, Any]:
    """Play one game to its end and return its record (moves, final scores, winners)."""
    spec = GAMES[game]
    state: GameState = spec.new_game(len(levels), seed=seed, options={})
    state.check_invariants()
    moves: list[dict[str, Any]] = []
    for _ in range(MAX_MOVES):
        if state.outcome is not None:
            break
        seat = state.waiting_for()[0]
        move = choose_move(state, seat, levels[seat], seed * 1000 + state.turn)
        state = state.apply(seat, move)
        state.check_invariants()
        moves.append({"seat": seat, "move": str(move), "score": state.history[-1].score})
    else:
        raise RuntimeError(f"{game} seed {seed} did not end within {MAX_MOVES} moves")
    assert state.outcome is not None
    return {
        "game": game,
        "seed": seed,
        "players": list(levels),
        "moves": moves,
        "scores": list(state.outcome.scores),
        "winners": list(state.outcome.winners),
        "reason": state.outcome.reason,
    }


def run_simulation(*, game: str, games: int, seed: int, players: Sequence[str], out: TextIO) -> int:
    """Play `games` games from consecutive seeds, printing one JSON object per game."""
    if game not in GAMES:
        out.write(f"unknown game {game!r}; choose from {', '.join(GAMES)}\n")
        return 2
    bad = [level for level in players if level not in LEVELS]
    if bad:
        out.write(f"unknown level {bad[0]!r}; choose from {', '.join(LEVELS)}\n")
        return 2
    for n in range(games):
        record = play_game(game, seed + n, players)
        out.write(json.dumps(record) + "\n")
        out.flush()
    return 0
