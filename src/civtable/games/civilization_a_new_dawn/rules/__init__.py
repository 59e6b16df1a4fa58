"""Rules by mechanism; importing the package registers every decision and effect op."""

from civtable.games.civilization_a_new_dawn.rules import (  # noqa: F401
    culture,
    economy,
    events,
    industry,
    mapbuild,
    military,
    science,
    start,
    turn,
    victory,
)
