// The pairing page of every page that acts: the code for a session cookie, then the page itself.
"use strict";
(() => {
  const code = document.getElementById("code"), button = document.getElementById("pairbtn");
  const message = document.getElementById("pairmsg");
  async function pair() {
    button.disabled = true;
    message.textContent = "Pairing\u2026";
    message.className = "";
    try {
      let answer = null;
      for (let tries = 0; tries < 20; tries++) {  // "busy" (503): the page is crowded; its Retry-After, then again
        answer = await fetch("/pair", {method: "POST", headers: {"Content-Type": "application/json"},
                                       body: JSON.stringify({code: code.value})});
        if (answer.status !== 503) break;
        message.textContent = "The page is busy; trying again\u2026";
        await new Promise((done) => setTimeout(done, 1000 * Number(answer.headers.get("Retry-After") || 1)));
      }
      let body = {};
      try { body = await answer.json(); } catch (e) { body = {error: "the page answered " + answer.status}; }
      if (answer.ok && body.ok) {
        message.textContent = "Paired.";
        location.reload();
        return;
      }
      message.textContent = body.error || ("refused (" + answer.status + ")");
      message.className = "bad";
    } catch (e) {
      message.textContent = "no answer from the page: check the network";
      message.className = "bad";
    } finally {
      button.disabled = false;
    }
  }
  button.addEventListener("click", pair);
  code.addEventListener("keydown", (e) => { if (e.key === "Enter") pair(); });
  code.focus();
})();
