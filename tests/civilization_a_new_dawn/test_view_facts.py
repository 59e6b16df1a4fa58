"""The seat's facts in a view (issue 21) computed for many things at once give what the rules
compute one at a time: ``military.attack_values``, for every target, the values
``apply_attack`` computes before the dice (CIV-14.5); ``industry.face_up_wonder_costs`` the
costs ``wonder_cost`` gives (CIV-12.4)."""

from __future__ import annotations

import pytest

from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.catalog import WONDERS
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import industry
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import military as M  # noqa: N812
from civtable.games.civilization_a_new_dawn.state import CivState

from .test_properties import new_game

_BIG_BEN = C.W["big_ben"]
_SCYTHIA = C.L["scythia"]
_KABUL, _CARTHAGE = C.CS_ID["kabul"], C.CS_ID["carthage"]


def _per_target(s: CivState, seat: int, f: list[int], ts: list[int]) -> list[object]:
    """The values as ``apply_attack`` computes them, target by target."""
    slot, bonus, bbonus = f[6], f[4], f[5]
    out: list[object] = []
    for t in ts:
        kind = M.target_kind(s, seat, t)
        d = M.defender_of(s, seat, t, kind)
        card_bonus = bbonus if kind == M.BARB and bbonus >= 0 else bonus
        att = slot + card_bonus + M.attack_bonus(s, seat, t, kind, d)
        dfn = M.defence_base(s, t, kind, d)
        if d >= 0:
            dfn += M.defence_bonus(s, d, t, seat)
        out.append((kind, d, att, dfn))
    return out


def _variant(s: CivState, seat: int, ts: list[int], k: int) -> CivState:
    """A copy of ``s`` where the space-dependent bonuses apply: to the attacker (``k`` odd) or
    to every other seat (``k`` even): Scythia, the Carthage and Kabul cards, Big Ben with a
    caravan next to a target."""
    v = s.copy()
    v.leader = v.leader[:]  # copies share the leaders (fixed in play)
    g = seat if k % 2 else (seat + 1) % v.players
    v.leader[g] = _SCYTHIA
    for c in (_CARTHAGE, _KABUL):
        if c not in v.cs_cards[g]:
            v.cs_cards[g].append(c)
    v.wonder_owner[_BIG_BEN] = g
    v.caravans[g][0] = v.board.adjacent[ts[k % len(ts)]][0]
    if k % 2 == 0:
        for h in range(v.players):
            if h != seat:
                v.leader[h] = _SCYTHIA
                if _CARTHAGE not in v.cs_cards[h]:
                    v.cs_cards[h].append(_CARTHAGE)
    return v


@pytest.mark.parametrize(("players", "seed", "map_"), [(3, 21, "standard"), (4, 22, "first_game")])
def test_civ_14_5_attack_values_equal_the_bonuses_computed_per_target(
    players: int, seed: int, map_: str
) -> None:
    s = new_game(players, seed, map_)
    rng = Rng(seed)
    compared = with_bonuses = 0
    for _ in range(2500):
        if s.is_terminal():
            break
        seat = s.to_move()[0]
        f = s.pending[-1] if s.pending else None
        if f is not None and f[0] == K.D_ATTACK and s.owes_decision(seat):
            ts = M.targets(s, seat, f[3], f[7])
            if ts:
                states = [s, _variant(s, seat, ts, compared), _variant(s, seat, ts, compared + 1)]
                for v in states:
                    got = M.attack_values(v, seat, ts, f[6], f[4], f[5])
                    assert got == _per_target(v, seat, f, ts)
                compared += 1
                with_bonuses += sum(
                    1
                    for v in states[1:]
                    for t in ts
                    if M.attack_bonus_at(v, seat, t, M.target_kind(v, seat, t))
                )
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert compared >= 10
    assert with_bonuses > 0


_EGYPT = C.L["egypt"]
_BUENOS_AIRES, _BRUSSELS = C.CS_ID["buenos_aires"], C.CS_ID["brussels"]


def test_civ_12_4_face_up_wonder_costs_equal_wonder_cost() -> None:
    """Every seat at every 5th position of a 4-player game, as dealt and with each reduction
    (Egypt, Buenos Aires, Brussels) given to it."""
    s = new_game(4, 23, "standard")
    rng = Rng(23)
    reduced = [0, 0, 0, 0]  # positions where a reduction changed a cost, per variant
    for i in range(1500):
        if s.is_terminal():
            break
        if i % 5 == 0:
            for seat in range(s.players):
                for k in range(4):
                    v = s.copy()
                    v.leader = v.leader[:]  # copies share the leaders (fixed in play)
                    if k == 1:
                        v.leader[seat] = _EGYPT
                    elif k > 1:
                        v.cs_cards[seat].append(_BUENOS_AIRES if k == 2 else _BRUSSELS)
                    if k == 3 and v.capital[seat] >= 0:  # tokens around the capital: mature
                        for n in v.board.adjacent[v.capital[seat]]:
                            if v.city[n] < 0:
                                v.tok[n] = seat
                        assert v.capital[seat] in C.mature_cities(v, seat)
                    got = industry.face_up_wonder_costs(v, seat)
                    want = [(d[0], industry.wonder_cost(v, seat, d[0])) for d in v.wdecks if d]
                    assert got == want
                    if any(c != max(0, WONDERS[w].cost) for w, c in want):
                        reduced[k] += 1
        seat = s.to_move()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert min(reduced[1:]) > 0
