"""Secret seat tokens: random, shown once, stored only as a hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh 192-bit URL-safe secret."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """The sha256 hex digest stored in place of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str, stored_hash: str | None) -> bool:
    """Constant-time check of a token against a stored hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def matches_hash(digest: str, stored_hash: str | None) -> bool:
    """:func:`matches` for a token already hashed (:func:`token_hash`): one hash checked
    against the hashes of all the seats of a game."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(digest, stored_hash)
