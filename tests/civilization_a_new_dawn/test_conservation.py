"""Component conservation (issue 20, item 8): ``invariants.check`` and ``invariants.leaks``, and
the bugs of the same class they found (components created, lost or left without an owner)."""

from __future__ import annotations

import contextlib
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


def _corrupt_any(s: CivState, rng: Rng) -> str:
    """Change one thing check() may read, in place: an entry of a list (or of a list inside
    it), a single int, a pending CIV-8.5 frame, or an entry's type (a float or a tuple equal
    to what was there). Returns what was changed."""
    kind = rng.randbelow(8)
    if kind == 0:  # a single int
        name = rng.choice(["gz", "first", "current", "turn_flags"])
        setattr(s, name, getattr(s, name) + rng.choice([-1, 1, 5]))
        return name
    if kind == 1:  # a pending token choice (CIV-8.5) appears or changes
        seat = rng.randbelow(s.players)
        purpose = rng.choice([inv.C.RC_MARK, 0, 1])
        at = rng.randbelow(s.board.size)
        s.pending.append([kinds.D_RECLAIM, seat, at, purpose, 0, 0, 0, 0])
        return "pending"
    names = sorted(inv._FLAT + inv._NESTED[:-1])
    name = rng.choice(names)
    lst = getattr(s, name)
    if lst and isinstance(lst[0], list):
        lst = rng.choice(lst)
    if not lst:
        lst.append(rng.choice([0, 1, 3, -1]))
        return name
    i = rng.randbelow(len(lst))
    if kind == 2:  # the same value as a float: equal under ==, not an int
        lst[i] = float(lst[i])
        return name + " (float)"
    if kind == 3 and name in inv._NESTED:  # an inner list becomes an equal tuple
        outer = getattr(s, name)
        k = rng.randbelow(len(outer))
        outer[k] = tuple(outer[k])
        return name + " (tuple)"
    lst[i] = rng.choice([lst[i] - 1, lst[i] + 1, lst[i] + 2, -1, -2, 0, 3, rng.randbelow(40)])
    return name


@pytest.mark.parametrize("players", [2, 3, 4])
def test_civ_1_1_remembered_groups_give_the_full_checks_verdicts(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """check() skips a group whose inputs equal those of its previous call, where the group
    found nothing: right after a clean check, a copy (same board) with one thing changed, a
    float or tuple equal to what was there included, gets exactly the verdict of check() with
    nothing remembered (messages, or the error raised), groups are skipped, and every group
    is seen both skipped and run on a changed copy."""
    ran: dict[int, int] = {}
    real = inv._GROUPS

    def counted(g: int, ok: Callable[[inv._Cheap], bool]) -> Callable[[inv._Cheap], bool]:
        def run(c: inv._Cheap) -> bool:
            ran[g] = ran.get(g, 0) + 1
            return ok(c)

        return run

    monkeypatch.setattr(
        inv, "_GROUPS", tuple((counted(g, ok), full) for g, (ok, full) in enumerate(real))
    )
    rng = Rng(100 + players)
    s = GAME.new_game(players, 70 + players, {"map": "standard_random"})
    assert isinstance(s, CivState)
    found = skipped = 0
    seen_run: set[int] = set()
    seen_skipped: set[int] = set()
    changed: set[str] = set()
    for step in range(500):
        if s.is_terminal():
            break
        seat = s.to_move()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
        assert check(s) == []  # the memory now holds this position, every group clean
        if step % 3:
            continue
        for _ in range(4):
            check(s)
            bad = s.copy()
            for name in CivState.__slots__:  # no list shared with s (copy() shares some)
                if name not in ("game", "board", "occupancy", "agenda_seen", "rng"):
                    setattr(bad, name, copy.deepcopy(getattr(s, name)))
            assert bad.board is s.board
            changed.add(_corrupt_any(bad, rng))
            inv._MEMO.forget()
            want = _verdict(check, bad)  # check() with nothing remembered: every group runs
            assert check(s) == []  # the memory holds s again
            ran.clear()
            got = _verdict(check, bad)
            assert got == want, (changed, got, want)
            found += bool(want)
            runs = set(ran)
            seen_run |= runs
            if not got or got[0] != "raised":
                skipped += len(real) - len(runs)
                seen_skipped |= set(range(len(real))) - runs
    assert found > 50
    assert skipped > 100
    assert seen_run == seen_skipped == set(range(len(real)))
    assert {"gz", "pending"} <= changed
    assert any("(float)" in c for c in changed)
    assert any("(tuple)" in c for c in changed)


class _Reads:
    """A state (or a _Cheap) that notes the name of every attribute read through it."""

    def __init__(self, target: object, seen: set[str]) -> None:
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_seen", seen)

    def __getattr__(self, name: str) -> object:
        self._seen.add(name)
        return getattr(self._target, name)


#: the fields of the state each part of a _Cheap is found from
_CHEAP_SOURCES = {
    "tok_count": {"tok"},
    "city_count": {"city"},
    "city": {"city"},
    "barb": {"barb", "barb_pos"},
    "res": {"res"},
    "res_vals": {"res"},
    "nw": {"nw"},
    "cs": {"cs"},
    "wtok": {"wtok"},
}


def _occupied(t: CivState) -> int:
    return next(x for x in range(t.board.size) if t.city[x] >= 0 or t.tok[x] >= 0)


def _conquered_city_state_on_a_free_space(t: CivState) -> None:
    c = next(c for c in range(len(t.cs_owner)) if c in t.board.city_state)
    t.cs_owner[c] = 0  # its space holds no city or token of seat 0: a CIV-8.5 frame is read


def _held_natural_wonder_on_a_focus_card(t: CivState) -> None:
    n = next(n for n in t.board.natural_wonder if n >= 0)
    t.nw_held[0].append(n)  # held without a token on its space: a CIV-8.5 frame is read
    t.nw_card[n] = 0  # on a focus card: the holder's leader is read (America, CIV-24)


def _built_wonder_held_by_another_seat(t: CivState) -> None:
    s = _occupied(t)
    w = t.wdecks[0][0]
    t.wtok[s] = w
    holder = t.city[s] if t.city[s] >= 0 else t.tok[s]
    t.wonder_owner[w] = (holder + 1) % t.players  # a CIV-8.5 frame is read


#: corruptions that take the rare branches of the checks (those that read more fields)
_RARE_PATHS = (
    _conquered_city_state_on_a_free_space,
    _held_natural_wonder_on_a_focus_card,
    _built_wonder_held_by_another_seat,
)


@pytest.mark.parametrize("players", [2, 4])
def test_civ_1_1_every_field_a_group_reads_is_among_its_remembered_inputs(players: int) -> None:
    """What lets check() skip a group (its inputs unchanged) is sound only if the group reads
    nothing else: every attribute its full check and its cheap test read (the parts of _Cheap
    they use count as the fields those are found from; pending = the CIV-8.5 frames) is among
    the group's inputs, on played states and on corrupted ones (which take other paths)."""
    rng = Rng(7)
    always = {"board", "players"}
    s = GAME.new_game(players, 90 + players, {"map": "standard_random"})
    assert isinstance(s, CivState)
    read_by: dict[int, set[str]] = {g: set() for g in range(len(inv._GROUPS))}
    for step in range(400):
        if s.is_terminal():
            break
        seat = s.to_move()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
        if step % 5:
            continue
        for corrupted in range(len(_RARE_PATHS) + 2):
            t = copy.deepcopy(s)
            if corrupted == 1:
                _corrupt_any(t, rng)
            elif corrupted > 1:
                _RARE_PATHS[corrupted - 2](t)
            for g, (ok, full) in enumerate(inv._GROUPS):
                seen: set[str] = set()
                with contextlib.suppress(Exception):
                    full(_Reads(t, seen), [])  # type: ignore[arg-type]
                parts: set[str] = set()
                with contextlib.suppress(Exception):
                    cheap = inv._Cheap(t)
                    cheap.st = _Reads(t, seen)  # type: ignore[assignment]
                    ok(_Reads(cheap, parts))  # type: ignore[arg-type]
                for part in parts:
                    seen |= _CHEAP_SOURCES.get(part, set())
                read_by[g] |= seen
    for g, names in read_by.items():
        fields = {"reclaim" if n == "pending" else n for n in names} - always
        assert fields <= set(inv._GROUP_INPUTS[g]), (inv._GROUPS[g][1].__name__, fields)
        assert fields, g


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


@pytest.mark.parametrize("form", ["{}", "\u03a3 {} \u03a3", "\u0130-{} x", "A{}", "{}.\u03a3"])
def test_civ_26_2_folded_first_pass_keeps_every_hidden_name(form: str) -> None:
    """leaks() first looks for each hidden card's folded names (lower case, underscores) in the
    folded view text: every hidden card named by id or name, the non-ASCII name too, next to
    characters whose lower case is longer or depends on their neighbours, is still reported as
    the scan of every string reports it (nothing dropped by the folded pass)."""
    s = fresh(3, 8)
    accented = next(w for w in range(len(WONDERS)) if not WONDERS[w].name.isascii())
    if accented not in hidden_wonders(s):
        s.wremoved.append(accented)
    reported = 0
    for w in hidden_wonders(s):
        for name in (WONDERS[w].id, WONDERS[w].name):
            s.log = [{"event": "note", "text": form.format(name)}]
            want = _reference_leaks(s, 1)
            assert leaks(s, 1) == want, (name, form)
            reported += bool(want)
    assert reported >= len(hidden_wonders(s)) if form != "A{}" else reported == 0


def test_civ_26_2_shared_view_parts_changed_in_place_are_read_again() -> None:
    """leaks() keeps the JSON text of view parts that views share (the map, a player's part)
    and reuses it while the part is unchanged: a shared part changed in place to name a
    hidden card, and a log that grows in place, are read again and the card is reported, as
    the scan of every string reports it."""
    s = fresh(3, 8)
    viewers = (None, 0, 1, 2)
    for _ in range(2):
        for v in viewers:
            assert leaks(s, v) == []
    shared = s.view(0)["map"]
    assert id(shared) in inv._PART_TEXT  # the map's text is kept
    hidden = hidden_wonders(s)
    space = shared["spaces"][0]
    before = dict(space)
    try:
        space["note"] = WONDERS[hidden[0]].name  # in place: every view of this map names it
        for v in viewers:
            got = leaks(s, v)
            assert got == _reference_leaks(s, v)
            assert _about(got, WONDERS[hidden[0]].name)
    finally:
        space.clear()
        space.update(before)
    for v in viewers:
        assert leaks(s, v) == []
    s.log = []
    for k, w in enumerate(hidden[:4]):
        for v in viewers:
            assert leaks(s, v) == _reference_leaks(s, v)
        s.log.append({"event": "note", "text": f"x {WONDERS[w].id if k % 2 else WONDERS[w].name}"})
        for v in viewers:
            got = leaks(s, v)
            assert got == _reference_leaks(s, v)
            assert len(got) == k + 1


def test_civ_26_2_leak_scan_in_pieces_finds_what_the_whole_word_scan_finds() -> None:
    """On the views of every seat and a spectator along whole games (parts shared between
    positions and viewers), with and without a log, leaks() reports what the scan of every
    string reports."""
    checked = 0
    for players, seed in ((2, 21), (4, 22)):
        s = GAME.new_game(players, seed, {"map": "standard_random"})
        assert isinstance(s, CivState)
        s.log = [] if players == 4 else None
        rng = Rng(seed)
        step = 0
        while not s.is_terminal() and step < 1500:
            seat = s.to_move()[0]
            s.apply(seat, rng.choice(s.legal_actions(seat)))
            step += 1
            if step % 25:
                continue
            for v in (None, *range(players)):
                assert leaks(s, v) == _reference_leaks(s, v)
                checked += 1
    assert checked > 100


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
