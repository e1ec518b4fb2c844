"""Loading the house-rule profiles from `config/profiles/*.toml`."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from firmware_py.core.profiles import Profile, ProfileError, build_profiles
from firmware_py.errors import ConfigError

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "config" / "profiles"


def load_profiles(directory: str | Path | None = None) -> dict[str, Profile]:
    """Read, validate and resolve every profile file; ConfigError names the file and key."""
    folder = Path(directory) if directory is not None else DEFAULT_DIR
    raw: dict[str, tuple[str, dict[str, Any]]] = {}
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise ConfigError(f"{folder}: no profile files (*.toml) found; is the config directory right?")
    for path in files:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        raw[path.stem] = (str(path), data)
    try:
        return build_profiles(raw)
    except ProfileError as exc:
        raise ConfigError(str(exc)) from None
