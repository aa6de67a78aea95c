"""Shared drawing primitives for every game's images (python-chess's `chess.svg` in Pillow).

A frozen `Theme` names every colour and size; the primitives (fonts, centred text, rounded boxes,
tiles, grids with coordinates, the players' header strip) take it explicitly, so a renderer is a
pure function of its inputs. Output is deterministic: the shipped font, Pillow's basic text layout
(no system shaping library), fixed PNG settings and no metadata, so the same input gives the same
bytes.
"""

from __future__ import annotations

import functools
import importlib.resources
import io
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "DEFAULT",
    "Grid",
    "PlayerBadge",
    "Theme",
    "draw_coordinates",
    "draw_header",
    "draw_star",
    "fit_text",
    "font",
    "header_height",
    "new_canvas",
    "printable",
    "rounded_box",
    "text",
    "text_width",
    "tile_sprite",
    "to_png",
]

# Rounded shapes are drawn this many times larger, then shrunk: cheap anti-aliasing, cached.
SUPERSAMPLE = 4


@dataclass(frozen=True, slots=True)
class Theme:
    """Named colours (``#rrggbb``) and sizes shared by every image."""

    # page
    background: str = "#1e2430"
    panel: str = "#2a3140"
    panel_active: str = "#33405a"
    text: str = "#f2f4f8"
    text_muted: str = "#a3acbd"
    accent: str = "#4fc3f7"
    gold: str = "#f5c542"
    separator: str = "#465066"
    # board
    board_frame: str = "#151a23"
    cell: str = "#323a4b"
    coordinate: str = "#8d97ab"
    premium_text: str = "#ffffff"
    l2: str = "#3d7fb8"
    l3: str = "#2f9e7a"
    w2: str = "#d07b34"
    w3: str = "#c2413b"
    start: str = "#7a5bb5"
    star: str = "#ffffff"
    # tiles
    tile: str = "#f3e3bd"
    tile_edge: str = "#c9b27f"
    tile_text: str = "#2b2118"
    blank_tile: str = "#d5dbe6"
    blank_edge: str = "#a6afc0"
    blank_text: str = "#55607a"
    last_tile: str = "#ffd35c"
    last_edge: str = "#d9a521"
    last_blank_tile: str = "#b6d8ff"
    last_blank_edge: str = "#7fa9d9"
    # sizes (pixels)
    width: int = 900
    padding: int = 20
    gutter: int = 26
    cell_gap: int = 2
    radius: int = 6
    panel_radius: int = 12


DEFAULT = Theme()


# --- fonts and text ----------------------------------------------------------------------------

_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@functools.cache
def _font_bytes(bold: bool) -> bytes:
    """Read a shipped font file once (works from a wheel or a zip too)."""
    resource = importlib.resources.files("renderers") / "fonts" / _FONT_FILES[bold]
    return resource.read_bytes()


@functools.cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return the shipped DejaVu Sans at `size` pixels, loaded on first use and cached."""
    # BASIC layout: the same glyph positions on every machine, whether or not libraqm is there.
    return ImageFont.truetype(
        io.BytesIO(_font_bytes(bold)), size, layout_engine=ImageFont.Layout.BASIC
    )


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    *,
    size: int,
    fill: str,
    bold: bool = False,
    anchor: str = "mm",
) -> None:
    """Draw `content` at `xy`, centred on it by default (Pillow anchor ``"mm"``)."""
    draw.text(xy, content, font=font(size, bold=bold), fill=fill, anchor=anchor)


def text_width(content: str, *, size: int, bold: bool = False) -> float:
    """Return the advance width of `content` in pixels."""
    return font(size, bold=bold).getlength(content)


@functools.lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    """Tell whether the shipped font draws `char` (and not its empty-box "missing" glyph)."""
    return _bitmap(char) != _bitmap(_MISSING)


@functools.lru_cache(maxsize=4096)
def _bitmap(char: str) -> bytes:
    """Return the pixels of `char` drawn in the bold face at 24 px."""
    canvas = Image.new("L", (48, 48), 0)
    ImageDraw.Draw(canvas).text((8, 8), char, font=font(24, bold=True), fill=255)
    return canvas.tobytes()


_MISSING = "\ue000"  # a private-use code point: DejaVu draws its missing-glyph box for it


def printable(content: str) -> str:
    """Return `content` in NFC, without characters the font lacks (emoji) or runs of spaces."""
    content = unicodedata.normalize("NFC", content)
    kept = "".join(ch for ch in content if ch.isspace() or _has_glyph(ch))
    return " ".join(kept.split())


def fit_text(content: str, *, size: int, max_width: float, bold: bool = False) -> str:
    """Return `content`, shortened with an ellipsis if it is wider than `max_width`."""
    cleaned = printable(content)
    if not cleaned and content.strip():
        cleaned = "?"  # a name of emoji only: still show that somebody is there
    content = cleaned
    if text_width(content, size=size, bold=bold) <= max_width:
        return content
    while content and text_width(content + "…", size=size, bold=bold) > max_width:
        content = content[:-1]
    return content.rstrip() + "…"


# --- canvas and output -------------------------------------------------------------------------


def new_canvas(width: int, height: int, theme: Theme) -> Image.Image:
    """Return an RGB image filled with the theme's background."""
    return Image.new("RGB", (width, height), theme.background)


def to_png(image: Image.Image) -> bytes:
    """Encode `image` as a 256-colour PNG with fixed settings and no metadata.

    The images are flat theme colours plus anti-aliased edges, so a palette of 256 loses nothing
    visible, while it makes the file about 2.5 times smaller and faster to encode than RGB.
    Same image, same bytes: the quantizer is deterministic and no dithering is used.
    """
    palette = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()


@functools.lru_cache(maxsize=256)
def _rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """Return an anti-aliased alpha mask of a rounded rectangle."""
    s = SUPERSAMPLE
    big = Image.new("L", (width * s, height * s), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * s - 1, height * s - 1), radius=radius * s, fill=255
    )
    return big.resize((width, height), Image.Resampling.LANCZOS)


def rounded_box(
    image: Image.Image, box: tuple[int, int, int, int], *, radius: int, fill: str
) -> None:
    """Paint an anti-aliased rounded rectangle; `box` is (left, top, right, bottom), exclusive."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    if width <= 0 or height <= 0:
        return
    mask = _rounded_mask(width, height, min(radius, width // 2, height // 2))
    image.paste(fill, (left, top, right, bottom), mask)


@functools.lru_cache(maxsize=32)
def _star_mask(radius: int) -> Image.Image:
    """Return an anti-aliased alpha mask of a five-pointed star, 2 * `radius` px wide."""
    s = SUPERSAMPLE
    side = 2 * radius * s
    big = Image.new("L", (side, side), 0)
    points = []
    for k in range(10):
        r = radius * s * (1.0 if k % 2 == 0 else 0.45)
        angle = -math.pi / 2 + k * math.pi / 5
        # The points sit a little low so the star looks centred (its top point is the highest).
        drop = s * radius * 0.1
        points.append((side / 2 + r * math.cos(angle), side / 2 + r * math.sin(angle) + drop))
    ImageDraw.Draw(big).polygon(points, fill=255)
    return big.resize((2 * radius, 2 * radius), Image.Resampling.LANCZOS)


def draw_star(image: Image.Image, centre: tuple[float, float], radius: int, *, fill: str) -> None:
    """Paint an anti-aliased five-pointed star (a polygon: no font glyph needed)."""
    x, y = round(centre[0] - radius), round(centre[1] - radius)
    image.paste(fill, (x, y, x + 2 * radius, y + 2 * radius), _star_mask(radius))


# --- tiles -------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def tile_sprite(
    label: str,
    value: int | None,
    size: int,
    *,
    face: str,
    edge: str,
    ink: str,
    radius: int,
) -> Image.Image:
    """Return an RGBA tile of `size` px: `label` big in the middle, `value` small bottom right.

    The tile has a darker lower edge for depth. `value` None draws no number; an empty `label`
    draws a bare tile (a blank on a rack). Cached: a board reuses a few dozen sprites.
    """
    s = SUPERSAMPLE
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    r = radius * s
    draw.rounded_rectangle((0, 0, size * s - 1, size * s - 1), radius=r, fill=edge)
    depth = max(2, size // 18) * s
    draw.rounded_rectangle((0, 0, size * s - 1, size * s - 1 - depth), radius=r, fill=face)
    tile = big.resize((size, size), Image.Resampling.LANCZOS)

    # Text is drawn at final size: FreeType already anti-aliases and hints it for that size.
    draw = ImageDraw.Draw(tile)
    body = size - depth // s
    wide = value is not None and value >= 10  # "10" needs room: the letter moves left
    if label:
        letter_size = round(size * (0.56 if len(label) == 1 else 0.42))
        x = size * (0.5 if value is None else 0.41 if wide else 0.45)
        draw.text((x, body * 0.5), label, font=font(letter_size, bold=True), fill=ink, anchor="mm")
    if value is not None:
        draw.text(
            (size * 0.92, body * 0.92),
            str(value),
            font=font(max(9, round(size * (0.21 if wide else 0.25))), bold=True),
            fill=ink,
            anchor="rs",
        )
    return tile


# --- grids -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Grid:
    """Where a grid of square cells sits on an image."""

    left: int
    top: int
    cell: int
    rows: int
    cols: int

    @property
    def right(self) -> int:
        """Return the x just past the last column."""
        return self.left + self.cell * self.cols

    @property
    def bottom(self) -> int:
        """Return the y just past the last row."""
        return self.top + self.cell * self.rows

    def box(self, row: int, col: int, *, inset: int = 0) -> tuple[int, int, int, int]:
        """Return the (left, top, right, bottom) of a cell, shrunk by `inset` on each side."""
        x, y = self.left + col * self.cell, self.top + row * self.cell
        return x + inset, y + inset, x + self.cell - inset, y + self.cell - inset

    def centre(self, row: int, col: int) -> tuple[float, float]:
        """Return the centre of a cell."""
        x, y = self.left + col * self.cell, self.top + row * self.cell
        return x + self.cell / 2, y + self.cell / 2


COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def draw_coordinates(draw: ImageDraw.ImageDraw, grid: Grid, theme: Theme) -> None:
    """Label the columns A.. above the grid and the rows 1.. to its left."""
    size = max(12, min(18, round(grid.cell * 0.32)))
    for col in range(grid.cols):
        x = grid.left + col * grid.cell + grid.cell / 2
        text(
            draw,
            (x, grid.top - theme.gutter / 2),
            COLUMN_LETTERS[col],
            size=size,
            fill=theme.coordinate,
            bold=True,
        )
    for row in range(grid.rows):
        y = grid.top + row * grid.cell + grid.cell / 2
        text(
            draw,
            (grid.left - theme.gutter / 2 - 2, y),
            str(row + 1),
            size=size,
            fill=theme.coordinate,
            bold=True,
        )


# --- the players' header -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerBadge:
    """One player's panel in a header: public facts only (never a rack)."""

    name: str
    score: int
    caption: str = ""  # "to move", "you", "winner", …
    active: bool = False  # highlighted: the player to move
    winner: bool = False


PANEL_HEIGHT = 84
PANEL_GAP = 12
STATUS_HEIGHT = 40
HEADER_COLUMNS = 2  # panels per row: three or four players take two rows


def _panel_rows(players: int) -> int:
    return max(1, -(-players // HEADER_COLUMNS))


def header_height(theme: Theme, players: int = 2) -> int:
    """Return the height `draw_header` takes for `players` panels."""
    rows = _panel_rows(players)
    return theme.padding + rows * PANEL_HEIGHT + (rows - 1) * PANEL_GAP + STATUS_HEIGHT


def _draw_panel(
    image: Image.Image, box: tuple[int, int, int, int], player: PlayerBadge, theme: Theme
) -> None:
    """Draw one player's panel: the name (and caption) on the left, the score on the right."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    middle = (y0 + y1) / 2
    highlighted = player.active or player.winner
    rounded_box(
        image,
        box,
        radius=theme.panel_radius,
        fill=theme.panel_active if highlighted else theme.panel,
    )
    if highlighted:
        bar = theme.gold if player.winner else theme.accent
        rounded_box(image, (x0, y0, x0 + 8, y1), radius=4, fill=bar)
    score = str(player.score)
    text(draw, (x1 - 18, middle), score, size=40, fill=theme.text, bold=True, anchor="rm")
    room = (x1 - x0) - 24 - 18 - text_width(score, size=40, bold=True) - 14
    name = fit_text(player.name, size=26, max_width=room, bold=True)
    name_y = middle - 12 if player.caption else middle
    text(draw, (x0 + 24, name_y), name, size=26, fill=theme.text, bold=True, anchor="lm")
    if player.caption:
        colour = (
            theme.gold if player.winner else theme.accent if player.active else theme.text_muted
        )
        caption = fit_text(player.caption.upper(), size=17, max_width=room, bold=True)
        text(draw, (x0 + 24, middle + 18), caption, size=17, fill=colour, bold=True, anchor="lm")


def draw_header(
    image: Image.Image,
    players: Sequence[PlayerBadge],
    status: str,
    theme: Theme,
    *,
    top: int = 0,
) -> int:
    """Draw one panel per player (name, score, caption) and a status line; return the bottom y.

    Panels go two to a row. The panel of the player to move gets an accent bar; a winner's gets
    a gold one.
    """
    pad = theme.padding
    columns = min(HEADER_COLUMNS, max(1, len(players)))
    panel_width = (image.width - 2 * pad - PANEL_GAP * (columns - 1)) // columns
    for k, player in enumerate(players):
        row, col = divmod(k, columns)
        x0 = pad + col * (panel_width + PANEL_GAP)
        y0 = top + pad + row * (PANEL_HEIGHT + PANEL_GAP)
        _draw_panel(image, (x0, y0, x0 + panel_width, y0 + PANEL_HEIGHT), player, theme)
    bottom = top + header_height(theme, len(players))
    line = fit_text(status, size=19, max_width=image.width - 2 * pad)
    draw = ImageDraw.Draw(image)
    text(
        draw,
        (image.width / 2, bottom - STATUS_HEIGHT / 2 + 2),
        line,
        size=19,
        fill=theme.text_muted,
    )
    return bottom
