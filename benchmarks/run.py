"""Measure the engine's speed on one core: ``python benchmarks/run.py [--games K] [--json]``.

The measuring code lives in :mod:`civtable.sim.bench` (``civtable bench`` runs the same suite,
with fewer games by default). Any ``civtable bench`` option works here and overrides the defaults
below; see benchmarks/README.md for what is measured and how to read it.
"""

from __future__ import annotations

import sys

from civtable.cli import main

#: more games and warm-up than the quick ``civtable bench``, for steadier numbers
DEFAULTS = ["--games", "200", "--warmup", "3"]


if __name__ == "__main__":
    sys.exit(main(["bench", *DEFAULTS, *sys.argv[1:]]))
