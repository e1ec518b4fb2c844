// A player's view on a phone (/player): the level and time, the player's own table and seat (found by
// name or entry id, remembered on the phone), players left and the payouts. screens.js feeds it.
"use strict";
let me = localStorage.getItem("tournament-me") || new URLSearchParams(location.search).get("entry") || "";
$("me").value = me;
$("meform").addEventListener("submit", (e) => {
  e.preventDefault();
  me = $("me").value.trim();
  localStorage.setItem("tournament-me", me);
  if (state) render(state);
});

function render(s) {
  $("levelno").textContent = s.on_break ? "Break" : "Level " + s.level.number;
  $("blinds").textContent = s.on_break ? "Break" : label(s.level);
  $("next").textContent = s.next_level ? "Next: " + label(s.next_level) : "Last level";
  const key = me.toLowerCase();
  const found = Object.entries(s.seats).find(([id, v]) => id.toLowerCase() === key || v[2].toLowerCase() === key);
  const out = s.places.find((p) => p.name.toLowerCase() === key);
  $("seat").textContent = found ? "Table " + found[1][0] + ", seat " + found[1][1]
    : (out ? "Out: place " + out.place : (me ? "Not seated" : "-"));
  $("who").textContent = found ? found[1][2] : (out && out.prize ? "Prize " + n(out.prize) : "");
  $("players").textContent = s.remaining + " of " + s.entrants + " players, average " + n(s.average) +
    (s.pool ? ", prize pool " + n(s.pool) : "");
  const pays = $("payouts"); pays.replaceChildren();
  s.payouts.slice(0, 10).forEach((v, i) => row(pays, "pay", [(i + 1) + ".", n(v)]));
}
