"""What a user can mend ends `feudbot` with one line on stderr and status 2, never a traceback.

Real processes (`python -m bot …`) over real files: a database that cannot be used, settings
the bot cannot use, bad `--script` files, `--as` a bot's name, unknown options, a closed pipe.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import ConfigError, load_settings
from tests.support import ROOT, clean_env

BUSY_SECONDS = 5  # storage.database.BUSY_TIMEOUT_MS


def feudbot(
    folder: Path, *args: str, prefix: tuple[str, ...] = (), **env: str
) -> subprocess.CompletedProcess[str]:
    """Run `python -m bot ARGS` in `folder` with no input; return what it did."""
    return subprocess.run(
        [*prefix, sys.executable, "-m", "bot", *args],
        cwd=folder,
        env=clean_env(**env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_one_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """Status 2, nothing on stdout, one `feudbot: …` line on stderr holding `words`."""
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("feudbot: ")
    for word in words:
        assert word in lines[0]
    return lines[0]


def make_migrated(path: Path) -> None:
    assert main(["migrate", "--db", str(path)]) == 0


def junk(folder: Path) -> str:
    (folder / "c.sqlite3").write_text("junk\n")
    return "c.sqlite3"


def directory(folder: Path) -> str:
    (folder / "adir").mkdir()
    return "adir"


def missing_folder(folder: Path) -> str:
    return str(folder / "nonexist" / "x.sqlite3")


def newer_schema(folder: Path) -> str:
    with sqlite3.connect(folder / "v.sqlite3") as conn:
        conn.execute("PRAGMA user_version = 99")
    return "v.sqlite3"


def tables_at_version_0(folder: Path) -> str:
    make_migrated(folder / "t.sqlite3")
    with sqlite3.connect(folder / "t.sqlite3") as conn:
        conn.execute("PRAGMA user_version = 0")
    return "t.sqlite3"


PROBLEMS: dict[str, tuple[Callable[[Path], str], str]] = {
    "a folder that does not exist": (missing_folder, "does not exist"),
    "a directory": (directory, "it is a directory"),
    "not SQLite": (junk, "it is not a SQLite database"),
    "a newer schema": (newer_schema, "newer than this code"),
    "our tables at user_version 0": (tables_at_version_0, "holds tables but no schema version"),
}


@pytest.mark.parametrize("problem", list(PROBLEMS))
def test_a_database_that_cannot_be_used_is_one_line_and_status_2(tmp_path, problem) -> None:
    """`feudbot migrate` names the file and what is wrong with it; no traceback from any thread."""
    make, reason = PROBLEMS[problem]
    path = make(tmp_path)
    done = feudbot(tmp_path, "migrate", "--db", path)
    line = assert_one_line(done, f"cannot open database {path!r}: ", reason)
    assert line.endswith("(set --db or FEUDBOT_DB)")


COMMANDS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "console": (("console", "--script", os.devnull), {}),
    "run (console)": (("run",), {}),
    "run (both platforms)": (("run",), {"DISCORD_TOKEN": "x", "TELEGRAM_TOKEN": "1:x"}),
    "discord": (("discord",), {"DISCORD_TOKEN": "x"}),
    "telegram": (("telegram",), {"TELEGRAM_TOKEN": "1:x"}),
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_refuses_an_unusable_database_in_one_line(tmp_path, command) -> None:
    """Console, run, discord and telegram stop before starting anything, given --db or env."""
    args, env = COMMANDS[command]
    directory(tmp_path)
    assert_one_line(feudbot(tmp_path, *args, "--db", "adir", **env), "it is a directory")
    env = {**env, "FEUDBOT_DB": junk(tmp_path)}
    assert_one_line(feudbot(tmp_path, *args, **env), "'c.sqlite3': it is not a SQLite database")


def plain_user() -> tuple[str, ...]:
    """A command prefix under which file permissions bind (root ignores a read-only mode)."""
    if os.geteuid() != 0:
        return ()
    # In a new user namespace root keeps its files but loses the power to override their modes.
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "--user", "true"], check=False).returncode == 0:
        return (unshare, "--user")
    pytest.skip("running as root without user namespaces: a read-only mode would not bind")


def test_a_read_only_database_is_refused_at_start(tmp_path) -> None:
    """A file SQLite can read but not write is refused at once, not on every later command."""
    prefix = plain_user()
    make_migrated(tmp_path / "ro.sqlite3")
    (tmp_path / "ro.sqlite3").chmod(0o444)
    script = tmp_path / "s.txt"
    script.write_text("alice: /new webfeud @bob\n", encoding="utf-8")
    for args in (("console", "--script", str(script)), ("migrate",), ("run",)):
        done = feudbot(tmp_path, *args, "--db", "ro.sqlite3", prefix=prefix)
        assert_one_line(done, "cannot open database 'ro.sqlite3': it is read-only")


def test_a_database_locked_by_another_process_is_refused_after_the_busy_timeout(tmp_path) -> None:
    """Another process holding the write lock beyond the busy timeout: one line, status 2."""
    make_migrated(tmp_path / "l.sqlite3")
    holder = sqlite3.connect(tmp_path / "l.sqlite3", isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        done = feudbot(tmp_path, "migrate", "--db", "l.sqlite3")
    finally:
        holder.close()
    assert_one_line(done, "'l.sqlite3': another process has held it locked", f"{BUSY_SECONDS} s")


def test_a_database_held_briefly_by_another_process_is_waited_for(tmp_path) -> None:
    """A lock let go within the busy timeout is waited for: the command then runs."""
    make_migrated(tmp_path / "l.sqlite3")
    holder = sqlite3.connect(tmp_path / "l.sqlite3", isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(1.0, holder.rollback)
    release.start()
    try:
        done = feudbot(tmp_path, "migrate", "--db", "l.sqlite3")
    finally:
        release.join()
        holder.close()
    assert done.returncode == 0, done.stderr
    assert "schema version" in done.stdout


def no_file(folder: Path) -> str:
    return "nofile.txt"


def latin1(folder: Path) -> str:
    (folder / "bad.txt").write_bytes("alice: /new webfeud @zoë\n".encode("latin-1"))
    return "bad.txt"


SCRIPTS: dict[str, tuple[Callable[[Path], str], str]] = {
    "missing": (no_file, "there is no such file"),
    "a directory": (directory, "it is a directory"),
    "not UTF-8": (latin1, "it is not UTF-8 text (byte 0xeb at offset 23); save it as UTF-8"),
}


@pytest.mark.parametrize("problem", list(SCRIPTS))
def test_a_script_that_cannot_be_read_is_one_line(tmp_path, monkeypatch, capsys, problem) -> None:
    """`--script` naming a missing file, a directory or non-UTF-8 bytes: one line, status 2."""
    make, reason = SCRIPTS[problem]
    monkeypatch.chdir(tmp_path)
    name = make(tmp_path)
    status = main(["console", "--db", "g.sqlite3", "--script", name, "--no-images"])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    assert captured.err == f"feudbot: cannot read script {name!r}: {reason}\n"


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("FEUDBOT_REMINDERS", "99999999999d", "'99999999999d' is too long; at most 365d"),
        ("FEUDBOT_REMINDERS", "400d", "'400d' is too long; at most 365d"),
        ("FEUDBOT_REMINDERS", "24h,0s", "'0s' is no time before the deadline"),
        ("TELEGRAM_WEBHOOK_PORT", "99999", "a port number from 1 to 65535, not 99999"),
        ("TELEGRAM_WEBHOOK_PORT", "0", "a port number from 1 to 65535, not 0"),
        # Before, any flag but 1/true/yes/on silently meant off ("ture": seeds off unsaid).
        ("FEUDBOT_ALLOW_SEED", "maybe", "must be 1 or 0 (or true/false, yes/no, on/off)"),
        # Before, a file that is no font cost every picture a logged traceback, exit 0.
        ("FEUDBOT_FALLBACK_FONTS", str(ROOT / "README.md"), "README.md' is not a font"),
        ("FEUDBOT_FALLBACK_FONTS", "/no/such/font.ttf", "'/no/such/font.ttf' is not a file"),
        # Before, "not a url" was a ValueError traceback once the webhook server started.
        ("TELEGRAM_WEBHOOK_URL", "bot.example.org/hook", "the address Telegram posts updates to"),
        ("TELEGRAM_WEBHOOK_URL", "https:///hook", "like https://bot.example.org/telegram"),
        # Telegram refuses such a secret_token at setWebhook (400) once the bot is starting.
        ("TELEGRAM_WEBHOOK_SECRET", "my secret!", "only letters, digits, _ and -"),
        ("TELEGRAM_WEBHOOK_SECRET", "x" * 257, "at most 256"),
    ],
)
def test_settings_out_of_range_are_one_line_naming_the_variable(
    tmp_path, monkeypatch, capsys, variable, value, says
) -> None:
    """Reminders too long for a date or of no time, ports beyond 1–65535, a flag that is neither
    on nor off, a fallback font that is missing or no font: refused at start.
    """
    with pytest.raises(ConfigError, match=f"^{variable}"):
        load_settings({variable: value})
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv(variable, value)
    status = main(["console", "--db", "g.sqlite3", "--script", os.devnull, "--no-images"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith(f"feudbot: {variable}")
    assert says in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "g.sqlite3").exists()


DOTENVS: dict[str, tuple[bytes, str]] = {
    # python-dotenv skipped such a line with its own warning: FEUDBOT_DB fell back to
    # feudbot.sqlite3, a new empty database, and the token line to "TELEGRAM_TOKEN is not set".
    "a line without =": (
        b"# my bot\n\nTELEGRAM_TOKEN 123456:SECRET-value\nFEUDBOT_DB=games.sqlite3\n",
        "line 3 (it starts with TELEGRAM_TOKEN) is not NAME=value",
    ),
    "a quote left open": (
        b'FEUDBOT_DB="games.sqlite3\nFEUDBOT_REMINDERS=1h\n',
        "line 1 (it starts with FEUDBOT_DB) is not NAME=value",
    ),
    "not UTF-8": (b"FEUDBOT_DB=caf\xe9.sqlite3\n", "it is not UTF-8 text (byte 0xe9 at offset 14)"),
}


@pytest.mark.parametrize("problem", list(DOTENVS))
def test_a_dotenv_that_cannot_be_read_whole_is_one_line_and_changes_nothing(
    tmp_path, problem
) -> None:
    """A `.env` line that is not NAME=value, or a `.env` not in UTF-8: refused, never skipped.

    The line is named by its number and variable, never by its value (a token); no database
    file is created in its stead.
    """
    content, says = DOTENVS[problem]
    (tmp_path / ".env").write_bytes(content)
    for args in (("migrate",), ("run",), ("console", "--script", os.devnull)):
        done = feudbot(tmp_path, *args)
        line = assert_one_line(done, f"{tmp_path / '.env'}: {says}", "(see .env.example)")
        assert "SECRET" not in line
    assert sorted(path.name for path in tmp_path.iterdir()) == [".env"]


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("TELEGRAM_TOKEN", '"123456:SECRET"', "TELEGRAM_TOKEN is in quotes"),
        ("DISCORD_TOKEN", "'SECRET.abc'", "DISCORD_TOKEN is in quotes"),
        ("TELEGRAM_TOKEN", "123456:SECRET 77", "TELEGRAM_TOKEN holds a space"),
    ],
)
def test_a_token_in_quotes_or_with_a_space_is_refused_without_showing_it(
    tmp_path, variable, value, says
) -> None:
    """Quotes kept around a token (docker's --env-file keeps them) or a space in it: one line.

    Before, the bot started and the platform refused the token without saying why; the line
    names the variable, never the token.
    """
    for args in (("run",), ("telegram",), ("discord",)):
        done = feudbot(tmp_path, *args, **{variable: value})
        line = assert_one_line(done, says)
        assert "SECRET" not in line
    assert list(tmp_path.iterdir()) == []


def test_settings_at_the_edges_of_the_ranges_are_accepted() -> None:
    """365 days of reminder and ports 1 and 65535 are fine."""
    assert load_settings({"FEUDBOT_REMINDERS": "365d,1s"}).reminders[0].days == 365
    assert load_settings({"TELEGRAM_WEBHOOK_PORT": "1"}).telegram_webhook_port == 1
    assert load_settings({"TELEGRAM_WEBHOOK_PORT": "65535"}).telegram_webhook_port == 65535


def refused_as(tmp_path, monkeypatch, capsys, command: str, name: str) -> str:
    """Run `feudbot <command> --as <name>`; return its one stderr line once it opened nothing."""
    monkeypatch.chdir(tmp_path)
    for variable in ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "FEUDBOT_DB"):
        monkeypatch.delenv(variable, raising=False)
    status = main([command, "--as", name, "--db", "g.sqlite3"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1
    assert not (tmp_path / "g.sqlite3").exists()
    return err


@pytest.mark.parametrize("command", ["console", "run"])
@pytest.mark.parametrize("name", ["bot-easy", "Bot", "@bot-hard-2"])
def test_as_a_bots_name_is_refused(tmp_path, monkeypatch, capsys, command, name) -> None:
    """`--as bot-easy` would seat a person under a bot's name: refused before anything opens."""
    err = refused_as(tmp_path, monkeypatch, capsys, command, name)
    assert err == (
        f"feudbot: --as {name}: {name} is what a computer player is called; a person needs "
        "another name, e.g. --as alice\n"
    )


@pytest.mark.parametrize("command", ["console", "run"])
@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("@bob", "write the name without the @, e.g. --as bob"),
        ("a b", "a name has no spaces, no invisible characters and none of : @ /"),
        ("bob/2", "a name has no spaces, no invisible characters and none of : @ /"),
        ("", "a player needs a name, e.g. --as alice"),
    ],
)
def test_as_a_name_no_line_could_address_is_refused(
    tmp_path, monkeypatch, capsys, command, name, why
) -> None:
    """`--as @bob` would be called "@@bob" in a command, "a b" never reached by "a b: /rack"."""
    err = refused_as(tmp_path, monkeypatch, capsys, command, name)
    assert err.startswith(f"feudbot: --as {name!r}: {why}")


@pytest.mark.parametrize(
    "args", [("simulate", "--json"), ("run", "--bogus"), ("console", "--db", "x", "--nope")]
)
def test_an_unknown_option_shows_the_usage_of_its_subcommand(capsys, args) -> None:
    """The refusal comes from the subcommand's own parser: its usage line, its name."""
    with pytest.raises(SystemExit) as stopped:
        main(list(args))
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: feudbot {args[0]} [-h]")
    assert f"feudbot {args[0]}: error: unrecognized arguments: {args[-1]}" in err


def test_a_reader_that_stops_early_ends_simulate_quietly(tmp_path) -> None:
    """`feudbot simulate --games 100 | head -1`: status 141 (SIGPIPE's), nothing on stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "simulate", "--games", "100"],
        cwd=tmp_path,
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    try:
        first = proc.stdout.readline()
        proc.stdout.close()  # as `head -1` does
        status = proc.wait(timeout=60)
        err = proc.stderr.read()
    finally:
        proc.kill()
        proc.stderr.close()
    assert first.startswith('{"game": "webfeud"')
    assert status == 141
    assert err == ""
