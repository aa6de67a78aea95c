"""Rummikub strength: one bot level against another, 2 players, each deck from both seats.

Plays `--decks` decks (seeds `--first`, `--first` + 1, …); each deck is played twice, the level
measured in seat 0 and then in seat 1, so the luck of the deal and of moving first cancels out.
A game counts 1 for a win, 1/2 for a shared win (equal racks when the pool ran out), 0 for a loss.
Prints a line a deck and the share won with its binomial standard error; asserts nothing. Not in
`feudbot bench`: 200 games take several minutes (≈ 2–4 s a game for hard against medium).

Run: python bench/duel_rummikub.py --level hard --against medium --first 2000 --decks 100
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.rummikub import LEVELS, choose_rummikub_move
from bot.games.rummikub import RUMMIKUB

MAX_MOVES = 2000


def play(seed: int, levels: tuple[str, str]) -> tuple[int, ...]:
    """Play one game of `seed` between the two levels (seat 0 first); return the winners."""
    state = RUMMIKUB.new_game(2, seed=seed, options={})
    for _ in range(MAX_MOVES):
        if state.outcome is not None:
            return state.outcome.winners
        seat = state.to_move
        state = state.apply(seat, choose_rummikub_move(state, seat, levels[seat], state.turn))
    raise RuntimeError(f"seed {seed} did not end within {MAX_MOVES} moves")


def points(winners: tuple[int, ...], seat: int) -> float:
    """Return what the game is worth to `seat`: 1 alone, 1/2 shared, 0 lost."""
    return 0.0 if seat not in winners else 1.0 / len(winners)


def main() -> None:
    """Play the decks from both seats and print the share won."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=LEVELS, default="hard")
    parser.add_argument("--against", choices=LEVELS, default="medium")
    parser.add_argument("--first", type=int, default=2000)
    parser.add_argument("--decks", type=int, default=100)
    args = parser.parse_args()
    start, won, games = time.perf_counter(), 0.0, 0
    for seed in range(args.first, args.first + args.decks):
        for seat in (0, 1):
            levels = (args.level, args.against) if seat == 0 else (args.against, args.level)
            won += points(play(seed, levels), seat)
            games += 1
        print(f"deck {seed}: {won:g} of {games}  ({time.perf_counter() - start:.0f} s)", flush=True)
    share = won / games
    error = (share * (1 - share) / games) ** 0.5
    print(
        f"{args.level} against {args.against}, decks {args.first}–{args.first + args.decks - 1} "
        f"from both seats: {won:g} of {games} = {share:.1%} (standard error {error:.1%})"
    )


if __name__ == "__main__":
    main()
