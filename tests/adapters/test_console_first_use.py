"""`feudbot console` / `feudbot run` as a first-time terminal user sees them (from a QA probe).

Each test asserts what the user should see; the docstrings say what they saw before.
"""

from __future__ import annotations

import asyncio
import io
import os
import pty
import re
import select
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from bot.__main__ import build_parser
from bot.adapters.console import run_console
from tests.support import clean_env


async def start_timed_rummikub(db: Path) -> None:
    """A Rummikub game with a 15 s turn clock, alice to move, dealt by a script run."""
    script = ["/new rummikub bot=easy time=15s seed=2", "/start"]
    out = io.StringIO()
    assert await run_console(str(db), name="alice", script=script, out=out, render=False) == 0
    assert "Game #1 (Rummikub) has started" in out.getvalue()


def move_deadline(db: Path, seconds_from_now: int) -> None:
    with sqlite3.connect(db) as conn:
        changed = conn.execute(
            "UPDATE deadlines SET due_at = ? WHERE state = 'pending'",
            (int(time.time()) + seconds_from_now,),
        ).rowcount
    assert changed >= 1


# --- D1: news that arrives while the user sits at the prompt -----------------------------------


async def test_news_arriving_at_the_prompt_starts_on_its_own_line_and_prompts_again(
    tmp_path,
) -> None:
    """A turn clock running out while alice waits at `alice> ` is printed glued to the prompt
    ("alice> #1 alice: ran out of time …") and no new prompt follows: she is left typing on a
    bare line. Expected: the news on a line of its own, then `alice> ` again.
    """
    db = tmp_path / "t.sqlite3"
    await start_timed_rummikub(db)
    move_deadline(db, 2)  # the clock runs out 2 s after the console starts
    read_fd, write_fd = os.pipe()
    inp = os.fdopen(read_fd, "r", encoding="utf-8")
    out = io.StringIO()
    task = asyncio.create_task(run_console(str(db), name="alice", inp=inp, out=out, render=False))
    try:
        for _ in range(200):  # up to 20 s
            await asyncio.sleep(0.1)
            if "Your turn in game #1" in out.getvalue():  # timeout and the bot's answer printed
                break
        await asyncio.sleep(0.5)
        shown = out.getvalue()
    finally:
        os.write(write_fd, b"/quit\n")
        os.close(write_fd)
        assert await asyncio.wait_for(task, 10) == 0
        inp.close()
    assert "ran out of time" in shown
    assert "alice> #1 alice: ran out of time" not in shown  # glued onto the prompt
    assert shown.endswith("alice> "), shown[-200:]  # no prompt to type at after the news


# --- D2: a terminal or redirect whose encoding is not UTF-8 ------------------------------------


def test_a_non_utf8_output_encoding_is_no_traceback(tmp_path) -> None:
    r"""With a Latin-1 (or cp1252, ASCII) stdout the welcome's em dash crashes the console:
    `UnicodeEncodeError: 'latin-1' codec can't encode character '\\u2014'` with a traceback.
    """
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--db",
            "e.sqlite3",
            "--as",
            "alice",
            "--no-images",
        ],
        cwd=tmp_path,
        env=clean_env(PYTHONIOENCODING="latin-1"),
        input=b"/help\n/quit\n",
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")[-400:]
    assert done.returncode == 0
    assert b"alice> " in done.stdout


# --- D3: a Rummikub draft's text table drops the pool line ------------------------------------


async def test_a_rummikub_draft_step_prints_the_pool_and_tile_counts(tmp_path) -> None:
    """Docs: the table as numbered melds, under the draft line and over "pool 78 · tiles: …"
    (as the draft picture shows). A draft step prints the melds with no pool line at all.
    """
    out = io.StringIO()
    script = ["alice: /new rummikub @bob seed=4", "alice: /start", "alice: /play K1 Y1"]
    status = await run_console(
        str(tmp_path / "r.sqlite3"), script=script, out=out, render=False, name="alice"
    )
    assert status == 0
    text = out.getvalue()
    draft = text[text.index("#1 alice (draft)") :]
    assert "  (a draft of this turn: nothing is played until /done)" in draft
    assert "  pool 78 · tiles: alice 12, bob 14" in draft, draft


# --- D4: no line editing at the prompt ----------------------------------------------------------


def read_until(fd: int, marker: bytes, seconds: float = 20) -> bytes:
    seen = b""
    end = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_the_up_arrow_at_the_prompt_recalls_the_last_command(tmp_path) -> None:
    """In a real terminal, Up (ESC [ A) then Enter should repeat /games, as at any CLI prompt;
    the console reads raw lines, so it answers "^[[A … Commands start with a slash" (and Left/
    Right put escape codes into a move being corrected).
    """
    pid, fd = pty.fork()
    if pid == 0:  # the child: the console on the pseudo-terminal
        try:
            os.chdir(tmp_path)
            args = ["-m", "bot", "console", "--db", "p.sqlite3", "--as", "alice", "--no-images"]
            os.execve(sys.executable, [sys.executable, *args], clean_env())
        finally:  # never a second test session in the child, whatever failed
            os._exit(127)
    try:
        assert b"alice> " in read_until(fd, b"alice> ")
        os.write(fd, b"/games\r")
        first = read_until(fd, b"alice> ")
        assert b"No open games here" in first
        os.write(fd, b"\x1b[A\r")
        again = read_until(fd, b"alice> ")
        assert b"Commands start with a slash" not in again, again
        assert b"No open games here" in again, again
    finally:
        os.write(fd, b"/quit\r")
        read_until(fd, b"\x00", 5)
        os.close(fd)
        os.waitpid(pid, 0)


# --- D5: control characters echoed back raw -----------------------------------------------------


async def test_control_characters_are_not_echoed_back_to_the_terminal(tmp_path) -> None:
    r"""`/rack` with a stray NUL or Esc is answered "There is no command /rack\\x00. Did you mean
    /rack?" — the raw control character goes back to the terminal and the advice names the very
    command the user sees they typed.
    """
    out = io.StringIO()
    lines = "/new webfeud bot=easy seed=1\n/rack\x00\n/board\x1b\n/quit\n"
    status = await run_console(
        str(tmp_path / "c.sqlite3"), name="alice", inp=io.StringIO(lines), out=out, render=False
    )
    assert status == 0
    text = out.getvalue()
    raw = re.findall(r".*[\x00\x1b].*", text)
    assert raw == []
    assert "Did you mean /rack?" not in text


# --- D6: `feudbot run` writes PNGs into the working folder, and cannot be told not to ------------


def test_run_in_console_mode_takes_the_consoles_image_options() -> None:
    """README's main command `feudbot run` starts the console and writes a PNG for nearly every
    reply into ./feudbot-images (180 files, 3.8 MB for one Rummikub game), which the README never
    mentions; `feudbot console` has --no-images/--out, `run` refuses them.
    """
    for option in (["--no-images"], ["--out", "elsewhere"]):
        _, unknown = build_parser().parse_known_args(["run", *option])
        assert unknown == [], f"feudbot run does not take {option[0]}"


# --- D7: start-up news printed before the banner -----------------------------------------------


async def test_the_welcome_comes_before_news_printed_at_start_up(tmp_path) -> None:
    """Restarting on a game whose turn clock ran out while the console was closed prints the
    timeout and the bot's move first, and the banner "feudbot console — you play as …" only
    after them, between the news and the prompt.
    """
    db = tmp_path / "w.sqlite3"
    await start_timed_rummikub(db)
    move_deadline(db, -60)
    out = io.StringIO()
    status = await run_console(
        str(db),
        name="alice",
        inp=io.StringIO("/quit\n"),
        out=out,
        render=False,
        welcome="no chat tokens configured — starting a local game; type /help",
    )
    assert status == 0
    text = out.getvalue()
    assert "ran out of time" in text
    assert text.index("no chat tokens configured") < text.index("ran out of time"), text[:300]
