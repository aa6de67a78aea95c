"""Benchmark the word-game move generator and the engine's `evaluate` on mid-game Webfeud boards.

Run from the repository root::

    python bench/bench_movegen.py [--positions 50] [--repeat 3]

Prints figures, asserts nothing. The positions come from seeded self-play of the ``hard`` player
for 10 to 20 moves; the mover's rack is then rigged (``dataclasses.replace``) to seven tiles with
exactly one blank: its letters, topped up from the bag, the last one made a blank. For each
position the time of `generate_moves` plus picking the best candidate is the fastest of
``--repeat`` runs (the machine may be shared: CPU time is printed beside wall time, as it is
less disturbed by other processes); p50 and p90 are over the positions. Goals: p50 of
the generator <= 50 ms, p50 of one `evaluate` <= 0.3 ms. For context the same boards are also
timed with no blank and with two blanks.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from figures import figure  # noqa: E402

from bot.ai import choose_move  # noqa: E402
from bot.ai.wordgen import best_candidate, generate_moves  # noqa: E402
from bot.games.webfeud import WEBFEUD  # noqa: E402
from bot.games.wordgame import Place, WordState  # noqa: E402

GOAL_GENERATE_MS = 50.0
GOAL_EVALUATE_MS = 0.3


def mid_game(seed: int) -> WordState:
    """Return a Webfeud position after 10-20 moves of seeded hard self-play."""
    rng = random.Random(seed)
    state = WEBFEUD.new_game(2, seed=seed, options={})
    for _ in range(rng.randint(10, 20)):
        if state.outcome is not None:
            break
        state = state.apply(state.to_move, choose_move(state, state.to_move, "hard", seed))
    return state


def with_blanks(state: WordState, blanks: int) -> WordState:
    """Return `state` with the mover's rack rigged to 7 tiles, exactly `blanks` of them blanks."""
    seat = state.to_move
    letters = (state.racks[seat] + state.bag + "EAIONRT" * 2).replace("?", "")
    rack = letters[: 7 - blanks] + "?" * blanks
    racks = tuple(rack if s == seat else r for s, r in enumerate(state.racks))
    return replace(state, racks=racks)


def percentile(values: list[float], q: float) -> float:
    """Return the q-quantile of `values` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_generator(
    states: list[WordState], repeat: int
) -> tuple[list[float], list[float], list[int]]:
    """Return per position the best wall and CPU times (ms) of generate + best, and the count."""
    walls, cpus, counts = [], [], []
    for state in states:
        wall = cpu = float("inf")
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            candidates = generate_moves(state, state.to_move)
            best_candidate(candidates)
            cpu = min(cpu, time.process_time() - start_cpu)
            wall = min(wall, time.perf_counter() - start)
        walls.append(wall * 1000)
        cpus.append(cpu * 1000)
        counts.append(len(candidates))
    return walls, cpus, counts


def time_evaluate(states: list[WordState], calls: int = 200) -> list[float]:
    """Return per position the mean time (ms) of one `evaluate` of its best placement."""
    out = []
    for state in states:
        seat = state.to_move
        best = best_candidate(generate_moves(state, seat))
        if best is None:
            continue
        move: Place = best.move
        start = time.perf_counter()
        for _ in range(calls):
            state.evaluate(move, seat)
        out.append((time.perf_counter() - start) / calls * 1000)
    return out


def main() -> None:
    """Build the positions, time the generator and `evaluate`, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    start = time.perf_counter()
    boards = [mid_game(seed) for seed in range(args.positions)]
    print(
        f"{len(boards)} mid-game positions from hard self-play in "
        f"{time.perf_counter() - start:.1f} s"
    )
    generate_moves(boards[0], boards[0].to_move)  # load the lexicon and its tables

    for blanks in (1, 0, 2):
        states = [with_blanks(b, blanks) for b in boards]
        walls, cpus, counts = time_generator(states, args.repeat if blanks < 2 else 1)
        goal = f"   (goal p50 <= {GOAL_GENERATE_MS:.0f} ms)" if blanks == 1 else ""
        if blanks == 1:
            figure(
                "word AI best move (7 tiles, 1 blank)",
                percentile(walls, 0.5),
                "ms",
                goal=f"<= {GOAL_GENERATE_MS:.0f}",
                stat="p50",
            )
        print(
            f"generate_moves + best, 7 tiles, {blanks} blank{'s' if blanks != 1 else ''}: "
            f"p50 {percentile(walls, 0.5):6.1f} ms   p90 {percentile(walls, 0.9):6.1f} ms   "
            f"(CPU p50 {percentile(cpus, 0.5):5.1f} ms, p90 {percentile(cpus, 0.9):5.1f} ms)   "
            f"candidates p50 {int(statistics.median(counts))}{goal}"
        )

    evals = time_evaluate([with_blanks(b, 1) for b in boards])
    figure(
        "word move validate + score",
        percentile(evals, 0.5),
        "ms",
        goal=f"<= {GOAL_EVALUATE_MS}",
        stat="p50",
    )
    print(
        f"state.evaluate of one placement: p50 {percentile(evals, 0.5):.3f} ms   "
        f"p90 {percentile(evals, 0.9):.3f} ms   (goal p50 <= {GOAL_EVALUATE_MS} ms)"
    )


if __name__ == "__main__":
    main()
