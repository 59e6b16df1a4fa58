"""civtable: engines and a play platform for civilization board games.

>>> from civtable import games
>>> state = games.get("seven-wonders").new_game(players=3, seed=1)
>>> sorted(state.to_move())
[0, 1, 2]
"""

__version__ = "0.1.0"
