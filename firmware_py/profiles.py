"""Loading the house-rule profiles from `config/profiles/*.toml`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_py.config_toolkit import ConfigMistakes, read_toml, shown
from firmware_py.core.profiles import Profile, ProfileError, build_profiles
from firmware_py.errors import ConfigError

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "config" / "profiles"


def load_profiles(directory: str | Path | None = None) -> dict[str, Profile]:
    """Read, validate and resolve every profile file; one ConfigError holds every mistake, one a line, each
    naming the file and key."""
    folder = Path(directory) if directory is not None else DEFAULT_DIR
    raw: dict[str, tuple[str, dict[str, Any]]] = {}
    try:
        files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    except OSError as exc:
        raise ConfigError(f"{shown(str(folder))}: cannot read the profiles directory ({exc.strerror or exc})") from None
    if not files:
        raise ConfigError(f"{shown(str(folder))}: no profile files (*.toml) found; is the config directory right?")
    mistakes = ConfigMistakes()
    for path in files:
        with mistakes.check():
            raw[path.stem] = (str(path), read_toml(path, what="profile"))
    mistakes.raise_if_any()  # before validating: a profile that did not parse would be a missing parent
    try:
        return build_profiles(raw)
    except ProfileError as exc:
        raise ConfigError(str(exc)) from None
