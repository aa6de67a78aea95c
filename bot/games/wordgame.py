"""The crossword word-game engine that Webfeud and SmartFeud share.

A `Variant` configures the board, the premium layout, the tile set, the rack and the bonuses;
`WordState` is one immutable position. Cells are indexed ``row * size + col``. The board is a
string with one character per cell: ``.`` empty, ``A``–``Z`` a letter tile, ``a``–``z`` a blank
played as that letter. Racks and the bag are strings of tile codes (``?`` is a blank).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any, Self

from bot.core.errors import InvalidMove, InvariantError, Reason, RuleError
from bot.core.game import JSON, GameDef, MoveRecord, OptionSpec, Outcome
from bot.core.grid import COLUMNS, Anchor, cell_name, parse_anchor
from bot.core.tiles import draw, missing_from, new_bag, return_to_bag
from bot.lexicon import Lexicon

SCHEMA_VERSION = 1
EMPTY = "."
BLANK = "?"

# Premium codes as they appear in the layout string, and their names in the docs and images.
PLAIN, START, L2, L3, W2, W3 = ".", "*", "d", "t", "D", "T"
PREMIUM_NAMES = {L2: "L2", L3: "L3", W2: "W2", W3: "W3"}
LETTER_FACTOR = {L2: 2, L3: 3}
WORD_FACTOR = {W2: 2, W3: 3}


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """Lay a word: the whole word, letters already on the board included.

    An upper-case letter is a letter tile, a lower-case letter a blank played as that letter.
    """

    anchor: Anchor
    word: str

    def __str__(self) -> str:
        return f"{self.anchor} {self.word}"


@dataclass(frozen=True, slots=True)
class Swap:
    """Return these tiles to the bag and draw as many (``?`` is a blank)."""

    tiles: str

    def __str__(self) -> str:
        return f"swap {self.tiles}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Give up the turn."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Resign:
    """Give up the game."""

    def __str__(self) -> str:
        return "resign"


WordMove = Place | Swap | Pass | Resign

NOTATION_HELP = (
    "Play a word: 8H QUIZ (row 8, column H, across) or H8 QUIZ (column H, row 8, down); write "
    "the whole word, letters on the board included; a lower-case letter is a blank. "
    "Also: swap AEQ? (? = blank), pass, resign."
)


def parse_word_move(text: str) -> WordMove:
    """Parse ``8H QUIZ``, ``H8 QUIZ``, ``swap AEQ?``, ``pass`` or ``resign``."""
    parts = text.split()
    if not parts:
        raise InvalidMove(f"Say what to play. {NOTATION_HELP}")
    head = parts[0].lower()
    if head == "pass" and len(parts) == 1:
        return Pass()
    if head == "resign" and len(parts) == 1:
        return Resign()
    if head == "swap":
        tiles = "".join(parts[1:]).upper()
        if not tiles or any(t != BLANK and not ("A" <= t <= "Z") for t in tiles):
            raise InvalidMove("Name the tiles to swap, e.g. swap AEQ? (? is a blank).")
        return Swap(tiles)
    if len(parts) != 2:
        raise InvalidMove(f"A move is a square and a word, like 8H QUIZ. {NOTATION_HELP}")
    anchor = parse_anchor(parts[0])
    word = parts[1]
    if not word.isascii() or not word.isalpha():
        raise InvalidMove(f"{word!r} is not a word of letters A–Z. Example: 8H QUIZ.")
    return Place(anchor, word)


# --- variants ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Variant:
    """Everything that differs between word games built on this engine."""

    key: str
    title: str
    size: int
    layout: str  # one premium code per cell, START marking the start squares
    tiles: Mapping[str, tuple[int, int]]  # tile code -> (count, value)
    lexicon: Callable[[], Lexicon]
    rack_size: int = 7
    bingo: int = 30  # bonus for playing a full rack in one move
    min_players: int = 2
    max_players: int = 2
    swap_min_bag: int = 7  # a swap needs at least this many tiles in the bag
    pass_limit: int = 3  # consecutive passes that end the game

    @property
    def values(self) -> dict[str, int]:
        """Return the value of each tile code (blank: 0)."""
        return {code: value for code, (_, value) in self.tiles.items()}

    @property
    def start_cells(self) -> frozenset[int]:
        """Return the cells the first word must cover."""
        return frozenset(i for i, code in enumerate(self.layout) if code == START)

    def shuffled_layout(self, seed: int | str) -> str:
        """Return the layout with its premium cells shuffled; the start squares stay put."""
        movable = [i for i, code in enumerate(self.layout) if code != START]
        codes = [self.layout[i] for i in movable]
        random.Random(seed).shuffle(codes)
        out = list(self.layout)
        for i, code in zip(movable, codes, strict=True):
            out[i] = code
        return "".join(out)


def parse_layout(rows: list[str]) -> str:
    """Turn rows of ``L2 .. W3 **`` tokens into a layout string."""
    codes = {"..": PLAIN, "**": START, "L2": L2, "L3": L3, "W2": W2, "W3": W3}
    return "".join(codes[token] for row in rows for token in row.split())


# --- evaluation --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A legal placement: its new tiles, the words it forms and its score."""

    placed: tuple[tuple[int, str], ...]  # (cell, board character) of each new tile
    words: tuple[str, ...]
    score: int
    bingo: bool

    @property
    def rack_tiles(self) -> list[str]:
        """Return the rack tiles the placement uses (``?`` for a blank)."""
        return [ch if ch.isupper() else BLANK for _, ch in self.placed]


# --- the state ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WordState:
    """One position of a word game."""

    variant: Variant = field(repr=False)
    layout: str
    board: str
    racks: tuple[str, ...]
    bag: str
    scores: tuple[int, ...]
    to_move: int
    turn: int
    passes: int
    seed: int
    history: tuple[MoveRecord, ...] = ()
    adjustments: tuple[int, ...] = ()
    outcome: Outcome | None = None
    lexicon: Lexicon = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.lexicon is None:
            object.__setattr__(self, "lexicon", self.variant.lexicon())
        if not self.adjustments:
            object.__setattr__(self, "adjustments", (0,) * len(self.racks))

    # -- the contract --

    @property
    def game_key(self) -> str:
        """Return the registry key of the game."""
        return self.variant.key

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return len(self.racks)

    @property
    def size(self) -> int:
        """Return the board's width (and height)."""
        return self.variant.size

    def waiting_for(self) -> tuple[int, ...]:
        """Return the seat to move, or nothing once the game is over."""
        return () if self.outcome else (self.to_move,)

    def rack(self, seat: int) -> tuple[str, ...]:
        """Return the tiles on `seat`'s rack."""
        return tuple(self.racks[seat])

    def rack_value(self, seat: int) -> int:
        """Return the sum of the values of `seat`'s tiles."""
        values = self.variant.values
        return sum(values[t] for t in self.racks[seat])

    def apply(self, seat: int, move: Any) -> Self:  # noqa: ANN401 - text or a parsed move
        """Return the state after `seat` plays `move`."""
        if self.outcome is not None:
            raise RuleError(Reason.GAME_OVER, "This game is over; start a new one with /new.")
        if not 0 <= seat < self.players:
            raise RuleError(Reason.NOT_A_PLAYER, "You are not playing in this game.")
        if isinstance(move, Resign):
            return self.forfeit(seat, "resign")
        if seat != self.to_move:
            raise RuleError(Reason.NOT_YOUR_TURN, "It is not your turn; wait for your opponent.")
        if isinstance(move, Place):
            return self._place(seat, move)
        if isinstance(move, Swap):
            return self._swap(seat, move)
        if isinstance(move, Pass):
            return self._pass(seat)
        raise InvalidMove(f"{move!s} is not a move of {self.variant.title}. {NOTATION_HELP}")

    def view(self, seat: int | None) -> JSON:
        """Return what `seat` may see: the board, the scores, its own rack only."""
        return {
            "game": self.game_key,
            "size": self.size,
            "layout": self.layout,
            "board": self.board,
            "scores": list(self.scores),
            "to_move": None if self.outcome else self.to_move,
            "turn": self.turn,
            "bag": len(self.bag),
            "rack_sizes": [len(r) for r in self.racks],
            "rack": self.racks[seat] if seat is not None else None,
            "history": [record.to_json() for record in self.history],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def to_json(self) -> JSON:
        """Return the whole state (bag order and every rack included) as JSON data."""
        return {
            "v": SCHEMA_VERSION,
            "game": self.game_key,
            "layout": self.layout,
            "board": self.board,
            "racks": list(self.racks),
            "bag": self.bag,
            "scores": list(self.scores),
            "to_move": self.to_move,
            "turn": self.turn,
            "passes": self.passes,
            "seed": self.seed,
            "history": [record.to_json() for record in self.history],
            "adjustments": list(self.adjustments),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def check_invariants(self) -> None:
        """Raise `InvariantError` unless tiles are conserved and scores add up."""
        tiles = [BLANK if ch.islower() else ch for ch in self.board if ch != EMPTY]
        tiles += [t for rack in self.racks for t in rack] + list(self.bag)
        expected = {code: count for code, (count, _) in self.variant.tiles.items()}
        if len(tiles) != sum(expected.values()) or Counter(tiles) != Counter(expected):
            raise InvariantError(f"tiles not conserved: {len(tiles)} tiles on turn {self.turn}")
        for seat in range(self.players):
            moved = sum(r.score for r in self.history if r.seat == seat)
            if moved + self.adjustments[seat] != self.scores[seat]:
                raise InvariantError(f"score of seat {seat} does not add up on turn {self.turn}")

    # -- board helpers --

    def cell(self, row: int, col: int) -> str:
        """Return the board character at (row, col)."""
        return self.board[row * self.size + col]

    def letter_value(self, ch: str) -> int:
        """Return the score of a board character (a blank's letter scores 0)."""
        return self.variant.values[ch] if ch.isupper() else 0

    # -- placement --

    def evaluate(self, move: Place, seat: int | None = None) -> Evaluation:
        """Check a placement against the rules and score it, without playing it."""
        size, board = self.size, self.board
        anchor, word = move.anchor, move.word
        end_row, end_col = anchor.step(len(word) - 1)
        if not (0 <= anchor.row < size and 0 <= anchor.col < size):
            raise RuleError(
                Reason.OUT_OF_BOUNDS,
                f"{anchor} is not on the board: columns run A–{COLUMNS[size - 1]}, rows 1–{size}.",
            )
        if end_row >= size or end_col >= size:
            raise RuleError(
                Reason.OUT_OF_BOUNDS,
                f"{word.upper()} from {anchor} runs off the board; it has {len(word)} letters.",
            )
        if len(word) < 2:
            raise RuleError(
                Reason.WORD_TOO_SHORT,
                "A word has at least two letters: write the whole word your tile makes, "
                "board letters included.",
            )
        step = 1 if anchor.across else size
        start = anchor.row * size + anchor.col
        cells = range(start, start + step * len(word), step)

        placed: list[tuple[int, str]] = []
        for i, ch in zip(cells, word, strict=True):
            on_board = board[i]
            if on_board == EMPTY:
                placed.append((i, ch))
            elif on_board.upper() != ch.upper():
                raise RuleError(
                    Reason.LETTER_MISMATCH,
                    f"{cell_name(*divmod(i, size))} already holds {on_board.upper()}, not "
                    f"{ch.upper()}: write the whole word with the letters on the board.",
                )
        if not placed:
            raise RuleError(Reason.NO_NEW_TILES, "That word is already on the board: add a tile.")

        # The written word must be the whole word: no board letters may continue it.
        before, after = start - step, cells[-1] + step
        before_taken = (anchor.col if anchor.across else anchor.row) > 0 and board[before] != EMPTY
        after_taken = (end_col if anchor.across else end_row) < size - 1 and board[after] != EMPTY
        if before_taken or after_taken:
            full_start, full = self._line(start, anchor.across, dict(placed))
            first = Anchor(*divmod(full_start, size), anchor.across)
            raise RuleError(
                Reason.WORD_NOT_COMPLETE,
                f"The word goes on along the board: write it whole, as {first} {full}.",
            )

        if seat is not None:
            missing = missing_from(
                self.racks[seat], (ch if ch.isupper() else BLANK for _, ch in placed)
            )
            if missing:
                raise RuleError(Reason.TILE_NOT_IN_RACK, _missing_message(missing))

        first_move = all(c == EMPTY for c in board)
        if first_move:
            if not any(i in self.variant.start_cells for i in cells):
                starts = " or ".join(
                    cell_name(*divmod(i, size)) for i in sorted(self.variant.start_cells)
                )
                raise RuleError(
                    Reason.FIRST_MOVE_NOT_THROUGH_START,
                    f"Your first word must cover the centre square {starts}.",
                )
        elif len(placed) == len(word) and not any(self._has_neighbour(i) for i, _ in placed):
            raise RuleError(
                Reason.NOT_ADJACENT,
                "Your word must touch the tiles on the board or use one of their letters.",
            )

        # Score the main word and every cross-word a new tile makes.
        new = dict(placed)
        words: list[str] = [word.upper()]
        total = self._score_line(cells, new)
        for i, _ in placed:
            cross_start, cross = self._line(i, not anchor.across, new)
            if len(cross) > 1:
                words.append(cross.upper())
                cross_step = size if anchor.across else 1
                cross_cells = range(cross_start, cross_start + cross_step * len(cross), cross_step)
                total += self._score_line(cross_cells, new)

        bad = [w for w in words if w not in self.lexicon]
        if bad:
            names = " and ".join(dict.fromkeys(bad))
            verb = "is" if len(set(bad)) == 1 else "are"
            raise RuleError(Reason.WORD_NOT_IN_LEXICON, f"{names} {verb} not in the dictionary.")

        bingo = len(placed) == self.variant.rack_size
        if bingo:
            total += self.variant.bingo
        return Evaluation(tuple(placed), tuple(words), total, bingo)

    def _has_neighbour(self, i: int) -> bool:
        size, board = self.size, self.board
        row, col = divmod(i, size)
        return (
            (row > 0 and board[i - size] != EMPTY)
            or (row < size - 1 and board[i + size] != EMPTY)
            or (col > 0 and board[i - 1] != EMPTY)
            or (col < size - 1 and board[i + 1] != EMPTY)
        )

    def _line(self, i: int, across: bool, new: dict[int, str]) -> tuple[int, str]:
        """Return (first cell, letters) of the maximal line through cell `i`."""
        size, board = self.size, self.board
        step = 1 if across else size
        row, col = divmod(i, size)
        pos = col if across else row

        def at(j: int) -> str:
            return new.get(j) or board[j]

        lo, lo_pos = i, pos
        while lo_pos > 0 and at(lo - step) != EMPTY:
            lo -= step
            lo_pos -= 1
        letters = []
        j, j_pos = lo, lo_pos
        while j_pos < size and at(j) != EMPTY:
            letters.append(at(j))
            j += step
            j_pos += 1
        return lo, "".join(letters)

    def _score_line(self, cells: range, new: dict[int, str]) -> int:
        """Score the word on `cells`: premiums count only under newly placed tiles."""
        layout, values = self.layout, self.variant.values
        word_factor, total = 1, 0
        for i in cells:
            ch = new.get(i)
            if ch is None:
                ch = self.board[i]
                total += values[ch] if ch.isupper() else 0
                continue
            value = values[ch] if ch.isupper() else 0
            code = layout[i]
            total += value * LETTER_FACTOR.get(code, 1)
            word_factor *= WORD_FACTOR.get(code, 1)
        return total * word_factor

    def _place(self, seat: int, move: Place) -> Self:
        ev = self.evaluate(move, seat)
        board = list(self.board)
        for i, ch in ev.placed:
            board[i] = ch
        rack = list(self.racks[seat])
        for tile in ev.rack_tiles:
            rack.remove(tile)
        drawn, bag = draw(tuple(self.bag), self.variant.rack_size - len(rack))
        new_rack = "".join(rack) + "".join(drawn)
        record = MoveRecord(seat, str(move), ev.score, tuple(i for i, _ in ev.placed), ev.words)
        state = replace(
            self,
            board="".join(board),
            racks=_set(self.racks, seat, new_rack),
            bag="".join(bag),
            scores=_add(self.scores, seat, ev.score),
            to_move=(seat + 1) % self.players,
            turn=self.turn + 1,
            passes=0,
            history=(*self.history, record),
        )
        if not new_rack and not state.bag:
            return state._finish_out(seat)
        return state

    def _swap(self, seat: int, move: Swap) -> Self:
        if len(self.bag) < self.variant.swap_min_bag:
            raise RuleError(
                Reason.BAG_TOO_SMALL,
                f"You can swap only while the bag holds at least {self.variant.swap_min_bag} "
                f"tiles; it holds {len(self.bag)}. Play a word or pass.",
            )
        tiles = list(move.tiles)
        missing = missing_from(self.racks[seat], tiles)
        if missing:
            raise RuleError(Reason.TILE_NOT_IN_RACK, _missing_message(missing))
        # The rule: the tiles go into the bag first, then as many are drawn (maybe the same).
        bag = return_to_bag(tuple(self.bag), tiles, f"{self.seed}:{self.turn}")
        drawn, bag = draw(bag, len(tiles))
        rack = list(self.racks[seat])
        for tile in tiles:
            rack.remove(tile)
        text = f"swapped {len(tiles)} tile{'s' if len(tiles) != 1 else ''}"
        return replace(
            self,
            racks=_set(self.racks, seat, "".join(rack) + "".join(drawn)),
            bag="".join(bag),
            to_move=(seat + 1) % self.players,
            turn=self.turn + 1,
            passes=0,
            history=(*self.history, MoveRecord(seat, text, 0)),
        )

    def _pass(self, seat: int) -> Self:
        state = replace(
            self,
            to_move=(seat + 1) % self.players,
            turn=self.turn + 1,
            passes=self.passes + 1,
            history=(*self.history, MoveRecord(seat, "pass", 0)),
        )
        if state.passes >= self.variant.pass_limit:
            return state._finish_passes()
        return state

    # -- the end --

    def forfeit(self, seat: int, reason: str) -> Self:
        """End the game: `seat` gave up (resigned or ran out of time), the others win."""
        if self.outcome is not None:
            raise RuleError(Reason.GAME_OVER, "This game is over; start a new one with /new.")
        text = "resigned" if reason == "resign" else "ran out of time"
        winners = tuple(s for s in range(self.players) if s != seat)
        return replace(
            self,
            turn=self.turn + 1,
            history=(*self.history, MoveRecord(seat, text, 0)),
            outcome=Outcome(self.scores, winners, reason),
        )

    def _finish_out(self, seat: int) -> Self:
        """The bag is empty and `seat` went out: it gains what the others lose."""
        adjustments = [-self.rack_value(s) for s in range(self.players)]
        adjustments[seat] = -sum(adjustments)
        return self._finish(tuple(adjustments), "out")

    def _finish_passes(self) -> Self:
        """Consecutive passes ended the game: everyone loses the value of their own rack."""
        return self._finish(tuple(-self.rack_value(s) for s in range(self.players)), "passes")

    def _finish(self, adjustments: tuple[int, ...], reason: str) -> Self:
        scores = tuple(s + a for s, a in zip(self.scores, adjustments, strict=True))
        best = max(scores)
        winners = tuple(s for s, score in enumerate(scores) if score == best)
        return replace(
            self,
            scores=scores,
            adjustments=tuple(a + b for a, b in zip(self.adjustments, adjustments, strict=True)),
            outcome=Outcome(scores, winners, reason),
        )


def _set(values: tuple[str, ...], seat: int, value: str) -> tuple[str, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def _add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return (*values[:seat], values[seat] + delta, *values[seat + 1 :])


def _missing_message(missing: list[str]) -> str:
    counts = Counter(missing)
    letters = [t for t in counts if t != BLANK]
    parts = []
    if letters:
        parts.append("You have no " + ", ".join(letters) + " on your rack")
    if BLANK in counts:
        parts.append(
            "you have no blank for that (a lower-case letter means a blank)"
            if letters
            else "You have no blank for that (a lower-case letter means a blank)"
        )
    return "; ".join(parts) + ". See your tiles with /rack."


# --- the game definition -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WordGameDef(GameDef):
    """A registry entry for a word game built on this engine."""

    variant: Variant | None = None
    timeout: timedelta | None = None

    @property
    def v(self) -> Variant:
        """Return the variant (always set for a real game)."""
        assert self.variant is not None
        return self.variant

    def new_game(
        self,
        players: int,
        *,
        seed: int,
        options: Mapping[str, str],
        lexicon: Lexicon | None = None,
        bag: str | None = None,
    ) -> WordState:
        """Deal a new game; `bag` rigs the tile order (tests), else it is shuffled by `seed`."""
        self.check_players(players)
        opts = self.parse_options(options)
        variant = self.v
        layout = (
            variant.shuffled_layout(f"{seed}:board")
            if opts.get("board") == "random"
            else variant.layout
        )
        tiles = (
            bag
            if bag is not None
            else "".join(new_bag({code: count for code, (count, _) in variant.tiles.items()}, seed))
        )
        racks = []
        for _ in range(players):
            racks.append(tiles[: variant.rack_size])
            tiles = tiles[variant.rack_size :]
        return WordState(
            variant=variant,
            layout=layout,
            board=EMPTY * (variant.size * variant.size),
            racks=tuple(racks),
            bag=tiles,
            scores=(0,) * players,
            to_move=0,
            turn=0,
            passes=0,
            seed=seed,
            lexicon=lexicon,  # type: ignore[arg-type]
        )

    def parse_move(self, text: str) -> WordMove:
        """Parse a move of this word game."""
        return parse_word_move(text)

    def from_json(self, data: JSON, lexicon: Lexicon | None = None) -> WordState:
        """Rebuild a state saved by `WordState.to_json`."""
        if data.get("v") != SCHEMA_VERSION or data.get("game") != self.key:
            raise ValueError(f"not a {self.key} state of schema {SCHEMA_VERSION}")
        return WordState(
            variant=self.v,
            layout=data["layout"],
            board=data["board"],
            racks=tuple(data["racks"]),
            bag=data["bag"],
            scores=tuple(data["scores"]),
            to_move=data["to_move"],
            turn=data["turn"],
            passes=data["passes"],
            seed=data["seed"],
            history=tuple(MoveRecord.from_json(r) for r in data["history"]),
            adjustments=tuple(data["adjustments"]),
            outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
            lexicon=lexicon,  # type: ignore[arg-type]
        )

    def notation_help(self) -> str:
        """Return the move notation with examples."""
        return NOTATION_HELP

    def turn_timeout(self, options: Mapping[str, str]) -> timedelta | None:
        """Return the turn deadline."""
        return self.timeout

    def on_timeout(self, state: Any, seat: int) -> Any:  # noqa: ANN401 - GameDef protocol
        """A player who lets the deadline pass loses the game (the Wordfeud convention)."""
        assert isinstance(state, WordState)
        return state.forfeit(seat, "timeout")


BOARD_OPTION = OptionSpec(
    "board", ("standard", "random"), "standard", "standard premium layout or shuffled premiums"
)
