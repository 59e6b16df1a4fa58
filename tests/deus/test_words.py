"""Deus in player words (``games/deus/words.py``): every log kind the rules emit, every legal
action of random positions, card and god texts, previews that match what the rules then do, and
the catalogue keys of the table and the lobby's variants."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from civtable import games, present
from civtable.core.rng import Rng
from civtable.games.deus import GAME, words
from civtable.games.deus import actions as act
from civtable.games.deus.catalog import CARDS, COLORS, GODS, PIECES, RESOURCES
from civtable.games.deus.rules import construct, effects
from civtable.games.deus.state import MAIN, OFFERING, DeusState
from civtable.games.deus.view import build_block
from tests.browser.vocabulary import findings

from .scenario import hand, new, put, region

RULES = Path(words.__file__).parent / "rules"
NAMES = ("Ann", "Bob", "Cid", "Dora")
#: every kind of log entry the Deus rules write (a kind added to the rules must be added here
#: and to words.log_line; the test below reads the rules' source to be sure)
LOG_KINDS = {
    "activate",
    "attack",
    "build",
    "buy",
    "draw",
    "end_trigger",
    "game_over",
    "gain",
    "idle",
    "lab",
    "move",
    "offer",
    "pass",
    "pay",
    "produce",
    "round",
    "sell",
    "siege",
    "start_pieces",
    "steal",
    "take",
}


def ctx(seat: int | None, players: int, lang: str = "en") -> present.Ctx:
    return present.Ctx(present.translator(lang), NAMES[:players], seat)


def strings(doc: Any) -> list[str]:
    if isinstance(doc, str):
        return [doc]
    if isinstance(doc, dict):
        return [x for v in doc.values() for x in strings(v)]
    if isinstance(doc, list):
        return [x for v in doc for x in strings(v)]
    return []


def clean(texts: list[str], where: str) -> None:
    hits = findings([(where, t) for t in texts])
    assert not hits, "\n".join(hits[:10])
    leftovers = [t for t in texts if re.search(r"\{[a-z_]+\}|deus\.[a-z_]+\.", t)]
    assert not leftovers, leftovers[:5]


def random_game(
    players: int, seed: int, options: dict[str, Any], every: int = 3
) -> list[DeusState]:
    """Positions of one random game with the log on (every ``every``-th decision and the
    end)."""
    s = GAME.new_game(players, seed, options)
    s.log = []
    rng = Rng(seed)
    out = []
    n = 0
    while not s.is_terminal() and n < 2500:
        if n % every == 0:
            out.append(s.copy())
        seat = s.to_move()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
        n += 1
    out.append(s)
    return out


GAMES = [
    (2, 1, {}),
    (3, 2, {"blind_building": True}),
    (4, 3, {"free_start": 8, "board": "random"}),
    (3, 4, {"free_start": 10, "blind_building": True, "public_vp": True}),
]


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_deus_words_every_view_of_random_games_in_player_words(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """Every view of every seat (and a spectator's) renders: a label for every legal action, a
    line for every log entry, a prompt; no engine vocabulary, no placeholder left."""
    kinds: set[str] = set()
    for s in random_game(players, seed, options, every=29):
        for seat in [*range(players), None]:
            v = s.view(seat)
            w = present.render("deus", v, ctx(seat, players))
            assert set(w["legal"]) == {str(a["id"]) for a in v.get("legal", [])}
            assert all(w["legal"].values())
            assert len(w["log"]) == len(v["log"])
            assert w["prompt"]
            assert len(w["places"]) == len(v["regions"])
            clean(strings(w), f"seat {seat}")
        kinds |= {e["kind"] for e in s.log or []}
    assert kinds <= LOG_KINDS
    assert {"build", "offer", "pay", "activate", "gain", "round", "game_over"} <= kinds


def log_samples() -> list[dict[str, Any]]:
    """One or more sample entries of every log kind (the arguments the rules write)."""
    return [
        {"kind": "pay", "player": 0, "card": "BRN-01", "res": [1, 0, 0, 0], "gold": 4},
        {"kind": "pay", "player": 0, "card": None, "res": [0, 0, 0, 0], "gold": 2},
        {"kind": "build", "player": 1, "card": "RED-01", "color": 3, "region": 3, "edge": True},
        {"kind": "build", "player": 1, "card": None, "color": 2, "region": 1, "edge": False},
        {"kind": "build", "player": 1, "card": "PUR-01", "color": 5, "region": 3, "edge": False},
        {"kind": "build", "player": 1, "card": "PUR-01", "color": 5, "region": None},
        {"kind": "activate", "player": 0, "color": 0, "cards": 1},
        {"kind": "gain", "player": 0, "card": "BRN-01", "item": 4, "n": 2, "wanted": 2},
        {"kind": "gain", "player": 0, "card": "GRN-02", "item": 3, "n": 1, "wanted": 4},
        {"kind": "gain", "player": 0, "card": "GRN-02", "item": 3, "n": 0, "wanted": 4},
        {"kind": "gain", "player": 0, "card": "YEL-01", "item": 6, "n": 3, "wanted": 3},
        {"kind": "gain", "player": 0, "card": "YEL-11", "item": 7, "n": 2, "wanted": 2},
        {"kind": "take", "player": 0, "res": 2, "n": 1},
        {"kind": "take", "player": 0, "piece": 3, "n": 2},
        {"kind": "produce", "player": 0, "card": "GRN-06", "region": 3, "res": 0, "n": 2},
        {"kind": "sell", "player": 0, "card": "BLU-09", "lots": 2, "gold": 0, "vp": 6},
        {"kind": "sell", "player": 0, "card": "BLU-01", "lots": 0, "gold": 0, "vp": 0},
        {"kind": "buy", "player": 0, "card": "BLU-13", "res": 1, "gold": 1},
        {"kind": "lab", "player": 0, "card": "YEL-07", "target": "BLU-01"},
        {"kind": "steal", "player": 0, "card": "RED-01", "region": 3, "item": 5, "taken": [[1, 2]]},
        {"kind": "steal", "player": 0, "card": "RED-04", "region": 3, "item": 4, "taken": []},
        {"kind": "siege", "player": 0, "card": "RED-06", "village": 0, "vp": 2},
        {"kind": "move", "player": 0, "card": "RED-02", "origin": 3, "region": 4},
        {"kind": "move", "player": 0, "card": "RED-03", "origin": 3, "region": 3},
        {"kind": "idle", "player": 0, "card": "YEL-10"},
        {"kind": "attack", "village": 0, "winners": [0], "vp": 6, "total": 6, "armies": [1, 0]},
        {"kind": "attack", "village": 0, "winners": [0, 1], "vp": 2, "total": 5, "armies": [1, 1]},
        {"kind": "end_trigger", "cause": "temples", "final_round": 9},
        {"kind": "end_trigger", "cause": "villages", "final_round": 9},
        {"kind": "round", "final": False},
        {"kind": "round", "final": True},
        {"kind": "game_over"},
        {"kind": "draw", "player": 1, "n": 5},
        {"kind": "pass", "player": 1},
        {"kind": "offer", "player": 0, "god": 3, "top": "RED-01", "cards": 2, "gold": 0, "vp": 2}
        | {"piece": 3, "drawn": 2},
        {"kind": "start_pieces", "player": 0, "pieces": [2, 2, 2, 2, 0]},
    ]


def test_deus_words_every_log_kind_of_the_rules_is_known_and_rendered() -> None:
    """The kinds written by the rules (read from their source) are exactly LOG_KINDS, and each
    renders in player words, with and without a view."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in RULES.glob("*.py"))
    written = set(re.findall(r'event\(\s*(?:state|s),\s*"([a-z_]+)"', source))
    assert written == LOG_KINDS
    s = new(2)
    v = s.view(0)
    samples = log_samples()
    assert {e["kind"] for e in samples} == LOG_KINDS
    for e in samples:
        e = {"round": 4, **e}
        for view in (v, None):
            line = words.log_line(view, e, ctx(0, 2))
            assert line, e
            assert line != ctx(0, 2).t("deus.log.unknown"), e
            clean([line], e["kind"])
            if "player" in e:
                assert NAMES[e["player"]] in line  # names as typed


def test_deus_words_log_names_places_as_the_board_shows_them() -> None:
    """A region is "Forest 13": its terrain and the number drawn on it (index + 1)."""
    s = new(2)
    v = s.view(0)
    r = region(s, "S0.NW")  # a forest of REF2
    e = {"round": 1, "kind": "build", "player": 0, "card": "BRN-01", "color": 0, "region": r}
    line = words.log_line(v, e, ctx(0, 2))
    built = "Ann constructs Lumberjacks' Guild and places a civil building on"
    assert line == f"{built} Forest {r + 1}."


@pytest.mark.parametrize(
    ("n", "text"),
    [(1, "Ann offers 1 card to Mars (Centurion on top): 1 VP."), (2, "Ann offers 2 cards")],
)
def test_deus_words_plurals(n: int, text: str) -> None:
    e = {"kind": "offer", "player": 0, "god": 3, "top": "RED-01", "cards": n, "gold": 0}
    line = words.log_line(None, {**e, "vp": n, "piece": -1, "drawn": 0}, ctx(0, 2))
    assert line.startswith(text)
    tr = present.translator("en")
    assert words.gold(1, tr) == "1 gold"
    assert words.vp(5, tr) == "5 VP"
    assert words.pieces(PIECES.index("army"), 1, tr) == "1 army"
    assert words.pieces(PIECES.index("army"), 3, tr) == "3 armies"
    assert ctx(0, 2).tn("deus.offer.draw", 1) == "1 card drawn"
    assert ctx(0, 2).tn("deus.offer.draw", 21) == "21 cards drawn"


def test_deus_12_to_17_every_card_and_god_has_a_full_text() -> None:
    """Card texts are made from the card data: no rule id, no "(N)", no engine word."""
    tr = present.translator("en")
    texts = [words.effect_text(c, tr) for c in CARDS] + [words.god_text(g.color, tr) for g in GODS]
    clean(texts, "card texts")
    assert all(t.endswith(".") and len(t) > 20 for t in texts)
    assert not any("(N" in t or "2N" in t or "Placeholder" in t for t in texts)
    assert words.effect_text(CARDS[0], tr) == "Gain 1 VP for each forest you occupy."


@pytest.mark.parametrize(("players", "seed", "options"), GAMES[:2])
def test_deus_11_card_counters_on_the_view_match_the_rules(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """What a table card "would give now" is counted on the public view exactly as the rules
    count it (DEUS-11.3, 11.4, 14.3, 16.7, 17)."""
    for s in random_game(players, seed, options, every=23):
        v = s.view(None)
        for seat in range(players):
            for c in CARDS:
                if c.effect.per is None:
                    continue
                assert words.count(v, seat, c.effect.per) == effects.count(s, seat, c.effect.per)


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 6), (4, 7)])
def test_deus_10_offering_preview_is_what_the_offering_gives(players: int, seed: int) -> None:
    """DEUS-10.3 .. 10.5: the preview of offering one card, then of adding one more, equals the
    gold, VP, piece back, resources/pieces to choose and cards drawn the rules then give."""
    checked = 0
    for s in random_game(players, seed, {}, every=5):
        if s.phase != MAIN or len(s.hands[s.cur]) < 2:
            continue
        seat = s.cur
        v = s.view(seat)
        t = s.hands[seat][0]
        extra = s.hands[seat][1]
        for n, steps in ((1, [act.OFFER + t]), (2, [act.OFFER + t, act.ADD + extra])):
            o = words.offering_outcome(v, CARDS[t].color, n, len(s.hands[seat]) - n)
            after = s.copy()
            for a in steps:
                after.apply(seat, a)
            if after.phase == OFFERING:  # finish it
                after.apply(seat, act.DONE)
            assert after.gold[seat] - s.gold[seat] == o["gold"]
            assert after.vp[seat] - s.vp[seat] == o["vp"]
            drawn = len(after.hands[seat]) - (len(s.hands[seat]) - n)
            assert drawn == o["drawn"]
            moved = [after.onboard[seat][p] - s.onboard[seat][p] for p in range(len(PIECES))]
            if o["piece"] >= 0:
                assert moved[o["piece"]] >= 1
            if o["resources"] or o["pieces"]:
                p = after.view(seat).get("pending") or {}
                res_left = int(p.get("resources_left", 0))
                res_got = sum(after.res[seat]) - sum(s.res[seat])
                assert res_got + res_left == o["resources"]
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize(("players", "seed"), [(2, 8), (3, 9)])
def test_deus_7_reasons_name_why_a_card_cannot_be_constructed(players: int, seed: int) -> None:
    """DEUS-7.1 .. 7.4, DEUS-8.2 .. 8.5: a card of the hand has a reason exactly when it cannot
    be constructed, and the reason is the first check it fails."""
    seen: set[str] = set()
    for s in random_game(players, seed, {}, every=4):
        if s.phase != MAIN:
            continue
        seat = s.cur
        v = s.view(seat)
        w = present.render("deus", v, ctx(seat, players))
        for t in set(s.hands[seat]):
            cid = CARDS[t].id
            assert (cid in v["cannot_build"]) == (not construct.can_construct(s, seat, t))
            assert (cid in w["reasons"]) == (cid in v["cannot_build"])
            if cid in v["cannot_build"]:
                assert v["cannot_build"][cid] == build_block(s, seat, t)
                seen.add(v["cannot_build"][cid])
        assert all(v2.endswith(".") for v2 in w["reasons"].values())
    assert seen
    assert seen <= {"temple_columns", "temple_region", "piece", "cost", "region"}


def test_deus_7_3_reason_cost_and_7_1_reason_piece() -> None:
    s = new(2)
    hand(s, 0, "BRN-15", "RED-01")  # Triumphal Arch: 2 stone
    s.res[0] = [0, 0, 0, 0]
    s.gold[0] = 7  # two stone missing: 8 gold would be needed
    s.onboard[0][PIECES.index("army")] = 0
    s._legal.clear()
    v = s.view(0)
    assert v["cannot_build"] == {"BRN-15": "cost", "RED-01": "piece"}
    w = present.render("deus", v, ctx(0, 2))
    cost = "Costs 2 stone: not enough resources, nor 4 gold for each one missing."
    assert w["reasons"]["BRN-15"] == cost
    assert w["reasons"]["RED-01"].startswith("No army on your player board (an offering to Mars")


def test_deus_words_prompt_and_labels_of_a_construction() -> None:
    """The steps of a construction speak of the card, the payment and the region by name."""
    s = new(2)
    s.log = []
    hand(s, 0, "BRN-01")
    s.res[0] = [0, 1, 1, 1]  # no wood: the wood of the cost is paid with 4 gold
    s._legal.clear()
    s.apply(0, act.BUILD + CARDS.index(words.card("BRN-01")))
    v = s.view(0)
    w = present.render("deus", v, ctx(0, 2))
    assert w["prompt"] == "Where does the civil building of Lumberjacks' Guild go?"
    assert all(re.fullmatch(r"(Field|Forest|Swamp|Mountain) \d+", x) for x in w["legal"].values())
    assert "4 gold" in w["log"][-1]


def test_deus_words_region_descriptions() -> None:
    s = new(2)
    put(s, 1, "S0.NW", "army", "civ")
    v = s.view(0)
    text = words.region_text(v, region(s, "S0.NW"), ctx(0, 2))
    assert text.startswith(f"Forest {region(s, 'S0.NW') + 1} · produces wood · Bob: ")
    assert "army" in text
    assert "civil building" in text
    village = words.region_text(v, region(s, "S0.C"), ctx(0, 2))
    assert "barbarian village with 6 VP" in village


def test_deus_21_variants_have_names_and_descriptions_in_the_catalogue() -> None:
    """Every preset the lobby offers is a valid set of options with a name and a help text."""
    tr = present.translator("en")
    game = games.get("deus")
    assert set(game.option_presets) >= {"standard", "free-start", "blind-building"}
    for name, options in game.option_presets.items():
        game.new_game(2, 1, options)
        assert tr.has(f"deus.preset.{name}")
        assert tr.has(f"deus.preset.{name}.help")
        clean([tr.t(f"deus.preset.{name}"), tr.t(f"deus.preset.{name}.help")], name)


def test_deus_catalogue_keys_used_by_the_table_exist() -> None:
    """Every ``t("deus.…")`` / ``tn("deus.…")`` key of deus.js is in the catalogue (keys built
    from a colour, resource, piece or terrain are checked for each value)."""
    js = (Path(words.__file__).parents[2] / "web/static/js/deus.js").read_text(encoding="utf-8")
    tr = present.translator("en")
    for key in set(re.findall(r't[n]?\("((?:deus|ui|player)\.[a-z_.]+)"', js)):
        assert tr.has(key), key
    values = {
        "color": COLORS,
        "column": COLORS,
        "res": RESOURCES,
        "n": RESOURCES,
        "piece": (*PIECES, "temple"),
        "n.piece": PIECES,
        "ui.letter": (*PIECES, "temple"),
        "terrain": ("field", "forest", "swamp", "mountain", "sea", "village"),
    }
    for prefix in set(re.findall(r"t[n]?\(`deus\.([a-z.]+)\.\$\{", js)):
        for x in values[prefix]:
            assert tr.has(f"deus.{prefix}.{x}"), f"deus.{prefix}.{x}"


def test_deus_server_catalogue_texts_are_player_words() -> None:
    from civtable.server.deus import catalog

    doc = catalog("en")
    clean(
        [c["name"] for c in doc["cards"].values()]
        + [c["text"] for c in doc["cards"].values()]
        + [c["cost_text"] for c in doc["cards"].values()]
        + [g["text"] for g in doc["gods"].values()],
        "catalogue",
    )
    assert "rule" not in doc["cards"]["BRN-01"]
    with pytest.raises(present.UnknownLanguageError):
        catalog("xx")
