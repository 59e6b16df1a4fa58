"""The uniform random bot."""

from __future__ import annotations


def test_the_random_bot_concedes_only_when_nothing_else_is_legal() -> None:
    """Through the Ages' resignation (TTA-6.8) is a concede action: random games stay whole."""
    from civtable import games
    from civtable.bots import make_bot
    from civtable.games.through_the_ages.actions import RESIGN

    game = games.get("through-the-ages")
    assert RESIGN in game.concede_actions
    bot = make_bot("random", 3)
    state = game.new_game(3, 2)
    seen_resign = False
    while not state.is_terminal():
        seat = state.to_move()[0]
        seen_resign |= RESIGN in state.legal_actions(seat)
        action = bot.choose(state, seat)
        assert action != RESIGN
        state.apply(seat, action)
    assert seen_resign
    assert state.age == 4  # a whole full game
