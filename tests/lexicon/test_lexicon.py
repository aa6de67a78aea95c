"""The word lexicon: the packaged English list and the DAWG behind it."""

from __future__ import annotations

import gzip
import hashlib
import importlib.resources
import re
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.lexicon import Lexicon, english

SCOWL_JUNK = [
    *("CS", "GS", "KB", "KS", "LM", "LN", "LS", "LX"),
    *("MB", "MF", "MS", "PS", "RS", "SS", "TS"),
]
DATA = importlib.resources.files("bot.lexicon").joinpath("data")


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    return english()


@pytest.fixture(scope="session")
def words(lexicon: Lexicon) -> list[str]:
    return list(lexicon)


def walk_words(lexicon: Lexicon) -> Iterator[str]:
    """Yield every path from the root that ends on a word node, using only edges/is_word."""
    stack = [("", lexicon.root)]
    while stack:
        prefix, node = stack.pop()
        if lexicon.is_word(node):
            yield prefix
        stack.extend((prefix + letter, child) for letter, child in lexicon.edges(node).items())


def provenance_figure(label: str) -> str:
    """Return the value cell of the PROVENANCE.md output-table row starting with `label`."""
    for line in DATA.joinpath("PROVENANCE.md").read_text(encoding="utf-8").splitlines():
        if line.startswith(f"| {label}"):
            return line.split("|")[2].strip().strip("`")
    raise AssertionError(f"no {label!r} row in PROVENANCE.md")


# -- the packaged English list ---------------------------------------------------------------


@pytest.mark.parametrize("word", ["QUIZ", "COLOUR", "COLOR", "REALISE", "ORGANISE", "QI", "AA"])
def test_known_words_are_present(lexicon: Lexicon, word: str) -> None:
    """Common words and both British and American spellings are in the English list."""
    assert word in lexicon


def test_lower_case_input_is_accepted(lexicon: Lexicon) -> None:
    """Membership ignores case."""
    assert "quiz" in lexicon
    assert "Colour" in lexicon


@pytest.mark.parametrize("word", ["ZA", "EW", "OK"])
def test_allowed_words_are_added(lexicon: Lexicon, word: str) -> None:
    """The words in tools/lexicon/allow.txt made it into the list."""
    assert word in lexicon


@pytest.mark.parametrize("word", SCOWL_JUNK)
def test_scowl_two_letter_junk_is_absent(lexicon: Lexicon, word: str) -> None:
    """SCOWL's two-letter abbreviations are not words."""
    assert word not in lexicon


@pytest.mark.parametrize("word", ["CSC", "HHD", "KCAL", "TANH"])
def test_denied_abbreviations_are_absent(lexicon: Lexicon, word: str) -> None:
    """The abbreviations in tools/lexicon/deny.txt are removed."""
    assert word not in lexicon


@pytest.mark.parametrize("word", ["XYZZY", "QUIZZ", "COLOURX", "TEH", "A", "I", "", "QU"])
def test_non_words_are_absent(lexicon: Lexicon, word: str) -> None:
    """Non-words, single letters, the empty string and bare prefixes are not words."""
    assert word not in lexicon


@pytest.mark.parametrize("thing", [None, 42, b"QUIZ", ("Q", "U", "I", "Z")])
def test_non_strings_are_never_members(lexicon: Lexicon, thing: object) -> None:
    """Only strings can be members."""
    assert thing not in lexicon


def test_word_count_matches_provenance(lexicon: Lexicon, words: list[str]) -> None:
    """len() equals the number of words in the graph and the count PROVENANCE.md records."""
    assert len(lexicon) == len(words) == int(provenance_figure("words").replace(",", ""))
    assert 175_000 < len(lexicon) < 190_000


def test_words_match_the_recorded_digest(words: list[str]) -> None:
    """The graph spells exactly the word list whose sha256 PROVENANCE.md records, in order."""
    listing = "".join(f"{word.lower()}\n" for word in words).encode("ascii")
    assert hashlib.sha256(listing).hexdigest() == provenance_figure("sha256 of the word list")


def test_every_word_is_reachable_from_the_root(lexicon: Lexicon, words: list[str]) -> None:
    """Following edges from the root along each word ends on a node marked is_word."""
    for word in words:
        node = lexicon.root
        for letter in word:
            node = lexicon.edges(node)[letter]
        assert lexicon.is_word(node), word


def test_word_paths_are_exactly_the_words(lexicon: Lexicon, words: list[str]) -> None:
    """The paths ending on is_word nodes are the word list, with no extra words."""
    assert sorted(walk_words(lexicon)) == words


def test_words_are_2_to_15_letters_a_to_z(words: list[str]) -> None:
    """Every word is 2..16 upper-case letters A-Z (SmartFeud's board is 16 wide)."""
    shape = re.compile(r"[A-Z]{2,16}")
    assert [word for word in words if not shape.fullmatch(word)] == []


def test_packaged_data_is_the_minimal_dawg_of_its_words(words: list[str]) -> None:
    """Rebuilding from the words reproduces the packaged bytes: minimized and deterministic."""
    packaged = gzip.decompress(DATA.joinpath("english.dawg.gz").read_bytes())
    assert Lexicon.from_words(words).to_bytes() == packaged


def test_english_is_loaded_once() -> None:
    """english() returns the same object every time."""
    assert english() is english()


def test_edges_returns_the_internal_mapping(lexicon: Lexicon) -> None:
    """edges() hands out its dict without copying (it is on the move generator's hot path)."""
    assert lexicon.edges(lexicon.root) is lexicon.edges(lexicon.root)
    assert sorted(lexicon.edges(lexicon.root)) == [chr(c) for c in range(ord("A"), ord("Z") + 1)]


def test_walk_follows_prefixes(lexicon: Lexicon) -> None:
    """walk() reaches a node for a prefix of some word and None when no word starts so."""
    node = lexicon.walk("qui")
    assert node is not None
    assert not lexicon.is_word(node)
    assert lexicon.is_word(lexicon.edges(node)["Z"])
    assert lexicon.walk("QZ") is None
    assert lexicon.walk("") == lexicon.root


# -- building from words ---------------------------------------------------------------------


def test_from_words_ignores_case_and_duplicates() -> None:
    """Words are stored upper-case, once each."""
    lexicon = Lexicon.from_words(["cat", "CAT", "Cats", "dog"])
    assert len(lexicon) == 3
    assert list(lexicon) == ["CAT", "CATS", "DOG"]
    assert "cats" in lexicon
    assert "CA" not in lexicon


def test_from_words_shares_equal_suffixes() -> None:
    """TAP and TOP share the node after T's second letter: root, T, A|O, P is four nodes."""
    lexicon = Lexicon.from_words(["TAP", "TOP"])
    assert lexicon.node_count == 4
    t = lexicon.edges(lexicon.root)["T"]
    assert lexicon.edges(t)["A"] == lexicon.edges(t)["O"]


def test_from_words_rejects_the_empty_word() -> None:
    """The empty string is not a word."""
    with pytest.raises(ValueError, match="empty"):
        Lexicon.from_words(["A", ""])


def test_empty_lexicon_has_no_words() -> None:
    """A lexicon of no words is just a root that is not a word."""
    lexicon = Lexicon.from_words([])
    assert len(lexicon) == 0
    assert list(lexicon) == []
    assert not lexicon.is_word(lexicon.root)
    assert Lexicon.from_bytes(lexicon.to_bytes()).node_count == 1


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:10],
        lambda data: b"NOTADAWG" + data[8:],
        lambda data: data[:-1],
        lambda data: data + b"\0",
    ],
)
def test_from_bytes_rejects_damaged_data(damage: Callable[[bytes], bytes]) -> None:
    """Truncated, foreign or padded data raises ValueError instead of loading wrongly."""
    data = Lexicon.from_words(["TAP", "TOP"]).to_bytes()
    with pytest.raises(ValueError, match=r"(?i)lexicon"):
        Lexicon.from_bytes(damage(data))


def test_from_bytes_rejects_edges_past_the_last_node() -> None:
    """A child id beyond the node table is refused."""
    data = bytearray(Lexicon.from_words(["TAP", "TOP"]).to_bytes())
    data[-4:] = (99).to_bytes(4, "little")
    with pytest.raises(ValueError, match="last node"):
        Lexicon.from_bytes(bytes(data))


def right_languages(words: set[str]) -> set[frozenset[str]]:
    """Return the distinct suffix sets of all prefixes: one per node of the minimal DAWG."""
    prefixes = {""} | {word[:i] for word in words for i in range(len(word) + 1)}
    return {frozenset(w[len(p) :] for w in words if w.startswith(p)) for p in prefixes}


word_sets = st.sets(st.text(alphabet="ABCD", min_size=1, max_size=6), max_size=25)


@given(word_sets, st.lists(st.text(alphabet="ABCDE", max_size=7), max_size=20))
def test_membership_equals_set_membership(words: set[str], probes: list[str]) -> None:
    """For random small word sets, `in` agrees with the set, whatever the case of the probe."""
    lexicon = Lexicon.from_words(word.lower() for word in words)
    assert len(lexicon) == len(words)
    for probe in [*words, *probes]:
        assert (probe in lexicon) == (probe in words)
        assert (probe.lower() in lexicon) == (probe in words)


@given(word_sets)
def test_word_paths_equal_the_set(words: set[str]) -> None:
    """For random small word sets, the paths ending on is_word nodes are exactly the set."""
    lexicon = Lexicon.from_words(words)
    paths = list(walk_words(lexicon))
    assert len(paths) == len(set(paths))
    assert set(paths) == words
    assert list(lexicon) == sorted(words)


@given(word_sets)
def test_dawg_is_minimal(words: set[str]) -> None:
    """The node count equals the number of distinct suffix sets, the minimal DAWG's size."""
    assert Lexicon.from_words(words).node_count == len(right_languages(words))


@given(word_sets)
def test_bytes_round_trip(words: set[str]) -> None:
    """to_bytes then from_bytes gives the same graph and the same words."""
    lexicon = Lexicon.from_words(words)
    again = Lexicon.from_bytes(lexicon.to_bytes())
    assert again.to_bytes() == lexicon.to_bytes()
    assert list(again) == list(lexicon)
    assert len(again) == len(lexicon)
