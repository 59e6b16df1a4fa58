"""The heuristic player: legal choices, evaluation range, and it clearly beats random play."""

from __future__ import annotations

import pytest

from civtable.core.rng import Rng
from civtable.games.through_the_ages import GAME, heuristic
from civtable.games.through_the_ages.state import TTAState

FIRST = {"mode": "first"}  # these tests are of the first game (TTA-14)


def _game(players: int, seed: int, hseat: int) -> tuple[bool, tuple[int, ...]]:
    s = GAME.new_game(players, seed, FIRST)
    rng = Rng(seed)
    while not s.is_terminal():
        seat = s.to_move()[0]
        legal = s.legal_actions(seat)
        a = heuristic.choose(s, seat, rng) if seat == hseat else rng.choice(legal)
        assert a in legal
        ev = heuristic.evaluate(s, seat)
        assert 0.0 <= ev <= 1.0
        s.apply(seat, a)
    r = s.result()
    return hseat in r.winners and len(r.winners) == 1, r.scores


def test_heuristic_clearly_beats_random() -> None:
    wins = 0
    games = 0
    for seed in range(6):
        players = 2 + seed % 3
        won, _scores = _game(players, seed, seed % players)
        wins += won
        games += 1
    assert wins >= 5, f"heuristic won {wins}/{games} against random players"


def test_evaluate_at_the_end_is_the_result() -> None:
    s = GAME.new_game(2, 3, FIRST)
    rng = Rng(3)
    while not s.is_terminal():
        seat = s.to_move()[0]
        s.apply(seat, heuristic.choose(s, seat, rng))
    r = s.result()
    for seat in range(2):
        expect = (1.0 / len(r.winners)) if seat in r.winners else 0.0
        assert heuristic.evaluate(s, seat) == expect


def _full_game(players: int, seed: int, hseat: int) -> tuple[bool, int]:
    """A full game (TTA-13): the heuristic at ``hseat``, random (never resigning) elsewhere."""
    from civtable.games.through_the_ages.actions import RESIGN

    s = GAME.new_game(players, seed)
    rng = Rng(seed)
    resigned = 0
    while not s.is_terminal():
        seat = s.to_move()[0]
        if seat == hseat:
            a = heuristic.choose(s, seat, rng)
            resigned += a == RESIGN
        else:
            legal = [x for x in s.legal_actions(seat) if x != RESIGN]
            a = legal[rng.randbelow(len(legal))]
        s.apply(seat, a)
    return hseat in s.result().winners, resigned


def test_heuristic_wins_full_games_against_random_and_never_resigns() -> None:
    results = [_full_game(4, seed, seed % 4) for seed in range(4)]
    assert sum(won for won, _ in results) >= 3
    assert sum(r for _, r in results) == 0


def test_tta_6_4_heuristic_defends_when_a_bonus_card_stops_the_aggression() -> None:
    from civtable.games.through_the_ages import actions as act
    from civtable.games.through_the_ages.catalog import BY_ID, CARDS
    from civtable.games.through_the_ages.rules import board
    from civtable.games.through_the_ages.state import P_DEFEND

    from .scenario import action_phase

    s = action_phase(3, 4, mode="full")
    s.phase = 0  # Politics Phase
    attacker, target = s.civs[0], s.civs[1]
    attacker.workers[CARDS[BY_ID["warriors"]].slot] += 3  # strength 4 against 1
    plunder, bonus = BY_ID["plunder_ii"], BY_ID["military_bonus_ii"]
    attacker.mhand = [plunder]
    target.mhand = [bonus]
    board.gain(target, False, 5)  # something to plunder: up to 5 food and resources
    board.gain(target, True, 5)
    assert board.ratings(attacker)[2] > board.ratings(target)[2]
    s._legal = None
    s.apply(0, act.AGGRESS + plunder * 4 + 1)
    assert s.pending[0] == P_DEFEND
    assert s.to_move() == (1,)
    choice = heuristic.choose(s, 1, Rng(0))
    assert choice == act.PLAY + bonus  # +4 defence: 1 + 4 >= 4, the plunder fails
    s.apply(1, choice)
    s.apply(1, heuristic.choose(s, 1, Rng(0)))  # done defending
    assert board.stock(target, False) + board.stock(target, True) >= 10


def test_action_values_rank_every_legal_action_and_choose_plays_the_best() -> None:
    """``action_values`` (the ISMCTS prior) gives every legal action the value ``choose``
    compares: its pick is always among the best-valued actions, resigning (TTA-6.8) is valued
    below everything."""
    from civtable.games.through_the_ages.actions import RESIGN

    for players, seed in ((2, 5), (3, 8)):
        s = GAME.new_game(players, seed)
        rng = Rng(seed)
        checked = 0
        while not s.is_terminal() and checked < 60:
            seat = s.to_move()[0]
            legal = s.legal_actions(seat)
            values = heuristic.action_values(s, seat)
            assert sorted(values) == sorted(legal)
            pick = heuristic.choose(s, seat, Rng(checked))
            others = [a for a in legal if a != RESIGN]
            assert values[pick] >= max(values[a] for a in others) - 1e-9
            if RESIGN in legal and others:
                assert values[RESIGN] < min(values[a] for a in others)
            checked += len(others) > 1
            s.apply(seat, heuristic.choose(s, seat, rng))
        assert checked >= 40


def test_search_clock_counts_the_turns_a_seat_has_begun() -> None:
    """The ISMCTS cut-off clock (TTA-4): it ticks for a seat exactly when its turn starts."""
    for players in (2, 4):
        s = GAME.new_game(players, 7)
        rng = Rng(7)
        begun = [0] * players
        begun[s.current] = 1
        while not s.is_terminal() and s.round < 6:
            assert [heuristic.search_clock(s, p) for p in range(players)] == begun
            before = s.current
            s.apply(s.to_move()[0], heuristic.choose(s, s.to_move()[0], rng))
            if s.current != before and not s.is_terminal():
                begun[s.current] += 1


def _copy_scenario(*, warriors: int) -> tuple[TTAState, int]:
    """Seat 0 of a two-player full game in its Action Phase (Age I, round 2) with no civil
    action and nothing to build, 2 military actions and ``warriors`` warriors units, seat 1
    with 10 warriors, and Legion (three infantry form an army, +2) in the common tactics
    area."""
    from civtable.games.through_the_ages.catalog import BY_ID, CARDS

    from .scenario import action_phase, workers

    s = action_phase(2, 4, mode="full")
    civ = s.civs[0]
    workers(civ, warriors=warriors)
    workers(s.civs[1], warriors=10)
    civ.ca, civ.ma = 0, 2
    civ.hand, civ.mhand = [], []
    for slot in range(4, 8):  # no resources: no unit can be built or upgraded
        civ.cubes[slot] = 0
    civ.blue = civ.blue_total - sum(civ.cubes)
    legion = BY_ID["legion"]
    assert CARDS[legion].army == (3, 0, 0)
    s.common = [legion]
    s._legal = None
    return s, legion


def test_tta_8_8_heuristic_keeps_its_military_actions_rather_than_copy_a_useless_tactic() -> None:
    """Copying a tactic (TTA-7.3.5: 2 MA) that forms no army raises no strength (TTA-10.4) and
    forgoes the two military cards the unused actions draw at the end of the turn (TTA-8.8):
    the heuristic ends its turn instead, and draws them."""
    from civtable.games.through_the_ages import actions as act
    from civtable.games.through_the_ages.rules import board

    s, legion = _copy_scenario(warriors=2)
    assert act.COPY + legion in s.legal_actions(0)
    strength = board.ratings(s.civs[0])[2]
    after = s.copy()
    after.apply(0, act.COPY + legion)
    assert board.ratings(after.civs[0])[2] == strength  # two infantry: no army
    values = heuristic.action_values(s, 0)
    assert values[act.END] > values[act.COPY + legion]
    assert heuristic.choose(s, 0, Rng(0)) == act.END
    s.apply(0, act.END)
    assert len(s.civs[0].mhand) == 2  # TTA-8.8: one card per unused military action


def test_tta_7_3_5_heuristic_copies_a_tactic_that_forms_an_army() -> None:
    """With six warriors Legion forms two armies (+4 strength, TTA-10.4) and closes part of the
    gap to the stronger opponent: worth more than the two cards the actions would draw."""
    from civtable.games.through_the_ages import actions as act
    from civtable.games.through_the_ages.rules import board

    s, legion = _copy_scenario(warriors=6)
    after = s.copy()
    after.apply(0, act.COPY + legion)
    assert board.ratings(after.civs[0])[2] == board.ratings(s.civs[0])[2] + 4
    assert heuristic.choose(s, 0, Rng(0)) == act.COPY + legion


def test_tta_6_2_prepare_is_valued_without_the_hidden_current_event() -> None:
    """Preparing an event reveals the top of the face-down current events deck (TTA-6.2,
    TTA-12.1). The heuristic must value it on what its seat knows: two positions that differ
    only in that hidden card (same view) give the same values (without Joan of Arc's peek)."""
    from civtable.games.through_the_ages import actions as ax
    from civtable.games.through_the_ages.catalog import CARDS
    from civtable.games.through_the_ages.view import peeks

    checked = 0
    for seed in (1, 2):
        state = GAME.new_game(players=2, seed=seed)
        assert isinstance(state, TTAState)
        rng = Rng(seed)
        for _ in range(400):
            if state.is_terminal():
                break
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            top = state.events[-1] if state.events else -1
            same_age = [
                i
                for i, c in enumerate(state.events[:-1])
                if c != top and CARDS[c].age == CARDS[top].age
            ]
            if (
                any(ax.PREPARE <= a < ax.AGGRESS for a in legal)
                and same_age
                and not peeks(state, seat)
            ):
                other = state.copy()
                i = same_age[0]
                other.events[i], other.events[-1] = other.events[-1], other.events[i]
                assert other.view(seat) == state.view(seat)
                assert heuristic.action_values(other, seat) == heuristic.action_values(state, seat)
                checked += 1
            state.apply(seat, heuristic.choose(state, seat, rng))
    assert checked >= 10


def _swap_unseen(state: TTAState, cards: list[int], age: int) -> bool:
    """Swap every card of ``age`` in ``cards`` (a hand or a pile nobody but its owner sees) with
    one of the same age and another worth from the military deck of that age (the same view
    for every other seat, TTA-6.1: military cards are secret). False: nothing to swap."""
    from civtable.games.through_the_ages.catalog import CARDS

    deck = state.mil_decks[age]
    swapped = False
    for i, c in enumerate(cards):
        if CARDS[c].age != age:
            continue
        j = next(
            (
                j
                for j, d in enumerate(deck)
                if (CARDS[d].type == "bonus") != (CARDS[c].type == "bonus")
            ),
            -1,
        )
        if j >= 0:
            cards[i], deck[j] = deck[j], cards[i]
            swapped = True
    return swapped


def test_tta_6_1_heuristic_values_are_the_same_for_every_hidden_state_of_its_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The heuristic decides on what its seat can see (TTA-6.1: military cards are secret; the
    decks are face down, TTA-8.8, TTA-12.1): at every decision of self-play, a determinization
    of the position (other military hands, decks, face-down discards and events re-dealt, a
    generator of its own; the same view) gets exactly the values of the true position. Covers
    the last discard of a turn (TTA-8.1), which used to draw the true next cards, colonies that
    draw military cards (TTA-11; valued on the seat's sample, counted here) and other seats'
    replies (``_settle``)."""
    from collections import Counter

    from civtable.games.through_the_ages.state import P_DISCARD, P_SEND

    samples = 0  # look-aheads that drew unseen cards, valued on a sample of the hidden cards
    determinize = TTAState.determinize

    def counted(state: TTAState, seat: int, rng: Rng) -> TTAState:
        nonlocal samples
        samples += 1
        return determinize(state, seat, rng)

    monkeypatch.setattr(TTAState, "determinize", counted)
    kinds: Counter[int] = Counter()
    for players, seed, mode in ((4, 2, "first"), (4, 3, "first"), (3, 1, "full")):
        state = GAME.new_game(players, seed, {"mode": mode})
        assert isinstance(state, TTAState)
        rng = Rng(seed)
        step = 0
        while not state.is_terminal():
            seat = state.to_move()[0]
            if len(state.legal_actions(seat)) > 1:
                other = determinize(state, seat, Rng(1000 + step))
                assert other.view(seat) == state.view(seat)
                values = heuristic.action_values(state, seat)
                assert heuristic.action_values(other, seat) == values, (players, seed, step)
                kinds[state.pending[0]] += 1
            state.apply(seat, heuristic.choose(state, seat, rng))
            step += 1
    assert kinds[P_DISCARD] >= 100
    assert kinds[P_SEND] >= 10
    assert sum(kinds.values()) >= 1000
    assert samples >= 2


def test_tta_8_1_last_discard_is_valued_without_the_unseen_draws() -> None:
    """The last excess military card discarded (TTA-8.1) ends the turn, and the unused military
    actions then draw from the face-down deck (TTA-8.8). Two positions that differ only in the
    order of that deck (the same view) give the same values for the discards."""
    from civtable.games.through_the_ages.state import P_DISCARD

    checked = 0
    for seed in (2, 3):
        state = GAME.new_game(4, seed, {"mode": "first"})
        assert isinstance(state, TTAState)
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            deck = state.mil_decks[state.age] if state.age < 4 else []
            if state.pending[:2] == [P_DISCARD, 1] and len(set(deck)) > 1:
                other = state.copy()
                other.mil_decks[state.age].reverse()
                assert other.view(seat) == state.view(seat)
                assert heuristic.action_values(other, seat) == heuristic.action_values(state, seat)
                checked += 1
            state.apply(seat, heuristic.choose(state, seat, rng))
    assert checked >= 20


def test_tta_6_1_other_seats_replies_are_valued_without_their_hidden_hands() -> None:
    """When the heuristic's look-ahead leaves another seat a choice (a plunderer's mix, an
    event's losses), it answers for that seat by what it can see: the other's military hand
    (secret, TTA-6.1) counts by its size. Swapping the cards of that hand for others of the
    same age (the same view for every other seat) leaves every reply's value unchanged."""
    from civtable.games.through_the_ages.rules import events
    from civtable.games.through_the_ages.state import P_OPTION

    checked = 0
    for players, seed in ((3, 1), (4, 2), (4, 3)):
        state = GAME.new_game(players, seed, {"mode": "full"})
        assert isinstance(state, TTAState)
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            if state.pending[0] == P_OPTION and state.pending[1] != events.W_MDISCARD:
                other = state.copy()
                if _swap_unseen(other, other.civs[seat].mhand, state.age):
                    legal = state.legal_actions(seat)
                    assert other.legal_actions(seat) == legal
                    for viewer in range(players):
                        if viewer != seat:
                            assert other.view(viewer) == state.view(viewer)
                    assert [heuristic._reply_value(other, seat, a) for a in legal] == [
                        heuristic._reply_value(state, seat, a) for a in legal
                    ]
                    checked += 1
            state.apply(seat, heuristic.choose(state, seat, rng))
    assert checked >= 5
