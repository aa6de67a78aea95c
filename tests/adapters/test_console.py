"""`feudbot console`: script mode with JSON output, restarts, a real subprocess, interactive use."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.adapters.common import ascii_board, ascii_displays, ascii_number_grid, text_board
from bot.adapters.console import default_name, run_console, split_line
from bot.core.game import GameState
from bot.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("alice", "bob")


def find_move(state: GameState, seat: int) -> str:
    """Return a legal move from the AI (what a bot seat would play)."""
    from bot.ai import choose_move

    return str(choose_move(state, seat, "easy", 500 + state.turn))


def whole_game(seed: int) -> tuple[list[str], list[GameState]]:
    """Script a whole Webfeud game of alice and bob with the pure core: lines and states."""
    state = GAMES["webfeud"].new_game(2, seed=seed, options={})
    lines = [f"alice: /new webfeud @bob seed={seed}", "# a comment, then a blank line", ""]
    states = [state]
    while state.outcome is None:
        seat = state.waiting_for()[0]
        if state.turn == 2:
            text = "swap " + "".join(state.rack(seat)[:2])
            lines.append(f"{NAMES[seat]}: /swap {text[5:]}")
        else:
            text = find_move(state, seat)
            lines.append(f"{NAMES[seat]}: /play {text}")
        state = state.apply(seat, GAMES["webfeud"].parse_move(text))
        states.append(state)
    return lines, states


def run_script(
    tmp_path: Path, db: Path, lines: list[str], capsys, name: str = "s"
) -> list[dict[str, Any]]:
    script = tmp_path / f"{name}.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status = main(
        [
            "console",
            "--db",
            str(db),
            "--script",
            str(script),
            "--json",
            "--out",
            str(tmp_path / "img"),
        ]
    )
    assert status == 0
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines()]


def assert_chat_is_rack_free(objs: list[dict[str, Any]], states: list[GameState]) -> None:
    """No chat reply carries a rack event or any player's rack letters at any point."""
    racks = {"".join(s.rack(seat)) for s in states for seat in range(2)}
    racks = {r for r in racks if len(r) >= 5}
    for obj in objs:
        if obj["to"] != "chat":
            continue
        assert obj["event"].get("type") != "rack"
        assert "tiles" not in obj["event"]
        blob = obj["text"] + json.dumps(obj["event"])
        for rack in racks:
            assert rack not in blob
            assert " ".join(rack) not in blob


@pytest.fixture
def game() -> tuple[list[str], list[GameState]]:
    return whole_game(42)


def test_whole_game_in_script_mode_as_json(tmp_path, capsys, game) -> None:
    """A whole Webfeud game from a script: one JSON object per reply, the right final result."""
    lines, states = game
    db = tmp_path / "game.sqlite3"
    objs = run_script(tmp_path, db, lines, capsys)
    assert all(set(o) == {"to", "text", "images", "event"} for o in objs)
    played = [o for o in objs if o["event"].get("type") == "move_played"]
    assert len(played) == len(states) - 1
    assert played[2]["event"]["move"] == "swapped 2 tiles"
    over = [o for o in objs if o["event"].get("type") == "game_over"]
    final = states[-1].outcome
    assert final is not None
    assert len(over) == 1
    assert over[0]["event"]["scores"] == list(final.scores)
    assert over[0]["event"]["winners"] == [NAMES[s] for s in final.winners]
    assert not [o for o in objs if o["event"].get("type") == "error"]
    racks = [o for o in objs if o["event"].get("type") == "rack"]
    assert racks
    assert all(o["to"] in NAMES for o in racks)
    assert_chat_is_rack_free(objs, states)
    for obj in objs:
        for path in obj["images"]:
            assert Path(path).read_bytes().startswith(b"\x89PNG")
    conn = sqlite3.connect(db)
    try:
        snapshot = conn.execute("SELECT snapshot FROM games").fetchone()[0]
    finally:
        conn.close()
    assert json.loads(snapshot) == states[-1].to_json()


def test_a_game_continues_after_a_restart(tmp_path, capsys, game) -> None:
    """Two script runs on one DB file: the second picks the game up where the first stopped."""
    lines, states = game
    db = tmp_path / "game.sqlite3"
    half = len(lines) // 2
    first = run_script(tmp_path, db, lines[:half], capsys, "one")
    second = run_script(tmp_path, db, lines[half:], capsys, "two")
    assert not [o for o in first + second if o["event"].get("type") == "error"]
    over = [o for o in second if o["event"].get("type") == "game_over"]
    assert over
    assert over[0]["event"]["scores"] == list(states[-1].outcome.scores)


def test_a_second_run_numbers_its_images_after_the_first(tmp_path, capsys, game) -> None:
    """The images of an earlier run stay as they were: a later run never writes over them."""
    lines, _ = game
    db = tmp_path / "game.sqlite3"
    first = run_script(tmp_path, db, lines[:6], capsys, "one")
    kept = {path: Path(path).read_bytes() for o in first for path in o["images"]}
    assert kept
    second = run_script(tmp_path, db, lines[6:12], capsys, "two")
    later = [path for o in second for path in o["images"]]
    assert later
    assert not set(later) & set(kept)
    assert all(Path(path).read_bytes() == data for path, data in kept.items())
    last = max(int(Path(path).name.partition("-")[0]) for path in kept)
    assert min(int(Path(path).name.partition("-")[0]) for path in later) > last


def test_human_against_a_hard_bot_in_script_mode(tmp_path, capsys) -> None:
    """/new webfeud bot=hard: the bot answers every pass at once, until it goes out and wins."""
    lines = ["ann: /new webfeud bot=hard seed=7"] + ["ann: /pass"] * 40
    objs = run_script(tmp_path, tmp_path / "bot.sqlite3", lines, capsys)
    kinds = [o["event"].get("type") for o in objs]
    end = kinds.index("game_over")
    assert "error" not in kinds[:end]
    assert all(o["event"]["reason"] == "NO_GAME" for o in objs[end + 1 :])
    players = [o["event"]["player"] for o in objs[:end] if o["event"].get("type") == "move_played"]
    assert players[:4] == ["ann", "bot-hard", "ann", "bot-hard"]
    assert objs[end]["event"]["winners"] == ["bot-hard"]
    assert all(o["to"] == "ann" for o in objs if o["event"].get("type") == "rack")


def test_bad_lines_get_clear_replies_in_script_mode(tmp_path, capsys) -> None:
    """Unknown commands and wrong arguments answer privately with the syntax."""
    lines = ["alice: /dance", "alice: /swap", "bob: /play 8H QI"]
    objs = run_script(tmp_path, tmp_path / "bad.sqlite3", lines, capsys)
    assert [o["to"] for o in objs] == ["alice", "alice", "bob"]
    assert [o["event"]["reason"] for o in objs] == ["BAD_COMMAND", "BAD_COMMAND", "NO_GAME"]
    assert "Usage: /swap <tiles> [game=<id>]" in objs[1]["text"]


def test_a_name_without_its_colon_is_told_how_to_write_the_line(tmp_path, capsys) -> None:
    """A line "@bob /new webfeud" is answered with the line it meant; nothing is done.

    So is a line whose name no player can have ("@@bob: /rack", ": /rack").
    """
    lines = ["@bob /new webfeud", "bob /board", "@@bob: /rack", ": /new webfeud", "bob: /games"]
    objs = run_script(tmp_path, tmp_path / "colon.sqlite3", lines, capsys)
    # The line is the default player's (it names nobody), so its answer is theirs, privately.
    assert [o["to"] for o in objs[:2]] == [default_name()] * 2
    assert [o["text"] for o in objs[:2]] == [
        "Did you mean @bob: /new webfeud? A player's name is followed by a colon.",
        "Did you mean bob: /board? A player's name is followed by a colon.",
    ]
    assert [o["text"] for o in objs[2:4]] == [
        "@@bob is not a player's name (no spaces, none of : @ / inside): write e.g. bob: /rack",
        "A player name comes before the colon: write e.g. bob: /new webfeud",
    ]
    assert objs[0]["event"]["reason"] == "BAD_COMMAND"
    assert all("created" not in o["text"] for o in objs)


def test_an_option_written_with_a_colon_is_answered_with_its_spelling(tmp_path, capsys) -> None:
    """/new rummikub bot:hard (as other bots take options) is answered "did you mean bot=hard?"."""
    lines = ["alice: /new rummikub bot:hard", "alice: /new rummikub time:60s", "alice: /new x y:z"]
    lines += ["alice: /new rummikub bot-hard", "alice: /new rummikub bot:expert"]
    texts = [o["text"] for o in run_script(tmp_path, tmp_path / "opt.sqlite3", lines, capsys)]
    assert texts[0].startswith("I did not understand 'bot:hard': did you mean bot=hard? Usage: ")
    assert texts[1].startswith("I did not understand 'time:60s': did you mean time=60s? Usage: ")
    assert texts[2].startswith("I did not understand 'y:z': did you mean y=z? Usage: ")
    assert texts[3].startswith("I did not understand 'bot-hard': did you mean bot=hard? Usage: ")
    assert texts[4].startswith(
        "I did not understand 'bot:expert': add a bot with bot=easy|medium|hard. Usage: "
    )


def run_process(folder: Path, lines: str, *options: str) -> list[dict[str, Any]]:
    """Run `python -m bot console --script … --json` as a process in `folder`; its replies.

    Every line of its output must be one JSON reply (nothing else may reach stdout).
    """
    script = folder / "s.txt"
    script.write_text(lines)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("FEUDBOT_DB", None)
    command = [sys.executable, "-m", "bot", "console", "--script", str(script), "--json"]
    done = subprocess.run(
        [*command, "--no-images", *options],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_script_mode_as_a_real_subprocess(tmp_path) -> None:
    """`python -m bot console --script --json` runs as a process, creating its database."""
    objs = run_process(tmp_path, "alice: /new webfeud @bob seed=42\nbob: /rack\nalice: /pass\n")
    kinds = [o["event"]["type"] for o in objs]
    assert kinds == [
        "game_created",
        "game_started",
        "rack",
        "rack",
        "rack",
        "move_played",
        "your_turn",
    ]
    assert objs[4]["to"] == "bob"
    assert objs[6]["to"] == "bob"  # alice passed: bob is told it is his turn
    assert (tmp_path / "feudbot.sqlite3").exists()  # the default database file


def test_a_solver_bot_leaves_the_json_lines_clean(tmp_path) -> None:
    """The Rummikub bots' solver (HiGHS) prints no banner among the replies of a process."""
    script = "alice: /new rummikub bot=hard seed=5\nalice: /start\nalice: /draw\n"
    objs = run_process(tmp_path, script, "--db", str(tmp_path / "g.sqlite3"))
    moves = [o["event"]["player"] for o in objs if o["event"]["type"] == "move_played"]
    assert moves == ["alice", "bot-hard"]


async def interact(folder: Path, lines: str, name: str = "alice") -> str:
    """Type `lines` at the console's prompt as `name` (no images); return all it printed."""
    out = io.StringIO()
    status = await run_console(
        str(folder / "i.sqlite3"), name=name, inp=io.StringIO(lines), out=out, render=False
    )
    assert status == 0
    return out.getvalue()


async def test_interactive_console_hot_seat(tmp_path) -> None:
    """At the prompt, `@bob: /command` acts as bob; private replies show under a header."""
    text = await interact(tmp_path, "/new webfeud @bob seed=3\n@bob: /rack\n/board\n/quit\n")
    assert text.count("alice> ") == 4
    assert "(private to bob)" in text
    assert "(private to alice)" in text
    assert "  8 '" in text  # the ASCII board: row 8 starts with an L2 square
    assert text.index("(private to bob)\n  Your rack") > 0


async def test_quit_as_a_players_line_or_in_a_script_leaves(tmp_path) -> None:
    """A player's line "@bob: /quit" leaves as /quit does; in a script, later lines are not run."""
    for line in ("@bob: /quit", "bob: /quit now", "/exit please"):
        text = await interact(tmp_path, f"{line}\n/new webfeud bot=easy\n")
        assert "There is no command" not in text, line
        assert text.count("alice> ") == 1, line
    out = io.StringIO()
    script = ["/new webfeud bot=easy seed=1", "/QUIT", "/new numfeud bot=easy"]
    db = tmp_path / "s.sqlite3"
    assert await run_console(str(db), name="alice", script=script, out=out, render=False) == 0
    assert "Numfeud" not in out.getvalue()
    assert "Webfeud" in out.getvalue()


async def test_interactive_json_prints_only_json_on_standard_output(tmp_path) -> None:
    """--json at the prompt: the welcome and the prompts go to stderr, replies stay JSON lines."""
    out, err = io.StringIO(), io.StringIO()
    status = await run_console(
        str(tmp_path / "j.sqlite3"),
        name="alice",
        json_mode=True,
        inp=io.StringIO("/games\n/quit\n"),
        out=out,
        render=False,
        welcome="hello",
        err=err,
    )
    assert status == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [reply["event"]["type"] for reply in replies] == ["games"]
    assert err.getvalue().startswith("hello\nfeudbot console — you play as alice.")
    assert err.getvalue().count("alice> ") == 2


async def test_hot_seat_names_are_any_script_and_keep_their_first_spelling(tmp_path) -> None:
    """@zoë acts as zoë; "@Bob:" acts as bob without renaming him Bob in later messages."""
    text = await interact(
        tmp_path,
        "/new webfeud @zoë seed=3\n@zoë: /rack\n/resign\n"
        "/new webfeud @bob seed=3\n@Bob: /rack\n/board\n/quit\n",
    )
    assert "(private to zoë)\n  Your rack in game #1: " in text
    assert "Commands start with a slash" not in text
    assert "(private to bob)\n  Your rack in game #2: " in text
    assert "Game #2 (Webfeud): alice 0, bob 0." in text
    assert "Bob" not in text


def test_split_line_reads_names_comments_and_bare_commands() -> None:
    """`name: /cmd`, `@name: /cmd`, bare `/cmd` (the default player), comments and blanks."""
    assert split_line("bob: /play 8H QI", "me") == ("bob", "/play 8H QI")
    assert split_line("@bob:/pass", "me") == ("bob", "/pass")
    assert split_line("/pass", "me") == ("me", "/pass")
    assert split_line("@zoë: /join", "me") == ("zoë", "/join")  # any name /new can invite
    assert split_line("@Renée-2: /rack", "me") == ("Renée-2", "/rack")
    assert split_line("  # note", "me") is None
    assert split_line("   ", "me") is None


def test_ascii_board_marks_premiums_and_tiles() -> None:
    """The text board shows letters, blanks in lower case, premium squares by symbol and a key."""
    state = GAMES["webfeud"].new_game(2, seed=1, options={})
    state = state.apply(0, GAMES["webfeud"].parse_move(find_move(state, 0)))
    board = ascii_board(state.view(None))
    assert board is not None
    rows = board.splitlines()
    assert rows[0].split() == list("ABCDEFGHIJKLMNO")
    assert len(rows) == 17
    assert rows[-1].split() == ["key:", "'", "L2", '"', "L3", "-", "W2", "=", "W3"]
    assert ascii_board({"no": "board"}) is None


def _grid_cells(text: str) -> dict[str, str]:
    """Read a text grid back: cell name -> what the square shows (cells split on whitespace)."""
    lines = text.splitlines()
    columns = lines[0].split()
    cells = {}
    for line in lines[1:]:
        parts = line.split()
        if not parts or not parts[0].isdigit():
            continue
        for column, shown in zip(columns, parts[1:], strict=True):
            cells[f"{column}{parts[0]}"] = shown
    return cells


def test_numfeud_text_grid_shows_every_tile_jokers_and_locks() -> None:
    """The console's Numfeud grid shows each tile in its cell, jokers as r6, locked tiles with !."""
    from bot.ai import choose_move

    state = GAMES["numfeud"].new_game(2, seed=3, options={})
    for _ in range(6):
        seat = state.waiting_for()[0]
        state = state.apply(seat, choose_move(state, seat, "medium", 1))
    view = state.view(None)
    shown = _grid_cells(text_board(view) or "")
    assert view["board"]
    for cell, code in view["board"].items():
        tile = code[2:].lower() if code.startswith("J=") else code
        expected = tile + ("!" if cell in view["locked"] else "")
        assert shown[cell] == expected
    assert sum(square != "." for square in shown.values()) == len(view["board"])
    handmade = {"game": "numfeud", "board": {"H8": "R5", "I8": "J=R13"}, "locked": ["I8"]}
    assert _grid_cells(ascii_number_grid(handmade) or "")["I8"] == "r13!"
    # The key's example is no square's name (G8 would read as column G, row 8).
    assert (ascii_number_grid(handmade) or "").endswith(
        "key: r5 a joker standing for the tile R5  ! locked  * centre"
    )
    assert _grid_cells(ascii_number_grid({"game": "numfeud", "board": {}}) or "")["H8"] == "*"
    assert ascii_number_grid({"game": "webfeud", "board": {}}) is None


def test_nmbr9_text_displays_show_the_top_tile_and_its_level() -> None:
    """Each NMBR 9 display is drawn around its tiles; a square shows its top tile's number+level."""
    from bot.ai import choose_move
    from bot.games.nmbr9 import SHAPE

    state = GAMES["nmbr9"].new_game(1, seed=5, options={})
    for _ in range(12):
        state = state.apply(0, choose_move(state, 0, "hard", 1))
    view = state.view(None)
    text = ascii_displays(view, ["ann"]) or ""
    assert text.startswith("ann:")
    expected: dict[str, tuple[int, int]] = {}
    for number, row, col, rotation, level in view["displays"][0]:
        for dr, dc in SHAPE[number, rotation].cells:
            name = f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[col + dc]}{row + dr + 1}"
            if level >= expected.get(name, (-1, 0))[0]:
                expected[name] = (level, number)
    shown = _grid_cells(text.split("\n", 1)[1].split("\n\n")[0])
    assert {cell: f"{n}{lv}" for cell, (lv, n) in expected.items()} == {
        cell: square for cell, square in shown.items() if square != "."
    }
    assert max(level for level, _ in expected.values()) >= 1
    assert ascii_displays({"game": "nmbr9", "displays": [[]]}) is not None
    assert ascii_displays({"game": "numfeud", "displays": [[]]}) is None


def test_run_without_tokens_starts_the_console(tmp_path, monkeypatch, capsys) -> None:
    """`feudbot run` with no chat token welcomes the player to a local game."""
    monkeypatch.chdir(tmp_path)
    for var in ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "FEUDBOT_DB"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO("/help\n"))
    assert main(["run", "--as", "alice"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("no chat tokens configured — starting a local game; type /help")
    assert "/new webfeud bot=easy to play me" in out
    assert (tmp_path / "feudbot.sqlite3").exists()


@pytest.mark.parametrize(
    ("command", "variable"), [("telegram", "TELEGRAM_TOKEN"), ("discord", "DISCORD_TOKEN")]
)
def test_a_platform_without_its_token_exits_2(tmp_path, monkeypatch, command, variable) -> None:
    """`feudbot telegram` / `feudbot discord` with no token: exit status 2, nothing started."""
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv(variable, raising=False)
    assert main([command, "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert not (tmp_path / "x.sqlite3").exists()


def test_migrate_creates_the_schema(tmp_path, capsys) -> None:
    """`feudbot migrate --db PATH` applies the migrations and reports the version."""
    db = tmp_path / "m.sqlite3"
    assert main(["migrate", "--db", str(db)]) == 0
    assert "schema version" in capsys.readouterr().out
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] >= 1
    finally:
        conn.close()


def test_the_console_process_shows_its_prompt_and_quits(tmp_path) -> None:
    """`python -m bot console` starts, prompts the named player and ends on /quit.

    How fast it gets to the prompt is a figure of bench/bench_service.py, not asserted here.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--db",
            str(tmp_path / "p.sqlite3"),
            "--as",
            "zed",
        ],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        out, _ = proc.communicate("/quit\n", timeout=30)
    finally:
        proc.kill()
    assert "zed> " in out
    assert proc.returncode == 0


async def test_a_hot_seat_player_may_not_take_a_bots_name(tmp_path) -> None:
    """A hot-seat "@bot-hard: /join" would seat a person named like the bot: it is refused."""
    lines = "/new smartfeud bot=hard seed=1\n@bot-hard: /join\n@bot-hard: /join\n"
    text = await interact(tmp_path, lines + "@BOT-HARD: /new webfeud @x\n/quit\n")
    # Refused every time, in any case (a second try once slipped through as "bot-hard-person").
    assert text.count("is what a computer player is called; a person needs another name") == 3
    assert "joined" not in text
    assert "(Webfeud) created" not in text


def test_an_image_folder_that_cannot_be_written_warns_once_and_plays_on(tmp_path, capsys) -> None:
    """`--out` naming a file: one line on stderr, then text only; every move is still saved."""
    (tmp_path / "afile").write_text("not a folder\n", encoding="utf-8")
    script = tmp_path / "s.txt"
    script.write_text(
        "alice: /new webfeud @bob seed=42\nbob: /rack\nalice: /pass\nalice: /board\n",
        encoding="utf-8",
    )
    db = tmp_path / "g.sqlite3"
    out_dir = str(tmp_path / "afile")
    status = main(["console", "--db", str(db), "--script", str(script), "--out", out_dir])
    captured = capsys.readouterr()
    assert status == 0
    assert captured.err == (
        f"feudbot: cannot write images to {out_dir!r} (it is not a folder): images are off, "
        "boards are shown as text\n"
    )
    assert "[image]" not in captured.out
    assert "Game #1 (Webfeud) has started" in captured.out
    assert "(private to bob)" in captured.out
    assert "alice 0, bob 0" in captured.out  # the /board after the pass
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM moves").fetchone()[0] == 1


def start_console(folder: Path, command: str) -> subprocess.Popen[bytes]:
    """Start `python -m bot COMMAND --as zed` on pipes and wait for its prompt."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for variable in ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "FEUDBOT_DB"):
        env.pop(variable, None)
    images = ["--no-images"] if command == "console" else []  # `run` has no such option
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", command, "--db", "c.sqlite3", "--as", "zed", *images],
        cwd=folder,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    shown = b""
    while not shown.endswith(b"zed> "):  # pytest-timeout ends a wait that never sees it
        chunk = os.read(proc.stdout.fileno(), 1)
        assert chunk, proc.stderr.read() if proc.stderr else b""
        shown += chunk
    return proc


@pytest.mark.parametrize("command", ["console", "run"])
@pytest.mark.parametrize("typed", ["", "/new nmbr9 bot=hard bot=hard bot=hard seed=1\n"])
def test_ctrl_c_ends_the_interactive_console_at_once_and_quietly(tmp_path, command, typed) -> None:
    """SIGINT at the prompt, or just after a command: status 130, a newline, no traceback."""
    proc = start_console(tmp_path, command)
    try:
        if typed:
            assert proc.stdin is not None
            proc.stdin.write(typed.encode())
            proc.stdin.flush()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)  # once, not on a second Ctrl-C
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert err == b""
    assert out.endswith(b"\n")
    assert b"Traceback" not in out
