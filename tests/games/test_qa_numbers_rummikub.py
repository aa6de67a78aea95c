"""QA (experienced players of the number games): Rummikub steps as a seasoned player types them."""

from __future__ import annotations

from functools import partial

from bot.core.errors import Reason
from bot.games.rummikub import RUMMIKUB
from tests.games.moves import play_text, refusal_of

play = partial(play_text, RUMMIKUB)
refusal = partial(refusal_of, RUMMIKUB)


def test_a_step_reusing_a_tile_an_earlier_step_laid_says_where_it_is() -> None:
    """`R5 R6 R7; B5 Y5 R5` with one R5: the R5 is on the table, not missing from the rack.

    The refusal said "You have no R5 on your rack" to a player who holds one R5 and whose
    first step laid it. It now says the tile is already laid earlier in the line, in which
    meld, and the source token that takes it from there.
    """
    state = RUMMIKUB.rigged(
        [["R5", "R6", "R7", "B5", "Y5", "K1", "K2"], ["K3", "K4"]],
        [["K9", "K10", "K11"]],
        opened=[True, True],
    )
    error = refusal(state, 0, "R5 R6 R7; B5 Y5 R5; done")
    assert error.reason is Reason.TILE_NOT_IN_RACK
    assert error.message == (
        "R5 is already laid earlier in this line (in meld 2 now); to move it here, write 2:R5 "
        "instead of R5."
    )
    assert "no R5" not in refusal(state, 0, "R5 R6 R7; B5 Y5 R5").message
    both = refusal(state, 0, "R5 R6 R7; R5 R6 R7").message
    assert both.startswith("R5, R6 and R7 are already laid earlier in this line (in meld 2 now)")
    # Added to the very meld it went to: no advice to move it there.
    assert refusal(state, 0, "R5 R6 R7; 2+R5").message == (
        "R5 is already laid earlier in this line (in meld 2 now)."
    )
    # Laid by a step of an earlier message: "earlier in this turn".
    drafted = play(state, 0, "R5 R6 R7")
    assert refusal(drafted, 0, "B5 Y5 R5").message.startswith(
        "R5 is already laid earlier in this turn (in meld 2 now)"
    )
    # The advice works: take it from the draft's meld.
    assert play(drafted, 0, "B5 Y5 2:R5").draft_table[-1] == ("B5", "Y5", "R5")
    # Tiles the player does not hold at all are still told as such.
    assert refusal(state, 0, "R5 R6 R7; K12 K13 K11").message.startswith(
        "You have no K12, K13, K11 on your rack"
    )
    assert refusal(state, 0, "R5 R5 R6").message.startswith("You have only 1 R5 on your rack")
    # Both at once: each told as it is.
    assert refusal(state, 0, "R5 R6 R7; B5 Y5 R5 K4").message == (
        "You have no K4 on your rack, and R5 is already laid earlier in this line (in meld 2 now)."
    )
