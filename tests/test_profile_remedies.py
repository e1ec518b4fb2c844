"""Profile remedies are validated at load: each template is rendered once with sample values, and an error
names the profile file and the key (before, a stray brace dropped the EXPOSED CARD ruling when it fired)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from firmware_py.core import RuleKey, RulingKind
from firmware_py.core.engine import TableCore
from firmware_py.core.profiles import PLACEHOLDERS
from firmware_py.errors import ConfigError
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session

ROOT = Path(__file__).resolve().parents[1]
EXPOSED = 'remedy = "Deal on. Seat {seat} may not keep the {card}'


@pytest.fixture
def profiles(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "config" / "profiles", tmp_path / "profiles")
    return tmp_path / "profiles"


def _edit_exposed_card_remedy(profiles: Path, new: str) -> None:
    path = profiles / "robert.toml"
    text = path.read_text()
    assert EXPOSED in text
    path.write_text(text.replace(EXPOSED, f'remedy = "{new} Seat {{seat}} may not keep the {{card}}', 1))


@pytest.mark.parametrize(("template", "message"), [
    ("Deal on {", "braces do not parse"),
    ("Deal on }", "braces do not parse"),
    ("Deal on {seat:>999999999}", "without a format"),
    ("Deal on {seat!r}", "without a format"),
    ("Deal on {card.upper}", "unknown placeholder"),
    ("Deal on {seat[0]}", "unknown placeholder"),
    ("Deal on {sEat}", "unknown placeholder {sEat}; did you mean 'seat'"),
])
def test_a_bad_remedy_template_names_the_profile_file_and_key(profiles: Path, template: str, message: str) -> None:
    _edit_exposed_card_remedy(profiles, template)
    started = time.monotonic()
    with pytest.raises(ConfigError) as caught:
        load_profiles(profiles)
    assert time.monotonic() - started < 5  # no gigabyte string built
    assert f"{profiles / 'robert.toml'}: rules.exposed_card.remedy: " in str(caught.value)
    assert message in str(caught.value)


def test_a_literal_brace_written_double_loads_and_renders(profiles: Path) -> None:
    _edit_exposed_card_remedy(profiles, "Deal on {{really}}.")
    rule = load_profiles(profiles)["robert"].rule(RuleKey.EXPOSED_CARD)
    assert rule.text(seat=6, card="Qc").startswith("Deal on {really}. Seat 6 may not keep the Qc")


def test_every_shipped_remedy_renders_with_the_sample_values() -> None:
    for profile in load_profiles().values():
        for rule in profile.rules.values():
            text = rule.text(**PLACEHOLDERS)
            assert "{" not in text.replace("{{", "") and "?" not in text.split(" ")[0]


def test_the_exposed_card_ruling_fires_with_a_remedy_holding_a_literal_brace(profiles: Path) -> None:
    _edit_exposed_card_remedy(profiles, "Deal on {{!}}.")
    core = TableCore(load_profiles(profiles))
    rulings = [r for _n, event in read_session(ROOT / "tests" / "sessions" / "exposed_card_upt.jsonl")
               for r in core.feed(event).rulings]
    exposed = [r for r in rulings if r.ruling is RulingKind.EXPOSED_CARD]
    assert len(exposed) == 1 and exposed[0].remedy.startswith("Deal on {!}. Seat 2 may not keep the 9d")
    assert not any(r.ruling is RulingKind.EXTRA_CARD for r in rulings)
