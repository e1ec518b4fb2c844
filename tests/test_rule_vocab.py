"""The rule vocabulary: every rule key the core consults is a profile's rule, and the other way round."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.core.profiles import PROCEDURES, RULE_PARAMS, build_profiles
from firmware_py.core.vocab import Cause, RuleKey
from firmware_py.errors import ConfigError
from firmware_py.profiles import DEFAULT_DIR, load_profiles

CORE = Path(__file__).resolve().parents[1] / "firmware_py" / "core"


def _profile_files() -> dict[str, dict[str, object]]:
    return {path.stem: tomllib.loads(path.read_text()) for path in sorted(DEFAULT_DIR.glob("*.toml"))}


def test_every_rule_key_is_defined_in_the_root_profile() -> None:
    assert set(RULE_PARAMS) == set(RuleKey)
    roots = [data for data in _profile_files().values() if "parent" not in data]
    assert [root["profile"] for root in roots] == ["robert"]
    rules = roots[0]["rules"]
    assert isinstance(rules, dict)
    for key in RuleKey:
        entry = rules.get(str(key))
        assert entry is not None, f"robert.toml has no [rules.{key}]"
        assert {"rule", "remedy", *RULE_PARAMS[key]} <= set(entry), f"robert.toml: rules.{key} is incomplete"


def test_every_profile_rule_key_is_known() -> None:
    for name, data in _profile_files().items():
        rules = data.get("rules", {})
        assert isinstance(rules, dict)
        unknown = set(rules) - {str(key) for key in RuleKey}
        assert not unknown, f"{name}.toml names rules the core does not know: {sorted(unknown)}"


def test_the_core_spells_no_rule_key_or_cause_as_a_bare_string() -> None:
    words = {str(key) for key in RuleKey} | {str(cause) for cause in Cause}
    for path in CORE.glob("*.py"):
        if path.name == "vocab.py":
            continue
        tree = ast.parse(path.read_text())
        # The members of other enums (RulingKind.EXTRA_CARD = "extra_card") are names of their own.
        members = {id(statement.value) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef)
                   for statement in cls.body if isinstance(statement, ast.Assign)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in members:
                assert node.value not in words, f"{path.name}:{node.lineno}: {node.value!r} is a bare string"
            if isinstance(node, ast.JoinedStr):  # f"premature_{street}": a key built at run time
                head = node.values[0] if node.values else None
                if isinstance(head, ast.Constant) and isinstance(head.value, str):
                    assert not any(word.startswith(head.value) and head.value.endswith("_") for word in words), \
                        f"{path.name}:{node.lineno}: a rule key or cause built at run time"


def test_typed_parameters_refuse_the_wrong_type() -> None:
    robert = load_profiles()["robert"]
    assert robert.rule(RuleKey.SHORT_CARD).number("fixable_short") >= 0
    assert robert.rule(RuleKey.BOXED_CARD).procedure in PROCEDURES[RuleKey.BOXED_CARD]
    with pytest.raises(TypeError, match=r"rules\.boxed_card\.procedure is not a whole-number parameter"):
        robert.rule(RuleKey.BOXED_CARD).number("procedure")
    with pytest.raises(KeyError):
        robert.rule(RuleKey.TWO_BOXED).word("procedure")


def test_a_parent_cycle_is_reported_naming_the_files() -> None:
    files = _profile_files()
    raw = {name: (f"profiles/{name}.toml", data) for name, data in files.items()}
    raw["robert"] = ("profiles/robert.toml", {**files["robert"], "parent": "upt"})
    with pytest.raises(ValueError, match="inheritance cycle") as err:
        build_profiles(raw)
    message = str(err.value)
    assert "profiles/robert.toml" in message and "profiles/upt.toml" in message, message


def test_profile_show_prints_each_rule_with_its_source_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "show", "wfp-dealer"]) == 0
    out = capsys.readouterr().out
    assert "inherits: robert (" in out and "-> wfp (" in out and "-> wfp-dealer (" in out
    # The joker's rule is wfp's; its citation comes from wfp.toml.
    block = out.split("[rules.joker]\n", 1)[1].split("\n[", 1)[0]
    assert "rule: wfp: Irregularities 7  (wfp.toml)" in block
    assert all(f"[rules.{key}]" in out for key in RuleKey)


def test_profile_show_names_an_unknown_profile_with_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "show", "uptt"]) == 2
    assert "no profile 'uptt'; did you mean 'upt'?" in capsys.readouterr().err


def test_profile_show_reports_a_broken_profile_directory(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "show", "upt", "--profiles", str(tmp_path)]) == 2
    assert "no profile files" in capsys.readouterr().err
    with pytest.raises(ConfigError):
        load_profiles(tmp_path)


@pytest.mark.parametrize(("name", "title", "where"), [
    ("upt", "Ultimate Poker Tour Rules", "Ultimate Poker Tour's website"),
    ("robert", "Robert's Rules of Poker", "readybetgo.com"),
    ("rpl", "RPL League Rules", "Raleigh Poker League"),
    ("wfp", "The Official Poker Rulebook for WFP", "WorldFreePoker.com"),
    ("wfp-dealer", "WFP dealer guidelines, revised January 2024", "WorldFreePoker.com"),
])
def test_profile_show_names_the_rulebook_by_title_and_where_to_read_it(
        name: str, title: str, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    # The rulebooks are not in the repository: a file name such as 003_205a0dcac8e3ecdd.txt points nowhere.
    assert main(["profile", "show", name]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith(f"  rulebook: {title}")
    assert lines[3].startswith("  read it: ") and where in lines[3]
    assert ".txt" not in "\n".join(lines[:4])


def test_profile_show_names_the_games_the_house_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "show", "wfp-dealer"]) == 0
    games = "holdem, omaha, omaha5, limit_holdem, omaha_hilo, limit_omaha_hilo"
    assert f"  games: {games}" in capsys.readouterr().out.splitlines()


def test_a_profile_naming_an_unknown_game_names_the_file_and_a_suggestion(tmp_path: Path) -> None:
    for path in DEFAULT_DIR.glob("*.toml"):
        (tmp_path / path.name).write_text(path.read_text())
    upt = tmp_path / "upt.toml"
    upt.write_text(upt.read_text().replace('parent = "robert"\n', 'parent = "robert"\ngames = ["holdem", "omah"]\n'))
    with pytest.raises(ConfigError) as caught:
        load_profiles(tmp_path)
    message = str(caught.value)
    assert "upt.toml" in message and "games" in message and "did you mean 'omaha'" in message


CHIP_WORDS = {  # profile: the smallest unit's cite, the order's, the color-up's words and cite
    "wfp": ("(wfp: Ties 3)", "(wfp: Ties 5(a))", "no player more than one", "wfp: Tournament Procedures 6"),
    "wfp-dealer": ("(wfp: Ties 3)", "(wfp: Ties 5(a))", "no player more than one", "wfp: Tournament Procedures 6"),
    "robert": ("(robert: Ties 3)", "(robert: Ties 5(a))", "a player may win more than one", "robert: Tournaments 11"),
    "upt": ("(robert: Ties 3)", "(robert: Ties 5(a))", "a player may win more than one", "upt: Tournaments 11"),
    "rpl": ("(rpl: Ties 2)", "(rpl: Ties 4(a))", "no race: each player's odd chips are chipped up",
            "rpl: Tournaments 10"),
}


@pytest.mark.parametrize("name", CHIP_WORDS)
def test_profile_show_says_the_chip_rules_in_words(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The smallest unit ("An odd chip will be broken down to the smallest unit used in the game"), who gets an
    odd chip, and what a color-up does, each in words with its cite."""
    unit, order, race, race_cite = CHIP_WORDS[name]
    assert main(["profile", "show", name]) == 0
    block = capsys.readouterr().out.split("[chips] (in words)\n", 1)[1].split("\n\n", 1)[0]
    lines = dict(line.strip().split(": ", 1) for line in block.splitlines())
    assert lines["smallest unit"].startswith("every pot is split in the smallest chip in play") and unit in block
    assert "first clockwise from the button " + order in lines["odd chips"]
    assert "the lowest chip in play leaves the table" in lines["color-up"]
    assert race in lines["color-up"] and f"({race_cite}" in lines["color-up"]


@pytest.mark.parametrize(("name", "words"), [
    ("upt", ["upt: House Rules: Out Of Turn Bet): posted at once, the minimum bet (the big blind) or the minimum raise",
             "call, fold or raise (no check)", "may only check", "stay in the pot"]),
    ("wfp-dealer", ["wfp-dealer: Act in Turn, Know the Blinds): posted at once, the amount made",
                    "mucked at once", "a blind's fold before anyone acted is given back",
                    "A check or call out of turn (wfp: Betting and Raising 7)"]),
    ("robert", ["held for the seat's turn, nothing in before", "makes a bet, call or raise",
                "by a seat that made a check or call out of turn"]),
    ("rpl", ["by a seat that made a check out of turn"]),
])
def test_profile_show_prints_the_out_of_turn_procedure_in_words(name: str, words: list[str],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "show", name]) == 0
    out = capsys.readouterr().out.split("Action out of turn:\n", 1)[1]
    assert all(word in out for word in words), out


def test_profile_show_prints_the_rules_a_game_has_its_own_text_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "show", "rpl"]) == 0
    out = capsys.readouterr().out
    assert "holdem: [rules.exposed_first_cards] rpl: Hold'em 2 (general: rpl: Misdeals 1(a))" in out


def _with_rule(entry: dict[str, object]) -> dict[str, tuple[str, dict[str, object]]]:
    files = {path.stem: tomllib.loads(path.read_text()) for path in DEFAULT_DIR.glob("*.toml")}
    files["upt"]["rules"]["exposed_first_cards"] = entry  # type: ignore[index]
    return {name: (f"profiles/{name}.toml", data) for name, data in files.items()}


def test_a_rules_text_for_some_games_must_name_them() -> None:
    with pytest.raises(ValueError, match=r"upt.toml: rules.exposed_first_cards.holdem.games: missing"):
        build_profiles(_with_rule({"rule": "Misdeals 2(a)", "holdem": {"rule": "Hold'em 1"}}))


def test_a_rules_text_for_a_game_that_does_not_exist_is_named_with_a_suggestion() -> None:
    with pytest.raises(ValueError, match=r"rules.exposed_first_cards.holdem.games: 'holdum' is not a game; did "
                                         r"you mean 'holdem'"):
        build_profiles(_with_rule({"rule": "Misdeals 2(a)", "holdem": {"games": ["holdum"], "rule": "Hold'em 1"}}))


def test_a_rule_scoped_to_games_leaves_the_parents_text_to_the_others() -> None:
    profiles = build_profiles(_with_rule({"games": ["omaha"], "rule": "Omaha 1"}))
    upt = profiles["upt"]
    assert upt.rule(RuleKey.EXPOSED_FIRST_CARDS, "omaha").cite == "upt: Omaha 1"
    assert upt.rule(RuleKey.EXPOSED_FIRST_CARDS, "holdem").cite == "robert: Misdeals 1(a)"
