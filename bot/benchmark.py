"""`feudbot bench`: run every benchmark script of the checkout and print all headline figures.

Each script in ``bench/`` prints its own detailed report and records its headline figures through
``bench/figures.py`` into the JSON-lines file named by ``FEUDBOT_BENCH_OUT``; this command runs
them one after another (each in a fresh process, so none inherits another's caches), adds the
process figures (start-up time and resident memory of a bot with everything loaded), and prints
one table and then the same rows as JSON. Timings are medians or percentiles over repeated runs,
as each script states; the test suite never asserts a time. A script that fails still leaves the
others' figures printed, but the command then exits with status 1 (refusals, status 2, and the
scripts' reports go to the log, stderr; the table and JSON alone to stdout).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

#: (name, script, arguments) in the order they run.
SCRIPTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("lexicon", "bench_lexicon.py", ()),
    ("movegen", "bench_movegen.py", ()),
    ("render", "bench_render.py", ()),
    ("storage", "bench_storage.py", ()),
    ("service", "bench_service.py", ()),
    ("smartfeud", "bench_smartfeud.py", ()),
    ("rummikub", "bench_rummikub.py", ()),
    ("numfeud", "bench_numfeud.py", ()),
    ("nmbr9", "bench_nmbr9.py", ()),
)

STARTUP_RUNS = 5
# What a running bot holds: the service, storage, renderers, both chat libraries, the lexicon.
_LOADED = (
    "import resource, time; t = time.perf_counter();"
    "import bot.service, bot.reminders, renderers, storage, discord, telegram.ext;"
    "from bot.lexicon import english; english();"
    "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
)


def bench_dir() -> Path | None:
    """Return the checkout's ``bench/`` folder (None for an installation without sources)."""
    here = Path(__file__).resolve().parents[1] / "bench"
    return here if (here / "figures.py").is_file() else None


def process_figures(log: TextIO) -> list[dict[str, Any]] | None:
    """Start-up time and peak resident memory of a process with the whole bot loaded.

    Returns None, after saying why on `log`, when the process fails.
    """
    seconds, rss = [], []
    for _ in range(STARTUP_RUNS):
        done = subprocess.run(
            [sys.executable, "-c", _LOADED], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            log.write(done.stderr)
            log.write(f"loading the bot failed with exit status {done.returncode}\n")
            return None
        out = done.stdout.split()
        seconds.append(float(out[0]))
        rss.append(int(out[1]) / 1024)  # ru_maxrss is in KiB on Linux
    return [
        {
            "figure": "start-up: import bot + chat libraries + lexicon",
            "value": round(statistics.median(seconds) * 1000, 1),
            "unit": "ms",
            "stat": "median",
            "script": "feudbot bench",
        },
        {
            "figure": "RSS of a loaded bot process",
            "value": round(statistics.median(rss), 1),
            "unit": "MB",
            "stat": "median",
            "script": "feudbot bench",
        },
    ]


def run_script(
    folder: Path, script: str, args: Sequence[str], log: TextIO
) -> tuple[list[dict[str, Any]], int]:
    """Run one bench script, its report going to `log`; return its figures and exit status."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "figures.jsonl"
        env = {**os.environ, "FEUDBOT_BENCH_OUT": str(out)}
        log.write(f"\n## {script}\n")
        log.flush()
        started = time.perf_counter()
        with subprocess.Popen(
            [sys.executable, str(folder / script), *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        ) as done:
            assert done.stdout is not None
            for line in done.stdout:  # the script's own report, as it goes
                log.write(line)
                log.flush()
        elapsed = time.perf_counter() - started
        rows = []
        if out.exists():
            rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    if done.returncode != 0:
        log.write(f"{script} failed with exit status {done.returncode}\n")
    for row in rows:
        row["script"] = script
    log.write(f"({script}: {elapsed:.0f} s)\n")
    return rows, done.returncode


def table(rows: Sequence[dict[str, Any]]) -> str:
    """Format the figures as a Markdown table."""
    lines = [
        "| figure | value | unit | stat | goal | script |",
        "| --- | ---: | --- | --- | --- | --- |",
    ]
    for row in rows:
        value = row["value"]
        shown = f"{value:,.3f}" if abs(value) < 1 else f"{value:,.1f}"
        lines.append(
            f"| {row['figure']} | {shown} | {row['unit']} | {row.get('stat', '')} "
            f"| {row.get('goal', '')} | {row['script']} |"
        )
    return "\n".join(lines)


def run_bench(only: Sequence[str], out: TextIO, log: TextIO, *, folder: Path | None = None) -> int:
    """Run the selected scripts (all when `only` is empty); print the table, then JSON.

    Args:
        only: Names of `SCRIPTS` to run (empty: all of them and the process figures).
        out: Where the table and the JSON go.
        log: Where the scripts' reports, failures and refusals go.
        folder: The folder of the scripts (default: the checkout's ``bench/``).

    Returns:
        0; 1 when a script failed (the others' figures are printed all the same); 2 when
        there is nothing to run.
    """
    folder = folder or bench_dir()
    if folder is None:
        log.write("feudbot bench runs the scripts in bench/ of a source checkout; none found.\n")
        return 2
    unknown = [name for name in only if name not in {name for name, _, _ in SCRIPTS}]
    if unknown:
        names = ", ".join(name for name, _, _ in SCRIPTS)
        log.write(f"feudbot bench: unknown benchmark {unknown[0]!r}; choose from {names}\n")
        return 2
    rows: list[dict[str, Any]] = []
    failed: list[str] = []
    for name, script, args in SCRIPTS:
        if only and name not in only:
            continue
        if not (folder / script).is_file():
            log.write(f"\n## {script}: not present in this checkout\n")
            continue
        figures, status = run_script(folder, script, args, log)
        rows += figures
        if status != 0:
            failed.append(f"{script} (exit status {status})")
    if not only:
        loaded = process_figures(log)
        if loaded is None:
            failed.append("the start-up figures")
        else:
            rows += loaded
    out.write(table(rows) + "\n\n")
    out.write(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    if failed:
        log.write(f"feudbot bench: failed: {', '.join(failed)}; their figures are missing\n")
        return 1
    return 0
