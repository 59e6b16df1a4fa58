"""Where two JSON documents differ, in a few readable lines (developer tooling: the invariants
modules and ``civtable fuzz`` say what a re-deal of hidden cards changed in a view)."""

from __future__ import annotations

import json
from typing import Any


def json_diff(a: Any, b: Any, path: str = "", limit: int = 5) -> list[str]:
    """At most ``limit`` differences between ``a`` and ``b`` as ``path: old becomes new``."""
    out: list[str] = []
    _diff(a, b, path, out, limit)
    return out


def _diff(a: Any, b: Any, path: str, out: list[str], limit: int) -> None:
    if len(out) >= limit:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            _diff(a.get(k), b.get(k), f"{path}.{k}", out, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b:
        out.append(f"{path}: {json.dumps(a)[:80]} becomes {json.dumps(b)[:80]}")
