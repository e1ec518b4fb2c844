"""The screens players look at (issue 39 item 6): the room's clock screen (a TV by HDMI, or any browser) and a
player's read-only view on a phone. Both read `public_state`: what a card room posts on its walls (level, time,
blinds, next level, break, players left, average stack, prize pool and payouts, who sits where) and nothing else of
the director's state (no refused reports, no chip counts by player: a table's stacks are the tables', and the screens
show nothing from the tables beyond who sits where, which the director decides between hands).

They are served by the director's page (`/screen`, `/player`, `/public`, `/public/events`: server-sent events, the
state on each change and a ping every 2 s). A screen that hears nothing for STALE_S says so in large type and stops
its clock where it was (it does not guess); it reconnects by itself.
"""

from __future__ import annotations

from typing import Any

from firmware_py.room.tournament_messages import DirectorState


def public_state(state: DirectorState) -> dict[str, Any]:
    level = state.level
    chips = state.chips_in_play
    seats = {s.player: [t.table, s.seat, s.name] for t in state.tables for s in t.seats}
    return {
        "title": state.title, "structure": state.structure, "over": state.over, "winner": state.winner,
        "level": {"number": level.number, "small": level.small, "big": level.big, "ante": level.ante,
                  "bb_ante": level.bb_ante},
        "next_level": None if state.next_level is None else {
            "number": state.next_level.number, "small": state.next_level.small, "big": state.next_level.big,
            "ante": state.next_level.ante, "bb_ante": state.next_level.bb_ante},
        "on_break": state.on_break, "remaining_s": state.remaining_s, "running": state.running,
        "remaining": state.remaining, "entrants": state.entrants,
        "average": chips // state.remaining if state.remaining else 0,
        "pool": state.pool, "payouts": state.payouts, "late": state.late,
        "overlay": state.money.overlay if state.money else 0,
        "deal": bool(state.deal),
        "places": [{"place": p.place, "name": p.name, "prize": p.prize} for p in state.places[:20]],
        "seats": seats,
    }


_STYLE = """
:root { --bg:#07110c; --ink:#f4f7f5; --dim:#9db3a4; --gold:#f2c14e; --red:#e0605a; --green:#5fcf8a; }
* { box-sizing:border-box; }
body { margin:0; background:var(--bg); color:var(--ink); font-family:system-ui, sans-serif; }
.stale { display:none; background:#5a4a12; color:#ffe7a0; font-weight:700; text-align:center; }
body.is-stale .stale { display:block; }
body.is-stale main { opacity:.5; }
.dim { color:var(--dim); }
"""

_SCRIPT = """
"use strict";
const STALE_S = 6;
let state = null, shownAt = 0, heardAt = Date.now(), stale = false, frozen = null;
const $ = id => document.getElementById(id);
const n = x => Number(x).toLocaleString("en-US");
function label(l) {
  if (!l) return "-";
  let t = n(l.small) + " / " + n(l.big);
  if (l.ante) t += "  ante " + n(l.ante);
  if (l.bb_ante) t += "  BB ante " + n(l.bb_ante);
  return t;
}
function left() { return Math.max(0, state.remaining_s - (state.running ? (Date.now() - shownAt) / 1000 : 0)); }
function setStale(on) {
  if (state) frozen = on ? (stale ? frozen : left()) : null;
  stale = on;
  document.body.classList.toggle("is-stale", on);
  $("stale").textContent = on ? "NOT UP TO DATE: no word from the director since " +
    new Date(heardAt).toTimeString().slice(0, 8) + ". The clock is stopped here; it reconnects by itself." : "";
  tick();
}
function tick() {
  if (!state) return;
  if (!stale && (Date.now() - heardAt) / 1000 > STALE_S) setStale(true);
  const now = stale && frozen !== null ? frozen : left();
  $("clock").textContent = Math.floor(now / 60) + ":" + String(Math.floor(now % 60)).padStart(2, "0");
}
function row(parent, cls, cells) {
  const r = document.createElement("div"); r.className = cls;
  for (const c of cells) { const s = document.createElement("span"); s.textContent = c; r.append(s); }
  parent.append(r);
}
const events = new EventSource("/public/events");
events.addEventListener("state", e => { state = JSON.parse(e.data); shownAt = heardAt = Date.now(); render(state); setStale(false); });
events.addEventListener("ping", () => { heardAt = Date.now(); if (stale && state) setStale(false); });
events.onerror = () => { if (state) setStale(true); };
setInterval(tick, 250);
"""

CLOCK_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tournament clock</title>
<style>""" + _STYLE + """
body { height:100vh; overflow:hidden; }
.stale { font-size:3vh; padding:1vh; }
main { display:grid; grid-template-columns: 1fr 28vw; height:100%; }
.centre { display:flex; flex-direction:column; align-items:center; justify-content:center; gap:1.5vh; }
#title { font-size:3.6vh; color:var(--dim); }
#levelno { font-size:4.5vh; letter-spacing:.1em; text-transform:uppercase; color:var(--dim); }
#clock { font-size:24vh; font-weight:700; font-variant-numeric:tabular-nums; line-height:1; }
#blinds { font-size:10vh; font-weight:700; color:var(--gold); }
#next { font-size:3.6vh; }
#late { font-size:2.6vh; color:var(--green); }
#over { font-size:6vh; color:var(--green); font-weight:700; }
aside { border-left:2px solid #1f3328; padding:3vh 2vw; font-size:2.6vh; display:flex; flex-direction:column; gap:1.2vh; }
.stat span:last-child, .pay span:last-child { float:right; font-weight:700; }
.pay { border-top:1px solid #1f3328; padding:.4vh 0; }
h2 { font-size:2.2vh; color:var(--dim); text-transform:uppercase; letter-spacing:.1em; margin:1.5vh 0 .5vh; }
</style></head>
<body>
<div class="stale" id="stale" role="alert"></div>
<main>
  <section class="centre">
    <div id="title"></div>
    <div id="levelno"></div>
    <div id="clock">--:--</div>
    <div id="blinds">-</div>
    <div id="next" class="dim"></div>
    <div id="late"></div>
    <div id="over"></div>
  </section>
  <aside>
    <div id="stats"></div>
    <h2>Prize pool</h2><div id="pool" style="font-size:5vh;font-weight:700;color:var(--gold)"></div>
    <h2>Payouts</h2><div id="payouts"></div>
  </aside>
</main>
<script>""" + _SCRIPT + """
function render(s) {
  $("title").textContent = s.title + " - " + s.structure;
  $("levelno").textContent = s.on_break ? "Break" : "Level " + s.level.number;
  $("blinds").textContent = s.on_break ? "Break" : label(s.level);
  $("next").textContent = s.next_level ? "Next: level " + s.next_level.number + "  " + label(s.next_level) : "Last level";
  $("late").textContent = s.late ? "Open: " + s.late : "";
  $("over").textContent = s.over ? (s.winner ? s.winner + " wins" : "The tournament is over") : "";
  const stats = $("stats"); stats.replaceChildren();
  row(stats, "stat", ["Players", s.remaining + " of " + s.entrants]);
  row(stats, "stat", ["Average stack", n(s.average)]);
  $("pool").textContent = s.pool ? n(s.pool) + (s.overlay ? "  (overlay " + n(s.overlay) + ")" : "") : "-";
  const pays = $("payouts"); pays.replaceChildren();
  s.payouts.slice(0, 12).forEach((v, i) => row(pays, "pay", [(i + 1) + ".", n(v)]));
  if (s.deal) row(pays, "pay", ["Deal made", ""]);
}
</script>
</body></html>
"""

PLAYER_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>My tournament</title>
<style>""" + _STYLE + """
body { font-size:17px; }
.stale { font-size:15px; padding:10px; }
main { padding:14px; display:flex; flex-direction:column; gap:12px; }
.card { background:#12221a; border:1px solid #1f3328; border-radius:10px; padding:12px; }
#clock { font-size:56px; font-weight:700; font-variant-numeric:tabular-nums; }
#blinds { font-size:26px; color:var(--gold); font-weight:700; }
#seat { font-size:30px; font-weight:700; }
input, button { font:inherit; padding:8px; border-radius:6px; border:1px solid #1f3328; }
button { background:#24402f; color:var(--ink); }
.pay span:last-child { float:right; font-weight:700; }
.pay { border-top:1px solid #1f3328; padding:4px 0; }
</style></head>
<body>
<div class="stale" id="stale" role="alert"></div>
<main>
  <div class="card"><div class="dim" id="levelno"></div><div id="clock">--:--</div><div id="blinds">-</div>
    <div class="dim" id="next"></div></div>
  <div class="card"><div class="dim">My seat</div><div id="seat">-</div><div class="dim" id="who"></div>
    <form id="meform"><input id="me" placeholder="My name or entry id" maxlength="200"> <button>Show</button></form></div>
  <div class="card"><div id="players" class="dim"></div><div class="dim">Payouts</div><div id="payouts"></div></div>
</main>
<script>""" + _SCRIPT + """
let me = localStorage.getItem("tournament-me") || new URLSearchParams(location.search).get("entry") || "";
$("me").value = me;
$("meform").onsubmit = e => { e.preventDefault(); me = $("me").value.trim(); localStorage.setItem("tournament-me", me); if (state) render(state); };
function render(s) {
  $("levelno").textContent = s.on_break ? "Break" : "Level " + s.level.number;
  $("blinds").textContent = s.on_break ? "Break" : label(s.level);
  $("next").textContent = s.next_level ? "Next: " + label(s.next_level) : "Last level";
  const key = me.toLowerCase();
  const found = Object.entries(s.seats).find(([id, v]) => id.toLowerCase() === key || v[2].toLowerCase() === key);
  const out = s.places.find(p => p.name.toLowerCase() === key);
  $("seat").textContent = found ? "Table " + found[1][0] + ", seat " + found[1][1] : (out ? "Out: place " + out.place : (me ? "Not seated" : "-"));
  $("who").textContent = found ? found[1][2] : (out && out.prize ? "Prize " + n(out.prize) : "");
  $("players").textContent = s.remaining + " of " + s.entrants + " players, average " + n(s.average) + (s.pool ? ", prize pool " + n(s.pool) : "");
  const pays = $("payouts"); pays.replaceChildren();
  s.payouts.slice(0, 10).forEach((v, i) => row(pays, "pay", [(i + 1) + ".", n(v)]));
}
</script>
</body></html>
"""
