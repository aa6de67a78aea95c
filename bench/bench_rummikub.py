"""Rummikub bot move time vs calling rummikub-solver directly (prints figures, asserts nothing).

30 positions: a table of at least 30 tiles in random valid melds (some with a joker) and a
14-tile rack from the remaining tiles, the player having made the initial meld. For each, time
`choose_rummikub_move(level="hard")` (solve + translate to notation + legality check by applying)
and `RuleSet.solve` on the same tiles, and compare the tiles placed.

Run: python bench/bench_rummikub.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from figures import figure

from bot.ai.rummikub import _ruleset, _to_lib, choose_rummikub_move
from bot.games.numtiles import COLOURS, check_meld
from bot.games.rummikub import RUMMIKUB, TILE_COUNTS, Draw, RummikubState

POSITIONS = 30


def random_table(rng: random.Random, stock: Counter[str]) -> list[tuple[str, ...]]:
    """Draw random valid melds out of `stock` until at least 30 tiles lie on the table."""
    table: list[tuple[str, ...]] = []
    while sum(map(len, table)) < 30:
        if rng.random() < 0.5:
            c, length = rng.choice(COLOURS), rng.randint(3, 6)
            start = rng.randint(1, 14 - length)
            meld = [f"{c}{n}" for n in range(start, start + length)]
        else:
            n = rng.randint(1, 13)
            meld = [f"{c}{n}" for c in rng.sample(COLOURS, rng.randint(3, 4))]
        if stock["J"] and rng.random() < 0.15:
            meld[rng.randrange(len(meld))] = "J"
        if not check_meld(meld).valid or Counter(meld) - stock:
            continue
        stock.subtract(meld)
        table.append(tuple(meld))
    return table


def position(seed: int) -> RummikubState:
    """Return one benchmark position for seat 0."""
    rng = random.Random(seed)
    stock = Counter(TILE_COUNTS)
    table = random_table(rng, stock)
    rest = list((+stock).elements())
    rng.shuffle(rest)
    return RUMMIKUB.rigged([rest[:14], rest[14:28]], table, opened=[True, True])


def solver_direct(state: RummikubState) -> int:
    """Call rummikub-solver itself; return the tiles it places."""
    ruleset = _ruleset()
    game = ruleset.new_game()
    game.add_rack(*(_to_lib(t) for t in state.racks[0]))
    game.add_table(*(_to_lib(t) for meld in state.table for t in meld))
    game.initial = False
    solution = ruleset.solve(game)
    return len(solution.tiles) if solution else 0


def main() -> None:
    """Time both on the same positions and print the figures."""
    start = time.perf_counter()
    _ruleset()
    setup = time.perf_counter() - start
    positions = [position(seed) for seed in range(POSITIONS)]
    bot_times, lib_times, rows = [], [], []
    for state in positions:
        t0 = time.perf_counter()
        move = choose_rummikub_move(state, 0, "hard", seed=1)
        t1 = time.perf_counter()
        optimum = solver_direct(state)
        t2 = time.perf_counter()
        bot_times.append(t1 - t0)
        lib_times.append(t2 - t1)
        placed = 0 if isinstance(move, Draw) else 14 - len(state.apply(0, move).racks[0])
        rows.append((sum(map(len, state.table)), placed, optimum))
    table_sizes = [r[0] for r in rows]
    equal = sum(1 for _, placed, optimum in rows if placed == optimum)
    more = sum(1 for _, placed, optimum in rows if placed > optimum)
    print(f"positions: {POSITIONS}, table tiles {min(table_sizes)}–{max(table_sizes)}, rack 14")
    print(f"solver set-up (once per process): {setup * 1000:.0f} ms")
    print(
        f"bot (hard) move time   p50 {statistics.median(bot_times) * 1000:7.1f} ms   "
        f"max {max(bot_times) * 1000:7.1f} ms"
    )
    print(
        f"rummikub-solver direct p50 {statistics.median(lib_times) * 1000:7.1f} ms   "
        f"max {max(lib_times) * 1000:7.1f} ms"
    )
    print(
        f"tiles placed: equal to the solver's optimum on {equal}/{POSITIONS}, "
        f"more on {more} (leftover tiles added to joker melds), "
        f"total {sum(r[1] for r in rows)} vs {sum(r[2] for r in rows)}"
    )
    figure(
        "Rummikub hard bot move (30+ table tiles, 14 rack)",
        statistics.median(bot_times) * 1000,
        "ms",
        stat="p50",
    )
    figure(
        "rummikub-solver direct, same positions",
        statistics.median(lib_times) * 1000,
        "ms",
        stat="p50",
    )
    figure(
        "Rummikub bot = solver optimum (positions)", equal, f"of {POSITIONS}", goal=f"= {POSITIONS}"
    )


if __name__ == "__main__":
    main()
