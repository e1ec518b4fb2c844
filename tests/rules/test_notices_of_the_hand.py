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
