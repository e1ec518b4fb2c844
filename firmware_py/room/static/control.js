// The producer's control page: the feature table, reveal, chips, the delay (never on air).
"use strict";
let status = null;
const $ = (id) => document.getElementById(id);
async function send(changes) {
  const answer = await fetch("api/control", { method: "POST", headers: { "Content-Type": "application/json" },
                                              body: JSON.stringify(changes) });
  if (answer.status === 401) { location.reload(); return; }  // no longer paired: the pairing page
  const body = await answer.json();
  $("error").textContent = answer.ok ? "" : body.error;
  if (answer.ok) draw(body);
}
function draw(s) {
  status = s;
  const c = s.control, feature = $("feature");
  $("instance").textContent = s.instance;
  const tables = [...new Set([...s.tables, c.feature])].sort();
  if (feature.dataset.key !== tables.join() + c.feature) {
    feature.dataset.key = tables.join() + c.feature;
    // each table id as text (a topic name is the room's data, never markup)
    feature.replaceChildren(...tables.map((t) => {
      const option = document.createElement("option");
      option.textContent = t;
      option.value = t;
      option.selected = t === c.feature;
      return option;
    }));
  }
  if (document.activeElement !== $("reveal")) $("reveal").value = c.reveal[c.feature] || "immediately";
  if (document.activeElement !== $("chips")) $("chips").value = c.chips;
  if (document.activeElement !== $("delay")) $("delay").value = c.delay_s;
  $("timing").textContent = s.starts_in_s !== null ? `on air in ${s.starts_in_s.toFixed(0)} s`
    : s.next_in_s !== null ? `hand ${s.on_air_hand} on air · next change in ${s.next_in_s.toFixed(1)} s`
    : s.on_air_seq !== null ? `hand ${s.on_air_hand} on air · up to date` : "waiting for the table";
  $("counts").textContent = `${s.held} held for the delay · ${s.received} received · ${s.rejected} refused`;
}
async function poll() {
  try {
    const answer = await fetch("api/status", { cache: "no-store" });
    if (answer.status === 401) { location.reload(); return; }
    draw(await answer.json());
  } catch (e) { /* try again */ }
}
$("feature").onchange = () => send({ feature: $("feature").value });
$("switch").onclick = () => $("other").value && send({ feature: $("other").value });
$("reveal").onchange = () => send({ reveal: { [status.control.feature]: $("reveal").value } });
$("chips").onchange = () => send({ chips: $("chips").value });
$("setdelay").onclick = () => send({ delay_s: Number($("delay").value) });
setInterval(poll, 250); poll();
