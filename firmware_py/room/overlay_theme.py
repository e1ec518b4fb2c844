"""The overlay's theme: a small TOML of colours, fonts and a logo, and a CSS file, both changed without code.

`config/overlay/theme.toml` is the default; `broadcast --theme FILE.toml` picks another. Its colours
become CSS variables (`--accent`, …) ahead of the theme's own CSS file, so a user restyles the page
with either. Every mistake in the file is reported at once, naming the file, the key and a fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from firmware_py.config_toolkit import ConfigMistakes, Section, read_text, read_toml, shown
from firmware_py.errors import ConfigError
from firmware_py.room.bounds import DELAY_CEILING_S, DELAY_FLOOR_MIN_S, DELAY_FLOOR_S

DEFAULT_THEME = Path(__file__).resolve().parents[2] / "config" / "overlay" / "theme.toml"
COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
FONT = re.compile(r"[A-Za-z0-9 _-]{1,64}")
COLOURS = {  # name: default (what the page's CSS uses as var(--name))
    "strip": "#0b0f16e6", "strip_text": "#ffffff", "strip_dim": "#9aa4b2", "accent": "#f5c518",
    "to_act": "#3ddc84", "winner": "#f5c518", "ruling": "#d7263d", "info": "#1f5f9e", "pot": "#0b0f16e6",
    "card_face": "#fbfaf3",
    "red_suit": "#c8141e", "black_suit": "#151515", "win_bar": "#3ddc84", "tie_bar": "#5aa9e6",
}
LOGO_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".webp": "image/webp", ".jpg": "image/jpeg"}


@dataclass(frozen=True, kw_only=True)
class Theme:
    name: str = "default"
    colours: dict[str, str] = field(default_factory=lambda: dict(COLOURS))
    font: str = "Noto Sans"  # the page ships Noto Sans Bold; any font the browser has may be named
    scale: float = 1.0  # every size on the page, times this
    logo: Path | None = None
    css: str = ""  # the theme's own CSS, after the built-in styles
    # [delay]: the bounds of a delay the producer's control may set (bounds.py says why; the house may tighten them)
    delay_floor_s: float = DELAY_FLOOR_S
    delay_ceiling_s: float = DELAY_CEILING_S

    def variables(self) -> str:
        """The CSS that sets the theme's variables (the page's stylesheet reads only these)."""
        lines = [f"  --{name.replace('_', '-')}: {value};" for name, value in self.colours.items()]
        lines.append(f"  --font: '{self.font}', 'Noto Sans', system-ui, sans-serif;")
        lines.append(f"  --scale: {self.scale:g};")
        return ":root {\n" + "\n".join(lines) + "\n}\n"

    def stylesheet(self) -> str:
        return self.variables() + self.css

    def logo_type(self) -> str | None:
        return None if self.logo is None else LOGO_TYPES[self.logo.suffix.lower()]


def load_theme(path: str | Path = DEFAULT_THEME) -> Theme:
    """Read and check a theme file (and the CSS and logo it names); raises ConfigError listing every mistake."""
    path = Path(path)
    data = read_toml(path, what="overlay theme")
    source, mistakes = str(path), ConfigMistakes()
    top = Section(source, "", data, ("name", "font", "scale", "logo", "css", "colours", "delay"), mistakes=mistakes)
    name = mistakes.attempt(lambda: top.string("name", "default"), "default")

    def font() -> str:
        value = top.string("font", "Noto Sans")
        if not FONT.fullmatch(value):
            raise top.error(f"must be a font family name (letters, digits, spaces), not {shown(value)}", "font")
        return value

    family = mistakes.attempt(font, "Noto Sans")
    scale = mistakes.attempt(lambda: top.number("scale", 1.0, low=0.5, high=2.0, what="a size factor"), 1.0)

    def file(key: str, kinds: tuple[str, ...]) -> Path | None:
        value = top.get(key, "")
        if value == "":
            return None
        if not isinstance(value, str):
            raise top.error(f"must be a file name in quotes (\"\" for none), not {shown(value)}", key)
        found = (path.parent / value).resolve()
        if found.suffix.lower() not in kinds:
            raise top.error(f"{value!r}: must be a {' or '.join(kinds)} file", key)
        if not found.is_file():
            raise top.error(f"no such file: {found}", key)
        return found

    logo = mistakes.attempt(lambda: file("logo", tuple(LOGO_TYPES)), None)
    css_file = mistakes.attempt(lambda: file("css", (".css",)), None)
    css = mistakes.attempt(lambda: read_text(css_file, what="theme CSS") if css_file else "", "")
    colours = dict(COLOURS)
    if top.has("colours"):
        section = mistakes.section(source, "colours", top.get("colours"), COLOURS)
        if section is not None:
            for key in COLOURS:
                value = section.data.get(key)
                if value is None:
                    continue
                if not isinstance(value, str) or not COLOUR.fullmatch(value):
                    mistakes.note(section.error(f"must be a colour \"#rrggbb\" or \"#rrggbbaa\" (alpha last), "
                                                f"not {shown(value)}", key))
                else:
                    colours[key] = value
    floor, ceiling = DELAY_FLOOR_S, DELAY_CEILING_S
    if top.has("delay"):
        delay = mistakes.section(source, "delay", top.get("delay"), ("floor_s", "ceiling_s"))
        if delay is not None:
            floor, ceiling = delay_bounds(delay, mistakes)
    mistakes.raise_if_any()
    return Theme(name=name, colours=colours, font=family, scale=scale, logo=logo, css=css, delay_floor_s=floor,
                 delay_ceiling_s=ceiling)


def delay_bounds(section: Section, mistakes: ConfigMistakes) -> tuple[float, float]:
    """`[delay] floor_s, ceiling_s`: the floor never under DELAY_FLOOR_MIN_S, the ceiling never over DELAY_CEILING_S
    (what the broadcast can hold in memory), the floor under the ceiling; each mistake noted with the fix."""
    def floor() -> float:
        value = section.number("floor_s", DELAY_FLOOR_S, what="a number of seconds")
        if value < DELAY_FLOOR_MIN_S:
            raise section.error(f"{value:g} s is under the hard minimum of {DELAY_FLOOR_MIN_S:g} s (under it the "
                                f"picture shows the cards of a bet still to be made); write floor_s = "
                                f"{DELAY_FLOOR_S:g}, or start a private game with --allow-zero-delay", "floor_s")
        return value

    def ceiling() -> float:
        value = section.number("ceiling_s", DELAY_CEILING_S, what="a number of seconds")
        if value > DELAY_CEILING_S:
            raise section.error(f"{value:g} s is over the most the broadcast holds, {DELAY_CEILING_S:g} s (every "
                                f"table's messages are held in memory for the delay); write ceiling_s = "
                                f"{DELAY_CEILING_S:g} or less", "ceiling_s")
        return value

    low = mistakes.attempt(floor, DELAY_FLOOR_S)
    high = mistakes.attempt(ceiling, DELAY_CEILING_S)
    if low > high:
        mistakes.note(section.error(f"the floor {low:g} s is above the ceiling {high:g} s: write floor_s at most "
                                    "ceiling_s", "floor_s"))
    return low, high


__all__ = ["DEFAULT_THEME", "ConfigError", "Theme", "load_theme"]
