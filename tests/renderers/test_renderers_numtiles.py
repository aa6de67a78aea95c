"""The number-tile images (Rummikub's table and rack): public facts only, stable bytes, marks."""

from __future__ import annotations

import io
import os
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

import renderers
from bot.games.rummikub import RUMMIKUB
from renderers.numtiles import (
    INKS,
    LABEL_W,
    MELD_PAD,
    TILE_H,
    TILE_W,
    _badges,
    _empty_table,
    _problem_lines,
    _rack_facts,
    _status,
    layout_melds,
    number_tile,
    render_number_rack,
    render_table,
)
from renderers.toolkit import DEFAULT, header_height

MAX_PNG = 250 * 1024
GOLDEN = Path(__file__).parent / "golden"
TOLERANCE = 1.0  # as in test_renderers_golden.py: mean absolute difference per channel
NAMES = ["alice", "bob"]
TABLE = [["R4", "R5", "R6", "R7", "R8"], ["K3", "B3", "Y3"], ["J", "B7", "B8"]]


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def drafted():
    """Alice moves R4 to a new meld of its own: meld 4 is invalid while she drafts."""
    state = RUMMIKUB.rigged([["R9", "K13", "J"], ["K1", "K2"]], TABLE)
    return state.apply(0, RUMMIKUB.parse_move("1:R4>new"))


def meld_boxes(state):
    melds = state.view(None)["melds"]
    return layout_melds(
        [len(m["tiles"]) for m in melds],
        left=DEFAULT.padding + 3,
        right=DEFAULT.width - DEFAULT.padding - 3,
        top=header_height(DEFAULT, state.players) + 10,
    )


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def near(pixel, colour: str, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, hex_rgb(colour), strict=True))


def test_the_same_state_gives_the_same_bytes() -> None:
    """Rendering a state twice, or its JSON round trip, gives identical PNG bytes."""
    state = drafted()
    again = RUMMIKUB.from_json(state.to_json())
    assert render_table(state, names=NAMES) == render_table(again, names=NAMES)
    assert render_number_rack(state, 0, name="alice") == render_number_rack(again, 0, name="alice")


def test_images_are_phone_sized_pngs() -> None:
    """Table and rack are 900 px wide PNGs well under 250 KB, even with a crowded table."""
    state = RUMMIKUB.new_game(4, seed=2, options={})
    for _ in range(60):  # a long bot game fills the table
        if state.outcome is not None:
            break
        from bot.ai.rummikub import choose_rummikub_move

        state = state.apply(state.to_move, choose_rummikub_move(state, state.to_move, "easy", 0))
    assert sum(len(m) for m in state.table) >= 30
    for png in (
        render_table(state, names=["a", "b", "c", "d"]),
        render_number_rack(state, 0, name="a"),
    ):
        assert png.startswith(b"\x89PNG")
        assert len(png) < MAX_PNG
        assert image(png).width == DEFAULT.width


def test_the_table_shows_no_rack() -> None:
    """Two positions that differ only in the racks' contents draw the same table image."""
    one = RUMMIKUB.rigged([["R9", "K13"], ["K1", "K2"]], TABLE)
    two = RUMMIKUB.rigged([["B9", "Y13"], ["R1", "R2"]], TABLE)
    assert render_table(one, names=NAMES) == render_table(two, names=NAMES)


def test_an_invalid_drafted_meld_is_framed_and_crossed() -> None:
    """The invalid meld 4 gets the red frame; the valid melds do not; a valid table has none."""
    state = drafted()
    png = image(render_table(state, names=NAMES))
    boxes = meld_boxes(state)
    invalid = boxes[3]
    assert near(png.getpixel((invalid.left - 2, invalid.top + 30)), INKS.invalid)
    assert not near(png.getpixel((boxes[1].left - 2, boxes[1].top + 30)), INKS.invalid)
    # The cross sits under the meld's number, clear of its tiles (it covered the last one): a
    # black K13 alone is invalid, and nothing red is drawn over it.
    lone = RUMMIKUB.rigged([["R9", "K13", "J"], ["K1", "K2"]], TABLE)
    lone = lone.apply(0, RUMMIKUB.parse_move("K13"))
    box = meld_boxes(lone)[3]
    drawn = image(render_table(lone, names=NAMES))
    column = drawn.crop((box.left, box.top, box.left + MELD_PAD + LABEL_W, box.bottom))
    assert [c for _, c in column.getcolors(maxcolors=1 << 16) or [] if near(c, INKS.invalid)]
    assert not near(drawn.getpixel((box.right - 10, box.top + 10)), INKS.invalid)  # the tile's
    changed = boxes[0]  # meld 1 lost R4: outlined as changed, not invalid
    assert near(png.getpixel((changed.left - 2, changed.top + 30)), INKS.changed)
    fixed = state.apply(0, RUMMIKUB.parse_move("undo"))
    clean = image(render_table(fixed, names=NAMES))
    colours = clean.getcolors(maxcolors=1 << 16) or []
    assert not [c for _, c in colours if near(c, INKS.invalid, 12)]
    assert image(render_table(state, names=NAMES)).height > clean.height  # the problem line


def test_colours_differ_without_colour_and_jokers_stand_out() -> None:
    """In greyscale, the four colours of one number and the joker are all different tiles."""
    tiles = ["K5", "B5", "Y5", "R5", "J"]
    grey = {t: number_tile(t, TILE_W, TILE_H).convert("L").tobytes() for t in tiles}
    for a, b in combinations(tiles, 2):
        assert grey[a] != grey[b], (a, b)


def test_the_rack_wraps_and_grows() -> None:
    """A rack of 30 tiles takes more rows than one of 14; a bad seat is refused."""
    many = ["K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8", "K9", "K10", "K11", "K12", "K13"]
    small = RUMMIKUB.rigged([[*many, "R1"], ["R2"]], [])
    big = RUMMIKUB.rigged([many + [t.replace("K", "B") for t in many] + ["J", "J"], ["R1"]], [])
    assert (
        image(render_number_rack(big, 0, name="a")).height
        > image(render_number_rack(small, 0, name="a")).height
    )
    with pytest.raises(ValueError, match="no seat"):
        render_number_rack(small, 2, name="a")
    with pytest.raises(ValueError, match="names"):
        render_table(small, names=["only one"])


def test_rummikub_is_registered_for_board_and_rack() -> None:
    """renderers.board_png and rack_png draw Rummikub with these renderers."""
    state = drafted()
    assert renderers.board_png(state, names=NAMES, viewer=None, last_move=True) == render_table(
        state, names=NAMES
    )
    assert renderers.rack_png(state, 0, name="alice") == render_number_rack(state, 0, name="alice")


@pytest.mark.parametrize("case", ["rummikub_table_draft", "rummikub_rack"])
def test_matches_golden_image(case: str) -> None:
    """The drafted table and the rack equal their approved PNGs within the tolerance.

    FEUDBOT_REGEN_GOLDEN=1 rewrites them after a deliberate change (look before committing).
    """
    state = drafted()
    if case == "rummikub_table_draft":
        png = render_table(state, names=NAMES)
    else:
        png = render_number_rack(state, 0, name="alice")
    path = GOLDEN / f"{case}.png"
    if os.environ.get("FEUDBOT_REGEN_GOLDEN") == "1":
        path.write_bytes(png)
    assert path.exists(), f"no golden {path.name}: run with FEUDBOT_REGEN_GOLDEN=1"
    got, want = Image.open(io.BytesIO(png)), Image.open(path)
    assert got.size == want.size
    diff = ImageChops.difference(got.convert("RGB"), want.convert("RGB"))
    assert sum(ImageStat.Stat(diff).mean) / 3 <= TOLERANCE


def test_a_seat_that_resigned_is_labelled_on_the_table() -> None:
    """Of three, bob resigned and the others play on: his badge says so, never "to move"."""
    state = RUMMIKUB.rigged([["R9", "K13"], ["K1", "K2"], ["B1", "B2"]], TABLE)
    state = state.apply(0, RUMMIKUB.parse_move("draw")).apply(1, RUMMIKUB.parse_move("resign"))
    captions = [b.caption for b in _badges(state.view(None), ["alice", "bob", "carol"], None)]
    assert captions == ["3 tiles", "resigned · 2 tiles", "to move · 2 tiles"]
    assert render_table(state, names=["alice", "bob", "carol"]).startswith(b"\x89PNG")
    # carol resigns too: the game is over, and she is labelled as well.
    over = state.apply(2, RUMMIKUB.parse_move("resign"))
    captions = [b.caption for b in _badges(over.view(None), ["alice", "bob", "carol"], None)]
    assert captions == ["winner · 3 tiles", "resigned · 2 tiles", "resigned · 2 tiles"]


def went_out():
    """Ann lays her whole rack as her initial meld (R9 R10 R11, worth 30): she went out."""
    state = RUMMIKUB.rigged([["R9", "R10", "R11"], ["K1", "K2"]])
    return state.apply(0, RUMMIKUB.parse_move("R9 R10 R11; done"))


def test_the_winner_who_went_out_is_labelled_and_the_status_says_how_it_ended() -> None:
    """As Webfeud's and SmartFeud's panels: "winner · went out"; the status line says how too."""
    over = went_out()
    captions = [b.caption for b in _badges(over.view(None), ["ann", "bo"], None)]
    assert captions == ["winner · went out · 0 tiles", "2 tiles"]
    assert _status(over.view(None), ["ann", "bo"], "Rummikub") == (
        "Rummikub · game over: ann wins (went out)"
    )
    three = RUMMIKUB.rigged([["R9", "K13"], ["K1", "K2"], ["B1", "B2"]])
    three = three.apply(0, RUMMIKUB.parse_move("resign")).apply(1, RUMMIKUB.parse_move("resign"))
    assert _status(three.view(None), ["ann", "bo", "cy"], "Rummikub") == (
        "Rummikub · game over: cy wins (bo resigned)"
    )


def test_a_rack_after_the_game_gives_no_opening_advice() -> None:
    """The footer says "initial meld: 30 from your rack" only while the game goes on."""
    state = RUMMIKUB.rigged([["R9", "R10", "R11"], ["K1", "K2"]])
    assert "initial meld: 30 from your rack" in _rack_facts(state.view(1), 1, state.rack(1))
    over = went_out()
    for seat in (0, 1):
        facts = _rack_facts(over.view(seat), seat, over.rack(seat))
        assert not any("initial meld" in fact for fact in facts), facts
    assert _rack_facts(over.view(1), 1, over.rack(1))[:2] == ["2 tiles", "worth 3"]
    assert render_number_rack(over, 1, name="bo").startswith(b"\x89PNG")


def test_an_empty_table_says_the_opening_rule_only_while_the_game_goes_on() -> None:
    """The opening hint while the table waits for its first melds; a finished game says so."""
    state = RUMMIKUB.rigged([["R9", "K13"], ["K1", "K2"]])
    assert _empty_table(state.view(None)).startswith("The table is empty: the first melds")
    over = state.apply(1, RUMMIKUB.parse_move("resign"))
    assert _empty_table(over.view(None)) == "The table stayed empty: nobody laid a meld."


def test_a_long_invalid_meld_reason_wraps_instead_of_being_cut() -> None:
    """Y6 Y9 K1: its reason is longer than a line; the notes carry it whole over two lines."""
    state = RUMMIKUB.rigged([["Y6", "Y9", "K1", "R2"], ["K2"]])
    state = state.apply(0, RUMMIKUB.parse_move("Y6 Y9 K1"))
    melds = state.view(None)["melds"]
    [bad] = [m for m in melds if not m["valid"]]
    lines = _problem_lines(melds)
    assert " ".join(line.strip() for line in lines).endswith(bad["problem"])
    assert len(lines) == 2
    assert all(len(line) <= 90 for line in lines)
    assert render_table(state, names=NAMES).startswith(b"\x89PNG")


def test_a_valid_draft_that_is_no_turn_yet_says_so_in_the_status() -> None:
    """An initial meld under 30 has valid melds but /done would refuse it.

    The picture says "not a turn yet", as the text does, instead of a bare "valid".
    """
    state = RUMMIKUB.rigged([["R1", "R2", "R3", "K10", "Y10", "B10"], ["K1", "K2"]])
    low = state.apply(0, RUMMIKUB.parse_move("R1 R2 R3"))
    assert _status(low.view(None), NAMES, "Rummikub").startswith(
        "Rummikub · 98 tiles in the pool · DRAFT, 1 step: valid, not a turn yet"
    )
    enough = low.apply(0, RUMMIKUB.parse_move("K10 Y10 B10"))
    assert _status(enough.view(None), NAMES, "Rummikub") == (
        "Rummikub · 98 tiles in the pool · DRAFT, 2 steps: valid"
    )
