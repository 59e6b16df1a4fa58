"""Turn structure: start of turn (TTA-5.2) and the End-of-Turn sequence (TTA-8)."""

from __future__ import annotations

from civtable.games.through_the_ages.catalog import CARDS, FAMINE, MIL_DRAW_MAX
from civtable.games.through_the_ages.rules import board, effects, military, politics, row
from civtable.games.through_the_ages.state import (
    F_NO_POLITICS,
    F_RESIGNED,
    P_DISCARD,
    P_NONE,
    PH_ACTION,
    PH_POLITICS,
    Civ,
    TTAState,
)


def start_turn(state: TTAState) -> None:
    """TTA-5.2 steps 1-3 (replenish, none in round 1; tactic made common; wars declared
    last turn resolve) and the start-of-turn effects; then the Politics Phase opens."""
    if state.round > 1:
        row.replenish(state)
    seat = state.current
    civ = state.civs[seat]
    state.actor = -1
    military.release_tactic(state, civ)  # TTA-5.2 step 2
    for _card, op in effects.ops_of(civ, "start_of_turn"):
        kind = op["op"]
        if kind == "military_pool":  # Homer (TTA-AMB-10): 1 resource for units each turn
            if op["resource"] == "resources":
                civ.mpool += int(op["amount"])
            else:
                civ.spool += int(op["amount"])
        elif kind == "gain":  # Acceptance of Supremacy, side A (D10: at the start of turn)
            board.gain(civ, op["what"] == "resources", int(op["amount"]))
        elif kind == "lose":  # Acceptance of Supremacy, side B
            board.lose(civ, op["what"] == "resources", int(op["amount"]))
    state.phase = PH_ACTION if state.round == 1 else PH_POLITICS
    if civ.flags & F_NO_POLITICS:  # International Agreement (TTA-AMB-23)
        civ.flags &= ~F_NO_POLITICS
        state.phase = PH_ACTION
    if state.wars:
        if state.log is None:
            politics.resolve_wars(state, seat)  # TTA-5.2 step 3
        else:
            from civtable.games.through_the_ages import logs

            logs.resolve_wars(state, seat, lambda: politics.resolve_wars(state, seat))


def draw_military(state: TTAState, civ: Civ, n: int) -> None:
    """Draw ``n`` cards from the current age's military deck, re-shuffling that age's
    discards when it runs out (TTA-8.8); none in the game-ending age or Age A."""
    age = state.age
    if not 1 <= age < row.game_end_age(state):
        return
    deck = state.mil_decks[age]
    for _ in range(n):
        if not deck:
            deck.extend(state.mil_discards[age])
            state.mil_discards[age].clear()
            state.rng.shuffle(deck)
        if not deck:
            break
        civ.mhand.append(deck.pop())


def produce_steps(civ: Civ, steps: list[str]) -> None:
    """Run production steps now (Good Harvest, New Deposits, Economic Progress; TTA-12)."""
    for step in steps:
        if step == "corruption":
            corrupt(civ)
        elif step == "food":
            board.produce(civ, False)
        elif step == "consumption":
            missing = board.lose(civ, False, board.consumption(civ.yellow))
            if missing:
                civ.culture = max(0, civ.culture - FAMINE * missing)
        elif step == "resources":
            board.produce(civ, True)
            extra = effects.production_bonus(civ)
            if extra:
                board.gain(civ, True, extra)
        else:  # pragma: no cover - guarded by the data tests
            raise KeyError(step)


def end_action_phase(state: TTAState) -> None:
    """Begin the End-of-Turn sequence: leader triggers, then TTA-8.1 (discard decision)."""
    civ = state.civs[state.current]
    # leader end-of-turn triggers (TTA-8 note): Genghis Khan, unused Winston Churchill
    for _card, op in effects.ops_of(civ, "end_of_turn"):
        cond = op.get("condition") == "among_two_strongest_ties_won"
        if op["op"] == "gain" and cond and among_two_strongest(state, state.current):
            civ.culture += int(op["amount"])
    for card, op in effects.ops_of(civ, "action_phase"):
        if op["op"] == "choose_one" and "default_at_end_of_turn" in op:
            if not civ.used & USED_CHURCHILL:
                opt = op["options"][int(op["default_at_end_of_turn"])]
                for sub in opt:
                    if sub["what"] == "culture_points":
                        civ.culture += int(sub["amount"])
                civ.used |= USED_CHURCHILL
            del card
    _discard_check(state)


USED_HAMMURABI = 1
USED_OCEAN = 2
USED_CHURCHILL = 4
USED_BACH = 8
USED_TRADE = 32  # Trade Routes Agreement's conversion (once per turn)
USED_TACTIC = military.USED_TACTIC


def among_two_strongest(state: TTAState, seat: int) -> bool:
    """Genghis Khan: one of the two strongest (the strongest with 2 players), ties won; among
    the players still in the game, at their count (TTA-6.8, TTA-12.6)."""
    mine = board.ratings(state.civs[seat])[2]
    stronger = sum(
        1
        for s in politics.order_from(state, seat)
        if s != seat and board.ratings(state.civs[s])[2] > mine
    )
    return stronger < (1 if politics.active_count(state) == 2 else 2)


def _discard_check(state: TTAState) -> None:
    civ = state.civs[state.current]
    excess = len(civ.mhand) - board.hand_limits(civ)[1]
    if excess > 0:
        state.pending = [P_DISCARD, excess]  # TTA-8.1 owner chooses
    else:
        finish_turn(state)


def discard(state: TTAState, card: int) -> None:
    """TTA-8.1: discard one excess military card (face down, to its age's discards)."""
    civ = state.civs[state.current]
    civ.mhand.remove(card)
    state.mil_discards[CARDS[card].age].append(card)
    left = state.pending[1] - 1
    if left > 0:
        state.pending = [P_DISCARD, left]
    else:
        state.pending = [P_NONE]
        finish_turn(state)


def production_phase(civ: Civ, rates: tuple[int, int, int, int] | None = None) -> None:
    """TTA-8.3 .. 8.7 (score, corruption, food, consumption, resources); ``rates``: the
    civilization's current :func:`~.board.ratings`, if the caller has them."""
    culture, science, _strength, _happy = board.ratings(civ) if rates is None else rates
    civ.culture += culture  # 8.3
    civ.science += science
    corrupt(civ)  # 8.4
    pfood, pres = effects.fx(civ).pbonus  # pacts' extra production (TTA-8.7 note)
    board.produce(civ, False)  # 8.5
    if pfood:
        board.gain(civ, False, pfood)
    missing = board.lose(civ, False, board.consumption(civ.yellow))  # 8.6
    if missing:
        civ.culture = max(0, civ.culture - FAMINE * missing)
    board.produce(civ, True)  # 8.7
    extra = effects.production_bonus(civ) + pres
    if extra:
        board.gain(civ, True, extra)


def corrupt(civ: Civ) -> None:
    """TTA-8.4: lose resources by the blue bank's corruption; the shortfall is paid in food."""
    short = board.lose(civ, True, board.corruption(civ.blue))
    if short:
        board.lose(civ, False, short)


def uprising(civ: Civ) -> bool:
    """TTA-8.2 / TTA-9.4: discontent workers exceed unused workers."""
    return board.discontent(civ) > civ.pool


def finish_turn(state: TTAState) -> None:
    """TTA-8.2 .. 8.9, then pass the turn (and end the game after the last turn)."""
    seat = state.current
    civ = state.civs[seat]
    rates = board.ratings(civ)
    log = state.log
    if log is not None:
        from civtable.games.through_the_ages import logs

        before = logs.snap_civ(civ)
    # TTA-8.2 no production in an uprising (uprising(): discontent workers > unused workers)
    produced = not board.happiness_required(civ.yellow) - rates[3] > civ.pool
    if produced:
        production_phase(civ, rates)
    entry = None if log is None else logs.production(state, seat, before, produced, rates)
    # 8.8 draw military cards: one per unused MA (real or temporary), at most 3
    if state.round > 1:
        draw_military(state, civ, min(MIL_DRAW_MAX, civ.ma + civ.temp_ma))
    if log is not None and entry is not None:
        entry["drawn"] = len(civ.mhand) - before.military_cards
        log.append(entry)
    reset_actions(civ)  # 8.9
    state.pending = [P_NONE]
    next_turn(state)


def next_turn(state: TTAState) -> None:
    """Pass the turn to the next player still in the game; after the last turn of the
    last round (TTA-4.4: everybody has had the same number of turns) the game ends."""
    n = state.players
    seat = state.current
    nxt = next(
        (seat + i) % n for i in range(1, n + 1) if not state.civs[(seat + i) % n].flags & F_RESIGNED
    )
    if (nxt - state.first) % n <= (seat - state.first) % n:  # passed the first player's seat
        if state.last_round == state.round:
            end_game(state)
            return
        state.round += 1
    state.current = nxt
    state.actor = -1
    start_turn(state)


def end_game(state: TTAState) -> None:
    """The game is over; the full game's final scoring events are evaluated (TTA-13.2)."""
    state.over = 1
    state.actor = -1
    mode = state.options.get("mode", "first")
    before = None
    if state.log is not None and mode in ("full", "shorter"):
        from civtable.games.through_the_ages import logs

        before = logs.snap(state)
    if mode == "full":
        from civtable.games.through_the_ages.rules import impact

        impact.final_scoring(state)
    elif mode == "shorter":
        from civtable.games.through_the_ages.rules import shorter

        shorter.final_scoring(state)
    if before is not None:
        logs.final_scoring(state, before)


def reset_actions(civ: Civ) -> None:
    """TTA-8.9: all cubes back on the government card; temporary effects end."""
    civ.ca, civ.ma = board.totals(civ)
    civ.temp_ma = civ.mpool = civ.spool = 0
    civ.fresh = []
    civ.spent_ca = 0
    civ.replaced_leader = 0
    civ.used = 0
