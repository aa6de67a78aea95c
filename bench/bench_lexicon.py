"""Benchmark the English lexicon: load time, memory, membership and prefix speed.

Run from the repository root::

    python bench/bench_lexicon.py

Prints figures, asserts nothing. Load time and memory are measured in fresh child processes (so
earlier allocations do not blur them): wall time of `english()` and the growth of the resident
set size (RSS, Linux /proc) across it, plus tracemalloc's count of what Python keeps. When the
wheels `marisa-trie` and `dawg2` happen to be installed (they are not project dependencies),
the same figures are printed for them, from files they build out of the same words.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from figures import figure  # noqa: E402

from bot.lexicon import Lexicon, english  # noqa: E402

CHILD_RUNS = 5
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _say(line: str = "") -> None:
    """Print one line of the report."""
    sys.stdout.write(line + "\n")


def _rss() -> int:
    """Return the resident set size in bytes (Linux), or -1 when it cannot be read."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return -1


# -- children: one load per fresh process ------------------------------------------------------


def _load_ours(_path: str) -> object:
    return english()


def _load_trie(path: str) -> object:
    """Build a plain (unminimized) dict-of-dicts trie, the naive alternative to a DAWG."""
    trie: dict[str, Any] = {}
    for word in _PREPARED:
        node = trie
        for letter in word:
            node = node.setdefault(letter, {})
        node["$"] = True
    return trie


def _load_marisa(path: str) -> object:
    import marisa_trie

    return marisa_trie.Trie().load(path)


def _load_dawg(path: str) -> object:
    import dawg

    return dawg.CompletionDAWG().load(path)


LOADERS: dict[str, Callable[[str], object]] = {
    "ours": _load_ours,
    "trie": _load_trie,
    "marisa": _load_marisa,
    "dawg": _load_dawg,
}
PRELOAD = {"marisa": "marisa_trie", "dawg": "dawg"}
_PREPARED: list[str] = []


def child(kind: str, path: str, traced: bool) -> None:
    """Load one structure in this fresh process and print its load time and memory as JSON."""
    if kind in PRELOAD:
        importlib.import_module(PRELOAD[kind])
    if kind == "trie":  # the words to build from are read before measuring
        _PREPARED.extend(Path(path).read_text(encoding="ascii").split())
    gc.collect()
    if traced:
        tracemalloc.start()
    rss = _rss()
    start = time.perf_counter()
    loaded = LOADERS[kind](path)
    seconds = time.perf_counter() - start
    gc.collect()
    figures: dict[str, float] = {"seconds": seconds, "rss": _rss() - rss if rss >= 0 else -1}
    if traced:
        figures["traced"], figures["peak"] = tracemalloc.get_traced_memory()
    sys.stdout.write(json.dumps(figures) + "\n")
    del loaded


def in_children(kind: str, path: str = "", *, traced: bool = False) -> dict[str, float]:
    """Run `child` in fresh processes (CHILD_RUNS times untraced) and return median figures."""
    runs = []
    for _ in range(1 if traced else CHILD_RUNS):
        command = [sys.executable, __file__, "--child", kind, "--path", path]
        if traced:
            command.append("--traced")
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        runs.append(json.loads(output.splitlines()[-1]))
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


# -- speed, in this process --------------------------------------------------------------------


def rate(check: Callable[[str], object], probes: list[str]) -> float:
    """Return calls per second of `check` over the probes (best of three passes)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for probe in probes:
            check(probe)
        best = min(best, time.perf_counter() - start)
    return len(probes) / best


def probes(words: list[str]) -> dict[str, list[str]]:
    """Make repeatable probe lists: words, near misses, prefixes."""
    rng = random.Random(20240601)
    hits = rng.sample(words, 100_000)
    misses = []
    for word in hits:
        i = rng.randrange(len(word))
        misses.append(word[:i] + rng.choice(LETTERS) + word[i + 1 :])
    prefixes = [word[: rng.randint(1, len(word))] for word in hits]
    return {"hits": hits, "misses": misses, "prefixes": prefixes}


def children_ours(lexicon: Lexicon) -> Callable[[str], object]:
    """List the letters that may follow a prefix, as the move generator does: one dict."""

    def follow(prefix: str) -> object:
        node = lexicon.walk(prefix)
        return None if node is None else list(lexicon.edges(node))

    return follow


def children_by_prefix_query(has_prefix: Callable[[str], bool]) -> Callable[[str], object]:
    """List the letters that may follow a prefix with 26 prefix queries (no node API)."""

    def follow(prefix: str) -> object:
        return [letter for letter in LETTERS if has_prefix(prefix + letter)]

    return follow


def _row(cells: Iterable[object]) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def _mb(value: float) -> str:
    return "n/a" if value < 0 else f"{value / 1e6:.1f} MB"


def speed_cells(
    contains: Callable[[str], object],
    has_prefix: Callable[[str], object],
    follow: Callable[[str], object],
    sample: dict[str, list[str]],
) -> list[str]:
    """Return the membership, prefix and child-letter rates for one structure."""
    return [
        f"{rate(contains, sample['hits']) / 1e6:.2f} M/s",
        f"{rate(contains, sample['misses']) / 1e6:.2f} M/s",
        f"{rate(has_prefix, sample['prefixes']) / 1e6:.2f} M/s",
        f"{rate(follow, sample['prefixes']) / 1e3:.0f} k/s",
    ]


def wheel_rows(words: list[str], sample: dict[str, list[str]], tmp: Path) -> list[list[object]]:
    """Measure marisa-trie and dawg2 on the same words, when they are installed."""
    rows: list[list[object]] = []
    if importlib.util.find_spec("marisa_trie"):
        import marisa_trie

        path = tmp / "english.marisa"
        marisa_trie.Trie(words).save(str(path))
        trie = marisa_trie.Trie().load(str(path))
        figures = in_children("marisa", str(path))

        def has_prefix(prefix: str) -> bool:
            # iterkeys replaces has_keys_with_prefix, deprecated in marisa-trie 1.x.
            return next(trie.iterkeys(prefix), None) is not None

        rows.append(
            [
                "marisa-trie (C++ wheel)",
                f"{path.stat().st_size / 1e3:.0f} KB",
                f"{figures['seconds'] * 1000:.1f} ms",
                _mb(figures["rss"]),
                "(C++ heap)",
                *speed_cells(
                    trie.__contains__, has_prefix, children_by_prefix_query(has_prefix), sample
                ),
            ]
        )
    if importlib.util.find_spec("dawg"):
        import dawg

        path = tmp / "english.dawg"
        dawg.CompletionDAWG(words).save(str(path))  # DAWG alone has no prefix queries
        graph = dawg.CompletionDAWG().load(str(path))
        figures = in_children("dawg", str(path))
        rows.append(
            [
                "dawg2 CompletionDAWG (C++ wheel)",
                f"{path.stat().st_size / 1e3:.0f} KB",
                f"{figures['seconds'] * 1000:.1f} ms",
                _mb(figures["rss"]),
                "(C++ heap)",
                *speed_cells(
                    graph.__contains__,
                    graph.has_keys_with_prefix,
                    children_by_prefix_query(graph.has_keys_with_prefix),
                    sample,
                ),
            ]
        )
    return rows


def main() -> None:
    """Print the figures for our loader, then for the wheels that are installed."""
    data_file = REPO / "bot" / "lexicon" / "data" / "english.dawg.gz"
    lexicon = english()
    words = list(lexicon)
    _say(f"Lexicon: {len(lexicon):,} words, {lexicon.node_count:,} DAWG nodes")
    _say(f"Data file: {data_file.name}, {data_file.stat().st_size:,} bytes")
    _say(f"Python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} CPUs")

    raw = gzip.decompress(data_file.read_bytes())
    start = time.perf_counter()
    Lexicon.from_bytes(raw)
    decode = time.perf_counter() - start
    start = time.perf_counter()
    Lexicon.from_words(words)
    build = time.perf_counter() - start
    _say(f"Decode the stored DAWG (from_bytes, in process): {decode * 1000:.0f} ms")
    _say(f"Minimize from the word list instead (from_words): {build * 1000:.0f} ms")

    ours = in_children("ours")
    traced = in_children("ours", traced=True)
    _say(f"english() in a fresh process: {ours['seconds'] * 1000:.0f} ms (median of {CHILD_RUNS})")
    figure(
        "lexicon load (fresh process)", ours["seconds"] * 1000, "ms", goal="<= 1000", stat="median"
    )
    figure("lexicon memory (RSS growth)", ours["rss"] / 1e6, "MB", goal="<= 40")
    _say(
        f"RSS growth: {_mb(ours['rss'])}; tracemalloc kept {_mb(traced['traced'])}, "
        f"peak {_mb(traced['peak'])}"
    )
    sample = probes(words)
    cells = speed_cells(
        lexicon.__contains__,
        lambda prefix: lexicon.walk(prefix) is not None,
        children_ours(lexicon),
        sample,
    )
    _say(f"Membership: {cells[0]} (words), {cells[1]} (near misses); prefix walk: {cells[2]}")
    _say()

    rows: list[list[object]] = [
        [
            "feudbot DAWG (pure Python)",
            f"{data_file.stat().st_size / 1e3:.0f} KB",
            f"{ours['seconds'] * 1000:.0f} ms",
            _mb(ours["rss"]),
            _mb(traced["traced"]),
            *cells,
        ]
    ]
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "words.txt"
        listing.write_text("\n".join(words), encoding="ascii")
        trie = in_children("trie", str(listing))
        trie_traced = in_children("trie", str(listing), traced=True)
        rows.append(
            [
                "plain dict trie (pure Python)",
                "-",
                f"{trie['seconds'] * 1000:.0f} ms (build)",
                _mb(trie["rss"]),
                _mb(trie_traced["traced"]),
                *["-"] * 4,
            ]
        )
        rows.extend(wheel_rows(words, sample, Path(tmp)))
    if len(rows) == 2:
        _say("(marisa-trie / dawg2 not installed: no wheel comparison)")
    header = ["structure", "file", "load", "RSS growth", "tracemalloc kept"]
    header += ["member hits", "member misses", "prefix exists", "child letters of a prefix"]
    _say(_row(header))
    _say(_row(["---"] * len(header)))
    for row in rows:
        _say(_row(row))
    _say()
    _say("Load: median of fresh processes. Probes: 100,000 sampled words, the same words with one")
    _say("letter changed (near misses), and 100,000 of their prefixes. Wheels lack a node API, so")
    _say("their child letters take 26 prefix queries.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Benchmark the English lexicon.")
    parser.add_argument("--child", choices=sorted(LOADERS), help=argparse.SUPPRESS)
    parser.add_argument("--path", default="", help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        child(arguments.child, arguments.path, arguments.traced)
    else:
        main()
