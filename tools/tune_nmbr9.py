"""Fit the value function of the NMBR 9 hard player by self-play (writes bot/ai/nmbr9_value.py).

    python tools/tune_nmbr9.py --fresh --rounds 12 --games 1000   # from scratch (~15 min)
    python tools/tune_nmbr9.py --rounds 8 --first-seed 500000      # go on from VALUE
    python tools/tune_nmbr9.py --evaluate 100                      # the hard player, decks 1000+
    python tools/tune_nmbr9.py --evaluate 30                       # a pre-screen, decks 1000-1029
    python tools/tune_nmbr9.py --evaluate 30 --oracle 200          # knowing the order (a bound)
    python tools/tune_nmbr9.py --model mlp --rounds 1 --games 4000 --first-seed 700000 \
        --rng-seed 700000 --hidden 16 --epochs 30 --decay 1e-3    # a network, compared (~5 min)

Approximate policy iteration over afterstates. Each round plays `--games` solo games (decks of
seeds 100000 on: never the bench decks 0-199 nor the screening decks 1000-1099) with the
greedy player: every placement among the `PRUNE` evaluation's best 12 is valued by its points
plus the current `display_value`, the best is played (with probability 0.1 one of the best four,
to explore). Every display left after a move is a sample: its `value_features` and the points
the rest of that game made (a Monte-Carlo return). Per count of unseen cards k, ridge
regression (numpy) of those points on the features gives ``VALUE[k]``; the samples of the last
three rounds are pooled. With ``--fresh`` the first round plays the `PRUNE` evaluation alone.
Needs numpy (offline only; the bot itself does not). Deterministic: same arguments, same weights.

An experiment that was not kept (see the variants table in docs/rules/nmbr9.md): with
``--model mlp`` each round also fits a small network to the same samples (`fit_mlp`: the linear
term per k, starting as the ridge regression, plus one hidden layer over the standardised
features and k one-hot), holding every tenth game out, prints the mean squared error of the
network and of the ridge regression per k on those games, and saves the network with
``--mlp-out`` (numpy .npz) instead of writing VALUE; the games are still played with the
linear value. ``--save-samples`` writes the pooled samples (k, features, points to come, game)
for experiments. On 4000 and 12000 games the network's held-out error was within 0.25 of the
ridge's (≈ 105 and ≈ 102 squared points: the returns are mostly the luck of the draw) and the
hard player searching over it did not score more.

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


Mlp = dict[str, "np.ndarray"]  # the arrays of `fit_mlp` (see `mlp_predict` for their meaning)


def fit_mlp(
    k: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    hidden: int,
    epochs: int,
    seed: int,
    decay: float = 1e-4,
    act: str = "tanh",
    lr: float = 1e-3,
) -> Mlp:
    """Return a one-hidden-layer network fitted to the points to come `y` (numpy, Adam).

    Inputs: the features `x` (the constant excluded), standardised, and the count `k` of unseen
    cards one-hot (a hidden and an output bias per k); the output adds a linear term of the
    standardised features with its own weights per k, which start as the ridge regression per k
    (so the hidden layer learns what the linear value misses). Mean squared error, L2 `decay`
    on the weights, minibatches of 256, Adam with a step size halved every quarter of the run.
    """
    gen = np.random.default_rng(seed)
    feats = x[:, 1:]
    mean = feats.mean(axis=0)
    scale = feats.std(axis=0)
    scale[scale == 0] = 1.0
    z = (feats - mean) / scale
    y_scale = float(y.std()) or 1.0
    t = y / y_scale
    n_in = z.shape[1]
    params = {
        "w1": gen.normal(0.0, 1.0 / np.sqrt(n_in), (n_in, hidden)),
        "b1": np.zeros((ROUNDS, hidden)),
        "w2": gen.normal(0.0, 1.0 / np.sqrt(hidden), hidden),
        "b2": np.zeros(ROUNDS),
        "skip": np.zeros((ROUNDS, n_in)),
    }
    for kv in range(1, ROUNDS):  # the linear term starts as the ridge regression per k
        rows = k == kv
        if rows.sum() > n_in:
            za = np.hstack([np.ones((rows.sum(), 1)), z[rows]])
            penalty = 1e-3 * rows.sum() * np.eye(n_in + 1)
            penalty[0, 0] = 0.0
            w = np.linalg.solve(za.T @ za + penalty, za.T @ t[rows])
            params["b2"][kv], params["skip"][kv] = w[0], w[1:]
    moment = {name: np.zeros_like(p) for name, p in params.items()}
    second = {name: np.zeros_like(p) for name, p in params.items()}
    step = 0
    batch = 256
    for epoch in range(epochs):
        rate = lr * (0.5 ** (epoch / max(1, epochs / 4)))
        order = gen.permutation(len(t))
        for start in range(0, len(t), batch):
            idx = order[start : start + batch]
            zb, kb, tb = z[idx], k[idx], t[idx]
            pre = zb @ params["w1"] + params["b1"][kb]
            h = np.tanh(pre) if act == "tanh" else np.maximum(pre, 0.0)
            out = (
                h @ params["w2"] + params["b2"][kb] + np.einsum("ij,ij->i", zb, params["skip"][kb])
            )
            err = (out - tb) * (2.0 / len(idx))
            dh = np.outer(err, params["w2"])
            dpre = dh * (1.0 - h * h) if act == "tanh" else dh * (pre > 0)
            grads = {
                "w1": zb.T @ dpre + decay * params["w1"],
                "b1": np.zeros_like(params["b1"]),
                "w2": h.T @ err + decay * params["w2"],
                "b2": np.bincount(kb, weights=err, minlength=ROUNDS),
                "skip": decay * params["skip"],
            }
            np.add.at(grads["b1"], kb, dpre)
            np.add.at(grads["skip"], kb, zb * err[:, None])
            step += 1
            for name, g in grads.items():
                moment[name] = 0.9 * moment[name] + 0.1 * g
                second[name] = 0.999 * second[name] + 0.001 * g * g
                m_hat = moment[name] / (1 - 0.9**step)
                v_hat = second[name] / (1 - 0.999**step)
                params[name] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)
    return {
        "mean": mean,
        "scale": scale,
        "w1": params["w1"],  # the hidden layer sees standardised features
        "b1": params["b1"],
        "w2": params["w2"] * y_scale,  # output in points
        "b2": params["b2"] * y_scale,
        "skip": params["skip"] * y_scale,
        "act": np.array(0 if act == "tanh" else 1),
    }


def mlp_predict(mlp: Mlp, k: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Return the network's points to come for samples (k, features)."""
    z = (x[:, 1:] - mlp["mean"]) / mlp["scale"]
    pre = z @ mlp["w1"] + mlp["b1"][k]
    h = np.tanh(pre) if int(mlp["act"]) == 0 else np.maximum(pre, 0.0)
    out: np.ndarray = h @ mlp["w2"] + mlp["b2"][k] + np.einsum("ij,ij->i", z, mlp["skip"][k])
    return out


def samples_array(games: list[list[Sample]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (k, features, points to come) of every sample with cards unseen, as arrays."""
    ks: list[int] = []
    xs: list[list[float]] = []
    ys: list[float] = []
    for samples in games:
        to_come = 0
        for k, features, points in reversed(samples):
            if k:
                ks.append(k)
                xs.append(features)
                ys.append(to_come)
            to_come += points
    return np.array(ks), np.array(xs, float), np.array(ys, float)


def play(seed: int, value: ValueWeights, search: Search) -> tuple[int, list[float]]:
    """Return the score of the hard player on the deck of `seed` and the seconds of each move."""
    display = Display()
    left = [COPIES] * len(NUMBERS)
    score = 0
    times = []
    for card in deck_of(seed):
        left[card] -= 1
        start = time.perf_counter()
        fit = choose_hard(display, card, left, seed, search, value)
        times.append(time.perf_counter() - start)
        assert fit is not None
        score += card * fit.level
        display = display.add(fit.mask, card, fit.level)
    return score, times


def evaluate(decks: int, first: int = 1000) -> None:
    """Play the hard player on `decks` decks from seed `first`; print each, then the figures.

    One line per deck (seed, score, seconds), so that two variants can be compared deck by deck.
    """
    scores = []
    moves: list[float] = []
    for seed in range(first, first + decks):
        score, times = play(seed, VALUE, HARD_SEARCH)
        scores.append(score)
        moves += times
        print(f"{seed} {score} {sum(times):.1f}", flush=True)
    moves.sort()
    print(
        f"hard over decks {first}-{first + decks - 1}: mean {statistics.mean(scores):.2f}; "
        f"{statistics.mean(moves) * 1000:.0f} ms/move (p50 {moves[len(moves) // 2] * 1000:.0f} ms)"
    )


def oracle(decks: int, beam: int, first: int = 1000) -> None:
    """Print what a player who knew the whole card order would score: a bound to aim under.

    A beam search over each deck in its real order: every display of the beam places the next
    card in its 6 best ways (points + learned value), and the `beam` best by points so far +
    learned value go on. No player may know the order; the figure shows how much of the gap to
    a target is the luck of the draw.
    """
    scores = []
    for seed in range(first, first + decks):
        left = [COPIES] * len(NUMBERS)
        frontier: list[tuple[float, int, Display]] = [(0.0, 0, Display())]
        for card in deck_of(seed):
            left[card] -= 1
            grown = [
                (points + v, points + card * fit.level, after)
                for _, points, display in frontier
                for v, fit, after in ranked_fits(display, card, left, 12)[:6]
            ]
            grown.sort(key=lambda t: t[0], reverse=True)
            frontier = grown[:beam] or frontier
        scores.append(max(points for _, points, _ in frontier))
        print(f"{seed} {scores[-1]}", flush=True)
    print(
        f"knowing the order, beam {beam}, decks {first}-{first + decks - 1}: "
        f"mean {statistics.mean(scores):.2f}"
    )


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
    parser.add_argument("--oracle", type=int, default=0, help="beam width knowing the order")
    parser.add_argument("--first-seed", type=int, default=100_000, help="deck of the first game")
    parser.add_argument("--rng-seed", type=int, default=1, help="seed of the exploration")
    parser.add_argument("--save-samples", help="write the pooled samples there (.npz)")
    parser.add_argument("--model", choices=("linear", "mlp"), default="linear")
    parser.add_argument("--lr", type=float, default=1e-3, help="mlp: first Adam step size")
    parser.add_argument("--hidden", type=int, default=32, help="mlp: hidden units")
    parser.add_argument("--epochs", type=int, default=30, help="mlp: passes over the samples")
    parser.add_argument("--decay", type=float, default=1e-4, help="mlp: L2 on the weights")
    parser.add_argument("--act", choices=("tanh", "relu"), default="tanh", help="mlp: hidden")
    parser.add_argument("--mlp-out", help="mlp: write the network there (.npz)")
    args = parser.parse_args()
    if args.evaluate and args.oracle:
        oracle(args.evaluate, args.oracle)
        return
    if args.evaluate:
        evaluate(args.evaluate)
        return
    rng = random.Random(args.rng_seed)
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
        if args.save_samples:
            k, x, y = samples_array(pool)
            games = np.repeat(np.arange(len(pool)), [sum(1 for s in g if s[0]) for g in pool])
            np.savez(args.save_samples, k=k, x=x, y=y, g=games)
        if args.model == "mlp":  # every tenth game is held out to compare with the ridge
            train = [samples for i, samples in enumerate(pool) if i % 10]
            held = [samples for i, samples in enumerate(pool) if not i % 10]
            k, x, y = samples_array(train)
            mlp = fit_mlp(k, x, y, args.hidden, args.epochs, n, args.decay, args.act, args.lr)
            hk, hx, hy = samples_array(held)
            ridge = np.array(fit_value(train, args.ridge))
            linear_loss = np.mean((np.einsum("ij,ij->i", hx, ridge[hk]) - hy) ** 2)
            mlp_loss = np.mean((mlp_predict(mlp, hk, hx) - hy) ** 2)
            print(f"held-out mean squared error: ridge per k {linear_loss:.2f}, mlp {mlp_loss:.2f}")
            if args.mlp_out:
                np.savez(args.mlp_out, **mlp)
        value = fit_value(pool, args.ridge)
        greedy = statistics.mean(self_play(1000 + s, value, 0.0, rng)[0] for s in range(100))
        print(
            f"round {n}: self-play mean {statistics.mean(s for s, _ in played):.1f}, "
            f"greedy player on decks 1000-1099 {greedy:.1f} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    assert value is not None
    if args.model == "linear":
        fresh = "--fresh " if args.fresh else ""
        note = f"tools/tune_nmbr9.py {fresh}--rounds {args.rounds} --games {args.games}"
        if args.rng_seed != 1:
            note += f" --rng-seed {args.rng_seed}"
        write_value(value, note)


if __name__ == "__main__":
    main()
