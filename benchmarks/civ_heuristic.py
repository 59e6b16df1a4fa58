"""Heuristic Civilization: A New Dawn games for speed comparisons (issue 21; not part of the tests).

``benchmarks/heuristic_games.py`` with Civilization and 2 games by default::

    python benchmarks/civ_heuristic.py --games 2 --players 4 --seed 100
"""

from heuristic_games import main

if __name__ == "__main__":
    main("civilization-a-new-dawn", 2, __doc__)
