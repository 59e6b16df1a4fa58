"""The fast map and payment tests of the Deus rules (issue 21) answer as the plain definitions
do, at every position of random games on reference and random boards, for every seat.

Plain definitions, written here from the rules: DEUS-7.3 / 7.3.1 payment plans (each resource
unit of the cost paid with the resource or with 4 gold), DEUS-7.4.1 .. 7.4.7 piece regions,
DEUS-8.2 .. 8.5 temples, DEUS-9.1 / 9.2 village attacks.
"""

from __future__ import annotations

from itertools import product

import pytest

from civtable import games
from civtable.bots import make_bot
from civtable.games.deus.actions import pay_code
from civtable.games.deus.catalog import (
    ARMY,
    BUILDING_COLORS,
    CARDS,
    CNT_COLOR_SETS,
    CNT_OCCUPIED_LAND,
    CNT_OWNED,
    CNT_PAIRS_MIN,
    CNT_PROD_LAND,
    CNT_REGIONS_MIN,
    CNT_TABLEAU,
    CNT_TEMPLE_CARDS,
    CNT_VILLAGES_ARMIES,
    COLOR_PIECE,
    FIRST_DISTANCE,
    G_GOLD,
    GOLD_PER_RESOURCE,
    PIECES,
    PURPLE,
    SEA,
    TEMPLE_BIT,
    VILLAGE,
    Counter,
)
from civtable.games.deus.rules import construct
from civtable.games.deus.rules.board import (
    army_bits,
    army_regions,
    edge_targets,
    first_targets,
    has_target,
    has_temple_target,
    normal_targets,
    owned_regions,
    temple_targets,
)
from civtable.games.deus.rules.effects import count
from civtable.games.deus.state import DeusState

GAME = games.get("deus")


def plain_payments(state: DeusState, s: int, t: int) -> list[int]:
    card = CARDS[t]
    gold = state.gold[s] - card.cost_gold
    if gold < 0:
        return []
    res = state.res[s]
    out = []
    for repl in product(*(range(c + 1) for c in card.cost)):
        if GOLD_PER_RESOURCE * sum(repl) > gold:
            continue
        if all(res[r] >= c - x for r, (c, x) in enumerate(zip(card.cost, repl, strict=True))):
            out.append(pay_code(repl))
    return sorted(out)


def plain_can_construct(state: DeusState, s: int, t: int) -> bool:
    card = CARDS[t]
    if card.color == PURPLE:
        k = len(state.cols[s][PURPLE]) + 1
        if not all(len(state.cols[s][c]) >= k - 1 for c in BUILDING_COLORS):
            return False
        if state.temples > 0 and not temple_targets(state, s):
            return False
        return bool(plain_payments(state, s, t))
    piece = COLOR_PIECE[card.color]
    if state.onboard[s][piece] < 1 or not plain_payments(state, s, t):
        return False
    normal = normal_targets(state, s, piece)
    return bool(normal or edge_targets(state, s, piece, normal))


def positions(players: int, options: dict[str, object]) -> list[DeusState]:
    out = []
    for seed in range(2):
        state = GAME.new_game(players, seed, options)
        assert isinstance(state, DeusState)
        bot = make_bot("random", seed)
        while not state.is_terminal():
            out.append(state.copy())
            seat = state.to_move()[0]
            state.apply(seat, bot.choose(state, seat))
    return out


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"board": "random"}), (4, {}), (4, {"free_start": 6, "board": "random"})],
)
def test_deus_7_fast_tests_agree_with_the_plain_definitions(
    players: int, options: dict[str, object]
) -> None:
    kinds = list(range(len(CARDS)))
    for state in positions(players, options)[::8]:
        for s in range(players):
            for t in kinds[::5]:
                plans = plain_payments(state, s, t)
                assert construct.payments(state, s, t) == plans
                assert construct.can_pay(state, s, t) == bool(plans)
            assert construct.buildable(state, s, kinds) == [
                plain_can_construct(state, s, t) for t in kinds
            ]
            for piece in range(len(PIECES)):
                normal = normal_targets(state, s, piece)
                edge = edge_targets(state, s, piece, normal)
                assert has_target(state, s, piece) == bool(normal or edge)
            assert has_temple_target(state, s) == bool(temple_targets(state, s))
            mine = [r for r, o in enumerate(state.owner) if o == s]
            assert owned_regions(state, s) == mine
            armies = [r for r in mine if state.mask[r] & (1 << ARMY)]
            assert army_regions(state, s) == armies
            assert army_bits(state, s) == sum(1 << r for r in armies)
            assert temple_targets(state, s) == [
                r for r in mine if state.board.terrain[r] < SEA and not state.mask[r] & TEMPLE_BIT
            ]


def plain_first_targets(state: DeusState, s: int, piece: int) -> list[int]:
    """DEUS-7.4.1 / AMB-7 / AMB-8: the empty edge regions where the piece may stand, those at
    distance FIRST_DISTANCE or more from every region another seat occupies if there are any."""
    b = state.board
    land_piece = piece != PIECES.index("ship")
    cands = [
        r
        for r in range(b.size)
        if b.edge[r]
        and state.owner[r] < 0
        and b.terrain[r] != VILLAGE
        and (b.terrain[r] != SEA) == land_piece
    ]
    others = [r for r in range(b.size) if state.owner[r] not in (-1, s)]
    far = [r for r in cands if all(b.dist[r][o] >= FIRST_DISTANCE for o in others)]
    return far or cands


def plain_piece_targets(state: DeusState, s: int, color: int) -> tuple[list[int], list[int]]:
    """DEUS-7.4.2 .. 7.4.7 for a seat with a region: normal = its regions without a piece of
    that type and the empty regions next to them, where the piece may stand (never a village,
    a ship at sea and nothing else there); edge = the other empty edge regions of that kind,
    with 3 VP or more. A seat without a region: the first regions (DEUS-7.4.1), no edge."""
    b = state.board
    piece = COLOR_PIECE[color]
    ship = piece == PIECES.index("ship")

    def kind_ok(r: int) -> bool:
        return b.terrain[r] != VILLAGE and (b.terrain[r] == SEA) == ship

    mine = [r for r in range(b.size) if state.owner[r] == s]
    if not mine:
        return plain_first_targets(state, s, piece), []
    normal = [
        r
        for r in range(b.size)
        if kind_ok(r)
        and (
            (state.owner[r] == s and not state.mask[r] & (1 << piece))
            or (state.owner[r] < 0 and any(n in mine for n in b.neighbours[r]))
        )
    ]
    if state.vp[s] < 3:
        return normal, []
    edge = [
        r
        for r in range(b.size)
        if b.edge[r] and state.owner[r] < 0 and kind_ok(r) and r not in normal
    ]
    return normal, edge


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"board": "random"}), (4, {}), (4, {"free_start": 6, "board": "random"})],
)
def test_deus_7_4_piece_regions_agree_with_the_plain_definitions(
    players: int, options: dict[str, object]
) -> None:
    """``construct.piece_targets`` (bit sets, the seat's regions found by the owner list) gives
    the plain definition's regions for every seat and building colour."""
    for state in positions(players, options)[::3]:
        for s in range(players):
            for color in BUILDING_COLORS:
                assert construct.piece_targets(state, s, color) == plain_piece_targets(
                    state, s, color
                )


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"board": "random"}), (4, {}), (4, {"free_start": 6, "board": "random"})],
)
def test_deus_7_4_1_first_regions_agree_with_the_plain_distances(
    players: int, options: dict[str, object]
) -> None:
    """``first_targets`` tests the distances with the bit sets of ``Board.close_bits``; the
    answers are the plain definition's for every seat and piece type, and ``has_target`` of a
    seat without a region is ``bool`` of them."""
    for state in positions(players, options)[::3]:
        for s in range(players):
            for piece in range(len(PIECES)):
                plain = plain_first_targets(state, s, piece)
                assert first_targets(state, s, piece) == plain
                if s not in state.owner:
                    assert has_target(state, s, piece) == bool(plain)


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"board": "random"}), (4, {}), (4, {"free_start": 6, "board": "random"})],
)
def test_deus_9_2_no_surrounded_village_is_left_unattacked(
    players: int, options: dict[str, object]
) -> None:
    """DEUS-9.1 / 9.2: the rules check only the villages next to the region a piece was placed
    in or an army moved to (``board.check_attacks``); at every position of random games no
    village is left surrounded (every neighbour occupied) with an army next to it and not
    attacked, and ``near_villages`` lists exactly the villages next to each region."""
    for state in positions(players, options):
        b = state.board
        for r in range(b.size):
            near = [i for i, v in enumerate(b.villages) if r in b.neighbours[v]]
            assert list(b.near_villages[r]) == near
        for i, v in enumerate(b.villages):
            nb = b.neighbours[v]
            surrounded = all(state.owner[n] >= 0 for n in nb)
            army = any(state.mask[n] & (1 << ARMY) for n in nb)
            assert state.vatt[i] or not (surrounded and army)


def plain_count(state: DeusState, s: int, c: Counter) -> int:
    """The COUNTERs of DEUS-11.3, 11.4, 12.2, 14.3, 16.7 and 17.2 .. 17.4, region by region."""
    b = state.board
    mine = [r for r in range(b.size) if state.owner[r] == s]
    if c.kind == CNT_OCCUPIED_LAND:
        return sum(1 for r in mine if b.terrain[r] == c.param)
    if c.kind in (CNT_REGIONS_MIN, CNT_PAIRS_MIN):
        k = sum(1 for r in mine if bin(state.mask[r]).count("1") >= c.param)
        return k // 2 if c.kind == CNT_PAIRS_MIN else k
    if c.kind == CNT_PROD_LAND:
        prod = 1 << PIECES.index("prod")
        return sum(1 for r in mine if state.mask[r] & prod and b.terrain[r] == c.param)
    if c.kind == CNT_TABLEAU:
        return len(state.cols[s][c.param])
    if c.kind == CNT_VILLAGES_ARMIES:
        armies = {r for r in mine if state.mask[r] & (1 << ARMY)}
        return sum(
            1
            for i, v in enumerate(b.villages)
            if not state.vatt[i] and any(n in armies for n in b.neighbours[v])
        )
    if c.kind == CNT_OWNED:
        amount = state.gold[s] if c.param == G_GOLD else state.res[s][c.param]
        return amount // c.unit
    if c.kind == CNT_TEMPLE_CARDS:
        return len(state.cols[s][PURPLE])
    assert c.kind == CNT_COLOR_SETS
    return min(len(state.cols[s][col]) for col in BUILDING_COLORS)


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (4, {"free_start": 6, "board": "random"})]
)
def test_deus_11_counters_agree_with_the_plain_definitions(
    players: int, options: dict[str, object]
) -> None:
    """``effects.count`` (the counters of gains and temple cards, walked with plain loops for
    speed) gives the plain definitions' values for every counter of the cards, every seat."""
    counters = {card.effect.per for card in CARDS if card.effect.per is not None}
    assert {c.kind for c in counters} == set(range(CNT_COLOR_SETS + 1))
    for state in positions(players, options)[::4]:
        for s in range(players):
            for c in counters:
                assert count(state, s, c) == plain_count(state, s, c)
