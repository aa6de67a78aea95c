"""Settings every test shares."""

from __future__ import annotations

import os

from renderers.toolkit import FALLBACK_FONTS_ENV

# Images are drawn with the shipped font only, whatever CJK fonts this machine has: the same
# bytes everywhere (tests that need a fallback font make one: tests/renderers/fallback_font.py).
os.environ[FALLBACK_FONTS_ENV] = ""
