"""Benchmark SmartFeud's computer player with the take-a-tile option on mid-game boards.

Run from the repository root::

    python bench/bench_smartfeud.py [--positions 30] [--repeat 3]

Prints figures, asserts nothing. The positions come from seeded self-play of the ``hard`` player
(2, 3 or 4 players, 8 to 16 moves). For each position the time of one whole AI move
(`choose_move`: the placements without a take, the takes its `TAKE_BUDGET` allows, the pick)
is the fastest of ``--repeat`` runs; p50 and p90 are over the positions. Goal: p50 of the hard
move <= 500 ms.

It also measures which removals are worth trying: how many board tiles there are, how many
`take_options` keeps (a take that leaves a broken word is dropped), where in its ranking the
removal of the best take move sits, and how often the best move is a take at all, so the
budgets of the weaker levels (`TAKE_BUDGET`) can be judged.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from figures import figure  # noqa: E402

from bot.ai import choose_move  # noqa: E402
from bot.ai.wordgen import (  # noqa: E402
    best_candidate,
    generate_moves,
    generate_take_moves,
    take_options,
)
from bot.ai.wordplayers import TAKE_BUDGET  # noqa: E402
from bot.games.smartfeud import SMARTFEUD  # noqa: E402
from bot.games.wordgame import EMPTY, WordState  # noqa: E402

GOAL_MS = 500.0


def percentile(values: list[float], q: float) -> float:
    """Return the q-quantile of `values` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def mid_game(seed: int) -> WordState:
    """Return a SmartFeud position after 8-16 moves of seeded hard self-play (2-4 players)."""
    rng = random.Random(seed)
    state = SMARTFEUD.new_game(2 + seed % 3, seed=seed, options={})
    for _ in range(rng.randint(8, 16)):
        if state.outcome is not None:
            break
        state = state.apply(state.to_move, choose_move(state, state.to_move, "hard", seed))
    return state


def time_move(state: WordState, level: str, repeat: int) -> float:
    """Return the fastest of `repeat` whole AI moves of `level`, in ms."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        choose_move(state, state.to_move, level, 1)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    """Build the positions, time the levels, measure the removals, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    start = time.perf_counter()
    states = [mid_game(seed) for seed in range(args.positions)]
    states = [s for s in states if s.outcome is None]
    print(
        f"{len(states)} mid-game positions (2-4 players) from hard self-play in "
        f"{time.perf_counter() - start:.1f} s"
    )
    generate_moves(states[0], states[0].to_move)  # load the lexicon and its tables

    for level in ("hard", "medium", "easy"):
        times = [time_move(s, level, args.repeat) for s in states]
        p50, p90 = percentile(times, 0.5), percentile(times, 0.9)
        if level == "hard":
            figure(
                "SmartFeud hard AI move, with take",
                p50,
                "ms",
                goal=f"<= {GOAL_MS:.0f}",
                stat="p50",
            )
        goal = f"   (goal p50 <= {GOAL_MS:.0f} ms)" if level == "hard" else ""
        budget = TAKE_BUDGET[level]
        tried = "every kept take" if budget is None else f"the best {budget} kept takes"
        print(
            f"{level:6} AI move ({tried}): p50 {p50:6.1f} ms   p90 {p90:6.1f} ms   "
            f"max {max(times):6.1f} ms{goal}"
        )

    tiles, kept, ranks, take_wins, gains, plain_ms, take_ms = [], [], [], 0, [], [], []
    for state in states:
        seat = state.to_move
        tiles.append(sum(ch != EMPTY for ch in state.board))
        first = second = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            plain = generate_moves(state, seat)
            t1 = time.perf_counter()
            removals = take_options(state, seat)
            takes = generate_take_moves(state, seat, removals)
            t2 = time.perf_counter()
            first, second = min(first, t1 - t0), min(second, t2 - t1)
        plain_ms.append(first * 1000)
        take_ms.append(second * 1000)
        kept.append(len(removals))
        best_plain = best_candidate(plain)
        best_take = best_candidate(takes)
        if best_take is None:
            continue
        order = [r.cell for r in removals]
        ranks.append(order.index(best_take.take) + 1 if best_take.take in order else -1)
        base = best_plain.score if best_plain else 0
        if best_take.score > base:
            take_wins += 1
            gains.append(best_take.score - base)
    print(
        f"board tiles p50 {statistics.median(tiles):.0f}; takes kept by take_options p50 "
        f"{statistics.median(kept):.0f} (the others leave a broken word)"
    )
    print(
        f"generate without take p50 {percentile(plain_ms, 0.5):.1f} ms; all kept takes p50 "
        f"{percentile(take_ms, 0.5):.1f} ms, p90 {percentile(take_ms, 0.9):.1f} ms"
    )
    if ranks:
        within = {k: sum(1 for r in ranks if 0 < r <= k) / len(ranks) for k in (2, 8, 16)}
        print(
            f"best move is a take in {take_wins}/{len(states)} positions "
            f"(gain p50 {statistics.median(gains) if gains else 0:.0f} points); the best take's "
            f"removal is ranked p50 #{statistics.median(ranks):.0f}; within the top 2: "
            f"{within[2]:.0%}, top 8: {within[8]:.0%}, top 16: {within[16]:.0%}"
        )


if __name__ == "__main__":
    main()
