"""Browser fixtures: a real server process and Debian's Chromium driven by Playwright.

Chromium is ``/usr/bin/chromium`` from Debian's ``chromium`` package (``make test`` installs it
with ``scripts/ensure-chromium.sh``); Playwright never downloads a browser here.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.procs import ServerProcess

CHROMIUM = os.environ.get("CIVTABLE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--headless",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``python -m civtable.server`` on a fresh SQLite file."""
    tmp = tmp_path_factory.mktemp("browser")
    proc = ServerProcess(f"sqlite:///{tmp / 'civtable.db'}", tmp / "server.log")
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Chromium (Debian's), shared by the tests of a module."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/ensure-chromium.sh)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()
