"""Text on a coloured ground is readable: WCAG contrast of the colours the renderers draw with.

Each pair is (ink, ground) as the renderer draws it. Text smaller than WCAG's "large" (18.66 px
bold) needs 4.5:1; the images are shown about 0.4 times their size on a phone, so labels that
are large on the 900-pixel image (premium squares, tile corners) are held to 4.5:1 as well. The
big tile numbers of Rummikub and Numfeud are large even there: 3:1.
"""

from __future__ import annotations

from collections import Counter
from io import BytesIO

import pytest
from PIL import Image

from renderers import board_png
from renderers.nmbr9 import BADGE, BADGE_INK, LEVEL_INKS, LEVEL_SHADES
from renderers.numfeud import NumfeudInks
from renderers.numtiles import TileInks
from renderers.toolkit import DEFAULT
from renderers.wordgame import GAME_COLOURS, game_theme

NORMAL, LARGE = 4.5, 3.0


def luminance(colour: str | tuple[int, ...]) -> float:
    """Return the WCAG relative luminance of "#rrggbb" or an (r, g, b) pixel."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)] if isinstance(colour, str) else colour
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str | tuple[int, ...], b: str | tuple[int, ...]) -> float:
    """Return the WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_contrast_formula_matches_wcag():
    assert contrast("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def _premium_pairs() -> list[tuple[str, str, str]]:
    pairs = []
    for game in sorted({"webfeud", "smartfeud", *GAME_COLOURS}):
        theme = game_theme(game, DEFAULT)
        for field in ("l2", "l3", "w2", "w3"):
            pairs.append((f"{game} {field}", theme.premium_text, getattr(theme, field)))
    return pairs


def _word_tile_pairs() -> list[tuple[str, str, str]]:
    t = DEFAULT
    return [
        ("tile letter", t.tile_text, t.tile),
        ("last move's tile", t.tile_text, t.last_tile),
        ("blank", t.blank_text, t.blank_tile),
        ("blank in the last move", t.blank_text, t.last_blank_tile),
    ]


def _page_pairs() -> list[tuple[str, str, str]]:
    t = DEFAULT
    pairs = [(f"muted on {g}", t.text_muted, getattr(t, g)) for g in ("background", "panel")]
    pairs += [("muted on panel_active", t.text_muted, t.panel_active)]
    pairs += [(f"coordinates on {g}", t.coordinate, getattr(t, g)) for g in ("background",)]
    pairs += [(f"accent on {g}", t.accent, getattr(t, g)) for g in ("panel", "panel_active")]
    pairs += [(f"text on {g}", t.text, getattr(t, g)) for g in ("panel", "panel_active")]
    inks = TileInks()
    pairs += [("invalid meld's label and lines", inks.invalid, g) for g in (t.background,)]
    pairs += [("invalid meld's label on its panel", inks.invalid, inks.meld_panel)]
    return pairs


def _number_tile_pairs() -> list[tuple[str, str, str]]:
    pairs = []
    rummikub, numfeud = TileInks(), NumfeudInks()
    for kind, inks, colours in (
        ("rummikub", rummikub, ("black", "blue", "yellow", "red", "joker")),
        ("numfeud", numfeud, ("red", "blue", "yellow", "green", "joker")),
    ):
        for colour in colours:
            for face in ("face", "fresh_face"):
                pairs.append(
                    (f"{kind} {colour} on {face}", getattr(inks, colour), getattr(inks, face))
                )
    pairs.append(("numfeud joker", numfeud.joker, numfeud.joker_face))
    return pairs


def _nmbr9_pairs() -> list[tuple[str, str, str]]:
    pairs = [
        (f"level {k}", ink, shade)
        for k, (ink, shade) in enumerate(zip(LEVEL_INKS, LEVEL_SHADES, strict=True))
    ]
    return [*pairs, ("level badge", BADGE_INK, BADGE)]


SMALL_TEXT = _premium_pairs() + _word_tile_pairs() + _page_pairs() + _nmbr9_pairs()


@pytest.mark.parametrize(("what", "ink", "ground"), SMALL_TEXT, ids=[p[0] for p in SMALL_TEXT])
def test_small_text_has_a_contrast_of_4_5(what, ink, ground):
    assert contrast(ink, ground) >= NORMAL, f"{what}: {ink} on {ground} {contrast(ink, ground):.2f}"


@pytest.mark.parametrize(
    ("what", "ink", "ground"), _number_tile_pairs(), ids=[p[0] for p in _number_tile_pairs()]
)
def test_a_number_tiles_colour_letter_has_a_contrast_of_4_5(what, ink, ground):
    """The number is large, but the colour letter in the corner is small, in the same ink."""
    assert contrast(ink, ground) >= NORMAL, f"{what}: {ink} on {ground} {contrast(ink, ground):.2f}"


@pytest.mark.parametrize("game", ["webfeud", "smartfeud"])
def test_the_premium_squares_drawn_are_dark_enough_for_their_white_labels(game):
    """Sampled from the picture: every big patch of colour under a label reads against white."""
    from bot.games import GAMES

    state = GAMES[game].new_game(2, seed=1, options={})
    image = Image.open(BytesIO(board_png(state, names=["ann", "bob"]))).convert("RGB")
    counts = Counter(image.getdata())
    theme = game_theme(game, DEFAULT)
    fills = [getattr(theme, f) for f in ("l2", "l3", "w2", "w3")]
    for fill in fills:
        rgb = tuple(int(fill[i : i + 2], 16) for i in (1, 3, 5))
        near = [
            (n, c)
            for c, n in counts.items()
            if sum(abs(a - b) for a, b in zip(c, rgb, strict=True)) <= 12
        ]
        assert near, f"{fill} is not drawn on the {game} board"
        _count, sampled = max(near)
        assert contrast(theme.premium_text, sampled) >= NORMAL, (fill, sampled)
