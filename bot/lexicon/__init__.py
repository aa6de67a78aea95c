"""Word lists for the tile games: membership and prefix walks over a minimized DAWG.

A `Lexicon` is a directed acyclic word graph (DAWG): a trie whose identical sub-tries are shared,
so the ~180k English words need about 59k nodes instead of the ~400k a plain trie would. Nodes
are small integers; `edges(node)` gives the node's outgoing letters as a dict, which is exactly
what a move generator walks when it extends a word along the board.

The English list ships pre-minimized in `data/english.dawg.gz` (built by
`tools/build_lexicon.py`; sources and licences in `data/PROVENANCE.md` and `data/LICENSES.md`),
so loading only decodes arrays and never minimizes at run time. Standard library only.
"""

from __future__ import annotations

import array
import functools
import gzip
import importlib.resources
import struct
import sys
from collections.abc import Iterable, Iterator, Mapping

__all__ = ["FORMAT_VERSION", "Lexicon", "english"]

#: Version of the serialized layout written by `Lexicon.to_bytes`.
FORMAT_VERSION = 1

_MAGIC = b"FEUDDAWG"
# magic, format version, node count, edge count, word count, byte length of the UTF-8 labels.
_HEADER = struct.Struct("<8sHIIII")
# Children per node are stored in one byte each: plenty for any alphabet a tile game uses.
_MAX_CHILDREN = 255
_ENGLISH = "english.dawg.gz"


class Lexicon:
    """An immutable set of upper-case words stored as a minimized DAWG.

    Node 0 (`root`) is the empty prefix. Following `edges(node)[letter]` from the root along the
    letters of a word reaches a node for which `is_word` is true exactly when the word is in the
    lexicon. Distinct prefixes may share a node (they have the same set of completions), so a
    node identifies what may follow, not which prefix led there.
    """

    __slots__ = ("_edges", "_final", "_size", "root")

    root: int

    def __init__(self, edges: list[dict[str, int]], final: bytes, size: int) -> None:
        """Wrap already-built node tables; use `from_words` or `from_bytes` instead."""
        self._edges = edges
        self._final = final
        self._size = size
        self.root = 0

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def from_words(cls, words: Iterable[str]) -> Lexicon:
        """Build a minimized DAWG from words in any order and case (duplicates are ignored).

        Raises:
            ValueError: if a word is empty.
        """
        ordered = sorted({word.upper() for word in words})
        if ordered and not ordered[0]:
            raise ValueError("A lexicon cannot hold the empty word.")
        edges, final = _minimized_dawg(ordered)
        return cls(edges, final, len(ordered))

    @classmethod
    def from_bytes(cls, data: bytes) -> Lexicon:
        """Load the layout written by `to_bytes` (uncompressed).

        Raises:
            ValueError: if the data is not a lexicon of this format version, or is damaged.
        """
        if len(data) < _HEADER.size:
            raise ValueError("Lexicon data is truncated.")
        magic, version, nodes, edge_count, size, label_bytes = _HEADER.unpack_from(data)
        if magic != _MAGIC or version != FORMAT_VERSION:
            raise ValueError(f"Not a version {FORMAT_VERSION} lexicon.")
        targets = array.array("I")
        expected = _HEADER.size + 2 * nodes + label_bytes + edge_count * targets.itemsize
        if len(data) != expected or nodes == 0:
            raise ValueError("Lexicon data has the wrong length.")
        offset = _HEADER.size
        final = data[offset : offset + nodes]
        counts = data[offset + nodes : offset + 2 * nodes]
        offset += 2 * nodes
        labels = data[offset : offset + label_bytes].decode("utf-8")
        targets.frombytes(data[offset + label_bytes :])
        if sys.byteorder != "little":
            targets.byteswap()
        if len(labels) != edge_count or sum(counts) != edge_count:
            raise ValueError("Lexicon data has inconsistent edge counts.")
        if edge_count and max(targets) >= nodes:
            raise ValueError("Lexicon data points past its last node.")
        edges: list[dict[str, int]] = []
        append = edges.append
        start = 0
        for count in counts:
            stop = start + count
            append(dict(zip(labels[start:stop], targets[start:stop], strict=True)))
            start = stop
        return cls(edges, bytes(final), size)

    def to_bytes(self) -> bytes:
        """Serialize the graph (little-endian arrays; compress it yourself if you store it).

        Raises:
            ValueError: if a node has more children than the layout can record.
        """
        counts = bytearray()
        for node_edges in self._edges:
            if len(node_edges) > _MAX_CHILDREN:
                raise ValueError(f"A node has more than {_MAX_CHILDREN} children.")
            counts.append(len(node_edges))
        labels = "".join("".join(node_edges) for node_edges in self._edges).encode("utf-8")
        targets = array.array("I", [child for e in self._edges for child in e.values()])
        if sys.byteorder != "little":
            targets.byteswap()
        header = _HEADER.pack(
            _MAGIC, FORMAT_VERSION, len(self._edges), len(targets), self._size, len(labels)
        )
        return b"".join((header, self._final, bytes(counts), labels, targets.tobytes()))

    # -- queries -----------------------------------------------------------------------------

    def __contains__(self, word: object) -> bool:
        """Tell whether `word` (any case) is in the lexicon."""
        if not isinstance(word, str):
            return False
        edges = self._edges
        node = 0
        for letter in word.upper():
            child = edges[node].get(letter)
            if child is None:
                return False
            node = child
        return self._final[node] != 0

    def __len__(self) -> int:
        """Return the number of words."""
        return self._size

    def __iter__(self) -> Iterator[str]:
        """Yield every word in sorted order by walking the graph from the root."""
        edges = self._edges
        final = self._final
        # Depth-first, children pushed in reverse so that they pop in alphabetical order.
        stack: list[tuple[str, int]] = [("", self.root)]
        while stack:
            prefix, node = stack.pop()
            if final[node]:
                yield prefix
            children = edges[node]
            for letter in sorted(children, reverse=True):
                stack.append((prefix + letter, children[letter]))

    def __repr__(self) -> str:
        """Show the size, not the words."""
        return f"<Lexicon {self._size} words, {len(self._edges)} nodes>"

    def edges(self, node: int) -> Mapping[str, int]:
        """Return the node's children by upper-case letter: the internal dict, do not mutate."""
        return self._edges[node]

    def is_word(self, node: int) -> bool:
        """Tell whether the path from the root to `node` spells a word."""
        return self._final[node] != 0

    def walk(self, prefix: str, node: int = 0) -> int | None:
        """Follow `prefix` (any case) from `node` (the root by default); None if no word has it."""
        edges = self._edges
        for letter in prefix.upper():
            child = edges[node].get(letter)
            if child is None:
                return None
            node = child
        return node

    @property
    def node_count(self) -> int:
        """Return the number of nodes in the graph, the root included."""
        return len(self._edges)


def _minimized_dawg(words: list[str]) -> tuple[list[dict[str, int]], bytes]:
    """Build node tables for sorted, distinct, non-empty words (Daciuk et al. 2000, sorted input).

    Each word is added as a trie branch; branches that no later word can extend are then replaced
    by an equivalent node already registered (same finality, same labelled children), so equal
    sub-graphs are stored once. The result is renumbered in depth-first preorder from the root.
    """
    edges: list[dict[str, int]] = [{}]
    final = bytearray(1)
    register: dict[tuple[int, tuple[tuple[str, int], ...]], int] = {}
    # The path of the previous word that is not yet minimized: (parent, letter, child).
    unchecked: list[tuple[int, str, int]] = []

    def minimize(keep: int) -> None:
        while len(unchecked) > keep:
            parent, letter, child = unchecked.pop()
            key = (final[child], tuple(edges[child].items()))
            twin = register.setdefault(key, child)
            if twin != child:
                edges[parent][letter] = twin

    previous = ""
    for word in words:
        common = 0
        for mine, theirs in zip(word, previous, strict=False):
            if mine != theirs:
                break
            common += 1
        minimize(common)
        node = unchecked[-1][2] if unchecked else 0
        for letter in word[common:]:
            child = len(edges)
            edges.append({})
            final.append(0)
            edges[node][letter] = child
            unchecked.append((node, letter, child))
            node = child
        final[node] = 1
        previous = word
    minimize(0)
    return _renumbered(edges, final)


def _renumbered(
    edges: list[dict[str, int]], final: bytearray
) -> tuple[list[dict[str, int]], bytes]:
    """Keep the nodes reachable from the root, numbered in depth-first preorder."""
    number: dict[int, int] = {}
    order: list[int] = []
    stack = [0]
    while stack:
        node = stack.pop()
        if node in number:
            continue
        number[node] = len(order)
        order.append(node)
        stack.extend(reversed(edges[node].values()))
    new_edges = [{letter: number[child] for letter, child in edges[n].items()} for n in order]
    return new_edges, bytes(final[n] for n in order)


@functools.cache
def english() -> Lexicon:
    """Return the packaged English lexicon, loaded once per process."""
    data = importlib.resources.files(__name__).joinpath("data", _ENGLISH).read_bytes()
    return Lexicon.from_bytes(gzip.decompress(data))
