"""Numfeud images: registered, deterministic, public, jokers and locks shown, colour-free marks."""

from __future__ import annotations

import io
import os
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.games.numfeud import NUMFEUD, NumfeudState
from renderers import board_png, rack_png
from renderers.numfeud import (
    NUMFEUD_INKS,
    _badges,
    _rack_title,
    _status,
    numfeud_tile,
    render_board,
    render_rack,
)
from renderers.toolkit import DEFAULT, text_width
from tests.games.test_numfeud import JOKER_EXAMPLE_2, RUN, rig

NAMES = ["alice", "bob"]


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_board_and_rack_are_registered_and_deterministic() -> None:
    """board_png/rack_png find the Numfeud renderers; the same state gives the same bytes."""
    state = NUMFEUD.new_game(2, seed=1, options={})
    one = board_png(state, names=NAMES)
    assert one == board_png(state, names=NAMES)
    assert one.startswith(b"\x89PNG")
    assert len(one) < 250 * 1024
    rack = rack_png(state, 0, name="alice")
    assert image(rack).width == 900


def test_the_board_image_never_depends_on_an_inventory() -> None:
    """Swapping the inventories' contents leaves the group image unchanged."""
    state = rig(JOKER_EXAMPLE_2, [["R1", "R2"], ["B5", "B6"]])
    other = replace(state, racks=(("Y1", "Y2"), ("G5", "G6")))
    assert render_board(state, names=NAMES) == render_board(other, names=NAMES)


def test_locked_tiles_carry_a_padlock_and_jokers_show_their_tile() -> None:
    """A locked sprite differs from the unlocked one by the lock ink; a joker has its own face."""
    plain = numfeud_tile("G6", 60)
    locked = numfeud_tile("G6", 60, locked=True)
    assert plain.tobytes() != locked.tobytes()
    lock_rgb = tuple(int(NUMFEUD_INKS.lock[i : i + 2], 16) for i in (1, 3, 5))
    corner = locked.crop((40, 0, 60, 30)).convert("RGB")
    assert lock_rgb in {colour for _, colour in corner.getcolors(2000) or []}
    joker = numfeud_tile("J=G5", 60)
    assert joker.tobytes() != numfeud_tile("G5", 60).tobytes()
    assert joker.tobytes() != numfeud_tile("J=R5", 60).tobytes()


def test_colours_differ_in_greyscale_too() -> None:
    """The four colours of one number look different without colour (shape marks, letters)."""
    grey = {numfeud_tile(f"{c}7", 60).convert("L").tobytes() for c in "RBYG"}
    assert len(grey) == 4


def test_a_finished_game_draws_the_result() -> None:
    """A game over still renders (the winner's panel is highlighted)."""
    state = NUMFEUD.on_timeout(NUMFEUD.new_game(2, seed=1, options={}), 0)
    assert image(render_board(state, names=NAMES)).height > 900
    assert _status(state.view(None), state, NAMES) == (
        "Numfeud · game over: bob wins (opponent ran out of time)"
    )


def captions(state: NumfeudState, viewer: int | None = None) -> list[str]:
    return [b.caption for b in _badges(state.view(None), state, NAMES, viewer)]


def test_the_panels_say_who_resigned_timed_out_or_went_out() -> None:
    """As Webfeud's, SmartFeud's and Rummikub's panels do: the move that ended the game."""
    state = NUMFEUD.new_game(2, seed=1, options={})
    resigned = state.apply(0, NUMFEUD.parse_move("resign"))
    assert captions(resigned) == ["resigned · 16 tiles", "winner · 16 tiles"]
    timed_out = NUMFEUD.on_timeout(state, 0)
    assert captions(timed_out, viewer=0) == ["you · timed out · 16 tiles", "winner · 16 tiles"]
    went_out = rig(RUN, [["R8"], ["Y2", "B10", "J"]]).apply(0, NUMFEUD.parse_move("8G R5 R6 R7 R8"))
    assert captions(went_out) == ["winner · went out · 0 tiles", "3 tiles"]
    assert captions(state) == ["to move · 16 tiles", "16 tiles"]  # the game goes on (as Rummikub)


def test_a_joker_in_the_last_move_keeps_its_violet_face_with_an_outline() -> None:
    """A freshly laid joker is still violet (not the fresh face); an outline marks it fresh."""

    def rgb(colour: str) -> tuple[int, ...]:
        return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))

    fresh = numfeud_tile("J=R5", 60, fresh=True).convert("RGB")
    face = fresh.getpixel((50, 30))  # right of the number, clear of the marks
    assert face == rgb(NUMFEUD_INKS.joker_face)
    assert face != rgb(NUMFEUD_INKS.fresh_face)
    edge = fresh.getpixel((1, 30))  # the last move's outline, all round
    assert all(abs(a - b) <= 8 for a, b in zip(edge, rgb(NUMFEUD_INKS.fresh_edge), strict=True))
    assert fresh.tobytes() != numfeud_tile("J=R5", 60).convert("RGB").tobytes()


def test_the_status_line_names_the_game_the_turn_and_the_bag() -> None:
    """Like the other games' images, the header says which game it is, then turn and bag."""
    state = NUMFEUD.new_game(2, seed=1, options={})
    assert _status(state.view(None), state, NAMES) == (
        "Numfeud · turn 1 · 74 tiles in the bag · first play covers H8"
    )


GOLDEN = Path(__file__).parent / "golden"
TOLERANCE = 1.0  # mean absolute difference per channel, as in test_renderers_golden.py


def golden_position() -> NumfeudState:
    """Joker example 2 with a group crossing it, after a lay of bob's (highlighted)."""
    board = dict(JOKER_EXAMPLE_2) | {"G11": "R8", "I11": "B8", "J11": "Y8", "F8": "G3"}
    state = rig(board, [["B9", "Y1", "J", "G13", "R10"], ["G8", "Y2"]], to_move=1)
    return state.apply(1, NUMFEUD.parse_move("11G R8 G8 B8 Y8"))


@pytest.mark.parametrize("case", ["numfeud_board", "numfeud_rack"])
def test_golden_images(case: str) -> None:
    """The board and inventory images stay what a person looked at and approved."""
    state = golden_position()
    png = (
        render_board(state, names=NAMES, viewer=0)
        if case == "numfeud_board"
        else render_rack(state, 0, name="alice")
    )
    path = GOLDEN / f"{case}.png"
    if os.environ.get("FEUDBOT_REGEN_GOLDEN"):
        path.write_bytes(png)
    expected = Image.open(path).convert("RGB")
    actual = image(png)
    assert actual.size == expected.size
    diff = ImageStat.Stat(ImageChops.difference(actual, expected)).mean
    assert max(diff) <= TOLERANCE, diff


def test_a_long_name_never_pushes_the_counts_off_the_rack_title() -> None:
    """A 500-character name is cut, and "16 of 20 tiles · 13 left to swap" still shows whole.

    The limit is of tiles: after a swap of 12, "1 left to swap", never "1 swaps left".
    """
    title = _rack_title("z" * 500, 16, 13, DEFAULT.width - 2 * DEFAULT.padding)
    assert title.endswith("…: 16 of 20 tiles · 13 left to swap")
    assert text_width(title, size=24, bold=True) <= DEFAULT.width - 2 * DEFAULT.padding
    assert _rack_title("alice", 16, 13, 860) == "alice: 16 of 20 tiles · 13 left to swap"
    assert _rack_title("alice", 17, 1, 860) == "alice: 17 of 20 tiles · 1 left to swap"
