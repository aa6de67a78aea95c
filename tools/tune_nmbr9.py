"""Fit the value function of the NMBR 9 hard player by self-play (writes bot/ai/nmbr9_value.py).

    python tools/tune_nmbr9.py --fresh --rounds 12 --games 1000   # from scratch (~15 min)
    python tools/tune_nmbr9.py --rounds 8 --first-seed 500000      # go on from VALUE
    python tools/tune_nmbr9.py --evaluate 100                      # the hard player, decks 1000+

Approximate policy iteration over afterstates. Each round plays `--games` solo games (decks of
seeds 100000 on: never the bench decks 0-199 nor the screening decks 1000-1099) with the
greedy player: every placement among the `PRUNE` evaluation's best 12 is valued by its points
plus the current `display_value`, the best is played (with probability 0.1 one of the best four,
to explore). Every display left after a move is a sample: its `value_features` and the points
the rest of that game made (a Monte-Carlo return). Per count of unseen cards k, ridge
regression (numpy) of those points on the features gives ``VALUE[k]``; the samples of the last
three rounds are pooled. With ``--fresh`` the first round plays the `PRUNE` evaluation alone.
Needs numpy (offline only; the bot itself does not). Deterministic: same arguments, same weights.

How the committed VALUE was made: the feature set grew in three steps (35, 53, then the 55
features of `VALUE_FEATURES`); each step went on from the previous weights, the new features'
weights starting at zero: 4 rounds of 400 games and 8 of 1000 from the `PRUNE` player (35
features), 8 rounds of 1000 (53), 8 rounds of 1000 (55), on decks of seeds from 100000, 300000
and 500000. A fresh run with the final features (the first command above) gives weights of the
same strength within the training noise: the one-card expectimax scores 88.5 with them against
90.4 with VALUE on decks 1000-1099, and the greedy player moves by ±2 from round to round.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.nmbr9 import (
    HARD_SEARCH,
    PRUNE,
    VALUE_FEATURES,
    Search,
    best_fits,
    choose_hard,
    ranked_fits,
    value_features,
)
from bot.ai.nmbr9_value import VALUE, ValueWeights
from bot.games.nmbr9 import COPIES, NUMBERS, ROUNDS, Display

OUT = Path(__file__).resolve().parents[1] / "bot" / "ai" / "nmbr9_value.py"
Sample = tuple[int, list[float], int]  # (cards unseen, features of the display left, points)


def deck_of(seed: int) -> list[int]:
    """Return the card order of the game of `seed` (as `NMBR9.new_game` shuffles it)."""
    cards = list(NUMBERS * COPIES)
    random.Random(seed).shuffle(cards)
    return cards


def self_play(
    seed: int, value: ValueWeights | None, explore: float, rng: random.Random
) -> tuple[int, list[Sample]]:
    """Play one game with the greedy player (`PRUNE` alone if no `value`); return its samples."""
    display = Display()
    left = [COPIES] * len(NUMBERS)
    samples: list[Sample] = []
    score = 0
    for card in deck_of(seed):
        left[card] -= 1
        if value is None:
            unseen = Counter({n: c for n, c in enumerate(left) if c})
            ranked = [
                (v, fit, display.add(fit.mask, card, fit.level))
                for v, fit in best_fits(display, card, unseen, PRUNE, rng)[:4]
            ]
        else:
            ranked = ranked_fits(display, card, left, 12, value)
        pick = 0
        if explore and len(ranked) > 1 and rng.random() < explore:
            pick = rng.randrange(min(4, len(ranked)))
        _, fit, after = ranked[pick]
        points = card * fit.level
        score += points
        samples.append((sum(left), value_features(after, left), points))
        display = after
    return score, samples


def fit_value(games: list[list[Sample]], ridge: float) -> ValueWeights:
    """Return per k the ridge regression of the points still to come on the features."""
    xs: dict[int, list[list[float]]] = {}
    ys: dict[int, list[float]] = {}
    for samples in games:
        to_come = 0
        for k, features, points in reversed(samples):
            xs.setdefault(k, []).append(features)
            ys.setdefault(k, []).append(to_come)
            to_come += points
    weights = [tuple(0.0 for _ in VALUE_FEATURES)] * ROUNDS
    for k in range(1, ROUNDS):
        x = np.array(xs[k], float)
        y = np.array(ys[k], float)
        scale = x.std(axis=0)
        scale[scale == 0] = 1.0
        scale[0] = 1.0  # the constant is not penalised
        z = x / scale
        penalty = ridge * len(y) * np.eye(len(VALUE_FEATURES))
        penalty[0, 0] = 0.0
        w = np.linalg.solve(z.T @ z + penalty, z.T @ y) / scale
        weights[k] = tuple(float(v) for v in w)
    return tuple(weights)


def play(seed: int, value: ValueWeights, search: Search) -> int:
    """Return the score of the hard player on the deck of `seed`."""
    display = Display()
    left = [COPIES] * len(NUMBERS)
    score = 0
    for card in deck_of(seed):
        left[card] -= 1
        fit = choose_hard(display, card, left, seed, search, value)
        assert fit is not None
        score += card * fit.level
        display = display.add(fit.mask, card, fit.level)
    return score


def write_value(value: ValueWeights, note: str) -> None:
    """Write `value` as the Python module bot/ai/nmbr9_value.py."""
    rows = "\n".join(
        "    (  # k = "
        + str(k)
        + "\n"
        + textwrap.fill(
            ", ".join(f"{w:.6g}" for w in ws) + ",",
            width=99,
            initial_indent=" " * 8,
            subsequent_indent=" " * 8,
        )
        + "\n    ),"
        for k, ws in enumerate(value)
    )
    OUT.write_text(
        f'''"""The learned value of an NMBR 9 display for the hard player (`display_value`).

Generated by ``python tools/tune_nmbr9.py``; do not edit by hand.
{textwrap.fill("Fitted by: " + note + ".", width=99)}
``VALUE[k]`` holds, for a display with ``k`` cards still unseen, one weight per feature of
`bot.ai.nmbr9.VALUE_FEATURES`; the value is their dot product: an estimate of the points those
``k`` cards will still make. See the tool's docstring for how the weights were fitted.
"""

from __future__ import annotations

ValueWeights = tuple[tuple[float, ...], ...]

# fmt: off
VALUE: ValueWeights = (
{rows}
)
# fmt: on
'''
    )


def main() -> None:
    """Fit (or evaluate) the value function."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ridge", type=float, default=1e-3)
    parser.add_argument("--explore", type=float, default=0.1)
    parser.add_argument("--fresh", action="store_true", help="start from the PRUNE evaluation")
    parser.add_argument("--evaluate", type=int, default=0, help="only play this many decks")
    parser.add_argument("--first-seed", type=int, default=100_000, help="deck of the first game")
    args = parser.parse_args()
    if args.evaluate:
        start = time.perf_counter()
        scores = [play(1000 + s, VALUE, HARD_SEARCH) for s in range(args.evaluate)]
        per_move = (time.perf_counter() - start) / len(scores) / ROUNDS
        print(f"hard over decks 1000+: mean {statistics.mean(scores):.2f}, {per_move:.3f} s/move")
        return
    rng = random.Random(1)
    value: ValueWeights | None = None if args.fresh else VALUE
    pool: list[list[Sample]] = []
    seed = args.first_seed
    for n in range(args.rounds):
        start = time.perf_counter()
        played = []
        for _ in range(args.games):
            played.append(self_play(seed, value, args.explore, rng))
            seed += 1
        pool = (pool + [samples for _, samples in played])[-3 * args.games :]
        value = fit_value(pool, args.ridge)
        greedy = statistics.mean(self_play(1000 + s, value, 0.0, rng)[0] for s in range(100))
        print(
            f"round {n}: self-play mean {statistics.mean(s for s, _ in played):.1f}, "
            f"greedy player on decks 1000-1099 {greedy:.1f} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    assert value is not None
    fresh = "--fresh " if args.fresh else ""
    write_value(value, f"tools/tune_nmbr9.py {fresh}--rounds {args.rounds} --games {args.games}")


if __name__ == "__main__":
    main()
