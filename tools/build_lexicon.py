"""Build the packaged English lexicon, bot/lexicon/data/english.dawg.gz (run by hand, not in CI).

The list is ENABLE (public domain) united with Debian's SCOWL word lists of size <= 70, kept to
lower-case a-z words of 2..16 letters (SmartFeud's board is 16 wide), less SCOWL's two-letter
junk, plus tools/lexicon/allow.txt and less tools/lexicon/deny.txt. It is stored as a minimized
DAWG (`bot.lexicon.Lexicon`), gzipped deterministically, beside PROVENANCE.md (sources, counts,
digests) and LICENSES.md.

Usage, from anywhere (needs `apt-get install scowl`)::

    python tools/build_lexicon.py [ENABLE1_TXT] [--scowl-dir DIR] [--out DIR] [--list FILE]

ENABLE1_TXT defaults to ../shared/wordlists/enable1.txt relative to the repository root.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import hashlib
import io
import re
import shlex
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    # Run as a plain script: make the `bot` package importable without installing it.
    sys.path.insert(0, str(REPO))

from bot.lexicon import FORMAT_VERSION, Lexicon  # noqa: E402

DEFAULT_ENABLE = Path("../shared/wordlists/enable1.txt")
DEFAULT_SCOWL = Path("/usr/share/dict/scowl")
DEFAULT_OUT = REPO / "bot" / "lexicon" / "data"
ALLOW = REPO / "tools" / "lexicon" / "allow.txt"
DENY = REPO / "tools" / "lexicon" / "deny.txt"

SCOWL_FAMILIES = ("english", "american", "british", "british_z", "canadian", "australian")
SCOWL_MAX_SIZE = 70
# SCOWL's words lists carry these two-letter abbreviations as words.
SCOWL_JUNK = frozenset(
    ("cs", "gs", "kb", "ks", "lm", "ln", "ls", "lx", "mb", "mf", "ms", "ps", "rs", "ss", "ts")
)
LOWER_AZ = re.compile(r"[a-z]+")
WORD = re.compile(r"[a-z]{2,16}")
DATA_NAME = "english.dawg.gz"

ENABLE_LICENCE = """\
ENABLE (Enhanced North American Benchmark Lexicon, the ENABLE2K word list, file enable1.txt) was
placed in the public domain by its authors. No notice is
required; this note records where the words came from."""


@dataclass
class Counts:
    """Figures gathered along the build, written to PROVENANCE.md."""

    enable_lines: int = 0
    enable_kept: int = 0
    scowl_files: list[str] = field(default_factory=list)
    scowl_encodings: set[str] = field(default_factory=set)
    scowl_entries: int = 0
    scowl_kept: int = 0
    union: int = 0
    scowl_only: int = 0
    length_dropped: int = 0
    junk_removed: int = 0
    allow_entries: int = 0
    allow_added: int = 0
    deny_entries: int = 0
    deny_removed: int = 0


def _say(message: str) -> None:
    """Report progress on standard output."""
    sys.stdout.write(message + "\n")


def read_text(path: Path) -> tuple[str, str]:
    """Return the file's text and its encoding: UTF-8, else Latin-1 (older SCOWL releases)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def read_list(path: Path) -> list[str]:
    """Read a tracked allow/deny list: one word a line, `#` comments and blank lines skipped."""
    words = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not WORD.fullmatch(line):
            raise SystemExit(f"{path}:{number}: {line!r} is not 2..16 lower-case letters a-z")
        words.append(line)
    return words


def scowl_files(scowl_dir: Path, max_size: int) -> list[Path]:
    """List SCOWL's words files of the chosen families with size <= max_size, in a fixed order."""
    pattern = re.compile(rf"({'|'.join(SCOWL_FAMILIES)})-words\.(\d+)")
    found = []
    for path in scowl_dir.iterdir():
        match = pattern.fullmatch(path.name)
        if match and int(match[2]) <= max_size:
            found.append((SCOWL_FAMILIES.index(match[1]), int(match[2]), path))
    if not found:
        raise SystemExit(f"No SCOWL words files in {scowl_dir}: apt-get install -y scowl")
    return [path for _, _, path in sorted(found)]


def lower_az(words: Iterable[str]) -> set[str]:
    """Keep lower-case a-z words: no capitals, apostrophes, accents or digits."""
    return {word for word in words if LOWER_AZ.fullmatch(word)}


def collect(enable: Path, scowl_dir: Path, counts: Counts) -> list[str]:
    """Return the sorted lower-case word list and fill in the counts."""
    enable_lines = enable.read_text(encoding="ascii").splitlines()
    counts.enable_lines = len(enable_lines)
    enable_words = lower_az(enable_lines)
    counts.enable_kept = len({word for word in enable_words if WORD.fullmatch(word)})

    entries: set[str] = set()
    for path in scowl_files(scowl_dir, SCOWL_MAX_SIZE):
        text, encoding = read_text(path)
        counts.scowl_files.append(path.name)
        counts.scowl_encodings.add(encoding)
        entries.update(line.strip() for line in text.splitlines() if line.strip())
    counts.scowl_entries = len(entries)
    scowl_words = lower_az(entries)
    counts.scowl_kept = len({word for word in scowl_words if WORD.fullmatch(word)})

    words = enable_words | scowl_words
    counts.union = len(words)
    counts.scowl_only = len(scowl_words - enable_words)
    counts.length_dropped = sum(1 for word in words if not WORD.fullmatch(word))
    words = {word for word in words if WORD.fullmatch(word)}
    counts.junk_removed = len(words & SCOWL_JUNK)
    words -= SCOWL_JUNK

    allow, deny = read_list(ALLOW), read_list(DENY)
    if clash := sorted(set(allow) & set(deny)):
        raise SystemExit(f"Both allowed and denied: {', '.join(clash)}")
    counts.allow_entries, counts.deny_entries = len(allow), len(deny)
    for word in sorted(set(allow) & words):
        _say(f"note: allow.txt entry {word!r} is already in the list")
    for word in sorted(set(deny) - words):
        _say(f"note: deny.txt entry {word!r} is not in the list anyway")
    counts.allow_added = len(set(allow) - words)
    counts.deny_removed = len(set(deny) & words)
    words |= set(allow)
    words -= set(deny)
    return sorted(words)


def gzip_bytes(data: bytes) -> bytes:
    """Gzip reproducibly: no file name, mtime 0, and GzipFile's fixed OS byte."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buffer, mtime=0) as out:
        out.write(data)
    return buffer.getvalue()


def scowl_version() -> str:
    """Ask dpkg which scowl package is installed."""
    result = subprocess.run(
        ["dpkg-query", "--show", "--showformat=${Version}", "scowl"],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0 or not result.stdout:
        raise SystemExit("Cannot read the scowl version from dpkg: apt-get install -y scowl")
    return result.stdout.strip()


def _families(files: list[str]) -> str:
    """Summarize SCOWL file names as `family-words.{sizes}` groups."""
    sizes: dict[str, list[str]] = {}
    for name in files:
        family, size = name.split("-words.")
        sizes.setdefault(family, []).append(size)
    return "\n".join(f"- `{family}-words.{{{','.join(s)}}}`" for family, s in sizes.items())


def provenance(
    counts: Counts,
    lexicon: Lexicon,
    words_sha256: str,
    raw_size: int,
    data: bytes,
    enable_md5: str,
    version: str,
    command: str,
    date: str,
) -> str:
    """Write PROVENANCE.md: what went in, what came out, and how to do it again."""
    edge_count = sum(len(lexicon.edges(n)) for n in range(lexicon.node_count))
    return f"""\
# Provenance of `{DATA_NAME}`

Built {date} by `tools/build_lexicon.py`. Do not edit the data by hand: change
`tools/lexicon/allow.txt` or `tools/lexicon/deny.txt` and run the builder again.

Build command (from the repository root, with Debian's `scowl` package installed):

```
{command}
```

## Sources

| source | version / digest | entries | kept (a-z, 2..16 letters) |
| --- | --- | ---: | ---: |
| ENABLE `enable1.txt` (public domain) | md5 `{enable_md5}` | {counts.enable_lines:,} | \
{counts.enable_kept:,} |
| SCOWL, Debian package `scowl` | version `{version}` | {counts.scowl_entries:,} distinct | \
{counts.scowl_kept:,} |

SCOWL files used ({len(counts.scowl_files)}, sizes <= {SCOWL_MAX_SIZE}, encoding \
{", ".join(sorted(counts.scowl_encodings))}), from `/usr/share/dict/scowl/`:

{_families(counts.scowl_files)}

## Counts

| step | words |
| --- | ---: |
| ENABLE united with SCOWL, lower-case a-z words of any length | {counts.union:,} |
| of which only in SCOWL | {counts.scowl_only:,} |
| dropped for length (1 letter, or more than 16) | -{counts.length_dropped:,} |
| SCOWL two-letter junk removed ({" ".join(sorted(SCOWL_JUNK))}) | -{counts.junk_removed:,} |
| `allow.txt`: {counts.allow_entries} entries, new words added | +{counts.allow_added:,} |
| `deny.txt`: {counts.deny_entries} entries, words removed | -{counts.deny_removed:,} |
| **final word count** | **{len(lexicon):,}** |

## Output

| figure | value |
| --- | --- |
| words | {len(lexicon):,} |
| sha256 of the word list (lower case, sorted, one a line, LF) | `{words_sha256}` |
| DAWG nodes / edges | {lexicon.node_count:,} / {edge_count:,} |
| serialized layout version | {FORMAT_VERSION} |
| uncompressed size | {raw_size:,} bytes |
| `{DATA_NAME}` size | {len(data):,} bytes |
| `{DATA_NAME}` md5 | `{hashlib.md5(data, usedforsecurity=False).hexdigest()}` |
"""


def licences(scowl_copyright: str) -> str:
    """Write LICENSES.md: ENABLE's status and SCOWL's copyright file verbatim."""
    return f"""\
# Licences of the English word list

`{DATA_NAME}` is derived from two sources.

## ENABLE (public domain)

{ENABLE_LICENCE}

## SCOWL

The following is `/usr/share/doc/scowl/copyright` from Debian's `scowl` package, verbatim.

```
{scowl_copyright.rstrip()}
```
"""


def main(argv: list[str] | None = None) -> int:
    """Build the lexicon and write the data, PROVENANCE.md and LICENSES.md."""
    parser = argparse.ArgumentParser(description="Build the packaged English lexicon.")
    parser.add_argument(
        "enable",
        nargs="?",
        type=Path,
        default=DEFAULT_ENABLE,
        help="ENABLE word list; relative paths are taken from the repository root "
        f"(default {DEFAULT_ENABLE})",
    )
    parser.add_argument("--scowl-dir", type=Path, default=DEFAULT_SCOWL)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="data directory")
    parser.add_argument("--list", type=Path, help="also write the plain word list here")
    parser.add_argument("--date", help="date to record (default: today, UTC)")
    args = parser.parse_args(argv)

    enable = args.enable if args.enable.is_absolute() else REPO / args.enable
    counts = Counts()
    words = collect(enable, args.scowl_dir, counts)
    listing = "".join(f"{word}\n" for word in words).encode("ascii")

    lexicon = Lexicon.from_words(words)
    raw = lexicon.to_bytes()
    data = gzip_bytes(raw)
    if Lexicon.from_bytes(gzip.decompress(data)).to_bytes() != raw or list(lexicon) != [
        word.upper() for word in words
    ]:
        raise SystemExit("The DAWG does not round-trip: not writing it.")

    date = args.date or dt.datetime.now(dt.UTC).date().isoformat()
    command = shlex.join(["python", "tools/build_lexicon.py", *sys.argv[1:]])
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / DATA_NAME).write_bytes(data)
    (args.out / "PROVENANCE.md").write_text(
        provenance(
            counts,
            lexicon,
            hashlib.sha256(listing).hexdigest(),
            len(raw),
            data,
            hashlib.md5(enable.read_bytes(), usedforsecurity=False).hexdigest(),
            scowl_version(),
            command,
            date,
        ),
        encoding="utf-8",
    )
    copyright_text, _ = read_text(Path("/usr/share/doc/scowl/copyright"))
    (args.out / "LICENSES.md").write_text(licences(copyright_text), encoding="utf-8")
    if args.list:
        args.list.write_bytes(listing)
    _say(
        f"{len(words):,} words, {lexicon.node_count:,} nodes, {len(data):,} bytes "
        f"-> {args.out / DATA_NAME}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
