"""Benchmark the renderers: every game's board and rack near the end of a simulated game.

Run from the repository root::

    python bench/bench_render.py [--runs 50] [--seed 1]

Prints figures, asserts nothing. Goals (Webfeud): board render p50 <= 40 ms, board PNG <= 250 KB.
Each game is played by computer players (`bot.ai.choose_move`: "hard" for Webfeud, "medium"
elsewhere, which is quicker and reaches as full a board); the images are drawn at the last
position before the end, when the board is fullest while the game still runs, with the most
players each game allows (NMBR 9: four displays side by side). The first render (fonts loaded,
tiles cached) is printed apart; p50 and p95 are wall times over the warm renders that follow,
and CPU p50 is the process time of the same renders (steadier on a busy machine).
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

from bot.ai import choose_move  # noqa: E402
from bot.core.game import GameState  # noqa: E402
from bot.games import GAMES  # noqa: E402
from renderers import board_png, game_over_png, rack_png  # noqa: E402

NAMES = ("Alice", "Bob", "Carol", "Dave")
WEBFEUD_BOARD_GOALS = ("<= 40", "<= 250")  # render p50 ms, PNG KB
MIN_MOVES = 20


def simulate(key: str, seed: int) -> list[GameState]:
    """Return every state of one game of `key` between computer players."""
    gdef = GAMES[key]
    level = "hard" if key == "webfeud" else "medium"
    state = gdef.new_game(gdef.max_players, seed=seed, options={})
    states = [state]
    while state.outcome is None and len(states) < 400:
        seat = state.waiting_for()[0]
        state = state.apply(seat, choose_move(state, seat, level, seed * 1009 + state.turn))
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


def report(
    label: str,
    measured: tuple[float, list[float], list[float], bytes],
    goals: tuple[str, str] = ("", ""),
) -> None:
    """Print one line of figures and record the headline ones (render p50, PNG size)."""
    first, wall, cpu, png = measured
    wall = sorted(wall)
    figure(f"render {label}", statistics.median(wall), "ms", stat="p50", goal=goals[0])
    figure(f"PNG size {label}", len(png) / 1024, "KB", goal=goals[1])
    p95 = wall[min(len(wall) - 1, round(0.95 * (len(wall) - 1)))]
    print(
        f"{label:<28} p50 {statistics.median(wall):5.1f} ms  p95 {p95:5.1f} ms  "
        f"CPU p50 {statistics.median(cpu):5.1f} ms  first {first:6.1f} ms  "
        f"PNG {len(png) / 1024:5.1f} KB"
    )


def main() -> None:
    """Simulate a game of each title and time its renderers on the late position."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    for key, gdef in GAMES.items():
        # A game that ends early (a Numfeud inventory full after a few passes) has a bare board:
        # take the first of the following seeds whose game lasts at least MIN_MOVES moves.
        seed = args.seed
        states = simulate(key, seed)
        while len(states) <= MIN_MOVES and seed < args.seed + 10:
            seed += 1
            states = simulate(key, seed)
        late = next(s for s in reversed(states) if s.outcome is None and s.history)
        names = NAMES[: gdef.max_players]
        seat = late.waiting_for()[0]
        print(f"{gdef.title} (seed {seed}): {len(states) - 1} moves; late turn {late.turn}")
        goals = WEBFEUD_BOARD_GOALS if key == "webfeud" else ("", "")

        def board(state: GameState = late, players: tuple[str, ...] = names) -> bytes:
            return board_png(state, names=players)

        def rack(state: GameState = late, seat: int = seat, name: str = names[seat]) -> bytes:
            return rack_png(state, seat, name=name)

        report(f"{key} board (late game)", timed(board, args.runs), goals)
        report(f"{key} rack", timed(rack, args.runs))
        end = states[-1]
        if key == "webfeud" and end.outcome is not None:

            def card(state: GameState = end, players: tuple[str, ...] = names) -> bytes:
                return game_over_png(state, names=players)

            report("game-over card", timed(card, args.runs))


if __name__ == "__main__":
    main()
