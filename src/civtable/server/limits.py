"""Per-client limits of one server process: games created, sockets open, spectators per game.

A client is its network address (``request.client.host``; behind a reverse proxy, run the
server with the proxy's forwarded-address support so that this is the player's address). Every
limit is configurable (``civtable serve --max-games-per-hour`` ...); exceeding one is answered with
HTTP 429 (or WebSocket close code 4429) and changes nothing.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from dataclasses import dataclass, field

from civtable.server.errors import ApiError


@dataclass(frozen=True)
class ClientLimits:
    """The numbers (0 = no limit)."""

    #: games one client may create per hour
    games_per_hour: int = 120
    #: WebSocket connections one client may hold open at once
    sockets_per_client: int = 64
    #: spectator connections (no seat token) on one game
    spectators_per_game: int = 200


def too_many(what: str) -> ApiError:
    """The 429 answer."""
    return ApiError(429, "too_many", what)


@dataclass
class Limiter:
    """Counts what each client does (in memory, per process)."""

    limits: ClientLimits = field(default_factory=ClientLimits)
    _created: dict[str, deque[float]] = field(default_factory=lambda: defaultdict(deque))
    _sockets: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def game_created(self, client: str) -> None:
        """Count a game ``client`` creates, or raise 429 (nothing counted) over the limit."""
        cap = self.limits.games_per_hour
        if not cap:
            return
        now = time.monotonic()
        times = self._created[client]
        while times and now - times[0] > 3600:
            times.popleft()
        if len(times) >= cap:
            raise too_many(f"at most {cap} new games an hour from one address; try again later")
        times.append(now)

    def forget_game(self, client: str) -> None:
        """Un-count the last game of ``client`` (its creation failed)."""
        times = self._created.get(client)
        if times:
            times.pop()

    def socket_opened(self, client: str) -> None:
        """Count an open socket of ``client``, or raise 429 (nothing counted) over the limit."""
        cap = self.limits.sockets_per_client
        if cap and self._sockets[client] >= cap:
            raise too_many(f"at most {cap} open connections from one address")
        self._sockets[client] += 1

    def socket_closed(self, client: str) -> None:
        """Un-count a socket."""
        self._sockets[client] -= 1
        if self._sockets[client] <= 0:
            del self._sockets[client]

    def check_spectators(self, watching: int) -> None:
        """Raise 429 when a game already has as many spectators as allowed."""
        cap = self.limits.spectators_per_game
        if cap and watching >= cap:
            raise too_many(f"this game already has {cap} spectators")
