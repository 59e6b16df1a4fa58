"""Type stub of the optional C extension built from ``_tta_fast.c``."""

from typing import Any

class Plan:
    """The vector layout and tables of one Through the Ages encoder."""

    def __init__(self, spec: dict[str, Any], /) -> None: ...
    def encode(self, encoder: Any, state: Any, seat: int, out: Any, /) -> bool:
        """Write ``seat``'s observation into ``out``; False: take the reference path."""
