"""Replay files: a game's setup plus its action log, as JSON.

A replay is all that is needed to rebuild any position of a game exactly:
``games.get(doc["game"]).replay(players, seed, actions, options)`` reproduces the state hash.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from civtable.core.api import JSON, State
from civtable.core.errors import SerializationError

FORMAT = "civtable-replay"
VERSION = 1


@dataclass
class Replay:
    """Setup and decisions of one game."""

    game: str
    players: int
    seed: int
    options: JSON = field(default_factory=dict)
    actions: list[tuple[int, int]] = field(default_factory=list)
    meta: JSON = field(default_factory=dict)

    @classmethod
    def of(cls, state: State, **meta: Any) -> Replay:
        """The replay of a state's game so far."""
        return cls(
            game=state.game.id,
            players=state.players,
            seed=state.seed,
            options=dict(state.options),
            actions=list(state.history),
            meta=dict(meta),
        )

    def to_json(self) -> JSON:
        """JSON-ready form."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "actions": [[s, a] for s, a in self.actions],
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, doc: Any) -> Replay:
        """Parse a replay document; raises :class:`SerializationError` if it is not one."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise SerializationError("not a civtable replay (missing 'format': 'civtable-replay')")
        try:
            actions = [(int(s), int(a)) for s, a in doc["actions"]]
            return cls(
                game=str(doc["game"]),
                players=int(doc["players"]),
                seed=int(doc["seed"]),
                options=dict(doc.get("options") or {}),
                actions=actions,
                meta=dict(doc.get("meta") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise SerializationError(f"malformed replay: {exc}") from exc

    def save(self, path: str | Path) -> Path:
        """Write the replay as JSON; returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """Read a replay file."""
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise SerializationError(f"cannot read replay {path}: {exc}") from exc
        return cls.from_json(doc)

    def states(self) -> list[State]:
        """Every position of the game: the setup, then one after each action."""
        from civtable import games

        game = games.get(self.game)
        state = game.new_game(self.players, self.seed, self.options)
        out = [state.copy()]
        for seat, action in self.actions:
            state.apply(seat, action)
            out.append(state.copy())
        return out

    def final_state(self) -> State:
        """The position after the last action."""
        from civtable import games

        return games.get(self.game).replay(self.players, self.seed, self.actions, self.options)
