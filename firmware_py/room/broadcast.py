"""The broadcast off the table: the production machine subscribes to a feature table and applies the delay.

Each broadcast message is held from the moment it *arrives here* (this machine's monotonic
clock), for the full secure delay, before the picture or the JSON feed may use it: arrival is
always after the moment at the table, so the delay on air is at least the configured one, with
no trust in either machine's wall clock. The table may also hold its broadcast messages back
(`broadcast_hold_s` in its `[room]`), so hole cards are not on the network or in the broker during
that time; the two add up (see docs/room.md). Nothing reads the held messages except `on_air`.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from display.delay import DelayedSnapshots
from firmware_py.core import Cause, Ruling, RulingKind, TableSnapshot
from firmware_py.core.rulings import Street
from firmware_py.core.snapshot import Phase, PlayerState, SeatView
from firmware_py.room.messages import BadMessage, BroadcastMessage, decode, to_dict

logger = logging.getLogger("firmware_py.room.broadcast")


def snapshot_from_broadcast(body: dict[str, Any]) -> TableSnapshot:
    """The TableSnapshot a broadcast message describes (for the table's own broadcast view)."""
    button, small, big, to_act = body.get("button"), body.get("small_blind"), body.get("big_blind"), body.get("to_act")
    seats = tuple(SeatView(seat=int(s["seat"]), state=PlayerState(s["state"]), cards=tuple(s["cards"]),
                           is_button=s["seat"] == button, is_small_blind=s["seat"] == small,
                           is_big_blind=s["seat"] == big, to_act=s["seat"] == to_act) for s in body["seats"])
    showdown = body.get("showdown")
    return TableSnapshot(t=float(body["t"]), profile=str(body.get("profile", "")),
                         profile_title=str(body.get("profile_title", "")), hand_number=int(body["hand"]),
                         phase=Phase(body["phase"]), street=Street(body["street"]) if body.get("street") else None,
                         seats=seats, button=button, small_blind=small, big_blind=big, to_act=to_act,
                         board=tuple(body.get("board", ())), burns=(), in_play=str(body.get("in_play", "")),
                         showdown=ruling_from_json(showdown) if showdown else None)


def ruling_from_json(data: dict[str, Any]) -> Ruling:
    return Ruling(t=float(data["t"]), ruling=RulingKind(data["ruling"]), rule=str(data.get("rule", "")),
                  remedy=str(data.get("remedy", "")), cause=Cause(data["cause"]) if data.get("cause") else None,
                  card=data.get("card"), seat=data.get("seat"),
                  street=Street(data["street"]) if data.get("street") else None,
                  winners=tuple(data["winners"]) if data.get("winners") is not None else None,
                  hand=data.get("hand"))


class DelayedFeed:
    """Broadcast messages held for `delay_s` from their arrival; `on_air(now)` is all anyone may read."""

    def __init__(self, *, delay_s: float, room: str, table: str) -> None:
        self.room, self.table = room, table
        self.delayed: DelayedSnapshots[dict[str, Any]] = DelayedSnapshots(delay_s=delay_s)
        self._lock = threading.Lock()
        self.received = 0
        self.rejected = 0  # another table's, or from the past
        self.quarantined = 0  # failed the schema: counted and logged, never on air

    @property
    def delay_s(self) -> float:
        return self.delayed.delay_s

    def offer(self, topic_name: str, payload: Any, now: float) -> None:
        """A message from the broker (paho's thread): its bytes (or parsed JSON); `now` is this machine's
        monotonic clock. Only a message that passes the broadcast schema can reach the picture."""
        if not topic_name.endswith("/broadcast"):
            return
        try:
            message = decode(topic_name, payload)
        except BadMessage as exc:
            self.quarantined += 1
            logger.warning("broadcast: %s: %s; not shown (%d bad so far)", topic_name[:200], exc, self.quarantined)
            return
        if not isinstance(message, BroadcastMessage) or message.table != self.table or message.room != self.room:
            self.rejected += 1
            return
        body = to_dict(message)
        with self._lock:
            self.received += 1
            try:
                self.delayed.push(now, body)
            except ValueError:  # the clock cannot go backwards; a message cannot come from the past
                self.rejected += 1

    def on_air(self, now: float) -> dict[str, Any] | None:
        with self._lock:
            return self.delayed.at(now)

    def feed(self, now: float) -> dict[str, Any]:
        """What the JSON feed serves: the message on air, or when the broadcast starts."""
        shown = self.on_air(now)
        body: dict[str, Any] = {"v": 1, "room": self.room, "table": self.table, "delay_s": self.delay_s}
        if shown is None:
            first = self.delayed.first_release()
            body["on_air"] = None
            body["starts_in_s"] = None if first is None else round(max(first - now, 0.0), 1)
            return body
        body["on_air"] = {k: v for k, v in shown.items() if k not in ("v", "room", "table")}
        return body


PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>pokertable broadcast</title>
<style>
 html, body { background: transparent; margin: 0; font: 600 28px/1.2 system-ui, sans-serif; color: #fff; }
 .seat { display: inline-block; margin: 6px 10px; padding: 6px 12px; border-radius: 10px;
         background: rgba(10, 14, 20, .72); }
 .folded { opacity: .45; }
 .card { display: inline-block; min-width: 1.6em; margin: 0 2px; padding: 2px 4px; border-radius: 5px;
         background: #fdfbee; color: #141414; text-align: center; }
 .h, .d { color: #c8141e; }
 #board { margin: 10px; }
 #wait { background: rgba(10, 14, 20, .72); padding: 6px 12px; border-radius: 10px; display: inline-block; }
</style></head>
<body><div id="board"></div><div id="seats"></div><div id="wait"></div>
<script>
const card = c => `<span class="card ${c[1]}">${c[0].replace("T", "10")}${{s:"♠",h:"♥",d:"♦",c:"♣"}[c[1]]}</span>`;
async function tick() {
  try {
    const feed = await (await fetch("feed.json", {cache: "no-store"})).json();
    const air = feed.on_air;
    document.getElementById("wait").style.display = air ? "none" : "inline-block";
    if (!air) {
      document.getElementById("wait").textContent = feed.starts_in_s === null ? "Waiting for the table…"
        : `On air in ${Math.ceil(feed.starts_in_s)} s`;
      document.getElementById("board").innerHTML = document.getElementById("seats").innerHTML = "";
      return;
    }
    document.getElementById("board").innerHTML = air.board.map(card).join("");
    document.getElementById("seats").innerHTML = air.seats.filter(s => s.cards.length)
      .map(s => `<div class="seat ${s.state}">Seat ${s.seat} ${s.cards.map(card).join("")}</div>`).join("");
  } catch (e) { /* the producer's page keeps its last picture */ }
}
setInterval(tick, 500); tick();
</script></body></html>
"""


class FeedServer:
    """`/` (a page with a transparent background, for an OBS browser source) and `/feed.json`, on 127.0.0.1."""

    def __init__(self, feed: DelayedFeed, *, port: int, clock: Any = time.monotonic) -> None:
        self.feed = feed
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                if path in ("/", "/index.html"):
                    self._send(PAGE.encode(), "text/html; charset=utf-8")
                elif path == "/feed.json":
                    self._send(json.dumps(outer.feed.feed(clock())).encode(), "application/json")
                else:
                    self.send_error(HTTPStatus.NOT_FOUND)

            def _send(self, data: bytes, kind: str) -> None:
                self.send_response(HTTPStatus.OK)
                self.send_header("Content-Type", kind)
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: Any) -> None:  # OBS polls twice a second: no log line each time
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)  # loopback only, never the network
        self.port = int(self.server.server_address[1])
        self._thread = threading.Thread(target=self.server.serve_forever, name="broadcast-feed", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
