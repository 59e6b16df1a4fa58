"""Difficulty levels — the bots a player chooses from — and the limits a server puts on bots.

| level | bot | what it is |
|---|---|---|
| ``easy`` | ``heuristic:eps=0.3`` | the greedy heuristic, with a random move three times in ten |
| ``normal`` | ``heuristic`` | the game's greedy heuristic |
| ``hard`` | ``ismcts:1s`` | information-set MCTS, about a second per decision |
| ``expert`` | ``ismcts:5s`` | information-set MCTS, about five seconds per decision |

The level names are bot specs in their own right (``make_bot("hard")``), in the lobby, in
``civtable tournament``/``simulate`` and on the server. A server runs only bots within its
:class:`BotLimits`: a search budget that is finite and below the caps, so that no game can keep a
bot thread busy for ever (a spec like ``ismcts:1e9s`` is refused with a clear error).
"""

from __future__ import annotations

from dataclasses import dataclass

from civtable.bots.base import Bot, BotFactory, UnknownBotError, make_bot, register
from civtable.bots.ismcts import parse_spec

#: level name -> the bot spec it stands for, easiest first
LEVELS: dict[str, str] = {
    "easy": "heuristic:eps=0.3",
    "normal": "heuristic",
    "hard": "ismcts:1s",
    "expert": "ismcts:5s",
}


class BotLimitError(UnknownBotError):
    """A bot spec the server does not run (over its budget caps, or not offered)."""


def _level_factory(level: str) -> BotFactory:
    def make(arg: str, seed: int) -> Bot:
        if arg.strip():
            raise UnknownBotError(f"the {level} level takes no options ({level}:{arg!r})")
        return make_bot(LEVELS[level], seed)

    return make


for _level in LEVELS:
    register(_level, _level_factory(_level))


def resolve(spec: str) -> str:
    """The underlying bot spec of a level name (other specs unchanged)."""
    return LEVELS.get(spec, spec)


@dataclass(frozen=True)
class BotLimits:
    """What a server lets a game's bots spend on one decision."""

    #: longest search per decision (seconds of the clock the spec uses)
    max_seconds: float = 5.0
    #: most search iterations per decision
    max_iterations: int = 20_000
    #: accept specs other than the level names and ``random`` (within the caps)
    allow_custom: bool = True

    def check(self, spec: str, game: str | None = None, players: int | None = None) -> str:
        """``spec`` if a server with these limits may run it; else :class:`BotLimitError` (or
        :class:`UnknownBotError` for a spec that names no bot, or, given the game id ``game``
        and ``players``, one that cannot play that game) saying why."""
        if not isinstance(spec, str) or not spec:
            raise UnknownBotError("a bot seat needs a bot name, e.g. normal or hard")
        name, _, arg = spec.partition(":")
        # unknown names, malformed options and options the game lacks fail here, clearly
        make_bot(spec, 0, game=game, players=players)
        if name in LEVELS or name == "random":
            return spec
        if not self.allow_custom:
            raise BotLimitError(
                f"this server offers the bots random, {', '.join(LEVELS)}; not {spec!r}"
            )
        if name == "ismcts":
            config = parse_spec(arg)
            if config.seconds is not None and config.seconds > self.max_seconds:
                raise BotLimitError(
                    f"bot {spec!r} thinks {config.seconds:g} s per decision; this server allows "
                    f"at most {self.max_seconds:g} s (try expert)"
                )
            if config.iterations is not None and config.iterations > self.max_iterations:
                raise BotLimitError(
                    f"bot {spec!r} runs {config.iterations} iterations per decision; this server "
                    f"allows at most {self.max_iterations}"
                )
        return spec

    def offered(self) -> list[str]:
        """The bots a lobby offers: ``random`` and the levels, easiest first."""
        return ["random", *LEVELS]
