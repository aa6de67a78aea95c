"""The shared toolkit: the shipped font, text fitting, the theme."""

from __future__ import annotations

import dataclasses
import importlib.resources

import pytest

from renderers.toolkit import DEFAULT, Theme, fit_text, font, printable, text_width


def test_the_fonts_ship_with_their_licence() -> None:
    """DejaVu Sans regular and bold are package resources, next to their licence text."""
    fonts = importlib.resources.files("renderers") / "fonts"
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        assert (fonts / name).read_bytes()[:4] == b"\x00\x01\x00\x00"
    licence = (fonts / "LICENSE.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence
    assert "DejaVu" in licence


def test_fonts_are_cached() -> None:
    """Asking twice for a size gives the same font object; bold is a different face."""
    assert font(20) is font(20)
    assert font(20, bold=True) is not font(20)
    assert font(20, bold=True).getname()[1] == "Bold"


def test_fit_text_shortens_with_an_ellipsis() -> None:
    """A name wider than the room is cut and ends with an ellipsis; a short one is kept."""
    assert fit_text("Ann", size=20, max_width=200) == "Ann"
    cut = fit_text("A very long name " * 5, size=20, max_width=150)
    assert cut.endswith("…")
    assert text_width(cut, size=20) <= 150


def test_printable_drops_what_the_font_cannot_draw() -> None:
    """Emoji and control characters go; accents, Greek and Cyrillic stay; spaces collapse."""
    assert printable("🙂 Zoë\n\tΩμέγα  Привет") == "Zoë Ωμέγα Привет"
    assert fit_text("🙂🙂", size=20, max_width=100) == "?"  # not a name: names get a seat


def test_the_theme_is_frozen() -> None:
    """A Theme cannot be changed in place; a variant is made with dataclasses.replace."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT.tile = "#000000"  # type: ignore[misc]
    light = dataclasses.replace(DEFAULT, background="#ffffff")
    assert isinstance(light, Theme)
    assert light != DEFAULT
    assert hash(light) != hash(DEFAULT)
