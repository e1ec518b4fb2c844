// The room's clock screen (/screen): level, time, blinds, next level, what entries are open, players
// left, average stack, prize pool and payouts. screens.js feeds it.
"use strict";
// eslint-disable-next-line no-unused-vars -- called by screens.js
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
