"""The `feudbot` command line: run | console | simulate | discord | telegram | migrate."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

Command = Callable[[argparse.Namespace], int]


def _simulate(args: argparse.Namespace) -> int:
    from bot.simulate import run_simulation

    return run_simulation(
        game=args.game,
        games=args.games,
        seed=args.seed,
        players=args.players.split(","),
        out=sys.stdout,
    )


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the `feudbot` command."""
    parser = argparse.ArgumentParser(prog="feudbot", description=__doc__)
    sub = parser.add_subparsers(dest="command")

    sim = sub.add_parser("simulate", help="play complete games with the pure core, print JSON")
    sim.add_argument("--game", default="webfeud", help="game key, e.g. webfeud")
    sim.add_argument("--games", type=int, default=1, help="how many games to play")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game")
    sim.add_argument(
        "--players", default="hard,easy", help="bot levels per seat, e.g. hard,easy"
    )
    sim.set_defaults(func=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `feudbot` command line and return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Command | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    return func(args)


if __name__ == "__main__":
    sys.exit(main())
