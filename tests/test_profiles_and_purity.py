"""Profiles load as validated data, and the rules core stays pure."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from firmware_py.core import RuleKey, RulingKind
from firmware_py.errors import ConfigError
from firmware_py.profiles import DEFAULT_DIR, load_profiles
from tests.rules.table_driver import Table

CORE = Path(__file__).resolve().parents[1] / "firmware_py" / "core"
FORBIDDEN = {"time", "datetime", "random", "os", "io", "pathlib", "threading", "asyncio", "socket", "subprocess",
             "sqlite3", "json", "tomllib", "logging", "secrets", "uuid", "pygame", "gpiozero", "serial",
             "mfrc522", "spidev", "hardware", "display"}


def test_every_profile_loads_with_its_parent_chain() -> None:
    profiles = load_profiles()
    assert set(profiles) == {"robert", "upt", "rpl", "wfp", "wfp-dealer"}
    assert profiles["wfp-dealer"].parent == "wfp" and profiles["wfp"].parent == "robert"
    assert profiles["robert"].parent is None
    # Inherited rules keep the citation of the rulebook that has them.
    assert profiles["wfp-dealer"].rule(RuleKey.JOKER).cite == "wfp: Irregularities 7"


def test_core_imports_no_io_clock_or_randomness() -> None:
    for path in CORE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


@pytest.fixture
def profiles_dir(tmp_path: Path) -> Path:
    target = tmp_path / "profiles"
    shutil.copytree(DEFAULT_DIR, target)
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_unknown_rule_key_names_file_and_key_with_a_suggestion(profiles_dir: Path) -> None:
    _edit(profiles_dir / "upt.toml", "[rules.two_boxed]", "[rules.two_boxd]")
    with pytest.raises(ConfigError) as err:
        load_profiles(profiles_dir)
    message = str(err.value)
    assert "upt.toml" in message and "rules.two_boxd" in message and "did you mean 'two_boxed'" in message


def test_wrong_type_names_the_key(profiles_dir: Path) -> None:
    _edit(profiles_dir / "rpl.toml", "first_cards = 1", 'first_cards = "one"')
    # (RPL's hold'em text: `[rules.exposed_first_cards.holdem]`, the key named with its game table)
    with pytest.raises(ConfigError,
                       match=r"rpl.toml: rules.exposed_first_cards.holdem.first_cards: must be a whole number"):
        load_profiles(profiles_dir)


def test_unknown_procedure_lists_the_choices(profiles_dir: Path) -> None:
    _edit(profiles_dir / "wfp.toml", 'procedure = "next_burn"', 'procedure = "shuffle"')
    with pytest.raises(ConfigError, match=r"must be one of redeal, next_burn"):
        load_profiles(profiles_dir)


def test_missing_parent_is_named(profiles_dir: Path) -> None:
    _edit(profiles_dir / "wfp-dealer.toml", 'parent = "wfp"', 'parent = "wpf"')
    with pytest.raises(ConfigError, match=r"wfp-dealer.toml: parent: no profile 'wpf'; did you mean 'wfp'"):
        load_profiles(profiles_dir)


def test_inheritance_cycle_is_an_error(profiles_dir: Path) -> None:
    text = (profiles_dir / "robert.toml").read_text()
    cyclic = text.replace('profile = "robert"\n', 'profile = "robert"\nparent = "upt"\n')
    (profiles_dir / "robert.toml").write_text(cyclic)
    with pytest.raises(ConfigError, match="inheritance cycle"):
        load_profiles(profiles_dir)


def test_root_profile_missing_a_rule_is_an_error(profiles_dir: Path) -> None:
    path = profiles_dir / "robert.toml"
    path.write_text(re.sub(r"\[rules\.two_boxed\]\n(.+\n)+", "", path.read_text()))
    with pytest.raises(ConfigError, match=r"robert.toml: rules.two_boxed"):
        load_profiles(profiles_dir)


def test_broken_toml_names_the_file(profiles_dir: Path) -> None:
    (profiles_dir / "upt.toml").write_text("profile = \n")
    with pytest.raises(ConfigError, match=r"upt.toml: not valid TOML"):
        load_profiles(profiles_dir)


def test_a_new_house_profile_is_a_file_and_changes_the_ruling(profiles_dir: Path) -> None:
    """A rule changed by editing a profile file alone, without touching code."""
    (profiles_dir / "house.toml").write_text(
        'profile = "house"\ntitle = "House"\nparent = "robert"\n\n'
        '[rules.exposed_first_cards]\nrule = "House 1"\nfirst_cards = 1\n')
    table = Table("house", profiles=load_profiles(profiles_dir))  # type: ignore[arg-type]
    table.new_hand()
    table.deal(count=2)
    assert table.press("exposed")[0].ruling is RulingKind.EXPOSED_CARD


def test_profiles_report_every_mistake_in_every_file_at_once(profiles_dir: Path) -> None:
    _edit(profiles_dir / "rpl.toml", "first_cards = 1", 'first_cards = "one"')
    _edit(profiles_dir / "wfp.toml", 'procedure = "next_burn"', 'procedure = "shuffle"')
    _edit(profiles_dir / "upt.toml", "[rules.two_boxed]", "[rules.two_boxd]")
    with pytest.raises(ConfigError) as err:
        load_profiles(profiles_dir)
    lines = str(err.value).splitlines()
    assert len(lines) == 3
    for line, start, suggestion in zip(lines, ["rpl.toml: rules.exposed_first_cards.holdem.first_cards: ",
                                               "upt.toml: rules.two_boxd: ", "wfp.toml: rules."],
                                       ["must be a whole number", "did you mean 'two_boxed'",
                                        "must be one of redeal, next_burn"], strict=True):
        assert f"{profiles_dir / start}" in line and suggestion in line


def test_a_rule_missing_from_the_root_is_one_mistake_not_one_per_profile_that_inherits_it(profiles_dir: Path) -> None:
    path = profiles_dir / "robert.toml"
    path.write_text(re.sub(r"\[rules\.(two_boxed|joker)\]\n(.+\n)+", "", path.read_text()))
    with pytest.raises(ConfigError) as err:
        load_profiles(profiles_dir)
    assert str(err.value).splitlines() == [f"{path}: rules.{key}: missing (and not inherited from a parent)"
                                           for key in ("two_boxed", "joker")]


def test_an_inheritance_cycle_is_reported_once(profiles_dir: Path) -> None:
    _edit(profiles_dir / "robert.toml", 'profile = "robert"\n', 'profile = "robert"\nparent = "upt"\n')
    with pytest.raises(ConfigError) as err:
        load_profiles(profiles_dir)
    assert len(str(err.value).splitlines()) == 1 and "inheritance cycle: robert" in str(err.value)


def test_profiles_with_a_child_overriding_one_parameter_are_still_accepted(profiles_dir: Path) -> None:
    (profiles_dir / "house.toml").write_text('profile = "house"\nparent = "wfp"\n\n'
                                            '[rules.min_raise]\nprocedure = "double_faced"\n')
    profiles = load_profiles(profiles_dir)
    assert profiles["house"].rule(RuleKey.MIN_RAISE).procedure == "double_faced"
    assert profiles["house"].rule(RuleKey.JOKER).cite == profiles["wfp"].rule(RuleKey.JOKER).cite
