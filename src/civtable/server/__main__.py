"""``python -m civtable.server``: same as ``civtable serve``."""

import sys

from civtable.server.cli import main

sys.exit(main())
