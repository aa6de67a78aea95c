"""The crossword word-game engine that Webfeud and SmartFeud share.

A `Variant` configures the board, the premium layout, the tile set, the rack and the bonuses;
`WordState` is one immutable position. Cells are indexed ``row * size + col``. The board is a
string with one character per cell: ``.`` empty, ``A``–``Z`` a letter tile, ``a``–``z`` a blank
played as that letter. Racks and the bag are strings of tile codes (``?`` is a blank).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from itertools import combinations, product
from typing import Any, ClassVar, Self

from bot.core.errors import InvalidMove, InvariantError, Reason, RuleError
from bot.core.game import (
    JSON,
    RESIGNED,
    GameDef,
    GameState,
    Move,
    MoveRecord,
    OptionSpec,
    Outcome,
    Pass,
    Resign,
    move_words,
    signed,
)
from bot.core.grid import COLUMNS, Anchor, cell_name, parse_anchor
from bot.core.tiles import draw, missing_from, new_bag, return_to_bag, shortage
from bot.core.words import and_list, plural, quoted
from bot.lexicon import Lexicon

SCHEMA_VERSION = 1
EMPTY = "."
BLANK = "?"
# The public record of a professional-mode turn lost on a word not in the dictionary (the word
# itself would show rack letters: the player alone is told it).
LOST_TURN = "lost the turn (a word not in the dictionary)"

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
    `take` is the (row, col) of a board tile taken first and laid again in the word (SmartFeud).
    """

    anchor: Anchor
    word: str
    take: tuple[int, int] | None = None

    def __str__(self) -> str:
        if self.take is None:
            return f"{self.anchor} {self.word}"
        return f"{self.anchor} {self.word} take {cell_name(*self.take)}"


@dataclass(frozen=True, slots=True)
class Swap:
    """Return these tiles to the bag and draw as many (``?`` is a blank)."""

    tiles: str

    def __str__(self) -> str:
        return f"swap {self.tiles}"


@dataclass(frozen=True, slots=True)
class Quit:
    """Conditionally quit: end the game if every player still in it quits too (SmartFeud)."""

    def __str__(self) -> str:
        return "quit"


WordMove = Place | Swap | Pass | Resign | Quit

NOTATION_HELP = (
    "Play a word: 8H QUIZ (row 8, column H, across) or H8 QUIZ (column H, row 8, down); write "
    "the whole word, letters on the board included; a lower-case letter is a blank (a word all "
    "in lower case uses your own tiles, and blanks only for letters you lack). "
    "Also: swap AEQ? (? = blank), pass, resign."
)
# The short form errors end with (whole messages fit a Telegram alert; /rules has the rest).
USAGE = "8H QUIZ (across from 8H) or H8 QUIZ (down from H8); also swap AEQ?, pass, resign."


def parse_word_move(text: str, usage: str = USAGE) -> WordMove:
    """Parse ``8H QUIZ``, ``H8 QUIZ``, ``swap AEQ?``, ``pass`` or ``resign``.

    `usage` ends the messages of unreadable text: the short notation of the game being played.
    """
    parts, control = move_words(text, usage)
    if control is not None:
        return control
    head = parts[0].lower()
    if head == "quit" and len(parts) == 1:
        return Quit()
    if head == "swap":
        typed = "".join(parts[1:])
        if not typed:
            raise InvalidMove("Name the tiles to swap, e.g. swap AEQ? (? is a blank).")
        # Checked as typed: upper() turns ß into SS, ı into I and ﬁ into FI, tiles not named.
        if bad := next(
            (t for t in typed if t != BLANK and not (t.isascii() and t.isalpha())), None
        ):
            raise InvalidMove(
                f"{quoted(bad)} is not a tile: tiles are the letters A–Z and ? for a blank. Name "
                "the tiles to swap, e.g. swap AEQ?."
            )
        return Swap(typed.upper())
    if head == "take":
        raise InvalidMove(
            "take comes after the word: 8H QUIZ take G7 lays QUIZ across from 8H with the tile "
            "taken from G7 (SmartFeud)."
        )
    take: tuple[int, int] | None = None
    if [part.lower() for part in parts[2:]].count("take") > 1:  # the word may be TAKE
        raise InvalidMove("Take one board tile a turn: 8H QUIZ take G7 (SmartFeud).")
    if len(parts) == 3 and parts[2].lower() == "take":
        raise InvalidMove(
            "Say which tile to take: the square of a board tile after take, as in "
            f"{parts[0]} {parts[1]} take G7 (SmartFeud)."
        )
    if len(parts) == 4 and parts[2].lower() == "take":
        cell = parse_anchor(parts[3])
        take = (cell.row, cell.col)
        parts = parts[:2]
    if len(parts) != 2:
        raise InvalidMove(f"A move is a square and a word: {usage}")
    if parts[0].isalpha() and not parts[1].isalpha():  # "QUIZ 8H": the word first, forgiven
        parts = [parts[1], parts[0]]
    anchor = parse_anchor(parts[0])
    word = parts[1]
    if BLANK in word:
        raise InvalidMove(
            f"{quoted(word)}: write a blank as the lower-case letter it stands for, e.g. 8H QuIZ."
        )
    if not word.isascii() or not word.isalpha():
        raise InvalidMove(f"{quoted(word)} is not a word of letters A–Z. Example: 8H QUIZ.")
    return Place(anchor, word, take)


def taken_cell(record: MoveRecord, size: int) -> int | None:
    """Return the cell a recorded placement took its tile from (``… take G7``), else None."""
    parts = record.text.split()
    if len(parts) != 4 or parts[2] != "take":
        return None
    cell = parse_anchor(parts[3])
    return cell.row * size + cell.col


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
    pass_limit: int = 3  # consecutive passes (by anyone) that end the game; 0: no such rule
    # SmartFeud's rules, off for Webfeud:
    take: bool = False  # a player may take one board tile and must lay it again that turn
    take_bingo: int = 0  # bonus for a full rack plus the taken tile
    starter_blank: bool = False  # the starting player's extra blank, for the first turn only
    seat_pass_limit: int = 0  # consecutive passes by one player that lose them the game
    play_on: bool = False  # who resigns (or loses on passes) leaves; the others play on
    end_adjust: bool = True  # at the end, rack values go from the others to who went out

    def bonus(self, laid: int, took: bool) -> int:
        """Return the bonus for laying `laid` tiles (`took`: one of them was taken this turn)."""
        own = laid - took
        if own < self.rack_size:
            return 0
        return self.take_bingo if took else self.bingo

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
    taken: tuple[int, str] | None = None  # (cell, board character) of the tile taken first

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
    # SmartFeud only (defaults keep Webfeud as it was):
    left: tuple[str, ...] = ()  # per seat: "" still playing, else why it left ("resign", …)
    seat_passes: tuple[int, ...] = ()  # per seat: its consecutive passes
    quits: tuple[bool, ...] = ()  # per seat: it quits if everybody still playing does
    pro: bool = False  # professional mode: a word not in the dictionary loses the turn
    bonus: str = ""  # the starter's extra blank: "held", "played" (laid) or "" (none or lost)
    lexicon: Lexicon = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.lexicon is None:
            object.__setattr__(self, "lexicon", self.variant.lexicon())
        n = len(self.racks)
        if not self.adjustments:
            object.__setattr__(self, "adjustments", (0,) * n)
        if not self.left:
            object.__setattr__(self, "left", ("",) * n)
        if not self.seat_passes:
            object.__setattr__(self, "seat_passes", (0,) * n)
        if not self.quits:
            object.__setattr__(self, "quits", (False,) * n)

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

    def in_game(self) -> tuple[int, ...]:
        """Return the seats still playing (not resigned, not out on passes)."""
        return tuple(s for s in range(self.players) if not self.left[s])

    def apply(self, seat: int, move: Any) -> Self:  # noqa: ANN401 - text or a parsed move
        """Return the state after `seat` plays `move`."""
        if self.outcome is not None:
            raise RuleError(Reason.GAME_OVER, "This game is over; start a new one with /new.")
        if not 0 <= seat < self.players:
            raise RuleError(Reason.NOT_A_PLAYER, "You are not playing in this game.")
        if self.left[seat]:
            raise RuleError(
                Reason.PLAYER_LEFT, "You are out of this game; the others play on without you."
            )
        if isinstance(move, Resign):
            return self.forfeit(seat, "resign")
        if isinstance(move, Quit):
            return self._quit(seat)
        if seat != self.to_move:
            raise RuleError(Reason.NOT_YOUR_TURN, "It is not your turn; wait for your opponent.")
        if isinstance(move, Place):
            move = self.read_case(seat, move)
            if not self.pro:
                return self._place(seat, move)
            # Professional mode: a word not in the dictionary costs the turn.
            try:
                return self._place(seat, move)
            except RuleError as error:
                if error.reason is not Reason.WORD_NOT_IN_LEXICON:
                    raise
                return self._lose_turn(seat)
        if isinstance(move, Swap):
            return self._swap(seat, move)
        if isinstance(move, Pass):
            return self._pass(seat)
        raise InvalidMove(f"{move!s} is not a move of {self.variant.title}. Play e.g. {USAGE}")

    def view(self, seat: int | None) -> JSON:
        """Return what `seat` may see: the board, the scores, its own rack only."""
        out: JSON = {
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
        if self.variant.play_on:
            out["left"] = list(self.left)
            out["quits"] = list(self.quits)
            out["mode"] = "pro" if self.pro else "normal"
        return out

    def to_json(self) -> JSON:
        """Return the whole state (bag order and every rack included) as JSON data."""
        out: JSON = {
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
        if self.variant.play_on:
            out["left"] = list(self.left)
            out["seat_passes"] = list(self.seat_passes)
            out["quits"] = list(self.quits)
            out["pro"] = self.pro
            out["bonus"] = self.bonus
        return out

    def check_invariants(self) -> None:
        """Raise `InvariantError` unless tiles are conserved and scores add up."""
        tiles = [BLANK if ch.islower() else ch for ch in self.board if ch != EMPTY]
        tiles += [t for rack in self.racks for t in rack] + list(self.bag)
        expected = {code: count for code, (count, _) in self.variant.tiles.items()}
        if self.bonus in ("held", "played"):  # the starter's extra blank is still in the game
            expected[BLANK] = expected.get(BLANK, 0) + 1
        if len(tiles) != sum(expected.values()) or Counter(tiles) != Counter(expected):
            raise InvariantError(f"tiles not conserved: {len(tiles)} tiles on turn {self.turn}")
        for seat in range(self.players):
            moved = sum(r.score for r in self.history if r.seat == seat)
            if moved + self.adjustments[seat] != self.scores[seat]:
                raise InvariantError(f"score of seat {seat} does not add up on turn {self.turn}")
            if len(self.racks[seat]) > self.variant.rack_size + (self.bonus == "held"):
                raise InvariantError(f"seat {seat} holds too many tiles on turn {self.turn}")
        if self.outcome is None and (self.left[self.to_move] or len(self.in_game()) < 2):
            raise InvariantError(f"the game waits for a seat that left, on turn {self.turn}")

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
        if move.take is None:
            return self._evaluate(move, seat, None)
        size = self.size
        row, col = move.take
        if not self.variant.take:
            raise RuleError(
                Reason.TAKE_NOT_ALLOWED,
                f"{self.variant.title} has no taking from the board: play 8H QUIZ without take.",
            )
        if not (0 <= row < size and 0 <= col < size):
            raise RuleError(
                Reason.OUT_OF_BOUNDS,
                f"There is no square {cell_name(row, col) if col < len(COLUMNS) else '?'}: "
                f"columns run A–{COLUMNS[size - 1]}, rows 1–{size}.",
            )
        i = row * size + col
        ch = self.board[i]
        if ch == EMPTY:
            raise RuleError(
                Reason.TAKE_EMPTY_SQUARE,
                f"{cell_name(row, col)} is empty: take a tile that is on the board, "
                "as in 8H QUIZ take G7.",
            )
        # The rest of the checks see the board without the taken tile.
        removed = replace(self, board=self.board[:i] + EMPTY + self.board[i + 1 :])
        return removed._evaluate(move, seat, (i, ch))

    def read_case(self, seat: int, move: Place) -> Place:
        """Return `move` as `seat` means it when its word is typed all in lower case.

        Lower case means blanks, so ``8H hello`` asks for five. When the player has fewer
        blanks than the word's new letters, it was typed without regard to case: it is read
        with their own tiles, and blanks stand only for the letters they lack, on the squares
        where those letters would score least. Every other move is returned as typed (a move
        the notation already allows never changes meaning).
        """
        word, size = move.word, self.size
        if not word.islower() or len(word) < 2:
            return move
        end_row, end_col = move.anchor.step(len(word) - 1)
        row, col = move.anchor.row, move.anchor.col
        if not (0 <= row < size and 0 <= col < size and end_row < size and end_col < size):
            return move
        board, rack = self.board, self.racks[seat]
        if move.take is not None:  # the taken tile joins the rack; its square is empty
            take_row, take_col = move.take
            if not (0 <= take_row < size and 0 <= take_col < size):
                return move
            taken = take_row * size + take_col
            if board[taken] == EMPTY:
                return move
            rack += _code(board[taken])
            board = board[:taken] + EMPTY + board[taken + 1 :]
        step = 1 if move.anchor.across else size
        start = row * size + col
        new = [k for k in range(len(word)) if board[start + k * step] == EMPTY]
        blanks = rack.count(BLANK)
        if len(new) <= blanks:
            return move
        upper = word.upper()
        short = Counter(upper[k] for k in new)
        short.subtract(Counter(rack))
        lacking = {letter: n for letter, n in short.items() if n > 0}
        if sum(lacking.values()) > blanks:  # not even blanks cover it: name what is missing
            return replace(move, word=upper)
        choices: list[list[tuple[int, ...]]] = [
            list(combinations([k for k in new if upper[k] == letter], n))
            for letter, n in lacking.items()
        ]
        readings = []
        for picks in product(*choices):
            as_blank = {k for pick in picks for k in pick}
            letters = (ch.lower() if k in as_blank else ch for k, ch in enumerate(upper))
            readings.append(replace(move, word="".join(letters)))
        best, best_score = readings[0], None
        for reading in readings:
            try:
                score = self.evaluate(reading, seat).score
            except RuleError:
                continue
            if best_score is None or score > best_score:
                best, best_score = reading, score
        return best

    def _evaluate(self, move: Place, seat: int | None, taken: tuple[int, str] | None) -> Evaluation:
        """Check and score a placement on this board; `taken` was lifted from it first."""
        size, board = self.size, self.board
        anchor, word = move.anchor, move.word
        end_row, end_col = anchor.step(len(word) - 1)
        if not (0 <= anchor.row < size and 0 <= anchor.col < size):
            raise RuleError(
                Reason.OUT_OF_BOUNDS,
                f"{anchor} is not on the board: columns run A–{COLUMNS[size - 1]}, rows 1–{size}.",
            )
        if end_row >= size or end_col >= size:
            room = size - (anchor.col if anchor.across else anchor.row)
            shown = word.upper() if len(word) <= size else word.upper()[:size] + "…"
            raise RuleError(
                Reason.OUT_OF_BOUNDS,
                f"{shown} from {anchor} runs off the board: it has {len(word)} letters and "
                f"{plural(room, 'square')} {'is' if room == 1 else 'are'} left going "
                f"{'across' if anchor.across else 'down'}.",
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
            whole = f"The word goes on along the board: write it whole, as {first} {full}"
            if self.lexicon is not None and full.upper() not in self.lexicon:
                # Copied, the notation would only be refused next: say why it will not do.
                whole += f"; but {full.upper()} is not in the dictionary"
            raise RuleError(Reason.WORD_NOT_COMPLETE, whole + ".")

        tiles_used = [ch if ch.isupper() else BLANK for _, ch in placed]
        if seat is not None:
            rack = self.racks[seat] + ("" if taken is None else _code(taken[1]))
            missing = missing_from(rack, tiles_used)
            if missing:
                spare = rack.count(BLANK) - tiles_used.count(BLANK)
                raise RuleError(Reason.TILE_NOT_IN_RACK, _missing_message(rack, missing, spare))
        if taken is not None:
            self._check_taken_use(taken, placed, tiles_used)

        first_move = taken is None and all(c == EMPTY for c in board)
        if first_move:
            if not any(i in self.variant.start_cells for i in cells):
                squares = [cell_name(*divmod(i, size)) for i in sorted(self.variant.start_cells)]
                starts = (
                    f"the centre square {squares[0]}"
                    if len(squares) == 1
                    else f"one of the centre squares {and_list(squares, 'or')}"
                )
                raise RuleError(
                    Reason.FIRST_MOVE_NOT_THROUGH_START, f"Your first word must cover {starts}."
                )
        elif len(placed) == len(word) and not any(self._has_neighbour(i) for i, _ in placed):
            raise RuleError(
                Reason.NOT_ADJACENT,
                "Your word must touch the tiles on the board or use one of their letters.",
            )

        # Score the main word and every cross-word a new tile makes.
        new = dict(placed)
        words: list[str] = [word.upper()]
        formed = {(start, anchor.across)}
        total = self._score_line(cells, new)
        for i, _ in placed:
            cross_start, cross = self._line(i, not anchor.across, new)
            if len(cross) > 1:
                words.append(cross.upper())
                formed.add((cross_start, not anchor.across))
                cross_step = size if anchor.across else 1
                cross_cells = range(cross_start, cross_start + cross_step * len(cross), cross_step)
                total += self._score_line(cross_cells, new)
        if taken is not None and taken[0] not in new:
            # Taking split or shortened the words through the vacated square: every part of
            # two letters or more is a newly formed word (scored at face value) unless the
            # placement's own words already include it.
            for part_start, part, across in self._parts_around(taken[0], new):
                if (part_start, across) not in formed:
                    words.append(part.upper())
                    total += sum(self.letter_value(ch) for ch in part)

        bad = [w for w in words if w not in self.lexicon]
        if bad:
            names = and_list(dict.fromkeys(bad))
            verb = "is" if len(set(bad)) == 1 else "are"
            raise RuleError(Reason.WORD_NOT_IN_LEXICON, f"{names} {verb} not in the dictionary.")

        # The starter's extra blank, laid, is not one of "all 7 tiles" of the rack.
        starter = (self.to_move if seat is None else seat) == 0
        extra_blank = self.bonus == "held" and starter and BLANK in tiles_used
        extra = self.variant.bonus(len(placed) - extra_blank, taken is not None)
        return Evaluation(tuple(placed), tuple(words), total + extra, extra > 0, taken)

    def _check_taken_use(
        self, taken: tuple[int, str], placed: list[tuple[int, str]], tiles_used: list[str]
    ) -> None:
        """Apply the rules on the taken tile: laid again this turn, with a tile of your own."""
        cell, ch = taken
        name = cell_name(*divmod(cell, self.size))
        code = _code(ch)
        shown = "the blank" if code == BLANK else ch
        if code not in tiles_used:
            hint = "a lower-case letter" if code == BLANK else ch
            raise RuleError(
                Reason.TAKEN_TILE_NOT_USED,
                f"You took {shown} from {name}: lay it again in this move (write it as {hint} "
                "in your word).",
            )
        if len(placed) < 2:
            raise RuleError(
                Reason.ONLY_TAKEN_TILE,
                f"You may not lay only the tile taken from {name}: add at least one of your own.",
            )
        if (cell, ch) in placed:
            raise RuleError(
                Reason.TAKEN_TILE_PUT_BACK,
                f"That puts {ch.upper()} back on {name}, which takes nothing: drop 'take {name}' "
                "or lay the tile elsewhere.",
            )

    def _parts_around(self, cell: int, new: dict[int, str]) -> list[tuple[int, str, bool]]:
        """Return (first cell, letters, across) of each line of 2+ tiles beside empty `cell`."""
        size, board = self.size, self.board
        row, col = divmod(cell, size)
        out = []
        for across, step, pos in ((True, 1, col), (False, size, row)):
            for side, ok in ((-step, pos > 0), (step, pos < size - 1)):
                if ok and (new.get(cell + side) or board[cell + side]) != EMPTY:
                    part_start, part = self._line(cell + side, across, new)
                    if len(part) > 1:
                        out.append((part_start, part, across))
        return out

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

    # -- turns --

    def _next(self, seat: int, left: tuple[str, ...] | None = None) -> int:
        """Return the seat after `seat` that is still playing."""
        left = self.left if left is None else left
        nxt = (seat + 1) % self.players
        while left[nxt] and nxt != seat:
            nxt = (nxt + 1) % self.players
        return nxt

    def _end_turn(self, seat: int, rack: str, *, laid_blank: bool = False) -> str:
        """Return `rack` as `seat`'s turn ends; the starter's unused extra blank is lost now."""
        if self.bonus == "held" and seat == 0 and not laid_blank:
            index = rack.rfind(BLANK)
            rack = rack[:index] + rack[index + 1 :]
        return rack

    def _bonus_after(self, seat: int, laid_blank: bool) -> str:
        """Return what becomes of the starter's extra blank as `seat`'s turn ends."""
        if self.bonus != "held" or seat != 0:
            return self.bonus
        return "played" if laid_blank else ""

    def _passes_of(self, seat: int, passes: int) -> tuple[int, ...]:
        """Return the per-seat pass counts with `seat`'s set (kept only where the rule is)."""
        if not self.variant.seat_pass_limit:
            return self.seat_passes
        return _put(self.seat_passes, seat, passes)

    def _place(self, seat: int, move: Place) -> Self:
        ev = self.evaluate(move, seat)
        board = list(self.board)
        rack = list(self.racks[seat])
        if ev.taken is not None:
            board[ev.taken[0]] = EMPTY
            rack.append(_code(ev.taken[1]))
        for i, ch in ev.placed:
            board[i] = ch
        for tile in ev.rack_tiles:
            rack.remove(tile)
        laid_blank = BLANK in ev.rack_tiles
        kept = self._end_turn(seat, "".join(rack), laid_blank=laid_blank)
        drawn, bag = draw(tuple(self.bag), self.variant.rack_size - len(kept))
        new_rack = kept + "".join(drawn)
        # The record writes board letters as they lie (a real tile in capitals, whatever the
        # typing), so that lower case in it always means a blank laid by this move.
        step = 1 if move.anchor.across else self.size
        start = move.anchor.row * self.size + move.anchor.col
        laid = dict(ev.placed)
        cells = (start + k * step for k in range(len(move.word)))
        word = "".join(laid.get(i, self.board[i]) for i in cells)
        text = str(replace(move, word=word))
        record = MoveRecord(seat, text, ev.score, tuple(i for i, _ in ev.placed), ev.words)
        state = replace(
            self,
            board="".join(board),
            racks=_set(self.racks, seat, new_rack),
            bag="".join(bag),
            scores=_add(self.scores, seat, ev.score),
            to_move=self._next(seat),
            turn=self.turn + 1,
            passes=0,
            history=(*self.history, record),
            seat_passes=self._passes_of(seat, 0),
            bonus=self._bonus_after(seat, laid_blank),
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
        # The starter's extra blank cannot be swapped: it is lost as this turn ends.
        rack = self._end_turn(seat, self.racks[seat])
        missing = missing_from(rack, tiles)
        if missing:
            if not missing_from(self.racks[seat], tiles):  # only the extra blank is lacking
                raise RuleError(
                    Reason.TILE_NOT_IN_RACK,
                    "Your extra blank (the starter's) cannot be swapped: lay it this turn or "
                    "it is gone when the turn ends. Swap other tiles.",
                )
            said = _missing_message(rack, missing, laying=False)
            if "".join(tiles) == "ALL":  # "/swap all": the whole rack, in the notation's words
                said += f" To swap every tile, name them all: swap {rack}."
            raise RuleError(Reason.TILE_NOT_IN_RACK, said)
        # The rule: the tiles go into the bag first, then as many are drawn (maybe the same).
        bag = return_to_bag(tuple(self.bag), tiles, f"{self.seed}:{self.turn}")
        drawn, bag = draw(bag, len(tiles))
        kept = list(rack)
        for tile in tiles:
            kept.remove(tile)
        text = f"swapped {len(tiles)} tile{'s' if len(tiles) != 1 else ''}"
        return replace(
            self,
            racks=_set(self.racks, seat, "".join(kept) + "".join(drawn)),
            bag="".join(bag),
            to_move=self._next(seat),
            turn=self.turn + 1,
            passes=0,
            history=(*self.history, MoveRecord(seat, text, 0)),
            seat_passes=self._passes_of(seat, 0),
            bonus=self._bonus_after(seat, False),
        )

    def _pass(self, seat: int, text: str = "pass") -> Self:
        passes = self.seat_passes[seat] + 1
        limit = self.variant.seat_pass_limit
        out = bool(limit) and passes >= limit
        # The pass that puts a player out says so where the chat reads the move.
        label = f"{text}: {passes} in a row, out of the game" if out else ""
        record = MoveRecord(seat, text, 0, label=label)
        state = replace(
            self,
            racks=_set(self.racks, seat, self._end_turn(seat, self.racks[seat])),
            to_move=self._next(seat),
            turn=self.turn + 1,
            passes=self.passes + 1,
            history=(*self.history, record),
            seat_passes=self._passes_of(seat, passes),
            bonus=self._bonus_after(seat, False),
        )
        if out:
            # Three passes in a row by one player lose that player the game.
            return state._leave(seat, "passes")
        if self.variant.pass_limit and state.passes >= self.variant.pass_limit:
            return state._finish_passes()
        return state

    def timeout_pass(self, seat: int) -> Self:
        """Return the state after `seat` let the turn deadline pass: it counts as a pass."""
        if self.outcome is not None or seat != self.to_move:
            raise RuleError(Reason.NOT_YOUR_TURN, "That turn is no longer running.")
        return self._pass(seat, "ran out of time (a pass)")

    def _lose_turn(self, seat: int) -> Self:
        """Professional mode: the word was not in the dictionary, so the turn is lost."""
        return replace(
            self,
            racks=_set(self.racks, seat, self._end_turn(seat, self.racks[seat])),
            to_move=self._next(seat),
            turn=self.turn + 1,
            history=(
                *self.history,
                MoveRecord(seat, LOST_TURN, 0),
            ),
            bonus=self._bonus_after(seat, False),
        )

    def _quit(self, seat: int) -> Self:
        """Conditionally quit: the game ends once everybody still playing has quit."""
        if not self.variant.play_on or all(not why for why in self.left):
            raise RuleError(
                Reason.NOTHING_TO_QUIT,
                "You can quit only once another player has left the game (resigned or out on "
                "passes); to give up, use /resign.",
            )
        if self.quits[seat]:
            raise RuleError(
                Reason.NOTHING_TO_QUIT,
                "You have quit already; the game ends when every other player quits too.",
            )
        state = replace(
            self,
            turn=self.turn + 1,
            history=(*self.history, MoveRecord(seat, "quits if everyone else does", 0)),
            quits=_put(self.quits, seat, True),
        )
        return state._settle()

    # -- the end --

    def forfeit(self, seat: int, reason: str) -> Self:
        """End the game: `seat` gave up (resigned or ran out of time), the others win.

        With `Variant.play_on` the seat only leaves, and the others play on while two remain.
        """
        if self.outcome is not None:
            raise RuleError(Reason.GAME_OVER, "This game is over; start a new one with /new.")
        text = RESIGNED if reason == "resign" else "ran out of time"
        if self.variant.play_on:
            state = replace(
                self, turn=self.turn + 1, history=(*self.history, MoveRecord(seat, text, 0))
            )
            return state._leave(seat, reason)
        winners = tuple(s for s in range(self.players) if s != seat)
        return replace(
            self,
            turn=self.turn + 1,
            history=(*self.history, MoveRecord(seat, text, 0)),
            outcome=Outcome(self.scores, winners, reason),
        )

    def _leave(self, seat: int, reason: str) -> Self:
        """Take `seat` out of the game (it can no longer win); end it if one seat is left."""
        left = _set(self.left, seat, reason)
        to_move = self._next(self.to_move, left) if self.to_move == seat else self.to_move
        state = replace(self, left=left, to_move=to_move)
        remaining = state.in_game()
        if len(remaining) <= 1:
            return replace(state, outcome=Outcome(state.scores, remaining, reason))
        return state._settle()

    def _settle(self) -> Self:
        """End the game if everybody still playing has conditionally quit."""
        remaining = self.in_game()
        if not all(self.quits[s] for s in remaining):
            return self
        best = max(self.scores[s] for s in remaining)
        winners = tuple(s for s in remaining if self.scores[s] == best)
        return replace(self, outcome=Outcome(self.scores, winners, "quit"))

    def _finish_out(self, seat: int) -> Self:
        """The bag is empty and `seat` went out: it gains what the others lose."""
        if not self.variant.end_adjust:
            return self._finish((0,) * self.players, "out")
        adjustments = [-self.rack_value(s) for s in range(self.players)]
        adjustments[seat] = -sum(adjustments)
        return self._finish(tuple(adjustments), "out")

    def _finish_passes(self) -> Self:
        """Consecutive passes ended the game: everyone loses the value of their own rack."""
        return self._finish(tuple(-self.rack_value(s) for s in range(self.players)), "passes")

    def _finish(self, adjustments: tuple[int, ...], reason: str) -> Self:
        scores = tuple(s + a for s, a in zip(self.scores, adjustments, strict=True))
        remaining = self.in_game()  # a seat that left cannot win
        best = max(scores[s] for s in remaining)
        winners = tuple(s for s in remaining if scores[s] == best)
        return replace(
            self,
            scores=scores,
            adjustments=tuple(a + b for a, b in zip(self.adjustments, adjustments, strict=True)),
            outcome=Outcome(scores, winners, reason),
        )


def _code(ch: str) -> str:
    """Return the tile code of a board character (a lower-case letter is a blank)."""
    return ch if ch.isupper() else BLANK


def _put(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:  # noqa: ANN401
    return (*values[:seat], value, *values[seat + 1 :])


def _set(values: tuple[str, ...], seat: int, value: str) -> tuple[str, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def _add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return (*values[:seat], values[seat] + delta, *values[seat + 1 :])


def _missing_message(rack: str, missing: list[str], spare: int = 0, *, laying: bool = True) -> str:
    """Say which tiles of a move the rack lacks (`missing`, from `missing_from`).

    `laying`: the tiles spell a word, where a lower-case letter asks for a blank; `spare`: the
    blanks of the rack the move leaves unused, one of which could be a missing letter.
    """
    counts = Counter(missing)
    letters = [t for t in counts if t != BLANK]
    parts = []
    if letters:
        parts.append(f"You have {shortage(rack, letters)} on your rack")
        if laying and spare > 0:
            first = letters[0]
            parts.append(f"a blank can be the {first}: write it in lower case, {first.lower()}")
    if BLANK in counts:
        held = rack.count(BLANK)
        blank = "no blank to swap"
        if laying and held:
            wanted = plural(held + counts[BLANK], "lower-case letter")
            blank = f"only {plural(held, 'blank')} for the {wanted}"
        elif laying:
            blank = "no blank for that (a lower-case letter is a blank; your own tiles in capitals)"
        elif held:  # "swap ??" with one blank: it is there, only too few of it
            blank = f"only {plural(held, 'blank')} to swap"
        parts.append(f"you have {blank}" if letters else f"You have {blank}")
    return "; ".join(parts) + ". See your tiles with /rack."


# --- the game definition -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WordGameDef(GameDef):
    """A registry entry for a word game built on this engine."""

    variant: Variant | None = None
    timeout: timedelta | None = None
    # The `wait=` option's choices -> turn time (SmartFeud); when set it overrides `timeout`.
    waits: Mapping[str, timedelta] | None = None
    timeout_passes: bool = False  # a turn deadline counts as a pass (else the player loses)
    help: str = NOTATION_HELP
    rules: str = ""  # the rules a player needs in brief, before the notation in /rules
    how: str = ""  # how a move is written, in a line, told when a game starts
    usage: str = USAGE  # the short notation that ends a message about unreadable text

    @property
    def v(self) -> Variant:
        """Return the variant (always set for a real game)."""
        assert self.variant is not None
        return self.variant

    previews: ClassVar[bool] = True

    def how_to_move(self) -> str:
        """Say in a line how a move is written (the `how` of the game)."""
        return self.how

    def drawn(self, before: GameState, after: GameState, seat: int) -> tuple[str, ...] | None:
        """Return the tiles a play or a swap drew: the last ones of the new rack.

        A play draws what the bag lost; a swap as many as it put back ("swapped 3 tiles"). The
        tiles kept stay in front, the drawn ones come after them (`_place`, `_swap`).
        """
        assert isinstance(before, WordState)
        assert isinstance(after, WordState)
        mine = [r for r in after.history[len(before.history) :] if r.seat == seat]
        if len(mine) != 1:
            return None
        said = mine[0].text.split()  # a swap's record: "swapped 3 tiles"
        if len(said) == 3 and said[0] == "swapped" and said[1].isascii() and said[1].isdigit():
            count = int(said[1])
        elif mine[0].cells:
            count = len(before.bag) - len(after.bag)
        else:
            return None
        rack = after.racks[seat]
        return tuple(rack[len(rack) - count :]) if 0 < count <= len(rack) else ()

    def try_move(self, state: GameState, seat: int, move: Move) -> GameState:
        """Check a move as in normal mode: in pro mode /try names the word /play would lose on.

        Off turn, on the board as it stands (the word apps show a move's score while others
        play): the seat is made the one to move; the board may change before its turn comes.
        """
        assert isinstance(state, WordState)
        if state.outcome is None and 0 <= seat < state.players and not state.left[seat]:
            state = replace(state, to_move=seat)
        if not state.pro:
            return state.apply(seat, move)
        try:
            return replace(state, pro=False).apply(seat, move)
        except RuleError as error:
            if error.reason is not Reason.WORD_NOT_IN_LEXICON:
                raise
            raise RuleError(
                error.reason, f"{error.message} In pro mode, playing it loses your turn."
            ) from error

    def unseen(self, state: GameState, seat: int) -> tuple[tuple[str, ...], int]:
        """Return the bag and the other racks as one list (A–Z, blanks last), and the bag's size."""
        assert isinstance(state, WordState)
        others = "".join(rack for s, rack in enumerate(state.racks) if s != seat)
        tiles = sorted(state.bag + others, key=lambda tile: (tile == BLANK, tile))
        return tuple(tiles), len(state.bag)

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
        if variant.starter_blank:
            # The starting player's extra blank, for the first turn only.
            racks[0] += BLANK
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
            pro=opts.get("mode") == "pro",
            bonus="held" if variant.starter_blank else "",
            lexicon=lexicon,  # type: ignore[arg-type]
        )

    def parse_move(self, text: str) -> WordMove:
        """Parse a move of this word game."""
        return parse_word_move(text, self.usage)

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
            left=tuple(data.get("left", ())),
            seat_passes=tuple(data.get("seat_passes", ())),
            quits=tuple(data.get("quits", ())),
            pro=bool(data.get("pro", False)),
            bonus=str(data.get("bonus", "")),
            lexicon=lexicon,  # type: ignore[arg-type]
        )

    def notation_help(self) -> str:
        """Return the rules a player needs in brief, then the move notation with examples."""
        return f"{self.rules}\n{self.help}" if self.rules else self.help

    def turn_timeout(self, options: Mapping[str, str]) -> timedelta | None:
        """Return the turn deadline (from the `wait=` option when the game has one)."""
        if self.waits is None:
            return self.timeout
        default = next((o.default for o in self.options if o.name == "wait"), "")
        return self.waits.get(options.get("wait", default), self.timeout)

    def seats_in_game(self, state: GameState) -> tuple[int, ...]:
        """Return the seats still playing (not resigned, not out on passes or time)."""
        assert isinstance(state, WordState)
        return state.in_game()

    def ending_note(self, state: GameState, names: Sequence[str]) -> str:
        """Say who ended the game and what the tiles left on the racks did to the scores.

        As the game-over image does (its ending line and each seat's "includes +5 for the
        tiles left on the other racks"): the last move's points plus these make the scores.
        """
        assert isinstance(state, WordState)
        outcome = state.outcome
        if outcome is None or not state.history:
            return ""
        last = state.history[-1].seat  # the move that ended the game
        racks = ", ".join(
            f"{names[seat]} {signed(delta)}"
            for seat, delta in enumerate(state.adjustments)
            if delta
        )
        if outcome.reason == "out":
            if racks:
                return f"{names[last]} went out; the tiles left on the racks: {racks}."
            return (
                f"{names[last]} went out; {self.title} counts no tiles left on the racks."
                if not state.variant.end_adjust
                else f"{names[last]} went out."
            )
        if outcome.reason == "passes":
            if racks:
                return f"The tiles left on the racks were deducted: {racks}."
            if state.left[last] == "passes":  # SmartFeud: one player's passes put them out
                limit = state.variant.seat_pass_limit
                out = [names[s] for s, why in enumerate(state.left) if why == "passes"]
                verb = "is" if len(out) == 1 else "are"
                return f"{and_list(out)} passed {limit} times in a row and {verb} out of the game."
        return ""

    def missed_deadline(self, *, done: bool = False) -> str:
        """Say what a missed turn deadline does (`done`: did): a pass or (Webfeud) a lost game."""
        if self.timeout_passes:
            return "the turn counted as a pass" if done else "the turn counts as a pass"
        return "you lost the game" if done else "you lose the game"

    def rack_note(self, state: GameState, seat: int) -> str:
        """Say what a blank on the rack is, and that the starter's extra one must be laid now."""
        assert isinstance(state, WordState)
        if BLANK not in state.racks[seat]:
            return ""
        # Short enough that a rack and both sentences fit a 200-character Telegram alert.
        note = f"{BLANK} is a blank: any letter, typed in lower case, for 0 points."
        if state.bonus == "held" and seat == 0:
            note += (
                f" The last {BLANK} is the starter's extra blank: lay a blank this turn or lose it."
            )
        return note

    def move_cost(
        self, before: GameState, after: GameState, seat: int, *, done: bool = False
    ) -> str:
        """Say what the move costs: blanks for held letters (told before), the extra blank.

        A word typed in lower case by habit lays blanks where the player holds the letters;
        SmartFeud's starter loses the extra blank by a first turn that lays none.
        """
        assert isinstance(before, WordState)
        assert isinstance(after, WordState)
        costs = []
        if not done:
            squares = list(zip(after.board, before.board, strict=True))
            laid = Counter(s.upper() for s, was in squares if was == EMPTY and s.islower())
            if any(s == EMPTY and was.islower() for s, was in squares):
                laid.clear()  # a blank taken from the board (SmartFeud) is laid again: not said
            held = sorted((laid & Counter(before.racks[seat])).elements())
            if held:
                what = "a blank" if len(held) == 1 else "blanks"
                costs.append(
                    f"it lays {what} for {and_list(held)}, which you hold: type "
                    f"{'it' if len(held) == 1 else 'them'} in capitals to keep your blanks"
                )
        if before.bonus == "held" and seat == 0 and not after.bonus:
            if done:
                return "Your extra blank was lost: no blank was laid in your first turn."
            costs.append("it loses your extra blank: lay a blank this turn to keep it")
        return "; ".join(costs)

    def on_timeout(self, state: Any, seat: int) -> Any:  # noqa: ANN401 - GameDef protocol
        """Apply the turn deadline: a pass (SmartFeud) or a lost game (the Wordfeud convention)."""
        assert isinstance(state, WordState)
        if self.timeout_passes:
            return state.timeout_pass(seat)
        return state.forfeit(seat, "timeout")


BOARD_OPTION = OptionSpec(
    "board", ("standard", "random"), "standard", "standard premium layout or shuffled premiums"
)
