"""Display tests run headless: SDL's dummy video driver, no sound, the sample snapshots importable."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).parent))

import pygame
import pytest


@pytest.fixture(scope="session", autouse=True)
def headless_pygame() -> None:
    pygame.display.init()
    pygame.font.init()
