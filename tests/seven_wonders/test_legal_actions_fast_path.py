"""The engine's fast paths (used by every search) against plain spellings of the same rules:
legal step actions (SW-4.1 .. SW-4.6, SW-5.5 chains, SW-10.8 Olympia, SW-14.5 the Free City),
the seats owing a decision (SW-8.1) and wonder powers (SW-10.7 .. SW-10.11), at every decision
of random games with 2 to 7 players."""

from __future__ import annotations

import pytest

from civtable import games
from civtable.core.rng import Rng
from civtable.games.seven_wonders.actions import BUILD, DISCARD, FREE, STAGE
from civtable.games.seven_wonders.catalog import (
    BOARDS,
    CARDS,
    POWER_COPY_GUILD,
    POWER_DISCARD_BUILD,
    POWER_FREE_BUILD,
    POWER_SEVENTH,
)
from civtable.games.seven_wonders.rules import turn
from civtable.games.seven_wonders.state import MAIN, SevenWondersState


def _plain_step_actions(state: SevenWondersState, c: int) -> list[int]:
    """SW-4: build (paying or by chain), stage, discard, Olympia's free build; SW-14.5: the
    Free City must build a chained card, and discards only when it can do nothing else."""
    city = state.cities[c]
    fc = state.two_player and c == 0
    stage_ok = bool(turn.stage_payments(state, c))
    free_ok = turn.free_build_available(state, c)
    out = set()
    for t in turn.hand_of(state, c):
        card = CARDS[t]
        owned = city.owns_key(card.key_index)
        if fc and not owned and turn.chain_free(city, card):
            out.add(BUILD + t)
            continue
        built = turn.can_build(state, c, card)
        if built:
            out.add(BUILD + t)
        if free_ok and not owned:
            out.add(FREE + t)
        if stage_ok:
            out.add(STAGE + t)
        if not fc or not (built or stage_ok or (free_ok and not owned)):
            out.add(DISCARD + t)
    return sorted(out)


def _plain_power(state: SevenWondersState, c: int, power: str) -> bool:
    city = state.cities[c]
    stages = BOARDS[city.board].sides[city.side]
    return any(stages[i].effect.power == power for i in range(city.stages))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 7])
@pytest.mark.parametrize("seed", [3, 11])
def test_sw_4_fast_legal_actions_owing_seats_and_powers_match_the_rules(
    players: int, seed: int
) -> None:
    state = games.get("seven-wonders").new_game(players, seed, {"sides": "random"})
    assert isinstance(state, SevenWondersState)
    rng = Rng(seed)
    checked = 0
    while not state.is_terminal():
        movers = state.to_move()
        plain_movers = tuple(
            s
            for s in range(state.players)
            if any(state.needs[c] and state.commits[c] is None for c in state.seat_cities(s))
        )
        assert movers == plain_movers
        for c in range(state.n):
            for power in (POWER_SEVENTH, POWER_FREE_BUILD, POWER_COPY_GUILD, POWER_DISCARD_BUILD):
                assert state.cities[c].has_power(power) == _plain_power(state, c, power)
        seat = movers[rng.randbelow(len(movers))]
        c = state.current_city(seat)
        legal = state.legal_actions(seat)
        if state.phase == MAIN and state.await_pay[c] is None:
            assert legal == _plain_step_actions(state, c)
            checked += 1
        # stage-heavy play reaches the wonder powers
        stages = [a for a in legal if STAGE <= a < DISCARD]
        state.apply(seat, stages[0] if stages and rng.random() < 0.4 else rng.choice(legal))
    assert checked > 40
