"""Integer action ids of Through the Ages (one fixed table for every player count).

==============  =========================================================================
id range        meaning
==============  =========================================================================
``END``         end the Action Phase (the End-of-Turn sequence runs, TTA-8)
``TAKE+s``      take the card in row slot ``s`` (0..12, TTA-7.2.1)
``POP``         increase population (TTA-7.2.2)
``BUILD+b``     build on building slot ``b = kind*4 + age`` (farm/mine/urban: CA; unit: MA)
``UPGRADE+u``   upgrade, ``u = kind*6 + pair`` over the level pairs of :data:`PAIRS`
``DESTROY+b``   destroy a building (1 CA) or disband a unit (1 MA)
``PLAY+c``      play card ``c`` from hand: develop a technology (peaceful government change
                included), play a leader or an action card
``REVOLT+c``    revolution to government ``c`` (TTA-7.2.10)
``WONDER+k``    build ``k+1`` stages of the unfinished wonder for one CA (TTA-7.2.8)
``CHOICE+i``    option ``i`` of a ``choose_one`` card (Reserves)
``DISCARD+c``   discard military card ``c`` (TTA-8.1)
``HAMMURABI``   spend one MA as a CA (once per turn)
``OCEAN``       Ocean Liner Service: a free population increase (once per turn)
``BARBAROSSA``  Frederick Barbarossa: for 1 MA, increase population and build a unit, each 1 less
``CHURCHILL``   Winston Churchill option 0 (+3 culture) / ``CHURCHILL+1`` (3 science + 3
                resources for units); option 0 is taken at end of turn if unused
``BACH+4b+a``   J. S. Bach: upgrade the urban building on slot ``b`` into the theater of age
                ``a`` (1 CA, the cost difference, once per turn)
``COPY+c``      copy tactic ``c`` from the common tactics area (2 MA, TTA-7.3.5); playing a
                tactics card from the military hand is ``PLAY+c`` (1 MA, TTA-7.3.4)
``PREPARE+c``   political action: prepare event or territory ``c`` (TTA-6.2)
``AGGRESS+4c+t``  political action: aggression ``c`` against seat ``t`` (TTA-6.4)
``WAR+4c+t``    political action: declare war ``c`` on seat ``t`` (TTA-6.5)
``PACT+8c+2t+s``  political action: offer pact ``c`` to seat ``t``, the offerer taking side
                A (``s=0``) or B (``s=1``; symmetric pacts only ``s=0``) (TTA-6.6)
``CANCEL+c``    political action: cancel pact ``c`` (TTA-6.7)
``RESIGN``      political action: resign (TTA-6.8)
``ALEXANDER``   political action: remove Alexander the Great for 1 yellow cube
``COLUMBUS+c``  political action: remove Christopher Columbus, colonize territory ``c``
``OPTION+v``    answer ``v`` of the pending choice (a bid, accept/refuse, a building slot, an
                amount of food...; ``describe`` names it)
``SEND+b``      colonization: send one unit from building slot ``b`` (TTA-11.3)
``DONE``        finish the pending multi-step choice (defence, colonization force, takes)
``TRADE``       Trade Routes Agreement: use 1 food as 1 resource (side A) or 1 resource as
                1 food (side B), once per turn in one's Action Phase
``SHARED+4c+t``   the shorter game: declare war ``c`` on ``t`` resolved as the shared War over
                Culture (its MA cost, TTA-15.1)
==============  =========================================================================

In a sub-decision the Action-Phase ranges keep their meaning where it fits: ``PLAY+c`` plays
a military bonus card (defence or colonization), ``DISCARD+c`` discards a military card (for +1
defence, James Cook's +1 colonization, or Politics of Strength), ``BUILD+b`` a free building
of an event, ``TAKE+s`` a take of International Agreement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.through_the_ages.catalog import CARDS, KINDS, NCARDS, NKINDS, NSLOTS, SLOT_CARD

if TYPE_CHECKING:
    from civtable.games.through_the_ages.state import TTAState

PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
PAIR_INDEX = {p: i for i, p in enumerate(PAIRS)}

END = 0
TAKE = 1
POP = TAKE + 13
BUILD = POP + 1
UPGRADE = BUILD + NSLOTS
DESTROY = UPGRADE + NKINDS * 6
PLAY = DESTROY + NSLOTS
REVOLT = PLAY + NCARDS
WONDER = REVOLT + NCARDS
CHOICE = WONDER + 4
DISCARD = CHOICE + 2
HAMMURABI = DISCARD + NCARDS
OCEAN = HAMMURABI + 1
BARBAROSSA = OCEAN + 1
CHURCHILL = BARBAROSSA + 1
BACH = CHURCHILL + 2
COPY = BACH + NSLOTS * 4
PREPARE = COPY + NCARDS
AGGRESS = PREPARE + NCARDS
WAR = AGGRESS + NCARDS * 4
PACT = WAR + NCARDS * 4
CANCEL = PACT + NCARDS * 8
RESIGN = CANCEL + NCARDS
ALEXANDER = RESIGN + 1
COLUMBUS = ALEXANDER + 1
OPTION = COLUMBUS + NCARDS
NOPTIONS = 128
SEND = OPTION + NOPTIONS
DONE = SEND + NSLOTS
TRADE = DONE + 1
SHARED = TRADE + 1
ACTION_SPACE = SHARED + NCARDS * 4


def possible_ids(players: int) -> tuple[int, ...]:
    """The ids some position of a ``players``-player game can make legal, ascending (the
    learning environments' compact numbering, :meth:`Game.action_ids
    <civtable.core.Game.action_ids>`).

    The ranges indexed by a card keep only the cards the rules put there: ``PLAY`` a
    technology, leader or action card from the civil hand, a tactic or a bonus card from the
    military hand; ``REVOLT`` a government; ``DISCARD`` a military card; ``COPY`` a tactic;
    ``PREPARE`` an event or territory; ``COLUMBUS`` a territory; ``AGGRESS`` an aggression,
    ``WAR`` and ``SHARED`` a war, ``PACT`` and ``CANCEL`` a pact, each against or with a seat
    of the game (side B only for asymmetric pacts). Every other range is kept whole. The tests
    check that random games of every mode and player count never make another id legal.
    """
    seats = range(players)
    by_type: dict[str, list[int]] = {}
    for c in CARDS:
        by_type.setdefault(c.type, []).append(c.idx)
    governments = [c.idx for c in CARDS if c.tech_type == "government"]
    military = sorted(c.idx for c in CARDS if c.deck == "military")
    ids = [*range(END, PLAY)]
    ids += sorted(
        PLAY + c for t in ("technology", "leader", "action", "tactic", "bonus") for c in by_type[t]
    )
    ids += [REVOLT + c for c in governments]
    ids += range(WONDER, DISCARD)
    ids += [DISCARD + c for c in military]
    ids += range(HAMMURABI, COPY)
    ids += [COPY + c for c in by_type["tactic"]]
    ids += sorted(PREPARE + c for t in ("event", "territory") for c in by_type[t])
    ids += [AGGRESS + 4 * c + t for c in by_type["aggression"] for t in seats]
    ids += [WAR + 4 * c + t for c in by_type["war"] for t in seats]
    ids += [
        PACT + 8 * c + 2 * t + s
        for c in by_type["pact"]
        for t in seats
        for s in ((0,) if CARDS[c].symmetric else (0, 1))
    ]
    ids += [CANCEL + c for c in by_type["pact"]]
    ids += (RESIGN, ALEXANDER)
    ids += [COLUMBUS + c for c in by_type["territory"]]
    ids += range(OPTION, SHARED)
    ids += [SHARED + 4 * c + t for c in by_type["war"] for t in seats]
    return tuple(ids)


def bach_id(src_slot: int, theater_age: int) -> int:
    """J. S. Bach: upgrade the building on ``src_slot`` into the theater of ``theater_age``."""
    return BACH + src_slot * 4 + theater_age


def upgrade_id(kind: int, lo: int, hi: int) -> int:
    """Action id of upgrading ``kind`` from age ``lo`` to age ``hi``."""
    return UPGRADE + kind * 6 + PAIR_INDEX[(lo, hi)]


def decode_upgrade(action: int) -> tuple[int, int, int]:
    """(kind, lo, hi) of an upgrade id."""
    u = action - UPGRADE
    lo, hi = PAIRS[u % 6]
    return u // 6, lo, hi


#: per building slot: its card's name and its kind ("Agriculture (farm)")
_SLOT_NAMES: tuple[str, ...] = tuple(
    f"{CARDS[SLOT_CARD[slot]].name} ({KINDS[slot // 4]})" for slot in range(NSLOTS)
)


def _slot_name(slot: int) -> str:
    return _SLOT_NAMES[slot]


#: the labels of actions whose words depend on the id alone (:func:`_static`), as worked out
LABELS: dict[int, str] = {}


def _static(action: int) -> bool:
    """Does the label of ``action`` depend on its id alone (not on a row slot's card, a pending
    decision or the civilization)?"""
    return (
        action == END
        or POP <= action < AGGRESS  # the prepares too: a card's name, type and age
        or PACT <= action < OPTION  # pact offers and cancels, resigning, Alexander, Columbus
        or action >= SHARED
    )


#: the labels of the row takes, by slot and card (``slot * (NCARDS + 1) + card + 1``)
_TAKE_LABELS: dict[int, str] = {}


def describe(state: TTAState, seat: int, action: int, *, memo: bool = True) -> str:
    """A readable label of ``action``; ``memo=False`` works it out afresh, without the
    remembered labels (the tests compare the two)."""
    if not memo:
        return _describe(state, seat, action)
    label = LABELS.get(action)
    if label is None:
        if TAKE <= action < POP:  # the words depend on the slot and its card alone
            slot = action - TAKE
            key = slot * (NCARDS + 1) + state.row[slot] + 1
            label = _TAKE_LABELS.get(key)
            if label is None:
                label = _TAKE_LABELS[key] = _describe(state, seat, action)
            return label
        label = _describe(state, seat, action)
        if _static(action):
            LABELS[action] = label
    return label


def _describe(state: TTAState, seat: int, action: int) -> str:
    """:func:`describe`, worked out."""
    if action == END:
        return "end the Action Phase"
    if TAKE <= action < POP:
        c = state.row[action - TAKE]
        name = CARDS[c].name if c >= 0 else "(empty)"
        return f"take {name} from slot {action - TAKE + 1}"
    if action == POP:
        return "increase population"
    if BUILD <= action < UPGRADE:
        return f"build {_slot_name(action - BUILD)}"
    if UPGRADE <= action < DESTROY:
        kind, lo, hi = decode_upgrade(action)
        return f"upgrade {_slot_name(kind * 4 + lo)} to {_slot_name(kind * 4 + hi)}"
    if DESTROY <= action < PLAY:
        return f"destroy/disband {_slot_name(action - DESTROY)}"
    if PLAY <= action < REVOLT:
        card = CARDS[action - PLAY]
        verb = "develop" if card.type == "technology" else "play"
        if card.type == "tactic":
            verb = "play the tactic"
        return f"{verb} {card.name}"
    if REVOLT <= action < WONDER:
        return f"revolution: {CARDS[action - REVOLT].name}"
    if WONDER <= action < CHOICE:
        return f"build {action - WONDER + 1} wonder stage(s)"
    if CHOICE <= action < DISCARD:
        return f"choose option {action - CHOICE + 1}"
    if DISCARD <= action < HAMMURABI:
        return f"discard {CARDS[action - DISCARD].name}"
    if action == HAMMURABI:
        return "Hammurabi: use a military action as a civil action"
    if action == OCEAN:
        return "Ocean Liner Service: free population increase"
    if action == BARBAROSSA:
        return "Frederick Barbarossa: increase population and build a unit"
    if action == CHURCHILL:
        return "Winston Churchill: +3 culture"
    if action == CHURCHILL + 1:
        return "Winston Churchill: 3 science and 3 resources for units"
    if COPY <= action < PREPARE:
        return f"copy the tactic {CARDS[action - COPY].name}"
    if action >= SHARED:
        c, t = divmod(action - SHARED, 4)
        return f"play {CARDS[c].name} as the shared War over Culture on seat {t}"
    if action == TRADE:
        from civtable.games.through_the_ages.rules import effects

        use, gain = effects.fx(state.civs[seat]).convert or ("food", "resources")
        return f"Trade Routes Agreement: use 1 {use} as 1 {gain}"
    from civtable.games.through_the_ages.state import P_ACCEPT, P_KEEP

    if OPTION <= action < SEND and state.pending[0] == P_ACCEPT:  # a pact offered
        pact, offerer, side = state.pending[1], state.pending[2], state.pending[4]
        name = CARDS[pact].name
        if action == OPTION:
            return f"refuse {name} offered by seat {offerer}"
        if CARDS[pact].symmetric:
            return f"accept {name} offered by seat {offerer}"
        return f"accept {name} offered by seat {offerer}, you as side {'BA'[side]}"
    if OPTION <= action < SEND and state.pending[0] == P_KEEP:  # the shorter game
        from civtable.games.through_the_ages.rules import shorter

        return shorter.describe(state, seat, action)
    if action >= PREPARE:
        from civtable.games.through_the_ages.rules import politics

        return politics.describe(state, seat, action)
    if BACH <= action < COPY:
        src, age = divmod(action - BACH, 4)
        return f"J. S. Bach: turn {_slot_name(src)} into {_slot_name(6 * 4 + age)}"
    return f"action {action}"
