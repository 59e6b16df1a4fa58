"""The payment search's memo tables are pure caches (SW-7): bounding them changes nothing."""

from __future__ import annotations

from itertools import product

import pytest

from civtable import games
from civtable.core import Rng
from civtable.games.seven_wonders.catalog import COSTS
from civtable.games.seven_wonders.rules import trade, turn


def _play(players: int, seed: int) -> tuple[str, list[int]]:
    state = games.get("seven-wonders").new_game(players, seed)
    rng = Rng(seed)
    sizes = []
    while not state.is_terminal():
        for seat in state.to_move():
            legal = state.legal_actions(seat)
            sizes.append(len(legal))
            state.apply(seat, rng.choice(legal))
    return state.state_hash(), sizes


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (7, 13), (2, 14)])
def test_sw_7_payment_cache_bound_does_not_change_play(
    monkeypatch: pytest.MonkeyPatch, players: int, seed: int
) -> None:
    expected = _play(players, seed)
    monkeypatch.setattr(trade, "_CACHE_LIMIT", 3)  # tables are cleared almost every insert
    for table in (trade._own_info, trade._split_cache, trade._project_cache):
        table.clear()
    assert _play(players, seed) == expected
    assert len(trade._split_cache) <= 4


def _general_pairs(
    needs: tuple[trade.Vec, ...], left_sig: int, right_sig: int, discount: int
) -> set[tuple[int, int]]:
    return {(cl, cr) for _, _, cl, cr in trade._splits(needs, left_sig, right_sig, discount)}


def test_sw_7_5_fixed_neighbours_shortcut_gives_the_general_search_plans() -> None:
    """Neighbours without choice units sell each resource independently (SW-7.5): the shortcut
    gives the same ``(coins left, coins right)`` pairs as the general split search."""
    rng = Rng(7)
    checked = 0
    for _ in range(800):
        left = tuple(rng.randbelow(3) for _ in range(7))
        right = tuple(rng.randbelow(3) for _ in range(7))
        needs = tuple(
            sorted({tuple(rng.randbelow(3) for _ in range(7)) for _ in range(1 + rng.randbelow(3))})
        )
        discount = rng.randbelow(16)
        left_sig, right_sig = trade.production_sig(left, ()), trade.production_sig(right, ())
        got = trade._fixed_split_pairs(needs, left, right, discount)
        assert got == _general_pairs(needs, left_sig, right_sig, discount), (needs, left, right)
        checked += bool(got)
    assert checked > 80  # many cases have plans, not only the empty answer


def _every_split(
    needs: tuple[trade.Vec, ...], left_sig: int, right_sig: int, discount: int
) -> list[tuple[trade.Vec, trade.Vec, int, int]]:
    """Every split of every need between the neighbours, kept when both can supply it."""
    price_l, price_r = trade.unit_prices(discount)
    plans = []
    for need in needs:
        for left in product(*(range(n + 1) for n in need)):
            right = tuple(n - a for n, a in zip(need, left, strict=True))
            if trade.can_supply(left_sig, left) and trade.can_supply(right_sig, right):
                cl = sum(a * p for a, p in zip(left, price_l, strict=True))
                cr = sum(a * p for a, p in zip(right, price_r, strict=True))
                plans.append((left, right, cl, cr))
    return plans


def test_sw_7_5_split_search_skips_only_shares_no_neighbour_could_supply() -> None:
    """The split search leaves out shares above what a neighbour's fixed and choice units could
    give: the same plans, in the same order, as trying every split."""
    rng = Rng(9)
    masks = (3, 5, 6, 9, 10, 12)  # the two-resource choice cards (SW-6.3)
    for _ in range(150):
        sigs = []
        for _side in range(2):
            fixed = tuple(rng.randbelow(2) for _ in range(7))
            choices = tuple(rng.choice(masks) for _ in range(rng.randbelow(3)))
            sigs.append(trade.production_sig(fixed, choices))
        needs = tuple(sorted({tuple(rng.randbelow(3) for _ in range(7)) for _ in range(2)}))
        needs = tuple(n for n in needs if any(n))
        discount = rng.randbelow(16)
        assert trade._splits(needs, sigs[0], sigs[1], discount) == _every_split(
            needs, sigs[0], sigs[1], discount
        )


def test_sw_7_cheapest_price_shortcuts_agree_with_the_payment_search() -> None:
    """The cheapest price ``legal_actions`` uses answers some costs without the search (covered
    by own fixed units, a resource short everywhere, a single unit, neighbours selling from fixed
    units only, with or without own choice units): the same price as the cheapest payment option
    of the search, for every cost, in random positions. Given the buyer's budget it may answer
    with the price of a plan from the neighbours' fixed units instead (SW-7.12: a legal plan, so
    the cheapest costs no more), only when that plan fits the budget."""
    rng = Rng(11)
    trade_masks = (3, 5, 6, 9, 10, 12)  # two-resource cards: tradeable (SW-6.3)
    private_masks = (15, 112)  # Caravansery / Forum kinds: own use only (SW-6.4)
    kinds = {"free": 0, "unbuyable": 0, "single": 0, "several": 0, "bound": 0}
    for _ in range(60):
        sigs = []
        for side in range(3):
            fixed = tuple(rng.randbelow(3) if rng.randbelow(2) else 0 for _ in range(7))
            masks = trade_masks + (private_masks if side == 0 else ())
            choices = tuple(rng.choice(masks) for _ in range(rng.randbelow(3)))
            sigs.append(trade.production_sig(fixed, choices))
        discount = rng.randbelow(16)
        for cost_id, cost in enumerate(COSTS):
            opts = trade.payment_options_uncached(cost_id, *sigs, discount)
            expected = opts[0][0] + opts[0][1] if opts else turn._UNBUYABLE
            assert turn._cheapest_for({}, cost_id, *sigs, discount) == expected, (cost, sigs)
            for budget in (1, 3, 6, 40):
                # with a budget: the exact price, or (negated) a plan's price within the budget
                table: dict[int, int] = {}
                got = turn._cheapest_for(table, cost_id, *sigs, discount, budget)
                assert table == {cost_id: got}
                if got < 0:
                    assert expected <= -got <= budget, (cost, sigs, budget)
                    kinds["bound"] += 1
                else:
                    assert got == expected, (cost, sigs, budget)
            if expected == 0:
                kinds["free"] += 1
            elif expected == turn._UNBUYABLE:
                kinds["unbuyable"] += 1
            elif sum(cost) == 1:
                kinds["single"] += 1
            else:
                kinds["several"] += 1
    assert min(kinds.values()) > 20, kinds


def test_sw_7_5_fixed_units_price_cheaper_side_first_and_no_more_than_they_hold() -> None:
    """Buying from fixed units: the cheaper neighbour first (SW-7.6), the rest from the other,
    nothing when the two together hold too few (SW-7.1)."""
    left = (1, 0, 2, 0, 0, 0, 0)
    right = (3, 0, 0, 0, 0, 0, 1)
    raw_left_1 = (1,) * 4 + (2,) * 3, (2,) * 7  # a raw discount from the left
    assert turn._fixed_price([(0, 3)], left, right, *raw_left_1) == 1 + 2 * 2
    assert turn._fixed_price([(0, 4)], left, right, *raw_left_1) == 1 + 3 * 2
    assert turn._fixed_price([(0, 5)], left, right, *raw_left_1) == turn._UNBUYABLE
    assert turn._fixed_price([(2, 2), (6, 1)], left, right, *raw_left_1) == 2 + 2
    assert turn._fixed_price([(2, 3)], left, right, *raw_left_1) == turn._UNBUYABLE
