// The room's read-only screens (/screen and /player): the public state pushed by /public/events (open
// without pairing: what the room posts on its walls, nothing else), a clock that counts down between
// states, and a loud "not up to date" when the director goes quiet (the clock stops where it was: it
// does not guess). Every text goes in as text (textContent, never innerHTML). Each page's own script
// (screen.js, player.js) defines `render(state)`.
"use strict";
const STALE_S = 6;  // three pings missed (director_page.KEEPALIVE_S)
let state = null, shownAt = 0, heardAt = Date.now(), stale = false, frozen = null;
const $ = (id) => document.getElementById(id);
const n = (x) => Number(x).toLocaleString("en-US");

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
  const r = document.createElement("div");
  r.className = cls;
  for (const c of cells) { const s = document.createElement("span"); s.textContent = c; r.append(s); }
  parent.append(r);
}

// The stream starts once every script of the page has run: the page's own script (loaded after this one)
// defines `render`, and a state arriving before it would be dropped (no next one comes until the state changes).
document.addEventListener("DOMContentLoaded", () => {
  const events = new EventSource("/public/events");
  events.addEventListener("state", (e) => {
    state = JSON.parse(e.data); shownAt = heardAt = Date.now();
    render(state);  // eslint-disable-line no-undef -- the page's own script defines it
    setStale(false);
  });
  events.addEventListener("ping", () => { heardAt = Date.now(); if (stale && state) setStale(false); });
  events.onerror = () => { if (state) setStale(true); };
  setInterval(tick, 250);
});
