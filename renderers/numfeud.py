"""Numfeud images: the 15×15 board of number tiles and a player's private inventory.

A tile shows its number big in its colour's ink, a shape mark under it and the colour letter in
the top corner, so colours can be told apart without colour: red a diamond, blue a circle,
yellow a triangle, green a cross. A joker on the board is a violet tile with a star that shows
the tile it stands for (``R5``). A locked tile (a joker played in an earlier turn, and the tiles
touching it) carries a padlock in its top-right corner. The board image goes to group chats, so
it is drawn from `state.view(None)`: inventory sizes only, never an inventory.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.core.game import Outcome
from bot.core.grid import parse_anchor
from bot.core.words import plural
from bot.games.numfeud import (
    CENTRE,
    MAX_RACK,
    SIZE,
    SWAP_LIMIT,
    NumfeudState,
    colour,
    face,
    is_joker,
    number,
)
from renderers.toolkit import (
    DEFAULT,
    SUPERSAMPLE,
    Grid,
    PlayerBadge,
    Theme,
    draw_coordinates,
    draw_header,
    draw_star,
    ended_caption,
    fit_text,
    font,
    header_height,
    new_canvas,
    player_name,
    player_names,
    rounded_box,
    text,
    text_width,
    to_png,
    win_caption,
)

__all__ = ["NUMFEUD_INKS", "NumfeudInks", "numfeud_tile", "render_board", "render_rack"]


def _rack_title(name: str, tiles: int, swaps: int, width: float) -> str:
    """Return "alice: 16 of 20 tiles · 13 left to swap", a long name cut so the counts fit.

    The limit counts tiles, not swaps (13 swapped tiles a game): "1 left to swap" is a tile.
    """
    counts = f": {tiles} of {MAX_RACK} tiles · {swaps} left to swap"
    room = width - text_width(counts, size=24, bold=True)
    return fit_text(name, size=24, max_width=room, bold=True) + counts


@dataclass(frozen=True, slots=True)
class NumfeudInks:
    """The colours of Numfeud tiles (page colours come from `Theme`)."""

    red: str = "#c62828"
    blue: str = "#1f5fbf"
    yellow: str = "#9c5d00"  # amber: readable on the ivory face
    green: str = "#2b7a30"
    joker: str = "#7b2fa8"
    face: str = "#fbf5e6"
    edge: str = "#c9b98f"
    joker_face: str = "#efe2fa"
    joker_edge: str = "#a98bc4"
    fresh_face: str = "#fff0b3"  # tiles of the last move
    fresh_edge: str = "#d9a521"
    lock: str = "#37474f"
    centre: str = "#7a5bb5"

    def ink(self, tile: str) -> str:
        """Return the ink of a tile's face colour."""
        return {"R": self.red, "B": self.blue, "Y": self.yellow, "G": self.green}[colour(tile)]


NUMFEUD_INKS = NumfeudInks()


def _mark(draw: ImageDraw.ImageDraw, letter: str, x: float, y: float, r: float, ink: str) -> None:
    """Draw the shape that names a colour: R diamond, B circle, Y triangle, G cross."""
    if letter == "R":
        draw.polygon([(x, y - r * 1.15), (x + r, y), (x, y + r * 1.15), (x - r, y)], fill=ink)
    elif letter == "B":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
    elif letter == "Y":
        draw.polygon(
            [(x, y - r * 1.05), (x + r * 1.1, y + r * 0.85), (x - r * 1.1, y + r * 0.85)], fill=ink
        )
    else:
        w = r * 0.42
        draw.rectangle((x - w, y - r, x + w, y + r), fill=ink)
        draw.rectangle((x - r, y - w, x + r, y + w), fill=ink)


def _padlock(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, ink: str) -> None:
    """Draw a small padlock whose body's top-right corner is at (x, y)."""
    w, h = size, size * 0.75
    left, top = x - w, y + size * 0.45
    draw.rounded_rectangle((left, top, x, top + h), radius=max(1, size * 0.15), fill=ink)
    shackle = size * 0.32
    draw.arc(
        (left + w / 2 - shackle, top - shackle * 1.4, left + w / 2 + shackle, top + shackle * 0.6),
        180,
        360,
        fill=ink,
        width=max(2, round(size * 0.16)),
    )


@functools.lru_cache(maxsize=512)
def numfeud_tile(
    code: str,
    size: int,
    *,
    locked: bool = False,
    fresh: bool = False,
    inks: NumfeudInks = NUMFEUD_INKS,
) -> Image.Image:
    """Return an RGBA sprite of a board code (``R5``, ``J=R5``) or a bare joker ``J``. Cached."""
    s = SUPERSAMPLE
    joker = is_joker(code)
    if joker:  # a joker keeps its violet face in the last move too; an outline marks it fresh
        tile_face, edge = inks.joker_face, inks.fresh_edge if fresh else inks.joker_edge
    elif fresh:
        tile_face, edge = inks.fresh_face, inks.fresh_edge
    else:
        tile_face, edge = inks.face, inks.edge
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    radius = max(3, size // 8) * s
    draw.rounded_rectangle((0, 0, size * s - 1, size * s - 1), radius=radius, fill=edge)
    depth = max(2, size // 16) * s
    draw.rounded_rectangle(
        (0, 0, size * s - 1, size * s - 1 - depth),
        radius=radius,
        fill=tile_face,
        outline=edge if joker and fresh else None,
        width=max(2, size // 20) * s,
    )
    body = size - depth // s
    shown = face(code) if code != "J" else ""
    if shown:
        ink = inks.ink(shown)
        _mark(draw, colour(shown), size * s / 2, body * s * 0.80, size * s * 0.09, ink)
    sprite = big.resize((size, size), Image.Resampling.LANCZOS)
    draw = ImageDraw.Draw(sprite)
    corner = max(8, round(size * 0.22))
    if joker and shown:
        draw_star(sprite, (size * 0.2, body * 0.8), max(4, round(size * 0.13)), fill=inks.joker)
    if joker:
        draw.text((size * 0.08, body * 0.04), "J", font=font(corner, bold=True), fill=inks.joker)
        if not shown:
            draw_star(sprite, (size / 2, body * 0.55), round(size * 0.32), fill=inks.joker)
    if shown:
        ink = inks.ink(shown)
        value = str(number(shown))
        digits = round(size * (0.42 if len(value) == 2 else 0.52))
        draw.text(
            (size / 2, body * 0.46), value, font=font(digits, bold=True), fill=ink, anchor="mm"
        )
        if not joker:
            letter = font(corner, bold=True)
            draw.text((size * 0.08, body * 0.04), colour(shown), font=letter, fill=ink)
    if locked:
        _padlock(draw, size * 0.95, size * 0.02, max(6.0, size * 0.2), inks.lock)
    return sprite


# --- the board ---------------------------------------------------------------------------------


def _cell(name: str) -> int:
    anchor = parse_anchor(name)
    return anchor.row * SIZE + anchor.col


def _result(outcome: Outcome, names: Sequence[str]) -> str:
    how = {
        "out": "laid the last tile",
        "full": "opponent's inventory full",
        "blocked": "bag empty, both passed",
        "resign": "opponent resigned",
        "timeout": "opponent ran out of time",
    }.get(outcome.reason, outcome.reason)
    if not outcome.winners:
        return f"game over: a draw ({how})"
    return f"game over: {names[outcome.winners[0]]} wins ({how})"


def _status(view: Mapping[str, Any], state: NumfeudState, names: Sequence[str]) -> str:
    outcome = state.outcome
    if outcome is not None:
        return f"Numfeud · {_result(outcome, names)}"
    bag = view["bag"]
    bagged = f"{plural(bag, 'tile')} in the bag" if bag else "the bag is empty"
    parts = ["Numfeud", f"turn {view['turn'] + 1}", bagged]
    if state.history:
        last = state.history[-1]
        parts.append(f"last: {names[last.seat]} {last.text}")
    elif not view["board"]:
        parts.append("first play covers H8")
    return " · ".join(parts)


def _badges(
    view: Mapping[str, Any], state: NumfeudState, names: Sequence[str], viewer: int | None
) -> list[PlayerBadge]:
    badges = []
    outcome = state.outcome
    last_seat = state.history[-1].seat if state.history else None
    for seat, name in enumerate(names):
        # In Rummikub's order: "you · to move · 12 tiles", "you · winner · went out · 0 tiles".
        bits = ["you"] if seat == viewer else []
        active = outcome is None and view["to_move"] == seat
        won = outcome is not None and seat in outcome.winners
        if active:
            bits.append("to move")
        if outcome is not None:  # as every game's panels say it: "winner · went out"
            ended = ended_caption(outcome.reason, seat, last_seat)
            bits += [c for c in (win_caption(outcome.winners, seat), ended) if c]
        bits.append(plural(int(view["rack_sizes"][seat]), "tile"))
        badges.append(
            PlayerBadge(name, view["scores"][seat], " · ".join(bits), active=active, winner=won)
        )
    return badges


def render_board(
    state: NumfeudState,
    *,
    names: Sequence[str],
    viewer: int | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT,
) -> bytes:
    """Return the PNG of the board for a group chat: tiles, locks, scores, never an inventory.

    Raises:
        ValueError: if `names` does not have one name per seat.
    """
    if len(names) != state.players:
        raise ValueError(f"need {state.players} names, got {len(names)}")
    names = player_names(names)
    view = state.view(None)
    top = header_height(theme, state.players)
    pad, gutter = theme.padding, theme.gutter
    cell = (theme.width - 2 * pad - gutter) // SIZE
    grid = Grid(pad + gutter, top + gutter, cell, SIZE, SIZE)
    image = new_canvas(theme.width, grid.bottom + pad, theme)
    draw_header(image, _badges(view, state, names, viewer), _status(view, state, names), theme)
    draw = ImageDraw.Draw(image)
    rounded_box(
        image,
        (grid.left - 4, grid.top - 4, grid.right + 4, grid.bottom + 4),
        radius=theme.radius,
        fill=theme.board_frame,
    )
    inset = theme.cell_gap
    for row in range(SIZE):
        for col in range(SIZE):
            fill = NUMFEUD_INKS.centre if row * SIZE + col == CENTRE else theme.cell
            rounded_box(image, grid.box(row, col, inset=inset), radius=4, fill=fill)
    centre_row, centre_col = divmod(CENTRE, SIZE)
    draw_star(image, grid.centre(centre_row, centre_col), cell // 4, fill=theme.star)
    draw_coordinates(draw, grid, theme)
    locked = {_cell(name) for name in view["locked"]}
    fresh = set(state.history[-1].cells) if last_move and state.history else set()
    tile_size = cell - 2 * inset
    for name, code in view["board"].items():
        c = _cell(name)
        sprite = numfeud_tile(code, tile_size, locked=c in locked, fresh=c in fresh)
        left, upper, _, _ = grid.box(*divmod(c, SIZE), inset=inset)
        image.paste(sprite, (left, upper), sprite)
    return to_png(image)


# --- the inventory -----------------------------------------------------------------------------

RACK_TILE = 76
RACK_GAP = 8
RACK_PER_ROW = 10


def render_rack(state: NumfeudState, seat: int, *, name: str, theme: Theme = DEFAULT) -> bytes:
    """Return the PNG of `seat`'s private inventory (for that player only).

    Raises:
        ValueError: if `seat` is not a seat of the game.
    """
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    name = player_name(name, seat)
    tiles = state.rack(seat)
    rows = max(1, -(-len(tiles) // RACK_PER_ROW))
    pad = theme.padding
    title_h = 44
    height = pad + title_h + rows * (RACK_TILE + RACK_GAP) + pad
    image = new_canvas(theme.width, height, theme)
    draw = ImageDraw.Draw(image)
    title = _rack_title(name, len(tiles), SWAP_LIMIT - state.swapped[seat], theme.width - 2 * pad)
    text(draw, (pad, pad + title_h / 2), title, size=24, fill=theme.text, bold=True, anchor="lm")
    row_width = RACK_PER_ROW * RACK_TILE + (RACK_PER_ROW - 1) * RACK_GAP
    left0 = (theme.width - row_width) // 2
    for i, tile in enumerate(tiles):
        row, col = divmod(i, RACK_PER_ROW)
        sprite = numfeud_tile(tile, RACK_TILE)
        x = left0 + col * (RACK_TILE + RACK_GAP)
        y = pad + title_h + row * (RACK_TILE + RACK_GAP)
        image.paste(sprite, (x, y), sprite)
    if not tiles:
        text(
            draw,
            (theme.width / 2, pad + title_h + RACK_TILE / 2),
            "No tiles.",
            size=22,
            fill=theme.text_muted,
        )
    return to_png(image)
