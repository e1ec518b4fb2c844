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
    top = Section(source, "", data, ("name", "font", "scale", "logo", "css", "colours"), mistakes=mistakes)
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
    mistakes.raise_if_any()
    return Theme(name=name, colours=colours, font=family, scale=scale, logo=logo, css=css)


__all__ = ["DEFAULT_THEME", "ConfigError", "Theme", "load_theme"]
