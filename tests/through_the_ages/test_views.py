"""View leak tests: military hands, deck orders and current events stay hidden (TTA-3.3:
civil hands are public)."""

from __future__ import annotations

import json

from civtable.core.rng import Rng
from civtable.games.through_the_ages import GAME
from civtable.games.through_the_ages.catalog import CARDS

from .test_properties import play


def _mid_game(players: int = 3, seed: int = 4):  # type: ignore[no-untyped-def]
    s = GAME.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(2000):
        if sum(len(c.mhand) > 0 for c in s.civs) >= 2 and s.age == 1:
            break
        play(s, rng, limit=1)
    assert not s.is_terminal()
    assert any(c.mhand for c in s.civs)
    return s


def test_tta_view_hides_other_military_hands() -> None:
    s = _mid_game()
    for seat in range(s.players):
        v = s.view(seat)
        assert v["military_hand"] == [CARDS[c].id for c in s.civs[seat].mhand]
        text = json.dumps({k: val for k, val in v.items() if k != "military_hand"})
        for other in range(s.players):
            assert v["civs"][other]["military_hand_size"] == len(s.civs[other].mhand)
        assert "mhand" not in text
    spectator = s.view(None)
    assert "military_hand" not in spectator
    assert "legal" not in spectator


def test_tta_view_shows_only_deck_sizes() -> None:
    s = _mid_game()
    v = json.dumps(s.view(None))
    assert "civil_decks" not in v
    assert "mil_decks" not in v
    assert s.view(None)["current_events"] == len(s.events)
    # no card id of the (hidden) decks can be inferred from the spectator view beyond the public
    public = set(s.view(None)["row"])
    for c in s.civs:
        public.update(CARDS[x].id for x in c.hand)
    view_text = json.dumps(s.view(None))
    for deck in s.mil_decks:
        for x in deck:
            cid = CARDS[x].id
            if cid not in public and f'"{cid}"' in view_text:
                raise AssertionError(f"military card {cid} leaked")


def test_tta_view_civil_hands_are_public() -> None:
    s = _mid_game()
    v = s.view(None)
    for seat, c in enumerate(s.civs):
        assert v["civs"][seat]["hand"] == [CARDS[x].id for x in c.hand]


def test_determinize_keeps_what_the_seat_sees() -> None:
    s = _mid_game()
    for seat in range(s.players):
        d = s.determinize(seat, Rng(seat))
        assert d.view(seat) == s.view(seat)
        assert d.civs[seat].mhand == s.civs[seat].mhand
        for o in range(s.players):
            assert len(d.civs[o].mhand) == len(s.civs[o].mhand)
        assert [len(x) for x in d.mil_decks] == [len(x) for x in s.mil_decks]


def test_determinize_redeals_hidden_cards() -> None:
    s = _mid_game(4, 8)
    seen = {tuple(s.determinize(0, Rng(i)).mil_decks[s.age]) for i in range(5)}
    assert len(seen) > 1
    d = s.determinize(0, Rng(1))
    age = s.age

    def unseen(x: object) -> list[int]:
        return sorted(
            x.mil_decks[age]  # type: ignore[attr-defined]
            + x.mil_discards[age]  # type: ignore[attr-defined]
            + [c for o in x.civs[1:] for c in o.mhand]  # type: ignore[attr-defined]
        )

    assert unseen(d) == unseen(s)
    assert len(d.mil_discards[age]) == len(s.mil_discards[age])
