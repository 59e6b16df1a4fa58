"""The turn: legal decisions, applying them, column activation, end of action, rounds and the
end of the game (DEUS-6, DEUS-7, DEUS-8, DEUS-18, variants DEUS-21)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from civtable.core.errors import IllegalActionError
from civtable.games.deus import actions as act
from civtable.games.deus.catalog import (
    CARDS,
    COLOR_PIECE,
    COLORS,
    EDGE_VP,
    EMPTY_HAND_DRAW,
    GODS,
    GOLD_PER_RESOURCE,
    PIECES,
    PURPLE,
    RESOURCES,
    TEMPLE_BIT,
)
from civtable.games.deus.rules import construct, effects, offering, setup
from civtable.games.deus.rules.board import check_end_trigger, place, temple_targets
from civtable.games.deus.rules.log import event
from civtable.games.deus.state import (
    BLIND_MARK,
    BUY_PH,
    COLUMN_PH,
    GAIN,
    LAB,
    MAIN,
    OFFERING,
    OVER,
    PAY_PH,
    PICK,
    PLACE,
    SELL_PH,
    TARGET,
)

if TYPE_CHECKING:
    from civtable.games.deus.state import DeusState


# --- legal decisions ----------------------------------------------------------------------------
def legal_actions(state: DeusState, seat: int) -> list[int]:
    """Sorted legal action ids of ``seat`` (who owes the decision)."""
    ph = state.phase
    s = seat
    if ph == OFFERING:  # the most frequent decision: one card at a time (DEUS-10.1)
        return [act.ADD + t for t in sorted(set(state.hands[s]))] + [act.DONE]
    if ph == MAIN:
        if not state.hands[s]:
            # Degenerate case (AMB-27): deck and discard were empty when the hand ran out. The
            # only move is to pass; the empty-hand draw is tried again at the end (DEUS-7.7).
            return [act.DONE]
        kinds = sorted(set(state.hands[s]))
        # the ranges BUILD, OFFER, BLIND follow each other (see actions), so this is sorted
        out = [
            act.BUILD + t
            for t, ok in zip(kinds, construct.buildable(state, s, kinds), strict=True)
            if ok
        ]
        out += [act.OFFER + t for t in kinds]  # DEUS-6.2.1 offering is always possible
        if (
            state.options["blind_building"]
            and not state.blind_used[s]
            and construct.blind_columns(state, s)
        ):
            out += [act.BLIND + t for t in kinds]
        return out
    if ph == PICK:
        return [act.PIECE + p for p in setup.pick_choices(state, s)]
    if ph == COLUMN_PH:
        return [act.COLUMN + c for c in construct.blind_columns(state, s)]
    if ph == PAY_PH:
        return [act.PAY + c for c in construct.payments(state, s, state.ctx[0])]
    if ph == PLACE:
        color = state.ctx[1]
        if color == PURPLE:
            return [act.REGION + r for r in temple_targets(state, s)]
        normal, edge = construct.piece_targets(state, s, color)
        return [act.REGION + r for r in normal] + [act.EDGE + r for r in edge]
    if ph == GAIN:
        kind, opts = effects.gain_choices(state)
        base = act.RES if kind == "res" else act.PIECE
        return [base + x for x in opts]
    if ph == TARGET:
        out = [act.REGION + r for r in effects.target_choices(state)]
        if state.ctx[1] == effects.PU_MOVE_FROM and CARDS[state.ctx[0]].effect.each:
            out.append(act.DONE)
        return sorted(out)
    if ph == SELL_PH:
        return [act.AMOUNT + k for k in range(state.ctx[1] + 1)]
    if ph == BUY_PH:
        return sorted([act.RES + r for r in effects.buy_choices(state)] + [act.DONE])
    if ph == LAB:
        color = CARDS[state.ctx[0]].effect.color
        return [act.CARD + t for t in effects.lab_choices(state, color)]
    return []


# --- applying -----------------------------------------------------------------------------------
def apply(state: DeusState, seat: int, action: int) -> None:
    """Apply a legal action (validated by :meth:`State.apply`)."""
    kind, arg = act.SPLIT[action]  # act.split without its range check: the action is legal
    s = seat
    ph = state.phase
    pending: bool
    if ph == OFFERING:  # the most frequent decision (DEUS-10.1)
        pending = offering.add(state, s, arg) if kind == "add" else offering.finish(state, s)
        if not pending:
            proceed(state)
        return
    if ph == PICK:
        setup.pick(state, s, arg)
        return
    if ph == MAIN:
        if kind == "build":
            state.open_seat = s  # a withdrawable move begins (DeusState.move_open)
            _take_from_hand(state, s, arg)
            state.ctx = [arg, CARDS[arg].color, 0]
            _to_payment(state, s)
        elif kind == "offer":
            state.open_seat = s
            if not offering.start(state, s, arg):
                proceed(state)
        elif kind == "blind":
            state.open_seat = s
            _take_from_hand(state, s, arg)
            blind_used = state.blind_used = state.blind_used[:]  # a new list (DeusState.branch)
            blind_used[s] = 1
            state.ctx = [arg]
            state.phase = COLUMN_PH
        elif kind == "done":
            event(state, "pass", player=s)
            end_action(state)  # pass with an empty hand (see legal_actions)
        else:
            raise IllegalActionError(f"unexpected action {action}", seat=seat, action=action)
        return
    if ph == COLUMN_PH:
        price = len(state.cols[s][arg]) + 1
        state.gold[s] -= price  # DEUS-21.3: k gold for the k-th card
        event(state, "pay", player=s, card=None, res=[0] * len(RESOURCES), gold=price)
        state.ctx = [state.ctx[0], arg, 1]
        state.phase = PLACE
        return
    if ph == PAY_PH:
        _pay(state, s, state.ctx[0], arg)
        _to_place(state, s)
        return
    if ph == PLACE:
        _place(state, s, arg, kind == "edge")
        return
    if ph == GAIN:
        pending = effects.choose_gain(state, kind, arg)
    elif ph == TARGET:
        if kind == "done":
            pending = effects.stop_moving(state)
        else:
            pending = effects.choose_target(state, arg)
    elif ph == SELL_PH:
        pending = effects.choose_sell(state, arg)
    elif ph == BUY_PH:
        if kind == "done":
            state.phase = -1
            pending = False
        else:
            pending = effects.choose_buy(state, arg)
    elif ph == LAB:
        pending = effects.choose_lab(state, arg)
    else:
        raise IllegalActionError(f"no decision pending in phase {ph}", seat=seat, action=action)
    if not pending:
        proceed(state)


def _take_from_hand(state: DeusState, s: int, t: int) -> None:
    """Card ``t`` leaves the hand of ``s`` (a new hand list: the rows of the seats are replaced,
    never changed in place, because look-ahead copies share them, DeusState.branch)."""
    hand = state.hands[s] = state.hands[s][:]
    hand.remove(t)


def _to_payment(state: DeusState, s: int) -> None:
    """DEUS-7.3: ask for a payment plan only if there is a choice."""
    codes = construct.payments(state, s, state.ctx[0])
    if len(codes) == 1:
        _pay(state, s, state.ctx[0], codes[0])
        _to_place(state, s)
    else:
        state.phase = PAY_PH


def _pay(state: DeusState, s: int, t: int, code: int) -> None:
    """DEUS-7.3: pay card ``t`` with plan ``code`` (logged: payments are public)."""
    construct.pay(state, s, t, code)
    if state.log is not None:
        units = act.pay_units(code)
        card = CARDS[t]
        event(
            state,
            "pay",
            player=s,
            card=card.id,
            res=[c - units[r] for r, c in enumerate(card.cost)],
            gold=card.cost_gold + GOLD_PER_RESOURCE * sum(units),
        )


def _to_place(state: DeusState, s: int) -> None:
    """DEUS-8.5: a temple card with no temple left in the supply places nothing."""
    if state.ctx[1] == PURPLE and state.temples == 0:
        event(state, "build", player=s, card=CARDS[state.ctx[0]].id, color=PURPLE, region=None)
        _after_place(state, s)
    else:
        state.phase = PLACE


def _place(state: DeusState, s: int, region: int, edge: bool) -> None:
    """DEUS-7.4 / DEUS-8.4: the piece lands (attacks checked at once, DEUS-9.2)."""
    t, color = state.ctx[0], state.ctx[1]
    if edge:
        state.vp[s] -= EDGE_VP  # DEUS-7.4.7
    if state.log is not None:  # before the attacks the piece may trigger (DEUS-9.2)
        card = None if state.ctx[2] else CARDS[t].id  # a blind card stays hidden (DEUS-21.3)
        event(state, "build", player=s, card=card, color=color, region=region, edge=edge)
    if color == PURPLE:
        state.temples -= 1
        place(state, s, region, TEMPLE_BIT)
        check_end_trigger(state)  # DEUS-18.1.1
    else:
        piece = COLOR_PIECE[color]
        onboard = state.onboard[s] = state.onboard[s][:]  # a new row (DeusState.branch)
        onboard[piece] -= 1
        place(state, s, region, 1 << piece)
    _after_place(state, s)


def _after_place(state: DeusState, s: int) -> None:
    """DEUS-7.5 / 7.6: the card goes on top of its column, then the column is activated from
    the bottom card to the top card (temples activate nothing, DEUS-8.8)."""
    t, color, blind = state.ctx
    # a new row and a new column, not an append: look-ahead copies share them (DeusState.branch)
    cols = state.cols[s] = state.cols[s][:]
    cols[color] = [*cols[color], t + BLIND_MARK if blind else t]
    state.ctx = []
    if color != PURPLE:
        state.queue = state.cols[s][color][:]
        if state.log is not None:  # the arguments are built only for the log
            event(state, "activate", player=s, color=color, cards=len(state.queue))  # DEUS-7.6
    proceed(state)


def proceed(state: DeusState) -> None:
    """Resolve the activation queue until a decision is needed (DEUS-7.6.2), then end the
    action when nothing is left."""
    s = state.cur
    while state.queue:
        # a new list (DeusState.branch); the effects may put a card first (Laboratory)
        t = state.queue[0]
        state.queue = state.queue[1:]
        if t >= BLIND_MARK:
            continue  # DEUS-21.3: a blind card has no effect
        if effects.resolve_card(state, s, t):
            return
    end_action(state)


def end_action(state: DeusState) -> None:
    """DEUS-7.7 empty hand draws 5; then the next seat; DEUS-18.2 the final round."""
    s = state.cur
    if not state.hands[s]:
        drawn = effects.draw(state, s, EMPTY_HAND_DRAW)
        if state.log is not None:  # the arguments are built only for the log
            event(state, "draw", player=s, n=drawn)
    turns = state.turns = state.turns[:]  # a new list (DeusState.branch)
    turns[s] += 1
    state.ctx = []
    state.open_seat = -1
    state.cur = (s + 1) % state.players
    if state.cur == state.first:
        state.round += 1
        if 0 <= state.end_round < state.round:
            state.phase = OVER
            event(state, "game_over")
            return
        event(state, "round", final=state.round == state.end_round)
    state.phase = MAIN


# --- labels -------------------------------------------------------------------------------------
def _card_labels() -> dict[int, str]:
    """The labels of the card actions, which depend on the action alone."""
    out = {}
    for t, card in enumerate(CARDS):
        god = GODS[card.color]
        out[act.BUILD + t] = f"construct {card.label}"
        out[act.OFFER + t] = f"offer to {god.name}, {card.label} on top"
        out[act.ADD + t] = f"add {card.label} to the offering"
        out[act.BLIND + t] = f"blind-build {card.label} (face down)"
    return out


_CARD_LABELS = _card_labels()
#: action id -> its label, for the actions whose label depends on the action alone (a view
#: reads it first and asks :func:`describe` for the others)
CARD_LABELS: Mapping[int, str] = _CARD_LABELS


def describe(state: DeusState, seat: int, action: int) -> str:
    """A readable label of ``action``."""
    label = _CARD_LABELS.get(action)
    if label is not None:
        return label
    kind, arg = act.split(action)
    b = state.board
    if kind == "build":
        return f"construct {CARDS[arg].label}"
    if kind == "offer":
        god = GODS[CARDS[arg].color]
        return f"offer to {god.name}, {CARDS[arg].label} on top"
    if kind == "add":
        return f"add {CARDS[arg].label} to the offering"
    if kind == "blind":
        return f"blind-build {CARDS[arg].label} (face down)"
    if kind == "done":
        return {
            OFFERING: "finish the offering",
            BUY_PH: "stop buying",
            MAIN: "pass (no card in hand, deck and discard empty)",
        }.get(state.phase, "done moving armies")
    if kind == "pay":
        units = act.pay_units(arg)
        t = state.ctx[0] if state.ctx else 0
        parts = []
        for r, c in enumerate(CARDS[t].cost):
            if c:
                parts.append(f"{c - units[r]} {RESOURCES[r]}")
        gold = GOLD_PER_RESOURCE * sum(units) + CARDS[t].cost_gold
        return "pay " + ", ".join([*parts, f"{gold} gold"])
    if kind in ("region", "edge"):
        name = b.ids[arg] if arg < b.size else f"region {arg}"
        if state.phase == PLACE and state.ctx:
            color = state.ctx[1]
            what = "the temple" if color == PURPLE else f"the {PIECES[COLOR_PIECE[color]]} piece"
            cost = f" for {EDGE_VP} VP (edge)" if kind == "edge" else ""
            return f"place {what} at {name}{cost}"
        if state.phase == TARGET and state.ctx:
            purpose = state.ctx[1]
            if purpose == effects.PU_MOVE_TO:
                return "stay" if arg == state.ctx[2] else f"move the army to {name}"
            return {
                effects.PU_PROD_ONE: f"produce at {name}",
                effects.PU_PROD_REGION: f"produce in {name}",
                effects.PU_STEAL: f"use the army at {name}",
                effects.PU_SIEGE: f"take VP from the village {name}",
                effects.PU_MOVE_FROM: f"move the army at {name}",
            }.get(purpose, name)
        return name
    if kind == "res":
        return f"take 1 {RESOURCES[arg]}"
    if kind == "piece":
        return f"piece: {PIECES[arg]}"
    if kind == "amount":
        return f"sell {arg} lot(s)"
    if kind == "card":
        return f"activate {CARDS[arg].label}"
    return f"column {COLORS[arg]}"
