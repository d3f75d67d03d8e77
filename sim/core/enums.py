"""Constants of the game core: card kinds, state layout, actions, rule parameters, records.

Everything here is a NamedTuple instance or a plain int so that numba folds it into the
kernels as a compile-time constant (the vectorbt pattern).  No logic lives here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# ----------------------------------------------------------------------------- cards


class KindT(NamedTuple):
    """Card kinds: what the rules can tell apart.  Suits matter only for threes (and for
    Samba sequences, which are not implemented yet), so hands, melds and the pile are
    count arrays over these 15 kinds."""

    TWO: int = 0
    BLACK3: int = 1
    FOUR: int = 2
    FIVE: int = 3
    SIX: int = 4
    SEVEN: int = 5
    EIGHT: int = 6
    NINE: int = 7
    TEN: int = 8
    JACK: int = 9
    QUEEN: int = 10
    KING: int = 11
    ACE: int = 12
    JOKER: int = 13
    RED3: int = 14


Kind = KindT()
N_KINDS = 15
FIRST_NATURAL = 2  # kinds 2..12 are the meldable natural ranks 4..A
LAST_NATURAL = 12
KIND_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK", "R3")

# Card ids in a deck file: suit * 13 + rank, rank 0..12 = 2,3,4,...,10,J,Q,K,A; suits C D H S.
# A joker is id 52.  A deck of `decks` packs holds every id 0..51 `decks` times and 2*decks jokers.
RANK_TOKENS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_TOKENS = ("C", "D", "H", "S")
JOKER_ID = 52
N_CARD_IDS = 53

MAX_SEATS = 6
MAX_TEAMS = 3
MAX_CARDS = 162

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

# ----------------------------------------------------------------------------- state layout
# One flat int32 array per hand.  The first PUB_SIZE entries are public (everybody sees them);
# the rest (hands, stock, pile order) is private.  An observation for a seat is the public part
# followed by that seat's own hand at offset HANDS, so every legality function reads a hand at
# `hand_off` and works unchanged on a full state (hand_off = HANDS + seat*N_KINDS) or an
# observation (hand_off = HANDS).


class OffT(NamedTuple):
    PHASE: int = 0
    SEAT: int = 1  # seat to act (0..N_SEATS-1, active seats of this hand)
    N_SEATS: int = 2
    N_TEAMS: int = 3
    TURN: int = 4  # turns started in this hand (0-based index of the current turn)
    END_REASON: int = 5
    WENT_OUT_SEAT: int = 6
    STOCK_LEN: int = 7
    PILE_LEN: int = 8
    PILE_FREEZE: int = 9  # wild cards and red threes in the pile: >0 means frozen for everyone
    PILE_TOP: int = 10  # kind of the top discard or -1
    PENDING_VALUE: int = 11  # card points laid this turn towards an unmade initial meld
    TOOK_PILE: int = 12  # the current player took the pile this turn
    ASIDE_LEN: int = 13  # pile cards held aside until the initial meld's minimum is reached
    MELDED_BEFORE: int = 14  # current player had melded before this turn
    CANASTAS_THIS_TURN: int = 15  # canastas completed this turn by the current player
    DEALER: int = 16
    CONCEALED: int = 17  # set when the hand ended by a concealed going out
    WENT_OUT_DISCARD: int = 18  # 1 when going out ended with a final discard
    DECISIONS: int = 19  # decisions taken in this hand
    TEAM_OF_SEAT: int = 20  # [MAX_SEATS]
    HAND_SIZE: int = 26  # [MAX_SEATS]
    SEAT_MELDED: int = 32  # [MAX_SEATS] seat has melded something this hand
    TEAM_OPENED: int = 38  # [MAX_TEAMS] initial meld made
    TEAM_RED3: int = 41  # [MAX_TEAMS] red threes laid
    CUM_SCORE: int = 44  # [MAX_TEAMS] cumulative score before this hand
    TEAM_MIN: int = 47  # [MAX_TEAMS] initial-meld minimum this hand
    MELD_NAT: int = 50  # [MAX_TEAMS, N_KINDS] naturals in the team's (open) meld of each kind
    MELD_TWO: int = 95  # [MAX_TEAMS, N_KINDS] twos in it
    MELD_JOKER: int = 140  # [MAX_TEAMS, N_KINDS] jokers in it
    PILE_COUNTS: int = 185  # [N_KINDS] cards of each kind in the pile
    LAST_DISCARD: int = 200  # [MAX_SEATS] kind each seat discarded last (-1 none)
    PILE_TOP_SUIT: int = 206  # suit of the top discard (0..3) or -1
    PUB_CLASSIC: int = 207  # end of the public fields every rule set uses (the rest is Samba's)
    # Samba: several melds of a rank.  A group meld that reaches CANASTA_SIZE is closed (no wild
    # card may join it) and moved here, so that a new meld of the rank can be started.
    CLOSED_COUNT: int = 208  # [MAX_TEAMS, N_KINDS] closed canastas of each rank
    CLOSED_NAT: int = 253  # [MAX_TEAMS, N_KINDS] natural cards in them
    CLOSED_NATURAL: int = 298  # [MAX_TEAMS] natural canastas among them
    CLOSED_TWO: int = 301  # [MAX_TEAMS] twos in them
    CLOSED_JOKER: int = 304  # [MAX_TEAMS] jokers in them
    # Samba sequences: MAX_SEQS slots per team: suit, lowest kind, length (0 = empty slot)
    SEQ_SUIT: int = 307  # [MAX_TEAMS, MAX_SEQS]
    SEQ_LOW: int = 331  # [MAX_TEAMS, MAX_SEQS]
    SEQ_LEN: int = 355  # [MAX_TEAMS, MAX_SEQS]
    PUB_SIZE: int = 380
    HANDS: int = 380  # [MAX_SEATS, N_KINDS]
    HAND_SUITS: int = 470  # [MAX_SEATS, 4 suits, 11 natural ranks] (Samba sequences need suits)
    STOCK: int = 734  # [MAX_CARDS] card codes (kind | suit << 4); the top at STOCK + STOCK_POS
    PILE: int = 896  # [MAX_CARDS] card codes, bottom first; while ASIDE_LEN > 0 it holds the aside cards
    STOCK_POS: int = 1058
    PILE_TAKES: int = 1059  # [MAX_TEAMS] piles taken per team this hand
    STATE_SIZE: int = 1064


Off = OffT()
N_SUITED = 44  # 4 suits x 11 natural ranks
MAX_SEQS = 8
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
    MELD: int = 8  # + kind*3 + variant: new meld of 3 cards (variant 0: 3 naturals, 1: 2+two, 2: 2+joker)
    ADD_NAT: int = 53  # + kind: add a natural to the team's meld of that kind
    ADD_TWO: int = 68  # + kind: add a two
    ADD_JOKER: int = 83  # + kind: add a joker
    DISCARD: int = 98  # + kind
    SEQ_NEW: int = 113  # + suit*9 + (low kind - 2): new 3-card sequence low..low+2 of one suit (Samba)
    SEQ_ADD: int = 149  # + slot*2 + end: extend the team's sequence in `slot` below (end 0) or above (1)
    TAKE_SEQ: int = 165  # + slot*2 + end: take the pile by extending a team sequence with the top card
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


class ParT(NamedTuple):
    """Indices into the int32 rule-parameter array built by sim.core.rules.RuleSet.to_params()."""

    N_PLAYERS: int = 0  # players at the table (2..6)
    N_ACTIVE: int = 1  # players in a hand (4 with five players: one sits out)
    N_TEAMS: int = 2
    DECKS: int = 3
    HAND_SIZE: int = 4
    DRAW_COUNT: int = 5
    MAX_WILD: int = 6  # wild cards per meld at most
    WILD_LE_NAT: int = 7  # 1: wild cards never more than naturals
    MIN_NATURALS: int = 8  # naturals a meld needs (2)
    CANASTA_SIZE: int = 9
    WILD_ONTO_CANASTA: int = 10
    TAKE_NAT_WILD: int = 11  # pile_take_natural_plus_wild
    TAKE_ONTO_MELD: int = 12  # pile_take_onto_meld
    TAKE_ONTO_CANASTA: int = 13  # 0 never, 1 yes, 2 only with a natural pair from the hand
    SEQUENCES: int = 14  # reserved for Samba (not implemented)
    MULTI_MELDS: int = 15  # reserved for Samba (not implemented)
    CANASTAS_TO_GO_OUT: int = 16
    GO_OUT_BONUS: int = 17  # going out with a final discard
    GO_OUT_NO_DISCARD_BONUS: int = 18  # going out without one (German billing: 200)
    CONCEALED_BONUS: int = 19  # concealed going out, in total (0 = no extra)
    CONCEALED_NEEDS_MIN: int = 20  # concealed going out still needs the minimum
    RED3_NEED_CANASTAS: int = 21  # 0: red threes count plus once the team has melded
    RED3_TABLE: int = 22  # [7] score of 0..6 red threes
    BLACK3_MELD_MIN: int = 29
    BLACK3_MELD_MAX: int = 30
    GAME_TARGET: int = 31
    MIN_BELOW_ZERO: int = 32  # minimum for a negative cumulative score
    MIN_BAND_FROM: int = 33  # [4] cumulative score where each band starts
    MIN_BAND_VALUE: int = 37  # [4] minimum in that band
    NATURAL_CANASTA: int = 41
    MIXED_CANASTA: int = 42
    UPCARD_FREEZES: int = 43
    EXHAUSTED_FORCED_TAKE: int = 44
    RED3_LAST_ENDS: int = 45
    CARD_VALUE: int = 46  # [N_KINDS] card points by kind
    TEAM_OF_SEAT: int = 61  # [MAX_SEATS] team of each table seat
    FIVE_SITOUT: int = 67  # 1: five players, one of the three-team sits out each hand
    MAX_TURNS: int = 68  # safety cap on turns per hand
    MAX_HANDS: int = 69  # safety cap on hands per game
    SAMBA_BONUS: int = 70  # bonus of a 7-card sequence
    N_PARAMS: int = 72


Par = ParT()
N_PARAMS = Par.N_PARAMS

# ----------------------------------------------------------------------------- records

hand_record_dt = np.dtype(
    [
        ("seed", np.int64),
        ("game", np.int64),
        ("hand", np.int32),
        ("dealer", np.int8),
        ("end_reason", np.int8),
        ("went_out_seat", np.int8),
        ("went_out_team", np.int8),
        ("concealed", np.int8),
        ("turns", np.int16),
        ("decisions", np.int32),
        ("score", np.int32, (MAX_TEAMS,)),
        ("meld_points", np.int32, (MAX_TEAMS,)),
        ("canasta_bonus", np.int32, (MAX_TEAMS,)),
        ("red3_points", np.int32, (MAX_TEAMS,)),
        ("go_out_bonus", np.int32, (MAX_TEAMS,)),
        ("hand_penalty", np.int32, (MAX_TEAMS,)),
        ("canastas", np.int8, (MAX_TEAMS,)),
        ("natural_canastas", np.int8, (MAX_TEAMS,)),
        ("red3", np.int8, (MAX_TEAMS,)),
        ("opened", np.int8, (MAX_TEAMS,)),
        ("pile_takes", np.int16, (MAX_TEAMS,)),
        ("cum_before", np.int32, (MAX_TEAMS,)),
        ("seat_of_player", np.int8, (MAX_SEATS,)),
    ],
    align=True,
)

# ----------------------------------------------------------------------------- decision columns
# One declaration per decision column: (name, dtype, meaning).  The record dtype, the kernels'
# int-width groups (`DEC_I8_FIELDS`.., `D8`..`D64`), the store's column types and the table in
# docs/DATA.md (a test holds it equal) all come from these tables.  Adding a column: a line
# here, the kernel line that writes it (`_log_decision_nb` in sim/play/loop.py; a card column
# in sim/play/cardlog.py), its row in docs/DATA.md and a check in tests/test_decision_columns.py.


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
    DecisionColumn("decision_type", np.int8,
           "0 draw-or-take, 1 new meld, 2 add to meld, 3 discard, 4 decline, 5 Samba sequence meld or extension"),
    DecisionColumn("action", np.int16, "the action id (`sim.core.enums.Act`)"),
    DecisionColumn("n_legal", np.int16, "number of legal actions"),
    DecisionColumn("hand_size", np.int8, "cards in the decider's hand before the decision"),
    DecisionColumn("pile_size", np.int16, "cards in the discard pile"),
    DecisionColumn("pile_frozen", np.int8, "1 if the pile is frozen for everyone (a wild card or red three in it)"),
    DecisionColumn("team_opened", np.int8, "1 if the deciding team has made its initial meld"),
    DecisionColumn("opp_opened", np.int8, "1 if an opposing team has"),
    DecisionColumn("canastas_us", np.int8, "canastas of the deciding team"),
    DecisionColumn("canastas_them", np.int8, "canastas of the best opposing team"),
    DecisionColumn("next_opp_hand_size", np.int8, "hand size of the next opponent to play (-1 none)"),
    DecisionColumn("min_opp_hand_size", np.int8, "smallest opposing hand (-1 none)"),
    DecisionColumn("stock_size", np.int16, "cards left in the stock"),
    DecisionColumn("cum_us", np.int32, "cumulative score of the deciding team before the hand"),
    DecisionColumn("cum_them", np.int32, "best cumulative opposing score before the hand (0 without opponents)"),
    DecisionColumn("pending_value", np.int16, "card points laid this turn towards an unmade initial meld"),
    DecisionColumn("score_us", np.int32, "the hand's final score of the deciding team (filled when the hand ends)"),
    DecisionColumn("score_them", np.int32, "... and of the best opposing team"),
    DecisionColumn("went_out_us", np.int8, "1 if the deciding team went out"),
)

_KIND_COLS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK")  # kinds 0..13
_MELD_COLS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # kinds 2..12

# `--log-detail cards`: the cards behind each decision, after the basic columns.  All int8 (one
# 2-D int8 array in the kernel, layout `DC`) but `strategy`, which the store derives from `seat`.
CARD_COLUMNS = (
    DecisionColumn("strategy", str, "the decider's strategy (as given, knobs included; dictionary encoded)"),
    DecisionColumn("pile_top", np.int8, "kind of the pile's top card (`KIND_NAMES` index; -1 empty pile)"),
    DecisionColumn("drawn_1", np.int8,
           "kind of the first card drawn from the stock this turn (red threes, laid at once, "
           "skipped; -1 before the draw or when the pile was taken)"),
    DecisionColumn("drawn_2", np.int8, "kind of the second such card (-1 none)"),
    DecisionColumn("act_kind", np.int8,
           "kind of the card the action plays: the rank melded or added, the wild card added, the "
           "card discarded, the pile's top card taken; -1 for a draw or decline"),
    DecisionColumn("act_naturals", np.int8, "non-wild cards the action takes from the hand"),
    DecisionColumn("act_wilds", np.int8, "wild cards (twos, jokers) the action takes from the hand"),
    DecisionColumn("act_target", np.int8,
           "the meld the action lays or builds on: the rank's kind for a group meld (new or "
           "existing), 16 + slot for a Samba sequence (new or existing), -1 otherwise (draw, "
           "discard, decline)"),
    *(DecisionColumn(f"hand_{k}", np.int8, f"cards of kind {k} in the decider's hand before the decision")
      for k in _KIND_COLS),
    *(DecisionColumn(f"meld_us_{k}", np.int8, f"cards in the deciding team's open meld of {k}s") for k in _MELD_COLS),
    *(DecisionColumn(f"meld_them_{k}", np.int8, f"cards in an opposing team's open meld of {k}s (the most of any)") for k in _MELD_COLS),
    DecisionColumn("red3_us", np.int8, "red threes laid by the deciding team"),
    DecisionColumn("red3_them", np.int8, "most red threes laid by an opposing team"),
)
# ... and under Samba rules (sequences need suits): the hand's naturals per suit and rank
SUIT_COLUMNS = tuple(
    DecisionColumn(f"hand_{k}{s}", np.int8, f"{k}s of suit {s} in the decider's hand (Samba rules only)")
    for s in ("C", "D", "H", "S") for k in _MELD_COLS
)


def _record(columns: tuple[DecisionColumn, ...]) -> np.dtype:
    return np.dtype([(c.name, c.dtype) for c in columns], align=True)


def _layout(type_name: str, names: tuple[str, ...]):
    """Row index of each field in its kernel array, as a NamedTuple numba folds as constants."""
    cls = NamedTuple(type_name, [(n.upper(), int) for n in names])
    return cls(*range(len(names)))


decision_record_dt = _record(DECISION_COLUMNS)

# The kernels log decisions column-wise (no record-to-column transposition before parquet):
# one 2-D array per integer width, one row per field, in declaration order.  `decision_record_dt`
# above is the same table as records (`ChunkResult.decisions`).
DEC_GROUPS = tuple(
    (tuple(c.name for c in DECISION_COLUMNS if c.dtype is dt), dt) for dt in (np.int8, np.int16, np.int32, np.int64)
)
DEC_I8_FIELDS, DEC_I16_FIELDS, DEC_I32_FIELDS, DEC_I64_FIELDS = (names for names, _ in DEC_GROUPS)
D8 = _layout("D8T", DEC_I8_FIELDS)
D16 = _layout("D16T", DEC_I16_FIELDS)
D32 = _layout("D32T", DEC_I32_FIELDS)
D64 = _layout("D64T", DEC_I64_FIELDS)

# the card columns the kernel writes (int8, one row each): the classic ones, then the suits
DEC_CARD_FIELDS = tuple(c.name for c in CARD_COLUMNS + SUIT_COLUMNS if c.dtype is not str)
N_CARD_CLASSIC = len(DEC_CARD_FIELDS) - len(SUIT_COLUMNS)
DC = _layout("DCT", DEC_CARD_FIELDS)
# the first of each run of per-kind columns (hand_2 is kind 0; meld_us_4 / meld_them_4 kind 2;
# hand_4C is rank 4 of clubs, suit s rank k at DC_SUITS + s * 11 + k - 2)
DC_HAND = DC.HAND_2
DC_MELD_US = DC.MELD_US_4
DC_MELD_THEM = DC.MELD_THEM_4
assert DC_MELD_THEM == DC_MELD_US + len(_MELD_COLS)  # the kernel copies both runs as one
DC_SUITS = DC.HAND_4C

game_record_dt = np.dtype(
    [
        ("seed", np.int64),
        ("game", np.int64),
        ("hands", np.int32),
        ("winner_team", np.int8),
        ("capped", np.int8),
        ("final", np.int32, (MAX_TEAMS,)),
    ],
    align=True,
)
