"""What an action does, as structure: the presentation layer's input (issue 18).

:func:`move` turns an action id of a position into a small dict — a ``kind`` and its
arguments as card ids, seats and numbers, never English — that the view attaches to each legal
action (``legal[i]["move"]``) and the log records when the action is taken (with ``player``).
The game's words module (:mod:`.words`) turns the same dict into a button label ("Take
Pyramids (3 civil actions)") or a log line ("Ann takes Pyramids"). ``describe()`` stays the
developer's label.

A move is described *before* it is applied (a row slot's card, a pending decision's meaning
are read from the position the action is chosen in). Nothing here changes the state.
"""

from __future__ import annotations

from typing import Any

from civtable.core.api import JSON
from civtable.games.through_the_ages import actions as ax
from civtable.games.through_the_ages.catalog import AGES, CARDS, SLOT_CARD, UNIT_KINDS
from civtable.games.through_the_ages.rules import board, civil, effects, events, politics
from civtable.games.through_the_ages.state import (
    P_ACCEPT,
    P_AGREEMENT,
    P_BID,
    P_CHOOSE,
    P_DEFEND,
    P_HOMER,
    P_KEEP,
    P_OPTION,
    P_PERFORM,
    P_SEND,
    TTAState,
)


def _id(card: int) -> str | None:
    return CARDS[card].id if 0 <= card < len(CARDS) else None


def slot_card(slot: int) -> str | None:
    """The card id of a building slot (``kind * 4 + age``)."""
    c = SLOT_CARD[slot] if 0 <= slot < len(SLOT_CARD) else -1
    return CARDS[c].id if c >= 0 else None


def _ops(ops: Any) -> list[JSON]:
    """A ``choose_one`` option's ops as plain data (``gain``/``perform`` with amounts)."""
    out: list[JSON] = []
    for op in ops:
        if op.get("op") == "gain":
            out.append({"op": "gain", "what": str(op["what"]), "amount": op.get("amount", 0)})
        elif op.get("op") == "perform":
            disc = op.get("discount") or {}
            out.append(
                {
                    "op": "perform",
                    "action": str(op["action"]),
                    "discount": {str(k): int(v) for k, v in disc.items()},
                }
            )
        else:
            out.append({"op": str(op.get("op"))})
    return out


def choose_options(card: int) -> list[list[JSON]]:
    """The options of a card's ``choose_one`` op (an action card, an event, Churchill)."""
    for op in CARDS[card].ops:
        if op.get("op") == "choose_one":
            return [_ops(opt) for opt in op["options"]]
    return []


#: per building slot: its card's id (None: no card)
_SLOT_ID: tuple[str | None, ...] = tuple(slot_card(s) for s in range(len(SLOT_CARD)))


#: per ``action * 16 + pending decision kind``: the move of an action that depends on these
#: two alone (:func:`depends_on_id_alone`), as first worked out, or None for one that depends on
#: the position (the view copies a remembered move instead of calling :func:`move`)
STATIC_MOVES: dict[int, JSON | None] = {}


def depends_on_id_alone(action: int, kind: int) -> bool:
    """Does :func:`move` of ``action`` depend on the action id and the pending decision's kind
    ``kind`` alone (not on a cost, a leader, a row card or the pending decision's cards)?"""
    if ax.PLAY <= action < ax.REVOLT:  # bonus cards, tactics and action cards
        if kind in (P_DEFEND, P_SEND):
            return True
        return CARDS[action - ax.PLAY].type not in ("technology", "leader")
    return (
        ax.DESTROY <= action < ax.PLAY
        or ax.REVOLT <= action < ax.WONDER  # the printed revolution cost
        or ax.DISCARD <= action < ax.HAMMURABI
        or action == ax.OCEAN
        or ax.COPY <= action < ax.AGGRESS  # copies and prepares
        or ax.PACT <= action < ax.ALEXANDER  # pact offers and cancels, resigning
        or ax.COLUMBUS <= action < ax.OPTION
    )


def move(
    state: TTAState,
    seat: int,
    action: int,
    *,
    take_costs: list[int] | None = None,
    f: effects.Fx | None = None,
) -> JSON:
    """The structured description of ``action`` for ``seat`` in ``state`` (see the module doc).

    Private facts (a discarded or prepared military card) are in the dict; the caller marks the
    log entry private (:func:`public_move` gives what everybody else reads). ``take_costs``
    (the seat's :func:`~.rules.civil.take_costs`) and ``f`` (its civilization's
    :func:`~.rules.effects.fx`): passed by a caller that has them (the view, for every legal
    action).
    """
    civ = state.civs[seat]
    p = state.pending
    kind = p[0]
    if action == ax.END:
        return {"kind": "end_turn", "ca": civ.ca, "ma": civ.ma + civ.temp_ma}
    if ax.TAKE <= action < ax.POP:
        slot = action - ax.TAKE
        cost = 0
        if state.row[slot] >= 0:
            cost = civil.take_cost(state, civ, slot) if take_costs is None else take_costs[slot]
        doc: JSON = {"kind": "take", "card": _id(state.row[slot]), "cost": cost}
        if kind == P_AGREEMENT:
            doc["kind"] = "take_free"
        return doc
    if action == ax.POP:
        return {"kind": "population", "food": civil.pop_cost(civ)}
    if ax.BUILD <= action < ax.UPGRADE:
        slot = action - ax.BUILD
        disc = p[3] if kind == P_PERFORM else 0
        cost = max(0, board.building_cost(civ, slot, f) - disc)
        return {
            "kind": "build",
            "card": _SLOT_ID[slot],
            "cost": cost,
            "unit": slot // 4 in UNIT_KINDS,
            "free_action": kind == P_PERFORM,
        }
    if ax.UPGRADE <= action < ax.DESTROY:
        k, lo, hi = ax.decode_upgrade(action)
        disc = p[3] if kind == P_PERFORM else 0
        cost = max(0, board.upgrade_cost(civ, k * 4 + lo, k * 4 + hi) - disc)
        return {
            "kind": "upgrade",
            "card": _SLOT_ID[k * 4 + lo],
            "to": _SLOT_ID[k * 4 + hi],
            "cost": cost,
            "free_action": kind == P_PERFORM,
        }
    if ax.DESTROY <= action < ax.PLAY:
        slot = action - ax.DESTROY
        unit = slot // 4 in UNIT_KINDS
        return {"kind": "disband" if unit else "destroy", "card": _SLOT_ID[slot]}
    if ax.PLAY <= action < ax.REVOLT:
        c = action - ax.PLAY
        card = CARDS[c]
        if kind == P_DEFEND:
            return {"kind": "defend_bonus", "card": card.id, "value": card.defense}
        if kind == P_SEND:
            return {"kind": "colonize_bonus", "card": card.id, "value": card.colonize}
        if card.type == "tactic":
            return {"kind": "tactic", "card": card.id}
        if card.type == "technology":
            cost = civil.develop_cost(civ, card, f)
            if kind == P_PERFORM:
                cost = max(0, cost - p[3])
            return {
                "kind": "develop",
                "card": card.id,
                "cost": cost,
                "government": card.tech_type == "government",
                "free_action": kind == P_PERFORM,
            }
        if card.type == "leader":
            return {"kind": "leader", "card": card.id, "replaces": _id(civ.leader)}
        return {"kind": "action_card", "card": card.id}
    if ax.REVOLT <= action < ax.WONDER:
        card = CARDS[action - ax.REVOLT]
        return {"kind": "revolution", "card": card.id, "cost": card.revolution_cost}
    if ax.WONDER <= action < ax.CHOICE:
        k = action - ax.WONDER + 1
        disc = p[3] if kind == P_PERFORM else 0
        cost = max(0, civil.wonder_cost(civ, k) - disc) if civ.wip >= 0 else 0
        return {"kind": "wonder", "card": _id(civ.wip), "stages": k, "cost": cost}
    if ax.CHOICE <= action < ax.DISCARD:
        i = action - ax.CHOICE
        if kind == P_HOMER:
            return {"kind": "homer", "under": i == 1, "card": "homer"}
        card_idx = p[1] if kind == P_CHOOSE else -1
        opts = choose_options(card_idx) if card_idx >= 0 else []
        return {
            "kind": "choose",
            "card": _id(card_idx),
            "option": i,
            "ops": opts[i] if i < len(opts) else [],
        }
    if ax.DISCARD <= action < ax.HAMMURABI:
        c = action - ax.DISCARD
        what = "discard_military"
        if kind == P_DEFEND:
            what = "defend_discard"
        elif kind == P_SEND:
            what = "colonize_discard"
        elif kind == P_OPTION:
            what = "event_discard"
        return {"kind": what, "card": CARDS[c].id, "card_age": AGES[CARDS[c].age]}
    if action == ax.HAMMURABI:
        return {"kind": "hammurabi", "card": _id(civ.leader)}
    if action == ax.OCEAN:
        return {"kind": "ocean_liner", "card": "ocean_liner_service"}
    if action == ax.BARBAROSSA:
        return {"kind": "barbarossa", "card": _id(civ.leader)}
    if action in (ax.CHURCHILL, ax.CHURCHILL + 1):
        return {"kind": "churchill", "option": action - ax.CHURCHILL, "card": _id(civ.leader)}
    if ax.BACH <= action < ax.COPY:
        src, age = divmod(action - ax.BACH, 4)
        return {
            "kind": "bach",
            "card": slot_card(src),
            "to": slot_card(6 * 4 + age),
            "cost": civil.bach_cost(civ, src, age),
        }
    if ax.COPY <= action < ax.PREPARE:
        return {"kind": "copy_tactic", "card": CARDS[action - ax.COPY].id}
    if ax.PREPARE <= action < ax.AGGRESS:
        c = action - ax.PREPARE
        return {"kind": "prepare", "card": CARDS[c].id, "card_age": AGES[CARDS[c].age]}
    if ax.AGGRESS <= action < ax.WAR:
        c, t = divmod(action - ax.AGGRESS, 4)
        attack, defense = politics.attack_strengths(state, seat, t)
        return {
            "kind": "aggression",
            "card": CARDS[c].id,
            "target": t,
            "cost": politics.attack_cost(state, c, t),
            "attack": attack,
            "defense": defense,
        }
    if ax.WAR <= action < ax.PACT:
        c, t = divmod(action - ax.WAR, 4)
        attack, defense = politics.attack_strengths(state, seat, t)  # now: it is fought later
        return {
            "kind": "war",
            "card": CARDS[c].id,
            "target": t,
            "cost": politics.attack_cost(state, c, t),
            "attack": attack,
            "defense": defense,
        }
    if ax.PACT <= action < ax.CANCEL:
        c, rest = divmod(action - ax.PACT, 8)
        t, side = divmod(rest, 2)
        return {
            "kind": "pact_offer",
            "card": CARDS[c].id,
            "target": t,
            "side": None if CARDS[c].symmetric else "AB"[side],
        }
    if ax.CANCEL <= action < ax.RESIGN:
        return {"kind": "pact_cancel", "card": CARDS[action - ax.CANCEL].id}
    if action == ax.RESIGN:
        return {"kind": "resign"}
    if action == ax.ALEXANDER:
        return {"kind": "alexander", "card": _id(civ.leader)}
    if ax.COLUMBUS <= action < ax.OPTION:
        return {"kind": "columbus", "card": CARDS[action - ax.COLUMBUS].id}
    if ax.OPTION <= action < ax.SEND:
        return _option(state, seat, action - ax.OPTION)
    if ax.SEND <= action < ax.DONE:
        return {"kind": "send_unit", "card": slot_card(action - ax.SEND), "territory": _id(p[1])}
    if action == ax.DONE:
        if kind == P_SEND:
            return {"kind": "send_done", "card": _id(p[1])}
        if kind == P_AGREEMENT:
            return {"kind": "agreement_done"}
        return {"kind": "defend_done", "card": _id(p[1]) if kind == P_DEFEND else None}
    if action == ax.TRADE:
        use, gain = (effects.fx(civ) if f is None else f).convert or ("food", "resources")
        return {"kind": "trade", "use": use, "gain": gain}
    if ax.SHARED <= action < ax.ACTION_SPACE:
        c, t = divmod(action - ax.SHARED, 4)
        attack, defense = politics.attack_strengths(state, seat, t)
        return {
            "kind": "shared_war",
            "card": CARDS[c].id,
            "target": t,
            "cost": politics.attack_cost(state, politics.SHARED_WAR, t),
            "attack": attack,
            "defense": defense,
        }
    return {"kind": "unknown", "action": action}


def _option(state: TTAState, seat: int, v: int) -> JSON:
    """``OPTION+v`` in the running decision."""
    p = state.pending
    kind = p[0]
    if kind == P_ACCEPT:
        card, offerer, _partner, side = p[1:5]
        return {
            "kind": "pact_answer",
            "accept": v == 1,
            "card": _id(card),
            "offerer": offerer,
            # the side the answering player takes
            "side": None if CARDS[card].symmetric else "BA"[side],
        }
    if kind == P_KEEP:
        secret = state.civs[seat].secret
        return {"kind": "keep_event", "card": _id(secret[v]) if 0 <= v < len(secret) else None}
    if kind == P_BID:
        return {"kind": "bid", "card": _id(p[1]), "value": v}
    if kind != P_OPTION:
        return {"kind": "unknown", "option": v}
    what, card, a, b = p[1], p[2], p[3], p[4]
    cid = _id(card)
    if what == politics.W_PLUNDER:
        return {"kind": "plunder", "card": cid, "target": a, "food": v, "resources": b - v}
    if what in (events.W_MIX_GAIN, events.W_MIX_LOSE):
        lose = what == events.W_MIX_LOSE
        return {
            "kind": "mix_lose" if lose else "mix_gain",
            "card": cid,
            "food": v,
            "resources": b - v,
        }
    if what == events.W_CHOOSE:
        opts = choose_options(card)
        if v >= len(opts):
            return {"kind": "choose_decline", "card": cid}
        return {"kind": "choose", "card": cid, "option": v, "ops": opts[v]}
    if what == events.W_FREEBUILD:
        return {"kind": "free_build", "card": cid, "building": slot_card(a), "accept": v == 1}
    if what in (events.W_DESTROY, politics.W_RAID):
        return {"kind": "destroy_for", "card": cid, "target": a, "building": slot_card(v)}
    if what == events.W_LOSEWORKER:
        return {"kind": "lose_worker", "card": cid, "building": slot_card(v)}
    if what == events.W_COLONY_LOSE:
        cols = state.civs[seat].colonies
        return {
            "kind": "lose_colony",
            "card": cid,
            "colony": _id(cols[v]) if v < len(cols) else None,
        }
    if what == events.W_RAVAGES:
        ws = state.civs[seat].wonders
        return {"kind": "ravages", "card": cid, "wonder": _id(ws[v]) if v < len(ws) else None}
    if what == politics.W_INFILTRATE:
        t = state.civs[a]
        removed = t.leader if v == 0 else t.wip
        return {"kind": "infiltrate", "card": cid, "target": a, "removed": _id(removed)}
    if what == politics.W_ANNEX:
        cols = state.civs[a].colonies
        return {
            "kind": "annex",
            "card": cid,
            "target": a,
            "colony": _id(cols[v]) if v < len(cols) else None,
        }
    if what == politics.W_TECHWAR:
        loser = state.civs[a]
        techs = [loser.special[i] for i in range(4) if v >> i & 1]
        value = sum(CARDS[t].science_cost for t in techs)
        return {
            "kind": "tech_war",
            "card": cid,
            "target": a,
            "techs": [CARDS[t].id for t in techs],
            "science": max(0, min(b - value, loser.science)),
        }
    return {"kind": "unknown", "option": v}


#: move kinds whose card only its player may see, and what everybody else reads instead
PRIVATE_KINDS: dict[str, str] = {
    "discard_military": "discard_military_hidden",
    "defend_discard": "defend_discard_hidden",
    "colonize_discard": "colonize_discard_hidden",
    "event_discard": "event_discard_hidden",
    "prepare": "prepare_hidden",
    "keep_event": "keep_event_hidden",
}


def public_move(doc: JSON) -> JSON | None:
    """What the other seats read of a private move (None: the move is public as it is)."""
    hidden = PRIVATE_KINDS.get(str(doc.get("kind")))
    if hidden is None:
        return None
    out: JSON = {"kind": hidden}
    if "card_age" in doc and hidden != "keep_event_hidden":
        out["card_age"] = doc["card_age"]
    return out
