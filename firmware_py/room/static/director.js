// The director's page: the tournament's state pushed (server-sent events /events), the clock and
// hand-for-hand on its buttons, registration (late entries, re-entries, rebuys, add-ons, undo) and a deal. Every text from the state goes in as text (textContent, never
// innerHTML): a table's or a player's name is shown, never run.
"use strict";
let state = null, shownAt = 0, heardAt = Date.now(), stale = false, frozen = null;
const STALE_S = 6;  // three pings missed (director_page.KEEPALIVE_S): the director is lost
const $ = (id) => document.getElementById(id);
const n = (x) => Number(x).toLocaleString("en-US");

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = v;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function label(l) {
  if (!l) return "-";
  let t = n(l.small) + "/" + n(l.big);
  if (l.ante) t += " ante " + n(l.ante);
  if (l.bb_ante) t += " BB ante " + n(l.bb_ante);
  return t;
}

function cite(c) {
  const text = c.profile + " " + c.section + (c.rule ? " " + c.rule : "");
  return c.note ? [text + " ", el("i", null, "(" + c.note + ")")] : [text];
}

function hhmmss(t) { return new Date(t).toTimeString().slice(0, 8); }
function left() { return Math.max(0, state.remaining_s - (state.running ? (Date.now() - shownAt) / 1000 : 0)); }

// Every control that asks the director for something (the clock, hand-for-hand, registration, a rebuy, an Undo,
// the deal's form and agreements). While the director is lost they are all off; each one's own state (the deal's
// button waits for every agreement, Undo is gone from an undone entry) is kept and put back when it is heard again.
function controls() { return [...document.querySelectorAll("header button, main button, main input, main select")]; }

function holdControls() {
  for (const c of controls()) {
    if (c.dataset.held === undefined) c.dataset.held = c.disabled ? "1" : "0";
    c.disabled = true;
  }
}

function releaseControls() {
  for (const c of controls()) {
    if (c.dataset.held === undefined) continue;
    c.disabled = c.dataset.held === "1";
    delete c.dataset.held;
  }
}

function setStale(on) {
  if (state) frozen = on ? (stale ? frozen : left()) : null;  // the clock stays where it was when the director went
  stale = on;
  if (on) holdControls(); else releaseControls();
  document.body.classList.toggle("is-stale", on);
  $("stale").style.display = on ? "block" : "none";
  if (on) $("stale").textContent = "Lost the director: no word since " + hhmmss(heardAt) +
    ". This page shows its last state; the clock is not counting down. It reconnects by itself.";
  $("clockbtn").disabled = on || !!(state && state.over);
  $("h4hbtn").disabled = on || !!(state && state.over);
  if (state) $("clocklabel").textContent = on ? "Clock (director lost)"
    : (state.over ? "Final time" : (state.running ? "Time left" : "Clock paused"));
  tick();
}

function tick() {
  if (!state) return;
  if (!stale && (Date.now() - heardAt) / 1000 > STALE_S) setStale(true);
  const now = stale && frozen !== null ? frozen : left();
  const m = Math.floor(now / 60), s = Math.floor(now % 60);
  $("clock").textContent = m + ":" + String(s).padStart(2, "0");
}

function tableCard(t) {
  const seats = t.seats.map((x) => el("div", {class: "seat"},
    el("span", {class: x.seat === t.button ? "btn" : "dim"}, x.seat === t.button ? "D" : x.seat),
    el("span", null, x.name, x.moved ? el("span", {class: "moved"}, "moved") : null),
    el("span", null, n(x.chips))));
  return el("div", {class: "table" + (t.hold ? " hold" : ""), data: {table: t.table}},
    el("h3", null, el("span", null, t.table),
       el("span", {class: "dim"}, t.seats.length + (t.seats.length === 1 ? " player" : " players"))),
    ...seats,
    t.hold ? el("div", {class: "holdtext"}, t.hold) : null);
}

function render(s) {
  releaseControls();  // the director is heard: its state, not the held one, decides what is on
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
  $("stats").replaceChildren(
    el("span", null, el("b", null, s.remaining), " of " + s.entrants + " players"),
    el("span", null, el("b", null, s.tables.length), " tables"),
    el("span", null, "chips in play ", el("b", null, n(s.chips_in_play))),
    el("span", null, "average ", el("b", null, n(avg))),
    s.color_up ? el("span", {class: "dim"}, s.color_up) : "");
  const banner = s.all_in.length
    ? "All in called at " + s.all_in.join(", ") + ": the other tables hold their next deal (wfp-dealer, All In / Bubble)"
    : (s.hand_for_hand ? "Hand-for-hand: each table plays one hand and waits for the others" : "");
  $("banner").textContent = banner; $("banner").style.display = banner ? "block" : "none";
  $("over").textContent = s.over
    ? "The tournament is over. The clock is stopped, hand-for-hand is off, every table stops dealing." : "";
  $("over").style.display = s.over ? "block" : "none";
  $("winner").textContent = s.winner ? s.winner + " wins the tournament" : "";
  $("winner").style.display = s.winner ? "block" : "none";
  $("tables").replaceChildren(...s.tables.map(tableCard));
  $("decisions").replaceChildren(...s.decisions.slice().reverse().map((d) => el("div", {class: "decision"},
    el("div", {class: "k-" + d.kind}, d.text),
    d.cites.length ? el("div", {class: "cite"}, ...d.cites.flatMap((c, i) => [i ? "; " : "", ...cite(c)])) : null)));
  const rows = s.places.slice(0, 30).map((p) => el("tr", null,
    el("td", null, p.shared ? p.shared[0] + "-" + p.shared[1] : p.place),
    el("td", null, p.name, p.rule ? el("div", {class: "rule"}, p.rule) : null),
    el("td", {class: "prize"}, s.payouts.length && p.prize ? n(p.prize) : "",
       p.bounty ? el("div", {class: "rule"}, "bounties " + n(p.bounty)) : null)));
  const pays = s.payouts.map((v, i) => (i + 1) + ": " + n(v)).join(", ");
  rows.unshift(pays ? el("tr", null, el("td", {colspan: "3", class: "dim"}, "Prize pool " + n(s.pool) + ". Payouts " + pays))
    : el("tr", null, el("td", {colspan: "3", class: "dim", id: "nopool"},
                        "No prize pool configured (start with --buy-in): places only, no payouts")));
  $("places").replaceChildren(...rows);
  $("refusedbox").style.display = s.refused.length ? "block" : "none";
  $("refused").replaceChildren(
    s.refused_total > s.refused.length ? el("div", {class: "dim"}, s.refused_total + " refused in all; the latest:") : "",
    ...s.refused.slice().reverse().map((r) => el("div", {class: "refusal"},
      el("b", null, r.table), " ",
      (r.kind === "hand" ? "" : r.kind.replace("_", " ") + " ") + (r.hand ? "hand " + r.hand : "") +
      (r.seq ? " (report " + r.seq + (r.session ? " of session " + r.session : "") + ")" : ""),
      el("div", {class: "why"}, r.reason))));
  renderJackpots(s);
  renderChips(s);
  renderEntries(s);
  renderDeal(s);
  const m = s.money;
  $("money").textContent = m ? "Prize pool " + n(m.prize_pool) +
    (m.overlay ? " (guarantee " + n(m.guarantee) + ": overlay " + n(m.overlay) + ")" : "") +
    "; collected " + n(m.collected) + ", fees " + n(m.fees) + (m.rake ? ", rake " + n(m.rake) : "") + "; " + m.table +
    (m.unit > 1 ? "; prizes in units of " + n(m.unit) : "") + (m.locked ? "; LOCKED (in the money)" : "") : "";
  setStale(false);
}

// Jackpot hands the tables told as they ended (docs/jackpots.md), newest first: the floor is called to the table.
function renderJackpots(s) {
  const jackpots = s.jackpots || [];
  $("jackpotbox").style.display = jackpots.length ? "block" : "none";
  $("jackpots").replaceChildren(...jackpots.slice().reverse().map((j) => el("div", {class: "jackpot"},
    el("b", null, "JACKPOT " + j.jackpot), " " + j.table + " hand " + j.hand + ", seat " + j.seat +
      (j.player ? " (" + j.player + ")" : "") + (j.held ? ": " + j.held : ""),
    el("div", null, j.remedy),
    el("div", {class: "cite"}, j.rule + (j.packet ? "; evidence " + j.packet : "")))));
}

// The room's chip counts, largest first: each table's stacks after the last hand the director took in (a refused
// report never moves them), made from the state by the server (firmware_py/room/leaderboard.py).
function renderChips(s) {
  const board = s.leaderboard;
  if (!board) return;
  const asOf = Object.entries(board.as_of).map(([t, h]) => t + " hand " + h).join(", ");
  $("chipsummary").textContent = board.players + " players, average " + n(board.average) +
    (asOf ? "; as of " + asOf : "");
  $("chips").replaceChildren(...board.rows.map((r) => el("tr", {data: {player: r.player}},
    el("td", null, r.rank), el("td", null, r.name), el("td", {class: "dim"}, r.table + " seat " + r.seat),
    el("td", {class: "prize"}, n(r.chips)),
    el("td", {class: "prize dim"}, r.bb === null ? "" : r.bb.toLocaleString("en-US", {maximumFractionDigits: 1}) + " BB"))));
}

// Registration: late entries, re-entries, rebuys and add-ons, each journaled and undoable.
function renderEntries(s) {
  $("late").textContent = s.late ? "Taken now: " + s.late : "No entries, rebuys or add-ons taken now";
  // the end ends registration too: no live button for what the director would refuse
  for (const c of document.querySelectorAll("#regform input, #regform button, #buyform input, #buyform button")) {
    c.disabled = !!s.over;
  }
  $("alternates").textContent = s.alternates.length ? "Alternates (in order): " + s.alternates.join(", ") : "";
  $("entries").replaceChildren(...s.entries.slice().reverse().map((a) => {
    const undo = !a.undone && !s.over ? el("button", {type: "button"}, "Undo") : null;
    if (undo) undo.addEventListener("click", () => post("/undo", {n: a.n}));
    return el("div", {class: "decision" + (a.undone ? " dim" : ""), data: {n: a.n}},
      el("span", null, a.n + ". " + a.kind + ": " + a.name + (a.card ? " (card " + a.card + ")" : "") +
        (a.chips ? ", " + n(a.chips) + " chips" : "") + (a.paid ? ", paid " + n(a.paid) : "") +
        (a.alternate ? ", alternate" : "") + (a.undone ? ", undone" : "") + " "),
      undo);
  }));
}

// A deal: the split shown first (ICM or chip-chop), recorded only when every player left agrees.
function dealTerms() { return {method: $("dealmethod").value, play_for: Number($("playfor").value) || 0}; }

function agreeBoxes() { return [...document.querySelectorAll("#dealrows input")]; }

async function previewDeal() {
  const r = await fetch("/deal/preview", {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(dealTerms())});
  if (r.status === 401) { location.reload(); return; }
  const body = await r.json();
  if (!r.ok) { $("dealrows").replaceChildren(el("div", {class: "why"}, body.error)); return; }
  $("dealrows").replaceChildren(...body.entry.shares.map((x) => {
    const box = el("input", {type: "checkbox", data: {player: x.player}});
    box.addEventListener("change", () => { $("dealbtn").disabled = !agreeBoxes().every((b) => b.checked); });
    return el("label", {class: "decision dealrow"}, box,
              el("span", null, " " + x.name + " (" + n(x.chips) + " chips): " + n(x.share) + " agrees"));
  }));
  $("dealbtn").disabled = true;
}

function renderDeal(s) {
  $("dealbox").style.display = (s.deal || (s.payouts.length && s.remaining >= 2 && s.remaining <= 10 && !s.over))
    ? "block" : "none";
  $("dealdone").textContent = s.deal ? "Deal (" + s.deal.method + ") agreed by " +
    s.deal.shares.map((x) => x.name + " " + n(x.share)).join(", ") +
    (s.deal.play_for ? "; " + n(s.deal.play_for) + " played for" : "") : "";
  $("previewbtn").disabled = $("dealmethod").disabled = !!s.deal;
  if (s.deal) { $("dealrows").replaceChildren(); $("dealbtn").disabled = true; }
}

async function post(path, body) {
  if (stale) return;  // nothing is sent to a director the page has lost (its controls are off too)
  const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  if (r.status === 401) { location.reload(); return; }  // no longer paired: the pairing page
  if (!r.ok) alert((await r.json()).error || r.statusText);
}

$("regform").addEventListener("submit", (e) => {
  e.preventDefault();
  post("/register", {name: $("regname").value, card: $("regcard").value})
    .then(() => { $("regname").value = ""; $("regcard").value = ""; });
});
$("rebuybtn").addEventListener("click", () => post("/rebuy", {player: $("buyid").value}));
$("addonbtn").addEventListener("click", () => post("/add_on", {player: $("buyid").value}));
$("reenterbtn").addEventListener("click", () => post("/register", {person: $("buyid").value}));
$("previewbtn").addEventListener("click", previewDeal);
$("dealbtn").addEventListener("click", () => post("/deal", {...dealTerms(),
  agreed: agreeBoxes().filter((b) => b.checked).map((b) => b.dataset.player)}));
$("clockbtn").onclick = () => post("/clock", {run: !(state && state.running)});
$("h4hbtn").onclick = () => post("/bubble", {hand_for_hand: !(state && state.hand_for_hand)});
const events = new EventSource("/events");
events.addEventListener("state", (e) => render(JSON.parse(e.data)));
events.addEventListener("ping", () => { heardAt = Date.now(); if (stale && state) setStale(false); });
events.onerror = async () => {
  if (state) setStale(true);
  const r = await fetch("/state");
  if (r.status === 401) { events.close(); location.reload(); }
};
setInterval(tick, 500);
