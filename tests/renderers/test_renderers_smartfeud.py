"""SmartFeud images: the 16×16 board, the ring on the vacated square, the taken-tile slot."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.smartfeud import SMARTFEUD
from bot.games.webfeud import WEBFEUD
from bot.games.wordgame import L2, L3, W2, W3, WordState
from bot.lexicon import Lexicon
from renderers import board_png, rack_png
from renderers.toolkit import DEFAULT, header_height
from renderers.wordgame import (
    GAME_COLOURS,
    RACK_GAP,
    RACK_TILE,
    RACK_TRAY_PAD,
    SLOT_GAP,
    _grid,
    public_board,
)

LEX = Lexicon.from_words(["SECTION", "SECT", "ON", "TIN"])
NAMES = ["Ann", "Bob"]
PREMIUM_CODES = {"L2": L2, "L3": L3, "W2": W2, "W3": W3}
SIZE = 16


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def close(a: tuple[int, ...], b: tuple[int, ...], slack: int = 12) -> bool:
    return all(abs(x - y) <= slack for x, y in zip(a, b, strict=False))


def game() -> WordState:
    """SECTION on G8-M8 by Ann, then Bob takes the I of K8 for J8 TIN."""
    bag = "SECTION" + "NEEEEEE" + "ABCDEFGHIJKLMNOP"
    state = SMARTFEUD.new_game(2, seed=1, options={}, lexicon=LEX, bag=bag)
    state = state.apply(0, SMARTFEUD.parse_move("8G SECTION"))
    return state.apply(1, SMARTFEUD.parse_move("J8 TIN take K8"))


def pixel(img: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    value = img.getpixel(xy)
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def test_board_is_sixteen_by_sixteen_with_four_start_squares() -> None:
    """The grid fits 16 columns in the phone width; each start square is drawn in its colour."""
    state = SMARTFEUD.new_game(4, seed=1, options={}, lexicon=LEX)
    png = board_png(state, names=["Ann", "Bob", "Cy", "Di"], last_move=True)
    img = image(png)
    assert 800 <= img.width <= 1000
    grid = _grid(SIZE, DEFAULT, top=header_height(DEFAULT, 4))
    assert grid.right <= img.width
    for cell in (7 * SIZE + 7, 7 * SIZE + 8, 8 * SIZE + 7, 8 * SIZE + 8):
        left, top, _, _ = grid.box(*divmod(cell, SIZE), inset=DEFAULT.cell_gap)
        assert close(pixel(img, (left + 6, top + 6)), hex_rgb(DEFAULT.start))


def test_premium_squares_have_the_rule_documents_colours() -> None:
    """Green L2, blue L3, pink W2, red W3 (smartfeud.txt); Webfeud's star is green."""
    state = SMARTFEUD.new_game(2, seed=1, options={}, lexicon=LEX)
    img = image(board_png(state, names=NAMES))
    grid = _grid(SIZE, DEFAULT, top=header_height(DEFAULT, 2))
    # Dark enough for their white labels (test_renderers_contrast.py).
    expected = {"L2": (0x27, 0x84, 0x42), "L3": (0x3A, 0x78, 0xAE), "W2": (0xC7, 0x42, 0x87)}
    expected["W3"] = (0xC2, 0x41, 0x3B)
    for code, (row, col) in {"L2": (1, 1), "L3": (0, 0), "W2": (1, 6), "W3": (0, 3)}.items():
        assert state.layout[row * SIZE + col] == PREMIUM_CODES[code], code
        left, top, _, _ = grid.box(row, col, inset=DEFAULT.cell_gap)
        assert close(pixel(img, (left + 6, top + 6)), expected[code]), code
    green, blue = expected["L2"], expected["L3"]
    assert green[1] > max(green[0], green[2])  # green is green
    assert blue[2] > max(blue[0], blue[1])  # blue is blue
    web = WEBFEUD.new_game(2, seed=1, options={})
    web_img = image(board_png(web, names=NAMES))
    web_grid = _grid(15, DEFAULT, top=header_height(DEFAULT, 2))
    x, y = web_grid.centre(7, 7)
    assert close(pixel(web_img, (round(x), round(y))), hex_rgb(GAME_COLOURS["webfeud"]["star"]))


def test_the_square_taken_from_is_ringed_only_for_the_last_move() -> None:
    """K8 gets an accent ring after the take; without last-move marks, or a move later, none."""
    state = game()
    grid = _grid(SIZE, DEFAULT, top=header_height(DEFAULT))
    left, top, _, bottom = grid.box(7, 10, inset=DEFAULT.cell_gap)
    edge = (left + 1, (top + bottom) // 2)
    marked = image(board_png(state, names=NAMES, last_move=True))
    assert close(pixel(marked, edge), hex_rgb(DEFAULT.accent))
    plain = image(board_png(state, names=NAMES, last_move=False))
    assert not close(pixel(plain, edge), hex_rgb(DEFAULT.accent))
    later = state.apply(0, SMARTFEUD.parse_move("pass"))
    assert not close(pixel(image(board_png(later, names=NAMES)), edge), hex_rgb(DEFAULT.accent))
    assert public_board(state).history[-1].text == "J8 TIN take K8"


def _slot(state: WordState) -> tuple[int, int, int]:
    """Return the left x, top y and size of the taken-tile slot (8 slots, a gap before it)."""
    slots, pad = 8, DEFAULT.padding
    room = DEFAULT.width - 2 * (pad + RACK_TRAY_PAD)  # the tray inside the page's padding
    tile = min(RACK_TILE, (room - SLOT_GAP - (slots - 1) * RACK_GAP) // slots)
    row_width = slots * tile + (slots - 1) * RACK_GAP + SLOT_GAP
    left = (DEFAULT.width - row_width) // 2
    return left + 7 * (tile + RACK_GAP) + SLOT_GAP, pad + 64 + RACK_TRAY_PAD, tile


def test_rack_has_an_empty_slot_for_a_taken_tile() -> None:
    """After the first turn the eighth slot is empty (cell colour) and ringed in the accent."""
    state = game()
    img = image(rack_png(state, 1, name="Bob"))
    x, y, tile = _slot(state)
    assert close(pixel(img, (x + tile // 2, y + tile // 3)), hex_rgb(DEFAULT.cell))
    assert close(pixel(img, (x - 3, y + tile // 2)), hex_rgb(DEFAULT.accent))


def test_the_starters_extra_blank_sits_in_the_slot_on_turn_one() -> None:
    """On the first turn the starter's slot holds the extra blank (a blank tile's face)."""
    state = SMARTFEUD.new_game(2, seed=1, options={}, lexicon=LEX)
    img = image(rack_png(state, 0, name="Ann"))
    x, y, tile = _slot(state)
    middle = (x + tile // 2, y + tile // 3)
    assert close(pixel(img, middle), hex_rgb(DEFAULT.blank_tile))
    other = image(rack_png(state, 1, name="Bob"))
    assert close(pixel(other, middle), hex_rgb(DEFAULT.cell))


def test_the_rack_tray_keeps_the_page_padding() -> None:
    """The tray around eight slots stays inside the page's padding, as every other panel does."""
    img = image(rack_png(game(), 1, name="Bob"))
    _, y, tile = _slot(game())
    background = hex_rgb(DEFAULT.background)
    for x in (DEFAULT.padding - 1, img.width - DEFAULT.padding):
        assert close(pixel(img, (x, y + tile // 2)), background), x
    assert not close(pixel(img, (DEFAULT.padding + 1, y + tile // 2)), background)
