"""House-rule profiles as data: each rule with its citation and remedy, inherited from a parent."""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from firmware_py.core.events import ButtonName
from firmware_py.core.game import DEFAULT as DEFAULT_GAME
from firmware_py.core.game import GAMES
from firmware_py.core.mistakes import Mistakes, closest, shown, unquoted
from firmware_py.core.vocab import RuleKey

# The parameters a rule reads besides its citation and remedy (and their types); the other rules read none.
_PARAMETERS: dict[RuleKey, dict[str, type]] = {
    RuleKey.EXPOSED_FIRST_CARDS: {"first_cards": int},
    # odd_chip: the book's sentences besides the order (`rule`): "An odd chip will be broken down to the smallest
    # unit used in the game" (`unit_rule`) and "No player may receive more than one odd chip" (`one_each_rule`);
    # in a high-low split game "the high hand receives the odd chip in a split between the high and the low
    # hands" (`split_rule`, Robert's Ties 5(c)).
    RuleKey.ODD_CHIP: {"unit_rule": str, "one_each_rule": str, "split_rule": str},
    RuleKey.BOXED_CARD: {"procedure": str},
    RuleKey.BOXED_CARD_BOARD: {"procedure": str},
    RuleKey.SHORT_CARD: {"fixable_short": int},
    RuleKey.BUTTON_OUT_OF_POSITION: {"too_late_rule": str, "too_late_remedy": str},
    RuleKey.PREMATURE_FLOP: {"redeal_burns": int, "next_street_burns": int},
    RuleKey.PREMATURE_TURN: {"redeal_burns": int, "next_street_burns": int},
    RuleKey.PREMATURE_RIVER: {"redeal_burns": int, "next_street_burns": int},
    RuleKey.FLOP_TOO_MANY: {"procedure": str},
    RuleKey.TURN_RIVER_TOO_MANY: {"procedure": str},
    RuleKey.MIN_RAISE: {"procedure": str},
    RuleKey.CHIP_RACE: {"procedure": str},
    RuleKey.SHORT_BLIND: {"procedure": str},
    RuleKey.OUT_OF_TURN: {"changed_by": str, "no_raise_after": str},
    RuleKey.OUT_OF_TURN_BET: {"procedure": str, "posts": str, "skipped_remedy": str},
    RuleKey.OUT_OF_TURN_FOLD: {"procedure": str, "blinds": str, "blinds_remedy": str},
    RuleKey.BIG_BLIND_FOLD: {"procedure": str},
    RuleKey.LIMIT_RAISES: {"raises": int, "heads_up": str},
    RuleKey.RETRIEVE: {"procedure": str, "refused_rule": str, "refused_remedy": str},
    # wrong_seat_rule / wrong_seat_remedy: the cite and remedy when the seat's drawn player checked in at another
    # seat or table (the book's "a change of seat is not allowed ... except as assigned by the director" beside
    # its absent-player sentence); entitled_remedy: not_entitled's words for an absent player who posted.
    RuleKey.ABSENT: {"procedure": str, "wrong_seat_rule": str, "wrong_seat_remedy": str, "entitled_remedy": str},
}
# Every rule the core consults (the closed set RuleKey, in its order), with the parameters it reads.
RULE_PARAMS: dict[RuleKey, dict[str, type]] = {key: _PARAMETERS.get(key, {}) for key in RuleKey}
PROCEDURES: dict[RuleKey, tuple[str, ...]] = {
    RuleKey.BOXED_CARD: ("scrap", "as_exposed"),
    RuleKey.BOXED_CARD_BOARD: ("scrap", "plays"),
    RuleKey.FLOP_TOO_MANY: ("redeal", "next_burn"),
    RuleKey.TURN_RIVER_TOO_MANY: ("premature", "next_burn"),
    # increment: raise by at least the last full bet or raise; double_faced: raise to at least
    # double the bet faced; double_full_bet: at least double the last full bet (short all-ins ignored).
    RuleKey.MIN_RAISE: ("increment", "double_faced", "double_full_bet"),
    # one_chip_each: the highest cards win, no player more than one chip (WFP); each_card: every card races
    # on its own (UPT has no one-chip sentence); round_up: no race, odd chips chipped up (RPL Tournaments 10);
    # nightly: WFP's EXCEPTION for regular nightly games (more than one odd chip: colored up to one new chip;
    # one odd chip: raced as one_chip_each).
    RuleKey.CHIP_RACE: ("one_chip_each", "each_card", "round_up", "nightly"),
    # all_in: a player short of a blind or ante posts what is left, all in (WFP 15, UPT 19); ante_leaves_a_chip:
    # besides, a player who cannot post the ante and keep a chip is eliminated, the chips in the pot (RPL 19).
    RuleKey.SHORT_BLIND: ("all_in", "ante_leaves_a_chip"),
    # held: an out-of-turn bet or raise waits for the seat's turn, binding or released by [rules.out_of_turn]
    # (Robert's Betting and Raising 10); posted: it goes in at once and the action moves back to the skipped
    # player, who faces it (call, fold or raise; no check): UPT's Out Of Turn Bet, WFP dealers' Act in Turn.
    RuleKey.OUT_OF_TURN_BET: ("held", "posted"),
    # held: an out-of-turn fold waits for the seat's turn like any action; mucked: it is taken at once (WFP
    # dealers' Act in Turn: "an out of turn (OOT) folded hand will be mucked immediately").
    RuleKey.OUT_OF_TURN_FOLD: ("held", "mucked"),
    # taken: the big blind's fold in turn with nothing to call is a fold; returned: its cards are given back
    # and it acts again (WFP dealers' Mucked Cards / Unintentional Folds).
    RuleKey.BIG_BLIND_FOLD: ("taken", "returned"),
    # A hand folded in error given back: no_significant_action (identifiable, and no call or raise since: the
    # WFP dealers' "Folding in Error"); identifiable (a clearly identifiable hand, at management's discretion:
    # Robert's Dead Hands 2 and the books from it); never (RPL Hold'em 5: mucked cards are not retrieved).
    RuleKey.RETRIEVE: ("no_significant_action", "identifiable", "never"),
    # A seat dealt in whose drawn player is not checked in at it: dead_when_dealt (dead once every player has a
    # complete starting hand: WFP Tournament Procedures 8, UPT Tournaments 13); dead_at_turn (dead when the action
    # reaches it, even the big blind: RPL Tournaments 12, the WFP dealers' Be at Your Seat); not_entitled (a player
    # neither present nor posted is not entitled to a hand, and cards dealt to one are a misdeal: Robert's
    # Misdeals 1(i), (j)).
    RuleKey.ABSENT: ("dead_when_dealt", "dead_at_turn", "not_entitled"),
}
# Text parameters that hold words from a closed set: a space-separated list (may be empty) or one word.
# out_of_turn: the intervening actions that free the seat from what it declared out of turn
# (`changed_by`), and what declared out of turn forbids a raise on the seat's next turn (`no_raise_after`).
# out_of_turn_bet: what a bet or raise out of turn puts in (`posts`: the amount declared, or the minimum bet
# or raise then). out_of_turn_fold: a blind's fold before anyone acted (`blinds`: as anyone's, or returned:
# the cards are given back and the blind plays, WFP dealers' Act in Turn, Know the Blinds).
WORDS: dict[str, tuple[tuple[str, ...], bool]] = {  # parameter -> (the words, whether a list)
    "changed_by": (("bet", "call", "raise"), True),
    "posts": (("declared", "minimum"), False),
    "blinds": (("as_others", "returned"), False),
    "no_raise_after": (("check", "call"), True),
    # limit_raises: whether the cap on raises holds heads-up (`capped`) or raising is unlimited there.
    "heads_up": (("unlimited", "capped"), False),
    # [blinds] where a player moved to the table (balancing) waits for the button to pass:
    # as_new_player (the new-player rule), small_blind_or_button (dealt in anywhere else),
    # between_button_and_small_blind, or never (dealt in at once, in any position).
    "facing_bet": (("dead",), False),
    "not_facing_bet": (("dead", "check"), False),
    "raise_without_amount": (("minimum", "not_taken"), False),
    "moved_player_waits": (("as_new_player", "small_blind_or_button", "between_button_and_small_blind",
                            "never"), False),
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
    # expired_rule: the book's sentence for time running out; facing_bet / not_facing_bet: what then happens to
    # the hand (dead, or checked where there is no bet to call); raise_without_amount: "raise" said with no
    # amount when time runs out (minimum: a minimum raise; not_taken: the clock runs on as if nothing was said).
    "clock": {"rule": str, "seconds": int, "warnings": list, "countdown": int, "expired_rule": str,
              "facing_bet": str, "not_facing_bet": str, "raise_without_amount": str},
    "blinds": {
        "rule": str,
        "heads_up_rule": str,
        "button_follows_empty_small_blind": bool,
        "new_player_between_button_and_blinds": bool,
        "moved_player_rule": str,
        "moved_player_waits": str,
    },
}
# Sections a profile may leave out, in all its lineage: then the feature is off. [action_clock]: a house's clock on
# every decision (no book here has one: a house profile inheriting from its book adds it), `seconds` a decision,
# `extensions` time-extension chips per player of `extension_seconds` each, given back at `reset_levels` (the
# numbers of the levels, as `level` events name them).
OPTIONAL_SECTIONS: dict[str, dict[str, type]] = {
    "action_clock": {"rule": str, "seconds": int, "warnings": list, "countdown": int, "extensions": int,
                     "extension_seconds": int, "reset_levels": list},
}
# rulebook: the book's title; rulebook_source: where a reader finds it (the books are not shipped).
# games: the games the house deals (core/game.py's names), inherited from the parent when not given.
TOP_KEYS = {"profile": str, "title": str, "parent": str, "rulebook": str, "rulebook_source": str, "games": list}
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
    "raises": (1, 10),  # raises after the bet in a fixed-limit betting round
}
# What a remedy may name in {braces}, with the sample each is rendered with once at load.
PLACEHOLDERS: dict[str, object] = {
    "seat": 3, "card": "Qc", "street": "flop", "next_street": "turn", "burn": "7d", "back": "blue",
    "detail": "seat 4 has the wrong number of cards", "expected": 4, "position": "second",
    "summary": "seat 3 wins with two pair", "antenna": "shoe", "uid": "04A1B2C3D4E5F6",
    "counted": "seat 3's hole card", "amount": 40, "minimum": 20, "pot": 120,
    "declared": "bet 400", "waiting": 2, "maximum": 600, "game": "Pot-Limit Omaha", "hole": "both cards",
    "cards": "two hole cards",
}
NOT_EMPTY = frozenset({"rule", "remedy", "too_late_rule", "too_late_remedy", "heads_up_rule", "blinds_remedy"})
TEXT_MAX = 2000  # characters in a citation or remedy: the screen shows a few lines


class ProfileError(ValueError):
    """A profile that cannot be used: names the file, the key and a suggestion (several mistakes: one a line)."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source, self.key, self.reason = source, key, message
        super().__init__(f"{source}: {key}: {message}")

    @classmethod
    def joined(cls, errors: Sequence[ProfileError]) -> ProfileError:
        """Every mistake in one error, one a line; its `source` and `key` are the first one's."""
        first = errors[0]
        return cls(first.source, first.key, "\n".join([first.reason, *(str(e) for e in errors[1:])]))


@dataclass(frozen=True, kw_only=True, slots=True)
class Rule:
    """One rule of a profile: the rulebook's citation, the remedy text and its parameters."""

    key: RuleKey
    citation: str
    source: str  # the profile whose rulebook the citation is from
    remedy: str
    params: Mapping[str, Any] = field(default_factory=dict)
    origin: Mapping[str, str] = field(default_factory=dict)  # each field's profile (a child may override one)

    @property
    def cite(self) -> str:
        return f"{self.source}: {self.citation}"

    def text(self, **values: object) -> str:
        """The remedy with {placeholders} filled in."""
        return self.remedy.format_map(_Blank(values))

    def text_of(self, name: str, **values: object) -> str:
        """A second remedy the rule carries as a parameter (`*_remedy`), its {placeholders} filled in."""
        return self.word(name).format_map(_Blank(values))

    def number(self, name: str) -> int:
        """A whole-number parameter of the rule (validated at load: see RULE_PARAMS and RANGES)."""
        value = self.params[name]
        if not isinstance(value, int) or RULE_PARAMS[self.key].get(name) is not int:
            raise TypeError(f"rules.{self.key}.{name} is not a whole-number parameter")
        return value

    def word(self, name: str) -> str:
        """A text parameter of the rule (validated at load: see RULE_PARAMS)."""
        value = self.params[name]
        if not isinstance(value, str) or RULE_PARAMS[self.key].get(name) is not str:
            raise TypeError(f"rules.{self.key}.{name} is not a text parameter")
        return value

    @property
    def procedure(self) -> str:
        """The procedure the house chose, for the rules that offer one (PROCEDURES)."""
        return self.word("procedure")


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
    expired_cite: str = ""  # the book's sentence for time running out (a dead hand)
    facing_bet: str = "dead"  # what time running out does to a hand facing a bet (WORDS)
    not_facing_bet: str = "dead"  # and to one with no bet to call: dead, or checked
    raise_without_amount: str = "minimum"  # "raise" said with no amount, at the end: a minimum raise


@dataclass(frozen=True, kw_only=True, slots=True)
class ActionClockRule:
    """A house's action clock: on every decision, with time-extension chips per player (OPTIONAL_SECTIONS)."""

    cite: str
    seconds: int
    warnings: tuple[int, ...]
    countdown: int
    extensions: int
    extension_seconds: int
    reset_levels: tuple[int, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class BlindRule:
    cite: str
    heads_up_cite: str
    button_follows_empty_small_blind: bool
    new_player_between_button_and_blinds: bool
    moved_player_cite: str = ""
    moved_player_waits: str = "as_new_player"  # see WORDS


@dataclass(frozen=True, kw_only=True, slots=True)
class Profile:
    name: str
    title: str
    parent: str | None
    rulebook: str  # the rulebook's title
    window: MisdealWindow
    clock: ClockRule
    blinds: BlindRule
    rules: Mapping[RuleKey, Rule]
    lineage: tuple[tuple[str, str], ...] = ()  # (profile, source file), the root first
    rulebook_source: str = ""  # where to read the rulebook: its publisher and site
    games: tuple[str, ...] = (DEFAULT_GAME,)  # the games the house deals (names in core/game.py's GAMES)
    action_clock: ActionClockRule | None = None  # a house's clock on every decision (OPTIONAL_SECTIONS); None: off

    def file_of(self, profile: str) -> str:
        """The source file of a profile this one inherits from (or of itself)."""
        return dict(self.lineage).get(profile, "?")

    # Rules whose text differs by game (a book's hold'em section against its general one), by game name;
    # a game not here, or a rule not in its map, is ruled by `rules`.
    by_game: Mapping[str, Mapping[RuleKey, Rule]] = field(default_factory=dict)

    def rule(self, key: RuleKey, game: str | None = None) -> Rule:
        """The rule that governs `key` in `game` (the profile's general text where the game has none of its own).

        A book's section written for one game (RPL's "Hold'em 2": the first holecard exposed) rules that game
        only; another game dealt falls under the book's general section (RPL's Misdeals 1(a)).
        """
        if game is not None:
            own = self.by_game.get(game)
            if own is not None and key in own:
                return own[key]
        return self.rules[key]


def _hint(key: str, choices: Any) -> str:
    close = closest(key, sorted(str(choice) for choice in choices))
    return f"; did you mean {close!r}?" if close is not None else ""


def _check(source: str, where: str, value: Any, kind: type) -> None:
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ProfileError(source, where, f"must be a whole number, not {shown(value)}"
                                          f"{unquoted(where.rsplit('.', 1)[-1], value)}")
    if kind is int:
        low, high = RANGES.get(where.rsplit(".", 1)[-1], (0, 10_000))
        if not low <= value <= high:
            raise ProfileError(source, where, f"must be from {low} to {high}, not {shown(value)}")
    if kind is dict and not isinstance(value, dict):
        raise ProfileError(source, where, f"must be a table of keys, not {shown(value)}")
    if not isinstance(value, kind):
        raise ProfileError(source, where, f"must be a {kind.__name__}, not {shown(value)}")
    if isinstance(value, str) and len(value) > TEXT_MAX:
        raise ProfileError(source, where, f"is {len(value)} characters long; at most {TEXT_MAX}")
    if isinstance(value, str) and not value.strip() and where.rsplit(".", 1)[-1] in NOT_EMPTY:
        raise ProfileError(source, where, "is empty: every ruling cites its rule and states its remedy")
    if isinstance(value, str) and any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ProfileError(source, where, "holds a control character; write the text on one line")


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
                                              f"({shown(remedy)[:60]})")
    remedy.format_map(PLACEHOLDERS)  # cannot fail now; rendered once so the first ruling is not the test


def build_profiles(raw: Mapping[str, tuple[str, Mapping[str, Any]]]) -> dict[str, Profile]:
    """Validate and resolve profiles given as {name: (source file, parsed TOML)}.

    Unknown keys, missing fields, wrong types, a missing parent and inheritance cycles raise one
    ProfileError holding every mistake in every file, one a line, each naming the file and the key.
    A profile is resolved after its parent, and not at all if its parent has a mistake (that one is
    reported, once, in the parent's file).
    """
    mistakes: Mistakes[ProfileError] = Mistakes(ProfileError, ProfileError.joined)
    for name, (source, data) in raw.items():
        _validate(name, source, data, raw, mistakes)
    mistakes.raise_if_any()
    resolved: dict[str, Profile] = {}
    cycles: set[frozenset[str]] = set()
    for name in sorted(raw, key=lambda n: len(_lineage(n, raw)[0])):  # parents first
        lineage, cycle = _lineage(name, raw)
        if cycle and frozenset(cycle) not in cycles:
            cycles.add(frozenset(cycle))
            # Name the files: the cycle is fixed by editing one of their `parent` keys.
            steps = " -> ".join(f"{step} ({raw[step][0]})" for step in (*cycle, cycle[0]))
            mistakes.note(ProfileError(raw[name][0], "parent", f"inheritance cycle: {steps}; one of these "
                                       "files must name another parent (or none, for a root profile)"))
        if not cycle and all(ancestor in resolved for ancestor in lineage[1:]):
            with mistakes.check():
                resolved[name] = _resolve(name, raw, lineage)
    mistakes.raise_if_any()
    return {name: resolved[name] for name in raw}


def _validate(name: str, source: str, data: Mapping[str, Any], raw: Mapping[str, Any],
              mistakes: Mistakes[ProfileError]) -> None:
    """Note every mistake of one profile file (a value with a mistake is not looked into further)."""
    allowed = set(TOP_KEYS) | set(SECTIONS) | set(OPTIONAL_SECTIONS) | {"rules"}
    for key, value in data.items():
        if key not in allowed:
            mistakes.note(ProfileError(source, key, f"unknown key{_hint(key, allowed)}"))
        elif key in TOP_KEYS:
            with mistakes.check():
                _check(source, key, value, TOP_KEYS[key])
                if key == "games":
                    _check_games(source, value)
    if data.get("profile") != name:
        mistakes.note(ProfileError(source, "profile",
                                   f"must be {name!r} (the file's name), not {shown(data.get('profile'))}"))
    parent = data.get("parent")
    if isinstance(parent, str) and parent not in raw:
        mistakes.note(ProfileError(source, "parent", f"no profile {shown(parent)}{_hint(parent, raw)}"))
    for section, fields in (*SECTIONS.items(), *OPTIONAL_SECTIONS.items()):
        _validate_section(source, section, fields, data.get(section, {}), mistakes)
    rules = data.get("rules", {})
    with mistakes.check():
        _check(source, "rules", rules, dict)
        for name_of_rule, entry in rules.items():
            with mistakes.check():
                _validate_rule(source, name_of_rule, entry, mistakes)


def _validate_section(source: str, section: str, fields: Mapping[str, type], values: Any,
                      mistakes: Mistakes[ProfileError]) -> None:
    with mistakes.check():
        _check(source, section, values, dict)
        buttons = [b.value for b in ButtonName]
        for key, value in values.items():
            where = f"{section}.{key}"
            if key not in fields:
                mistakes.note(ProfileError(source, where, f"unknown key{_hint(key, fields)}"))
                continue
            with mistakes.check():
                _check(source, where, value, fields[key])
                if key == "closing_actions":
                    for action in value:
                        if not isinstance(action, str) or action not in buttons:
                            hint = _hint(action, buttons) if isinstance(action, str) else ""
                            mistakes.note(ProfileError(source, where, f"{shown(action)} is not a button{hint}"))
                elif key in WORDS:
                    _check_words(source, where, value, *WORDS[key])
                elif key in ("warnings", "reset_levels"):
                    for warning in value:
                        with mistakes.check():
                            _check(source, where, warning, int)


def _validate_rule(source: str, name_of_rule: str, entry: Any, mistakes: Mistakes[ProfileError], *,
                   variant: bool = False) -> None:
    """One `[rules.KEY]` table; a table inside it (`[rules.KEY.holdem]`) is the text for some games only
    (`games = [...]`, required there), validated the same way. `games` on the rule itself scopes this file's
    text to those games: the others keep the parent's."""
    where = f"rules.{name_of_rule}"
    key_name = name_of_rule.split(".", 1)[0]
    if key_name not in RULE_PARAMS:
        raise ProfileError(source, where, f"unknown rule{_hint(key_name, RULE_PARAMS)}")
    key = RuleKey(key_name)
    _check(source, where, entry, dict)
    fields = {"rule": str, "remedy": str, "games": list, **RULE_PARAMS[key]}
    if variant and "games" not in entry:
        mistakes.note(ProfileError(source, f"{where}.games", "missing: a rule's text for some games names them, "
                                   'e.g. games = ["holdem", "limit_holdem"]'))
    for field_name, value in entry.items():
        with mistakes.check():  # no `continue` in here: mypyc does not compile one inside try/finally
            if isinstance(value, dict) and not variant:
                _validate_rule(source, f"{name_of_rule}.{field_name}", value, mistakes, variant=True)
            elif field_name not in fields:
                raise ProfileError(source, f"{where}.{field_name}", f"unknown key{_hint(field_name, fields)}")
            elif field_name == "games":
                _check(source, f"{where}.games", value, list)
                _check_games(source, value, where=f"{where}.games")
            else:
                _check(source, f"{where}.{field_name}", value, fields[field_name])
                if field_name == "remedy" or field_name.endswith("_remedy"):
                    check_remedy(source, f"{where}.{field_name}", value)
                if field_name in WORDS:
                    _check_words(source, f"{where}.{field_name}", value, *WORDS[field_name])
                if field_name == "procedure" and value not in PROCEDURES[key]:
                    raise ProfileError(source, f"{where}.procedure",
                                       f"must be one of {', '.join(PROCEDURES[key])}, not {shown(value)}")


def _check_games(source: str, games: list[Any], *, where: str = "games") -> None:
    if not games:
        raise ProfileError(source, where, f"is empty: name at least one game ({', '.join(GAMES)})")
    for game in games:
        if not isinstance(game, str) or game not in GAMES:
            hint = _hint(game, GAMES) if isinstance(game, str) else ""
            raise ProfileError(source, where, f"{shown(game)} is not a game{hint}; the games are "
                                              f"{', '.join(GAMES)}")
    if len(set(games)) != len(games):
        raise ProfileError(source, where, "names a game twice")


def _check_words(source: str, where: str, value: str, words: tuple[str, ...], many: bool) -> None:
    given = value.split() if many else [value]
    wrong = [word for word in given if word not in words]
    if wrong or (not many and len(given) != 1):
        how = "space-separated words from" if many else "one of"
        raise ProfileError(source, where, f"must be {how} {', '.join(words)}, not {shown(value)}")


def _lineage(name: str, raw: Mapping[str, tuple[str, Mapping[str, Any]]]) -> tuple[list[str], list[str]]:
    """The profile and its ancestors, itself first; and the cycle its parents run into (empty if none)."""
    lineage = [name]
    parent = raw[name][1].get("parent")
    while parent is not None:
        if parent in lineage:
            return lineage, lineage[lineage.index(parent):]
        lineage.append(parent)
        parent = raw[parent][1].get("parent")
    return lineage, []


def _resolve(name: str, raw: Mapping[str, tuple[str, Mapping[str, Any]]], lineage: list[str]) -> Profile:
    source, data = raw[name]
    root_first = list(reversed(lineage))

    sections: dict[str, dict[str, Any]] = {s: {} for s in (*SECTIONS, *OPTIONAL_SECTIONS)}
    section_source: dict[str, str] = {}
    for ancestor in root_first:
        anc_data = raw[ancestor][1]
        for section in (*SECTIONS, *OPTIONAL_SECTIONS):
            values = anc_data.get(section, {})
            sections[section].update(values)
            if "rule" in values:
                section_source[section] = ancestor

    missing = [f"{section}.{key}" for section, fields in SECTIONS.items() for key in fields
               if key not in sections[section]]
    built = _rules_for(raw, root_first, None, missing)
    missing += [f"{section}.{key}" for section, fields in OPTIONAL_SECTIONS.items() if sections[section]
                for key in fields if key not in sections[section]]
    if missing:
        raise ProfileError.joined([ProfileError(source, where, "missing (and not inherited from a parent)")
                                   for where in missing])
    by_game: dict[str, dict[RuleKey, Rule]] = {}
    for game in GAMES:
        own = {key: rule for key, rule in _rules_for(raw, root_first, game, missing).items() if rule != built[key]}
        if own:
            by_game[game] = own
    if missing:
        raise ProfileError.joined([ProfileError(source, where, "missing (and not inherited from a parent)")
                                   for where in dict.fromkeys(missing)])
    window, clock, blinds = sections["misdeal_window"], sections["clock"], sections["blinds"]
    return Profile(
        name=name,
        title=str(data.get("title", name)),
        parent=data.get("parent"),
        rulebook=str(data.get("rulebook", raw[root_first[-1]][1].get("rulebook", ""))),
        rulebook_source=str(data.get("rulebook_source", "")),
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
            expired_cite=f"{section_source['clock']}: {clock['expired_rule']}",
            facing_bet=clock["facing_bet"],
            not_facing_bet=clock["not_facing_bet"],
            raise_without_amount=clock["raise_without_amount"],
        ),
        blinds=BlindRule(
            cite=f"{section_source['blinds']}: {blinds['rule']}",
            heads_up_cite=f"{section_source['blinds']}: {blinds['heads_up_rule']}",
            button_follows_empty_small_blind=blinds["button_follows_empty_small_blind"],
            new_player_between_button_and_blinds=blinds["new_player_between_button_and_blinds"],
            moved_player_cite=f"{section_source['blinds']}: {blinds['moved_player_rule']}",
            moved_player_waits=blinds["moved_player_waits"],
        ),
        rules=built,
        by_game=by_game,
        lineage=tuple((ancestor, raw[ancestor][0]) for ancestor in root_first),
        games=tuple(next((raw[ancestor][1]["games"] for ancestor in lineage if "games" in raw[ancestor][1]),
                         [DEFAULT_GAME])),
        action_clock=_action_clock(sections["action_clock"], section_source.get("action_clock", name)),
    )


def _rules_for(raw: Mapping[str, tuple[str, Mapping[str, Any]]], root_first: list[str], game: str | None,
               missing: list[str]) -> dict[RuleKey, Rule]:
    """Every rule as the profile's files resolve it, root first, for `game` (None: the general text).

    A file's `[rules.KEY]` scoped by `games` counts only for those games; a table inside it with its own
    `games` (`[rules.KEY.holdem]`) overrides the rule's fields for those games. Missing fields go to `missing`.
    """
    rules: dict[str, dict[str, Any]] = {}
    rule_source: dict[str, str] = {}
    origin: dict[str, dict[str, str]] = {}  # rule -> field -> the profile that set it
    for ancestor in root_first:
        for key, entry in raw[ancestor][1].get("rules", {}).items():
            if "games" in entry and game not in entry["games"]:
                continue
            layers = [{k: v for k, v in entry.items() if not isinstance(v, dict) and k != "games"}]
            layers += [{k: v for k, v in variant.items() if k != "games"} for variant in entry.values()
                       if isinstance(variant, dict) and game in variant.get("games", ())]
            for layer in layers:
                rules.setdefault(key, {}).update(layer)
                origin.setdefault(key, {}).update(dict.fromkeys(layer, ancestor))
                if "rule" in layer:
                    rule_source[key] = ancestor
    where = "" if game is None else f" (for {game})"
    missing += [f"rules.{key}{where}" for key in RULE_PARAMS if key not in rules]  # the whole rule: one mistake
    missing += [f"rules.{key}.{field}{where}" for key, params in RULE_PARAMS.items() if key in rules
                for field in ("rule", "remedy", *params) if field not in rules[key]]
    return {key: Rule(key=key, citation=rules[key]["rule"], source=rule_source[key], remedy=rules[key]["remedy"],
                      params={k: v for k, v in rules[key].items() if k not in ("rule", "remedy")},
                      origin=origin[key])
            for key in RULE_PARAMS if key in rules and not any(
                m in (f"rules.{key}{where}",) or m.startswith(f"rules.{key}.") for m in missing)}


def _action_clock(values: Mapping[str, Any], source: str) -> ActionClockRule | None:
    if not values:
        return None
    return ActionClockRule(cite=f"{source}: {values['rule']}", seconds=values["seconds"],
                           warnings=tuple(int(w) for w in values["warnings"]), countdown=values["countdown"],
                           extensions=values["extensions"], extension_seconds=values["extension_seconds"],
                           reset_levels=tuple(int(n) for n in values["reset_levels"]))
