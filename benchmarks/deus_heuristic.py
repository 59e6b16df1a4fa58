"""Heuristic Deus games for speed comparisons (issue 21; not part of the tests).

``benchmarks/heuristic_games.py`` with Deus and 3 games by default::

    python benchmarks/deus_heuristic.py --games 3 --players 4 --seed 100
    python benchmarks/deus_heuristic.py --games 1 --log    # with the event log on
"""

from heuristic_games import main

if __name__ == "__main__":
    main("deus", 3, __doc__)
