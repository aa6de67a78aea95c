"""Small word-game variants with a tiny lexicon, for exhaustive checks of the move generator."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.ai.wordgen import generate_moves
from bot.core.game import Pass
from bot.games.wordgame import Swap, Variant, WordGameDef, WordState
from bot.lexicon import Lexicon

# 330 words over ten letters: every two-letter word, then a sample of longer ones.
_TINY_TEXT = """
AA AD AE AI AL AN AR AS AT DE DO ED EL EN ER ES ET ID IN IS IT LA LI LO NA NE NO OD OE OI ON OO
OR OS RE SI SO TA TI TO AAL ADD ADS AIL AIR AIT ALE ALS ANA ANE ANT ARS ASS ATT DAL DEL DID DIN
DIT DOL DOR DOT EAT ELD ELS ENS ERA ERN ERS ESS IDS INN ION ITS LAR LAT LED LEI LID LIN LIT LOT
NAN NET NIT NON NOR NOT OAT ODE OES OLD ONE OOT ORE ORT RAD RAS RED REI RET RID ROD ROO SAD SAL
SEA SEI SEN SET SIR SIT SOL SOS SRI TAE TAO TAS TEA TEE TEN TIE TIN TIT TOE TOO TOT AALS AIDE
AIRT ALEE ALTO ANIL ANTA ARIA ATES DALS DATO DEER DELL DIAL DILL DIRL DOAT DOLL DOOR DOSS EARL
EDDO ELLS ERNE ESSE IDOL INRO IRES LADS LANE LAST LEAN LEIS LEST LIEN LINN LIRE LOAN LOOS LOSS
NADA NARD NERD NIDI NITS NOIL NORI OATS OLDS OLLA ORDO OSES RAIL RARE READ REDS REND RIAS RIND
ROAN ROLE ROTA SADE SALL SARD SEAR SEER SENE SETA SILL SIRS SLIT SOAR SOLE SOON SORN STET TAIL
TANA TARS TEAR TEEN TEND TIDE TILS TIRL TOEA TOLD TOON TORO TOTE TROD AALII AILED ALERT ANEAR
ANSAE ARETE ARTAL ATTAR DATTO DELES DIENE DITAS DONEE DOTES DROIT EDILE ENATE ERSES ILLER INTIS
ISTLE LAREE LEANT LIANA LININ LOADS LORAN NAIAD NEIST NISEI NONAS OASES OLDIE ORIEL RAIAS RASED
REARS RELET RESIN RILES RODEO ROSIN SAINT SARDS SEDAN SENTE SIDES SITAR SLOTS SNOTS SONAR STAID
STEED STILL STREE TARES TEARS TENET TESTS TINED TOEAS TONER TORSO TREAT TRIOL AALIIS ALANTS
ANIONS ARIOSO ASTERS DARNEL DENOTE DIESIS DOLLED DOTTED EDITOR ENSILE IDEATE INSETS IRITIS
LARDED LEASER LILIES LOITER NANNIE NESTOR NOSIER ORDERS RAISER REALER RELENT RESEDA RETIES
RINSES ROSIER SALTER SEALED SENILE SIDLER SLIDER SOLDER STAIRS STELLA STREEL TARRED TEDDED
TERAIS TILLER TOILER TOSSED TRITER
"""
TINY_WORDS = _TINY_TEXT.split()

TINY = Lexicon.from_words(TINY_WORDS)

TILES = {
    "?": (2, 0),
    "A": (6, 1), "E": (7, 1), "I": (5, 1), "O": (5, 1), "S": (4, 1), "T": (4, 1),
    "R": (4, 2), "N": (3, 2), "L": (3, 3), "D": (3, 4),
}  # fmt: skip


def _layout(size: int, starts: set[tuple[int, int]], seed: int) -> str:
    """Return a layout with the start squares and a seeded sprinkling of every premium."""
    rng = random.Random(seed)
    codes = []
    for row in range(size):
        for col in range(size):
            if (row, col) in starts:
                codes.append("*")
            else:
                codes.append(rng.choice("......dtDT"))
    return "".join(codes)


def _variant(key: str, size: int, starts: set[tuple[int, int]], rack_size: int) -> Variant:
    return Variant(
        key=key,
        title=key,
        size=size,
        layout=_layout(size, starts, size),
        tiles=TILES,
        lexicon=lambda: TINY,
        rack_size=rack_size,
        bingo=20,
        swap_min_bag=rack_size,
    )


MINI7 = _variant("mini7", 7, {(3, 3)}, 5)
# Four start squares in the middle of an even board, as SmartFeud has.
MINI8 = _variant("mini8", 8, {(3, 3), (3, 4), (4, 3), (4, 4)}, 4)
# An off-centre start square on a 9×9 board, short racks.
MINI9 = _variant("mini9", 9, {(2, 5)}, 3)
MINIS = (MINI7, MINI8, MINI9)


def mini_game(variant: Variant, seed: int) -> WordState:
    """Deal a two-player game of a mini variant."""
    game = WordGameDef(key=variant.key, title=variant.title, min_players=2, max_players=2,
                       variant=variant)  # fmt: skip
    return game.new_game(2, seed=seed, options={})


def random_position(variant: Variant, seed: int) -> WordState:
    """Play random legal moves to a random depth, then maybe rig blanks into the mover's rack."""
    key = (variant.key, seed)
    if key not in _POSITIONS:
        _POSITIONS[key] = _random_position(variant, seed)
    return _POSITIONS[key]


_POSITIONS: dict[tuple[str, int], WordState] = {}


def _random_position(variant: Variant, seed: int) -> WordState:
    rng = random.Random(seed)
    state = mini_game(variant, seed)
    for _ in range(rng.randint(0, 14)):
        if state.outcome is not None:
            break
        seat = state.to_move
        candidates = generate_moves(state, seat)
        if candidates and rng.random() < 0.9:
            state = state.apply(seat, rng.choice(candidates).move)
        elif len(state.bag) >= variant.swap_min_bag:
            state = state.apply(seat, Swap(state.racks[seat]))
        else:
            state = state.apply(seat, Pass())
    seat = state.to_move
    rack = state.racks[seat]
    roll = rng.random()
    if rack and roll < 0.35:
        blanks = 2 if roll < 0.1 and 1 < len(rack) < 5 else 1
        rack = "?" * blanks + rack[blanks:]
        racks = tuple(rack if s == seat else r for s, r in enumerate(state.racks))
        state = replace(state, racks=racks)
    return state
