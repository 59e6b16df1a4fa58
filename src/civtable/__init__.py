"""civtable: engines and a play platform for civilization board games.

>>> from civtable import games
>>> state = games.get("seven-wonders").new_game(players=3, seed=1)
>>> sorted(state.to_move())
[0, 1, 2]
"""

__version__ = "0.1.0"

# The opt-in compiled build of the rules (CIVTABLE_COMPILED=1, `make compiled`): decided here,
# before any rules module is imported. Without the variable this only reads the environment.
from civtable.compiled import enable_from_environment as _enable_compiled

_enable_compiled()
