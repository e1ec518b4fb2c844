"""House-rule profiles as data: each rule with its citation and remedy, inherited from a parent."""

from __future__ import annotations

import difflib
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_py.core.events import ButtonName

# Every rule the core consults, with the parameters it reads (and their types).
RULE_PARAMS: dict[str, dict[str, type]] = {
    "exposed_first_cards": {"first_cards": int},
    "two_exposed": {},
    "exposed_card": {},
    "boxed_card": {"procedure": str},
    "boxed_card_board": {"procedure": str},
    "two_boxed": {},
    "joker": {},
    "joker_acted": {},
    "joker_board": {},
    "extra_card": {},
    "two_extra": {},
    "wrong_count": {},
    "short_card": {"fixable_short": int},
    "wrong_count_dead": {},
    "out_of_sequence": {},
    "first_card_wrong_seat": {},
    "empty_seat_dealt": {},
    "button_out_of_position": {"too_late_rule": str, "too_late_remedy": str},
    "dealer_called": {},
    "premature_flop": {"redeal_burns": int, "next_street_burns": int},
    "premature_turn": {"redeal_burns": int, "next_street_burns": int},
    "premature_river": {"redeal_burns": int, "next_street_burns": int},
    "flop_too_many": {"procedure": str},
    "turn_river_too_many": {"procedure": str},
    "burn_missing": {},
    "burn_extra": {},
    "burn_missing_flop": {},
    "burn_extra_flop": {},
    "duplicate_card": {},
    "foreign_card": {},
    "unknown_card": {},
    "showdown": {},
    # Chips (only when the table knows stacks): the minimum bet and raise, reopening, pots.
    "min_bet": {},
    "min_raise": {"procedure": str},
    "raise_not_reopened": {},
    "side_pots": {},
    "odd_chip": {},
}
PROCEDURES = {
    "boxed_card": ("scrap", "as_exposed"),
    "boxed_card_board": ("scrap", "plays"),
    "flop_too_many": ("redeal", "next_burn"),
    "turn_river_too_many": ("premature", "next_burn"),
    # increment: raise by at least the last full bet or raise; double_faced: raise to at least
    # double the bet faced; double_full_bet: at least double the last full bet (short all-ins ignored).
    "min_raise": ("increment", "double_faced", "double_full_bet"),
}
SECTIONS: dict[str, dict[str, type]] = {
    "misdeal_window": {
        "rule": str,
        "closing_actions": list,
        "actions_needed": int,
        "after_blinds_only": bool,
        "too_late_hand_dead": bool,
        "too_late_remedy": str,
    },
    "clock": {"rule": str, "seconds": int, "warnings": list, "countdown": int},
    "blinds": {
        "rule": str,
        "heads_up_rule": str,
        "button_follows_empty_small_blind": bool,
        "new_player_between_button_and_blinds": bool,
    },
}
TOP_KEYS = {"profile": str, "title": str, "parent": str, "rulebook": str}
# The whole numbers a profile may hold, inclusive: outside them a ruling would silently change.
RANGES: dict[str, tuple[int, int]] = {
    "first_cards": (0, 2),  # the first or the first two cards of the deal
    "fixable_short": (0, 10),
    "redeal_burns": (0, 3),
    "next_street_burns": (0, 3),
    "actions_needed": (1, 10),
    "seconds": (1, 3600),
    "countdown": (0, 3600),
    "warnings": (1, 3600),
}
# What a remedy may name in {braces}, with the sample each is rendered with once at load.
PLACEHOLDERS: dict[str, object] = {
    "seat": 3, "card": "Qc", "street": "flop", "next_street": "turn", "burn": "7d", "back": "blue",
    "detail": "seat 4 has the wrong number of cards", "expected": 4, "position": "second",
    "summary": "seat 3 wins with two pair", "antenna": "shoe", "uid": "04A1B2C3D4E5F6",
    "counted": "seat 3's hole card", "amount": 40, "minimum": 20, "pot": 120,
}
NOT_EMPTY = frozenset({"rule", "remedy", "too_late_rule", "too_late_remedy", "heads_up_rule"})
TEXT_MAX = 2000  # characters in a citation or remedy: the screen shows a few lines


class ProfileError(ValueError):
    """A profile that cannot be used: names the file, the key and a suggestion."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source, self.key = source, key
        super().__init__(f"{source}: {key}: {message}")


@dataclass(frozen=True, kw_only=True, slots=True)
class Rule:
    """One rule of a profile: the rulebook's citation, the remedy text and its parameters."""

    key: str
    citation: str
    source: str  # the profile whose rulebook the citation is from
    remedy: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def cite(self) -> str:
        return f"{self.source}: {self.citation}"

    def text(self, **values: object) -> str:
        """The remedy with {placeholders} filled in."""
        return self.remedy.format_map(_Blank(values))


class _Blank(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


@dataclass(frozen=True, kw_only=True, slots=True)
class MisdealWindow:
    cite: str
    closing_actions: frozenset[ButtonName]
    actions_needed: int
    after_blinds_only: bool
    too_late_hand_dead: bool
    too_late_remedy: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ClockRule:
    cite: str
    seconds: int
    warnings: tuple[int, ...]
    countdown: int


@dataclass(frozen=True, kw_only=True, slots=True)
class BlindRule:
    cite: str
    heads_up_cite: str
    button_follows_empty_small_blind: bool
    new_player_between_button_and_blinds: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class Profile:
    name: str
    title: str
    parent: str | None
    rulebook: str
    window: MisdealWindow
    clock: ClockRule
    blinds: BlindRule
    rules: Mapping[str, Rule]

    def rule(self, key: str) -> Rule:
        return self.rules[key]


def _hint(key: str, choices: Any) -> str:
    close = difflib.get_close_matches(key, sorted(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _check(source: str, where: str, value: Any, kind: type) -> None:
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ProfileError(source, where, f"must be a whole number, not {_short(value)}")
    if kind is int:
        low, high = RANGES.get(where.rsplit(".", 1)[-1], (0, 10_000))
        if not low <= value <= high:
            raise ProfileError(source, where, f"must be from {low} to {high}, not {_short(value)}")
    if kind is dict and not isinstance(value, dict):
        raise ProfileError(source, where, f"must be a table of keys, not {_short(value)}")
    if not isinstance(value, kind):
        raise ProfileError(source, where, f"must be a {kind.__name__}, not {_short(value)}")
    if isinstance(value, str) and len(value) > TEXT_MAX:
        raise ProfileError(source, where, f"is {len(value)} characters long; at most {TEXT_MAX}")
    if isinstance(value, str) and not value.strip() and where.rsplit(".", 1)[-1] in NOT_EMPTY:
        raise ProfileError(source, where, "is empty: every ruling cites its rule and states its remedy")
    if isinstance(value, str) and any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ProfileError(source, where, "holds a control character; write the text on one line")


def _short(value: Any) -> str:
    """A value for an error message: its repr, cut short (a bad file may hold a huge one)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


def check_remedy(source: str, where: str, remedy: str) -> None:
    """Render a remedy template once with sample values; ProfileError names the file and key if it cannot be."""
    names = ", ".join("{" + name + "}" for name in PLACEHOLDERS)
    try:
        parts = list(string.Formatter().parse(remedy))
    except ValueError as exc:
        raise ProfileError(source, where, f"the remedy's braces do not parse ({exc}); a placeholder is one of "
                                          f"{names}, and a brace itself is written {{{{ or }}}}") from None
    for _literal, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in PLACEHOLDERS:
            raise ProfileError(source, where, f"unknown placeholder {{{name}}}{_hint(name, PLACEHOLDERS)}; "
                                              f"the placeholders are {names}")
        if spec or conversion:
            raise ProfileError(source, where, f"write {{{name}}} alone, without a format or conversion "
                                              f"({_short(remedy)[:60]})")
    remedy.format_map(PLACEHOLDERS)  # cannot fail now; rendered once so the first ruling is not the test


def build_profiles(raw: Mapping[str, tuple[str, Mapping[str, Any]]]) -> dict[str, Profile]:
    """Validate and resolve profiles given as {name: (source file, parsed TOML)}.

    Unknown keys, missing fields, wrong types, a missing parent and inheritance cycles raise
    ProfileError naming the file and the key.
    """
    for name, (source, data) in raw.items():
        _validate(name, source, data, raw)
    resolved: dict[str, Profile] = {}
    for name in raw:
        resolved[name] = _resolve(name, raw, chain=())
    return resolved


def _validate(name: str, source: str, data: Mapping[str, Any], raw: Mapping[str, Any]) -> None:
    allowed = set(TOP_KEYS) | set(SECTIONS) | {"rules"}
    for key, value in data.items():
        if key not in allowed:
            raise ProfileError(source, key, f"unknown key{_hint(key, allowed)}")
        if key in TOP_KEYS:
            _check(source, key, value, TOP_KEYS[key])
    if data.get("profile") != name:
        raise ProfileError(source, "profile",
                           f"must be {name!r} (the file's name), not {_short(data.get('profile'))}")
    parent = data.get("parent")
    if parent is not None and parent not in raw:
        raise ProfileError(source, "parent", f"no profile {_short(parent)}{_hint(parent, raw)}")
    buttons = [b.value for b in ButtonName]
    for section, fields in SECTIONS.items():
        values = data.get(section, {})
        _check(source, section, values, dict)
        for key, value in values.items():
            where = f"{section}.{key}"
            if key not in fields:
                raise ProfileError(source, where, f"unknown key{_hint(key, fields)}")
            _check(source, where, value, fields[key])
        for action in values.get("closing_actions", []):
            if not isinstance(action, str) or action not in buttons:
                hint = _hint(action, buttons) if isinstance(action, str) else ""
                raise ProfileError(source, f"{section}.closing_actions", f"{_short(action)} is not a button{hint}")
        for warning in values.get("warnings", []):
            _check(source, f"{section}.warnings", warning, int)
    rules = data.get("rules", {})
    _check(source, "rules", rules, dict)
    for key, entry in rules.items():
        where = f"rules.{key}"
        if key not in RULE_PARAMS:
            raise ProfileError(source, where, f"unknown rule{_hint(key, RULE_PARAMS)}")
        _check(source, where, entry, dict)
        fields = {"rule": str, "remedy": str, **RULE_PARAMS[key]}
        for field_name, value in entry.items():
            if field_name not in fields:
                raise ProfileError(source, f"{where}.{field_name}", f"unknown key{_hint(field_name, fields)}")
            _check(source, f"{where}.{field_name}", value, fields[field_name])
        if "remedy" in entry:
            check_remedy(source, f"{where}.remedy", entry["remedy"])
        procedure = entry.get("procedure")
        if procedure is not None and procedure not in PROCEDURES[key]:
            raise ProfileError(source, f"{where}.procedure",
                               f"must be one of {', '.join(PROCEDURES[key])}, not {_short(procedure)}")


def _resolve(name: str, raw: Mapping[str, tuple[str, Mapping[str, Any]]], chain: tuple[str, ...]) -> Profile:
    source, data = raw[name]
    if name in chain:
        raise ProfileError(source, "parent", f"inheritance cycle: {' -> '.join((*chain, name))}")
    lineage = [name]
    parent = data.get("parent")
    while parent is not None:
        if parent in lineage:
            raise ProfileError(source, "parent", f"inheritance cycle: {' -> '.join((*lineage, parent))}")
        lineage.append(parent)
        parent = raw[parent][1].get("parent")
    root_first = list(reversed(lineage))

    sections: dict[str, dict[str, Any]] = {s: {} for s in SECTIONS}
    section_source: dict[str, str] = {}
    rules: dict[str, dict[str, Any]] = {}
    rule_source: dict[str, str] = {}
    for ancestor in root_first:
        anc_data = raw[ancestor][1]
        for section in SECTIONS:
            values = anc_data.get(section, {})
            sections[section].update(values)
            if "rule" in values:
                section_source[section] = ancestor
        for key, entry in anc_data.get("rules", {}).items():
            rules.setdefault(key, {}).update(entry)
            if "rule" in entry:
                rule_source[key] = ancestor

    for section, fields in SECTIONS.items():
        for key in fields:
            if key not in sections[section]:
                raise ProfileError(source, f"{section}.{key}", "missing (and not inherited from a parent)")
    built: dict[str, Rule] = {}
    for key, params in RULE_PARAMS.items():
        entry = rules.get(key)
        if entry is None or "rule" not in entry or "remedy" not in entry:
            missing = "rule" if entry is None or "rule" not in entry else "remedy"
            raise ProfileError(source, f"rules.{key}.{missing}", "missing (and not inherited from a parent)")
        for param in params:
            if param not in entry:
                raise ProfileError(source, f"rules.{key}.{param}", "missing (and not inherited from a parent)")
        built[key] = Rule(
            key=key,
            citation=entry["rule"],
            source=rule_source[key],
            remedy=entry["remedy"],
            params={k: v for k, v in entry.items() if k not in ("rule", "remedy")},
        )
    window, clock, blinds = sections["misdeal_window"], sections["clock"], sections["blinds"]
    return Profile(
        name=name,
        title=str(data.get("title", name)),
        parent=data.get("parent"),
        rulebook=str(data.get("rulebook", raw[root_first[-1]][1].get("rulebook", ""))),
        window=MisdealWindow(
            cite=f"{section_source['misdeal_window']}: {window['rule']}",
            closing_actions=frozenset(ButtonName(a) for a in window["closing_actions"]),
            actions_needed=window["actions_needed"],
            after_blinds_only=window["after_blinds_only"],
            too_late_hand_dead=window["too_late_hand_dead"],
            too_late_remedy=window["too_late_remedy"],
        ),
        clock=ClockRule(
            cite=f"{section_source['clock']}: {clock['rule']}",
            seconds=clock["seconds"],
            warnings=tuple(int(w) for w in clock["warnings"]),
            countdown=clock["countdown"],
        ),
        blinds=BlindRule(
            cite=f"{section_source['blinds']}: {blinds['rule']}",
            heads_up_cite=f"{section_source['blinds']}: {blinds['heads_up_rule']}",
            button_follows_empty_small_blind=blinds["button_follows_empty_small_blind"],
            new_player_between_button_and_blinds=blinds["new_player_between_button_and_blinds"],
        ),
        rules=built,
    )
