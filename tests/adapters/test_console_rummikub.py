"""`feudbot console` plays Rummikub: the table as numbered text lines, drafts marked."""

from __future__ import annotations

import io

from bot.adapters.common import ascii_melds
from bot.adapters.console import run_console

SCRIPT = [
    "alice: /new rummikub @bob seed=4",
    "alice: /start",
    "alice: /play K1 Y1",
    "alice: /done",
    "alice: /play 1+R1",
    "alice: /play K13 Y13 R13",
    "alice: /done",
    "bob: /pass",
]


async def test_a_rummikub_turn_in_steps_in_the_console(tmp_path) -> None:
    """Each step prints the drafted table; /done refuses privately; bob's /pass draws a tile."""
    out = io.StringIO()
    status = await run_console(
        str(tmp_path / "c.sqlite3"), script=SCRIPT, out=out, render=False, name="alice"
    )
    assert status == 0
    text = out.getvalue()
    assert "  1: K1 Y1   <- invalid: has only 2 tiles; a meld needs at least 3" in text
    refusal = text.index("(private to alice)\n  Meld 1 (K1 Y1) has only 2 tiles")
    assert refusal > 0
    assert "#1 alice: K1 Y1; 1+R1; K13 Y13 R13; done" in text
    assert "  2: K13 Y13 R13" in text
    assert "#1 bob: drew a tile" in text
    for line in text.splitlines():  # racks only under "(private to …)"
        if line.startswith("Your rack"):
            raise AssertionError(line)


def test_ascii_melds_numbers_the_melds_and_ignores_other_games() -> None:
    """One numbered line per meld; an empty table says so; a word game's view gives None.

    A draft on the table is said first; the pool and each player's tile count follow.
    """
    view = {
        "melds": [
            {"number": 1, "tiles": ["R5", "R6", "R7"], "valid": True},
            {"number": 2, "tiles": [], "valid": True},
        ]
    }
    assert ascii_melds(view) == "  1: R5 R6 R7\n  2: (empty)"
    assert ascii_melds({"melds": []}) == "  (the table is empty)"
    assert ascii_melds({"board": "....", "size": 2}) is None
    drafted = {**view, "draft": ["R5 R6 R7"], "pool": 78, "rack_sizes": [11, 14]}
    assert ascii_melds(drafted, ["alice", "bob"]) == (
        "  (a draft of this turn: nothing is played until /done)\n"
        "  1: R5 R6 R7\n  2: (empty)\n"
        "  pool 78 · tiles: alice 11, bob 14"
    )
