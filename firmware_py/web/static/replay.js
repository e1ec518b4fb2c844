// The replay of a hand: the list of hands, then one hand street by street, every row a journal event (its
// seq) or a ruling it caused. Text goes in with textContent only (the pages' CSP and grep tests).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const LONG_ROWS = 70;  // more rows than print in two columns on an A4 page: three (docs/replay.md)
  const PAGE_PX = 1040;  // an A4 page's height less its 10 mm margins at 96 px an inch (1,047), with slack
  const query = new URLSearchParams(location.search);
  let selected = query.get("key");
  const only = query.get("table");  // the room's page: one table's hands (/replay?table=t01)

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  function card(name) {
    const hidden = name === "hidden";
    const red = !hidden && /[hd]$/.test(name);
    return el("span", hidden ? "??" : name, "card" + (hidden ? " hid" : "") + (red ? " red" : ""));
  }

  function chips(n) { return n === null || n === undefined ? "" : Number(n).toLocaleString("en-US"); }

  async function get(path, tries = 30) {
    const answer = await fetch(path, {credentials: "same-origin"});
    if (answer.status === 401) { location.reload(); throw new Error("pair this device first"); }
    if (answer.status === 503 && tries > 0) {  // the table is still reading its journal: say so, ask again
      const body = await answer.json().catch(() => ({}));
      $("hmeta").textContent = body.error || "busy: trying again";
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return get(path, tries - 1);
    }
    const body = await answer.json();
    if (!answer.ok) throw new Error(body.error || answer.statusText);
    return body;
  }

  async function loadList() {
    const body = await get("/replay/hands" + (only ? "?table=" + encodeURIComponent(only) : ""));
    $("title").textContent = body.title + " · hand replay";
    $("policy").textContent = "hole cards of finished hands: " + body.hole_cards;
    const list = $("hands");
    list.replaceChildren();
    for (const hand of body.hands) {
      const button = el("button", (hand.table ? hand.table + " · " : "") + "hand " + hand.hand);
      button.type = "button";
      button.dataset.key = hand.key;
      if (hand.key === selected) button.classList.add("sel");
      button.append(el("span", hand.result + (hand.rulings ? " · " + hand.rulings + " ruling" +
        (hand.rulings > 1 ? "s" : "") : ""), "r"));
      button.addEventListener("click", () => { selected = hand.key; show(hand.key); });
      list.append(button);
    }
    if (!selected && body.hands.length) selected = body.hands[0].key;
    if (selected) await show(selected);
  }

  function who(entry) {
    if (entry.kind === "card" || entry.kind === "gone") return entry.reader || "";
    if (entry.kind === "press") return entry.by ? "by " + entry.by : "by: not recorded";
    if (entry.kind === "ruling") return "ruling";
    return "";
  }

  function row(entry) {
    const tr = el("tr", null, "ev-" + entry.kind + (entry.verdict === "refused" ? " refused" : ""));
    tr.dataset.seq = entry.seq;
    tr.dataset.kind = entry.kind;
    if (entry.n !== undefined && entry.n !== null) tr.dataset.n = entry.n;
    tr.append(el("td", entry.kind === "ruling" ? "" : "#" + entry.seq, "seq"));
    tr.append(el("td", Number(entry.t).toFixed(2) + "s", "t"));
    const what = el("td", null, "what");
    if (entry.kind === "card" && entry.card) {
      what.append(card(entry.card), document.createTextNode(entry.text.slice(entry.card.length)));
    } else {
      what.textContent = entry.text;
    }
    if (entry.verdict === "refused") what.append(el("div", "refused: " + (entry.refused || ""), "small"));
    if (entry.kind === "ruling") {
      what.append(el("div", entry.rule, "rule"), el("div", entry.remedy, "remedy"));
    }
    tr.append(what, el("td", who(entry), "who"));
    return tr;
  }

  async function show(key) {
    for (const b of $("hands").children) b.classList.toggle("sel", b.dataset.key === key);
    const body = await get("/replay/hand?key=" + encodeURIComponent(key));
    const hand = body.replay;
    history.replaceState(null, "", "/replay?" + (only ? "table=" + encodeURIComponent(only) + "&" : "") +
      "key=" + encodeURIComponent(key));
    $("htitle").textContent = (body.table ? "Table " + body.table + " · " : "") + "Hand " + hand.hand +
      (hand.finished ? "" : " (in play)");
    $("hmeta").textContent = [hand.profile, hand.game, "button seat " + (hand.button || "-"),
      "journal #" + hand.first_seq + "–#" + hand.last_seq, hand.played === false ? "misdealt" : ""]
      .filter(Boolean).join(" · ");
    $("hidden").textContent = hand.hidden || "";
    const seats = $("seats").tBodies[0];
    seats.replaceChildren();
    for (const seat of hand.seats || []) {
      const tr = el("tr");
      tr.dataset.seat = seat.seat;
      const cards = el("td", null, "cards");
      for (const c of seat.cards || []) cards.append(card(c));
      tr.append(el("td", seat.seat), el("td", seat.name || ""), el("td", chips(seat.stack)), cards,
        el("td", (seat.state || "") + (seat.shown ? ", shown down" : "")));
      seats.append(tr);
    }
    const board = $("board");
    board.replaceChildren(el("span", "Board: ", "small"));
    for (const c of hand.board || []) board.append(card(c));
    if ((hand.burns || []).length) {
      board.append(el("span", "  burns: ", "small"));
      for (const c of hand.burns) board.append(card(c));
    }
    const streets = $("streets");
    streets.replaceChildren();
    for (const street of hand.streets || []) {
      const section = el("section", null, "street");
      section.dataset.street = street.name;
      section.append(el("h2", street.name === "deal" ? "The deal" : street.name[0].toUpperCase() + street.name.slice(1)));
      const table = el("table");
      const tbody = el("tbody");
      for (const entry of street.entries) tbody.append(row(entry));
      table.append(tbody);
      section.append(table);
      streets.append(section);
    }
    // A long hand (a dispute with many presses, a nine-handed deal) prints in three narrower columns: one page.
    const rows = streets.querySelectorAll("tr").length;
    streets.classList.toggle("long", rows > LONG_ROWS);
    if (hand.truncated) streets.append(el("p", hand.truncated + " more events not kept in this replay", "small"));
    const pots = $("pots").tBodies[0];
    pots.replaceChildren();
    for (const pot of hand.pots || []) {
      const tr = el("tr");
      tr.append(el("td", pot.name), el("td", chips(pot.amount)), el("td", (pot.seats || []).join(", ")),
        el("td", (pot.winners || []).map((s) => "seat " + s).join(", ")),
        el("td", (pot.shares || []).map((s) => "seat " + s[0] + ": " + chips(s[1])).join(", ")));
      pots.append(tr);
    }
    $("result").textContent = hand.result || "";
    $("source").textContent = "From the table's journal: each row is the journaled event of that number, " +
      "or a ruling it caused.";
    fit(printing.matches);
  }

  // The dispute file is one page: printed, a hand taller than the page is zoomed to fit it (measured in the
  // print layout, whose width the print stylesheet fixes at the page's).
  const printing = window.matchMedia("print");
  function fit(print) {
    const article = $("hand");
    article.style.zoom = "";
    article.style.width = "";
    delete article.dataset.zoom;
    if (!print) return;
    const width = article.getBoundingClientRect().width;  // the page's, as the print stylesheet sets it
    const tall = () => article.getBoundingClientRect().height;
    const at = (zoom) => {
      article.style.zoom = String(zoom);
      article.style.width = (width / zoom) + "px";  // zoomed back to the page's width: wider columns, fewer lines
      return tall() <= PAGE_PX;
    };
    let zoom = 1;
    if (tall() > PAGE_PX) {  // the largest zoom that fits, to a hundredth
      let low = 0.2, high = 1;
      while (high - low > 0.01) {
        const mid = (low + high) / 2;
        if (at(mid)) low = mid; else high = mid;
      }
      zoom = Math.floor(low * 100) / 100;
      at(zoom);
    }
    article.dataset.zoom = String(zoom);
  }
  printing.addEventListener("change", (event) => fit(event.matches));
  window.addEventListener("beforeprint", () => fit(true));
  window.addEventListener("afterprint", () => fit(false));

  $("reload").addEventListener("click", () => loadList().catch(fail));
  $("print").addEventListener("click", () => window.print());
  function fail(error) { $("hmeta").textContent = String(error.message || error); }
  loadList().catch(fail);
})();
