"""A real TrueType font made for the tests: what a machine's CJK font is to the renderers.

Each character it has is a solid block as wide as the em (its advance), with a notch whose depth
tells the characters apart; `.notdef` (what a missing character shows) is empty.
"""

from __future__ import annotations

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

EM = 1000


def build_font(path: Path, chars: str) -> Path:
    """Write a TrueType font drawing `chars` to `path`; return the path."""
    names = {char: f"uni{ord(char):04X}" for char in dict.fromkeys(chars)}
    builder = FontBuilder(EM, isTTF=True)
    builder.setupGlyphOrder([".notdef", *names.values()])
    builder.setupCharacterMap({ord(char): name for char, name in names.items()})
    glyphs = {".notdef": TTGlyphPen(None).glyph()}
    for k, name in enumerate(names.values()):
        notch = 100 + 40 * (k % 10)
        pen = TTGlyphPen(None)
        pen.moveTo((100, -80))
        pen.lineTo((100, 760))
        pen.lineTo((450, 760))
        pen.lineTo((450, 760 - notch))
        pen.lineTo((550, 760 - notch))
        pen.lineTo((550, 760))
        pen.lineTo((900, 760))
        pen.lineTo((900, -80))
        pen.closePath()
        glyphs[name] = pen.glyph()
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics(dict.fromkeys([".notdef", *names.values()], (EM, 0)))
    builder.setupHorizontalHeader(ascent=880, descent=-120)
    builder.setupNameTable({"familyName": "Feud Test CJK", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120)
    builder.setupPost()
    builder.save(str(path))
    return path
