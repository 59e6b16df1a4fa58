"""Component conservation (issue 20, item 8): ``invariants.check`` and ``invariants.leaks``, and
the bugs of the same class they found (components created, lost or left without an owner)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable

import pytest

from civtable import games
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn import invariants as inv
from civtable.games.civilization_a_new_dawn.catalog import (
    CS_INDEX,
    CULTURE,
    WONDER_INDEX,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.invariants import check, hidden_wonders, leaks
from civtable.games.civilization_a_new_dawn.rules import kinds
from civtable.games.civilization_a_new_dawn.state import CivState

from .scenario import city, make, row, sp, space, token, top

GAME = games.get("civilization-a-new-dawn")
LINE = {(i, 0): "G" for i in range(6)}


def fresh(players: int = 3, seed: int = 5, steps: int = 120) -> CivState:
    """A game after some random play."""
    s = GAME.new_game(players, seed, {"map": "standard_random"})
    assert isinstance(s, CivState)
    rng = Rng(seed)
    for _ in range(steps):
        seat = s.to_move()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    return s


def _about(messages: list[str], word: str) -> list[str]:
    return [m for m in messages if word in m]


# --- check() holds in play and catches corrupted states ------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_civ_1_1_fresh_and_played_states_hold_every_invariant(players: int) -> None:
    s = GAME.new_game(players, 11, {"map": "first_game"})
    assert isinstance(s, CivState)
    assert check(s) == []
    assert check(fresh(players, 11)) == []


@pytest.mark.parametrize(
    ("corrupt", "word"),
    [
        (lambda s: s.supply.__setitem__(0, s.supply[0] + 1), "control tokens of seat 0"),
        (lambda s: s.cities_left.__setitem__(1, s.cities_left[1] - 1), "cities of seat 1"),
        (lambda s: s.caravans[0].__setitem__(1, -1), "caravans of seat 0"),
        (lambda s: s.wdecks[0].append(s.wdecks[1][-1]), "is in 2 places"),
        (lambda s: s.wremoved.clear(), "removed unseen"),
        (lambda s: s.res_supply.__setitem__(2, s.res_supply[2] - 1), "oil tokens"),
        (lambda s: s.resources[1].__setitem__(0, -1), "marble"),
        (lambda s: s.trade[0].__setitem__(3, 4), "CIV-7.2"),
        (lambda s: s.row[1].__setitem__(0, s.row[1][1]), "focus row of seat 1"),
        (lambda s: s.pcard_holder[0].__setitem__(2, 0), "diplomacy card 2 of seat 0"),
        (lambda s: s.barb_pos.__setitem__(s.barb_pos.index(-2), -1), "barbarian"),
        (lambda s: s.victory.append(s.victory[0]), "victory cards"),
    ],
)
def test_check_catches_a_corrupted_state(corrupt, word: str) -> None:  # type: ignore[no-untyped-def]
    s = GAME.new_game(2, 3, {"map": "first_game"})
    assert isinstance(s, CivState)
    assert check(s) == []
    corrupt(s)
    assert _about(check(s), word), check(s)


def test_check_catches_map_components() -> None:
    s = fresh(4, 2)
    cs = next(c for c in range(len(s.cs_avail)) if s.cs_avail[c] == 2)
    s.cs_avail[cs] = 1  # a city-state card vanished
    assert _about(check(s), "cards of neutral city-state")
    s = fresh(4, 2)
    n = next(i for i, x in enumerate(s.nw) if x >= 0)
    s.nw_held[0].append(s.nw[n])  # a natural wonder both on the map and held
    assert _about(check(s), "natural wonder")
    s = fresh(4, 2)
    w = s.wdecks[2].pop(0)
    s.wtok[s.capital[1]] = w
    s.wonder_owner[w] = 0  # built under seat 1's capital, card with seat 0
    assert _about(check(s), f"wonder {WONDERS[w].id} on space")
    s = fresh(4, 2)
    free = next(x for x in range(s.board.size) if s.tok[x] < 0 and s.city[x] < 0)
    s.reinf[free] = 1
    assert _about(check(s), "reinforced flag without a control token")


def test_check_does_not_change_the_state() -> None:
    s = fresh()
    h = s.state_hash()
    check(s)
    for v in (None, 0, 1, 2):
        leaks(s, v)
    assert s.state_hash() == h


def _full_check(s: CivState) -> list[str]:
    """check() as it was before its cheap tests: every group's full check, in order."""
    out: list[str] = []
    inv._map(s, out)
    for _ok, full in inv._GROUPS:
        full(s, out)
    inv._victory(s, out)
    return out


def _verdict(f: Callable[[CivState], list[str]], s: CivState) -> tuple[str, ...]:
    """The messages of ``f(s)``, or the error it raised (a corrupted state may break a check)."""
    try:
        return tuple(f(s))
    except Exception as exc:
        return ("raised", type(exc).__name__, str(exc))


def _holds(ok: Callable[[inv._Cheap], bool], cheap: inv._Cheap) -> bool:
    try:
        return ok(cheap)
    except Exception:
        return False


def _corrupt(s: CivState, rng: Rng) -> None:
    """Change one entry of one list of the state (or of a list inside it) by a small step."""
    names = [
        n
        for n in CivState.__slots__
        if n not in ("history", "log", "pending", "_legal") and isinstance(getattr(s, n), list)
    ]
    lst = getattr(s, names[rng.randbelow(len(names))])
    if not lst:
        return
    i = rng.randbelow(len(lst))
    if isinstance(lst[i], list):
        lst = lst[i]
        if not lst:
            lst.append(rng.choice([0, 1, 3, -1]))
            return
        i = rng.randbelow(len(lst))
    if isinstance(lst[i], int) and not isinstance(lst[i], bool):
        lst[i] = rng.choice([lst[i] - 1, lst[i] + 1, lst[i] + 2, -1, -2, 0, 3, rng.randbelow(40)])


@pytest.mark.parametrize("players", [2, 4])
def test_civ_1_1_cheap_tests_give_the_full_checks_verdicts(players: int) -> None:
    """check() runs each group's full check only when the group's cheap test fails: on played
    and on corrupted states it says exactly what the full checks say, and every group's
    cheap test is seen to fail (so none passes a broken state unnoticed)."""
    rng = Rng(players)
    failed: set[str] = set()
    found = 0
    s = GAME.new_game(players, 40 + players, {"map": "standard_random"})
    assert isinstance(s, CivState)
    for step in range(600):
        if s.is_terminal():
            break
        seat = s.to_move()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
        if step % 4:
            continue
        assert check(s) == _full_check(s) == []
        for _ in range(6):
            bad = copy.deepcopy(s)
            _corrupt(bad, rng)
            want = _verdict(_full_check, bad)
            assert _verdict(check, bad) == want
            found += bool(want)
            cheap = inv._Cheap(bad) if inv._lengths_ok(bad) else None
            for ok, _full in inv._GROUPS:
                if cheap is None or not cheap.sane or not _holds(ok, cheap):
                    failed.add(ok.__name__)
    assert found > 100
    assert failed == {ok.__name__ for ok, _full in inv._GROUPS}


def _reference_leaks(s: CivState, viewer: int | None) -> list[str]:
    """leaks() as it was: every string of the view joined, each hidden name as a whole word."""
    text = "\n".join(inv._strings(s.view(viewer), []))
    out = []
    for w in hidden_wonders(s):
        for name in (WONDERS[w].id, WONDERS[w].name):
            if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
                where = "removed unseen" if w in s.wremoved else "face down"
                out.append(f"view of {viewer} names the {where} wonder {name!r}")
                break
    return out


@pytest.mark.parametrize(
    "form",
    [
        "{}",
        "the {} card",
        "x\n{}",
        "{}\tx",
        "\x01{}",
        '"{}"',
        "\\{}",
        "{}s",
        "_{}",
        "é{}",
        "{}_tokens",
        "q{} {}",
    ],
)
def test_civ_26_2_leak_scan_finds_what_the_whole_word_scan_finds(form: str) -> None:
    """The JSON-text first pass of leaks() reports exactly what the scan of every string
    reports, for names next to escaped characters, quotes, letters and underscores, in log
    texts and in keys."""
    s = fresh(3, 8)
    hidden = hidden_wonders(s)
    for k, w in enumerate([hidden[0], hidden[-1], s.wdecks[2][0]]):
        for name in (WONDERS[w].id, WONDERS[w].name):
            text = form.format(name, name)
            s.log = [{"event": "note", "text": text}] if k % 2 == 0 else [{text: 1}]
            for viewer in (None, 0, 2):
                assert leaks(s, viewer) == _reference_leaks(s, viewer), (text, viewer)


# --- leaks() --------------------------------------------------------------------------------------
def test_civ_26_2_views_name_no_hidden_wonder() -> None:
    s = fresh(2, 8)
    assert hidden_wonders(s)
    for v in (None, 0, 1):
        assert leaks(s, v) == []


def test_leaks_finds_an_injected_hidden_wonder() -> None:
    s = fresh(2, 8)
    s.log = []
    hidden = s.wdecks[1][1]  # the face-down card under the economy deck's top card
    s.log.append({"event": "note", "text": f"next economy wonder: {WONDERS[hidden].name}"})
    assert _about(leaks(s, 0), WONDERS[hidden].name)
    s.log = [{"event": "note", "wonder": WONDERS[s.wremoved[0]].id}]
    assert _about(leaks(s, None), "removed unseen")


def test_leaks_accepts_the_face_up_card() -> None:
    s = fresh(2, 8)
    s.log = [{"event": "note", "text": WONDERS[s.wdecks[0][0]].name}]
    assert leaks(s, 1) == []


# --- bugs found by the checks ---------------------------------------------------------------------
def _stand_in_on_kabul(s: CivState, at: tuple[int, int]) -> int:
    """Seat 0 conquered Kabul at ``at`` with no city left: a reinforced stand-in (CIV-23.4)."""
    kabul = CS_INDEX["kabul"]
    s.cs[sp(s, at)] = -1
    s.cs_owner[kabul] = 0
    s.cs_avail[kabul] = -1
    token(s, 0, at, reinforced=True)
    return kabul


def _take_out(s: CivState, w: int) -> None:
    """Take wonder card ``w`` out of its deck (or the removed cards) to build it by hand."""
    for deck in (*s.wdecks, s.wremoved):
        if w in deck:
            deck.remove(w)


def _freed(s: CivState, kabul: int, at: tuple[int, int]) -> None:
    assert s.cs_owner[kabul] == -1
    assert s.cs[sp(s, at)] == kabul  # the token is back on its space (CIV-A11)
    assert s.cs_avail[kabul] == 2  # both cards face up beside the map
    assert s.tok[sp(s, at)] == -1
    assert not _about(check(s), "kabul")


def test_civ_a11_stand_in_taken_back_for_reuse_frees_the_city_state() -> None:
    # CIV-8.5: with an empty supply the player takes back any token, here the stand-in on Kabul;
    # before the fix Kabul stayed "conquered" with nobody on its space
    s = make(LINE, capitals={0: (0, 0)}, features={(3, 0): "cs:kabul"})
    kabul = _stand_in_on_kabul(s, (3, 0))
    s.supply[0] = 0
    row(s, 0, "astrology", "foreign_trade", "masonry", "pottery", "early_empire")
    s.apply(0, act.SLOT + 4)  # Early Empire from slot 5
    s.apply(0, space(s, (1, 0)))
    assert top(s) == "empty supply: token to take back from the map"
    s.apply(0, space(s, (3, 0)))
    assert s.tok[sp(s, (1, 0))] == 0
    _freed(s, kabul, (3, 0))


def test_civ_a11_stand_in_moved_by_drama_and_poetry_frees_the_city_state() -> None:
    s = make(LINE, capitals={0: (0, 0)}, features={(3, 0): "cs:kabul"})
    kabul = _stand_in_on_kabul(s, (3, 0))
    s.pending.append([kinds.D_DP_TO, 0, sp(s, (3, 0)), 0])
    s._legal = {}
    s.apply(0, space(s, (4, 0)))
    assert s.tok[sp(s, (4, 0))] == 0
    assert s.reinf[sp(s, (4, 0))] == 1
    _freed(s, kabul, (3, 0))


def test_civ_16_4_liberation_sets_the_wonder_under_the_city_aside() -> None:
    # Blue's city on conquered Kabul holds Terracotta Army; Red liberates Kabul: Blue's city goes
    # home, the wonder token stays on the space and nobody controls it (CIV-19.3, CIV-A12);
    # before the fix Blue kept the card with no city there
    s = make(LINE, capitals={0: (0, 0)}, features={(2, 0): "cs:kabul"})
    kabul = CS_INDEX["kabul"]
    t = sp(s, (2, 0))
    s.cs[t] = -1
    s.cs_owner[kabul] = 1
    s.cs_avail[kabul] = -1
    city(s, 1, (2, 0))
    w = WONDER_INDEX["terracotta_army"]
    _take_out(s, w)
    s.wtok[t] = w
    s.wonder_owner[w] = 1
    s.pending.append([kinds.D_CONQLIB, 0, t, 1])
    s._legal = {}
    s.apply(0, act.OPT + 1)  # liberate
    assert s.wtok[t] == w
    assert s.wonder_owner[w] == -1
    assert not _about(check(s), "terracotta_army")


def test_civ_16_4_conquest_takes_the_wonder_under_the_city() -> None:
    s = make(LINE, capitals={0: (0, 0)}, features={(2, 0): "cs:kabul"})
    kabul = CS_INDEX["kabul"]
    t = sp(s, (2, 0))
    s.cs[t] = -1
    s.cs_owner[kabul] = 1
    s.cs_avail[kabul] = -1
    city(s, 1, (2, 0))
    w = WONDER_INDEX["terracotta_army"]
    _take_out(s, w)
    s.wtok[t] = w
    s.wonder_owner[w] = 1
    s.pending.append([kinds.D_CONQLIB, 0, t, 1])
    s._legal = {}
    s.apply(0, act.OPT)  # conquer
    assert s.city[t] == 0
    assert s.wonder_owner[w] == 0
    assert s.cs_owner[kabul] == 0
    assert not _about(check(s), "kabul")


def test_civ_7_4_spend_label_is_player_words() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    s.trade[0][CULTURE] = 2
    row(s, 0, "astrology", "foreign_trade", "masonry", "pottery", "early_empire")
    s.apply(0, act.SLOT + 4)
    assert top(s) == "declare trade tokens"
    label = s.describe(0, act.OPT + 1)
    assert label == "spend 2 trade token(s) (+1 per token to control tokens placed)"
    assert "{" not in label
