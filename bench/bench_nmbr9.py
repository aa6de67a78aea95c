"""NMBR 9 figures: legal-placement listing speed and the solo strength of the bots.

    python bench/bench_nmbr9.py               # placements p50 + hard solo mean over 200 decks
    python bench/bench_nmbr9.py --decks 20    # a quick run
    python bench/bench_nmbr9.py --level easy --jobs 2
    nice -n 10 python bench/bench_nmbr9.py --jobs 1   # on a machine shared with other work

Prints figures, asserts nothing. Decks are the games of seeds 0..N-1 (`NMBR9.new_game`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.nmbr9 import choose_nmbr9_move
from bot.games.nmbr9 import NMBR9, NUMBERS, ROUNDS, Nmbr9State, legal_placements


def nineteen_tile_displays(count: int) -> list[Nmbr9State]:
    """Return states whose display holds 19 tiles placed by the medium bot (round 20 to play)."""
    states = []
    for seed in range(count):
        state = NMBR9.new_game(1, seed=1000 + seed, options={})
        for _ in range(ROUNDS - 1):
            state = state.apply(0, choose_nmbr9_move(state, 0, "medium", seed))
        states.append(state)
    return states


def bench_placements(samples: int) -> None:
    """Time listing every legal placement of one tile onto a 19-tile display."""
    states = nineteen_tile_displays(5)
    rng = random.Random(0)
    times = []
    counts = []
    for _ in range(samples):
        state = rng.choice(states)
        number = rng.choice(NUMBERS)
        display = state.display(0)
        start = time.perf_counter()
        fits = display.fits(number, all_rotations=True)
        times.append(time.perf_counter() - start)
        counts.append(len(fits))
    times.sort()
    p50 = times[len(times) // 2] * 1000
    p95 = times[int(len(times) * 0.95)] * 1000
    print(
        f"placements on a 19-tile display: p50 {p50:.2f} ms, p95 {p95:.2f} ms "
        f"(goal p50 <= 5 ms), {statistics.mean(counts):.0f} placements on average"
    )
    state = states[0]
    start = time.perf_counter()
    moves = legal_placements(state, 0)
    print(
        f"legal_placements (one per footprint) of the round-20 card: {len(moves)} in "
        f"{(time.perf_counter() - start) * 1000:.2f} ms"
    )


def solo(seed: int, level: str) -> tuple[int, float, list[float]]:
    """Play one solo game and return (score, seconds, seconds of each move)."""
    start = time.perf_counter()
    state = NMBR9.new_game(1, seed=seed, options={})
    moves = []
    for _ in range(ROUNDS):
        before = time.perf_counter()
        move = choose_nmbr9_move(state, 0, level, seed)
        moves.append(time.perf_counter() - before)
        state = state.apply(0, move)
    assert state.outcome is not None
    return state.outcome.scores[0], time.perf_counter() - start, moves


def bench_strength(level: str, decks: int, jobs: int) -> None:
    """Print the solo mean of `level` over `decks` decks and its time per game."""
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(solo, range(decks), [level] * decks))
    wall = time.perf_counter() - start
    scores = [score for score, _, _ in results]
    seconds = [sec for _, sec, _ in results]
    moves = sorted(sec for _, _, per_move in results for sec in per_move)
    spread = statistics.stdev(scores) if len(scores) > 1 else 0.0
    print(
        f"{level} solo over {decks} decks: mean {statistics.mean(scores):.1f} "
        f"(sd {spread:.1f}, min {min(scores)}, median {statistics.median(scores)}, "
        f"max {max(scores)}); {statistics.mean(seconds):.2f} s per game, "
        f"{statistics.mean(seconds) / ROUNDS * 1000:.0f} ms per move (p50 "
        f"{moves[len(moves) // 2] * 1000:.0f} ms, p95 {moves[int(len(moves) * 0.95)] * 1000:.0f} "
        f"ms, max {moves[-1] * 1000:.0f} ms); wall {wall:.0f} s"
    )


def main() -> None:
    """Run the benchmarks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--level", default="hard", choices=("easy", "medium", "hard"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--skip-strength", action="store_true")
    args = parser.parse_args()
    bench_placements(args.samples)
    if not args.skip_strength:
        bench_strength(args.level, args.decks, args.jobs)


if __name__ == "__main__":
    main()
