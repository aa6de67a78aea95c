"""Service throughput and console start-up time. Prints figures, asserts nothing.

    python bench/bench_service.py [--games 40] [--moves 24]

1. Moves applied and persisted per second through `Service.handle` (SQLite WAL, no rendering):
   many Webfeud games, each a scripted mix of play, swap and pass moves worked out beforehand
   with the pure core (untimed), then replayed through the service concurrently across games.
2. `feudbot console` start-to-prompt: spawn `python -m bot console` and time until the prompt.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from figures import figure  # noqa: E402

from bot.ai.wordgen import best_candidate, generate_moves  # noqa: E402
from bot.games import GAMES  # noqa: E402
from bot.service import CONSOLE, ChatRef, Service, UserRef  # noqa: E402
from storage import Database  # noqa: E402

NAMES = ("alice", "bob")


def script(seed: int, moves: int) -> list[tuple[int, str]]:
    """Return (seat, command) pairs: plays when a word is found, else swaps, some passes."""
    gdef = GAMES["webfeud"]
    state = gdef.new_game(2, seed=seed, options={})
    out: list[tuple[int, str]] = []
    for i in range(moves):
        if state.outcome is not None:
            break
        seat = state.waiting_for()[0]
        kind = i % 3
        if kind == 0:
            best = best_candidate(generate_moves(state, seat))
            text = "pass" if best is None else str(best.move)
        elif kind == 1 and len(state.bag) >= 7:
            text = "swap " + "".join(state.rack(seat)[:2])
        else:
            text = "pass"
        state = state.apply(seat, gdef.parse_move(text))
        if text == "pass":
            out.append((seat, "/pass"))
        elif text.startswith("swap "):
            out.append((seat, f"/swap {text[5:]}"))
        else:
            out.append((seat, f"/play {text}"))
    return out


async def throughput(games: int, moves: int) -> None:
    scripts = [script(seed, moves) for seed in range(games)]
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        try:
            service = Service(db, render=False)
            chats = [ChatRef(CONSOLE, f"room{g}") for g in range(games)]
            users = [UserRef(CONSOLE, name, name) for name in NAMES]
            for g in range(games):
                await service.handle(chats[g], users[0], f"/new webfeud @bob seed={g}")

            async def play(g: int) -> int:
                done = 0
                for seat, line in scripts[g]:
                    replies = await service.handle(chats[g], users[seat], line)
                    if replies[0].kind != "move_played":
                        raise RuntimeError(f"game {g}: {line} -> {replies[0].text}")
                    done += 1
                return done

            began = time.perf_counter()
            counts = await asyncio.gather(*(play(g) for g in range(games)))
            elapsed = time.perf_counter() - began
        finally:
            await db.close()
    total = sum(counts)
    figure("service moves applied + persisted", total / elapsed, "moves/s", goal=">= 300")
    print(
        f"service: {total} moves in {games} games applied and persisted in {elapsed:.2f} s"
        f" = {total / elapsed:.0f} moves/s (SQLite WAL, no rendering)"
    )


def start_to_prompt() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        began = time.perf_counter()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bot",
                "console",
                "--db",
                f"{folder}/p.sqlite3",
                "--as",
                "bench",
            ],
            cwd=folder,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert proc.stdout is not None
        assert proc.stdin is not None
        seen = b""
        while b"bench> " not in seen:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
        elapsed = time.perf_counter() - began
        proc.stdin.write(b"/quit\n")
        proc.stdin.close()
        proc.wait(timeout=30)
    print(f"console: start to prompt {elapsed * 1000:.0f} ms (python -m bot console, new DB)")
    figure("feudbot console start to prompt", elapsed * 1000, "ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--moves", type=int, default=24)
    args = parser.parse_args()
    asyncio.run(throughput(args.games, args.moves))
    start_to_prompt()


if __name__ == "__main__":
    main()
