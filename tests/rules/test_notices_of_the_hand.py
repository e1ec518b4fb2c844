"""The screens' notices are the current hand's (issue 35): what the last hand said is gone at the next deal,
and a verdict is the pressed event's own, whatever else the table says at the same time."""

from __future__ import annotations

from firmware_py.core import Button, ButtonName, Verdict
from tests.rules.table_driver import Table


def test_the_last_hands_notices_are_gone_at_the_next_deal() -> None:
    table = Table("robert")
    table.new_hand()
    table.deal()
    table.press("fold", seat=9)  # refused: seat 9 cannot act
    assert table.core.snapshot().notices
    table.press("misdeal")
    table.new_hand()
    assert table.core.snapshot().notices == ()


def test_a_call_that_makes_a_held_fold_not_binding_is_taken() -> None:
    """Robert's Betting and Raising 10: seat 6's fold out of turn is held; seats 4 and 5 call; the notice that the
    fold no longer binds comes with seat 5's call, which is taken, not refused."""
    table = Table("robert", seats=(1, 2, 3, 4, 5, 6))
    table.new_hand()
    table.deal()
    table.press("fold", seat=6)
    table.act("call")
    outcome = table.core.feed(Button(t=table.tick(), name=ButtonName.CALL))
    assert outcome.verdict is Verdict.TAKEN and outcome.refused is None
    assert any("is not binding" in notice.message for notice in outcome.notices)


def test_a_raise_over_the_pot_limit_is_refused_with_its_rulings_words() -> None:
    """Pot-limit Omaha: a raise keyed above the pot draws `bet_too_large` and is not taken: its verdict is a
    refusal in the ruling's words (it was answered 'taken' with the ruling beside it), the ruling told too."""
    table = Table("robert", game="omaha")
    table.level(50, 100)
    table.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    table.new_hand()
    table.deal()
    outcome = table.core.feed(Button(t=table.tick(), name=ButtonName.RAISE, amount=1000))
    assert [str(r.ruling) for r in outcome.rulings] == ["bet_too_large"]
    assert outcome.verdict is Verdict.REFUSED and outcome.refused is not None
    assert outcome.refused.startswith("raise: ") and outcome.rulings[0].rule in outcome.refused
    assert table.core.action_count == 0  # nothing taken
    brought_up = table.core.feed(Button(t=table.tick(), name=ButtonName.RAISE, amount=150))  # under the minimum
    assert brought_up.verdict is Verdict.RULED and table.core.action_count == 1  # taken at the minimum, ruled
