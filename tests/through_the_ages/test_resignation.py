"""A resigned civilization and the player count (TTA-6.8, TTA-12.6; issue 20 item 9).

"Your civilization and all its cards are removed from the game; with 2-3 players left the game
continues as a game of 2-3 players" (rulebook; TTA-6.8): every rule that compares civilizations
("stronger", "weakest", "most culture", "the two strongest", rankings, "each player") reads the
players still in the game, and every rule that depends on the player count (the per-count
multipliers of action cards, the 2-player reading of "two strongest", the sweep, the future
decks, pacts) uses the number still in the game.
"""

from __future__ import annotations

from collections import Counter

from civtable.games.through_the_ages import scoring
from civtable.games.through_the_ages.catalog import CARDS, SWEEP, civil_deck, military_deck
from civtable.games.through_the_ages.rules import board, events, politics, row, shorter
from civtable.games.through_the_ages.state import F_RESIGNED, PH_POLITICS, TTAState

from .scenario import act, action_phase, card, politics_phase, workers


def resigned(players: int, *seats: int, mode: str = "full") -> TTAState:
    """Seat 0 in its Action Phase (round 2, Age I) with ``seats`` out of the game."""
    s = action_phase(players, mode=mode)
    for seat in seats:
        s.civs[seat].flags |= F_RESIGNED
    s._legal = None
    return s


def strengths(s: TTAState, *values: int) -> None:
    """Set each seat's strength with Warriors (1 each)."""
    for seat, v in enumerate(values):
        workers(s.civs[seat], warriors=v)
    assert [board.ratings(c)[2] for c in s.civs] == list(values)


def genghis_culture(s: TTAState, seat: int) -> int:
    """The culture ``seat`` (Genghis Khan in play, no culture rate) gets at its end of turn."""
    c = s.civs[seat]
    c.leader = card("genghis_khan")
    c.culture = 0
    s.current = seat
    s._legal = None
    assert board.ratings(c)[0] == 0
    s.apply(seat, act.END)
    return c.culture


# --- comparisons --------------------------------------------------------------------------------


def test_tta_6_8_genghis_khan_two_strongest_among_the_players_left_2_of_3() -> None:
    """Issue 20: 3 players, seat 0 resigned; the owner (1) faces one remaining opponent (5):
    with two players left "one of the two strongest" reads "the strongest" (TTA-12.6)."""
    s = resigned(3, 0)
    strengths(s, 1, 1, 5)
    assert genghis_culture(s, 1) == 0


def test_tta_6_8_genghis_khan_a_resigned_stronger_civilization_does_not_count() -> None:
    s = resigned(4, 0)
    strengths(s, 9, 3, 5, 1)  # seat 0 is out: seat 1 is second of the three left
    assert genghis_culture(s, 1) == 3


def test_tta_6_8_wave_of_nationalism_counts_players_left_and_their_table() -> None:
    """Civilizations stronger than you, times the table of the player count left (6 at two)."""
    s = resigned(3, 2)
    strengths(s, 1, 3, 0)
    c = s.civs[0]
    c.hand = [card("wave_of_nationalism")]
    s.apply(0, act.PLAY + card("wave_of_nationalism"))
    assert c.mpool == 1 * 6


def test_tta_6_8_military_build_up_counts_players_left_and_their_table() -> None:
    s = resigned(4, 3)
    strengths(s, 1, 2, 3, 0)
    c = s.civs[0]
    c.hand = [card("military_build_up")]
    s.apply(0, act.PLAY + card("military_build_up"))
    assert c.mpool == 2 * 5  # two stronger of three players left (5 each at three)


def test_tta_6_8_endowment_for_the_arts_counts_players_left_and_their_table() -> None:
    s = resigned(4, 3)
    for seat, culture in enumerate((0, 4, 7, 0)):
        s.civs[seat].culture = culture
    c = s.civs[0]
    c.hand = [card("endowment_for_the_arts")]
    s.apply(0, act.PLAY + card("endowment_for_the_arts"))
    assert c.culture == 2 * 3  # two with more culture of three players left (3 each)


def test_tta_6_8_events_read_the_players_left() -> None:
    """TTA-12.6 with two players left: "the two weakest" is the weaker; "each" skips the
    resigned seat; the weakest is the weakest still in the game."""
    s = resigned(3, 2)
    strengths(s, 2, 3, 0)
    s.phase = PH_POLITICS
    assert events._who(s, "two_weakest", {}) == [0]
    assert events._who(s, "weakest", {}) == [0]
    assert events._who(s, "each", {}) == [0, 1]
    s.civs[0].culture = s.civs[1].culture = 5
    assert events._who(s, "least_culture", {}) == [1]  # tie: the later after the current


def test_tta_15_3_world_wars_measure_from_the_weakest_player_left() -> None:
    s = resigned(3, 2)
    s.options = {**s.options, "peaceful": True, "world_wars": True}
    strengths(s, 3, 5, 0)
    s.civil_decks[1] = [s.civil_decks[1][0]]
    s.row[0] = -1
    row.refill(s)  # Age I ends
    assert [c.culture for c in s.civs] == [0, 2, 0]


def test_tta_6_8_no_pact_offers_with_two_players_left_and_no_resigned_targets() -> None:
    s = politics_phase(3, age=2)
    s.civs[2].flags |= F_RESIGNED
    strengths(s, 5, 1, 0)
    pact = card("acceptance_of_supremacy")
    s.civs[0].mhand = [pact, card("plunder_ii"), card("war_over_territory")]
    s.civs[0].ma = 4
    s._legal = None
    legal = s.legal_actions(0)
    assert not [a for a in legal if act.PACT <= a < act.CANCEL]  # TTA-6.6: 3-4 players
    attacks = [a for a in legal if act.AGGRESS <= a < act.PACT]
    assert attacks
    assert all((a - act.AGGRESS) % 4 == 1 for a in attacks)


def test_tta_11_2_a_resigned_seat_is_never_asked_to_bid() -> None:
    s = politics_phase(3, age=2)
    s.civs[1].flags |= F_RESIGNED
    strengths(s, 2, 9, 2)
    events.start_auction(s, card("wealthy_territory_i"))
    politics.advance(s)
    asked = []
    while s.actor >= 0:
        asked.append(s.actor)
        s.apply(s.actor, s.legal_actions(s.actor)[0])
    assert asked
    assert 1 not in asked


# --- the player count -----------------------------------------------------------------------------


def test_tta_6_8_resigning_trims_the_future_decks_4_to_3() -> None:
    """Issue 20: a resignation in Age II of a 4-player game: civil III keeps the 50 cards of a
    3-player game (the cards marked "4" leave the game); the current age's decks are untouched."""
    s = politics_phase(4, age=2)
    civil_ii = len(s.civil_decks[2])
    assert len(s.civil_decks[3]) == 53
    boxed = list(s.boxed)
    s.apply(0, act.RESIGN)
    assert s.current == 1
    assert len(s.civil_decks[2]) == civil_ii - SWEEP[3]  # seat 1's replenish only
    assert Counter(s.civil_decks[3]) == Counter(civil_deck(3, 3))
    assert Counter(s.mil_decks[3]) == Counter(military_deck(3, 3, False))
    assert s.boxed[3] == boxed[3] + 3


def test_tta_6_8_resigning_trims_the_future_decks_3_to_2_pacts_too() -> None:
    s = politics_phase(3, age=1)
    pacts_ii = sum(1 for c in s.mil_decks[1] if CARDS[c].type == "pact")
    s.apply(0, act.RESIGN)
    for age in (2, 3):
        assert Counter(s.civil_decks[age]) == Counter(civil_deck(age, 2))
        assert Counter(s.mil_decks[age]) == Counter(military_deck(age, 2, False))
        assert not [c for c in s.mil_decks[age] if CARDS[c].type == "pact"]
    assert sum(1 for c in s.mil_decks[1] if CARDS[c].type == "pact") == pacts_ii  # current age


def test_tta_4_4_first_player_resigned_the_round_still_starts_the_last_round() -> None:
    """The game-ending age begins during the round's first turn, the first player being out:
    that round is the last one, as when it begins during the first player's own turn."""
    s = resigned(4, 0)
    s.age = 3
    s.current = 1
    s.civil_decks[3] = [s.civil_decks[3][0]]
    s.row[0] = -1
    row.refill(s)
    assert s.age == 4
    assert s.last_round == s.round
    s = resigned(4, 0)
    s.age = 3
    s.current = 2  # a later turn of the round: the next round is the last one
    s.civil_decks[3] = [s.civil_decks[3][0]]
    s.row[0] = -1
    row.refill(s)
    assert s.last_round == s.round + 1


def test_tta_15_1_the_shorter_games_projection_leaves_out_resigned_players() -> None:
    """The result while a shorter game runs projects exactly what final scoring will give: a
    resigned player's kept event and wonders count for nobody."""
    s = resigned(3, 2, mode="shorter")
    s.faceup = [card("impact_of_colonies")]
    s.civs[0].secret = [card("impact_of_science")]
    s.civs[1].secret = []
    s.civs[2].secret = [card("impact_of_strength")]
    s.civs[2].wonders = [next(c.idx for c in CARDS if c.type == "wonder" and c.age == 2)]
    strengths(s, 2, 4, 9)
    projected = [r["impact_events"] for r in scoring.full_breakdown(s)]
    final = s.copy()
    assert shorter.final_scoring(final) == projected
    assert projected[2] == 0


def test_the_heuristic_measures_its_strength_against_players_left() -> None:
    from civtable.games.through_the_ages import heuristic

    s = resigned(3, 1)
    strengths(s, 1, 1, 1)
    base = heuristic.potential(s, 0)
    workers(s.civs[1], warriors=9)  # out of the game: no threat
    assert heuristic.potential(s, 0) == base
