"""Player words for Civilization (issue 18): ``words.render`` over random games with the log on.

Every view of every seat (and of a spectator) renders without an error; every legal action gets
a label, every log event a line, and nothing a player reads carries engine vocabulary (the
patterns of ``tests/browser/vocabulary.py``). Every log kind the rules emit has its own template
(none falls back to the generic line), plurals follow the count, and spaces are named by what a
player sees with a board reference that is unique per space.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from civtable import games, present
from civtable.bots import make_bot
from civtable.core.api import JSON
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn import words
from civtable.games.civilization_a_new_dawn.catalog import VICTORY_CARDS
from civtable.games.civilization_a_new_dawn.state import CivState
from civtable.server.civilization_a_new_dawn import catalog
from tests.browser.vocabulary import findings

GAME = games.get("civilization-a-new-dawn")
NAMES = ("Ann", "Bob", "Cyd", "Dee")
FALLBACK = present.translator("en").t("civ.log.other")


def ctx(players: int, seat: int | None) -> present.Ctx:
    return present.Ctx(present.translator("en"), names=NAMES[:players], viewer=seat)


def texts(w: JSON) -> Iterator[tuple[str, str]]:
    """Every string of a render result a player may read."""
    for key in ("prompt", "hint", "event"):
        yield key, str(w[key])
    for key in ("legal", "previews", "scores"):
        for k, text in (w.get(key) or {}).items():
            yield f"{key} {k}", text
    for key in ("log", "spaces", "refs", "dial"):
        for text in w.get(key) or []:
            yield key, text
    for row in w["slots"]:
        for text in row:
            yield "slots", text
    for u in w["unavailable"]:
        yield "unavailable", f"{u['label']}: {u['reason']}"


def random_games(
    runs: tuple[tuple[int, int, str], ...], steps: int = 1200
) -> Iterator[tuple[CivState, int]]:
    """Positions of random/heuristic games with the event log on, every few steps."""
    for players, seed, map_ in runs:
        s = GAME.new_game(players, seed, {"map": map_})
        s.log = []
        rng = Rng(seed)
        bot = make_bot("heuristic", seed)
        for step in range(steps):
            if s.is_terminal():
                break
            seat = s.to_move()[0]
            if step % 23 == 0:
                yield s, step
            acts = s.legal_actions(seat)
            s.apply(seat, bot.choose(s, seat) if rng.randbelow(3) else rng.choice(acts))
        yield s, steps


RUNS = ((2, 3, "first_game"), (3, 5, "standard_random"), (4, 7, "standard"), (2, 11, "first_game"))


@pytest.fixture(scope="module")
def rendered() -> list[tuple[CivState, JSON, JSON]]:
    """(state, view, words) for every seat and a spectator at sampled positions."""
    out = []
    for s, _ in random_games(RUNS):
        for seat in [None, *range(s.players)]:
            view = s.view(seat)
            out.append((s, view, words.render(view, ctx(s.players, seat))))
    return out


def test_every_view_renders_in_player_words(rendered: list[tuple[CivState, JSON, JSON]]) -> None:
    hits: list[str] = []
    for _, _, w in rendered:
        hits += findings(list(texts(w)))
    assert not hits, "\n".join(sorted(set(hits))[:20])


def test_every_legal_action_gets_a_label_and_every_event_a_line(
    rendered: list[tuple[CivState, JSON, JSON]],
) -> None:
    generic = present.translator("en").t("civ.act.choice")
    for _, view, w in rendered:
        assert set(w["legal"]) == {str(a["id"]) for a in view.get("legal", [])}
        assert all(label and label != generic for label in w["legal"].values()), w["legal"]
        assert len(w["log"]) == len(view.get("log") or [])
        assert all(line and line != FALLBACK for line in w["log"])
        assert w["prompt"]


def test_every_log_kind_of_the_rules_has_a_template(
    rendered: list[tuple[CivState, JSON, JSON]],
) -> None:
    kinds = {e["kind"] for s, _, _ in rendered for e in s.log or []}
    assert {"resolve", "place", "city", "dial", "attack", "combat", "event_dial"} <= kinds
    tr = present.translator("en")
    for kind in kinds:
        assert any(k == f"civ.log.{kind}" or k.startswith(f"civ.log.{kind}.") for k in _keys(tr))


def _keys(tr: present.Translator) -> list[str]:
    from civtable.present.i18n import catalog as cat

    return list(cat(tr.lang).messages)


#: one made-up event of every kind the rules emit (rules/*.py ``C.log``), for kinds random games
#: rarely reach
SAMPLES: tuple[JSON, ...] = (
    {"kind": "resolve", "player": 0, "card": "pottery", "slot": 3},
    {"kind": "spend", "player": 1, "card": "currency", "n": 1},
    {"kind": "dial", "player": 0, "space": 7, "by": 4},
    {"kind": "upgrade", "player": 0, "card": "currency", "old": "foreign_trade"},
    {"kind": "place", "player": 0, "space": 3},
    {"kind": "resource", "player": 0, "resource": 2, "space": 3},
    {"kind": "resource", "player": 0, "resource": 1},
    {"kind": "natural_wonder", "player": 0, "natural_wonder": "mt_everest", "space": 4},
    {"kind": "natural_wonder", "player": 1, "natural_wonder": "pantanal", "space": 4, "victim": 0},
    {"kind": "city", "player": 1, "space": 9},
    {"kind": "wonder", "player": 1, "wonder": "petra", "space": 9},
    {"kind": "wonder_revealed", "deck": 3, "wonder": "alhambra"},
    {"kind": "wonder_revealed", "deck": 0, "wonder": None},
    {"kind": "wonder_pay", "player": 1, "wonder": "petra", "resource": 2},
    {"kind": "wonder_pay", "player": 1, "wonder": "petra", "natural_wonder": "mt_everest"},
    {"kind": "wonder_moved", "player": 1, "wonder": "petra", "space": 9},
    {
        "kind": "attack",
        "player": 0,
        "space": 9,
        "target": 3,
        "defender": 1,
        "attacker_die": 5,
        "defender_die": 2,
        "attack": 9,
        "defence": 6,
    },
    {
        "kind": "combat",
        "player": 0,
        "space": 9,
        "target": 3,
        "defender": 1,
        "attack": 9,
        "defence": 6,
        "won": 1,
    },
    {"kind": "combat_spend", "player": 1, "n": 2, "defending": 1},
    {"kind": "barbarian_defeated", "player": 0, "barbarian": "C", "space": 5},
    {"kind": "barbarian_removed", "player": 0, "barbarian": "C", "space": 5},
    {"kind": "token_taken", "player": 0, "space": 5, "victim": 1},
    {"kind": "destroy_token", "player": 0, "space": 5, "victim": 1},
    {"kind": "capital_won", "player": 0, "space": 5, "victim": 1},
    {"kind": "city_taken", "player": 0, "space": 5, "victim": 1, "wonder": "petra"},
    {"kind": "conquer", "player": 0, "city_state": "kumasi", "space": 5},
    {"kind": "liberate", "player": 0, "city_state": "kumasi", "space": 5, "victim": 1},
    {"kind": "raid", "player": 0, "victim": 1, "card": "masonry"},
    {"kind": "move_token", "player": 0, "source": 4, "space": 5},
    {"kind": "convert", "player": 0, "space": 5, "victim": 1, "flipped": 0},
    {"kind": "convert", "player": 0, "space": 5, "victim": 1, "flipped": 1},
    {"kind": "nuke", "player": 0, "space": 5, "destroyed": 3, "flipped": 1},
    {"kind": "reinforce", "player": 0, "space": 5},
    {"kind": "caravan", "player": 0, "space": 5},
    {"kind": "reclaim", "player": 0, "space": 5},
    {"kind": "visit", "player": 0, "city_state": "kumasi", "card": "early_empire", "n": 2},
    {"kind": "visit", "player": 0, "rival": 1, "n": 2, "capital": 1},
    {"kind": "visit", "player": 0, "rival": 1, "n": 2, "capital": 0},
    {"kind": "diplomacy", "player": 0, "giver": 1, "card": "joint_war"},
    {"kind": "return_card", "player": 0, "giver": 1, "card": "embassy"},
    {"kind": "potala", "player": 0, "giver": 1, "card": "open_borders"},
    {"kind": "geneva", "player": 0, "giver": 1, "returned": "embassy", "card": "joint_war"},
    {"kind": "embassy", "player": 0, "giver": 1, "card": "masonry"},
    {"kind": "exchange", "player": 0, "resource": 0},
    {"kind": "cs_card", "player": 0, "city_state": "geneva"},
    {"kind": "trade_token", "player": 0, "card": "currency"},
    {"kind": "trade_token", "player": 0, "wonder": "great_zimbabwe"},
    {"kind": "gz_move", "player": 0, "card": "currency"},
    {"kind": "discard", "player": 0, "card": "currency"},
    {"kind": "america", "player": 0, "natural_wonder": "pantanal", "card": "currency"},
    {"kind": "swap", "player": 0, "a": "currency", "b": "masonry"},
    {"kind": "event_dial", "section": 1, "icon": ""},
    {"kind": "event_dial", "section": 3, "icon": "trade"},
    {"kind": "barbarian_direction", "direction": 4},
    {"kind": "spawn", "barbarian": "A", "space": 2},
    {"kind": "barbarian_move", "barbarian": "A", "space": 2, "source": 3},
    {"kind": "barbarian_stays", "barbarian": "A", "space": 2},
    {"kind": "barbarian_blocked", "barbarian": "A", "space": 2, "victim": 1},
    {"kind": "barbarian_token", "barbarian": "A", "space": 2, "victim": 1},
    {"kind": "barbarian_city", "barbarian": "A", "space": 2, "victim": 1},
    {"kind": "barbarian_capital", "barbarian": "A", "victim": 1, "n": 2},
    {"kind": "barbarian_capital", "barbarian": "A", "victim": 1, "n": 0},
    {"kind": "caravan_destroyed", "player": 1, "space": 2},
    {"kind": "trade_event", "player": 1, "n": 2},
    {"kind": "trade_event", "player": 1, "n": 0},
    {"kind": "start_effect", "player": 1, "effect": 4},
    {"kind": "seoul", "player": 1, "barbarian": "B", "source": 3, "space": 4},
    {"kind": "eiffel", "player": 1, "victim": 0, "space": 4},
    {"kind": "agenda", "player": 1, "card": "v2", "agenda": 1},
    {"kind": "game_over", "winners": [0]},
    {"kind": "game_over", "winners": [0, 1]},
    {"kind": "game_over", "winners": [], "unfinished": 1},
    {"kind": "tile", "player": 0, "tile": 5, "side": 1, "rotation": 2},
    {"kind": "tile_discarded", "player": 0, "tile": 5},
)


def test_every_event_kind_renders_a_line_of_its_own() -> None:
    s = GAME.new_game(2, 1, {})
    view = s.view(0)
    view["log"] = list(SAMPLES)
    w = words.render(view, ctx(2, 0))
    assert FALLBACK not in w["log"]
    assert not findings([("log", line) for line in w["log"]])
    by_kind = dict(zip((e["kind"] for e in SAMPLES), w["log"], strict=False))
    assert by_kind["resolve"].startswith("Ann resolves Pottery from slot 3")
    line = w["log"][SAMPLES.index(next(e for e in SAMPLES if e["kind"] == "attack"))]
    assert "Bob's city" in line  # who and what
    assert "Dice: 5 for the attack, 2 for the defence" in line


def test_plurals_follow_the_count() -> None:
    s = GAME.new_game(2, 1, {})
    view = s.view(0)
    view["log"] = [
        {"kind": "spend", "player": 0, "card": "currency", "n": 1},
        {"kind": "spend", "player": 0, "card": "currency", "n": 2},
        {"kind": "trade_event", "player": 1, "n": 1},
        {"kind": "trade_event", "player": 1, "n": 5},
    ]
    log = words.render(view, ctx(2, 0))["log"]
    assert "spends 1 trade token from Currency" in log[0]
    assert "spends 2 trade tokens from Currency" in log[1]
    assert "gains 1 trade token (1 mature city)" in log[2]
    assert "gains 5 trade tokens (5 mature cities)" in log[3]


def test_spaces_are_named_by_what_is_printed_with_a_unique_board_reference() -> None:
    s = GAME.new_game(4, 3, {})
    view = s.view(None)
    w = words.render(view, ctx(4, None))
    refs, spaces = w["refs"], view["map"]["spaces"]
    assert len(set(refs)) == len(refs) == len(spaces)
    letters = {letter for _, letter in w["rows"]}
    assert not letters & {"I", "O", "P"}  # read as 1, 0 or a player
    for sp, name, ref in zip(spaces, w["spaces"], refs, strict=True):
        assert name.endswith((ref, f"({ref})"))
        if sp.get("city_state"):
            assert name.startswith(catalog()["city_states"][sp["city_state"]]["name"])
        elif not sp.get("natural_wonder"):
            assert name.startswith(present.translator("en").t(f"civ.terrain.{sp['terrain']}"))
    # the row letter and the position from the row's left end
    row_of = dict(w["rows"])
    for sp, ref in zip(spaces, refs, strict=True):
        first = min(x["q"] for x in spaces if x["r"] == sp["r"])
        assert ref == f"{row_of[sp['r']]}{sp['q'] - first + 1}"


def test_civ_6_card_texts_and_agendas_in_player_words() -> None:
    cat = catalog()
    found: list[tuple[str, str]] = []
    for cid, card in cat["focus_cards"].items():
        found.append((cid, card["text"]))
        found += [(cid, t) for t in card["slots"].values()]
    for v in VICTORY_CARDS:
        found += [(v.id, a["text"]) for a in cat["victory_cards"][v.id]]
    assert not findings(found)
    # the cards the issue names: full texts, every slot's numbers
    assert "Build a city" in cat["focus_cards"]["pottery"]["slots"]["3"]
    assert "difficulty 3" in cat["focus_cards"]["pottery"]["slots"]["3"]
    assert "3 spaces" in cat["focus_cards"]["foreign_trade"]["slots"]["1"]
    assert "Reinforce up to 4" in cat["focus_cards"]["masonry"]["slots"]["4"]
    assert "production 7" in cat["focus_cards"]["nationalism"]["slots"]["5"] or (
        "7 production" in cat["focus_cards"]["nationalism"]["slots"]["5"]
    )
    assert cat["victory_cards"]["v4"][0]["text"] == "Bring your tech dial to 24, its last number."


@pytest.mark.parametrize(("attack", "defence", "chance"), [(5, 5, 15), (9, 2, 36), (2, 9, 0)])
def test_civ_14_7_win_chance_ties_go_to_the_defender(
    attack: int, defence: int, chance: int
) -> None:
    assert round(words.win_chance(attack, defence) * 36) == chance


def test_attack_previews_say_the_values_and_the_chance(
    rendered: list[tuple[CivState, JSON, JSON]],
) -> None:
    seen = 0
    for _, view, w in rendered:
        if view.get("seat") is None or "attacks" not in (view.get("facts") or {}):
            continue
        for space, fa in view["facts"]["attacks"].items():
            text = w["previews"][str(78 + int(space))]  # SPACE + space (actions.py)
            assert f"{fa['attack']} against {fa['defence']}" in text
            assert "%" in text
            seen += 1
    assert seen, "no attack decision reached"


def test_words_never_read_more_than_the_view() -> None:
    """The spectator's words equal a player's words but for the decision (CIV-26.2)."""
    s = GAME.new_game(3, 2, {})
    s.log = []
    seat = s.to_move()[0]
    mine = words.render(s.view(seat), ctx(3, seat))
    theirs = words.render(s.view(None), ctx(3, None))
    assert mine["log"] == theirs["log"]
    assert mine["spaces"] == theirs["spaces"]
    assert theirs["legal"] == {}
    assert mine["legal"]


def test_every_catalogue_key_the_table_names_exists() -> None:
    """civ.js asks the catalogue for its words (t/tn): every literal key is in the PO file, and
    every key with a variable part exists for each value the table gives it."""
    import re
    from importlib import resources

    js = (resources.files("civtable") / "web" / "static" / "js" / "civ.js").read_text()
    tr = present.translator("en")
    literal = set(re.findall(r"\btn?\(\s*\"((?:civ|ui|status|prompt|player)\.[a-z0-9_.-]+)\"", js))
    assert len(literal) > 60
    assert not [k for k in literal if not k.endswith(".") and not tr.has(k)]
    variants = {
        "civ.type": ("culture", "science", "economy", "industry", "military"),
        "civ.terrain": ("grassland", "hills", "forest", "desert", "mountains", "water"),
        "civ.resource": ("marble", "mercury", "oil", "diamond"),
        "civ.era": ("ancient", "medieval", "modern"),
        "civ.direction": ("E", "SE", "SW", "W", "NW", "NE"),
        "civ.trade_effect": ("culture", "science", "economy", "industry", "military"),
    }
    for prefix in set(re.findall(r"`(civ\.[a-z_]+)\.\$\{", js)) | set(
        re.findall(r"\"(civ\.[a-z_]+)\.\" \+", js)
    ):
        assert prefix in variants, prefix
        assert all(tr.has(f"{prefix}.{x}") for x in variants[prefix])
