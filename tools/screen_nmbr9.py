"""Screen the NMBR 9 hard player on the paired screening decks (seeds 1000 on), solo.

    python tools/screen_nmbr9.py --decks 100              # decks 1000-1099 (~15 min)
    python tools/screen_nmbr9.py --decks 30               # a pre-screen, decks 1000-1029

Prints one line per deck (seed, score, seconds), so that two variants can be compared deck by
deck, and the mean and ms per move (mean and p50). Same games as ``tune_nmbr9.py --evaluate``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.nmbr9 import HARD_SEARCH, choose_hard
from bot.games.nmbr9 import COPIES, NMBR9, NUMBERS, Display


def play(seed: int) -> tuple[int, list[float]]:
    """Return the hard player's score on the deck of `seed` and the seconds of each move."""
    display = Display()
    left = [COPIES] * len(NUMBERS)
    score = 0
    times = []
    for card in NMBR9.new_game(1, seed=seed, options={}).deck:
        left[card] -= 1
        start = time.perf_counter()
        fit = choose_hard(display, card, left, seed, HARD_SEARCH)
        times.append(time.perf_counter() - start)
        assert fit is not None
        score += card * fit.level
        display = display.add(fit.mask, card, fit.level)
    return score, times


def main() -> None:
    """Play the decks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=100)
    parser.add_argument("--first", type=int, default=1000)
    args = parser.parse_args()
    scores = []
    moves: list[float] = []
    for seed in range(args.first, args.first + args.decks):
        score, times = play(seed)
        scores.append(score)
        moves += times
        print(f"{seed} {score} {sum(times):.1f}", flush=True)
    moves.sort()
    print(
        f"mean {statistics.mean(scores):.2f} over decks {args.first}-{seed}; "
        f"{statistics.mean(moves) * 1000:.0f} ms/move (p50 {moves[len(moves) // 2] * 1000:.0f} ms)"
    )


if __name__ == "__main__":
    main()
