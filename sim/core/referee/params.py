"""The rule parameters as the referee reads them: the engine's int array under readable names,
and the few derived questions about wild cards and the initial-meld minimum."""

from __future__ import annotations

from collections.abc import Iterable

from sim.core.enums import N_KINDS, Par


class Rules:
    """The parameter array as named Python ints (read once, never changed)."""

    def __init__(self, params: Iterable[int]) -> None:
        p = [int(x) for x in params]
        self.n_active = p[Par.N_ACTIVE]
        self.n_teams = p[Par.N_TEAMS]
        self.hand_size = p[Par.HAND_SIZE]
        self.draw_count = p[Par.DRAW_COUNT]
        self.max_wild = p[Par.MAX_WILD]
        self.wild_le_nat = bool(p[Par.WILD_LE_NAT])
        self.min_naturals = p[Par.MIN_NATURALS]
        self.canasta_size = p[Par.CANASTA_SIZE]
        self.wild_onto_canasta = bool(p[Par.WILD_ONTO_CANASTA])
        self.take_nat_wild = bool(p[Par.TAKE_NAT_WILD])
        self.take_onto_meld = bool(p[Par.TAKE_ONTO_MELD])
        self.take_onto_canasta = p[Par.TAKE_ONTO_CANASTA]  # 0 never, 1 yes, 2 natural pair only
        self.canastas_to_go_out = p[Par.CANASTAS_TO_GO_OUT]
        self.go_out_bonus = p[Par.GO_OUT_BONUS]
        self.go_out_no_discard_bonus = p[Par.GO_OUT_NO_DISCARD_BONUS]
        self.concealed_bonus = p[Par.CONCEALED_BONUS]
        self.concealed_needs_min = bool(p[Par.CONCEALED_NEEDS_MIN])
        self.red3_need_canastas = p[Par.RED3_NEED_CANASTAS]
        self.red3_table = p[Par.RED3_TABLE : Par.RED3_TABLE + 7]
        self.black3_min = p[Par.BLACK3_MELD_MIN]
        self.black3_max = p[Par.BLACK3_MELD_MAX]
        self.min_below_zero = p[Par.MIN_BELOW_ZERO]
        self.band_from = p[Par.MIN_BAND_FROM : Par.MIN_BAND_FROM + 4]
        self.band_value = p[Par.MIN_BAND_VALUE : Par.MIN_BAND_VALUE + 4]
        self.natural_canasta = p[Par.NATURAL_CANASTA]
        self.mixed_canasta = p[Par.MIXED_CANASTA]
        self.upcard_freezes = bool(p[Par.UPCARD_FREEZES])
        self.exhausted_forced_take = bool(p[Par.EXHAUSTED_FORCED_TAKE])
        self.red3_last_ends = bool(p[Par.RED3_LAST_ENDS])
        self.value = p[Par.CARD_VALUE : Par.CARD_VALUE + N_KINDS]
        self.team_of_seat = p[Par.TEAM_OF_SEAT : Par.TEAM_OF_SEAT + self.n_active]
        self.max_turns = p[Par.MAX_TURNS]
        self.sequences = bool(p[Par.SEQUENCES])
        self.multi = bool(p[Par.MULTI_MELDS])
        self.samba_bonus = p[Par.SAMBA_BONUS]
        # Samba-style rules take the general (slower) opening search below
        self.general = self.sequences or self.multi
        self.group_key = (
            self.max_wild,
            self.wild_le_nat,
            self.min_naturals,
            self.canasta_size,
            self.wild_onto_canasta,
            self.multi,
        )

    def minimum_for(self, cum: int) -> int:
        """Initial-meld minimum: below zero its own value, else the band with the largest start
        <= cum (the first such band on ties, so unused bands never win)."""
        if cum < 0:
            return self.min_below_zero
        best_from, best = -1, self.band_value[0]
        for start, value in zip(self.band_from, self.band_value, strict=True):
            if start <= cum and start > best_from:
                best_from, best = start, value
        return best

    def wild_fits(self, nat: int, wild: int, size_before: int) -> bool:
        """May one more wild card join a meld that then has `nat` naturals and `wild` wilds
        (`size_before` cards before the wild card is added)?"""
        if wild > self.max_wild:
            return False
        if self.wild_le_nat and wild > nat:
            return False
        return self.wild_onto_canasta or size_before < self.canasta_size

    def extra_wild_capacity(self, nat: int, wild: int, naturals_to_add: int) -> int:
        """Most wild cards that can still join a meld (nat, wild) while `naturals_to_add` more
        naturals join it, one card at a time in the best order (a wild as early as allowed)."""
        added = 0
        while True:
            if self.wild_fits(nat, wild + 1, nat + wild):
                wild += 1
                added += 1
            elif naturals_to_add > 0:
                nat += 1
                naturals_to_add -= 1
            else:
                return added

    def new_meld_wild_range(self, n: int) -> tuple[int, int] | None:
        """(fewest, most) wild cards a new meld of `n` naturals (all of them) can hold, or None
        when `n` naturals cannot make a new meld at all."""
        options = []
        if n >= 3 and n >= self.min_naturals:  # meld x x x, then adds
            options.append((0, self.extra_wild_capacity(3, 0, n - 3)))
        if n >= 2 and self.min_naturals <= 2 and self.wild_fits(2, 1, 2):  # meld x x wild
            options.append((1, 1 + self.extra_wild_capacity(2, 1, n - 2)))
        if not options:
            return None
        return min(o[0] for o in options), max(o[1] for o in options)
