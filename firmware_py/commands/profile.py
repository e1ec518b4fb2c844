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
    lines += ["", *by_game_lines(profile), "", *out_of_turn_lines(profile)]
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


def by_game_lines(profile: Profile) -> list[str]:
    """The rules a game has its own text for (a book's hold'em section), each game's citation beside the general."""
    lines = ["Rules by game (the general text where a game has none of its own):"]
    for game in profile.games:
        for key, rule in profile.by_game.get(game, {}).items():
            lines.append(f"  {game}: [rules.{key}] {rule.cite} (general: {profile.rule(key).cite})")
    return lines if len(lines) > 1 else [lines[0], "  (none: every game is ruled by the same sections)"]


def out_of_turn_lines(profile: Profile) -> list[str]:
    """The profile's procedure for an action out of turn, in words: what is held or posted, what the skipped
    player may do, what binds and what releases, what becomes of the chips when the out-of-turn player folds."""
    held, bet = profile.rule(RuleKey.OUT_OF_TURN), profile.rule(RuleKey.OUT_OF_TURN_BET)
    fold, refusal = profile.rule(RuleKey.OUT_OF_TURN_FOLD), profile.rule(RuleKey.OUT_OF_TURN_NO_RAISE)
    freed = _words(held.word("changed_by").split(), "or") or "nothing"
    barred = held.word("no_raise_after").split()
    lines = ["Action out of turn:",
             f"  A check or call out of turn ({held.cite}): held for the seat's turn; nothing goes in before. "
             f"It stands there unless a player in between makes a {freed}; then the seat acts anew."]
    if bet.procedure == "posted":
        amount = ("the minimum bet (the big blind) or the minimum raise, whatever was said"
                  if bet.word("posts") == "minimum" else "the amount made")
        lines.append(f"  A bet or raise out of turn ({bet.cite}): posted at once, {amount}. The action moves "
                     "back to the skipped player, who faces it: call, fold or raise (no check). After a call or "
                     "fold the out-of-turn player may only check (the round ends when nobody else is to act); "
                     "after a raise it may call, fold or re-raise. If it then folds, the chips it put in stay "
                     "in the pot.")
    else:
        amount = "the minimum bet or raise" if bet.word("posts") == "minimum" else "the amount declared"
        lines.append(f"  A bet or raise out of turn ({bet.cite}): held for the seat's turn, nothing in before; "
                     f"there it goes in as {amount} unless a player in between makes a {freed}, and then the "
                     "seat acts anew. The skipped player acts as if it had not been made (check, bet, call, "
                     "raise or fold). No chips went in, so none are lost if the seat then folds.")
    if fold.procedure == "mucked":
        text = "mucked at once: the hand is out, whatever follows"
        if fold.word("blinds") == "returned":
            text += "; a blind's fold before anyone acted is given back and the blind plays"
    else:
        text = f"held for the seat's turn like a check or call (freed by a {freed})"
    lines.append(f"  A fold out of turn ({fold.cite}): {text}.")
    if barred:
        lines.append(f"  Refused, a ruling ({refusal.cite}): a bet or raise, on the seat's next turn, by a seat "
                     f"that made a {_words(barred, 'or')} out of turn.")
    else:
        lines.append("  No refusal: a seat freed from its action out of turn may bet or raise.")
    return lines


def _words(words: list[str], joint: str) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {joint} {words[-1]}" if words else ""
