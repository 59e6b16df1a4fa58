"""Research interfaces: PettingZoo environments and OpenSpiel games for civtable games.

Both need the optional ``rl`` extra (``pip install 'civtable[rl]'``: numpy, gymnasium, pettingzoo,
open-spiel); importing :mod:`civtable.rl` itself does not, the factories import lazily.

* :func:`pettingzoo_env` — a PettingZoo AEC environment (:mod:`civtable.rl.aec_env`);
* :func:`openspiel_game` — a pyspiel game registered as a Python game
  (:mod:`civtable.rl.spiel`).

The game-specific pieces are an observation encoder (:mod:`civtable.rl.encoders`) and, for
OpenSpiel's explicit chance nodes, a chance driver (:mod:`civtable.rl.chance`). See
docs/research.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from civtable.rl.aec_env import CivtableAECEnv


def pettingzoo_env(
    game_id: str,
    players: int,
    seed: int = 0,
    *,
    render_mode: str | None = None,
    reward: str = "win",
    **options: Any,
) -> CivtableAECEnv:
    """A PettingZoo AEC environment of ``game_id`` for ``players`` players.

    ``seed`` is the game seed of the first episode (then ``seed + 1``, ...), ``render_mode`` is
    ``None``, ``"ansi"`` or ``"human"``, ``reward`` is ``"win"`` (winners share 1) or ``"score"``
    (final scores); any other keyword is a game option, e.g. ``sides="A"`` for 7 Wonders.

    >>> env = pettingzoo_env("seven-wonders", players=3, seed=1)
    >>> env.reset()
    >>> env.agent_selection
    'player_0'
    """
    from civtable.rl.aec_env import CivtableAECEnv

    return CivtableAECEnv(
        game_id, players, seed=seed, render_mode=render_mode, reward=reward, options=options
    )


def openspiel_game(game_id: str, players: int, **options: Any) -> Any:
    """A ``pyspiel.Game`` of ``game_id`` for ``players`` players (a registered Python game).

    The game is registered as ``python_civtable_<id>`` (``-`` replaced by ``_``, e.g.
    ``python_civtable_seven_wonders``), so ``pyspiel.load_game`` works too once this module has
    registered it. Keyword arguments are game options; list values (7 Wonders ``boards``) may
    be given as lists or comma-separated strings.
    """
    from civtable.rl.spiel import load_game

    return load_game(game_id, players, options)


__all__ = ["openspiel_game", "pettingzoo_env"]
