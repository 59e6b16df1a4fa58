"""``python -m civtable.rl ...``: the ``civtable`` command line with the RL bots registered.

Same commands and options as ``civtable`` (``simulate``, ``tournament``, ...), plus the bot spec
``sb3:<path>`` (a saved sb3-contrib ``MaskablePPO`` model, see :mod:`civtable.rl.policy_bot`).
"""

from __future__ import annotations

import sys

from civtable.cli import main
from civtable.rl import policy_bot  # noqa: F401  (registers the sb3:<path> bot)

if __name__ == "__main__":
    sys.exit(main())
