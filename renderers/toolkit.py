"""Shared drawing primitives for every game's images (python-chess's `chess.svg` in Pillow).

A frozen `Theme` names every colour and size; the primitives (fonts, centred text, rounded boxes,
tiles, grids with coordinates, the players' header strip) take it explicitly, so a renderer is a
pure function of its inputs. Output is deterministic: the shipped font, Pillow's basic text layout
(no system shaping library) for every line without right-to-left letters, fixed PNG settings and
no metadata, so the same input gives the same bytes — except for letters the shipped font lacks
(a Chinese name), which are drawn in the machine's CJK font where it has one (`_fallbacks`).

Every player name drawn goes through `player_name` (or `player_names`): it keeps what the font can
draw, stands in "player 2" when nothing can be, and marks the name so that `fit_text` shortens the
name, not the words around it, when a line is too wide.
"""

from __future__ import annotations

import functools
import importlib.resources
import io
import math
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont, features

from bot.core import words
from bot.core.words import FSI, PDI, has_rtl

__all__ = [
    "DEFAULT",
    "ENDED_BY",
    "Grid",
    "PlayerBadge",
    "Theme",
    "draw_coordinates",
    "draw_header",
    "draw_star",
    "ended_caption",
    "fit_text",
    "font",
    "header_height",
    "new_canvas",
    "player_name",
    "player_names",
    "printable",
    "rounded_box",
    "signed",
    "text",
    "text_width",
    "tile_sprite",
    "to_png",
    "told_apart",
    "win_caption",
    "wrap_parts",
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
    l2: str = "#3a78ae"
    l3: str = "#278265"
    w2: str = "#aa6327"
    w3: str = "#c2413b"
    start: str = "#7a5bb5"
    star: str = "#ffffff"
    # tiles
    tile: str = "#f3e3bd"
    tile_edge: str = "#c9b27f"
    tile_text: str = "#2b2118"
    blank_tile: str = "#d5dbe6"
    blank_edge: str = "#a6afc0"
    blank_text: str = "#515b74"
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
def font(size: int, *, bold: bool = False, rtl: bool = False) -> ImageFont.FreeTypeFont:
    """Return the shipped DejaVu Sans at `size` pixels, loaded on first use and cached.

    The layout is Pillow's BASIC one (the same glyph positions on every machine, whether or not
    libraqm is there), except with `rtl` when libraqm is available: RAQM then orders right-to-left
    runs and joins Arabic letters. `rtl` without libraqm gives the BASIC font.
    """
    layout = ImageFont.Layout.RAQM if rtl and raqm_available() else ImageFont.Layout.BASIC
    return ImageFont.truetype(io.BytesIO(_font_bytes(bold)), size, layout_engine=layout)


@functools.cache
def raqm_available() -> bool:
    """Tell whether Pillow can shape text with libraqm (bidi ordering, Arabic joining)."""
    return bool(features.check("raqm"))


# Fonts of the machine that draw what DejaVu lacks (Chinese, Japanese, Korean names; Hindi,
# Bengali, Tamil and Thai ones), each as its regular and bold file, tried in this order; every
# one found is used. Debian and Ubuntu: `apt install fonts-noto-cjk fonts-noto-core` (or
# fonts-wqy-zenhei, fonts-freefont-ttf); macOS and Windows have them.
SYSTEM_FALLBACK_FONTS = (
    (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    ),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", ""),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", ""),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", ""),
    ("/System/Library/Fonts/Hiragino Sans GB.ttc", ""),
    ("/System/Library/Fonts/AppleSDGothicNeo.ttc", ""),
    ("C:\\Windows\\Fonts\\msyh.ttc", "C:\\Windows\\Fonts\\msyhbd.ttc"),
    ("C:\\Windows\\Fonts\\malgun.ttf", "C:\\Windows\\Fonts\\malgunbd.ttf"),
    *(
        (
            f"/usr/share/fonts/truetype/noto/NotoSans{script}-Regular.ttf",
            f"/usr/share/fonts/truetype/noto/NotoSans{script}-Bold.ttf",
        )
        for script in ("Devanagari", "Bengali", "Tamil", "Thai")
    ),
    (
        "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
    ),
    ("C:\\Windows\\Fonts\\Nirmala.ttf", "C:\\Windows\\Fonts\\NirmalaB.ttf"),
    ("C:\\Windows\\Fonts\\tahoma.ttf", "C:\\Windows\\Fonts\\tahomabd.ttf"),
)
# Set, it names the fallback font files instead (separated by os.pathsep; empty: none at all).
FALLBACK_FONTS_ENV = "FEUDBOT_FALLBACK_FONTS"
_chosen_fallbacks: tuple[str, ...] | None = None  # `use_fallback_fonts`; None: look them up


def use_fallback_fonts(paths: Sequence[str] | None) -> None:
    """Draw what DejaVu lacks with the font files `paths` (None: the environment's or system's)."""
    global _chosen_fallbacks  # one process-wide font setting, as Pillow's own are
    _chosen_fallbacks = None if paths is None else tuple(paths)
    for cached in (_fallbacks, _fallback_face, _face_of, _bitmap, _inked):
        cached.cache_clear()


@functools.cache
def _fallbacks() -> tuple[tuple[str, str], ...]:
    """Return the fallback fonts found, each as (regular file, bold file)."""
    if _chosen_fallbacks is not None:
        chosen = [(path, path) for path in _chosen_fallbacks]
    elif (configured := os.environ.get(FALLBACK_FONTS_ENV)) is not None:
        chosen = [(path, path) for path in configured.split(os.pathsep) if path]
    else:
        chosen = [(regular, bold or regular) for regular, bold in SYSTEM_FALLBACK_FONTS]
    found = []
    for regular, bold in chosen:
        if _readable_font(regular):
            found.append((regular, bold if _readable_font(bold) else regular))
    return tuple(found)


def _readable_font(path: str) -> bool:
    """Tell whether `path` is a font file Pillow reads (a missing or broken one is passed over)."""
    try:
        ImageFont.truetype(path, 12)
    except OSError:
        return False
    return True


@functools.cache
def _fallback_face(index: int, size: int, bold: bool, rtl: bool) -> ImageFont.FreeTypeFont:
    """Return fallback font `index` (from 1; 0 is DejaVu) at `size` pixels."""
    if index == 0:
        return font(size, bold=bold, rtl=rtl)
    layout = ImageFont.Layout.RAQM if rtl and raqm_available() else ImageFont.Layout.BASIC
    return ImageFont.truetype(_fallbacks()[index - 1][bold], size, layout_engine=layout)


@functools.lru_cache(maxsize=8192)
def _face_of(char: str) -> int | None:
    """Return which font draws `char`: 0 DejaVu, k the k-th fallback font, None none of them."""
    for index in range(1 + len(_fallbacks())):
        if _bitmap(char, index) != _bitmap(_MISSING, index):
            return index
    return None


def _runs(content: str) -> list[tuple[int, str]]:
    """Split `content` into runs drawn by one font each (DejaVu draws all it can, spaces too)."""
    runs: list[tuple[int, str]] = []
    for char in content:
        index = _face_of(char) or 0  # none: DejaVu's box (`printable` drops such)
        if runs and runs[-1][0] == index:
            runs[-1] = (index, runs[-1][1] + char)
        else:
            runs.append((index, char))
    return runs


def _font_for(content: str, size: int, bold: bool, index: int = 0) -> ImageFont.FreeTypeFont:
    """Return the font to draw `content` with: RAQM (if available) to shape it, else BASIC.

    RAQM lays out right-to-left text and every run of a fallback font: the scripts those draw
    need shaping — a Devanagari vowel sign "ि" is drawn before its consonant ("कि"), Thai
    marks stack. DejaVu's own left-to-right runs keep BASIC, so Latin images never change.
    """
    return _fallback_face(index, size, bold, index > 0 or has_rtl(content))


# A player's name inside a line is wrapped in these two control characters (which no name keeps:
# `printable` drops control characters), so that `fit_text` can shorten the name, not the line.
NAME_OPEN, NAME_CLOSE = "\x0e", "\x0f"
# A name is cut to this many (drawable) characters before any image is drawn, which bounds the
# work of `fit_text`; that then shortens it to the pixels a line has room for.
NAME_CHARS = 40
NAME_MIN = 10  # a name is not shortened below this many letters before the line's end is cut


def _unmark(content: str) -> str:
    return content.replace(NAME_OPEN, "").replace(NAME_CLOSE, "")


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
    """Draw `content` at `xy`, centred on it by default (Pillow anchor ``"mm"``).

    What DejaVu cannot draw (a Chinese name) is drawn in a fallback font, run by run.
    """
    content = _unmark(content)
    runs = _runs(content)
    if len(runs) <= 1:
        _draw_run(draw, xy, content, size, bold, runs[0][0] if runs else 0, fill, anchor)
        return
    widths = [_run_width(run, size, bold, index) for index, run in runs]
    x = xy[0] - sum(widths) * {"m": 0.5, "r": 1.0}.get(anchor[0], 0.0)
    for (index, run), width in zip(runs, widths, strict=True):
        _draw_run(draw, (x, xy[1]), run, size, bold, index, fill, "l" + anchor[1])
        x += width


def _draw_run(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    size: int,
    bold: bool,
    index: int,
    fill: str,
    anchor: str,
) -> None:
    face = _font_for(content, size, bold, index)
    if face.layout_engine == ImageFont.Layout.RAQM:
        # An English line with a Hebrew or Arabic name in it: the line reads left to right.
        draw.text(xy, content, font=face, fill=fill, anchor=anchor, direction="ltr")
    else:
        draw.text(xy, content, font=face, fill=fill, anchor=anchor)


def text_width(content: str, *, size: int, bold: bool = False) -> float:
    """Return the advance width of `content` in pixels."""
    return sum(_run_width(run, size, bold, index) for index, run in _runs(_unmark(content)))


def _run_width(content: str, size: int, bold: bool, index: int) -> float:
    face = _font_for(content, size, bold, index)
    if face.layout_engine == ImageFont.Layout.RAQM:
        return face.getlength(content, direction="ltr")
    return face.getlength(content)


def _has_glyph(char: str) -> bool:
    """Tell whether a font draws `char` (the shipped one, else a fallback; not a "missing" box)."""
    return _face_of(char) is not None


@functools.lru_cache(maxsize=8192)
def _bitmap(char: str, index: int = 0) -> bytes:
    """Return the pixels of `char` drawn in the bold face of font `index` at 24 px."""
    canvas = Image.new("L", (48, 48), 0)
    face = _fallback_face(index, 24, True, False)
    ImageDraw.Draw(canvas).text((8, 8), char, font=face, fill=255)
    return canvas.tobytes()


_MISSING = "\ue000"  # a private-use code point: DejaVu draws its missing-glyph box for it


# Marks that turn the text around (LRM, RLM, ALM, embeddings, overrides, isolates): a name's
# "\u202e" would reverse the rest of a line laid out by RAQM. `fit_text` isolates names itself.
_JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner, joiner
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def printable(content: str) -> str:
    """Return `content` in NFC without what the font lacks (emoji, CJK), controls or space runs.

    What draws nothing at all (a name of Braille blanks "⠀⠀" or zero-width spaces) comes back
    empty, so that a name is never drawn as a blank: `player_name` puts its seat instead.
    """
    content = unicodedata.normalize("NFC", content)
    kept = [
        ch
        for ch in content
        if ch.isspace()
        or (unicodedata.category(ch) != "Cc" and ch not in _BIDI_CONTROLS and _has_glyph(ch))
    ]
    shown = "".join(_blank_or_kept(kept, i) for i in range(len(kept)))
    return " ".join(shown.split()) if any(map(_inked, shown)) else ""


def _blank_or_kept(chars: Sequence[str], i: int) -> str:
    """Return `chars[i]` if it draws something, else "" (zero-width) or " " (a blank letter).

    What is left of an emoji ("Ana 👩🏽‍💻" keeps its joiner, "Ana ❤️" its variation selector)
    draws nothing, yet would tell "Ana" from "Ana": only a joiner between two letters stays,
    where it shapes them (a Persian name's ZWNJ). A blank letter ("⠀", a Braille blank) is a
    space to the eye.
    """
    ch = chars[i]
    if ch.isspace() or _inked(ch):
        return ch
    if ch in _JOINERS and 0 < i < len(chars) - 1 and _inked(chars[i - 1]) and _inked(chars[i + 1]):
        return ch
    return "" if unicodedata.category(ch) in ("Cf", "Mn", "Me") else " "


@functools.lru_cache(maxsize=8192)
def _inked(char: str) -> bool:
    """Tell whether `char` draws something (not a space, a blank or a zero-width character)."""
    index = _face_of(char)
    return index is not None and any(_bitmap(char, index))


def player_name(name: str, seat: int | None = None, *, fallback: str = "") -> str:
    """Return a player's name as every image draws it: drawable, never empty, marked.

    Characters no font can draw (emoji; CJK without a CJK font on the machine) are dropped, the
    rest kept; a name with nothing drawable becomes "player 2" (its seat counted from 1), or
    `fallback`, so two such players still differ. The name is cut to `NAME_CHARS` characters with
    one ellipsis, and marked so that `fit_text` shortens it (not the words around it) when the
    line it is in is too wide. Applying it twice changes nothing.
    """
    shown = printable(_unmark(name))
    if not shown:
        shown = fallback or ("a player" if seat is None else f"player {seat + 1}")
    if len(shown) > NAME_CHARS:
        shown = shown[: NAME_CHARS - 1].rstrip(" …") + "…"
    return NAME_OPEN + shown + NAME_CLOSE


def player_names(names: Sequence[object]) -> list[str]:
    """Return `player_name` of each seat's name (seat k's placeholder is "player k+1").

    Two names that differ only in what the font cannot draw ("bob🎲", "bob🎉") are told apart
    (`told_apart`), as the chat tells identical names apart.
    """
    return told_apart([player_name(str(name), seat) for seat, name in enumerate(names)])


def signed(score: int) -> str:
    """Return a score as every image prints it: a true minus sign ("−8"), not a hyphen."""
    return f"{score}".replace("-", "−")


def win_caption(winners: Sequence[int], seat: int) -> str:
    """Return a seat's badge caption for the result: "winner", "shared win" (a tie) or ""."""
    if seat not in winners:
        return ""
    return "winner" if len(winners) == 1 else "shared win"


# What the player whose move ended the game did, as its panel says it in every game's header.
ENDED_BY = {"out": "went out", "resign": "resigned", "timeout": "timed out"}


def ended_caption(reason: str | None, seat: int, last_seat: int | None) -> str:
    """Return "went out", "resigned" or "timed out" for the seat whose move ended the game, else "".

    Args:
        reason: the finished game's ``Outcome.reason`` (None: the game goes on).
        seat: the panel's seat.
        last_seat: the seat of the game's last move record (the one that ended it).
    """
    if reason is None or seat != last_seat:
        return ""
    return ENDED_BY.get(reason, "")


def told_apart(shown: Sequence[str]) -> list[str]:
    """Return drawn names (`player_name`'s) with a repeat numbered: "bob", "bob-2".

    The chat's names are unique, but dropping undrawable characters (emoji, CJK) can make two
    of them one ("山田 Ken" and "田中 Ken" both "Ken"). Names are compared as drawn, and letter
    case does not tell them apart, as in the chat; a number never makes another's name, and a
    numbered name is cut to `NAME_CHARS` with its number (`bot.core.words.told_apart`).
    Applying it twice changes nothing.
    """
    return words.told_apart(
        shown, key=lambda name: _unmark(name).casefold(), numbered=_numbered_name
    )


def _numbered_name(name: str, n: int) -> str:
    """Return a drawn name with its number ("bob-2"), cut so that the number still shows."""
    plain, suffix = _unmark(name), f"-{n}"
    room = NAME_CHARS - len(suffix)
    base = plain if len(plain) <= room else plain[: room - 1].rstrip(" …") + "…"
    return player_name(base + suffix)


def _cut(content: str, max_width: float, *, size: int, bold: bool) -> str:
    """Return `content` cut to fit `max_width` with one ellipsis (at least its first letter)."""
    content = content.rstrip(" …")
    while len(content) > 1 and text_width(content + "…", size=size, bold=bold) > max_width:
        content = content[:-1].rstrip(" …")
    return content + "…"


def fit_text(
    content: str, *, size: int, max_width: float, bold: bool = False, name_min: int = 1
) -> str:
    """Return `content`, shortened with one ellipsis if it is wider than `max_width`.

    Players' names in it (marked by `player_name`) are shortened first, the widest first, down
    to `name_min` letters and an ellipsis each; only if that is not enough is the end of the
    line cut. A line whose end matters most ("… wins!", a score) keeps the default of one
    letter; a status line passes `NAME_MIN`, so who moved stays readable ("bot-medium" whole)
    and the move's notation is cut instead. The result has no name marks.
    """
    parts = content.replace(NAME_CLOSE, NAME_OPEN).split(NAME_OPEN)
    # Even parts are the line's own words, odd parts are names.
    parts = [printable(part) if k % 2 else _clean_words(part) for k, part in enumerate(parts)]
    if len(parts) == 1 and not parts[0] and content.strip():
        return "?"  # emoji only: still show that something is there
    width = sum(text_width(part, size=size, bold=bold) for part in parts)
    names = {k: parts[k] for k in range(1, len(parts), 2)}
    while width > max_width + 0.01:
        # The widest name still longer than a letter and an ellipsis.
        shrinkable = [k for k, name in names.items() if len(name.rstrip("…")) > name_min]
        if not shrinkable:
            break
        k = max(shrinkable, key=lambda k: (text_width(parts[k], size=size, bold=bold), -k))
        before = text_width(parts[k], size=size, bold=bold)
        parts[k] = names[k] = names[k].rstrip("…")[:-1].rstrip() + "…"
        width += text_width(parts[k], size=size, bold=bold) - before
    for k in names:
        if has_rtl(parts[k]) and raqm_available():
            # A bidi isolate: "דוד · 8H QUIZ" must not pull the 8 into the Hebrew run.
            parts[k] = FSI + parts[k] + PDI
    line = "".join(parts)
    if text_width(line, size=size, bold=bold) <= max_width:
        return line
    return _cut(line, max_width, size=size, bold=bold)


def wrap_parts(
    parts: Sequence[str], *, size: int, max_width: float, bold: bool = False, sep: str = " · "
) -> list[str]:
    """Join `parts` with `sep` into as few lines as fit `max_width`, breaking only between parts.

    A part wider than a line on its own is shortened with `fit_text`.
    """
    lines: list[str] = []
    for part in parts:
        joined = lines[-1] + sep + part if lines else part
        if lines and text_width(joined, size=size, bold=bold) <= max_width:
            lines[-1] = joined
        else:
            lines.append(part)
    return [fit_text(line, size=size, max_width=max_width, bold=bold) for line in lines]


def _clean_words(content: str) -> str:
    """Return a line's own words without what the font cannot draw, keeping edge spaces."""
    cleaned = printable(content)
    if not cleaned:
        return " " if content and content.isspace() else ""
    lead = " " if content[:1].isspace() else ""
    trail = " " if content[-1:].isspace() else ""
    return lead + cleaned + trail


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
    score = signed(player.score)
    text(draw, (x1 - 18, middle), score, size=40, fill=theme.text, bold=True, anchor="rm")
    room = (x1 - x0) - 24 - 18 - text_width(score, size=40, bold=True) - 14
    name = fit_text(player.name, size=26, max_width=room, bold=True)
    # A caption too wide for its line ("drafting · 10 tiles · not opened") is drawn smaller,
    # and if that is not enough, on two lines; it is cut only if two lines are not enough.
    caption = player.caption.upper()
    size = 17 if text_width(caption, size=17, bold=True) <= room else 15
    captions = wrap_parts(caption.split(" · "), size=size, max_width=room, bold=True)
    captions = captions if caption else []
    name_y = middle - (12 if len(captions) == 1 else 19 if captions else 0)
    text(draw, (x0 + 24, name_y), name, size=26, fill=theme.text, bold=True, anchor="lm")
    colour = theme.gold if player.winner else theme.accent if player.active else theme.text_muted
    for k, line in enumerate(captions[:2]):
        line = fit_text(line, size=size, max_width=room, bold=True)
        y = middle + (18 if len(captions) == 1 else 6 + 18 * k)
        text(draw, (x0 + 24, y), line, size=size, fill=colour, bold=True, anchor="lm")


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
    # A status line too wide ("last: bot-medium ran out of time and drew 3 tiles; the draft
    # went back") is drawn smaller, as a panel's caption is, and cut only if that is not enough.
    room = image.width - 2 * pad
    whole = fit_text(status, size=19, max_width=math.inf)
    size = next((s for s in (19, 17) if text_width(whole, size=s) <= room), 15)
    line = fit_text(status, size=size, max_width=room, name_min=NAME_MIN)
    draw = ImageDraw.Draw(image)
    text(
        draw,
        (image.width / 2, bottom - STATUS_HEIGHT / 2 + 2),
        line,
        size=size,
        fill=theme.text_muted,
    )
    return bottom
