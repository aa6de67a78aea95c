"""Numfeud "any legal play?" search for a 20-tile inventory on a busy board (prints figures).

Positions: bot games (hard vs medium) are played from 30 seeds and the busiest board of each is
kept (40+ tiles on the board when the game gets there); seat 0 is then given 20 tiles drawn at
random from the tiles not on the board. For each position it times `has_legal_play` (the search
a pass or swap at 20 tiles runs: single-line lays and joker frees, stop at the first; then plays
that move one spare board tile, then two), `may_lay` (the proof of "no play at all" the rules
run at the start of a turn with 20 tiles, which alone ends the game) and the exhaustive
enumeration of every single-line play (what the computer players pay each turn).

Run: python bench/bench_numfeud.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import replace

from figures import figure

from bot.ai.numfeud import choose_numfeud_move
from bot.games.numfeud import NUMFEUD, TILE_COUNTS, NumfeudState, may_lay, physical

SEEDS = 30
REPEAT = 5


def busiest_board(seed: int) -> NumfeudState:
    """Play a bot game and return its position with the most tiles on the board."""
    state = NUMFEUD.new_game(2, seed=seed, options={})
    best = state
    levels = ("hard", "medium")
    while state.outcome is None and state.turn < 300:
        seat = state.to_move
        state = state.apply(seat, choose_numfeud_move(state, seat, levels[seat], state.turn))
        if state.outcome is None and sum(map(bool, state.board)) > sum(map(bool, best.board)):
            best = state
    return best


def with_full_inventory(state: NumfeudState, seed: int) -> NumfeudState:
    """Give seat 0 twenty tiles from those not on the board (the rest go to seat 1 and the bag)."""
    rest = Counter(TILE_COUNTS)
    rest.subtract(physical(c) for c in state.board if c)
    tiles = list((+rest).elements())
    random.Random(seed).shuffle(tiles)
    return replace(state, racks=(tuple(tiles[:20]), tuple(tiles[20:36])), bag=tuple(tiles[36:]))


def timed(fn: object, state: NumfeudState) -> float:
    """Return the best of REPEAT runs in milliseconds."""
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        fn(state)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    """Build the positions, time both searches, print the figures."""
    positions = [with_full_inventory(busiest_board(seed), seed) for seed in range(SEEDS)]
    tiles = [sum(map(bool, p.board)) for p in positions]
    any_ms = [timed(lambda s: s.has_legal_play(0), p) for p in positions]
    proof_ms = [timed(lambda s: may_lay(s.board, s.rack(0)), p) for p in positions]
    proved = sum(1 for p in positions if not may_lay(p.board, p.rack(0)))
    all_ms = [timed(lambda s: sum(1 for _ in s.plays(0)), p) for p in positions]
    plays = [sum(1 for _ in p.plays(0)) for p in positions]
    none = sum(1 for p in positions if not p.has_legal_play(0))
    moved = sum(1 for p, n in zip(positions, plays, strict=True) if n == 0) - none
    print(
        f"{SEEDS} positions; board tiles min/median/max {min(tiles)}/"
        f"{statistics.median(tiles):.0f}/{max(tiles)}; 20-tile inventory for seat 0"
    )
    print(
        f"single-line plays per position median {statistics.median(plays):.0f}, max {max(plays)};"
        f" only moved tiles fit: {moved}; no play found: {none}, proved none (the game ends at"
        f" once): {proved}"
    )
    q = statistics.quantiles
    print(
        f"any legal play?  p50 {statistics.median(any_ms):.2f} ms  "
        f"p95 {q(any_ms, n=20)[-1]:.2f} ms  max {max(any_ms):.2f} ms  (goal p50 <= 50 ms)"
    )
    print(
        f"no play proof    p50 {statistics.median(proof_ms):.2f} ms  "
        f"p95 {q(proof_ms, n=20)[-1]:.2f} ms  max {max(proof_ms):.2f} ms"
    )
    print(
        f"every play       p50 {statistics.median(all_ms):.2f} ms  "
        f"p95 {q(all_ms, n=20)[-1]:.2f} ms  max {max(all_ms):.2f} ms"
    )
    figure(
        "numfeud any legal play?, 20 tiles, busy board",
        statistics.median(any_ms),
        "ms",
        goal="<= 50",
        stat="p50",
    )
    figure("numfeud every single-line play, 20 tiles", statistics.median(all_ms), "ms", stat="p50")


if __name__ == "__main__":
    main()
