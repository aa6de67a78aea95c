"""Storage benchmark: the dispatcher's due-deadline query at scale, and commit_move throughput.

Run `python bench/bench_storage.py [--games 100000] [--moves 2000]`. Builds a throw-away
database in a temp folder with N active two-seat games, each holding a pending timeout and two
pending reminders (bulk-inserted in one transaction, with small snapshots to keep the file
small), then prints:

- `due_deadlines(now, 100)` latency (p50/p95/max over 50 runs) and `next_due_at()` latency;
- `commit_move` throughput with a ~5 KB snapshot, each move cancelling the game's pending
  deadlines and adding a new timeout and reminder: sequential, and 16 coroutines at once.

Prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from figures import figure

from storage import Database, NewDeadline

RUNS = 50
CHATS = 1_000
USERS = 5_000


def snapshot_of_size(size: int, rng: random.Random) -> str:
    """Return a JSON object of roughly `size` bytes, shaped like a board game snapshot."""
    board = ["".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWZ.") for _ in range(15)) for _ in range(15)]
    state: dict[str, object] = {"v": 1, "turn": 0, "board": board, "racks": [], "bag": ""}
    letters = "".join(rng.choice("AEIOUNRSTLDGBCMPFHVWYKJXQZ") for _ in range(size))
    state["bag"] = letters[: max(0, size - len(json.dumps(state)))]
    return json.dumps(state, separators=(",", ":"))


async def populate(db: Database, games: int, now: datetime, rng: random.Random) -> None:
    """Bulk-insert chats, users, active games, their seats and three pending deadlines each."""
    stamp = int(now.timestamp())
    async with db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO chats (id, platform, platform_chat_id, title, created_at, updated_at)"
            " VALUES (?, 'bench', ?, ?, ?, ?)",
            [(i, str(i), f"chat {i}", stamp, stamp) for i in range(1, CHATS + 1)],
        )
        await conn.executemany(
            "INSERT INTO users (id, platform, platform_user_id, display_name, created_at,"
            " updated_at) VALUES (?, 'bench', ?, ?, ?, ?)",
            [(i, str(i), f"user {i}", stamp, stamp) for i in range(1, USERS + 1)],
        )
        await conn.executemany(
            "INSERT INTO games (id, chat_id, game_key, options, status, snapshot, version, turn,"
            " creator_user_id, created_at, updated_at)"
            " VALUES (?, ?, 'webfeud', '{}', 'active', '{\"v\":1}', 1, 0, NULL, ?, ?)",
            [(g, 1 + g % CHATS, stamp, stamp) for g in range(1, games + 1)],
        )
        seats = []
        for g in range(1, games + 1):
            first = 1 + g % USERS
            second = 1 + (first % USERS)
            seats += [(g, 0, first), (g, 1, second)]
        await conn.executemany(
            "INSERT INTO seats (game_id, seat_no, user_id) VALUES (?, ?, ?)", seats
        )
        deadlines = []
        for g in range(1, games + 1):
            # Timeouts spread from 10 minutes ago to three days ahead; reminders before them.
            timeout = stamp + rng.randint(-600, 3 * 24 * 3600)
            deadlines += [
                (g, "timeout", timeout, 0, stamp),
                (g, "reminder", timeout - 12 * 3600, 0, stamp),
                (g, "reminder", timeout - 3600, 0, stamp),
            ]
        await conn.executemany(
            "INSERT INTO deadlines (game_id, kind, due_at, turn, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            deadlines,
        )


def describe(samples: list[float]) -> str:
    """Format latencies in milliseconds."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:.3f} ms, p95 {p95 * 1000:.3f} ms,"
        f" max {ordered[-1] * 1000:.3f} ms"
    )


async def time_queries(db: Database, now: datetime, when: str) -> None:
    """Time the dispatcher's two queries (`when`: a label for the figure).

    Unscoped, and scoped to the games' platform as a production dispatcher asks them.
    """
    for platforms in (None, ("bench",)):
        due_samples, next_samples = [], []
        found = 0
        for _ in range(RUNS):
            start = time.perf_counter()
            found = len(await db.deadlines.due_deadlines(now, 100, platforms=platforms))
            due_samples.append(time.perf_counter() - start)
            start = time.perf_counter()
            await db.deadlines.next_due_at(platforms=platforms)
            next_samples.append(time.perf_counter() - start)
        scope = "all platforms" if platforms is None else "one platform"
        print(f"due_deadlines(now, 100), {scope} -> {found} rows: {describe(due_samples)}")
        figure(
            f"due-deadline query (100k active games, {when}, {scope})",
            statistics.median(due_samples) * 1000,
            "ms",
            goal="<= 10",
            stat="p50",
        )
        print(f"next_due_at(), {scope}: {describe(next_samples)}")


async def one_move(db: Database, game_id: int, version: int, snapshot: str, now: datetime) -> bool:
    """Commit one move with a fresh timeout and reminder, as the service would."""
    return await db.games.commit_move(
        game_id,
        version,
        version % 2,
        "H8 WORD",
        {"tiles": ["W", "O", "R", "D"], "score": 24},
        snapshot,
        version,
        "active",
        [
            NewDeadline("timeout", now + timedelta(days=3), version),
            NewDeadline("reminder", now + timedelta(days=2), version),
        ],
        now=now,
    )


async def time_moves(
    db: Database, moves: int, games: int, now: datetime, rng: random.Random
) -> None:
    """Measure commit_move throughput, sequentially and from 16 concurrent coroutines."""
    snapshot = snapshot_of_size(5_000, rng)
    versions: dict[int, int] = {}
    chosen = rng.sample(range(1, games + 1), min(games, moves))

    start = time.perf_counter()
    committed = 0
    for i in range(moves):
        game_id = chosen[i % len(chosen)]
        version = versions.get(game_id, 1)
        committed += await one_move(db, game_id, version, snapshot, now)
        versions[game_id] = version + 1
    elapsed = time.perf_counter() - start
    print(
        f"commit_move, sequential:        {moves / elapsed:,.0f} moves/s"
        f" ({elapsed / moves * 1000:.3f} ms/move, {committed}/{moves} committed,"
        f" snapshot {len(snapshot):,} bytes)"
    )

    workers = 16
    per_worker = moves // workers
    lanes = [chosen[w::workers] for w in range(workers)]

    async def worker(lane: list[int]) -> int:
        done = 0
        for i in range(per_worker):
            game_id = lane[i % len(lane)]
            version = versions.get(game_id, 1)
            done += await one_move(db, game_id, version, snapshot, now)
            versions[game_id] = version + 1
        return done

    start = time.perf_counter()
    done = sum(await asyncio.gather(*(worker(lane) for lane in lanes)))
    elapsed = time.perf_counter() - start
    print(
        f"commit_move, {workers} coroutines:      {done / elapsed:,.0f} moves/s"
        f" ({done}/{per_worker * workers} committed)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--moves", type=int, default=2_000)
    args = parser.parse_args()
    rng = random.Random(2025)
    now = datetime.now(UTC).replace(microsecond=0)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        async with await Database.open(path) as db:
            start = time.perf_counter()
            await populate(db, args.games, now, rng)
            print(
                f"setup: {args.games:,} active games, {3 * args.games:,} pending deadlines"
                f" in {time.perf_counter() - start:.1f} s"
            )
            await time_queries(db, now, "fresh")
            await time_moves(db, args.moves, args.games, now, rng)
            await time_queries(db, now, f"after {args.moves:,} moves")
        print(f"file size: {path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    asyncio.run(main())
