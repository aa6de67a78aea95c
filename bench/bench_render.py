"""Benchmark the board renderer on a Webfeud board near the end of a simulated game.

Run from the repository root::

    python bench/bench_render.py [--runs 50] [--seed 1]

Prints figures, asserts nothing. Goals: board render p50 <= 40 ms, board PNG <= 250 KB. The
game is played by two "hard" computer players (`bot.ai.choose_move`; the move generator's
top-scoring move if that is missing); the board is taken at the last position before the end,
when it is fullest while the game still runs. The first render (fonts loaded, the empty board
drawn, tiles cached) is printed apart; p50 and p95 are wall times over the warm renders that
follow, and CPU p50 is the process time of the same renders (steadier on a busy machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from figures import figure  # noqa: E402

from bot.games.webfeud import WEBFEUD  # noqa: E402
from bot.games.wordgame import Pass, Swap, WordState  # noqa: E402
from renderers import render_board, render_game_over, render_rack  # noqa: E402

NAMES = ("Alice", "Bob")


def player(state: WordState, seat: int) -> object:
    """Return the "hard" AI's move, or else the move generator's top-scoring one (or a pass)."""
    try:
        from bot.ai import choose_move
    except ImportError:
        from bot.ai.wordgen import best_candidate, generate_moves

        best = best_candidate(generate_moves(state, seat))
        if best is not None:
            return best.move
        if len(state.bag) >= state.variant.swap_min_bag:
            return Swap(state.racks[seat])
        return Pass()
    return choose_move(state, seat, "hard", state.turn)


def simulate(seed: int) -> list[WordState]:
    """Return every state of one game between two "hard" computer players."""
    state = WEBFEUD.new_game(2, seed=seed, options={})
    states = [state]
    while state.outcome is None and len(states) < 80:
        state = state.apply(state.to_move, player(state, state.to_move))
        states.append(state)
    return states


def timed(render: Callable[[], bytes], runs: int) -> tuple[float, list[float], list[float], bytes]:
    """Return (first render ms, warm wall times ms, warm CPU times ms, PNG bytes)."""
    start = time.perf_counter()
    png = render()
    first = (time.perf_counter() - start) * 1000
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        render()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return first, wall, cpu, png


def report(label: str, first: float, wall: list[float], cpu: list[float], png: bytes) -> None:
    """Print one line of figures (CPU time shows the cost when the machine is busy)."""
    wall = sorted(wall)
    figure(f"render {label}", statistics.median(wall), "ms", stat="p50")
    figure(f"PNG size {label}", len(png) / 1024, "KB")
    p95 = wall[min(len(wall) - 1, round(0.95 * (len(wall) - 1)))]
    print(
        f"{label:<18} p50 {statistics.median(wall):5.1f} ms  p95 {p95:5.1f} ms  "
        f"CPU p50 {statistics.median(cpu):5.1f} ms  first {first:6.1f} ms  "
        f"PNG {len(png) / 1024:5.1f} KB"
    )


def main() -> None:
    """Simulate a game and time the renderers on its late positions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    states = simulate(args.seed)
    late = next(s for s in reversed(states) if s.outcome is None and s.history)
    tiles = sum(ch != "." for ch in late.board)
    print(f"simulated game: {len(states) - 1} moves; late board: turn {late.turn}, {tiles} tiles")
    report("board (late game)", *timed(lambda: render_board(late, names=NAMES), args.runs))
    report("rack", *timed(lambda: render_rack(late, late.to_move, name="Alice"), args.runs))
    if states[-1].outcome is not None:
        end = states[-1]
        report("game-over card", *timed(lambda: render_game_over(end, names=NAMES), args.runs))


if __name__ == "__main__":
    main()
