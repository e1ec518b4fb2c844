"""The director's page: the tournament's state pushed by server-sent events (Starlette, as the action
tracker's page), with the clock's start and pause and hand-for-hand on the director's buttons.

    GET  /         the page
    GET  /state    the state as JSON (the DirectorState the room reads)
    GET  /screen   the room's clock screen (a TV); GET /player: a player's view on a phone (both read-only,
                   firmware_py/room/tournament_screens.py); GET /public, /public/events: what they read
    GET  /results.json, /results.csv   the results (places, prizes, bounties, re-entries, rebuys, add-ons, deal)
    GET  /events   the same, pushed on every change (server-sent events), and a `ping` every KEEPALIVE_S:
                   a page that hears nothing for STALE_S says it has lost the director and stops its clock
    POST /clock    {"run": true|false}: start or pause the clock
    POST /bubble   {"hand_for_hand": true|false}
    POST /register {"name": "...", "card": "..."} a late entry (seat by draw, or an alternate);
                   {"person": "<busted entry>"} a re-entry
    POST /rebuy    {"player": "<entry>"}    POST /add_on {"player": "<entry>"}
    POST /deal     {"method": "icm"|"chip-chop"|"custom", "agreed": [<every player left>], "play_for": 0,
                   "custom": {"<player>": amount}}
    POST /deal/preview  the same without "agreed": each player's share, nothing recorded
    POST /undo     {"n": <action number>}   each answers {"ok": true, "entry": {...}} or 409 with the reason

Behind the room's guards (firmware_py/web/guard.py): only its own Host, POSTs only from its own Origin,
a bound on requests and streams, a failed request logged in one line.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Iterable
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from firmware_py.room.tournament_screens import CLOCK_PAGE, PLAYER_PAGE, public_state
from firmware_py.web.guard import Bounded, Contained, OriginGuard

logger = logging.getLogger(__name__)
KEEPALIVE_S = 2.0  # the page's stale indicator comes on after STALE_S without a word (see PAGE)
POLL_S = 0.25
HEADERS = {
    "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                               "connect-src 'self'; frame-ancestors 'none'",
}


class DirectorPage:
    def __init__(self, director: Any, *, hosts: Iterable[str]) -> None:
        self.director = director
        self.closing = False
        app = Starlette(routes=[
            Route("/", self._page, methods=["GET"]),
            Route("/state", self._state, methods=["GET"]),
            Route("/events", self._events, methods=["GET"]),
            Route("/screen", self._screen, methods=["GET"]),
            Route("/player", self._player, methods=["GET"]),
            Route("/public", self._public, methods=["GET"]),
            Route("/public/events", self._public_events, methods=["GET"]),
            Route("/results.json", self._results_json, methods=["GET"]),
            Route("/results.csv", self._results_csv, methods=["GET"]),
            Route("/clock", self._clock, methods=["POST"]),
            Route("/bubble", self._bubble, methods=["POST"]),
            Route("/register", self._register, methods=["POST"]),
            Route("/rebuy", self._rebuy, methods=["POST"]),
            Route("/add_on", self._add_on, methods=["POST"]),
            Route("/undo", self._undo, methods=["POST"]),
            Route("/deal", self._deal, methods=["POST"]),
            Route("/deal/preview", self._deal_preview, methods=["POST"]),
        ])
        self.guard = OriginGuard(Bounded(app, limit=32, streams=16, stream_paths=["/events", "/public/events"]), hosts=hosts)
        self.app = Contained(self.guard, name="tournament page")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)

    def state_json(self) -> str:
        return msgspec.json.encode(self.director.state()).decode()

    async def _page(self, _request: Request) -> Response:
        return HTMLResponse(PAGE, headers=HEADERS)

    async def _state(self, _request: Request) -> Response:
        return Response(self.state_json(), media_type="application/json", headers=HEADERS)

    async def _screen(self, _request: Request) -> Response:
        return HTMLResponse(CLOCK_PAGE, headers=HEADERS)

    async def _player(self, _request: Request) -> Response:
        return HTMLResponse(PLAYER_PAGE, headers=HEADERS)

    def public_json(self) -> str:
        return json.dumps(public_state(self.director.state()), separators=(",", ":"))

    async def _public(self, _request: Request) -> Response:
        return Response(self.public_json(), media_type="application/json", headers=HEADERS)

    async def _public_events(self, request: Request) -> Response:
        return self._stream(request, self.public_json)

    async def _events(self, request: Request) -> Response:
        return self._stream(request, self.state_json)

    def _stream(self, request: Request, body: Any) -> Response:
        async def stream() -> AsyncIterator[str]:
            sent = -1
            quiet = 0.0
            while not self.closing:
                version = self.director.version
                if version != sent:
                    sent = version
                    quiet = 0.0
                    yield f"event: state\ndata: {body()}\n\n"
                await asyncio.sleep(POLL_S)
                quiet += POLL_S
                if quiet >= KEEPALIVE_S:
                    quiet = 0.0
                    yield "event: ping\ndata: {}\n\n"
                if await request.is_disconnected():
                    return

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    async def _body(self, request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > 1000:
            raise ValueError("the request is too long")
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            raise ValueError("the request is not JSON") from None
        if not isinstance(body, dict):
            raise ValueError("the request must be a JSON object")
        return body

    async def _clock(self, request: Request) -> Response:
        try:
            body = await self._body(request)
        except ValueError as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=400, headers=HEADERS)
        run = body.get("run")
        if self.director.over:
            return JSONResponse({"ok": False, "error": "the tournament is over: its clock is stopped"},
                                status_code=409, headers=HEADERS)
        if not isinstance(run, bool):
            return JSONResponse({"ok": False, "error": "say {\"run\": true} or {\"run\": false}"}, status_code=400,
                                headers=HEADERS)
        (self.director.start_clock if run else self.director.pause_clock)()
        return JSONResponse({"ok": True}, headers=HEADERS)

    async def _bubble(self, request: Request) -> Response:
        try:
            body = await self._body(request)
        except ValueError as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=400, headers=HEADERS)
        on = body.get("hand_for_hand")
        if self.director.over:
            return JSONResponse({"ok": False, "error": "the tournament is over: no hand-for-hand"},
                                status_code=409, headers=HEADERS)
        if not isinstance(on, bool):
            return JSONResponse({"ok": False, "error": "say {\"hand_for_hand\": true} or false"}, status_code=400,
                                headers=HEADERS)
        self.director.hand_for_hand(on)
        return JSONResponse({"ok": True}, headers=HEADERS)


    async def _results_json(self, _request: Request) -> Response:
        return JSONResponse(self.director.results(), headers={
            **HEADERS, "Content-Disposition": "attachment; filename=results.json"})

    async def _results_csv(self, _request: Request) -> Response:
        return Response(self.director.results_csv(), media_type="text/csv; charset=utf-8", headers={
            **HEADERS, "Content-Disposition": "attachment; filename=results.csv"})

    async def _act(self, request: Request, act: Any) -> Response:
        """An action on the field or the money: done and journaled, or refused with the director's reason (409)."""
        try:
            body = await self._body(request)
        except ValueError as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=400, headers=HEADERS)
        try:
            entry = act(body)
        except (ValueError, TypeError, KeyError) as exc:
            return JSONResponse({"ok": False, "error": str(exc)[:500]}, status_code=409, headers=HEADERS)
        return JSONResponse({"ok": True, "entry": msgspec.to_builtins(entry)}, headers=HEADERS)

    async def _register(self, request: Request) -> Response:
        return await self._act(request, lambda b: self.director.register(
            _text(b, "name", required="person" not in b), card=_text(b, "card"), person=_text(b, "person")))

    async def _rebuy(self, request: Request) -> Response:
        return await self._act(request, lambda b: self.director.rebuy(_text(b, "player", required=True)))

    async def _add_on(self, request: Request) -> Response:
        return await self._act(request, lambda b: self.director.add_on(_text(b, "player", required=True)))

    async def _deal(self, request: Request) -> Response:
        def deal(body: dict[str, Any]) -> Any:
            agreed = body.get("agreed")
            if not isinstance(agreed, list) or not all(isinstance(p, str) for p in agreed) or len(agreed) > 64:
                raise ValueError("agreed: the ids of the players who agree (every player left)")
            play_for, custom = _deal_terms(body)
            return self.director.make_deal(_text(body, "method", required=True), agreed=agreed, play_for=play_for,
                                           custom=custom)
        return await self._act(request, deal)

    async def _deal_preview(self, request: Request) -> Response:
        def preview(body: dict[str, Any]) -> Any:
            play_for, custom = _deal_terms(body)
            return self.director.deal_preview(_text(body, "method", required=True), play_for=play_for, custom=custom)
        return await self._act(request, preview)

    async def _undo(self, request: Request) -> Response:
        def undo(body: dict[str, Any]) -> Any:
            n = body.get("n")
            if isinstance(n, bool) or not isinstance(n, int):
                raise ValueError("say {\"n\": <the action's number>}")
            return self.director.undo(n)
        return await self._act(request, undo)


def _deal_terms(body: dict[str, Any]) -> tuple[int, dict[str, int]]:
    play_for, custom = body.get("play_for", 0), body.get("custom") or {}
    if isinstance(play_for, bool) or not isinstance(play_for, int) or not isinstance(custom, dict) or any(
            isinstance(v, bool) or not isinstance(v, int) for v in custom.values()) or len(custom) > 64:
        raise ValueError("play_for: an amount; custom: {player: amount}")
    return play_for, custom


def _text(body: dict[str, Any], key: str, *, required: bool = False) -> str:
    value = body.get(key, "")
    if not isinstance(value, str) or len(value) > 200 or (required and not value.strip()):
        raise ValueError(f"{key}: a text of at most 200 characters" + (" is needed" if required else ""))
    return value


def director_app(director: Any, *, hosts: Iterable[str]) -> DirectorPage:
    """The page's ASGI app; `app.guard.set_hosts` once the server's port is known."""
    return DirectorPage(director, hosts=hosts)


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tournament director</title>
<style>
:root { --bg:#0f1a14; --panel:#17261d; --line:#2b4434; --ink:#eef3ef; --dim:#9db3a4; --gold:#f2c14e; --red:#e0605a;
        --blue:#6fb3e8; --green:#5fcf8a; }
* { box-sizing:border-box; }
body { margin:0; font:15px/1.35 system-ui, sans-serif; background:var(--bg); color:var(--ink); }
header { display:flex; gap:24px; align-items:center; padding:12px 18px; background:var(--panel);
         border-bottom:1px solid var(--line); flex-wrap:wrap; }
h1 { font-size:18px; margin:0; font-weight:600; }
h2 { font-size:14px; text-transform:uppercase; letter-spacing:.06em; color:var(--dim); margin:0 0 8px; }
.blinds { font-size:30px; font-weight:700; color:var(--gold); }
.clock { font-size:30px; font-variant-numeric:tabular-nums; }
.dim { color:var(--dim); }
button { background:#24402f; color:var(--ink); border:1px solid var(--line); border-radius:6px; padding:8px 12px;
         font:inherit; cursor:pointer; }
button.on { background:var(--red); border-color:var(--red); }
main { display:grid; grid-template-columns: 1fr 380px; gap:14px; padding:14px 18px; }
.tables { display:grid; grid-template-columns:repeat(auto-fill, minmax(230px, 1fr)); gap:10px; }
.table { background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:8px 10px; }
.table.hold { border-color:var(--red); }
.table h3 { margin:0 0 4px; font-size:15px; display:flex; justify-content:space-between; }
.seat { display:grid; grid-template-columns:22px 1fr auto; gap:6px; padding:1px 0; font-size:13px; }
.seat .btn { color:var(--gold); font-weight:700; }
.moved { color:var(--blue); font-size:11px; margin-left:4px; }
.holdtext { color:var(--red); font-size:12px; margin-top:4px; }
.panel { background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:10px; margin-bottom:12px; }
.decision { border-top:1px solid var(--line); padding:6px 0; font-size:13px; }
.decision:first-of-type { border-top:none; }
.decision .cite { color:var(--dim); font-size:12px; }
.k-moved { color:var(--blue); } .k-eliminated { color:var(--red); } .k-broken, .k-redrawn { color:var(--gold); }
.k-finished, .k-over { color:var(--green); font-weight:700; }
.refused { border-color:var(--red); } .refused h2 { color:var(--red); }
.refusal { border-top:1px solid var(--line); padding:6px 0; font-size:13px; }
.refusal .why { color:var(--red); }
.stale { display:none; background:#5a4a12; color:#ffe7a0; padding:8px 18px; font-weight:600; }
body.is-stale main, body.is-stale header { opacity:.55; }
.over { display:none; background:#1f5134; color:#dff7e6; padding:10px 18px; font-size:18px; font-weight:700; }
button:disabled { opacity:.45; cursor:not-allowed; }
.rule { color:var(--dim); font-size:11px; }
.dealrow { display:block; }
#decisions { max-height:520px; overflow-y:auto; }
.placesbox { max-height:190px; overflow-y:auto; }
table.places { width:100%; border-collapse:collapse; font-size:13px; }
table.places td { padding:2px 4px; border-top:1px solid var(--line); }
.stats span { margin-right:16px; }
.banner { padding:8px 18px; background:var(--red); color:white; font-weight:600; display:none; }
.winner { padding:10px 18px; background:var(--green); color:#082; font-weight:700; display:none; font-size:18px; }
</style></head>
<body>
<header>
  <div><h1 id="title">Tournament</h1><div class="dim" id="structure"></div></div>
  <div><div class="dim">Level <span id="levelno"></span></div><div class="blinds" id="blinds">-</div></div>
  <div><div class="dim" id="clocklabel">Time left</div><div class="clock" id="clock">--:--</div></div>
  <div class="dim">Next: <span id="next"></span></div>
  <div style="margin-left:auto; display:flex; gap:8px">
    <button id="clockbtn">Start clock</button>
    <button id="h4hbtn">Start hand-for-hand</button>
  </div>
</header>
<div class="stale" id="stale" role="alert"></div>
<div class="over" id="over"></div>
<div class="banner" id="banner"></div>
<div class="winner" id="winner"></div>
<main>
  <section>
    <div class="stats panel" id="stats"></div>
    <div class="tables" id="tables"></div>
  </section>
  <aside>
    <div class="panel refused" id="refusedbox" style="display:none"><h2>Refused reports (not applied)</h2><div id="refused"></div></div>
    <div class="panel" id="entrybox"><h2>Registration</h2>
      <div class="dim" id="late"></div>
      <form id="regform"><input id="regname" placeholder="Name" maxlength="200" required>
        <input id="regcard" placeholder="Player card (optional)" maxlength="64"><button type="submit">Register</button></form>
      <form id="buyform"><input id="buyid" placeholder="Entry id (e.g. p0007)" maxlength="64" required>
        <button type="button" id="rebuybtn">Rebuy</button><button type="button" id="addonbtn">Add-on</button>
        <button type="button" id="reenterbtn">Re-enter</button></form>
      <div class="dim" id="alternates"></div>
      <div class="placesbox" id="entries"></div>
    </div>
    <div class="panel" id="dealbox" style="display:none"><h2>Deal</h2>
      <div><select id="dealmethod"><option value="icm">ICM</option><option value="chip-chop">Chip-chop</option></select>
        Played for <input id="playfor" type="number" min="0" value="0" style="width:90px">
        <button type="button" id="previewbtn">Show the split</button></div>
      <div id="dealrows"></div>
      <button type="button" id="dealbtn" disabled>Record the deal (every player agrees)</button>
      <div class="dim" id="dealdone"></div>
    </div>
    <div class="panel"><h2>Places and payouts</h2><div class="dim" id="money"></div>
      <div class="dim">Results: <a href="/results.csv" style="color:var(--blue)">CSV</a> <a href="/results.json" style="color:var(--blue)">JSON</a></div><div class="placesbox"><table class="places" id="places"></table></div></div>
    <div class="panel"><h2>Decisions (newest first)</h2><div id="decisions"></div></div>
  </aside>
</main>
<script>
"use strict";
let state = null, shownAt = 0, heardAt = Date.now(), stale = false, frozen = null;
const STALE_S = 6;
const $ = id => document.getElementById(id);
const esc = s => String(s).replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;","\\"":"&quot;","'":"&#39;"}[c]));
const n = x => Number(x).toLocaleString("en-US");
function label(l) {
  if (!l) return "-";
  let t = n(l.small) + "/" + n(l.big);
  if (l.ante) t += " ante " + n(l.ante);
  if (l.bb_ante) t += " BB ante " + n(l.bb_ante);
  return t;
}
function cite(c) { return esc(c.profile + " " + c.section + (c.rule ? " " + c.rule : "")) + (c.note ? " <i>(" + esc(c.note) + ")</i>" : ""); }
function hhmmss(t) { return new Date(t).toTimeString().slice(0, 8); }
function left() { return Math.max(0, state.remaining_s - (state.running ? (Date.now() - shownAt) / 1000 : 0)); }
function setStale(on) {
  if (state) frozen = on ? (stale ? frozen : left()) : null;  // the clock stays where it was when the director went
  stale = on;
  document.body.classList.toggle("is-stale", on);
  $("stale").style.display = on ? "block" : "none";
  if (on) $("stale").textContent = "Lost the director: no word since " + hhmmss(heardAt) +
    ". This page shows its last state; the clock is not counting down. It reconnects by itself.";
  $("clockbtn").disabled = on || !!(state && state.over);
  $("h4hbtn").disabled = on || !!(state && state.over);
  if (state) $("clocklabel").textContent = on ? "Clock (director lost)" : (state.over ? "Final time" : (state.running ? "Time left" : "Clock paused"));
  tick();
}
function tick() {
  if (!state) return;
  if (!stale && (Date.now() - heardAt) / 1000 > STALE_S) setStale(true);
  const now = stale && frozen !== null ? frozen : left();
  const m = Math.floor(now / 60), s = Math.floor(now % 60);
  $("clock").textContent = m + ":" + String(s).padStart(2, "0");
}
function render(s) {
  state = s; shownAt = Date.now(); heardAt = shownAt;
  $("title").textContent = s.title + " tournament (" + s.profile + ")";
  $("structure").textContent = "structure " + s.structure;
  $("levelno").textContent = s.level.number + (s.on_break ? " (break)" : "");
  $("blinds").textContent = s.on_break ? "Break" : label(s.level);
  $("clocklabel").textContent = s.over ? "Final time" : (s.running ? "Time left" : "Clock paused");
  $("next").textContent = label(s.next_level);
  $("clockbtn").textContent = s.running ? "Pause clock" : "Start clock";
  $("h4hbtn").textContent = s.hand_for_hand ? "End hand-for-hand" : "Start hand-for-hand";
  $("h4hbtn").classList.toggle("on", s.hand_for_hand);
  const avg = s.remaining ? Math.round(s.chips_in_play / s.remaining) : 0;
  $("stats").innerHTML = "<span><b>" + s.remaining + "</b> of " + s.entrants + " players</span><span><b>" +
    s.tables.length + "</b> tables</span><span>chips in play <b>" + n(s.chips_in_play) + "</b></span><span>average <b>" +
    n(avg) + "</b></span>" + (s.color_up ? "<span class='dim'>" + esc(s.color_up) + "</span>" : "");
  const banner = s.all_in.length ? "All in called at " + s.all_in.join(", ") + ": the other tables hold their next deal (wfp-dealer, All In / Bubble)"
    : (s.hand_for_hand ? "Hand-for-hand: each table plays one hand and waits for the others" : "");
  $("banner").textContent = banner; $("banner").style.display = banner ? "block" : "none";
  $("over").textContent = s.over ? "The tournament is over. The clock is stopped, hand-for-hand is off, every table stops dealing." : "";
  $("over").style.display = s.over ? "block" : "none";
  $("winner").textContent = s.winner ? s.winner + " wins the tournament" : "";
  $("winner").style.display = s.winner ? "block" : "none";
  $("tables").innerHTML = s.tables.map(t => {
    const seats = t.seats.map(x => "<div class='seat'><span class='" + (x.seat === t.button ? "btn" : "dim") + "'>" +
      (x.seat === t.button ? "D" : x.seat) + "</span><span>" + esc(x.name) + (x.moved ? "<span class='moved'>moved</span>" : "") +
      "</span><span>" + n(x.chips) + "</span></div>").join("");
    return "<div class='table" + (t.hold ? " hold" : "") + "' data-table='" + esc(t.table) + "'><h3><span>" + esc(t.table) +
      "</span><span class='dim'>" + t.seats.length + (t.seats.length === 1 ? " player" : " players") + "</span></h3>" + seats +
      (t.hold ? "<div class='holdtext'>" + esc(t.hold) + "</div>" : "") + "</div>";
  }).join("");
  $("decisions").innerHTML = s.decisions.slice().reverse().map(d => "<div class='decision'><div class='k-" + esc(d.kind) + "'>" +
    esc(d.text) + "</div>" + (d.cites.length ? "<div class='cite'>" + d.cites.map(cite).join("; ") + "</div>" : "") + "</div>").join("");
  const places = s.places.slice(0, 30).map(p => "<tr><td>" + (p.shared ? p.shared[0] + "-" + p.shared[1] : p.place) +
    "</td><td>" + esc(p.name) + (p.rule ? "<div class='rule'>" + esc(p.rule) + "</div>" : "") +
    "</td><td style='text-align:right'>" + (s.payouts.length && p.prize ? n(p.prize) : "") +
    (p.bounty ? "<div class='rule'>bounties " + n(p.bounty) + "</div>" : "") + "</td></tr>").join("");
  const pays = s.payouts.map((v, i) => (i + 1) + ": " + n(v)).join(", ");
  $("places").innerHTML = (pays ? "<tr><td colspan=3 class='dim'>Prize pool " + n(s.pool) + ". Payouts " + esc(pays) + "</td></tr>"
    : "<tr><td colspan=3 class='dim' id='nopool'>No prize pool configured (start with --buy-in): places only, no payouts</td></tr>") + places;
  $("refusedbox").style.display = s.refused.length ? "block" : "none";
  $("refused").innerHTML = (s.refused_total > s.refused.length ? "<div class='dim'>" + s.refused_total + " refused in all; the latest:</div>" : "") +
    s.refused.slice().reverse().map(r => "<div class='refusal'><b>" + esc(r.table) + "</b> " +
    (r.kind === "hand" ? "" : esc(r.kind.replace("_", " ")) + " ") + (r.hand ? "hand " + r.hand : "") +
    (r.seq ? " (report " + r.seq + (r.session ? " of session " + esc(r.session) : "") + ")" : "") + "<div class='why'>" + esc(r.reason) + "</div></div>").join("");
  renderEntries(s);
  renderDeal(s);
  const m = s.money;
  $("money").textContent = m ? "Prize pool " + n(m.prize_pool) + (m.overlay ? " (guarantee " + n(m.guarantee) + ": overlay " + n(m.overlay) + ")" : "") +
    "; collected " + n(m.collected) + ", fees " + n(m.fees) + (m.rake ? ", rake " + n(m.rake) : "") + "; " + m.table +
    (m.unit > 1 ? "; prizes in units of " + n(m.unit) : "") + (m.locked ? "; LOCKED (in the money)" : "") : "";
  setStale(false);
  tick();
}
async function post(path, body) {
  const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  if (!r.ok) alert((await r.json()).error || r.statusText);
}
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
function renderEntries(s) {
  $("late").textContent = s.late ? "Taken now: " + s.late : "No entries, rebuys or add-ons taken now";
  $("alternates").textContent = s.alternates.length ? "Alternates (in order): " + s.alternates.join(", ") : "";
  const rows = s.entries.slice().reverse().map(a => {
    const row = el("div", undefined, "decision" + (a.undone ? " dim" : ""));
    row.dataset.n = a.n;
    row.append(el("span", a.n + ". " + a.kind + ": " + a.name + (a.card ? " (card " + a.card + ")" : "") +
      (a.chips ? ", " + n(a.chips) + " chips" : "") + (a.paid ? ", paid " + n(a.paid) : "") +
      (a.alternate ? ", alternate" : "") + (a.undone ? ", undone" : "") + " "));
    if (!a.undone && !s.over) { const b = el("button", "Undo"); b.onclick = () => post("/undo", {n: a.n}); row.append(b); }
    return row;
  });
  $("entries").replaceChildren(...rows);
}
$("regform").onsubmit = e => { e.preventDefault(); post("/register", {name: $("regname").value, card: $("regcard").value}).then(() => { $("regname").value = ""; $("regcard").value = ""; }); };
async function previewDeal() {
  const r = await fetch("/deal/preview", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({method: $("dealmethod").value, play_for: Number($("playfor").value) || 0})});
  const body = await r.json();
  if (!r.ok) { $("dealrows").replaceChildren(el("div", body.error, "why")); return; }
  $("dealrows").replaceChildren(...body.entry.shares.map(x => {
    const row = el("label", undefined, "decision dealrow"); const box = el("input"); box.type = "checkbox"; box.dataset.player = x.player;
    box.onchange = () => { $("dealbtn").disabled = ![...document.querySelectorAll("#dealrows input")].every(b => b.checked); };
    row.append(box, el("span", " " + x.name + " (" + n(x.chips) + " chips): " + n(x.share) + " agrees"));
    return row;
  }));
  $("dealbtn").disabled = true;
}
$("previewbtn").onclick = previewDeal;
$("dealbtn").onclick = () => post("/deal", {method: $("dealmethod").value, play_for: Number($("playfor").value) || 0,
  agreed: [...document.querySelectorAll("#dealrows input")].filter(b => b.checked).map(b => b.dataset.player)});
function renderDeal(s) {
  $("dealbox").style.display = (s.deal || (s.payouts.length && s.remaining >= 2 && s.remaining <= 10 && !s.over)) ? "block" : "none";
  $("dealdone").textContent = s.deal ? "Deal (" + s.deal.method + ") agreed by " + s.deal.shares.map(x => x.name + " " + n(x.share)).join(", ") +
    (s.deal.play_for ? "; " + n(s.deal.play_for) + " played for" : "") : "";
  $("previewbtn").disabled = $("dealmethod").disabled = !!s.deal;
  if (s.deal) { $("dealrows").replaceChildren(); $("dealbtn").disabled = true; }
}
$("rebuybtn").onclick = () => post("/rebuy", {player: $("buyid").value});
$("addonbtn").onclick = () => post("/add_on", {player: $("buyid").value});
$("reenterbtn").onclick = () => post("/register", {person: $("buyid").value});
$("clockbtn").onclick = () => post("/clock", {run: !(state && state.running)});
$("h4hbtn").onclick = () => post("/bubble", {hand_for_hand: !(state && state.hand_for_hand)});
const events = new EventSource("/events");
events.addEventListener("state", e => render(JSON.parse(e.data)));
events.addEventListener("ping", () => { heardAt = Date.now(); if (stale && state) setStale(false); });
events.onerror = () => { if (state) setStale(true); };
setInterval(tick, 500);
</script>
</body></html>
"""
