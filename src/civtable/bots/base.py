"""The bot contract and the bot registry.

A bot picks an action for one seat from the public :class:`~civtable.core.State` API only, so
every bot works for every game. Bots are deterministic given their seed.

>>> from civtable import games
>>> from civtable.bots import make_bot
>>> state = games.get("seven-wonders").new_game(players=3, seed=1)
>>> bot = make_bot("random", seed=5)
>>> bot.choose(state, 0) in state.legal_actions(0)
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from civtable.core.api import State
from civtable.core.errors import CivtableError
from civtable.core.rng import Rng


class Bot(ABC):
    """Chooses actions for a seat."""

    #: registry name, e.g. ``"random"``
    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    @abstractmethod
    def choose(self, state: State, seat: int) -> int:
        """A legal action for ``seat`` in ``state`` (the state is not modified)."""

    def check_game(self, game_id: str, players: int | None = None) -> None:
        """Raise :class:`UnknownBotError` if this bot cannot play ``game_id`` (with ``players``
        seats, if given), e.g. a search option naming something the game lacks. Called by
        :func:`make_bot` when it is given the game, so a bad spec fails before play instead of
        at the bot's first decision. The default accepts every game."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class UnknownBotError(CivtableError, ValueError):
    """No bot with that name."""


BotFactory = Callable[[str, int], Bot]
_FACTORIES: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    """Register a bot factory; ``factory(argument, seed)`` builds one (argument after ``:``)."""
    _FACTORIES[name] = factory


def bot_names() -> list[str]:
    """Registered bot names."""
    return sorted(_FACTORIES)


def make_bot(spec: str, seed: int = 0, game: str | None = None, players: int | None = None) -> Bot:
    """Build a bot from a spec such as ``"random"`` or ``"heuristic"``.

    A spec may carry an argument after a colon (``"ismcts:1s"``) for bots that take one.
    With ``game`` (a game id, and optionally ``players``) the bot also checks that it can play
    that game (:meth:`Bot.check_game`, e.g. ``ismcts:…:eval=NAME`` names one of the game's
    evaluations); every error is an :class:`UnknownBotError`.
    """
    name, _, arg = spec.partition(":")
    factory = _FACTORIES.get(name)
    if factory is None:
        raise UnknownBotError(f"unknown bot {spec!r}; bots: {', '.join(bot_names())}")
    bot = factory(arg, seed)
    if game is not None:
        bot.check_game(game, players)
    return bot
