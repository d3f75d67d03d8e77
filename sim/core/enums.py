"""Constants of the game core: card kinds, state layout, actions, rule parameters, records.

Everything here is a NamedTuple instance or a plain int so that numba folds it into the
kernels as a compile-time constant (the vectorbt pattern).  No logic lives here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

# Re-exported (`X as X`): the card kinds and table sizes, and the parameter array's layout
# derived from the rule parameters' declarations (sim/core/params.py).
from sim.core.kinds import FIRST_NATURAL as FIRST_NATURAL
from sim.core.kinds import KIND_NAMES as KIND_NAMES
from sim.core.kinds import LAST_NATURAL as LAST_NATURAL
from sim.core.kinds import MAX_CARDS as MAX_CARDS
from sim.core.kinds import MAX_SEATS as MAX_SEATS
from sim.core.kinds import MAX_TEAMS as MAX_TEAMS
from sim.core.kinds import N_KINDS as N_KINDS
from sim.core.kinds import Kind as Kind
from sim.core.kinds import KindT as KindT
from sim.core.layout import Column, Field, layout, record_dtype
from sim.core.params import N_PARAMS as N_PARAMS
from sim.core.params import Par as Par

if TYPE_CHECKING:  # the layouts' field names (stubs written by tests/layout_stubs.py)
    from sim.core._layouts import D8T, D16T, D32T, D64T, DCT, OffT

# ----------------------------------------------------------------------------- cards

# Card ids in a deck file: suit * 13 + rank, rank 0..12 = 2,3,4,...,10,J,Q,K,A; suits C D H S.
# A joker is id 52.  A deck of `decks` packs holds every id 0..51 `decks` times and 2*decks jokers.
RANK_TOKENS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_TOKENS = ("C", "D", "H", "S")
JOKER_ID = 52
N_CARD_IDS = 53


# ----------------------------------------------------------------------------- phases


class PhaseT(NamedTuple):
    DRAW: int = 0  # draw from the stock or take the pile (or decline when the stock is out)
    MELD: int = 1  # meld / add as often as wanted, then discard (or meld out)
    OVER: int = 2


Phase = PhaseT()


class EndT(NamedTuple):
    RUNNING: int = 0
    WENT_OUT: int = 1
    EXHAUSTED: int = 2  # stock empty and the next player could not or would not take the pile
    RED3_LAST: int = 3  # a red three was the last card of the stock
    TURN_LIMIT: int = 4  # safety cap (params MAX_TURNS); counted, should be ~0 for real strategies


End = EndT()


class LuckT(NamedTuple):
    """The chance terms of a hand, per team (sim/core/luck.py).  Each is, summed over the
    team's chance events, the event's feature minus its expectation given everything before
    the event, so each has mean zero whatever the strategies do.

    Draw terms (a stock card drawn by one of the team's seats), DRAW_BASE of them: one per
    card kind (Kind order), then MELDED (a natural of a rank the drawer's team has a meld of),
    PAIRS (a natural of a rank the drawer holds one of), TRIPS (holds two or more of), and the
    canasta-progress features DRAW_MELD_SIZE..DRAW_RED3_HELD (some weighted: the term is then
    the drawn card's weight minus the stock's average weight).  The
    block repeats five times with the term multiplied by something known before the draw:
    1 (block 0), whether the drawer's team has opened (block 1), the share of the pack still
    in the stock (block 2), the pile's size (block 3), whether another team has opened
    (block 4).  Deal terms: jokers, twos, red threes, black threes dealt to the
    team's seats."""

    DRAW_KIND: int = 0  # + kind (the red three's term is left at 0: the kind terms sum to 0)
    DRAW_MELDED: int = 15
    DRAW_PAIRS: int = 16
    DRAW_TRIPS: int = 17
    DRAW_MELD_SIZE: int = 18  # weight: cards in the team's unfinished meld of the drawn rank
    DRAW_NEAR: int = 19  # a natural of a rank the team has an unfinished meld of 5-6 cards of
    DRAW_COMPLETES: int = 20  # meld + the drawer's cards of the rank + this one reach a canasta
    DRAW_TEAM_PAIR: int = 21  # the drawer's team holds two or more of the rank (both hands)
    DRAW_WILD_NEAR: int = 22  # a wild card, weighted by the team's unfinished melds of 5-6
    DRAW_RED3_HELD: int = 23  # a red three, weighted by the red threes the team has laid
    DRAW_BASE: int = 24  # terms per block
    OPENED_BLOCK: int = 24  # + term: the block-0 term when the team had opened, else 0
    EARLY_BLOCK: int = 48  # + term: the block-0 term x stock / pack at the draw
    PILE_BLOCK: int = 72  # + term: the block-0 term x min(pile, 24) / 8
    THEIRS_BLOCK: int = 96  # + term: the block-0 term when another team had opened, else 0
    DEAL_JOKERS: int = 120
    DEAL_TWOS: int = 121
    DEAL_RED3: int = 122
    DEAL_BLACK3: int = 123
    N_LUCK: int = 124


Luck = LuckT()
N_LUCK = Luck.N_LUCK
LUCK_SCALE = 65536  # fixed point of the terms in the int32 state (rounding error < 1e-5 each)


# ----------------------------------------------------------------------------- state layout
# One flat int32 array per hand.  The first PUB_SIZE entries are public (everybody sees them);
# the rest (hands, stock, pile order) is private.  An observation for a seat is the public part
# followed by that seat's own hand at offset HANDS, so every legality function reads a hand at
# `hand_off` and works unchanged on a full state (hand_off = HANDS + seat*N_KINDS) or an
# observation (hand_off = HANDS).


N_SUITED = 44  # 4 suits x 11 natural ranks
MAX_SEQS = 8
_TK = MAX_TEAMS * N_KINDS

STATE_LAYOUT: tuple[Field, ...] = (
    Field("PHASE", 1, "Phase of the turn"),
    Field("SEAT", 1, "seat to act (0..N_SEATS-1, active seats of this hand)"),
    Field("N_SEATS", 1, "active seats of this hand"),
    Field("N_TEAMS", 1, "teams"),
    Field("TURN", 1, "turns started in this hand (0-based index of the current turn)"),
    Field("END_REASON", 1, "End code once the hand is over"),
    Field("WENT_OUT_SEAT", 1, "seat that went out (-1 none)"),
    Field("STOCK_LEN", 1, "cards left in the stock"),
    Field("PILE_LEN", 1, "cards in the discard pile"),
    Field("PILE_FREEZE", 1, "wild cards and red threes in the pile: >0 means frozen for everyone"),
    Field("PILE_TOP", 1, "kind of the top discard or -1"),
    Field("PENDING_VALUE", 1, "card points laid this turn towards an unmade initial meld"),
    Field("TOOK_PILE", 1, "the current player took the pile this turn"),
    Field("ASIDE_LEN", 1, "pile cards held aside until the initial meld's minimum is reached"),
    Field("MELDED_BEFORE", 1, "current player had melded before this turn"),
    Field("CANASTAS_THIS_TURN", 1, "canastas completed this turn by the current player"),
    Field("DEALER", 1, "seat of the dealer"),
    Field("CONCEALED", 1, "set when the hand ended by a concealed going out"),
    Field("WENT_OUT_DISCARD", 1, "1 when going out ended with a final discard"),
    Field("DECISIONS", 1, "decisions taken in this hand"),
    Field("TEAM_OF_SEAT", MAX_SEATS, "team of each seat"),
    Field("HAND_SIZE", MAX_SEATS, "cards in each seat's hand"),
    Field("SEAT_MELDED", MAX_SEATS, "seat has melded something this hand"),
    Field("TEAM_OPENED", MAX_TEAMS, "initial meld made"),
    Field("TEAM_RED3", MAX_TEAMS, "red threes laid"),
    Field("CUM_SCORE", MAX_TEAMS, "cumulative score before this hand"),
    Field("TEAM_MIN", MAX_TEAMS, "initial-meld minimum this hand"),
    Field("MELD_NAT", _TK, "[team, kind] naturals in the team's (open) meld of each kind"),
    Field("MELD_TWO", _TK, "[team, kind] twos in it"),
    Field("MELD_JOKER", _TK, "[team, kind] jokers in it"),
    Field("PILE_COUNTS", N_KINDS, "cards of each kind in the pile"),
    Field("LAST_DISCARD", MAX_SEATS, "kind each seat discarded last (-1 none)"),
    Field("PILE_TOP_SUIT", 1, "suit of the top discard (0..3) or -1"),
    Field("PUB_CLASSIC", 0, "end of the public fields every rule set uses (the rest is Samba's)"),
    # Samba: several melds of a rank.  A group meld that reaches CANASTA_SIZE is closed (no wild
    # card may join it) and moved here, so that a new meld of the rank can be started.
    Field("CLOSED_COUNT", _TK, "[team, kind] closed canastas of each rank"),
    Field("CLOSED_NAT", _TK, "[team, kind] natural cards in them"),
    Field("CLOSED_NATURAL", MAX_TEAMS, "natural canastas among them"),
    Field("CLOSED_TWO", MAX_TEAMS, "twos in them"),
    Field("CLOSED_JOKER", MAX_TEAMS, "jokers in them"),
    # Samba sequences: MAX_SEQS slots per team: suit, lowest kind, length (0 = empty slot)
    Field("SEQ_SUIT", MAX_TEAMS * MAX_SEQS, "[team, slot] suit of the sequence"),
    Field("SEQ_LOW", MAX_TEAMS * MAX_SEQS, "[team, slot] its lowest kind"),
    Field("SEQ_LEN", MAX_TEAMS * MAX_SEQS, "[team, slot] its length (0 = empty slot)"),
    Field("PUB_SIZE", 0, "end of the public part"),
    Field("HANDS", MAX_SEATS * N_KINDS, "[seat, kind] cards of each kind in each hand"),
    Field(
        "HAND_SUITS",
        MAX_SEATS * N_SUITED,
        "[seat, suit, natural rank] suited naturals (Samba sequences)",
    ),
    Field("STOCK", MAX_CARDS, "card codes (kind | suit << 4); the top at STOCK + STOCK_POS"),
    Field(
        "PILE", MAX_CARDS, "card codes, bottom first; while ASIDE_LEN > 0 it holds the aside cards"
    ),
    Field("STOCK_POS", 1, "index of the stock's top card"),
    Field("PILE_TAKES", MAX_TEAMS, "piles taken per team this hand"),
    # chance bookkeeping for luck-adjusted estimates (sim/core/luck.py), kept only while
    # LUCK_ON is set; private like the stock: never copied into an observation
    Field("STOCK_KINDS", N_KINDS, "cards of each kind left in the stock (only while LUCK_ON)"),
    Field("LUCK_ON", 1, "1: keep STOCK_KINDS and the chance terms LUCK"),
    Field("LUCK", MAX_TEAMS * N_LUCK, "[team, Luck term] zero-mean chance terms x LUCK_SCALE"),
)
Off: OffT = layout("OffT", STATE_LAYOUT, "STATE_SIZE")
OBS_SIZE = Off.HAND_SUITS + N_SUITED  # public part + own hand + own suited naturals

# ----------------------------------------------------------------------------- actions
# A flat integer action space (the OpenSpiel pattern).  A turn is a sequence of decisions:
# one draw-phase action, then any number of meld actions, then a discard (or melding out).


class ActT(NamedTuple):
    DRAW: int = 0  # draw draw_count cards from the stock
    TAKE_PAIR: int = 1  # take the pile: top card + a natural pair from the hand
    TAKE_NAT_TWO: int = 2  # top card + one natural + a two from the hand
    TAKE_NAT_JOKER: int = 3  # top card + one natural + a joker from the hand
    TAKE_ONTO: int = 4  # top card added alone to the team's meld of its rank
    DECLINE: int = 5  # stock exhausted: decline the pile, which ends the hand
    MELD: int = (
        8  # + kind*3 + variant: new meld of 3 cards (variant 0: 3 naturals, 1: 2+two, 2: 2+joker)
    )
    ADD_NAT: int = 53  # + kind: add a natural to the team's meld of that kind
    ADD_TWO: int = 68  # + kind: add a two
    ADD_JOKER: int = 83  # + kind: add a joker
    DISCARD: int = 98  # + kind
    SEQ_NEW: int = (
        113  # + suit*9 + (low kind - 2): new 3-card sequence low..low+2 of one suit (Samba)
    )
    SEQ_ADD: int = (
        149  # + slot*2 + end: extend the team's sequence in `slot` below (end 0) or above (1)
    )
    TAKE_SEQ: int = (
        165  # + slot*2 + end: take the pile by extending a team sequence with the top card
    )
    N_ACTIONS: int = 181


Act = ActT()
N_ACTIONS = Act.N_ACTIONS


class DecisionT(NamedTuple):
    DRAW_OR_TAKE: int = 0
    MELD: int = 1
    ADD: int = 2
    DISCARD: int = 3
    DECLINE: int = 4
    SEQUENCE: int = 5  # new sequence or extension (Samba)


Decision = DecisionT()

# ----------------------------------------------------------------------------- rule parameters
# `Par` (indices into the int32 parameter array of RuleSet.to_params()) is derived from the
# rule parameters' declarations in sim/core/params.py and re-exported here.

# ----------------------------------------------------------------------------- records

HAND_COLUMNS: tuple[Column, ...] = (
    Column("seed", np.int64, 1, "seed of the run (part of the hand's key)"),
    Column("game", np.int64, 1, "game index (part of the key)"),
    Column("hand", np.int32, 1, "hand index in the game (part of the key)"),
    Column("dealer", np.int8, 1, "engine seat of the dealer"),
    Column("end_reason", np.int8, 1, "End code: how the hand ended"),
    Column("went_out_seat", np.int8, 1, "engine seat that went out (-1 none)"),
    Column("went_out_team", np.int8, 1, "team that went out (-1 none)"),
    Column("concealed", np.int8, 1, "1: the going out was concealed"),
    Column("turns", np.int16, 1, "turns played"),
    Column("decisions", np.int32, 1, "decisions taken"),
    Column("score", np.int32, MAX_TEAMS, "hand score per team (the sum of the parts below)"),
    Column("meld_points", np.int32, MAX_TEAMS, "card points melded"),
    Column("canasta_bonus", np.int32, MAX_TEAMS, "canasta (and samba) bonuses"),
    Column("red3_points", np.int32, MAX_TEAMS, "red-three score (negative when it counts minus)"),
    Column("go_out_bonus", np.int32, MAX_TEAMS, "going-out bonus"),
    Column("hand_penalty", np.int32, MAX_TEAMS, "card points left in hands (subtracted)"),
    Column("canastas", np.int8, MAX_TEAMS, "canastas"),
    Column("natural_canastas", np.int8, MAX_TEAMS, "natural canastas among them"),
    Column("red3", np.int8, MAX_TEAMS, "red threes laid"),
    Column("opened", np.int8, MAX_TEAMS, "1: initial meld made"),
    Column("pile_takes", np.int16, MAX_TEAMS, "piles taken"),
    Column("cum_before", np.int32, MAX_TEAMS, "cumulative score before the hand"),
    Column("seat_of_player", np.int8, MAX_SEATS, "engine seat of each table seat (-1 sits out)"),
    Column(
        "luck",
        np.int32,
        MAX_TEAMS * N_LUCK,
        "[team * N_LUCK + Luck term] chance terms x LUCK_SCALE (run_chunk(luck=True), else 0)",
    ),
)
hand_record_dt = record_dtype(HAND_COLUMNS)

# ----------------------------------------------------------------------------- decision columns One
# declaration per decision column: (name, dtype, meaning).  The record dtype, the kernels' int-width
# groups (`DEC_I8_FIELDS`.., `D8`..`D64`), the store's column types and the table in docs/DATA.md (a
# test holds it equal) all come from these tables.  Adding a column: a line here, the kernel line
# that writes it (`_log_decision_nb` in sim/play/selfplay/loop.py; a card column in
# sim/play/selfplay/cardlog.py), its row in docs/DATA.md and a check in
# tests/test_decision_columns.py.


class DecisionColumn(NamedTuple):
    """One decision column: its name, numpy integer type (or str) and what it holds."""

    name: str
    dtype: type  # a numpy integer type, or str (a dictionary-encoded string the store adds)
    meaning: str


# `--log-detail basic` (and every logged row)
DECISION_COLUMNS = (
    DecisionColumn("seed", np.int64, "seed of the run (key)"),
    DecisionColumn("game", np.int64, "game index (key)"),
    DecisionColumn("hand", np.int32, "hand index within the game (key)"),
    DecisionColumn("turn", np.int16, "turn of the hand (0-based)"),
    DecisionColumn("seat", np.int8, "table seat deciding"),
    DecisionColumn("team", np.int8, "its team"),
    DecisionColumn(
        "decision_type",
        np.int8,
        "0 draw-or-take, 1 new meld, 2 add to meld, 3 discard, 4 decline, 5 Samba sequence meld or "
        "extension",
    ),
    DecisionColumn("action", np.int16, "the action id (`sim.core.enums.Act`)"),
    DecisionColumn("n_legal", np.int16, "number of legal actions"),
    DecisionColumn("hand_size", np.int8, "cards in the decider's hand before the decision"),
    DecisionColumn("pile_size", np.int16, "cards in the discard pile"),
    DecisionColumn(
        "pile_frozen",
        np.int8,
        "1 if the pile is frozen for everyone (a wild card or red three in it)",
    ),
    DecisionColumn("team_opened", np.int8, "1 if the deciding team has made its initial meld"),
    DecisionColumn("opp_opened", np.int8, "1 if an opposing team has"),
    DecisionColumn("canastas_us", np.int8, "canastas of the deciding team"),
    DecisionColumn("canastas_them", np.int8, "canastas of the best opposing team"),
    DecisionColumn(
        "next_opp_hand_size", np.int8, "hand size of the next opponent to play (-1 none)"
    ),
    DecisionColumn("min_opp_hand_size", np.int8, "smallest opposing hand (-1 none)"),
    DecisionColumn("stock_size", np.int16, "cards left in the stock"),
    DecisionColumn("cum_us", np.int32, "cumulative score of the deciding team before the hand"),
    DecisionColumn(
        "cum_them", np.int32, "best cumulative opposing score before the hand (0 without opponents)"
    ),
    DecisionColumn(
        "pending_value", np.int16, "card points laid this turn towards an unmade initial meld"
    ),
    DecisionColumn(
        "score_us",
        np.int32,
        "the hand's final score of the deciding team (filled when the hand ends)",
    ),
    DecisionColumn("score_them", np.int32, "... and of the best opposing team"),
    DecisionColumn("went_out_us", np.int8, "1 if the deciding team went out"),
)

_KIND_COLS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK")  # kinds 0..13
_MELD_COLS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # kinds 2..12

# `--log-detail cards`: the cards behind each decision, after the basic columns.  All int8 (one
# 2-D int8 array in the kernel, layout `DC`) but `strategy`, which the store derives from `seat`.
CARD_COLUMNS = (
    DecisionColumn(
        "strategy", str, "the decider's strategy (as given, knobs included; dictionary encoded)"
    ),
    DecisionColumn(
        "pile_top", np.int8, "kind of the pile's top card (`KIND_NAMES` index; -1 empty pile)"
    ),
    DecisionColumn(
        "drawn_1",
        np.int8,
        "kind of the first card drawn from the stock this turn (red threes, laid at once, "
        "skipped; -1 before the draw or when the pile was taken)",
    ),
    DecisionColumn("drawn_2", np.int8, "kind of the second such card (-1 none)"),
    DecisionColumn(
        "act_kind",
        np.int8,
        "kind of the card the action plays: the rank melded or added, the wild card added, the "
        "card discarded, the pile's top card taken; -1 for a draw or decline",
    ),
    DecisionColumn("act_naturals", np.int8, "non-wild cards the action takes from the hand"),
    DecisionColumn(
        "act_wilds", np.int8, "wild cards (twos, jokers) the action takes from the hand"
    ),
    DecisionColumn(
        "act_target",
        np.int8,
        "the meld the action lays or builds on: the rank's kind for a group meld (new or "
        "existing), 16 + slot for a Samba sequence (new or existing), -1 otherwise (draw, "
        "discard, decline)",
    ),
    *(
        DecisionColumn(
            f"hand_{k}", np.int8, f"cards of kind {k} in the decider's hand before the decision"
        )
        for k in _KIND_COLS
    ),
    *(
        DecisionColumn(f"meld_us_{k}", np.int8, f"cards in the deciding team's open meld of {k}s")
        for k in _MELD_COLS
    ),
    *(
        DecisionColumn(
            f"meld_them_{k}",
            np.int8,
            f"cards in an opposing team's open meld of {k}s (the most of any)",
        )
        for k in _MELD_COLS
    ),
    DecisionColumn("red3_us", np.int8, "red threes laid by the deciding team"),
    DecisionColumn("red3_them", np.int8, "most red threes laid by an opposing team"),
)
# ... and under Samba rules (sequences need suits): the hand's naturals per suit and rank
SUIT_COLUMNS = tuple(
    DecisionColumn(
        f"hand_{k}{s}", np.int8, f"{k}s of suit {s} in the decider's hand (Samba rules only)"
    )
    for s in ("C", "D", "H", "S")
    for k in _MELD_COLS
)


def _record(columns: tuple[DecisionColumn, ...]) -> np.dtype:
    return np.dtype([(c.name, c.dtype) for c in columns], align=True)


def _layout(type_name: str, names: tuple[str, ...]):
    """Row index of each field in its kernel array, as a NamedTuple numba folds as constants."""
    # the fields come from the column list at import time, which a static checker cannot see
    cls = NamedTuple(type_name, [(n.upper(), int) for n in names])  # type: ignore[misc]
    return cls(*range(len(names)))


decision_record_dt = _record(DECISION_COLUMNS)

# The kernels log decisions column-wise (no record-to-column transposition before parquet):
# one 2-D array per integer width, one row per field, in declaration order.  `decision_record_dt`
# above is the same table as records (`ChunkResult.decisions`).
DEC_GROUPS = tuple(
    (tuple(c.name for c in DECISION_COLUMNS if c.dtype is dt), dt)
    for dt in (np.int8, np.int16, np.int32, np.int64)
)
DEC_I8_FIELDS, DEC_I16_FIELDS, DEC_I32_FIELDS, DEC_I64_FIELDS = (names for names, _ in DEC_GROUPS)
D8: D8T = _layout("D8T", DEC_I8_FIELDS)
D16: D16T = _layout("D16T", DEC_I16_FIELDS)
D32: D32T = _layout("D32T", DEC_I32_FIELDS)
D64: D64T = _layout("D64T", DEC_I64_FIELDS)

# the card columns the kernel writes (int8, one row each): the classic ones, then the suits
DEC_CARD_FIELDS = tuple(c.name for c in CARD_COLUMNS + SUIT_COLUMNS if c.dtype is not str)
N_CARD_CLASSIC = len(DEC_CARD_FIELDS) - len(SUIT_COLUMNS)
DC: DCT = _layout("DCT", DEC_CARD_FIELDS)
# the first of each run of per-kind columns (hand_2 is kind 0; meld_us_4 / meld_them_4 kind 2;
# hand_4C is rank 4 of clubs, suit s rank k at DC_SUITS + s * 11 + k - 2)
DC_HAND = DC.HAND_2
DC_MELD_US = DC.MELD_US_4
DC_MELD_THEM = DC.MELD_THEM_4
assert DC_MELD_THEM == DC_MELD_US + len(_MELD_COLS)  # the kernel copies both runs as one
DC_SUITS = DC.HAND_4C

GAME_COLUMNS: tuple[Column, ...] = (
    Column("seed", np.int64, 1, "seed of the run"),
    Column("game", np.int64, 1, "game index"),
    Column("hands", np.int32, 1, "hands played"),
    Column("winner_team", np.int8, 1, "team with the highest final score (-1 tie)"),
    Column("capped", np.int8, 1, "1: the game hit max_hands"),
    Column("final", np.int32, MAX_TEAMS, "final cumulative score per team"),
)
game_record_dt = record_dtype(GAME_COLUMNS)
