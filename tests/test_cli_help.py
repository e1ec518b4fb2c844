"""The command line's own words: `python -m firmware_py --help` lists every command in one style."""

from __future__ import annotations

import importlib

import pytest

from firmware_py.cli import COMMANDS


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_is_summed_up_in_one_style_a_lowercase_verb_phrase_without_a_full_stop(command):
    help_text = importlib.import_module(COMMANDS[command]).HELP
    first_word = help_text.split()[0].rstrip(":")
    assert help_text[0].islower(), help_text  # "replay a recorded session", not "Replay ..."
    assert not help_text.endswith("."), help_text
    assert first_word not in ("the", "a", "an"), help_text  # a verb, as every other line: not "the floor view"
