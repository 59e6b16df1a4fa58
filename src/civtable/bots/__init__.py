"""Bots that play any civtable game through the core API."""

from civtable.bots import heuristic as _heuristic  # noqa: F401  (registers "heuristic")
from civtable.bots import ismcts as _ismcts  # noqa: F401  (registers "ismcts")
from civtable.bots import random_bot as _random_bot  # noqa: F401  (registers "random")
from civtable.bots.base import Bot, UnknownBotError, bot_names, make_bot, register
from civtable.bots.levels import LEVELS, BotLimitError, BotLimits

__all__ = [
    "LEVELS",
    "Bot",
    "BotLimitError",
    "BotLimits",
    "UnknownBotError",
    "bot_names",
    "make_bot",
    "register",
]
