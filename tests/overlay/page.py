"""Reading the overlay page as a viewer sees it: the text of every strip, the board, the pot, the result."""

from __future__ import annotations

from typing import Any

READ = """() => {
  const text = (node) => node && !node.hidden && !node.closest('[hidden]') ? node.textContent : null;
  return {
    strips: [...document.querySelectorAll('#strips .strip')].map((s) => ({
      name: text(s.querySelector('.name')), stack: text(s.querySelector('.stack')),
      action: text(s.querySelector('.action')), hand: text(s.querySelector('.hand')),
      win: text(s.querySelector('.win')), tie: text(s.querySelector('.tie')),
      cards: [...s.querySelectorAll('.cards .card')].map((c) => c.dataset.card),
      badges: text(s.querySelector('.badges')), cls: s.className })),
    board: [...document.querySelectorAll('#board .card')].map((c) => c.dataset.card),
    pot: text(document.querySelector('#pot .total')), side: text(document.querySelector('#pot .side')),
    result: document.getElementById('result').hidden ? null
      : [...document.querySelectorAll('#result .line')].map((l) => l.textContent),
    ruling: text(document.querySelector('#ruling .title')),
    level: text(document.querySelector('#level .blinds')), clock: text(document.querySelector('#level .clock')),
    html: document.getElementById('overlay').innerHTML,
  };
}"""

# The session cookie of each served production room (its origin -> "name=value"): the control's paths
# need a paired session; the tests' `post` and `get` use the room's own.
PAIRED: dict[str, str] = {}


def read(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(READ))


def wait_seq(page: Any, seq: int | None, timeout_ms: float = 5000) -> None:
    """Until the page has drawn the message `seq` (None: nothing on air)."""
    page.wait_for_function("(seq) => window.overlayFrames.length && window.overlayFrames.at(-1).seq === seq",
                           arg=seq, timeout=timeout_ms)


def frames(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.overlayFrames"))
