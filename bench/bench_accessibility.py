"""Figures for players with low vision or colour-vision deficiency: text size and colour distance.

Run from the repository root::

    python bench/bench_accessibility.py

Prints figures, asserts nothing (the contrast floor is a test: tests/renderers/
test_renderers_contrast.py). Two tables:

- the smallest text each picture draws, in pixels on the 900-pixel image and as a phone shows
  it in a chat (Telegram and Discord scale a picture to about 360–400 pixels wide);
- for each set of colours that tells things apart (tile inks, premium squares, NMBR 9 levels,
  the last move's face), the closest pair in CIELAB (ΔE 1976) seen normally and through the
  Machado et al. (2009) simulation of protanopia, deuteranopia and tritanopia (severity 1).
  Every one of them has a second cue besides colour (a letter, a shape, a label, a badge's
  number, the status line), so a small ΔE there costs speed, not information.
"""

from __future__ import annotations

import io
import itertools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

PHONE_WIDTHS = (360, 400)

# Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
SIMULATIONS = {
    "normal": np.eye(3),
    "protan": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deutan": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritan": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
SRGB_TO_XYZ = np.array(
    [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
)
WHITE = np.array([0.95047, 1.0, 1.08883])


def _linear(colour: str) -> Any:
    c = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lab(linear: Any) -> Any:
    xyz = SRGB_TO_XYZ @ np.clip(linear, 0, 1) / WHITE
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a: str, b: str, simulation: str) -> float:
    """Return the CIELAB distance of two colours as seen through `simulation`."""
    m = SIMULATIONS[simulation]
    return float(np.linalg.norm(_lab(m @ _linear(a)) - _lab(m @ _linear(b))))


def colour_sets() -> dict[str, dict[str, str]]:
    """Return the colours that tell things apart, by set, read from the renderers."""
    from renderers.nmbr9 import LEVEL_SHADES
    from renderers.numfeud import NumfeudInks
    from renderers.numtiles import TileInks
    from renderers.toolkit import DEFAULT
    from renderers.wordgame import game_theme

    rk, nf = TileInks(), NumfeudInks()
    sets = {
        "Rummikub inks": {c: getattr(rk, c) for c in ("black", "blue", "yellow", "red")},
        "Numfeud inks": {c: getattr(nf, c) for c in ("red", "blue", "yellow", "green")},
        "NMBR 9 levels": {f"level {k}": shade for k, shade in enumerate(LEVEL_SHADES)},
        "word tile, last move's": {"tile": DEFAULT.tile, "last": DEFAULT.last_tile},
    }
    for game in ("webfeud", "smartfeud"):
        theme = game_theme(game, DEFAULT)
        fields = ("l2", "l3", "w2", "w3", "start")
        sets[f"{game} premium squares"] = {f: getattr(theme, f) for f in fields}
    return sets


def print_colour_distances() -> None:
    print(f"{'closest pair, ΔE':26}" + "".join(f"{s:>24}" for s in SIMULATIONS))
    for name, colours in colour_sets().items():
        cells = []
        for simulation in SIMULATIONS:
            pairs = itertools.combinations(colours.items(), 2)
            d, a, b = min((delta_e(ca, cb, simulation), a, b) for (a, ca), (b, cb) in pairs)
            cells.append(f"{d:5.1f} {a}/{b}"[:23])
        print(f"{name:26}" + "".join(f"{c:>24}" for c in cells))


def _smallest_text(draw: Callable[[], bytes]) -> tuple[int, str, int]:
    """Return (smallest font size, its text, image width) of one picture, drawn afresh."""
    sizes: list[tuple[int, str]] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> None:
        font = kw.get("font", args[1] if len(args) > 1 else None)
        if font is not None and str(text).strip():
            sizes.append((int(font.size), str(text)[:24]))
        original(self, xy, text, *args, **kw)

    import renderers

    for module in (renderers.toolkit, renderers.wordgame, renderers.numtiles, renderers.numfeud):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()  # sprites drawn before would not be measured
    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        png = draw()
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    size, text = min(sizes)
    return size, text, Image.open(io.BytesIO(png)).size[0]


def pictures() -> list[tuple[str, Callable[[], bytes]]]:
    """Return every kind of picture of a position a few moves into each game."""
    import renderers
    from bot.ai import choose_move
    from bot.games import GAMES

    names: Sequence[str] = ("Alice", "Bob")
    out: list[tuple[str, Callable[[], bytes]]] = []
    for key, gdef in GAMES.items():
        state = gdef.new_game(2, seed=3, options={})
        for n in range(14):
            if state.outcome is not None:
                break
            seat = state.waiting_for()[0]
            state = state.apply(seat, choose_move(state, seat, "medium", n))
        over = state.apply(state.waiting_for()[0], gdef.parse_move("resign"))
        out += [
            (f"{key} board", lambda s=state: renderers.board_png(s, names=names)),
            (f"{key} rack", lambda s=state: renderers.rack_png(s, 0, name="Alice")),
            (f"{key} game over", lambda s=over: renderers.render_game_over(s, names=names)),
        ]
    rows = [renderers.LeaderRow(n, f"Player {n}", 10, 5, 1000 - n) for n in range(1, 11)]
    out.append(("leaderboard", lambda: renderers.render_leaderboard(rows, title="Leaderboard")))
    return out


def print_text_sizes() -> None:
    phones = "".join(f"{f'at {w} px':>10}" for w in PHONE_WIDTHS)
    print(f"{'smallest text':22}{'px':>5}{phones}  text")
    for name, draw in pictures():
        size, text, width = _smallest_text(draw)
        scaled = "".join(f"{size * w / width:10.1f}" for w in PHONE_WIDTHS)
        print(f"{name:22}{size:5}{scaled}  {text!r}")


def main() -> None:
    print_text_sizes()
    print()
    print_colour_distances()


if __name__ == "__main__":
    main()
