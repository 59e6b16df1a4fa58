"""The web server: lobby, moves, WebSocket push, replays and the web UI (``civtable serve``).

``create_app`` lives in :mod:`civtable.server.app` (it imports FastAPI); this package's top level
stays cheap to import so the command line can register ``serve`` without loading the server.
"""

from civtable.server.cli import add_serve_parser, cmd_serve, main

__all__ = ["add_serve_parser", "cmd_serve", "main"]
