"""Settings that cannot be read stop the command in one line (README: "What you can mend stops
every command with one line on stderr and exit status 2, never a traceback").
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support import clean_env


def feudbot(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m bot ARGS` in `folder` with no input."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=folder,
        env=clean_env(**env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_an_unreadable_allow_seed_flag_is_refused_in_one_line(tmp_path: Path) -> None:
    """FEUDBOT_ALLOW_SEED=maybe is neither on nor off: README promises one line and status 2.

    Before, any value but 1/true/yes/on silently meant off (a typo like "ture" switches seeds off
    without a word), while DISCORD_DEV_GUILD_ID=abc or TELEGRAM_WEBHOOK_PORT=0 are refused.
    """
    script = tmp_path / "s.txt"
    script.write_text("alice: /games\n", encoding="utf-8")
    done = feudbot(
        tmp_path,
        "console",
        "--db",
        str(tmp_path / "x.sqlite3"),
        "--script",
        str(script),
        "--no-images",
        FEUDBOT_ALLOW_SEED="maybe",
    )
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "FEUDBOT_ALLOW_SEED" in done.stderr


def test_a_fallback_font_that_is_no_font_is_one_line_not_tracebacks(tmp_path: Path) -> None:
    """FEUDBOT_FALLBACK_FONTS naming a file that is not a font: one line, never a traceback.

    Before, the console played on, logging a traceback for every image it failed to draw (the
    boards and racks silently lost their pictures) and exited 0.
    """
    not_a_font = tmp_path / "font.ttf"
    not_a_font.write_text("this is not a font\n", encoding="utf-8")
    script = tmp_path / "s.txt"
    script.write_text("李: /new webfeud bot=easy\n", encoding="utf-8")
    done = feudbot(
        tmp_path,
        "console",
        "--db",
        str(tmp_path / "x.sqlite3"),
        "--script",
        str(script),
        "--out",
        str(tmp_path / "img"),
        FEUDBOT_FALLBACK_FONTS=str(not_a_font),
    )
    assert "Traceback" not in done.stderr, done.stderr[:600]
    assert done.returncode == 2, (done.returncode, done.stderr[:600])
