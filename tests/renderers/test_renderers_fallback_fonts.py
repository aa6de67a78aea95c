"""Names in scripts the shipped font lacks (Chinese, Japanese, Korean) drawn in a fallback font."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.games.smartfeud import SMARTFEUD
from renderers import board_png, toolkit
from renderers.toolkit import (
    FALLBACK_FONTS_ENV,
    NAME_CLOSE,
    NAME_OPEN,
    player_name,
    raqm_available,
    text,
    text_width,
    use_fallback_fonts,
)
from tests.renderers.fallback_font import build_font

CJK = "山田太郎김민준李小龍"


@pytest.fixture
def font_file(tmp_path: Path) -> Iterator[Path]:
    path = build_font(tmp_path / "cjk.ttf", CJK)
    yield path
    use_fallback_fonts(None)  # back to the tests' setting: none


@pytest.fixture
def cjk_font(font_file: Path) -> Path:
    use_fallback_fonts([str(font_file)])
    return font_file


def ink_box(content: str, *, x: float, anchor: str, size: int = 40) -> tuple[int, int, int, int]:
    """Return the bounding box of what `text` draws of `content` at (x, 40) on a white page."""
    page = Image.new("L", (400, 80), 255)
    text(ImageDraw.Draw(page), (x, 40), content, size=size, fill="#000000", anchor=anchor)
    box = Image.eval(page, lambda v: 255 - v).getbbox()
    assert box is not None, content
    return box


@pytest.mark.parametrize("name", ["山田太郎", "김민준", "李小龍"])
def test_a_cjk_name_is_kept_and_drawn_on_the_board(cjk_font, monkeypatch, name) -> None:
    """With a font that has its letters, the name is drawn, not "player 1"."""
    assert player_name(name, 0) == NAME_OPEN + name + NAME_CLOSE
    drawn: list[str] = []
    real = toolkit.text

    def spy(draw, xy, content, **kw) -> None:
        drawn.append(content)
        real(draw, xy, content, **kw)

    monkeypatch.setattr(toolkit, "text", spy)
    board_png(SMARTFEUD.new_game(2, seed=1, options={}), names=[name, "bob"])
    assert any(name in line for line in drawn), drawn[:5]
    assert not any("player 1" in line for line in drawn)


def test_a_line_of_two_fonts_is_measured_and_centred_as_one(cjk_font) -> None:
    """A line "Bob 山田": DejaVu's "Bob ", two em-wide fallback letters, centred as one line."""
    assert text_width("山田", size=40) == 80  # the test font's letters are one em wide
    assert text_width("Bob 山田", size=40) == text_width("Bob ", size=40) + 80
    left, _, right, _ = ink_box("Bob 山田", x=200, anchor="mm")
    assert abs((left + right) / 2 - 200) <= 4
    left, _, right, _ = ink_box("Bob 山田", x=380, anchor="rm")
    assert 372 <= right <= 380  # the last letter's block ends a tenth of an em before x
    single, _, _, _ = ink_box("山", x=20, anchor="lm")
    assert 20 <= single <= 24  # at x, or its side bearing (a tenth of an em) after it


def test_without_a_fallback_font_a_cjk_name_becomes_its_seat(font_file) -> None:
    """No font draws the letters: the name is "player 1" (not boxes); a mixed one keeps the rest."""
    use_fallback_fonts([])
    assert player_name("山田太郎", 0) == NAME_OPEN + "player 1" + NAME_CLOSE
    assert player_name("山田 Ken", 0) == NAME_OPEN + "Ken" + NAME_CLOSE


def test_the_fallback_fonts_are_read_from_the_environment(font_file, monkeypatch) -> None:
    """FEUDBOT_FALLBACK_FONTS names the font files; a file that is not there is passed over."""
    missing = font_file.with_name("missing.ttf")
    monkeypatch.setenv(FALLBACK_FONTS_ENV, f"{missing}{toolkit.os.pathsep}{font_file}")
    use_fallback_fonts(None)
    assert player_name("김민준", 0) == NAME_OPEN + "김민준" + NAME_CLOSE
    monkeypatch.setenv(FALLBACK_FONTS_ENV, str(missing))
    use_fallback_fonts(None)
    assert player_name("김민준", 0) == NAME_OPEN + "player 1" + NAME_CLOSE


def test_a_file_that_is_no_font_is_passed_over(font_file) -> None:
    """A fallback that Pillow cannot read (a typo'd path to a text file) draws nothing and breaks
    nothing: the fonts after it are used.
    """
    broken = font_file.with_name("notes.ttf")
    broken.write_text("not a font\n", encoding="utf-8")
    use_fallback_fonts([str(broken), str(font_file)])
    assert player_name("김민준", 0) == NAME_OPEN + "김민준" + NAME_CLOSE


def test_a_devanagari_name_is_shaped_its_vowel_sign_before_the_consonant(tmp_path) -> None:
    """With a Devanagari font, "कि" (ka, then the vowel sign i) is drawn "ि" first, as it reads.

    Before, the fallback font's runs were laid out BASIC, letter after letter in typed order:
    every "ि" stood after its consonant and conjuncts fell apart, a name misspelt in the image.
    """
    if not raqm_available():
        pytest.skip("Pillow has no libraqm here: no font is shaped")
    path = build_font(tmp_path / "deva.ttf", "कि")
    use_fallback_fonts([str(path)])
    try:
        assert player_name("कि", 0) == NAME_OPEN + "कि" + NAME_CLOSE
        page = Image.new("L", (200, 80), 0)
        text(ImageDraw.Draw(page), (20, 40), "कि", size=40, fill="#ffffff", anchor="lm")

        def basic(content: str) -> Image.Image:
            canvas = Image.new("L", (200, 80), 0)
            face = ImageFont.truetype(str(path), 40, layout_engine=ImageFont.Layout.BASIC)
            ImageDraw.Draw(canvas).text((20, 40), content, font=face, fill=255, anchor="lm")
            return canvas

        assert ImageChops.difference(page, basic("िक")).getbbox() is None  # as it reads
        assert ImageChops.difference(page, basic("कि")).getbbox() is not None
    finally:
        use_fallback_fonts(None)
