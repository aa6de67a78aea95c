"""Crash safety: a storm of moves killed with SIGKILL at random moments, twenty times over.

After every kill the database must pass ``PRAGMA integrity_check``, every game's move log must
replay to its snapshot (nothing half-applied), and every move the service acknowledged before the
kill must still be there.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.service import Service
from storage import Database

STORM = Path(__file__).with_name("storm.py")
KILLS = 20
GAMES_PER_RUN = 4

pytestmark = pytest.mark.timeout(600)


async def storm_until_killed(path: Path, seed: int, rng: random.Random) -> dict[int, int]:
    """Run the storm, SIGKILL it after a random number of acknowledged moves; return the acks."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(STORM),
        str(path),
        str(seed),
        str(GAMES_PER_RUN),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    acked: dict[int, int] = {}
    wanted, count, ready = rng.randrange(0, 40), 0, False
    try:
        while count < wanted or not ready:
            line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
            if not line:
                stderr = await process.stderr.read() if process.stderr else b""
                raise AssertionError(f"the storm ended by itself: {stderr.decode()[-2000:]}")
            if line.startswith("ack "):
                _, game, turn = line.split()
                acked[int(game)] = max(acked.get(int(game), 0), int(turn))
                count += 1
            elif line.strip() == "ready":
                ready = True
        await asyncio.sleep(rng.random() * 0.05)  # land somewhere inside the next move
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGKILL)
        await process.wait()
    assert process.returncode == -signal.SIGKILL
    return acked


async def check_database(path: Path, acked: dict[int, int]) -> int:
    """Integrity, snapshot = replayed log for every game, acknowledged turns kept."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute("SELECT id, snapshot, turn FROM games").fetchall()
    finally:
        conn.close()
    db = await Database.open(str(path))
    try:
        service = Service(db, render=False)
        for game_id, snapshot, turn in rows:
            if snapshot is None:
                continue
            replayed = await service.replay(game_id)
            assert replayed is not None
            assert replayed.to_json() == json.loads(snapshot), f"game {game_id} is half-applied"
            assert turn >= acked.get(game_id, 0), f"game {game_id} lost an acknowledged move"
    finally:
        await db.close()
    return len(rows)


async def test_sigkill_storm_loses_nothing_acknowledged(tmp_path: Path) -> None:
    """Twenty kills at random moments: the file stays sound and every acknowledged move stays."""
    path = tmp_path / "storm.sqlite3"
    rng = random.Random(2026)
    all_acked: dict[int, int] = {}
    for seed in range(1, KILLS + 1):
        acked = await storm_until_killed(path, seed, rng)
        all_acked.update(acked)
        await check_database(path, all_acked)
    games = await check_database(path, all_acked)
    assert games == KILLS * GAMES_PER_RUN
    assert all_acked, "no move was acknowledged in twenty runs"
