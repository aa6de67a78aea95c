"""QA (experienced players of the number games): Numfeud lines as a seasoned player writes them."""

from __future__ import annotations

import pytest

from bot.core.errors import RuleError
from tests.games.test_numfeud import RUN, play, rig


def outcome(state, text: str) -> str:
    """Return "ok" or the refusal's reason of a move."""
    try:
        play(state, text)
    except RuleError as error:
        return str(error.reason)
    return "ok"


def test_one_tile_is_judged_alike_whichever_way_it_is_written() -> None:
    """R8 on J8 beside R5 R6 R7 on G8–I8 is one placement, whichever direction names it.

    `8J R8` (across) is refused: "R7 on I8 continues your line: write it whole, as 8G R5 R6 R7
    R8". `J8 R8` (down, where J7 and J9 are empty) lays the same tile on the same square and is
    played, recorded as "J8 R8", which did not show the run it joined. Now both are refused
    alike, with the whole line to type (Webfeud asks a single tile to be written with the word
    it makes, `H7 XA`), and that line is played.
    """
    state = rig(RUN, [["R8", "R4", "B1"], ["Y1"]])
    assert outcome(state, "8J R8") == outcome(state, "J8 R8") == "WORD_NOT_COMPLETE"
    assert outcome(state, "8F R4") == outcome(state, "F8 R4") == "WORD_NOT_COMPLETE"
    with pytest.raises(RuleError, match="write it whole, as 8G R5 R6 R7 R8"):
        play(state, "J8 R8")
    assert outcome(state, "8G R5 R6 R7 R8") == "ok"
