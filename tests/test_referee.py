"""The pure-Python referee on hand-built hands with stacked decks (classic rules, 4 players).

Dealer 0, so seat 1 (team 1) moves first; teams are seats 0+2 (team 0) and 1+3 (team 1).
Decks are built from the hands each seat should get; the referee does not need a full deck.
"""

from __future__ import annotations

import pytest

from sim.core.enums import KIND_NAMES, Act, End, Kind, Par
from sim.core.referee import IllegalAction, Meld, RefereeState, referee_hand
from sim.core.rules import RuleSet

PARAMS = RuleSet.preset("classic", players=4).to_params()

# hands of 11 cards that meld nothing (card points in the comment)
FILL0 = "4 5 6 7 8 9 10 J Q K A"  # 5*4 + 10*6 + 20 = 100
FILL2 = "4 5 6 7 8 9 10 J Q K A"  # 100
FILL3 = "JK 2 4 5 6 7 8 9 10 J Q"  # 50 + 20 + 20 + 50 = 140


def k(token: str) -> int:
    return KIND_NAMES.index(token)


def cards(text: str) -> list[int]:
    return [k(t) for t in text.split()]


def deck(hands: dict[int, str], up: str, stock: str, dealer: int = 0) -> list[int]:
    """Stack a deck: `hands[seat]` (11 cards), the upcard(s), then the stock from its top."""
    full = {s: cards(hands.get(s, FILL0)) for s in range(4)}
    assert all(len(h) == 11 for h in full.values())
    dealt = [full[(dealer + 1 + i) % 4][i // 4] for i in range(44)]
    return dealt + cards(up) + cards(stock)


def meld(tok: str, variant: int = 0) -> int:
    return Act.MELD + k(tok) * 3 + variant


def add(tok: str) -> int:
    return Act.ADD_NAT + k(tok)


def add2(tok: str) -> int:
    return Act.ADD_TWO + k(tok)


def addjk(tok: str) -> int:
    return Act.ADD_JOKER + k(tok)


def disc(tok: str) -> int:
    return Act.DISCARD + k(tok)


def play(state: RefereeState, *actions: int) -> RefereeState:
    for a in actions:
        state.apply(a)
    return state


def new_state(d: list[int], cum=(0, 0), params=PARAMS) -> RefereeState:
    return RefereeState(params, d, 0, list(cum))


def illegal_step(d, actions, cum=(0, 0), params=PARAMS) -> IllegalAction:
    with pytest.raises(IllegalAction) as exc:
        referee_hand(params, d, 0, list(cum), actions)
    return exc.value


# ----------------------------------------------------------------------------- deal


def test_deal_order_upcards_and_red_three_replacement():
    # seat 1 gets a red three (replaced by stock "9"), seat 0 too (replaced by "5"); the upcard
    # is a joker, then a red three, then a 7: the pile starts frozen with 2 cards counted
    d = deck(
        {1: "R3 K K K K K K K 3 3 3", 0: "R3 4 4 5 6 7 8 10 J Q A"}, up="JK R3 7", stock="9 5 K"
    )
    st = new_state(d)
    assert st.seat == 1 and st.turns == 1
    assert st.pile == [Kind.JOKER, Kind.RED3, Kind.SEVEN]
    assert st.pile_freeze == 2
    assert st.red3 == [1, 1]
    assert st.hands[1][Kind.NINE] == 1 and st.hands[1][Kind.RED3] == 0
    assert st.hands[0][Kind.FIVE] == 2
    assert st.stock == [Kind.KING]


def test_deal_red_three_replaced_by_red_three():
    d = deck({1: "R3 4 5 6 7 8 9 10 J Q K"}, up="9", stock="R3 A 5")
    st = new_state(d)
    assert st.red3 == [0, 2]
    assert st.hands[1][Kind.ACE] == 1
    assert st.stock == [Kind.FIVE]


# ----------------------------------------------------------------------------- opening


def test_seed000_45_points_refuse_the_discard():
    # K K K + 6 6 6 = 45 < 50: the melds are legal (the joker can still reach 50) but the
    # turn may not end with 45 pending
    d = deck({1: "K K K 6 6 6 JK 4 5 9 Q"}, up="10", stock="8 7 7")
    st = play(new_state(d), Act.DRAW, meld("K"), meld("6"))
    assert st.pending == 45 and not st.opened[1]
    assert "pending" in st.is_legal(disc("9"))
    err = illegal_step(d, [Act.DRAW, meld("K"), meld("6"), disc("9")])
    assert err.step == 3 and err.action == disc("9")
    play(st, addjk("K"))
    assert st.pending == 95 and st.opened[1]
    assert st.is_legal(disc("9")) is None


def test_seed000_45_points_refuse_the_melds():
    # without a wild card 50 cannot be reached: the first meld is already refused
    d = deck({1: "K K K 6 6 6 7 4 5 9 Q"}, up="10", stock="8 7 7")
    err = illegal_step(d, [Act.DRAW, meld("K"), meld("6"), disc("9")])
    assert err.step == 1 and err.action == meld("K")
    assert "initial meld" in err.reason
    st = play(new_state(d), Act.DRAW)
    assert st.is_legal(meld("6")) is not None
    assert st.is_legal(disc("9")) is None  # not melding at all is fine


def test_opening_two_melds_exactly_50():
    d = deck({1: "Q Q Q 4 4 4 4 9 J 7 5"}, up="10", stock="8 6 6")
    st = play(new_state(d), Act.DRAW, meld("Q"), meld("4"))
    assert st.pending == 45 and not st.opened[1]
    play(st, add("4"))
    assert st.pending == 50 and st.opened[1]
    play(st, disc("9"))
    assert st.seat == 2 and st.melds[1] == {Kind.QUEEN: Meld(3), Kind.FOUR: Meld(4)}
    # with only three fours: 30 + 15 = 45, the queens may not be melded
    d = deck({1: "Q Q Q 4 4 4 5 9 J 7 5"}, up="10", stock="8 6 6")
    st = play(new_state(d), Act.DRAW)
    assert st.is_legal(meld("Q")) is not None
    assert st.is_legal(meld("4")) is not None


def test_take_for_opening_counts_only_top_and_hand():
    # seat 1 discards a king onto the 9; seat 2 holds K K and 9 9: the pile's 9 would make
    # 9 9 9 but pile cards never count for the minimum -> 30 < 50, refused
    stack = {1: "K 4 5 6 7 8 10 J Q A 9", 2: "K K 9 9 4 5 6 7 8 10 J"}
    d = deck(stack, up="9", stock="5 6 7")
    err = illegal_step(d, [Act.DRAW, disc("K"), Act.TAKE_PAIR])
    assert err.step == 2 and err.action == Act.TAKE_PAIR
    # with Q Q Q in hand 30 + 30 >= 50: legal; the 9 is held aside until the minimum is made
    stack[2] = "K K Q Q Q 4 5 6 7 8 10"
    st = play(new_state(deck(stack, up="9", stock="5 6 7")), Act.DRAW, disc("K"), Act.TAKE_PAIR)
    assert st.pending == 30 and st.aside == [Kind.NINE] and st.hands[2][Kind.NINE] == 0
    assert st.is_legal(disc("4")) is not None  # 30 pending: no discard
    play(st, meld("Q"))
    assert st.opened[0] and st.pending == 60 and st.aside == []
    assert st.hands[2][Kind.NINE] == 1
    assert st.melds[0][Kind.KING] == Meld(3)
    assert st.pile == [] and st.pile_takes == [1, 0]


# ----------------------------------------------------------------------------- the pile


SEVEN_ON_TOP = [
    Act.DRAW,
    meld("A"),
    disc("J"),
    Act.DRAW,
    None,
    Act.DRAW,
    disc("Q"),
    Act.DRAW,
    disc("7"),
]


def _seven_deck() -> list[int]:
    # seat 1 opens with A A A (60), seat 2 discards a queen or a two, seat 3 a queen, seat 0 a 7
    return deck(
        {
            1: "A A A 2 7 4 5 6 8 9 10",
            2: "4 5 6 7 8 9 10 J Q K 2",
            3: "4 5 6 7 8 9 10 J Q K A",
            0: "4 5 6 7 8 9 10 J Q K A",
        },
        up="10",
        stock="J Q 4 5 6",
    )


def _seven_actions(seat2_discard: str) -> list[int]:
    return [disc(seat2_discard) if a is None else a for a in SEVEN_ON_TOP]


def test_take_natural_plus_wild_on_unfrozen_pile():
    st = play(new_state(_seven_deck()), *_seven_actions("Q"))
    assert st.seat == 1 and st.pile_freeze == 0 and st.pile[-1] == Kind.SEVEN
    assert st.is_legal(Act.TAKE_PAIR) is not None  # only one 7 in hand
    assert st.is_legal(Act.TAKE_NAT_JOKER) is not None  # no joker
    assert st.is_legal(Act.TAKE_ONTO) is not None  # no meld of 7s
    play(st, Act.TAKE_NAT_TWO)
    assert st.melds[1][Kind.SEVEN] == Meld(2, 1, 0)
    # the rest of the pile (10 J Q Q) joined the hand at once
    assert st.hands[1][Kind.QUEEN] == 2 and st.hands[1][Kind.TEN] == 2
    assert st.pile == [] and st.pile_freeze == 0


def test_take_natural_plus_wild_refused_on_frozen_pile():
    st = play(new_state(_seven_deck()), *_seven_actions("2"))
    assert st.pile_freeze == 1
    reason = st.is_legal(Act.TAKE_NAT_TWO)
    assert reason is not None and "frozen" in reason
    err = illegal_step(_seven_deck(), _seven_actions("2") + [Act.TAKE_NAT_TWO])
    assert err.step == 9 and "frozen" in err.reason


# ----------------------------------------------------------------------------- going out


def test_going_out_without_canasta_refused():
    d = deck({1: "A A A K K K Q Q Q Q Q"}, up="10", stock="9 5 6")
    actions = [Act.DRAW, meld("A"), meld("K"), meld("Q"), add("Q"), add("Q")]
    err = illegal_step(d, actions)
    assert err.step == 5 and "two cards" in err.reason
    # nor by melding the last card
    d = deck({1: "A A A K K K Q Q Q J J"}, up="10", stock="J 5 6")
    err = illegal_step(d, [Act.DRAW, meld("A"), meld("K"), meld("Q"), meld("J")])
    assert err.step == 4 and "canasta" in err.reason


def test_concealed_going_out_below_minimum_200_bonus():
    # team 1 needs 90 (cumulative 1500); the concealed going out needs no minimum (55 points)
    d = deck({1: "4 4 4 4 4 4 4 6 6 6 9", 3: FILL3, 0: FILL0, 2: FILL2}, up="10", stock="6 5 5")
    cum = (0, 1500)
    st = play(new_state(d, cum), Act.DRAW, meld("4"))
    assert st.team_min == [50, 90] and st.pending == 15
    # at most 7 of the 9 cards may be melded while the team cannot go out (keep two):
    # 4444 666 or 444 6666 -> 35; 15 + 35 < 90: only the concealed going out allows the meld
    assert st.max_more_points() == 35
    assert st.concealed_out_possible()
    assert "pending" in st.is_legal(disc("9"))
    actions = [
        Act.DRAW,
        meld("4"),
        add("4"),
        add("4"),
        add("4"),
        add("4"),
        meld("6"),
        add("6"),
        disc("9"),
    ]
    res = referee_hand(PARAMS, d, 0, list(cum), actions)
    assert res.end_reason == End.WENT_OUT and res.went_out_seat == 1 and res.concealed
    assert res.meld_points == [0, 55]
    assert res.canasta_bonus == [0, 500]
    assert res.go_out_bonus == [0, 200]
    assert res.hand_penalty == [200, 140]
    assert res.red3_points == [0, 0]
    assert res.score == [-200, 55 + 500 + 200 - 140]
    assert res.turns == 1 and res.canastas == [0, 1]
    # the sixes first, before the canasta exists, are legal too; the discard before going out
    # is not
    err = illegal_step(d, [Act.DRAW, meld("6"), meld("4"), disc("9")], cum)
    assert err.step == 3


def test_concealed_going_out_impossible_without_canasta_in_hand():
    # six fours only: no canasta can be completed, 15 + 20 < 90 -> meld refused
    d = deck({1: "4 4 4 4 4 4 5 6 6 6 9"}, up="10", stock="7 5 5")
    st = play(new_state(d, (0, 1500)), Act.DRAW)
    assert not st.concealed_out_possible()
    assert st.is_legal(meld("4")) is not None


def test_black_threes_when_going_out_and_red_threes_full_score():
    d = deck(
        {1: "K K K K K K K 3 3 3 R3", 0: "R3 4 4 5 6 7 8 10 J Q A", 2: FILL2, 3: FILL3},
        up="10",
        stock="9 5 K 6",
    )
    st = play(new_state(d), Act.DRAW)
    # black threes only as the last meld when going out
    assert "going out" in st.is_legal(meld("3"))
    play(st, meld("K"), add("K"), add("K"), add("K"), add("K"))
    assert st.canastas(1) == 1 and st.hand_total() == 5
    assert "at most one other card" in st.is_legal(meld("3"))  # 9 and K would remain
    play(st, add("K"))
    assert st.is_legal(meld("3")) is None
    assert st.is_legal(meld("3", 1)) is not None  # no wild cards with black threes
    actions = [Act.DRAW, meld("K")] + [add("K")] * 5 + [meld("3"), disc("9")]
    res = referee_hand(PARAMS, d, 0, [0, 0], actions)
    assert res.end_reason == End.WENT_OUT and res.concealed
    assert res.red3 == [1, 1]
    assert res.meld_points == [0, 80 + 15]
    assert res.canasta_bonus == [0, 500]
    assert res.red3_points == [-100, 100]  # team 0 never opened
    assert res.go_out_bonus == [0, 200]
    assert res.hand_penalty == [90 + 100, 140]
    assert res.score == [-100 - 190, 95 + 500 + 100 + 200 - 140]
    assert res.canastas == [0, 1] and res.natural_canastas == [0, 1]


def test_going_out_with_discard_after_opening_100_bonus():
    # turn 0: seat 1 opens (A A A = 60) and lays six kings; turn 4: draws the 7th king,
    # adds it (natural canasta), adds the two (now mixed) and goes out with a discard
    d = deck({1: "K K K K K K 2 A A A 9", 2: FILL2, 3: FILL3, 0: FILL0}, up="10", stock="Q 4 4 4 K")
    actions = [
        Act.DRAW,
        meld("A"),
        meld("K"),
        add("K"),
        add("K"),
        add("K"),
        disc("Q"),
        Act.DRAW,
        disc("4"),
        Act.DRAW,
        disc("4"),
        Act.DRAW,
        disc("4"),
        Act.DRAW,
        add("K"),
        add2("K"),
        disc("9"),
    ]
    res = referee_hand(PARAMS, d, 0, [0, 0], actions)
    assert res.end_reason == End.WENT_OUT and not res.concealed and res.went_out_seat == 1
    assert res.meld_points == [0, 60 + 70 + 20]
    assert res.canasta_bonus == [0, 300]
    assert res.go_out_bonus == [0, 100]
    assert res.hand_penalty == [200, 140]
    assert res.score == [-200, 150 + 300 + 100 - 140]
    assert res.turns == 5 and res.decisions == len(actions)
    # the same line stopping before the final discard: the hand is not over
    err = illegal_step(d, actions[:-1])
    assert err.step == len(actions) - 1 and err.action == -1


# ----------------------------------------------------------------------------- end of the hand


def test_exhausted_stock_ends_the_hand():
    d = deck(
        {1: "4 5 6 7 8 9 10 J Q K A", 2: "4 5 6 7 8 9 10 J Q K A", 3: FILL3, 0: FILL0},
        up="9",
        stock="5 7",
    )
    actions = [Act.DRAW, disc("4"), Act.DRAW, disc("8")]
    res = referee_hand(PARAMS, d, 0, [0, 0], actions)
    # seat 3 must draw, the stock is empty and the frozen pile cannot be taken
    assert res.end_reason == End.EXHAUSTED and res.turns == 3
    # seat 1: 100 - 4 + 5 = 100, seat 2: 100 - 8 + 7 = 95, seat 3: 140, seat 0: 100
    assert res.hand_penalty == [195, 240]
    assert res.score == [-195, -240]
    assert res.go_out_bonus == [0, 0]
    err = illegal_step(d, actions + [Act.DRAW])
    assert err.step == 4 and "over" in err.reason
    err = illegal_step(d, actions[:3])
    assert err.step == 3 and err.action == -1


def test_exhausted_forced_take_and_decline():
    # seat 1 opens with A A A; seat 2 draws the last card and discards an ace: seat 3 (team 1)
    # may add it to the aces -> DECLINE is illegal, the take is forced
    d = deck(
        {1: "A A A 4 5 6 7 8 9 10 J", 2: "A 5 6 7 8 9 10 J Q K 4", 3: FILL3, 0: FILL0},
        up="9",
        stock="K Q",
    )
    st = play(new_state(d), Act.DRAW, meld("A"), disc("K"), Act.DRAW, disc("A"))
    assert st.stock == [] and st.seat == 3
    assert st.is_legal(Act.DRAW) is not None
    assert "forced" in st.is_legal(Act.DECLINE)
    play(st, Act.TAKE_ONTO)
    assert st.melds[1][Kind.ACE] == Meld(4)
    assert st.hands[3][Kind.KING] == 1 and st.hands[3][Kind.NINE] == 2
    play(st, disc("9"))
    # seat 0: team 0 has not opened, the pile (9) is frozen for it, no pair -> exhausted
    assert st.over and st.end_reason == End.EXHAUSTED and st.turns == 4
    # a free choice: seat 3 holds Q Q and may take the queen (frozen? no: team 1 opened,
    # pile unfrozen) but it does not fit a meld, so DECLINE is legal and ends the hand
    d = deck(
        {
            1: "A A A 4 5 6 7 8 9 10 J",
            2: "A 5 6 7 8 9 10 J Q K 4",
            3: "Q Q 4 5 6 7 8 9 10 J K",
            0: FILL0,
        },
        up="9",
        stock="K Q",
    )
    st = play(new_state(d), Act.DRAW, meld("A"), disc("K"), Act.DRAW, disc("Q"))
    assert st.is_legal(Act.TAKE_PAIR) is None and st.is_legal(Act.DECLINE) is None
    play(st, Act.DECLINE)
    assert st.end_reason == End.EXHAUSTED and st.result().went_out_seat == -1


def test_red_three_last_card_of_the_stock():
    d = deck({}, up="9", stock="R3")
    res = referee_hand(PARAMS, d, 0, [0, 0], [Act.DRAW])
    assert res.end_reason == End.RED3_LAST and res.red3 == [0, 1]
    assert res.red3_points == [0, -100] and res.turns == 1


def test_red_three_drawn_is_replaced():
    d = deck({}, up="9", stock="R3 J 5")
    st = play(new_state(d), Act.DRAW)
    assert st.red3 == [0, 1] and st.hands[1][Kind.JACK] == 2 and st.stock == [Kind.FIVE]


def test_turn_limit():
    params = PARAMS.copy()
    params[Par.MAX_TURNS] = 2
    d = deck({}, up="9", stock="5 6 7 8")
    res = referee_hand(params, d, 0, [0, 0], [Act.DRAW, disc("4"), Act.DRAW, disc("5")])
    assert res.end_reason == End.TURN_LIMIT and res.turns == 2
    err = illegal_step(d, [Act.DRAW, disc("4"), Act.DRAW, disc("5"), Act.DRAW], params=params)
    assert err.step == 4


def test_draw_phase_and_unknown_actions():
    st = new_state(deck({}, up="9", stock="5 6 7"))
    assert st.is_legal(disc("4")) is not None  # must draw first
    assert st.is_legal(Act.DECLINE) is not None  # stock not empty
    assert st.is_legal(6) is not None and st.is_legal(999) is not None
    assert st.is_legal(Act.TAKE_PAIR) is not None  # no pair of 9s
    play(st, Act.DRAW)
    assert st.is_legal(Act.DRAW) is not None
    assert st.is_legal(disc("R3")) is not None
    assert st.is_legal(meld("2")) is not None


def test_opening_reach_respects_keep_two_cards():
    # pending 75 towards 120 with K K K 4 4 4 in hand: K K K (105) + 4 4 4 (120) would empty
    # the hand without a canasta, so after K K K the minimum is out of reach -> refused
    st = play(new_state(deck({}, up="9", stock="5 6 7"), cum=(0, 3000)), Act.DRAW)
    st.hands[1] = [0] * len(st.hands[1])
    st.hands[1][Kind.KING] = 3
    st.hands[1][Kind.FOUR] = 3
    st.pending = 75
    assert st.team_min[1] == 120 and st.max_more_points() == 30  # one meld, two cards kept
    assert "initial meld" in st.is_legal(meld("K"))
    st.hands[1][Kind.NINE] = 2  # two more cards to keep: now both melds fit
    assert st.max_more_points() == 45
    assert st.is_legal(meld("K")) is None


def test_action_texts_agree_with_the_core():
    """The referee writes its own action texts (it shares no code with the core); they must
    be the core's (`sim.core.actions.action_text`) for every action id.  The id space is the
    same for every rule set (Samba's sequence ids exist, unused, in classic), so this covers
    every variant; ids outside it must agree too."""
    from sim.core.actions import action_text
    from sim.core.enums import N_ACTIONS
    from sim.core.referee import action_name

    ids = list(range(-1, N_ACTIONS + 2))
    differ = [(a, action_name(a), action_text(a)) for a in ids if action_name(a) != action_text(a)]
    assert not differ, differ[:5]
    # the families a renderer could get wrong, spelled out once
    assert action_name(Act.SEQ_ADD) == "extend sequence 0 down"
    assert action_name(Act.TAKE_SEQ + 3) == "take onto sequence 1 up"
    assert action_name(Act.SEQ_NEW) == "meld 4C 5C 6C"


def test_the_referee_shares_no_code_with_the_core():
    """Its point is to be a second, independent implementation: its modules import only the
    constants of sim.core.enums, each other and the standard library."""
    import ast
    import sys
    from pathlib import Path

    import sim.core.referee as referee

    allowed = {"sim.core.enums", "__future__"} | set(sys.stdlib_module_names)
    for path in Path(referee.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                ok = (
                    name in allowed
                    or name.split(".")[0] in allowed
                    or name.startswith("sim.core.referee")
                )
                assert ok, f"{path.name} imports {name}"
