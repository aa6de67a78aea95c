"""Tiles and seeded bags, shared by every game.

A tile is a short string code (a letter, "?" for a blank, "R5" for a red five, …). A bag is an
ordered tuple of codes: it is shuffled once from the game's seed and then drawn from the front, so
every game replays exactly and tests can rig the order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping


def new_bag(counts: Mapping[str, int], seed: int | str) -> tuple[str, ...]:
    """Return every tile of `counts`, shuffled by `random.Random(seed)`."""
    tiles = [code for code, count in counts.items() for _ in range(count)]
    random.Random(seed).shuffle(tiles)
    return tuple(tiles)


def draw(bag: tuple[str, ...], n: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Take up to `n` tiles from the front of the bag: return (drawn, rest)."""
    n = max(0, min(n, len(bag)))
    return bag[:n], bag[n:]


def return_to_bag(bag: tuple[str, ...], tiles: Iterable[str], seed: int | str) -> tuple[str, ...]:
    """Put `tiles` back into the bag at positions chosen by `random.Random(seed)`."""
    rng = random.Random(seed)
    out = list(bag)
    for tile in tiles:
        out.insert(rng.randint(0, len(out)), tile)
    return tuple(out)


def missing_from(rack: Iterable[str], tiles: Iterable[str]) -> list[str]:
    """Return the tiles of `tiles` that `rack` cannot supply (multiset difference)."""
    have = Counter(rack)
    missing = []
    for tile in tiles:
        if have[tile] > 0:
            have[tile] -= 1
        else:
            missing.append(tile)
    return missing


def shortage(rack: Iterable[str], missing: Iterable[str], name: Callable[[str], str] = str) -> str:
    """Say what `rack` lacks of `missing` (from `missing_from`): "no R5, R6 and only 1 K13".

    A tile the rack holds none of is "no"; one it holds too few of is "only <count>"; `name`
    writes a code for people (e.g. "joker" for J).
    """
    have = Counter(rack)
    wanted = dict.fromkeys(missing)
    absent = [name(tile) for tile in wanted if not have[tile]]
    parts = ["no " + ", ".join(absent)] if absent else []
    parts += [f"only {have[tile]} {name(tile)}" for tile in wanted if have[tile]]
    return " and ".join(parts)


def remove_tiles(rack: Iterable[str], tiles: Iterable[str]) -> tuple[str, ...]:
    """Return `rack` without one copy of each of `tiles` (all must be present)."""
    out = list(rack)
    for tile in tiles:
        out.remove(tile)
    return tuple(out)
