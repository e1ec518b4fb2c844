"""An undo is a press like any other: what it rules is told, as a ruling, with its verdict (the daemon
announces a press's rulings to the dealer, the buzzer and the tracker)."""

from __future__ import annotations

from firmware_py.core import Button, ButtonName, RulingKind, Verdict
from tests.rules.table_driver import Table


def test_an_undo_that_makes_the_dealt_flop_premature_announces_the_ruling() -> None:
    """Robert's Hold'em 7: the big blind's check closed the round and the flop came; undoing the check reopens
    the round, so the flop was dealt before the betting was complete: a premature flop, ruled and told."""
    table = Table("robert")
    table.new_hand()
    table.deal()
    table.act("call", "call", "call", "check")
    table.street(["Qs", "Js", "4d"])
    assert table.core.unconfirmed == ()
    outcome = table.core.feed(Button(t=table.tick(), name=ButtonName.UNDO))
    assert [r.ruling for r in outcome.rulings] == [RulingKind.PREMATURE_CARD]
    assert "Hold'em 7" in outcome.rulings[0].rule and outcome.verdict is Verdict.RULED
    assert table.core.unconfirmed == outcome.rulings  # shown until the dealer confirms it


def test_an_undo_that_rules_nothing_new_tells_no_ruling_again() -> None:
    table = Table("robert", seats=(1, 2, 3, 4, 5, 6))
    table.new_hand()
    table.deal()
    table.press("call", seat=6)  # out of turn: a ruling, open
    table.act("call")
    outcome = table.core.feed(Button(t=table.tick(), name=ButtonName.UNDO))
    assert outcome.rulings == () and outcome.verdict is Verdict.TAKEN
    assert len(table.core.unconfirmed) == 1  # the out-of-turn ruling is still open, not told twice
