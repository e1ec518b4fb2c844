// The overlay page: draws the feature table's delayed message as it is pushed (WebSocket /ws).
// It keeps its DOM and changes only what changed, so ten messages a second cost a few nodes each.
"use strict";
// No logo configured (404): the image goes, as an inline onerror once did (the CSP allows no inline handler)
for (const logo of document.querySelectorAll("img.logo")) {
  if (logo.complete && logo.naturalWidth === 0) logo.remove();
  else logo.addEventListener("error", () => logo.remove());
}
const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const IN_HAND = new Set(["active", "allin", "folded", "dead"]);
const OUT = new Set(["folded", "dead"]);
const $ = (id) => document.getElementById(id);
window.overlayFrames = [];  // every message drawn: {seq, t, hand, at, ms} (tests and bench/overlay_fps.py read it)
let current = null, receivedAt = 0;

function el(tag, cls, parent) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (parent) parent.appendChild(node);
  return node;
}
function setText(node, text) { if (node.textContent !== text) node.textContent = text; }
function setClass(node, cls) { if (node.className !== cls) node.className = cls; }
function show(node, on) { if (node.hidden === on) node.hidden = !on; }

function amount(n, data) {
  const big = data.on_air.level && data.on_air.level.big;
  if (data.chips === "bb" && big) {
    const bb = n / big;
    return (Number.isInteger(bb) ? bb : bb.toFixed(1)) + " BB";
  }
  return n.toLocaleString("en-US");
}
function mmss(s) {
  s = Math.max(0, Math.ceil(s));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function drawCard(node, card, kind) {  // kind: face, back, slot
  const key = kind === "face" ? card : kind;
  if (node.dataset.card === key) return;
  node.dataset.card = key;
  if (kind !== "face") { setClass(node, "card " + kind); node.textContent = ""; return; }
  setClass(node, "card " + card[1]);
  node.textContent = "";
  el("span", "rank", node).textContent = card[0] === "T" ? "10" : card[0];
  el("span", "suit", node).textContent = SUITS[card[1]] || "?";
}
function drawCards(box, cards, hidden, count) {
  while (box.children.length < count) el("div", "card", box);
  while (box.children.length > count) box.lastChild.remove();
  for (let i = 0; i < count; i++) {
    if (i < cards.length) drawCard(box.children[i], cards[i], "face");
    else drawCard(box.children[i], "", i < cards.length + hidden ? "back" : "slot");
  }
}

const strips = new Map();
function strip(seat) {
  let s = strips.get(seat);
  if (s) return s;
  const root = el("div", "strip");
  s = { root, cards: el("div", "cards", root) };
  const who = el("div", "who", root);
  const top = el("div", "line", who);
  s.name = el("span", "name", top);
  s.badges = el("span", "badges", top);
  const mid = el("div", "line", who);
  s.stack = el("span", "stack", mid);
  s.action = el("span", "action", mid);
  s.hand = el("div", "hand", who);
  const odds = el("div", "odds", root);
  s.win = el("div", "win", odds);
  s.tie = el("div", "tie", odds);
  const bar = el("div", "bar", root);
  s.bar = bar; s.winBar = el("div", "w", bar); s.tieBar = el("div", "t", bar);
  strips.set(seat, s);
  return s;
}

function drawStrip(s, seat, air, data, odds, winners) {
  const out = OUT.has(seat.state);
  let cls = "strip";
  if (seat.to_act && !out) cls += " to-act";
  if (winners.has(seat.seat)) cls += " winner";
  if (out) cls += " out";
  setClass(s.root, cls);
  const held = (seat.cards || []).length + (seat.hidden || 0);  // Omaha: four or five
  drawCards(s.cards, seat.cards || [], seat.hidden || 0, Math.max(2, held));
  setClass(s.cards, held > 2 ? "cards many" : "cards");
  setText(s.name, seat.name);
  const badges = [];
  if (seat.button) badges.push(["D", "badge"]);
  if (seat.small_blind) badges.push(["SB", "badge blind"]);
  if (seat.big_blind) badges.push(["BB", "badge blind"]);
  const key = badges.map((b) => b[0]).join();
  if (s.badges.dataset.key !== key) {
    s.badges.dataset.key = key;
    s.badges.textContent = "";
    for (const [text, c] of badges) el("span", c, s.badges).textContent = text;
  }
  setText(s.stack, seat.stack === undefined || seat.stack === null ? "" : amount(seat.stack, data));
  let action = seat.action || "";
  if (seat.state === "allin") action = "all in";
  else if (out) action = seat.state === "dead" ? "dead hand" : "fold";
  setText(s.action, action.replace(/\d[\d,]*/g, (m) => amount(Number(m.replace(/,/g, "")), data)));
  let hand = out ? "" : (seat.hand || "");
  const ch = air.chances;
  if (ch && ch.outs_seat === seat.seat && !out) hand += (hand ? " \u00b7 " : "") + ch.outs.length + " outs";
  setText(s.hand, hand);
  const o = out || air.result ? null : odds.get(seat.seat);  // at the result the cards have spoken
  // A high-low split game (its chances carry `share`): the hand's share of the pot, halves and quarters counted
  const split = !!o && o.share !== undefined && o.share !== null;
  show(s.win, !!o); show(s.tie, !!(o && !split && o.tie >= 0.0005)); show(s.bar, !!o);
  if (o) {
    const big = split ? o.share : o.win;
    setText(s.win, (split ? "pot " : "") + (ch.exact ? (big * 100).toFixed(1) : Math.round(big * 100)) + "%");
    setText(s.tie, "tie " + (ch.exact ? (o.tie * 100).toFixed(1) : Math.round(o.tie * 100)) + "%");
    s.winBar.style.width = (big * 100).toFixed(2) + "%";
    s.tieBar.style.width = (split ? 0 : o.tie * 100).toFixed(2) + "%";
  }
}

// The rules at work, no one's error (WFP 15, UPT 19: a player all in for less than a blind): information, not an alarm
const INFO_RULINGS = new Set(["short_blind", "chip_race"]);
const LISTS = ["board", "seats", "pots", "rulings"];  // omitted from a message when empty

function render(data) {
  const started = performance.now();
  draw(data);
  window.overlayFrames.at(-1).ms = performance.now() - started;  // the main thread's cost of a message
}

function draw(data) {
  current = data; receivedAt = performance.now();
  const air = data.on_air;
  if (air) for (const key of LISTS) air[key] = air[key] || [];
  setClass($("overlay"), air ? "air" : "empty");
  window.overlayFrames.push({ seq: air ? air.seq : null, t: air ? air.t : null, hand: air ? air.hand : null,
                              table: data.table, at: Date.now() });
  if (window.overlayFrames.length > 20000) window.overlayFrames.splice(0, 10000);
  for (const id of ["ruling", "level", "result", "table"]) show($(id), false);
  drawTournament(data.tournament, data);
  if (!air) { $("strips").textContent = ""; strips.clear(); return; }

  const banner = air.rulings.filter((r) => r.ruling !== "showdown");
  show($("ruling"), banner.length > 0);
  if (banner.length) {
    setClass($("ruling"), INFO_RULINGS.has(banner[0].ruling) ? "ruling info" : "ruling");
    setText($("ruling").querySelector(".title"), banner[0].title);
    setText($("ruling").querySelector(".remedy"), banner[0].remedy);
  }
  if (air.level) {
    show($("level"), true);
    setText($("level").querySelector(".number"), air.level.number ? "Level " + air.level.number : "Blinds");
    setText($("level").querySelector(".blinds"), air.level.blinds);
  }
  const idle = air.phase === "idle";
  const seats = air.seats.filter((s) => idle ? s.state !== "empty" : IN_HAND.has(s.state));
  const odds = new Map(((air.chances && air.chances.seats) || []).map((c) => [c.seat, c]));
  const winners = new Set(air.result ? air.result.winners : []);
  for (const pot of air.pots) for (const w of pot.winners || []) winners.add(w);
  const box = $("strips"), wanted = new Set(seats.map((s) => s.seat));
  for (const [seat, s] of strips) if (!wanted.has(seat)) { s.root.remove(); strips.delete(seat); }
  seats.forEach((seat, i) => {
    const s = strip(seat.seat);
    if (box.children[i] !== s.root) box.insertBefore(s.root, box.children[i] || null);
    drawStrip(s, seat, air, data, odds, winners);
  });
  if (!idle) {
    show($("table"), true);
    const board = $("board");
    show(board, air.board.length > 0);  // before the flop: no empty board on air
    while (board.children.length < 5) el("div", "card", board);
    for (let i = 0; i < 5; i++) drawCard(board.children[i], air.board[i] || "", i < air.board.length ? "face" : "slot");
    const pot = $("pot");
    show(pot, air.pot !== undefined && air.pot !== null);
    if (air.pot !== undefined && air.pot !== null) {
      setText(pot.querySelector(".total"), "POT " + amount(air.pot, data));
      const pots = air.pots;
      setText(pot.querySelector(".side"), pots.length > 1
        ? pots.map((p, i) => (i ? "Side " + i : "Main") + " " + amount(p.amount, data)).join(" \u00b7 ") : "");
    }
  }
  if (air.result) {
    show($("result"), true);
    const result = $("result"), lines = resultLines(air, data), key = lines.join("\n");
    if (result.dataset.key !== key) {
      result.dataset.key = key;
      result.textContent = "";
      for (const line of lines) el("div", "line", result).textContent = line;
    }
  }
  tick();
}

const PLACES_SHOWN = 3;
function ordinal(n) {
  const tens = n % 100, last = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? "th" : last === 1 ? "st" : last === 2 ? "nd" : last === 3 ? "rd" : "th";
  return n + suffix;
}
function drawTournament(t, data) {  // the director's public state, on the same delay as the table
  const box = $("tournament");
  show(box, !!t);
  if (!t) return;
  setText(box.querySelector(".title"), t.title || "");
  setText(box.querySelector(".left"), t.winner ? "" : `${t.remaining} of ${t.entrants} left`);
  show(box.querySelector(".hfh"), !!t.hand_for_hand && !t.winner);
  const all = (t.places || []).slice().sort((a, b) => a.place - b.place);  // the newest bust-out: the best place
  const first = all.find((p) => p.place === 1), places = all.filter((p) => p.place !== 1);
  const lines = [];
  if (t.winner) lines.push(["winner", "Winner: " + t.winner, first && first.prize ? first.prize.toLocaleString("en-US") : ""]);
  for (const p of places.slice(0, PLACES_SHOWN)) {
    const place = p.shared && p.shared.length === 2 ? `${ordinal(p.shared[0])}-${ordinal(p.shared[1])}` : ordinal(p.place);
    lines.push(["place", `${place} ${p.name}`, p.prize ? p.prize.toLocaleString("en-US") : ""]);
  }
  drawLeaders(box.querySelector(".leaders"), t.winner ? [] : (t.leaders || []), data);
  const key = JSON.stringify(lines), list = box.querySelector(".places");
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.textContent = "";
  for (const [cls, who, prize] of lines) {
    const row = el("div", "place" + (cls === "winner" ? " winner" : ""), list);
    el("span", "who", row).textContent = who;
    el("span", "prize", row).textContent = prize;
  }
}

function drawLeaders(box, leaders, data) {  // the chip counts of the delayed director's state, largest first
  show(box, leaders.length > 0);
  const rows = box.querySelector(".rows"), key = JSON.stringify([leaders, data.chips]);
  if (rows.dataset.key === key) return;
  rows.dataset.key = key;
  rows.textContent = "";
  for (const r of leaders) {
    const row = el("div", "place leader", rows);
    el("span", "who", row).textContent = r.rank + ". " + r.name;
    el("span", "prize", row).textContent = data.chips === "bb" && r.bb !== null
      ? r.bb.toLocaleString("en-US", {maximumFractionDigits: 1}) + " BB" : r.chips.toLocaleString("en-US");
  }
}

function joined(names) {
  return names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + " & " + names.at(-1);
}
function resultLines(air, data) {  // every pot and its winners, the amounts as chosen (as the feed words them)
  const pots = air.pots.filter((p) => p.winners && p.winners.length);
  if (!pots.length) return air.result.lines;
  const seat = new Map(air.seats.map((s) => [s.seat, s]));
  return pots.map((pot, i) => {
    const label = i === 0 ? "the main pot" : "side pot " + i, who = pot.winners.map((w) => seat.get(w).name);
    if (pot.low_winners && pot.low_winners.length) {  // a high-low split: who took each half (as feed.result_of)
      const low = pot.low_winners.map((w) => seat.get(w).name), sd = air.showdown || {};
      const high = (who.length > 1 ? "split the high" : "wins the high") + ` of ${label}, ${amount(pot.amount, data)}`;
      return `${joined(who)} ${high}` + (sd.hand ? ", with " + sd.hand : "") + `; ${joined(low)} `
        + (low.length > 1 ? "split the low" : "wins the low") + (sd.low_hand ? ", with " + sd.low_hand : "");
    }
    if (who.length > 1) return `${joined(who)} split ${label}, ${amount(pot.amount, data)}`;
    const hand = seat.get(pot.winners[0]).hand;
    return `${who[0]} wins ${label}, ${amount(pot.amount, data)}` + (hand ? ", with " + hand : "");
  });
}

function tick() {  // the level clock and the shot clock count down from the message's moment, delayed like it
  const air = current && current.on_air;
  if (!air) return;
  const gone = (performance.now() - receivedAt) / 1000;
  if (air.level) {
    const left = air.level.seconds_left;
    setText($("level").querySelector(".clock"), left === undefined || left === null ? "" : mmss(left - gone));
  }
  if (air.clock) {
    const s = strips.get(air.clock.seat);
    if (s && !OUT.has((air.seats.find((x) => x.seat === air.clock.seat) || {}).state))
      setText(s.action, "\u23f1 " + Math.max(0, Math.ceil(air.clock.seconds_left - gone)));
  }
}
setInterval(tick, 250);

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onmessage = (event) => render(JSON.parse(event.data));
  ws.onclose = () => setTimeout(connect, 500);  // the picture stays as it is meanwhile
}
connect();
