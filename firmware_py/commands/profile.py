"""`profile show NAME`: a house's rules resolved in one place, each with the file it comes from."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from firmware_py.core.profiles import Profile
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
    for key, rule in profile.rules.items():
        lines.append(f"[rules.{key}]")
        lines.append(f"  rule: {rule.cite}  ({files.get(rule.source, '?')})")
        lines.append(f"  remedy: {rule.remedy}  ({files.get(rule.origin.get('remedy', ''), '?')})")
        for name, value in rule.params.items():
            lines.append(f"  {name}: {value}  ({files.get(rule.origin.get(name, ''), '?')})")
    return "\n".join(lines)
