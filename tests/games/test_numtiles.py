"""Number tiles and melds (shared by Rummikub and Numfeud): runs, groups, jokers, values."""

from __future__ import annotations

import pytest

from bot.core.errors import InvalidMove
from bot.games.numtiles import (
    arrange,
    check_meld,
    full_set,
    meld_value,
    parse_tile,
    penalty,
    rack_value,
    sort_tiles,
)


def test_full_set_has_106_tiles() -> None:
    """1–13 in four colours twice each plus two jokers: 106 tiles."""
    counts = full_set()
    assert sum(counts.values()) == 106
    assert counts["J"] == 2
    assert counts["K1"] == counts["R13"] == 2
    assert len(counts) == 53


@pytest.mark.parametrize(
    ("text", "code"), [("r5", "R5"), ("B13", "B13"), ("j", "J"), (" y7 ", "Y7"), ("K1", "K1")]
)
def test_parse_tile_is_case_insensitive_and_canonical(text: str, code: str) -> None:
    """Tile codes read in any case and come out canonical."""
    assert parse_tile(text) == code


@pytest.mark.parametrize("text", ["J=R6", "j=k11", "J=B13"])
def test_a_joker_written_with_its_tile_is_a_joker(text: str) -> None:
    """Numfeud's J=R6 reads as a joker: its meld decides what it stands for."""
    assert parse_tile(text) == "J"


@pytest.mark.parametrize("text", ["R0", "R14", "G5", "5R", "JJ", "J=G5", "J=R14", "J=", ""])
def test_parse_tile_refuses_non_tiles(text: str) -> None:
    """Anything but K/B/Y/R + 1–13 or J is refused with the expected form."""
    with pytest.raises(InvalidMove, match="R5"):
        parse_tile(text)


def test_run_of_three_consecutive_in_one_colour_is_valid() -> None:
    """R5 R6 R7 is a run worth 18."""
    verdict = check_meld(("R7", "R5", "R6"))
    assert verdict.kind == "run"
    assert verdict.value == 18
    assert verdict.arranged == ("R5", "R6", "R7")


def test_run_needs_one_colour_and_no_gap() -> None:
    """R5 B6 R7 and R5 R7 R8 are not runs."""
    assert not check_meld(("R5", "B6", "R7")).valid
    verdict = check_meld(("R5", "R7", "R8"))
    assert not verdict.valid
    assert verdict.problem == "has a gap at R6: fill it or use a joker"
    # Every missing tile is named (a few, then counted); no joker is offered for a long gap.
    assert check_meld(("K5", "K6", "K11")).problem == "has a gap at K7, K8, K9, K10: fill it"
    assert check_meld(("K1", "K12", "K2")).problem == (
        "has a gap at K3, K4, K5 and 6 more: fill it"
    )
    assert check_meld(("B4", "J", "B7")).problem == "has a gap at B5, B6: fill it"
    assert check_meld(("R5", "J", "J", "R9")).problem == "has a gap at R6, R7, R8: fill it"


def test_a_run_holds_each_number_once_and_at_most_13_tiles() -> None:
    """R5 R5 R6 is no run (a number twice); R1 … R13 and a joker is none either (no 0 or 14)."""
    verdict = check_meld(("R5", "R5", "R6"))
    assert not verdict.valid
    assert verdict.problem == "has two R5: a run needs each number once"
    full = tuple(f"R{n}" for n in range(1, 14))
    assert check_meld(full).kind == "run"
    assert not check_meld((*full, "J")).valid


def test_one_only_at_the_low_end_no_wrap() -> None:
    """R1 R2 R3 is a run; R12 R13 R1 is not (13–1 does not wrap)."""
    assert check_meld(("R1", "R2", "R3")).valid
    verdict = check_meld(("R12", "R13", "R1"))
    assert not verdict.valid
    assert "13 to 1" in verdict.problem


def test_a_meld_has_at_least_three_tiles() -> None:
    """Two tiles are never a meld, even with a joker's help."""
    assert "at least 3" in check_meld(("R5", "R6")).problem
    assert not check_meld(("R5", "J")).valid


def test_group_of_three_or_four_colours() -> None:
    """A group is one number in different colours, three or four tiles."""
    assert check_meld(("R5", "B5", "Y5")).kind == "group"
    assert check_meld(("R5", "B5", "Y5", "K5")).value == 20
    assert "different colours" in check_meld(("R5", "R5", "B5")).problem
    assert not check_meld(("R5", "B5", "Y5", "K5", "J")).valid


def test_mixed_colours_and_numbers_say_why() -> None:
    """A jumble names both shapes in its problem."""
    verdict = check_meld(("R5", "B6", "Y9"))
    assert not verdict.valid
    assert "run" in verdict.problem
    assert "group" in verdict.problem


def test_joker_fills_a_gap_and_counts_as_its_tile() -> None:
    """R9 J R11 is a run worth 30: the joker counts as R10."""
    verdict = check_meld(("R9", "J", "R11"))
    assert verdict.kind == "run"
    assert verdict.value == 30
    assert verdict.arranged == ("R9", "J", "R11")


def test_two_jokers_may_sit_in_one_meld() -> None:
    """R13 J J is valid (J J R13 = 11 12 13 or a group of thirteens: the better, 39)."""
    verdict = check_meld(("J", "R13", "J"))
    assert verdict.valid
    assert verdict.value == 39
    assert check_meld(("R5", "J", "J", "R8")).value == 5 + 6 + 7 + 8


def test_spare_joker_goes_above_then_below() -> None:
    """R5 R6 J reads R5 R6 R7; R12 R13 J reads R11 R12 R13."""
    assert arrange(("J", "R5", "R6")) == ("R5", "R6", "J")
    assert arrange(("R13", "J", "R12")) == ("J", "R12", "R13")
    assert meld_value(("R13", "J", "R12")) == 36


def test_meld_value_of_invalid_meld_is_zero() -> None:
    """An invalid meld is worth nothing towards the initial meld."""
    assert meld_value(("R5", "B6", "Y9")) == 0


def test_rack_value_counts_a_joker_as_thirty() -> None:
    """A joker left on a rack costs 30 points."""
    assert penalty("J") == 30
    assert rack_value(("R5", "J", "B13")) == 48


def test_sort_tiles_by_colour_then_number_jokers_last() -> None:
    """Racks show K, B, Y, R in number order, jokers at the end."""
    assert sort_tiles(("J", "R2", "K10", "B1", "K9")) == ("K9", "K10", "B1", "R2", "J")
