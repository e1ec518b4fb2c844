"""`profile show NAME`: a house's rules resolved in one place, each with the file it comes from."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from firmware_py.core.profiles import Profile, Rule
from firmware_py.core.vocab import RuleKey
from firmware_py.profiles import load_profiles

HELP = "print a house-rule profile as resolved (parents included), each rule with its source file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="print the resolved profile NAME", description=HELP)
    show.add_argument("name", metavar="NAME", help="the profile (the file's name without .toml, e.g. upt)")
    show.add_argument("--profiles", metavar="DIR", help="profile directory (default: config/profiles)")


def run(args: argparse.Namespace) -> int:
    profiles = load_profiles(args.profiles)
    profile = profiles.get(args.name)
    if profile is None:
        close = difflib.get_close_matches(args.name, sorted(profiles), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        print(f"profile: no profile {args.name!r}{hint} (the profiles are {', '.join(sorted(profiles))})",
              file=sys.stderr)
        return 2
    print(render(profile))
    return 0


def render(profile: Profile) -> str:
    """The profile as text: its lineage, its sections, then every rule with the file of each field."""
    files = {name: Path(path).name for name, path in profile.lineage}
    lines = [f"{profile.name}: {profile.title}",
             "  inherits: " + " -> ".join(f"{name} ({path})" for name, path in profile.lineage),
             f"  rulebook: {profile.rulebook or '(none named)'}"]
    if profile.rulebook_source:
        lines.append(f"  read it: {profile.rulebook_source}")
    lines.append(f"  games: {', '.join(profile.games)}")
    lines.append("")
    window, clock, blinds = profile.window, profile.clock, profile.blinds
    lines += ["[misdeal_window]", f"  rule: {window.cite}",
              f"  closing_actions: {', '.join(sorted(window.closing_actions))}",
              f"  actions_needed: {window.actions_needed}", f"  after_blinds_only: {window.after_blinds_only}",
              f"  too_late_hand_dead: {window.too_late_hand_dead}", f"  too_late_remedy: {window.too_late_remedy}",
              "[clock]", f"  rule: {clock.cite}", f"  seconds: {clock.seconds}",
              f"  warnings: {', '.join(str(w) for w in clock.warnings)}", f"  countdown: {clock.countdown}",
              "[blinds]", f"  rule: {blinds.cite}", f"  heads_up_rule: {blinds.heads_up_cite}",
              f"  button_follows_empty_small_blind: {blinds.button_follows_empty_small_blind}",
              f"  new_player_between_button_and_blinds: {blinds.new_player_between_button_and_blinds}", ""]
    lines += [*chip_rules(profile), ""]
    for key, rule in profile.rules.items():
        lines.append(f"[rules.{key}]")
        lines.append(f"  rule: {rule.cite}  ({files.get(rule.source, '?')})")
        lines.append(f"  remedy: {rule.remedy}  ({files.get(rule.origin.get('remedy', ''), '?')})")
        for name, value in rule.params.items():
            lines.append(f"  {name}: {value}  ({files.get(rule.origin.get(name, ''), '?')})")
    return "\n".join(lines)


# A color-up's odd chips, by the house's `[rules.chip_race] procedure` (profiles.PROCEDURES), in words.
RACE_WORDS = {
    "one_chip_each": "raced for: one card per odd chip, dealt from seat 1, each player all their cards first; a "
                     "player left with no chips gets a new chip first, then the highest cards by suit one each, "
                     "no player more than one; a remainder of half a new chip or more wins one, less wins nothing",
    "each_card": "raced for: one card per odd chip, dealt from seat 1, each player all their cards first; a player "
                 "left with no chips gets a new chip first, then the highest cards by suit one each, every card on "
                 "its own (a player may win more than one); a remainder of half a new chip or more wins one",
    "round_up": "no race: each player's odd chips are chipped up to the next chip (125 in 25s becomes 200 in 100s)",
    "nightly": "a player with more than one odd chip is colored up to one new chip; players with one odd chip "
               "race for the rest, no player more than one chip",
}
SHORT_WORDS = {
    "all_in": "a player short of a blind or ante posts what is left and is all in, with action on it",
    "ante_leaves_a_chip": "a player short of a blind posts what is left and is all in; one who cannot post the "
                          "ante and keep a chip is out, the chips dead money in the pot",
}


def _cite(rule: Rule, name: str) -> str:
    """The citation a rule's parameter holds, with the profile whose book it is from."""
    return f"{rule.origin.get(name, rule.source)}: {rule.word(name)}"


def chip_rules(profile: Profile) -> list[str]:
    """The house's chip rules in words: the smallest unit, who gets an odd chip, and what a color-up does."""
    odd, pots = profile.rule(RuleKey.ODD_CHIP), profile.rule(RuleKey.SIDE_POTS)
    race, short = profile.rule(RuleKey.CHIP_RACE), profile.rule(RuleKey.SHORT_BLIND)
    return [
        "[chips] (in words)",
        "  smallest unit: every pot is split in the smallest chip in play (the setup's denominations; single "
        f"units when none are given), and an odd chip is one of it ({_cite(odd, 'unit_rule')}); stacks, blinds, "
        "antes and amounts keyed are whole numbers of it",
        f"  odd chips: no player gets more than one ({_cite(odd, 'one_each_rule')}); they go one each to the "
        f"winners from the first clockwise from the button ({odd.cite}); each pot, main and side, is split on "
        f"its own ({pots.cite})",
        f"  short blind or ante: {SHORT_WORDS.get(short.procedure, short.procedure)} ({short.cite})",
        "  color-up: the lowest chip in play leaves the table and the next chip is the smallest unit from then on; "
        f"chips of it that make up a new chip are changed up directly; the odd ones: "
        f"{RACE_WORDS.get(race.procedure, race.procedure)} ({race.cite})",
    ]
