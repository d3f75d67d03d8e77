"""Stacked decks for scenario tests: a full deck text built from the hands a test wants.

    deck = stacked_deck(
        hands={0: "KS KH KD 6S 6H 6D 4C 5C 8C 9C JC", 1: "..."},
        upcard="7H",                # or a list: ["JK", "3D", "7H"] (wild/red three covered)
        stock_top=["JK", "2C"],     # the first stock cards after the upcard(s), top first
        dealer=0, players=4,
    )
    gs = GameState.new_hand(rules, deck=deck, dealer=0)

Card tokens are deck tokens (`AS 10H 3D 2C JK`) or, when the suit does not matter, bare ranks
(`A 10 2 JK`); a bare `3` is a black three, `R3` a red three.  Bare ranks take a free card of
that rank, preferring suits no explicit token of the test asks for.

The deal is interleaved exactly as the engine deals (docs/ENGINE.md): one card at a time,
starting with seat (dealer+1) % n, `hand_size` rounds; then the upcard(s); then `stock_top`;
then every remaining card in a fixed, harmless order: naturals 4..A round robin (so consecutive
stock cards differ in rank), then black threes, twos, jokers and, at the very end, red threes.
Hands given with fewer cards than the hand size are padded from the same order, preferring
ranks the hand does not hold yet (so padding creates no pairs where it can be avoided); seats
not given get such a padded hand.

Samba (`no_runs=True`, which `new_game` sets for rules with sequences; `players=4`,
`hand_size=15`, `decks=3`): the filler naturals change suit from rank to rank (rank r of pass p
has suit (r + p) % 4), so padding and the stock give no three consecutive cards of one suit
(no accidental sequences).
"""

from __future__ import annotations

from collections import Counter

from sim.core.cards import card_token, full_deck_ids, parse_card
from sim.core.enums import JOKER_ID

HAND_SIZE_BY_PLAYERS = {2: 15, 3: 13, 4: 11, 5: 11, 6: 13}
NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_INDEX = {
    "2": 0,
    "3": 1,
    "4": 2,
    "5": 3,
    "6": 4,
    "7": 5,
    "8": 6,
    "9": 7,
    "10": 8,
    "J": 9,
    "Q": 10,
    "K": 11,
    "A": 12,
}
SUITS = "CDHS"


def _split(cards) -> list[str]:
    if cards is None:
        return []
    if isinstance(cards, str):
        return cards.split()
    return [str(c) for c in cards]


def _bare_candidates(token: str) -> list[int] | None:
    """Card ids a bare rank token may stand for (None: the token names one exact card)."""
    t = token.strip().upper()
    if t in ("JK", "JOKER"):
        return [JOKER_ID]
    if t == "R3":
        return [1 * 13 + 1, 2 * 13 + 1]  # 3D, 3H
    if t == "3":
        return [0 * 13 + 1, 3 * 13 + 1]  # 3C, 3S
    if t in _RANK_INDEX:
        r = _RANK_INDEX[t]
        return [s * 13 + r for s in range(4)]
    return None


def _filler_order(decks: int, no_runs: bool = False) -> list[int]:
    """The order harmless cards are handed out: naturals round robin over ranks 4..A and
    suits, then black threes, twos, jokers, red threes last.  `no_runs`: each pass over the
    ranks changes suit at every rank (no same-suit runs for Samba sequences)."""
    out = []
    for _ in range(decks):
        if no_runs:
            for p in range(4):
                for r in range(2, 13):
                    out.append(((r + p) % 4) * 13 + r)
            continue
        for suit in (0, 3, 1, 2):  # clubs, spades, diamonds, hearts
            for r in range(2, 13):
                out.append(suit * 13 + r)
    out += [s * 13 + 1 for s in (0, 3)] * decks  # black threes
    out += [s * 13 for s in range(4)] * decks  # twos
    out += [JOKER_ID] * (2 * decks)
    out += [s * 13 + 1 for s in (1, 2)] * decks  # red threes
    return out


class _Pool:
    def __init__(self, decks: int, no_runs: bool = False) -> None:
        self.left = Counter(full_deck_ids(decks))
        self.order = _filler_order(decks, no_runs)

    def take_exact(self, card: int, where: str) -> int:
        if self.left[card] <= 0:
            raise ValueError(f"{where}: no {card_token(card)} left in the deck")
        self.left[card] -= 1
        return card

    def take_bare(self, cands: list[int], where: str, token: str) -> int:
        # prefer the candidate with most copies left (keeps explicit suits available)
        best = max(cands, key=lambda c: (self.left[c], -cands.index(c)))
        if self.left[best] <= 0:
            raise ValueError(f"{where}: no {token} left in the deck")
        self.left[best] -= 1
        return best

    def take_filler(self, avoid_ranks: set[int]) -> int:
        for pass_ in (0, 1):
            for c in self.order:
                if self.left[c] <= 0:
                    continue
                rank = c % 13 if c != JOKER_ID else -1
                harmless = 2 <= rank <= 12 if c != JOKER_ID else False
                if pass_ == 0 and (not harmless or rank in avoid_ranks):
                    continue
                self.left[c] -= 1
                return c
        raise ValueError("the deck ran out of cards")

    def rest(self) -> list[int]:
        out = []
        for c in self.order:
            while self.left[c] > 0:
                self.left[c] -= 1
                out.append(c)
        return out


def stacked_deck(
    hands: dict[int, str | list[str]] | None = None,
    upcard: str | list[str] = "4C",
    stock_top: str | list[str] | None = None,
    dealer: int = 0,
    players: int = 4,
    hand_size: int | None = None,
    decks: int | None = None,
    stock_bottom: str | list[str] | None = None,
    no_runs: bool = False,
) -> str:
    """The full deck text (every card of `decks` packs once per pack) in dealing order.

    `hands` maps active seats to their dealt cards (padded to `hand_size`); `upcard` is one
    token or a list (the first turned first); `stock_top` follows, top first.  `stock_bottom`
    lists the very last stock cards (the last token is the last card of the stock).
    `no_runs`: harmless cards without same-suit runs (Samba, see the module docstring).
    """
    n = 4 if players == 5 else players
    hs = hand_size if hand_size is not None else HAND_SIZE_BY_PLAYERS[players]
    dk = decks if decks is not None else (3 if players == 6 else 2)
    hands = hands or {}
    for s in hands:
        if not 0 <= s < n:
            raise ValueError(f"seat {s} is not an active seat 0..{n - 1}")
    pool = _Pool(dk, no_runs)
    # exact tokens first (so that bare ranks do not steal them), then bare ones, then padding
    specs: list[tuple[str, str, int]] = []  # (where, token, slot index)
    slots: dict[str, list[int | None]] = {}
    groups = {f"seat {s}": _split(h) for s, h in hands.items()}
    groups["upcard"] = _split(upcard)
    groups["stock_top"] = _split(stock_top)
    groups["stock_bottom"] = _split(stock_bottom)
    for where, toks in groups.items():
        slots[where] = [None] * len(toks)
        for i, t in enumerate(toks):
            specs.append((where, t, i))
        if where.startswith("seat") and len(toks) > hs:
            raise ValueError(f"{where}: {len(toks)} cards given, the hand size is {hs}")
    for where, t, i in specs:
        if _bare_candidates(t) is None:
            slots[where][i] = pool.take_exact(parse_card(t), where)
    for where, t, i in specs:
        cands = _bare_candidates(t)
        if cands is not None:
            slots[where][i] = pool.take_bare(cands, where, t)
    dealt: dict[int, list[int]] = {}
    for s in range(n):
        cards = list(slots.get(f"seat {s}", []))
        ranks = {c % 13 for c in cards if c != JOKER_ID}
        while len(cards) < hs:
            c = pool.take_filler(ranks)
            ranks.add(c % 13)
            cards.append(c)
        dealt[s] = cards
    order: list[int] = []
    for r in range(hs):
        for j in range(n):
            order.append(dealt[(dealer + 1 + j) % n][r])
    order += slots["upcard"]
    order += slots["stock_top"]
    rest = pool.rest()
    order += rest + slots["stock_bottom"]
    total = 54 * dk
    assert len(order) == total, (len(order), total)
    return " ".join(card_token(c) for c in order)


def stock_after_deal(
    players: int = 4, decks: int | None = None, upcards: int = 1, hand_size: int | None = None
) -> int:
    """Stock size after the deal (no red threes replaced)."""
    n = 4 if players == 5 else players
    dk = decks if decks is not None else (3 if players == 6 else 2)
    hs = hand_size if hand_size is not None else HAND_SIZE_BY_PLAYERS[players]
    return 54 * dk - n * hs - upcards


# ----------------------------------------------------------------------------- engine helpers


def new_game(rules=None, dealer: int = 0, cum=None, hand_index: int = 0, **deck_kw):
    """A GameState dealt from `stacked_deck(**deck_kw)` for `rules` (classic 4p by default)."""
    from sim.core.rules import RuleSet
    from sim.play.game import GameState

    rules = rules or RuleSet.preset("classic")
    deck_kw.setdefault("players", rules.players)
    deck_kw.setdefault("hand_size", rules.hand_size)
    deck_kw.setdefault("decks", rules.decks)
    deck_kw.setdefault("no_runs", bool(rules.sequences))
    text = stacked_deck(dealer=dealer, **deck_kw)
    gs = GameState.new_hand(
        rules, deck=text, dealer=dealer, cum_scores=list(cum or []), hand=hand_index
    )
    gs.dealer = dealer
    gs.cum = [int(c) for c in (cum or [])] + [0] * (3 - len(cum or []))
    return gs


def play(gs, *actions: str):
    """Apply the actions in order (IllegalActionError names the first illegal one)."""
    for a in actions:
        gs.apply(a)
    return gs


def drawn_card(gs, action: str = "draw") -> str:
    """Apply `draw` for the player to act and return the kind name of the card it added."""
    before = gs.hand_counts(gs.seat)
    seat = gs.seat
    gs.apply(action)
    diff = gs.hand_counts(seat) - before
    got = [i for i, d in enumerate(diff) if d > 0]
    assert len(got) == 1 and diff.sum() == 1, f"draw added {diff}"
    from sim.core.cards import kind_name

    return kind_name(got[0])


def burn(gs, until_stock: int = 0) -> None:
    """Each player in turn draws and discards the card drawn, until the stock holds
    `until_stock` cards (the hand must stay running)."""
    while gs.stock_size > until_stock:
        assert not gs.is_over
        card = drawn_card(gs)
        gs.apply(f"discard {card}")


def card_totals(gs):
    """Cards of each kind wherever they are (hands, melds, red threes, pile, aside, stock)."""
    import numpy as np

    from sim.core.apply import card_totals_nb

    out = np.zeros(15, np.int64)
    card_totals_nb(gs.state, out)
    return out


def assert_cards_conserved(gs) -> None:
    import numpy as np

    want = np.bincount(gs.deck & 15, minlength=15)  # deck entries are card codes kind | suit << 4
    got = card_totals(gs)
    assert list(got) == list(want), f"cards lost or created: {list(got)} != {list(want)}"


def referee_agrees(gs, opening_superset: bool = False) -> dict:
    """Replay the engine's actions through the independent referee.  A finished hand: the
    referee's score breakdown, end reason, going-out seat and concealed flag must equal the
    engine's.  A running hand: the referee's legal actions at the current position must equal
    the engine's.  Also checks that no card was lost.  Returns the engine's breakdown.

    `opening_superset` (Samba): the engine's opening look-ahead with sequences is a lower bound
    (docs/ENGINE.md), the referee's is exact, so at a running position the referee may allow
    more: every action the engine accepts (`why_illegal` is None) must be legal for the
    referee, and every extra one must be refused by the engine for the opening minimum only.
    Hands (with suits), melds, closed canastas and sequences must match the engine's."""
    from sim.core.enums import End, Off
    from sim.core.referee import RefereeState, referee_hand

    assert_cards_conserved(gs)
    bd = gs.score_breakdown()
    if opening_superset:
        _same_table(gs)
    if gs.is_over:
        res = referee_hand(gs.params, list(gs.deck), gs.dealer, gs.cum, gs.actions)
        for name in (
            "score",
            "meld_points",
            "canasta_bonus",
            "red3_points",
            "go_out_bonus",
            "hand_penalty",
            "canastas",
            "natural_canastas",
        ):
            assert list(getattr(res, name)) == bd[name], (name, list(getattr(res, name)), bd[name])
        assert res.end_reason == int(gs.state[Off.END_REASON])
        assert list(res.red3) == [gs.red_threes(t) for t in range(gs.n_teams)]
        if res.end_reason == End.WENT_OUT:
            assert res.went_out_seat == int(gs.state[Off.WENT_OUT_SEAT])
            assert res.concealed == bool(gs.state[Off.CONCEALED])
    else:
        ref = RefereeState(gs.params, list(gs.deck), gs.dealer, gs.cum)
        for a in gs.actions:
            ref.apply(a)
        assert ref.seat == gs.seat
        if opening_superset:
            from sim.core.enums import N_ACTIONS
            from sim.core.legal import WHY_TEXT, Why

            engine = {a for a in range(N_ACTIONS) if gs.why_illegal(a) is None}
            referee = set(ref.legal_actions())
            assert engine <= referee, (
                "refused by the referee",
                [gs.text(a) for a in engine - referee],
                [ref.is_legal(a) for a in engine - referee],
            )
            for a in referee - engine:
                assert gs.why_illegal(a) == WHY_TEXT[Why.OPENING], (gs.text(a), gs.why_illegal(a))
        else:
            assert sorted(ref.legal_actions()) == sorted(gs.legal_actions()), (
                sorted(ref.legal_actions()),
                sorted(gs.legal_actions()),
            )
    return bd


def _same_table(gs) -> None:
    """The referee's replay holds the engine's cards: hands with suits, open melds, closed
    canastas and sequences (Samba)."""
    from sim.core.enums import FIRST_NATURAL, LAST_NATURAL, N_KINDS, N_SUITED, Off
    from sim.core.referee import RefereeState

    ref = RefereeState(gs.params, list(gs.deck), gs.dealer, gs.cum)
    for a in gs.actions:
        ref.apply(a)
    for s in range(gs.n_seats):
        assert ref.hands[s] == [int(x) for x in gs.hand_counts(s)], s
        eng = gs.state[Off.HAND_SUITS + s * N_SUITED : Off.HAND_SUITS + (s + 1) * N_SUITED]
        mine = [
            ref.suits[s][su][k] for su in range(4) for k in range(FIRST_NATURAL, LAST_NATURAL + 1)
        ]
        assert mine == [int(x) for x in eng], ("suits of seat", s)
    for t in range(gs.n_teams):
        melds = {k: (m.nat, m.two, m.joker) for k, m in ref.melds[t].items()}
        assert melds == {
            k: tuple(
                int(gs.state[o + t * N_KINDS + k])
                for o in (Off.MELD_NAT, Off.MELD_TWO, Off.MELD_JOKER)
            )
            for k in range(N_KINDS)
            if gs.state[Off.MELD_NAT + t * N_KINDS + k]
            + gs.state[Off.MELD_TWO + t * N_KINDS + k]
            + gs.state[Off.MELD_JOKER + t * N_KINDS + k]
        }
        closed = {k: (len(ms), sum(m.nat for m in ms)) for k, ms in ref.closed[t].items() if ms}
        assert closed == {
            k: (
                int(gs.state[Off.CLOSED_COUNT + t * N_KINDS + k]),
                int(gs.state[Off.CLOSED_NAT + t * N_KINDS + k]),
            )
            for k in range(N_KINDS)
            if gs.state[Off.CLOSED_COUNT + t * N_KINDS + k]
        }
        seqs = {q: (x.suit, x.low, x.length) for q, x in enumerate(ref.seqs[t]) if x is not None}
        assert seqs == gs.sequences(t)
