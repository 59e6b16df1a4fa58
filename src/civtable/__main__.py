"""``python -m civtable …`` is the ``civtable`` command."""

import sys

from civtable.cli import main

sys.exit(main())
