"""The card row and the ages (TTA-3, TTA-4)."""

from __future__ import annotations

from civtable.games.through_the_ages.catalog import CARDS, END_AGE_YELLOW, ROW_SLOTS, SWEEP
from civtable.games.through_the_ages.rules import board
from civtable.games.through_the_ages.state import F_RESIGNED, TTAState, to_box


def game_end_age(state: TTAState) -> int:
    """TTA-14.2: Age III ends the first game and the shorter game (TTA-15.1); the full game:
    Age IV (= 4)."""
    return 4 if state.options.get("mode", "first") == "full" else 3


def replenish(state: TTAState) -> None:
    """TTA-3.4: sweep the first M slots, slide left, refill (nothing in the game-ending age)."""
    # TTA-6.8: after a resignation the sweep of the remaining player count applies
    m = SWEEP[max(2, sum(1 for c in state.civs if not c.flags & F_RESIGNED))]
    row = state.row
    for i in range(m):
        if row[i] >= 0:
            to_box(state, (row[i],))  # swept cards leave the game
            row[i] = -1
    kept = [c for c in row if c >= 0]
    state.row = kept + [-1] * (ROW_SLOTS - len(kept))
    refill(state)


def refill(state: TTAState) -> None:
    """TTA-3.5: deal into the empty slots left to right, with the deck transitions."""
    for i in range(ROW_SLOTS):
        if state.row[i] >= 0:
            continue
        card = draw_civil(state)
        if card < 0:
            break
        state.row[i] = card
    if state.first_refill:
        # TTA-4.2: Age A ends after the first replenish; the rest of civil A goes to the box
        state.first_refill = 0
        to_box(state, state.civil_decks[0])
        state.civil_decks[0] = []
        if state.age == 0:
            state.age = 1


def draw_civil(state: TTAState) -> int:
    """The next civil card for the row, ending ages as decks run out (-1: none)."""
    end = game_end_age(state)
    while state.age < end:
        deck = state.civil_decks[state.age]
        if deck:
            card = deck.pop()
            if not deck and state.age >= 1:
                end_of_age(state)  # TTA-AMB-2: the age ends as its last card is dealt
            return card
        if state.age == 0:
            state.age = 1  # TTA-3.5: civil A ran out during the first refill
            continue
        end_of_age(state)  # pragma: no cover - decks end via the branch above
    return -1


def end_of_age(state: TTAState) -> None:
    """TTA-4.3 end of Age I/II(/III): antiquate the age before, lose 2 yellow cubes."""
    new = state.age + 1
    old = new - 2  # antiquated age
    state.age = new
    for civ in state.civs:
        if old >= 0:
            # 1. discard antiquated cards from hand (civil and military)
            to_box(state, [c for c in (*civ.hand, *civ.mhand) if CARDS[c].age == old])
            civ.hand = [c for c in civ.hand if CARDS[c].age != old]
            civ.fresh = [c for c in civ.fresh if CARDS[c].age != old]
            civ.mhand = [c for c in civ.mhand if CARDS[c].age != old]
            # 2. antiquated leader leaves play (no refund)
            if civ.leader >= 0 and CARDS[civ.leader].age == old:
                before = board.totals(civ)
                board.leave_play(civ, civ.leader)
                to_box(state, (civ.leader,))
                civ.leader = -1
                board.sync_totals(civ, before)
            # 3. antiquated unfinished wonder leaves play; its cubes return to the bank
            if civ.wip >= 0 and CARDS[civ.wip].age == old:
                to_box(state, (civ.wip,))
                civ.blue += civ.wip_stages
                civ.wip = -1
                civ.wip_stages = 0
    # 4. antiquated pacts leave play (full game)
    if old >= 0 and state.pacts:
        from civtable.games.through_the_ages.rules import politics

        p = state.pacts
        for card in [p[i] for i in range(0, len(p), 4) if CARDS[p[i]].age == old]:
            politics.remove_pact(state, card)
    if state.options.get("world_wars") and new - 1 in (1, 2, 3):
        # TTA-15.3 world wars: each scores its strength above the weakest's
        live = [c for c in state.civs if not c.flags & F_RESIGNED]
        strong = [board.ratings(c)[2] for c in live]
        weakest = min(strong)
        for civ, st in zip(live, strong, strict=True):
            civ.culture += st - weakest
    if new == 2 and state.options.get("mode") == "shorter":
        from civtable.games.through_the_ages.rules import shorter

        shorter.end_of_age_one(state)  # TTA-15.1: keep one of the two Age III events
    for civ in state.civs:
        # 6. two yellow cubes from the bank to the box
        board.lose_yellow(civ, END_AGE_YELLOW)
    # 7./TTA-4.4: entering the game-ending age: this round or the next one is the last; the
    # round's first turn is the first player's, or the next one's if he resigned (TTA-6.8)
    if new >= game_end_age(state):
        n = state.players
        opener = next(
            (state.first + i) % n
            for i in range(n)
            if not state.civs[(state.first + i) % n].flags & F_RESIGNED
        )
        state.last_round = state.round if state.current == opener else state.round + 1
